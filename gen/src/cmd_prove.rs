//! `smsync prove [--config FILE] [--unit NAME]`: the units' formal properties with yosys-smtbmc
//! (issue 20). For each unit with a checker (`smsync_hdl::formal`): generate the unit's Verilog
//! and its checker for the config, prove the properties (`smsync_rtl_tools::prove`: k-induction,
//! else BMC), print a line per property and the time per unit. Non-zero exit if one fails.
//!
//! `--property NAME` checks one property alone; `--fault NAME` (for the tests and to see a
//! property fail) builds the unit with one of its documented faults and checks that fault's
//! property alone.
//!
//! Work directory layout (models, logs, counterexample VCDs):
//! ```text
//! <out>/<unit>/unit.v, <checker>.sv, model.smt2, induction-k<k>.log, base.log, bmc.log, *-cex*.vcd
//! ```

use smsync_hdl::formal::{formal_unit, formal_units, FormalUnit, MIN_DEPTH};
use smsync_hdl::sync_unit;
use smsync_rtl_tools::prove::{check_tools, prove, ProofJob, Verdict};
use smsync_sim::config::Config;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Architecture config (YAML); the built-in default when omitted.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The unit to prove (its module name, e.g. `mbarrier_alu`); every unit with properties when
    /// omitted.
    #[arg(long)]
    pub unit: Option<String>,
    /// Check this property alone (its own assertions only).
    #[arg(long)]
    pub property: Option<String>,
    /// Build the unit with this documented fault and check its property (the property must fail).
    #[arg(long, requires = "unit")]
    pub fault: Option<String>,
    /// BMC depth where induction does not close (at least 20); by default each unit's own depth
    /// (20, or the steps its slowest answer takes: the warp network's redux on a narrow beat).
    #[arg(long)]
    pub depth: Option<usize>,
    /// Skip induction: BMC to --depth only (a second opinion on an induction proof).
    #[arg(long)]
    pub bmc_only: bool,
    /// Also check the properties whose proof does not close, by BMC to this many steps (a
    /// shallow bound, below the 20 that --depth asks: a failure is a real counterexample, a pass
    /// says nothing past it; the barrier file's four take 21 s together at 8 on fpga-small).
    #[arg(long, conflicts_with_all = ["property", "fault"])]
    pub open_depth: Option<usize>,
    /// Work directory (models, logs, counterexample VCDs).
    #[arg(long, default_value = "build/prove")]
    pub out: PathBuf,
}

pub fn main(a: Args) -> Result<(), String> {
    let config = match &a.config {
        Some(path) => Config::from_file(path).map_err(|e| e.to_string())?,
        None => Config::default(),
    };
    if let Some(depth) = a.depth.filter(|&d| d < MIN_DEPTH) {
        return Err(format!("--depth {depth}: the BMC depth is at least {MIN_DEPTH}"));
    }
    let units = match &a.unit {
        Some(name) => vec![formal_unit(name)?],
        None => formal_units(),
    };
    check_tools()?;
    let mut failed = Vec::new();
    for unit in &units {
        if !prove_unit(&config, unit, &a)? {
            failed.push(unit.module);
        }
    }
    match failed.is_empty() {
        true => Ok(()),
        false => Err(format!("properties failed in: {}", failed.join(", "))),
    }
}

/// Prove one unit's properties and print the verdicts; false if one failed.
fn prove_unit(config: &Config, unit: &FormalUnit, a: &Args) -> Result<bool, String> {
    let mut verilog = unit_verilog(config, unit.module)?;
    let mut properties: Vec<&str> = unit.properties.iter().filter(|p| p.closes).map(|p| p.name).collect();
    let open: Vec<&str> = unit.properties.iter().filter(|p| !p.closes).map(|p| p.name).collect();
    if let Some(name) = &a.fault {
        let fault = unit.faults.iter().find(|f| f.name == name.as_str()).ok_or_else(|| {
            let names: Vec<&str> = unit.faults.iter().map(|f| f.name).collect();
            format!("no fault `{name}` for {}; its faults: {}", unit.module, names.join(", "))
        })?;
        verilog = fault.apply(&verilog)?;
        properties = vec![fault.property];
        println!("{}: with fault `{}`: {}", unit.module, fault.name, fault.bug);
    }
    if let Some(name) = &a.property {
        if !unit.properties.iter().any(|p| p.name == name.as_str()) {
            let all: Vec<&str> = unit.properties.iter().map(|p| p.name).collect();
            return Err(format!("no property `{name}` for {}; its properties: {}", unit.module, all.join(", ")));
        }
        properties = vec![name.as_str()];
    } else if a.fault.is_none() && a.open_depth.is_none() {
        for p in &open {
            println!(
                "{}: {p}: not checked (its proof does not close in minutes; `--unit {} --property {p}` runs it, \
                 `--open-depth N` bounds it to N steps)",
                unit.module, unit.module
            );
        }
    }
    let mut held = true;
    if properties.is_empty() {
        // Every property of the unit is open (the copy engine's): none to prove.
        println!("{}: no property closes in minutes; none proven", unit.module);
    }
    // The checked properties' largest depth (`Property::depth`), unless --depth is given.
    let depth = unit
        .properties
        .iter()
        .filter(|p| properties.contains(&p.name))
        .map(|p| (p.depth)(config))
        .max()
        .unwrap_or(MIN_DEPTH);
    let bmc_only = a.bmc_only || !unit.induction;
    if !properties.is_empty() {
        held &=
            run_job(config, unit, &verilog, properties, &a.out.join(unit.module), a.depth.unwrap_or(depth), bmc_only)?;
    }
    if let Some(depth) = a.open_depth.filter(|_| !open.is_empty()) {
        held &= run_job(config, unit, &verilog, open, &a.out.join(format!("{}-open", unit.module)), depth, true)?;
    }
    Ok(held)
}

/// One prover run over `properties`; prints each verdict. False if one failed.
fn run_job(
    config: &Config,
    unit: &FormalUnit,
    verilog: &str,
    properties: Vec<&str>,
    dir: &Path,
    depth: usize,
    bmc_only: bool,
) -> Result<bool, String> {
    let checker = (unit.checker)(config);
    let job = ProofJob {
        unit_verilog: verilog,
        checker: &checker,
        checker_top: unit.checker_top,
        properties,
        dir,
        depth,
        bmc_only,
    };
    let outcome = prove(&job)?;
    for (property, verdict) in &outcome.verdicts {
        println!("{}: {property}: {verdict}", unit.module);
    }
    println!("{}: config `{}`: {:.1} s (work directory {})", unit.module, config.name, outcome.seconds, dir.display());
    Ok(!outcome.verdicts.iter().any(|(_, v)| matches!(v, Verdict::Failed { .. })))
}

/// The unit's Verilog as `smsync gen` writes it for `config`.
fn unit_verilog(config: &Config, module: &str) -> Result<String, String> {
    let entry = sync_unit::modules(config)
        .into_iter()
        .find(|m| m.module == module)
        .ok_or_else(|| format!("no generated module `{module}` (generator bug)"))?;
    (entry.generate)(config).map_err(|e| e.to_string())
}
