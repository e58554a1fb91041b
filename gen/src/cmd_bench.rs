//! `smsync bench`: run the built-in kernels (ALU loop, block reduction, mbarrier pipeline) on the
//! golden units and print thread-instructions per second for each. Every run's result is checked
//! against host arithmetic before its time counts.

use smsync_sim::config::Config;
use smsync_sim::exec::bench;

#[derive(clap::Args)]
pub struct Args {
    /// Architecture config (YAML); the built-in default when omitted.
    #[arg(long)]
    pub config: Option<std::path::PathBuf>,
    /// Repetitions per kernel (the best is reported).
    #[arg(long, default_value_t = 3)]
    pub reps: u32,
    /// Run only the kernel with this name.
    #[arg(long)]
    pub only: Option<String>,
    /// Run on the SM timing model (golden units' timing back end) and print kernel cycles too.
    #[arg(long)]
    pub timing: bool,
}

pub fn main(a: Args) -> Result<(), String> {
    let config = match &a.config {
        Some(p) => Config::from_file(p).map_err(|e| e.to_string())?,
        None => Config::default(),
    };
    println!("{:<20} {:>16} {:>10} {:>18}", "kernel", "thread-instrs", "seconds", "thread-instrs/s");
    for k in bench::kernels() {
        if a.only.as_deref().is_some_and(|o| o != k.name) {
            continue;
        }
        let f = bench::measure(&k, &config, a.reps, a.timing)?;
        println!("{:<20} {:>16} {:>10.3} {:>18.3e}", f.name, f.thread_instructions, f.seconds, f.rate);
    }
    Ok(())
}
