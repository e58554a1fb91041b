//! `smsync cosim KERNEL.ptx --launch LAUNCH.yaml [--config FILE] [--vcd FILE] [--gm-latency N]`:
//! run a PTX kernel on the golden model and the Verilated RTL in lockstep
//! (`smsync_testbench::cosim`). Prints a summary (cycles, per-unit requests / cycles / conflicts)
//! and exits non-zero on the first divergence, with the instruction's file:line, CTA, warp,
//! lanes, the request, expected vs actual and the RTL cycle.

use smsync_sim::config::Config;
use smsync_sim::exec::{self, Launch};
use smsync_testbench::cosim::{run_cosim, CosimOptions};

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
    let opts = CosimOptions {
        gm_latency: a.gm_latency,
        fault_inject: false,
        vcd: a.vcd.clone(),
        vcd_cycles: a.vcd_cycles,
        max_steps: a.max_steps,
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
