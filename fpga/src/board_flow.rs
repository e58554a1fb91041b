//! `smsync synth --board ulx3s`: the board top-level (board shell + UART host bridge + the
//! `sync_unit` top, one Verilog file from `smsync gen --board`) through yosys `synth_ecp5`,
//! nextpnr-ecp5 with the board's pin constraints (`constraints/ulx3s.lpf` plus the generated
//! `FREQUENCY` line of the PLL's output), and `ecppack` into a bitstream `<out>/<top>.bit`.
//! nextpnr times the design against the core clock, the EHXPLLL's output (`clock_mhz`; it also
//! derives that constraint from the oscillator's `FREQUENCY` and the PLL's dividers), and the
//! report compares the core clock's Fmax with it.
//!
//! Unlike the per-module flow ([`crate::flow`]) there is no registered-I/O wrapper: the board top
//! has real pins, so the design is placed as it would be loaded. Each step that cannot run is
//! recorded in the report with the reason (a design that exceeds the device is not placed: the
//! report names the resource and by how much), and the flow stops there.
//!
//! This crate does not depend on `smsync-boards` (kept apart so the board crate's edits do not
//! rebuild the flow): the caller passes the generated Verilog and the constraint text.

use crate::fit;
use crate::report::ToolVersion;
use crate::target::{Resources, Target};
use crate::toolchain::nextpnr::{ecppack, Nextpnr, PnrOutput};
use crate::toolchain::yosys::Yosys;
use serde::Serialize;
use smsync_progress::{Mode, Progress};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What to build: the board top's Verilog and constraints, produced by the caller.
pub struct BoardInput<'a> {
    pub board: &'a str,
    /// Top module name (`ulx3s_top`).
    pub top: &'a str,
    pub verilog: &'a str,
    /// Name and text of the constraint file (`ulx3s.lpf`).
    pub constraints_name: &'a str,
    pub constraints: &'a str,
    /// The core clock (MHz), the PLL's output: the frequency nextpnr is asked for and Fmax is
    /// compared with.
    pub clock_mhz: f64,
    /// How that clock is made (the PLL setting, one line), for the report.
    pub clock: String,
    pub config: &'a str,
    pub out: PathBuf,
    pub timeout: Duration,
    /// nextpnr's placement seed.
    pub seed: u32,
    pub command: String,
    /// How progress (yosys, nextpnr-ecp5, ecppack: done / 3, the one running and for how long)
    /// is shown on stderr.
    pub progress: Mode,
}

#[derive(Clone, Debug, Serialize)]
pub struct BoardReport {
    pub board: String,
    pub top: String,
    pub config: String,
    pub device: String,
    pub tools: Vec<ToolVersion>,
    pub seed: u32,
    /// The core clock (MHz) and how the PLL makes it.
    pub clock_mhz: f64,
    pub clock: String,
    pub command: String,
    /// yosys counts of the whole board top.
    pub synth: Option<Resources>,
    pub synth_seconds: Option<f64>,
    /// Reasons the synthesised design cannot be placed on the device (resource over capacity).
    pub does_not_fit: Vec<String>,
    pub pnr: Option<PnrOutput>,
    /// The packed bitstream, when every step finished.
    pub bitstream: Option<PathBuf>,
    /// The step that failed or timed out, with its message.
    pub error: Option<String>,
}

impl BoardReport {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    pub fn to_markdown(&self) -> String {
        let cap = Target::Ecp5_85k.capacity();
        let mut md =
            format!("### Board `{}` (top `{}`), config `{}`, {}\n\n", self.board, self.top, self.config, self.device);
        md += &format!("Command: `{}`  \n", self.command);
        md += &format!(
            "Tools: {}  \n",
            self.tools.iter().map(|t| format!("{} = `{}`", t.tool, t.version)).collect::<Vec<_>>().join(", ")
        );
        md += &format!("nextpnr seed {}, core clock {} MHz: {}\n\n", self.seed, self.clock_mhz, self.clock);
        match &self.synth {
            Some(r) => {
                md += &format!(
                    "* yosys ({:.0} s): {} LUTs ({:.1}%), {} FFs ({:.1}%), {} DP16KD ({:.1}%), {} DSP\n",
                    self.synth_seconds.unwrap_or(0.0),
                    r.luts,
                    100.0 * r.luts as f64 / cap.luts as f64,
                    r.ffs,
                    100.0 * r.ffs as f64 / cap.ffs as f64,
                    r.bram,
                    100.0 * r.bram / cap.bram_blocks,
                    r.dsp
                )
            }
            None => md += "* yosys: did not finish\n",
        }
        for r in &self.does_not_fit {
            md += &format!("* **does not fit**: {r}\n");
        }
        if let Some(p) = &self.pnr {
            let util = p
                .utilisation
                .iter()
                .filter(|(_, u)| u.used > 0)
                .map(|(k, u)| format!("{k} {}/{}", u.used, u.available))
                .collect::<Vec<_>>()
                .join(", ");
            md += &format!("* nextpnr ({:.0} s): {util}\n", p.seconds);
            match p.fmax_mhz {
                Some(f) => {
                    let verdict = if f >= self.clock_mhz { "meets" } else { "MISSES" };
                    md += &format!("* Fmax {f:.1} MHz: {verdict} the {} MHz core clock\n", self.clock_mhz)
                }
                None => md += "* Fmax: nextpnr reported none\n",
            }
        }
        if let Some(b) = &self.bitstream {
            md += &format!("* bitstream: `{}`\n", b.display());
        }
        if let Some(e) = &self.error {
            md += &format!("* **stopped**: {}\n", e.lines().next().unwrap_or(""));
        }
        md
    }
}

/// Synthesise, place, route and pack the board top. Tool failures end up in the report (and the
/// report is written); only an unusable output directory is an `Err`.
pub fn run(input: &BoardInput) -> Result<BoardReport, String> {
    let rtl = input.out.join("rtl");
    let work = input.out.join("work");
    for d in [&rtl, &work] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let vfile = rtl.join(format!("{}.v", input.top));
    write(&vfile, input.verilog)?;
    let lpf = rtl.join(input.constraints_name);
    write(&lpf, input.constraints)?;

    let target = Target::Ecp5_85k;
    let mut report = BoardReport {
        board: input.board.into(),
        top: input.top.into(),
        config: input.config.into(),
        device: target.device().into(),
        tools: Vec::new(),
        seed: input.seed,
        clock_mhz: input.clock_mhz,
        clock: input.clock.clone(),
        command: input.command.clone(),
        synth: None,
        synth_seconds: None,
        does_not_fit: Vec::new(),
        pnr: None,
        bitstream: None,
        error: None,
    };
    let progress = Progress::new(input.progress, &format!("smsync synth --board {}", input.board), "steps", 3);
    if let Err(e) = steps(input, target, &vfile, &lpf, &work, &mut report, &progress) {
        progress.println(&format!("smsync synth --board: {e}"));
        report.error = Some(e);
    }
    progress.finish();
    write(&input.out.join("report.json"), &report.to_json())?;
    write(&input.out.join("report.md"), &report.to_markdown())?;
    Ok(report)
}

fn steps(
    input: &BoardInput,
    target: Target,
    vfile: &Path,
    lpf: &Path,
    work: &Path,
    report: &mut BoardReport,
    progress: &Progress,
) -> Result<(), String> {
    let yosys = Yosys::find().map_err(|e| e.to_string())?;
    report.tools.push(ToolVersion { tool: "yosys".into(), version: yosys.version() });
    let mut nextpnr = Nextpnr::find(crate::target::Pnr::Ecp5).map_err(|e| e.to_string())?;
    nextpnr.seed = input.seed;
    report.tools.push(ToolVersion {
        tool: nextpnr.exe.file_name().unwrap_or_default().to_string_lossy().into(),
        version: nextpnr.version(),
    });

    let task = progress.task();
    task.phase("yosys (synth_ecp5)");
    // The sync unit's blocks (and the bridge) stay separate modules, as in the per-module flow.
    let keep = crate::flow::unit_submodules(input.verilog, input.top);
    let out = yosys
        .synth(target, &[vfile.to_path_buf()], input.top, None, work, true, &keep, input.timeout)
        .map_err(|e| e.to_string())?;
    let counts = target.count(&out.core_cells);
    report.synth = Some(counts);
    report.synth_seconds = Some(out.seconds);
    // The board top's pins are real pins (no wrapper): no chain bits to add.
    report.does_not_fit = fit::check_synthesised(target, &counts, 0, 0);
    if !report.does_not_fit.is_empty() {
        return Err(format!("not placed: the synthesised board top exceeds the {}", target.device()));
    }
    let netlist = out.netlist.ok_or("yosys wrote no netlist")?;
    progress.inc(1);

    task.phase(&format!("nextpnr-ecp5 (seed {}, {} MHz)", input.seed, input.clock_mhz));
    let pnr = nextpnr
        .place_and_route(&netlist, input.top, Some(lpf), input.clock_mhz, work, input.timeout)
        .map_err(|e| e.to_string())?;
    let routed = pnr.routed.clone();
    report.pnr = Some(pnr);
    progress.inc(1);

    task.phase("ecppack");
    let bit = input.out.join(format!("{}.bit", input.top));
    let version = ecppack(&routed, &bit, work, input.timeout).map_err(|e| e.to_string())?;
    report.tools.push(ToolVersion { tool: "ecppack".into(), version });
    report.bitstream = Some(bit);
    progress.inc(1);
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
