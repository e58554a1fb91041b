//! `smsync cosim KERNEL.ptx --launch LAUNCH.yaml [--config FILE] [--vcd FILE] [--gm-latency N]
//! [--backend verilator|uart-sim|uart:DEVICE] [--baud N]`:
//! run a PTX kernel on the golden model and the RTL in lockstep (`smsync_testbench::cosim`).
//! The RTL is the Verilated `sync_unit` top (`verilator`, the default), the Verilated ULX3S
//! board top driven through its UART pins (`uart-sim`), or a real board on a serial device
//! running `smsync gen --board ... --baud N` (`uart:/dev/ttyUSB0`). Prints a summary (cycles, per-unit requests / cycles / conflicts)
//! and exits non-zero on the first divergence, with the instruction's file:line, CTA, warp,
//! lanes, the request, expected vs actual and the RTL cycle.

use smsync_sim::config::Config;
use smsync_sim::exec::{self, Launch};
use smsync_testbench::cosim::{run_cosim, BackendKind, CosimOptions};

#[derive(clap::Args)]
pub struct Args {
    /// The PTX module.
    pub kernel: std::path::PathBuf,
    /// The launch file (YAML).
    #[arg(long)]
    pub launch: std::path::PathBuf,
    /// Architecture config (YAML); the built-in default when omitted.
    #[arg(long)]
    pub config: Option<std::path::PathBuf>,
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
}

pub fn main(a: Args) -> Result<(), String> {
    let config = match &a.config {
        Some(p) => Config::from_file(p).map_err(|e| e.to_string())?,
        None => Config::default(),
    };
    let file = a.kernel.display().to_string();
    let text = std::fs::read_to_string(&a.kernel).map_err(|e| format!("{file}: {e}"))?;
    let module = exec::parse_module(&text, &file)?;
    let launch = Launch::from_file(&a.launch).map_err(|e| format!("{}: {e}", a.launch.display()))?;
    let backend = BackendKind::parse(&a.backend, a.baud)?;
    let opts = CosimOptions {
        gm_latency: a.gm_latency,
        fault_inject: false,
        vcd: a.vcd.clone(),
        vcd_cycles: a.vcd_cycles,
        max_steps: a.max_steps,
        backend,
    };
    let report = run_cosim(&module, &launch, &config, &opts).map_err(|f| f.to_string())?;
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let text = if a.json { report.to_json() + "\n" } else { report.summary() };
    match out.write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing the summary: {e}")),
        _ => Ok(()),
    }
}
