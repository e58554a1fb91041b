//! `smsync run KERNEL.ptx --launch LAUNCH.yaml [--config FILE] [--seed N] [--trace] [--max-steps N] [--timing]`:
//! run a PTX kernel on the golden model and print `{"buffers": {...}, "stats": {...}}` as JSON
//! (plus `"trace"` with `--trace`). Errors go to stderr with a non-zero exit.
//!
//! `--timing` runs the SM timing model (`smsync_sim::exec::timed`) with the golden units'
//! timing back end (`smsync_sim::timing`): the JSON gains `"timing"` (kernel cycles, IPC, stall
//! cycles per reason and per warp, each unit's busy and queueing cycles) and a short table of it
//! goes to stderr, as `perf stat` does.

use smsync_sim::config::Config;
use smsync_sim::exec::timed::TimingReport;
use smsync_sim::exec::{self, Launch, RunOptions};
use smsync_sim::timing::TimedUnits;
use smsync_sim::units::{GoldenUnits, SyncUnit};

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
    /// Run on the SM timing model (config `timing:`): kernel cycles, IPC, stalls, unit load.
    #[arg(long, conflicts_with = "seed")]
    pub timing: bool,
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
    let mut golden;
    let mut timed;
    let unit: &mut dyn SyncUnit = if a.timing {
        timed = TimedUnits::new(&config);
        if a.trace {
            timed.enable_trace();
        }
        &mut timed
    } else {
        golden = GoldenUnits::new(&config);
        if a.trace {
            golden.enable_trace();
        }
        &mut golden
    };
    let opts = RunOptions { seed: a.seed, trace: a.trace, max_steps: a.max_steps, timing: a.timing };
    let result = exec::run(&module, &launch, &config, unit, opts).map_err(|e| e.to_string())?;
    if let Some(t) = &result.timing {
        eprint!("{}", timing_table(t));
    }
    // write, not println!: a closed pipe (`| head`) is not a crash
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{}", result.to_json(a.trace)) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing the result: {e}")),
        _ => Ok(()),
    }
}

/// The timing report as a short table: cycles and IPC, stall cycles per reason, unit load.
pub fn timing_table(t: &TimingReport) -> String {
    let mut o = format!("kernel cycles {}   warp-instructions {}   IPC {:.3}\n", t.cycles, t.warp_instructions, t.ipc);
    let total: u64 = t.stalls.iter().map(|(_, n)| n).sum();
    o.push_str("stall reason      warp-cycles   share\n");
    for (name, n) in &t.stalls {
        let share = if total == 0 { 0.0 } else { 100.0 * *n as f64 / total as f64 };
        o.push_str(&format!("  {name:<14} {n:>12}  {share:>5.1} %\n"));
    }
    o.push_str("unit              requests   busy cycles   queue cycles\n");
    for u in t.units.iter().filter(|u| u.requests > 0) {
        o.push_str(&format!("  {:<14} {:>10} {:>13} {:>14}\n", u.unit, u.requests, u.busy_cycles, u.queue_cycles));
    }
    o
}
