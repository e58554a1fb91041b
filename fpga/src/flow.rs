//! The `smsync synth` flow for one config and target:
//!
//! 1. generate every module's Verilog (the same generators as `smsync gen`) into `<out>/rtl/`;
//! 2. pre-check each module against the device ([`crate::fit`]); on a target whose top cannot
//!    fit (iCE40 UP5K), refuse the config before running any tool unless single units were asked;
//! 3. per module: yosys (module inside its registered-I/O wrapper where place-and-route follows,
//!    the module's own counts read apart), then nextpnr with a pinned seed;
//! 4. write `<out>/report.json` and `<out>/report.md`.
//!
//! A tool failure or time-out on one module is recorded in its entry and the flow goes on.
//! Progress (modules done / total, the module and tool phase running and for how long) goes to
//! stderr through `smsync_progress`.

use crate::fit;
use crate::regio;
use crate::report::{ModuleReport, SynthReport, ToolVersion};
use crate::target::Target;
use crate::toolchain::nextpnr::{Nextpnr, TARGET_MHZ};
use crate::toolchain::yosys::Yosys;
use smsync_hdl::common::ports_of;
use smsync_hdl::sync_unit;
use smsync_progress::{Mode, Progress, Task};
use smsync_sim::config::Config;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct FlowOptions {
    pub target: Target,
    pub out: PathBuf,
    /// Only these modules (by module name, e.g. `mbarrier_alu`, `sync_unit`); all when empty.
    pub modules: Vec<String>,
    /// Time limit of each tool run.
    pub timeout: Duration,
    /// Skip place-and-route (yosys numbers only), e.g. for a quick look.
    pub no_pnr: bool,
    /// nextpnr's placement seed.
    pub seed: u32,
    /// The command line, recorded in the report.
    pub command: String,
    /// How progress is shown on stderr.
    pub progress: Mode,
}

pub fn run(config: &Config, opt: &FlowOptions) -> Result<SynthReport, String> {
    let rtl = opt.out.join("rtl");
    let work = opt.out.join("work");
    for d in [&rtl, &work] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let all = sync_unit::modules(config);
    for name in &opt.modules {
        if !all.iter().any(|m| m.module == name) {
            return Err(format!(
                "unknown module `{name}`; this config generates: {}",
                all.iter().map(|m| m.module).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    let selected: Vec<_> =
        all.iter().filter(|m| opt.modules.is_empty() || opt.modules.iter().any(|n| n == m.module)).collect();

    // 1-2: Verilog and the pre-check (no external tool yet).
    let mut entries = Vec::new();
    for m in &selected {
        let text = (m.generate)(config).map_err(|e| e.to_string())?;
        let ports =
            ports_of(&text, m.module).ok_or_else(|| format!("generated Verilog has no module `{}`", m.module))?;
        let file = rtl.join(format!("{}.v", m.module));
        std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
        let (input_bits, output_bits) = regio::chain_bits(&ports);
        let fit = fit::check(opt.target, config, (input_bits + output_bits + 1) as u64, m.unit.is_none());
        entries.push((
            m,
            file,
            ports,
            ModuleReport {
                module: m.module.to_string(),
                unit: m.unit.map(|u| u.name().to_string()),
                input_bits,
                output_bits,
                fit,
                synth: None,
                synth_seconds: None,
                parts: Default::default(),
                pnr: None,
                error: None,
            },
        ));
    }
    if opt.target == Target::Ice40Up5k {
        if let Some((_, _, _, top)) = entries.iter().find(|e| e.3.unit.is_none() && !e.3.fit.refused.is_empty()) {
            return Err(format!(
                "config `{}` cannot fit the {}: {}. Nothing was run. Single units may still fit: pass --module <unit>.",
                config.name,
                opt.target.device(),
                top.fit.refused.join("; ")
            ));
        }
    }

    // 3: the tools.
    let yosys = Yosys::find().map_err(|e| e.to_string())?;
    let mut tools = vec![ToolVersion { tool: "yosys".into(), version: yosys.version() }];
    let pnr_kind = if opt.no_pnr { None } else { opt.target.pnr() };
    let nextpnr = match pnr_kind {
        Some(kind) => {
            let mut n = Nextpnr::find(kind).map_err(|e| e.to_string())?;
            n.seed = opt.seed;
            tools.push(ToolVersion {
                tool: n.exe.file_name().unwrap_or_default().to_string_lossy().into(),
                version: n.version(),
            });
            Some(n)
        }
        None => None,
    };
    let mut modules = Vec::new();
    let progress = Progress::new(opt.progress, "smsync synth", "modules", entries.len() as u64);
    let task = progress.task();
    for (m, file, ports, mut entry) in entries {
        if !entry.fit.refused.is_empty() {
            progress.println(&format!(
                "smsync synth: {}: skipped, does not fit: {}",
                m.module,
                entry.fit.refused.join("; ")
            ));
            modules.push(entry);
            progress.inc(1);
            continue;
        }
        let run = ModuleRun { yosys: &yosys, nextpnr: nextpnr.as_ref(), opt, progress: &progress, task: &task };
        if let Err(e) = run.synth_and_place(m.module, &file, &ports, &work, &mut entry) {
            progress.println(&format!("smsync synth: {}: {e}", m.module));
            entry.error = Some(e);
        }
        modules.push(entry);
        progress.inc(1);
    }
    drop(task);
    progress.finish();

    let report = SynthReport {
        generator: format!("smsync {}", env!("CARGO_PKG_VERSION")),
        config: config.name.clone(),
        target: opt.target.name().into(),
        device: opt.target.device().into(),
        estimate: opt.target.pnr().is_none(),
        tools,
        seed: nextpnr.as_ref().map(|n| n.seed),
        target_mhz: nextpnr.as_ref().map(|_| TARGET_MHZ),
        command: opt.command.clone(),
        modules,
    };
    write(&opt.out.join("report.json"), &report.to_json())?;
    write(&opt.out.join("report.md"), &report.to_markdown())?;
    Ok(report)
}

/// What one module's tool runs need besides the module itself.
struct ModuleRun<'a> {
    yosys: &'a Yosys,
    nextpnr: Option<&'a Nextpnr>,
    opt: &'a FlowOptions,
    progress: &'a Progress,
    /// Shows the module and tool phase running, and for how long.
    task: &'a Task<'a>,
}

impl ModuleRun<'_> {
    fn synth_and_place(
        &self,
        module: &str,
        file: &Path,
        ports: &[smsync_hdl::common::Port],
        work: &Path,
        entry: &mut ModuleReport,
    ) -> Result<(), String> {
        let (opt, nextpnr) = (self.opt, self.nextpnr);
        let mut sources = vec![file.to_path_buf()];
        let wrapper = nextpnr.map(|_| regio::wrapper_name(module));
        if let Some(w) = &wrapper {
            let wfile = work.join(format!("{w}.v"));
            write(&wfile, &regio::wrapper_verilog(module, ports))?;
            sources.push(wfile);
        }
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let units = unit_submodules(&text, module);
        self.task.phase(&format!("{module}: yosys ({})", opt.target.name()));
        let out = self
            .yosys
            .synth(opt.target, &sources, module, wrapper.as_deref(), work, nextpnr.is_some(), &units, opt.timeout)
            .map_err(|e| e.to_string())?;
        let counts = opt.target.count(&out.core_cells);
        entry.synth = Some(counts);
        entry.parts = out.kept_cells.iter().map(|(name, cells)| (name.clone(), opt.target.count(cells))).collect();
        entry.synth_seconds = Some(out.seconds);
        if nextpnr.is_some() {
            let chain = (entry.input_bits + entry.output_bits + 1) as u64;
            let over = fit::check_synthesised(opt.target, &counts, chain, entry.output_bits as u64);
            if !over.is_empty() {
                self.progress
                    .println(&format!("smsync synth: {module}: not placed, exceeds the device: {}", over.join("; ")));
                entry.fit.refused.extend(over.into_iter().map(|r| format!("after synthesis, {r}; not placed")));
                return Ok(());
            }
        } else {
            // No place-and-route (xilinx-7, or --no-pnr): still say when the estimate exceeds the device
            // (the module alone, no wrapper), so a row never reads as fitting when it cannot.
            let over = fit::check_synthesised(opt.target, &counts, 0, 0);
            if !over.is_empty() {
                self.progress.println(&format!(
                    "smsync synth: {module}: the synthesised module exceeds the device: {}",
                    over.join("; ")
                ));
                entry
                    .fit
                    .refused
                    .extend(over.into_iter().map(|r| format!("after synthesis (no place-and-route), {r}")));
            }
        }
        if let (Some(n), Some(w), Some(netlist)) = (nextpnr, &wrapper, &out.netlist) {
            self.task.phase(&format!("{module}: nextpnr (seed {})", n.seed));
            match n.place_and_route(netlist, w, None, TARGET_MHZ, work, opt.timeout) {
                Ok(p) => entry.pnr = Some(p),
                Err(e) => {
                    // Over capacity after nextpnr's packing: the row says which resource and by how
                    // much, as the checks before it do, instead of a bare tool failure.
                    let log = std::fs::read_to_string(work.join(format!("{w}.nextpnr.log"))).unwrap_or_default();
                    let over = crate::toolchain::nextpnr::overfull(&log);
                    if over.is_empty() {
                        return Err(e.to_string());
                    }
                    self.progress
                        .println(&format!("smsync synth: {module}: does not fit after packing: {}", over.join("; ")));
                    entry
                        .fit
                        .refused
                        .extend(over.into_iter().map(|r| format!("in placement (nextpnr packing), {r}; not placed")));
                }
            }
        }
        Ok(())
    }
}

/// The unit blocks inside a generated module: every submodule (not `module` itself) whose port
/// list has a `req_valid` request port. In the `sync_unit` top these are the barrier file, the
/// mbarrier ALU, the warp network, the copy engine and the atomic ALU; the other submodules
/// rust-hdl writes are single registers (`d`, `q`, `clock`). yosys keeps the units as separate
/// modules (flattening only the registers into them): optimising one flat top of 300k+ cells
/// is what made `synth_ecp5` of the top take hours, and the report gets a per-unit breakdown.
pub fn unit_submodules(verilog: &str, module: &str) -> Vec<String> {
    verilog
        .lines()
        .filter_map(|line| line.strip_prefix("module "))
        .filter_map(|rest| {
            let (name, ports) = rest.split_once('(')?;
            let has_request = ports.split([',', ')']).any(|p| p.trim() == "req_valid");
            (name != module && has_request).then(|| name.to_string())
        })
        .collect()
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_inside_a_top_are_the_submodules_with_a_request_port() {
        let v = "module top(clock,req_valid,x);\nendmodule\nmodule top$core$wnet(clock,reset,req_valid,req_ready);\nendmodule\n\
                 module top$core$o_valid(d,q,clock);\nendmodule\nmodule top$core$barrier(clock,req_valid_x,req_valid);\nendmodule\n";
        assert_eq!(unit_submodules(v, "top"), vec!["top$core$wnet".to_string(), "top$core$barrier".to_string()]);
        assert!(unit_submodules("module unit(clock,req_valid);\nendmodule\n", "unit").is_empty());
    }
}
