//! `smsync explore SWEEP.yaml [-j N] [--shard i/n] [--out DIR]` and
//! `smsync explore merge --out DIR SHARD_DIR...`: architecture sweeps (see `smsync_explore`).
//!
//! Output directory: `results.json` (everything), `results.csv`, `results.md`, `plots/*.svg`, and
//! `points/<config-key>/` with each point's config, Verilog and cached stage results.

use smsync_explore::measure::Measure;
use smsync_explore::results::SweepResults;
use smsync_explore::sweep::{parse_shard, Point, Sweep};
use smsync_progress::{Mode, Progress};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub merge: Option<Sub>,
    /// The sweep file (see configs/sweeps/).
    pub sweep: Option<PathBuf>,
    /// Points measured in parallel.
    #[arg(short = 'j', long, default_value_t = 1)]
    pub jobs: usize,
    /// Measure only shard i of n (1-based): every n-th point. Join shards with `explore merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Output directory (default: build/explore/<sweep name>[-shard-i-of-n]).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Skip the lint stage.
    #[arg(long)]
    pub no_lint: bool,
    /// Time limit of one synthesis run, seconds.
    #[arg(long, default_value_t = 1800)]
    pub synth_timeout: u64,
    /// Time limit of one cosim run, seconds.
    #[arg(long, default_value_t = 900)]
    pub cosim_timeout: u64,
    #[command(flatten)]
    pub progress: crate::ProgressArgs,
}

#[derive(clap::Subcommand)]
pub enum Sub {
    /// Join the results of shards into one table and plot set.
    Merge {
        /// Where the merged results go.
        #[arg(long)]
        out: PathBuf,
        /// Output directories of the shards.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
}

pub fn main(a: Args) -> Result<(), String> {
    if let Some(Sub::Merge { out, shards }) = a.merge {
        let parts =
            shards.iter().map(|d| SweepResults::load(&d.join("results.json"))).collect::<Result<Vec<_>, _>>()?;
        let merged = SweepResults::merge(parts)?;
        write_outputs(&merged, &out)?;
        eprintln!("merged {} of {} points into {}", merged.points.len(), merged.grid_points, out.display());
        return Ok(());
    }
    let sweep_file = a.sweep.ok_or("give a sweep file (smsync explore SWEEP.yaml) or `merge`")?;
    // Everything is validated before any work starts.
    let sweep = Sweep::load(&sweep_file).map_err(|e| e.to_string())?;
    let shard = a.shard.as_deref().map(parse_shard).transpose().map_err(|e| e.to_string())?;
    let points: Vec<&Point> = match shard {
        Some((i, n)) => sweep.shard(i, n),
        None => sweep.points.iter().collect(),
    };
    let out = a.out.unwrap_or_else(|| {
        let mut name = sweep.name.clone();
        if let Some((i, n)) = shard {
            name += &format!("-shard-{i}-of-{n}");
        }
        Path::new("build").join("explore").join(name)
    });
    let measure = Measure {
        exe: std::env::current_exe().map_err(|e| format!("cannot find the smsync executable: {e}"))?,
        out: out.clone(),
        lint: !a.no_lint,
        synth_timeout: Duration::from_secs(a.synth_timeout),
        cosim_timeout: Duration::from_secs(a.cosim_timeout),
        other_timeout: Duration::from_secs(600),
    };
    let mode = a.progress.mode();
    if mode != Mode::Quiet {
        eprintln!(
            "sweep `{}`: {} of {} points, {} workload(s), target(s) [{}], -j {}, out {}",
            sweep.name,
            points.len(),
            sweep.points.len(),
            sweep.workloads.len(),
            sweep.targets.join(", "),
            a.jobs,
            out.display()
        );
    }

    let total = points.len();
    let queue = Mutex::new(points.into_iter());
    // (results, stages computed, stages from the cache)
    let done = Mutex::new((Vec::new(), 0usize, 0usize));
    let progress = Progress::new(mode, "smsync explore", "points", total as u64);
    std::thread::scope(|s| {
        for _ in 0..a.jobs.max(1) {
            s.spawn(|| {
                // One line per worker: the point and stage it runs, and for how long.
                let task = progress.task();
                loop {
                    let Some(point) = queue.lock().unwrap().next() else { break };
                    let what = format!("point {} ({})", point.index, point.label());
                    let m = measure.point(&sweep, point, &|stage| task.phase(&format!("{what}: {stage}")));
                    if let Some(e) = &m.result.error {
                        progress.println(&format!("point {}: error: {e}", point.index));
                    }
                    let mut d = done.lock().unwrap();
                    d.1 += m.computed;
                    d.2 += m.cached;
                    d.0.push(m.result);
                    drop(d);
                    progress.inc(1);
                }
            });
        }
    });
    progress.finish();
    let (mut results, computed, cached) = done.into_inner().unwrap();
    results.sort_by_key(|p| p.index);
    let r = SweepResults {
        sweep: sweep.name.clone(),
        axes: sweep.axes.iter().map(|a| a.field.clone()).collect(),
        targets: sweep.targets.clone(),
        workloads: sweep.workloads.iter().map(|w| w.name.clone()).collect(),
        grid_points: sweep.points.len(),
        cycles: match sweep.cycles {
            smsync_explore::sweep::CycleSource::Cosim => "cosim".into(),
            smsync_explore::sweep::CycleSource::Timed => "timed".into(),
            smsync_explore::sweep::CycleSource::TimedRtl => "timed-rtl".into(),
        },
        points: results,
    };
    write_outputs(&r, &out)?;
    eprintln!(
        "{} done: {computed} stage(s) computed, {cached} from the cache; {}",
        bar(total, total),
        out.join("results.md").display()
    );
    let failed = r.points.iter().filter(|p| p.error.is_some()).count();
    if failed > 0 {
        return Err(format!("{failed} point(s) could not be measured (see {})", out.join("results.md").display()));
    }
    Ok(())
}

/// `[#####-----] 5/10`, in the final summary line.
fn bar(done: usize, total: usize) -> String {
    let width = 20;
    let filled = (done * width).checked_div(total).unwrap_or(width);
    format!("[{}{}] {done}/{total}", "#".repeat(filled), "-".repeat(width - filled))
}

fn write_outputs(r: &SweepResults, out: &Path) -> Result<(), String> {
    let w = |p: PathBuf, text: &str| std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()));
    std::fs::create_dir_all(out.join("plots")).map_err(|e| format!("{}: {e}", out.display()))?;
    w(out.join("results.json"), &serde_json::to_string_pretty(r).map_err(|e| e.to_string())?)?;
    w(out.join("results.csv"), &r.to_csv())?;
    let mut md = format!("# Sweep `{}`\n\n{} of {} points.\n\n", r.sweep, r.points.len(), r.grid_points);
    md += &r.to_markdown();
    let plots = smsync_explore::plot::plots(r);
    if !plots.is_empty() {
        md += "\n";
    }
    for (name, svg) in &plots {
        w(out.join("plots").join(name), svg)?;
        md += &format!("![{name}](plots/{name})\n");
    }
    w(out.join("results.md"), &md)
}
