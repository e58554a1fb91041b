//! `smsync run KERNEL.ptx --launch LAUNCH.yaml [--config FILE] [--seed N] [--trace] [--max-steps N]`:
//! run a PTX kernel on the golden model and print `{"buffers": {...}, "stats": {...}}` as JSON
//! (plus `"trace"` with `--trace`). Errors go to stderr with a non-zero exit.

use smsync_sim::config::Config;
use smsync_sim::exec::{self, Launch, RunOptions};
use smsync_sim::units::GoldenUnits;

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
    /// Seeded warp interleaving (explore races); deterministic lowest-PC/round-robin without it.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Add the sync requests, responses and unit events to the output.
    #[arg(long)]
    pub trace: bool,
    /// Stop after this many warp-instructions.
    #[arg(long, default_value_t = exec::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
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
    let mut unit = GoldenUnits::new(&config);
    if a.trace {
        unit.enable_trace();
    }
    let opts = RunOptions { seed: a.seed, trace: a.trace, max_steps: a.max_steps };
    let result = exec::run(&module, &launch, &config, &mut unit, opts).map_err(|e| e.to_string())?;
    // write, not println!: a closed pipe (`| head`) is not a crash
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{}", result.to_json(a.trace)) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing the result: {e}")),
        _ => Ok(()),
    }
}
