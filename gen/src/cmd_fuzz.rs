//! `smsync fuzz --seed S --count N [--config FILE] [--backend golden|cosim [--rtl DIR]] [--out DIR]`:
//! generate N random legal PTX programs (seeds S, S+1, ...), have ptxas accept each one (in
//! batches), run them, and shrink and save every failure (PTX + launch + report) under --out.
//!
//! A program ptxas rejects is a generator bug: it is reported with its seed and never run.
//! On the golden backend any run error (UB, deadlock, step limit) is a failure, since the
//! programs are legal by construction; on the cosim backend (`smsync_testbench::cosim`), any
//! divergence between the golden model and the Verilated RTL is one too. `--rtl DIR` runs the
//! `sync_unit` top of a directory of Verilog instead of the generated one (as `smsync cosim
//! --rtl`); a failure's directory then also holds the VCD of its shrunk program's divergence.

use smsync_progress::Progress;
use smsync_sim::config::Config;
use smsync_testbench::fuzz::{ptxas, run, run::CosimTarget, run::Schedule, shrink, Program};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// The golden model alone: the run must end without an error.
    Golden,
    /// Golden model and Verilated RTL in lockstep (needs the cosim harness).
    Cosim,
}

#[derive(clap::Args)]
pub struct Args {
    /// First seed; program i uses seed S + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of programs.
    #[arg(long, default_value_t = 100)]
    pub count: u64,
    /// Architecture config (YAML); the built-in default when omitted.
    #[arg(long)]
    pub config: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Backend::Golden)]
    pub backend: Backend,
    /// With --backend cosim: the `sync_unit` top of this directory of Verilog (checked against
    /// DIR/manifest.yaml, whose config is used) instead of the Verilog generated for the config.
    #[arg(long, value_name = "DIR")]
    pub rtl: Option<PathBuf>,
    /// Where failing programs are saved.
    #[arg(long, default_value = "fuzz/failures")]
    pub out: PathBuf,
    /// Programs per ptxas invocation.
    #[arg(long, default_value_t = 100)]
    pub batch: usize,
    /// Do not shrink failures (save them as generated).
    #[arg(long)]
    pub no_shrink: bool,
    /// Golden model: seeded warp interleaving (from each program's seed) instead of the
    /// deterministic lowest-PC schedule.
    #[arg(long)]
    pub interleave: bool,
    /// The SM timing model's interleaving (`smsync run --timing`; each program must run clean
    /// there too); with `--backend cosim`, the timed cosim (`smsync cosim --timing`: requests
    /// enter the top's port as the SM issues them).
    #[arg(long, conflicts_with = "interleave")]
    pub timing: bool,
    /// Save every program (PTX + launch) under --out, passing or not (to rerun one with
    /// `smsync run` / `smsync cosim`).
    #[arg(long)]
    pub save_all: bool,
    /// One line per program: seed, outcome, wall time (and RTL cycles under cosim).
    #[arg(long)]
    pub verbose: bool,
    /// Cosim: keep the features of `fuzz::run::RTL_EXCLUSIONS` (known RTL bugs, each with a
    /// reproducer in testbench/fuzz-repro/) in the programs; by default they are taken out.
    #[arg(long)]
    pub keep_rtl_bugs: bool,
    #[command(flatten)]
    pub progress: crate::ProgressArgs,
}

pub fn main(a: Args) -> Result<(), String> {
    if a.rtl.is_some() && a.backend != Backend::Cosim {
        return Err("--rtl DIR needs --backend cosim (the golden backend runs no RTL)".into());
    }
    let (config, rtl_dir) = crate::cmd_cosim::config_and_rtl(a.config.as_deref(), a.rtl.as_deref())?;
    let target = CosimTarget { rtl_dir, vcd: None, timed: a.timing };
    let ptxas_path = ptxas::find_ptxas()?;
    let schedule = match (a.interleave, a.timing) {
        (true, _) => Schedule::Seeded,
        (_, true) => Schedule::Timed,
        _ => Schedule::Deterministic,
    };
    let backend = a.backend;
    let run_one = |p: &Program| match backend {
        Backend::Golden => run::run_golden(p, &config, schedule),
        Backend::Cosim => run::run_cosim_on(p, &config, &target).map(|r| r.result),
    };
    // The first run of each program, with its RTL cycles when under cosim.
    let run_first = |p: &Program| match backend {
        Backend::Golden => run::run_golden(p, &config, schedule).map(|r| (r, None)),
        Backend::Cosim => run::run_cosim_on(p, &config, &target).map(|r| (r.result, Some(r.cycles))),
    };
    if backend == Backend::Cosim && a.timing && !a.keep_rtl_bugs {
        for (block, why) in run::TIMED_RTL_EXCLUSIONS {
            eprintln!("excluded under --timing (RTL hole, --keep-rtl-bugs keeps it): {block} blocks: {why}");
        }
    }
    if backend == Backend::Cosim && !a.keep_rtl_bugs {
        for (feature, why, repro) in run::RTL_EXCLUSIONS {
            eprintln!("excluded (known RTL bug, --keep-rtl-bugs keeps it): {feature}: {why} (reproducer: testbench/fuzz-repro/{repro})");
        }
    }
    if backend == Backend::Cosim {
        for (feature, why) in run::GOLDEN_ONLY {
            eprintln!("excluded (golden only): {feature}: {why}");
        }
    }
    let progress = Progress::new(a.progress.mode(), "smsync fuzz", "programs", a.count);
    // What runs now (the ptxas batch, the program, its shrinking) and for how long.
    let task = progress.task();
    let start = Instant::now();
    let (mut passed, mut failed, mut rejected) = (0u64, 0u64, 0u64);
    let mut requests = 0u64;
    let batch = a.batch.max(1) as u64;
    let mut first = a.seed;
    let end = a.seed.checked_add(a.count).ok_or("--seed + --count overflows")?;
    while first < end {
        let n = batch.min(end - first);
        let exclude = backend == Backend::Cosim && !a.keep_rtl_bugs;
        let programs: Vec<Program> = (first..first + n)
            .map(|s| Program::generate(s, &config))
            .map(|p| match backend {
                Backend::Cosim if exclude && a.timing => run::without_timed_rtl_exclusions(p),
                Backend::Cosim if exclude => run::without_rtl_exclusions(p),
                Backend::Cosim => run::without_golden_only(p),
                _ => p,
            })
            .collect();
        task.set(&format!("ptxas: seeds {first}..={}", first + n - 1));
        let bad = ptxas::check_batch(&ptxas_path, &programs)?;
        for (i, program) in programs.iter().enumerate() {
            if let Some((_, msg)) = bad.iter().find(|(j, _)| *j == i) {
                rejected += 1;
                let dir = save(&a.out, program, &format!("generator bug: ptxas rejects seed {}\n{msg}", program.seed))?;
                progress.println(&format!(
                    "seed {}: REJECTED by ptxas (generator bug), saved in {}\n{msg}",
                    program.seed,
                    dir.display()
                ));
                progress.inc(1);
                continue;
            }
            if a.save_all {
                save(&a.out, program, &format!("seed {}: {}\n", program.seed, program.summary()))?;
            }
            task.set(&format!("seed {}", program.seed));
            let t = Instant::now();
            let outcome = run_first(program);
            if a.verbose {
                let what = match &outcome {
                    Ok((r, cycles)) => format!(
                        "ok, {} sync requests{}",
                        r.stats.requests,
                        cycles.map_or(String::new(), |c| format!(", {c} RTL cycles"))
                    ),
                    Err(_) => "FAILED".to_string(),
                };
                progress.println(&format!("seed {}: {what}, {:.2} s", program.seed, t.elapsed().as_secs_f64()));
            }
            match outcome.map(|(r, _)| r) {
                Ok(r) => {
                    passed += 1;
                    requests += r.stats.requests;
                }
                Err(err) => {
                    failed += 1;
                    task.set(&format!("seed {}: failed, shrinking", program.seed));
                    let (small, steps) = if a.no_shrink {
                        (program.clone(), 0)
                    } else {
                        shrink::shrink(program, &mut |c| {
                            ptxas::assemble(&ptxas_path, &c.ptx()).is_ok() && run_one(c).is_err()
                        })
                    };
                    let small_err = run_one(&small).err().unwrap_or_else(|| err.clone());
                    let report = format!(
                        "seed {} fails on the {:?} backend (config {}).\noriginal: {}\nerror: {err}\nshrunk in {steps} step(s) to: {}\nerror: {small_err}\n",
                        program.seed,
                        backend,
                        config.name,
                        program.summary(),
                        small.summary()
                    );
                    let dir = save(&a.out, &small, &report)?;
                    progress.println(&format!(
                        "seed {}: FAILED: {err}\n  shrunk ({steps} steps) and saved in {}",
                        program.seed,
                        dir.display()
                    ));
                    if target.rtl_dir.is_some() {
                        progress.println(&divergence_vcd(&small, &config, &target, &dir));
                    }
                }
            }
            progress.inc(1);
        }
        first += n;
    }
    drop(task);
    progress.finish();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "smsync fuzz: config {}, seeds {}..{}: {passed} passed, {failed} failed, {rejected} rejected by ptxas; {requests} sync requests; {secs:.1} s ({:.0} programs/s)",
        config.name,
        a.seed,
        end - 1,
        a.count as f64 / secs.max(1e-9)
    );
    if failed + rejected > 0 {
        Err(format!("{} failing program(s) saved under {}", failed + rejected, a.out.display()))
    } else {
        Ok(())
    }
}

/// Save PTX, launch and report of `program` under `out/seed-S/`; returns the directory.
fn save(out: &Path, program: &Program, report: &str) -> Result<PathBuf, String> {
    let dir = out.join(format!("seed-{}", program.seed));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let r = program.render();
    let name = program.kernel_name();
    let write = |file: String, text: &str| {
        std::fs::write(dir.join(&file), text).map_err(|e| format!("{}: {e}", dir.join(&file).display()))
    };
    write(format!("{name}.ptx"), &program.ptx())?;
    write(format!("{name}.launch.yaml"), &r.launch_yaml)?;
    write("report.txt".into(), report)?;
    Ok(dir)
}

/// `--rtl`: run the shrunk failing `program` once more with the port history on, so its directory
/// `dir` also holds the VCD of the divergence (`divergence.vcd`); the line to print.
fn divergence_vcd(program: &Program, config: &Config, target: &CosimTarget, dir: &Path) -> String {
    let vcd = dir.join("divergence.vcd");
    let _ = std::fs::remove_file(&vcd); // a VCD left by an earlier campaign is not this run's
    let with_vcd = CosimTarget { vcd: Some(vcd.clone()), ..target.clone() };
    match run::run_cosim_on(program, config, &with_vcd) {
        Err(_) if vcd.is_file() => format!("  VCD of the divergence: {}", vcd.display()),
        Err(e) => format!("  no VCD: the shrunk program failed without a divergence report ({})", first_line(&e)),
        Ok(_) => "  no VCD: the shrunk program passed when run again".into(),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}
