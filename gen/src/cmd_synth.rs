//! `smsync synth`: synthesis (and place-and-route where the target has it) of every generated
//! module for one FPGA target; prints the Markdown report and writes report.json / report.md.
//! The flow itself lives in the `smsync-fpga` crate (fpga/src/flow.rs).

use smsync_fpga::flow::{self, FlowOptions};
use smsync_fpga::target::Target;
use smsync_sim::config::Config;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Architecture config (YAML); the built-in default when omitted.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// FPGA target: ecp5-85k, ice40-up5k or xilinx-7 (yosys estimate, no place-and-route).
    #[arg(long)]
    pub target: String,
    /// Output directory (default build/synth/<config>-<target>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Only this module (repeatable): barrier_file, mbarrier_alu, warp_network, copy_engine, sync_unit.
    #[arg(long = "module")]
    pub modules: Vec<String>,
    /// Time limit of each tool run, in seconds.
    #[arg(long, default_value_t = 1800)]
    pub timeout: u64,
    /// Stop after yosys (no place-and-route, no Fmax).
    #[arg(long)]
    pub no_pnr: bool,
}

pub fn main(a: Args) -> Result<(), String> {
    let target = Target::parse(&a.target)?;
    let config = match &a.config {
        Some(path) => Config::from_file(path).map_err(|e| e.to_string())?,
        None => Config::default(),
    };
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from(format!("build/synth/{}-{}", config.name, target.name())));
    let command = std::env::args().map(|s| if s.contains(' ') { format!("'{s}'") } else { s }).collect::<Vec<_>>().join(" ");
    let opts = FlowOptions { target, out: out.clone(), modules: a.modules, timeout: Duration::from_secs(a.timeout), no_pnr: a.no_pnr, command };
    let report = flow::run(&config, &opts)?;
    println!("{}", report.to_markdown());
    println!("report: {0}/report.json, {0}/report.md", out.display());
    let failed: Vec<_> = report.modules.iter().filter(|m| m.error.is_some()).map(|m| m.module.as_str()).collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("tool run failed for: {} (see the report)", failed.join(", ")))
    }
}
