//! `smsync cosim KERNEL.ptx --launch LAUNCH.yaml [--config FILE] [--rtl DIR] [--vcd FILE] [--gm-latency N]
//! [--backend verilator|uart-sim|uart:DEVICE] [--baud N] [--timing]`:
//! run a PTX kernel on the golden model and the RTL in lockstep (`smsync_testbench::cosim`).
//! With `--rtl DIR` the RTL is the `sync_unit` top of a directory of Verilog (a `smsync gen`
//! output edited by hand, or with a unit of the user's own), checked against DIR's manifest
//! first (`smsync_testbench::rtl_dir`).
//! The RTL is the Verilated `sync_unit` top (`verilator`, the default), the Verilated ULX3S
//! board top driven through its UART pins (`uart-sim`), or a real board on a serial device
//! running `smsync gen --board ... --baud N` (`uart:/dev/ttyUSB0`). Prints a summary (cycles, per-unit requests / cycles / conflicts)
//! and exits non-zero on the first divergence, with the instruction's file:line, CTA, warp,
//! lanes, the request, expected vs actual and the RTL cycle. `--timing` runs it on the SM timing
//! model, the top clocked one cycle per SM cycle (docs/TIMING.md, "RTL back end").

use smsync_sim::config::Config;
use smsync_sim::exec::{self, Launch};
use smsync_testbench::cosim::{run_cosim, BackendKind, CosimOptions};
use smsync_testbench::rtl_dir::RtlDir;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// The PTX module.
    pub kernel: std::path::PathBuf,
    /// The launch file (YAML).
    #[arg(long)]
    pub launch: std::path::PathBuf,
    /// Architecture config (YAML); the built-in default when omitted, the manifest's with --rtl
    /// (a --config given as well must agree with it).
    #[arg(long)]
    pub config: Option<std::path::PathBuf>,
    /// Cosim this directory's `sync_unit` top (every .v/.sv file of it, e.g. `smsync gen` output
    /// edited by hand) instead of the Verilog generated for the config; its ports are checked
    /// against DIR/manifest.yaml first. A divergence always writes a VCD (--vcd, default
    /// `cosim-<kernel>.vcd` in the current directory).
    #[arg(long, value_name = "DIR")]
    pub rtl: Option<PathBuf>,
    /// Compile the Verilated model's C++ at -O0: an edited top builds sooner and simulates
    /// slower (its own cache entry); for a kernel or two on RTL you edit often.
    #[arg(long)]
    pub fast_build: bool,
    /// On a divergence, write the RTL top's ports over the last --vcd-cycles cycles here.
    #[arg(long)]
    pub vcd: Option<std::path::PathBuf>,
    /// Cycles of port history kept for --vcd.
    #[arg(long, default_value_t = 2000)]
    pub vcd_cycles: usize,
    /// Latency (cycles) of the RTL's global-memory port.
    #[arg(long, default_value_t = 20)]
    pub gm_latency: u32,
    /// Stop after this many warp-instructions.
    #[arg(long, default_value_t = 20_000_000)]
    pub max_steps: u64,
    /// RTL backend: `verilator` (the sync_unit top), `uart-sim` (the simulated ULX3S board top
    /// behind the UART bridge), or `uart:/dev/ttyUSB0` (a real board).
    #[arg(long, default_value = "verilator")]
    pub backend: String,
    /// Baud rate of `--backend uart:DEVICE` (the board's top must be generated for it).
    #[arg(long, default_value_t = 115_200)]
    pub baud: u32,
    /// Print one JSON object (cycles, requests, per-unit counts, final buffers) instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Timed cosim: the SM timing model (config `timing:`) issues the requests and the top is
    /// clocked one cycle per SM cycle, requests entering its port as they issue (the RTL back
    /// end of docs/TIMING.md); kernel cycles, IPC, stalls and the top's load per unit on
    /// stderr and in the JSON's `result.timing`. `--backend verilator` only.
    #[arg(long)]
    pub timing: bool,
}

pub fn main(a: Args) -> Result<(), String> {
    let (config, rtl_dir) = config_and_rtl(a.config.as_deref(), a.rtl.as_deref())?;
    let vcd = match (&a.vcd, &rtl_dir) {
        (None, Some(_)) => Some(default_vcd(&a.kernel)),
        (vcd, _) => vcd.clone(),
    };
    let file = a.kernel.display().to_string();
    let text = std::fs::read_to_string(&a.kernel).map_err(|e| format!("{file}: {e}"))?;
    let module = exec::parse_module(&text, &file)?;
    let launch = Launch::from_file(&a.launch).map_err(|e| format!("{}: {e}", a.launch.display()))?;
    let backend = BackendKind::parse(&a.backend, a.baud)?;
    let opts = CosimOptions {
        gm_latency: a.gm_latency,
        fault_inject: false,
        vcd,
        vcd_cycles: a.vcd_cycles,
        max_steps: a.max_steps,
        backend,
        fast_build: a.fast_build,
        rtl_dir,
        timed: a.timing,
    };
    let report = run_cosim(&module, &launch, &config, &opts).map_err(|f| f.to_string())?;
    if let Some(t) = &report.result.timing {
        eprint!("{}", crate::cmd_run::timing_table(t));
    }
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let text = if a.json { report.to_json() + "\n" } else { report.summary() };
    match out.write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing the summary: {e}")),
        _ => Ok(()),
    }
}

/// The config and, with `rtl`, the checked RTL directory: the config is then the manifest's, and
/// a `--config` file must agree with it. Prints what `--rtl` found on stderr.
pub fn config_and_rtl(config: Option<&Path>, rtl: Option<&Path>) -> Result<(Config, Option<Arc<RtlDir>>), String> {
    let given = match config {
        Some(p) => Some(Config::from_file(p).map_err(|e| e.to_string())?),
        None => None,
    };
    let Some(dir) = rtl else {
        return Ok((given.unwrap_or_default(), None));
    };
    let label = config.map(|p| format!("--config {}", p.display()));
    let rtl = RtlDir::open_checked(dir, given.as_ref().zip(label.as_deref()))?;
    eprintln!(
        "--rtl {}: {} Verilog file(s), config `{}` from its manifest, the {} ports of `sync_unit` match it",
        dir.display(),
        rtl.files.len(),
        rtl.config.name,
        rtl.ports.len()
    );
    Ok((rtl.config.clone(), Some(Arc::new(rtl))))
}

/// Where `--rtl` writes the divergence VCD when `--vcd` is not given: `cosim-<kernel stem>.vcd`.
fn default_vcd(kernel: &Path) -> PathBuf {
    let stem = kernel.file_stem().map_or_else(|| "kernel".into(), |s| s.to_string_lossy().into_owned());
    PathBuf::from(format!("cosim-{stem}.vcd"))
}
