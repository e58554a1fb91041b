//! The conformance corpus (`testbench/ptx/`) under the cosim: every kernel runs on the golden
//! model and the Verilated RTL top in lockstep (`smsync_testbench::cosim::run_cosim`), every
//! response and the final buffers are compared. One Verilator model per config, reused.
//!
//! Kernels the RTL cannot run yet are listed in [`KNOWN_FAILURES`] with the reason; the test
//! fails if any other kernel fails AND if a listed kernel passes (so the list stays exact).
//! Nothing is skipped silently.
//!
//! Every config of `configs/` runs in the suite: `cosim_corpus_fpga_small`,
//! `cosim_corpus_default_config` and `cosim_corpus_fpga_ulx3s` (the config that routes on the
//! ULX3S, untimed only: its units are fpga-small's at two lanes, and the timed runs of the
//! other two cover the timing model). The default (Hopper-sized) config's top is the suite's largest
//! Verilator build (about 2.2 min wall and 0.94 GB on 2 cores since session 7, docs/BENCHMARKS.md); it is cached,
//! and `fuzz_cosim` reuses it.
//!
//! `fault_inject_divergence_names_the_instruction` shows that the comparator can fail: the top's
//! test-only `fault_inject` input flips a bit of every warp-network result, and the run must stop
//! with a report naming the kernel's file:line.
//!
//! `ub_kernels_stop_with_the_same_report_on_both_backends` runs the UB corpus
//! (`testbench/ptx/ub/`, one kernel per refusal of a unit): both backends must stop with the
//! report its `.expect.yaml` names (rule and instruction, from the PTX ISA), so the RTL's
//! refusals and error codes are checked too, which legal kernels never reach.
//!
//! Lint of the top: the cosim builds the top with `-Wall` and the project's waivers
//! (`smsync_testbench::rtl_unit::build_options`), so each config's run also checks that the
//! build log holds no Verilator warning. For the default config this is the Verilator half of
//! the lint of its warp network and top (a separate `--lint-only` run costs minutes more;
//! gen_lint's opt-in test runs it, with yosys).
//!
//! Environment: SMSYNC_CORPUS_FILTER=substring runs a subset.

use smsync_sim::config::Config;
use smsync_sim::exec::{self, Launch};
use smsync_testbench::cosim::{run_cosim, CosimOptions, FailureKind};
use smsync_testbench::rtl_unit::{RtlOptions, RtlSyncUnit};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// (config file stem, kernel, why it fails today). Each entry must still fail.
///
/// The fourth field is a piece of the failure message (the instruction's text) that the failure
/// must contain: a listed kernel failing somewhere else is an unexpected failure.
/// Empty since cp.reduce.async.bulk was built in the copy engine: the whole corpus passes.
const KNOWN_FAILURES: &[(&str, &str, &str, &str)] = &[];

/// The same for the timed cosim (`smsync cosim --timing`: the SM timing model issues the
/// requests, many warps' requests queue for the top's port, and the lanes of a diverged warp
/// reach a collective at different cycles). Empty since the warp network keeps several
/// rendezvous per warp (elect_activemask failed on one record per warp).
const TIMED_KNOWN_FAILURES: &[(&str, &str, &str, &str)] = &[];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn kernels() -> Vec<String> {
    let filter = std::env::var("SMSYNC_CORPUS_FILTER").unwrap_or_default();
    let mut names: Vec<String> = std::fs::read_dir(root().join("testbench/ptx"))
        .expect("testbench/ptx must exist")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".launch.yaml")).map(String::from))
        .filter(|n| n.contains(&filter))
        .collect();
    names.sort();
    names
}

fn load(name: &str) -> (smsync_sim::ptx::ir::Module, Launch) {
    let dir = root().join("testbench/ptx");
    let file = format!("{name}.ptx");
    let text = std::fs::read_to_string(dir.join(&file)).unwrap();
    let module = exec::parse_module(&text, &file).unwrap_or_else(|e| panic!("{e}"));
    let launch = Launch::from_file(&dir.join(format!("{name}.launch.yaml"))).unwrap_or_else(|e| panic!("{name}: {e}"));
    (module, launch)
}

fn config(stem: &str) -> Config {
    Config::from_file(&root().join(format!("configs/{stem}.yaml"))).unwrap_or_else(|e| panic!("{e}"))
}

fn run_corpus(stem: &str, timed: bool) {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: cosim corpus on {stem} not run");
        return;
    }
    let cfg = config(stem);
    // A step bound so that a spin-wait that never ends fails in seconds (the largest kernel takes ~10k steps).
    let opts = CosimOptions { max_steps: 200_000, timed, ..CosimOptions::default() };
    let known_failures = if timed { TIMED_KNOWN_FAILURES } else { KNOWN_FAILURES };
    let mode = if timed { "timed " } else { "" };
    let mut unexpected = Vec::new();
    let mut still_listed = Vec::new();
    let mut passed = 0;
    let start = Instant::now();
    // Build (or reuse) the top first: the kernels below reuse it through the cache, and its
    // build log is this config's `verilator -Wall` report of the whole top.
    match RtlSyncUnit::new(&cfg, &RtlOptions::default()) {
        Ok(unit) => {
            let built = unit.harness.built();
            eprintln!("{stem}: top built in {:.1} s (cached: {})", built.seconds, built.cached);
            match built.verilator_warnings() {
                Ok(w) if w.is_empty() => {}
                Ok(w) => {
                    unexpected.push(format!("{stem}: verilator -Wall on the top (its cosim build):\n{}", w.join("\n")))
                }
                Err(e) => unexpected.push(format!("{stem}: no build log for the top: {e}")),
            }
        }
        Err(e) => unexpected.push(format!("{stem}: building the top: {e}")),
    }
    for name in kernels() {
        let (module, launch) = load(&name);
        let t = Instant::now();
        let outcome = run_cosim(&module, &launch, &cfg, &opts);
        let known = known_failures.iter().find(|(c, k, _, _)| *c == stem && *k == name);
        match (&outcome, known) {
            (Ok(report), None) => {
                passed += 1;
                eprintln!(
                    "{mode}{stem}/{name}: ok, {} cycles{}, {} requests, {:.2} s (model setup {:.1} s)",
                    report.cycles,
                    report.result.timing.as_ref().map(|t| format!(" ({} kernel cycles)", t.cycles)).unwrap_or_default(),
                    report.counts.requests(),
                    t.elapsed().as_secs_f64(),
                    report.setup_seconds
                );
            }
            (Ok(_), Some((_, _, why, _))) => still_listed
                .push(format!("{mode}{stem}/{name} passes now; remove it from the known failures (was: {why})")),
            (Err(f), Some((_, _, _, at))) if f.message.contains(at) => {
                eprintln!("{stem}/{name}: known failure: {}", f.message.lines().next().unwrap_or(""))
            }
            (Err(f), Some((_, _, why, at))) => unexpected.push(format!(
                "{stem}/{name}: listed as failing at `{at}` ({why}) but failed elsewhere: {}",
                f.message.lines().take(3).collect::<Vec<_>>().join(" | ")
            )),
            (Err(f), None) => {
                eprintln!("{stem}/{name}: FAILED\n{f}");
                unexpected
                    .push(format!("{stem}/{name}: {}", f.message.lines().take(3).collect::<Vec<_>>().join(" | ")));
            }
        }
    }
    eprintln!("{mode}{stem}: {passed} kernels passed in {:.1} s", start.elapsed().as_secs_f64());
    let mut problems = unexpected;
    problems.extend(still_listed);
    assert!(problems.is_empty(), "{mode}cosim corpus on {stem}:\n{}", problems.join("\n"));
    assert!(passed > 0 || kernels().is_empty(), "no kernel passed");
}

#[test]
fn cosim_corpus_fpga_small() {
    run_corpus("fpga-small", false);
}

#[test]
fn cosim_corpus_default_config() {
    run_corpus("default", false);
}

#[test]
fn cosim_corpus_fpga_ulx3s() {
    run_corpus("fpga-ulx3s", false);
}

#[test]
fn timed_cosim_corpus_fpga_small() {
    run_corpus("fpga-small", true);
}

#[test]
fn timed_cosim_corpus_default_config() {
    run_corpus("default", true);
}

/// The timed cosim is deterministic (the same kernel, config and RTL give the same kernel
/// cycles and RTL cycles, run after run); the top takes every request the run sends (its
/// per-unit statistics count them), and the final buffers are the untimed run's.
#[test]
fn timed_cosim_is_deterministic_and_counts_every_request() {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        return;
    }
    let cfg = config("fpga-small");
    let (module, launch) = load("mbar_pipeline_bulk");
    let timed = CosimOptions { timed: true, ..CosimOptions::default() };
    let a = run_cosim(&module, &launch, &cfg, &timed).unwrap_or_else(|f| panic!("{f}"));
    let b = run_cosim(&module, &launch, &cfg, &timed).unwrap_or_else(|f| panic!("{f}"));
    let (ta, tb) = (a.result.timing.as_ref().unwrap(), b.result.timing.as_ref().unwrap());
    assert_eq!((ta.cycles, a.cycles), (tb.cycles, b.cycles), "two timed cosim runs differ");
    assert!(ta.cycles > 0);
    // Every request the timed run sent was taken by the top (its per-unit statistics): none
    // left in the port's queue. (The untimed cosim sends a different number: a try_wait spin
    // loop polls as often as its schedule lets it.)
    let taken: u64 = ta.units.iter().map(|u| u.requests).sum();
    assert_eq!(taken, a.counts.requests(), "the top took {taken} of the {} requests sent", a.counts.requests());
    let untimed = run_cosim(&module, &launch, &cfg, &CosimOptions::default()).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(a.result.buffers, untimed.result.buffers);
}

/// The UART bridge takes one request at a time: a timed cosim on it is refused before any
/// model is built, with what to use instead.
#[test]
fn timed_cosim_refuses_the_uart_backends() {
    let cfg = config("fpga-small");
    let (module, launch) = load("vote_ballot");
    let opts = CosimOptions {
        timed: true,
        backend: smsync_testbench::cosim::BackendKind::UartSim { cycles_per_bit: 4 },
        ..CosimOptions::default()
    };
    let Err(f) = run_cosim(&module, &launch, &cfg, &opts) else {
        panic!("a timed run on the UART bridge was accepted");
    };
    assert_eq!(f.kind, FailureKind::Setup);
    assert!(f.message.contains("--backend verilator"), "{f}");
}

#[test]
fn fault_inject_divergence_names_the_instruction() {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        return;
    }
    let name = "vote_ballot";
    let (module, launch) = load(name);
    let cfg = config("fpga-small");
    let vcd = std::env::temp_dir().join(format!("smsync-cosim-fault-{}.vcd", std::process::id()));
    let opts = CosimOptions { fault_inject: true, vcd: Some(vcd.clone()), vcd_cycles: 64, ..CosimOptions::default() };
    let failure = match run_cosim(&module, &launch, &cfg, &opts) {
        Ok(_) => panic!("a corrupted warp network passed the cosim: the comparator cannot fail"),
        Err(f) => f,
    };
    eprintln!("{failure}");
    assert_eq!(failure.kind, FailureKind::Divergence, "{failure}");
    // The report names the instruction (file:line:col), the request and expected vs actual.
    let at = format!("at {name}.ptx:");
    let line = failure
        .message
        .find(&at)
        .map(|i| &failure.message[i + at.len()..])
        .unwrap_or_else(|| panic!("no `{at}` in:\n{failure}"));
    assert!(line.chars().next().is_some_and(|c| c.is_ascii_digit()), "no line number after `{at}`:\n{failure}");
    assert!(failure.message.contains("vote.sync"), "{failure}");
    assert!(failure.message.contains("expected (golden)") && failure.message.contains("actual (RTL)"), "{failure}");
    assert!(failure.message.contains("value of lane 0"), "{failure}");
    assert!(failure.message.contains("RTL cycle"), "{failure}");
    let vcd_text = std::fs::read_to_string(failure.vcd.as_ref().expect("a VCD was requested")).unwrap();
    assert!(vcd_text.contains("$var wire 1") && vcd_text.contains("resp_valid"), "VCD header lacks the ports");
    let _ = std::fs::remove_file(vcd);
}

/// The UB corpus (`testbench/ptx/ub/`, one kernel per refusal a unit of the RTL implements):
/// each kernel on the golden model alone, then under the cosim on fpga-small. Both must stop:
/// the golden report must name the kernel's expected rule and instruction (its `.expect.yaml`,
/// written from the PTX ISA rule), and the cosim must stop with that same report as a program
/// failure (the RTL refused the op with the same error code and lane; a refusal the RTL answers
/// differently is a divergence). Among them the copy engine's late error (`late_tx`: a copy's
/// complete_tx beyond the tx-count range, answered after the copy) and its refusal at issue
/// (`dead_arrive`).
#[test]
fn ub_kernels_stop_with_the_same_report_on_both_backends() {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        return;
    }
    let cfg = config("fpga-small");
    let dir = root().join("testbench/ptx/ub");
    let kernels = smsync_testbench::ub_corpus::ub_kernels(&dir, &[]).unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let problems: Vec<String> =
        kernels.iter().filter_map(|k| ub_kernel_on_both(k, &cfg).err().map(|e| format!("{}: {e}", k.name))).collect();
    eprintln!("{} UB kernels in {:.1} s", kernels.len(), start.elapsed().as_secs_f64());
    assert!(problems.is_empty(), "UB corpus on fpga-small:\n{}", problems.join("\n"));
}

/// One UB kernel on both backends (see above); `Err` says what differed.
fn ub_kernel_on_both(k: &smsync_testbench::ub_corpus::UbKernel, cfg: &Config) -> Result<(), String> {
    let file = format!("{}.ptx", k.name);
    let text = std::fs::read_to_string(&k.ptx).map_err(|e| format!("{}: {e}", k.ptx.display()))?;
    let module = exec::parse_module(&text, &file)?;
    let launch = Launch::from_file(&k.launch).map_err(|e| format!("{}: {e}", k.launch.display()))?;
    let mut units = smsync_sim::units::GoldenUnits::new(cfg);
    let golden = match exec::run(&module, &launch, cfg, &mut units, Default::default()) {
        Ok(_) => return Err("the golden model ran it to its end".into()),
        Err(e) => e.to_string(),
    };
    k.expect.check(&golden).map_err(|e| format!("golden: {e}"))?;
    let failure = match run_cosim(&module, &launch, cfg, &CosimOptions::default()) {
        Ok(_) => return Err("the cosim ran it to its end".into()),
        Err(f) => f,
    };
    eprintln!("{}: {}", k.name, golden);
    if failure.kind != FailureKind::Program || !failure.message.contains(&golden) {
        return Err(format!("golden: {golden}\ncosim ({:?}): {}", failure.kind, failure.message));
    }
    Ok(())
}
