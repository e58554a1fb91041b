//! `smsync explore` end to end on a reduced grid of the example sweep
//! (configs/sweeps/match-slots.yaml): its `match_impl` axis (iterative / parallel) at the base's
//! 2 CTA slots, two of its workloads under cosim (match_sync, which the axis changes, and bar_red,
//! which it does not), synthesis for the xilinx-7 estimate; then the same sweep again, which must
//! come entirely from the cache, also under another sweep name; then shard 2 of 2 and
//! `explore merge`. Lint is skipped (`--no-lint`): a Verilator lint of the fpga-small top takes
//! minutes (gen_lint.rs covers it).
//!
//! Reduced how, and why: the example synthesises the barrier file and the warp network; the warp
//! network alone takes over ten minutes in yosys, so this test synthesises `mbarrier_alu`
//! (about 20 s), the smallest unit. It does not depend on `match_impl`, which the test checks too.
//! Budget: about a minute with a warm Verilator cache (the first run builds two Verilator models
//! of the top, a few minutes each).
//!
//! The full example sweep is run by hand; its results are in docs/EXPLORE.md with the command.

use smsync_explore::sweep::Sweep;
use smsync_testbench::verilator::rtl_tools_skipped;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

fn explore(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_smsync")).arg("explore").args(args).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn read_json(p: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The workloads the reduced grid runs; both must be in the example sweep.
const REDUCED_WORKLOADS: [&str; 2] = ["match_sync", "bar_red"];

#[test]
fn reduced_example_sweep_runs_end_to_end_and_reruns_from_the_cache() {
    if rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: skipped");
        return;
    }
    // The reduced grid is taken from the example: same base, its match_impl axis, its workloads.
    let example =
        Sweep::load(&workspace().join("configs/sweeps/match-slots.yaml")).expect("the example sweep is valid");
    let axis = example.axes.iter().find(|a| a.field == "match_impl").expect("the example varies match_impl");
    let values: Vec<&str> = axis.values.iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(values, ["iterative", "parallel"]);
    let workloads: Vec<String> = REDUCED_WORKLOADS
        .iter()
        .map(|name| {
            let w = example
                .workloads
                .iter()
                .find(|w| w.name == *name)
                .unwrap_or_else(|| panic!("{name} is not in the example sweep"));
            format!("  - {}\n", w.kernel.display())
        })
        .collect();

    let dir = std::env::temp_dir().join(format!("smsync-explore-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sweep = dir.join("reduced.yaml");
    std::fs::write(
        &sweep,
        format!(
            "name: reduced\nbase: fpga-small\naxes:\n  match_impl: [iterative, parallel]\nworkloads:\n{}targets: [xilinx-7]\nsynth_modules: [mbarrier_alu]\n",
            workloads.concat()
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let (ok, _, err) = explore(&[sweep.to_str().unwrap(), "--out", out_s, "--no-lint", "-j", "2"]);
    assert!(ok, "explore failed:\n{err}");
    assert!(
        err.contains("[####################] 2/2 done: 6 stage(s) computed, 0 from the cache"),
        "no final progress line:\n{err}"
    );

    let results = read_json(&out.join("results.json"));
    let points = results["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for p in points {
        assert!(p["error"].is_null(), "point {}: {}", p["label"], p["error"]);
        assert!(p["gen"]["modules"].as_u64().unwrap() >= 5, "gen of point {}: {}", p["label"], p["gen"]);
        for w in REDUCED_WORKLOADS {
            let f = &p["workloads"][w];
            assert_eq!(f["passed"], true, "cosim of {w} at point {}: {}", p["label"], f["message"]);
            assert!(f["cycles"].as_u64().unwrap() > 0);
        }
        let s = &p["synth"]["xilinx-7"];
        assert!(s["luts"].as_u64().unwrap() > 0, "no LUT count for point {}: {s}", p["label"]);
        assert_eq!(s["fits"], true, "{s}");
    }
    let cycles = |i: usize, w: &str| points[i]["workloads"][w]["cycles"].as_u64().unwrap();
    // A parallel match.any answers in one cycle instead of 33: match_sync must get faster ...
    assert!(
        cycles(1, "match_sync") < cycles(0, "match_sync"),
        "parallel match should take fewer cycles: {} vs {}",
        cycles(1, "match_sync"),
        cycles(0, "match_sync")
    );
    // ... and a kernel without match must not notice the axis at all.
    assert_eq!(cycles(1, "bar_red"), cycles(0, "bar_red"), "bar_red does not use match.any");
    // The mbarrier ALU does not depend on match_impl: the same netlist, the same area.
    let luts = |i: usize| points[i]["synth"]["xilinx-7"]["luts"].as_u64().unwrap();
    assert_eq!(luts(0), luts(1));

    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.starts_with("point,match_impl,lint,xilinx-7.luts,"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");
    let md = std::fs::read_to_string(out.join("results.md")).unwrap();
    assert!(md.contains("| 1 | parallel |"), "{md}");
    for plot in ["pareto-xilinx-7.svg", "axis-match_impl.svg"] {
        let svg = std::fs::read_to_string(out.join("plots").join(plot)).unwrap_or_else(|e| panic!("{plot}: {e}"));
        assert!(svg.starts_with("<svg") && svg.contains("<circle"), "{plot}");
        assert!(md.contains(&format!("(plots/{plot})")), "{plot} is not linked from results.md");
    }

    // The same sweep again: every stage but gen comes from the cache.
    let (ok, _, err) = explore(&[sweep.to_str().unwrap(), "--out", out_s, "--no-lint"]);
    assert!(ok, "re-run failed:\n{err}");
    assert!(err.contains("0 stage(s) computed, 6 from the cache"), "re-run should be cached:\n{err}");
    assert_eq!(read_json(&out.join("results.json")), results, "a cached re-run must give the same results");

    // The same architectures under another sweep name: the points' configs are named after the
    // sweep, which gen writes into the Verilog's first line; the cache keys ignore that line, so
    // nothing is recomputed.
    let renamed = dir.join("renamed.yaml");
    std::fs::write(&renamed, std::fs::read_to_string(&sweep).unwrap().replace("name: reduced", "name: renamed"))
        .unwrap();
    let (ok, _, err) = explore(&[renamed.to_str().unwrap(), "--out", out_s, "--no-lint"]);
    assert!(ok, "renamed run failed:\n{err}");
    assert!(err.contains("0 stage(s) computed, 6 from the cache"), "another sweep name should hit the cache:\n{err}");

    // Sharded: shard 2 of 2 holds point 1 only, measured afresh in its own directory. Merging it
    // with the full run fails if point 1 came out differently (the measurement is deterministic).
    let shard_out = dir.join("shard2");
    let (ok, _, err) =
        explore(&[sweep.to_str().unwrap(), "--shard", "2/2", "--out", shard_out.to_str().unwrap(), "--no-lint"]);
    assert!(ok, "shard failed:\n{err}");
    let shard = read_json(&shard_out.join("results.json"));
    assert_eq!(shard["points"].as_array().unwrap().len(), 1);
    assert_eq!(shard["points"][0]["index"], 1);
    let merged = dir.join("merged");
    let (ok, _, _) = explore(&[sweep.to_str().unwrap(), "--out", out_s, "--no-lint"]); // results.json of `reduced` again
    assert!(ok);
    let (ok, _, err) = explore(&["merge", "--out", merged.to_str().unwrap(), out_s, shard_out.to_str().unwrap()]);
    assert!(ok, "merge failed:\n{err}");
    assert!(err.contains("merged 2 of 2 points"), "{err}");
    assert_eq!(read_json(&merged.join("results.json")), results);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_sweep_is_refused_before_any_work() {
    let dir = std::env::temp_dir().join(format!("smsync-explore-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sweep = dir.join("bad.yaml");
    std::fs::write(&sweep, "name: bad\nbase: fpga-small\naxes:\n  copy_port_bytes: [8, 12]\n").unwrap();
    let out = dir.join("out");
    let (ok, _, err) = explore(&[sweep.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("copy_port_bytes") && err.contains("12") && err.contains("power of two"), "{err}");
    assert!(!out.exists(), "nothing may be written for a refused sweep");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The committed timed example (configs/sweeps/slots-atomics-timed.yaml) on a reduced grid: no
/// RTL (`cycles: timed` without targets skips gen and lint), each workload on the SM timing
/// model; a second CTA slot must shorten the barrier-heavy kernel, and more atomic lanes the
/// atomics-heavy one (what a designer expects; docs/EXPLORE.md has the whole grid).
#[test]
fn a_timed_sweep_measures_the_sm_timing_model_without_rtl() {
    let dir = std::env::temp_dir().join(format!("smsync-explore-timed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let example = workspace().join("configs/sweeps/slots-atomics-timed.yaml");
    let text = std::fs::read_to_string(&example).unwrap();
    assert!(text.contains("cycles: timed") && text.contains("targets: []"), "the example is a timed sweep");
    let ptx = workspace().join("testbench/ptx");
    let sweep = dir.join("timed.yaml");
    std::fs::write(
        &sweep,
        format!(
            "name: timed\nbase: fpga-small\naxes:\n  cta_slots: [1, 2]\n  atomic_lanes: [1, 4]\nworkloads:\n  - {}\n  - {}\ntargets: []\ncycles: timed\n",
            ptx.join("atomics_shared.ptx").display(),
            ptx.join("block_reduce.ptx").display()
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let (ok, _, err) = explore(&[sweep.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(ok, "explore failed:\n{err}");
    let results = read_json(&out.join("results.json"));
    assert_eq!(results["cycles"], "timed");
    let points = results["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    for p in points {
        assert!(p["error"].is_null() && p["gen"].is_null(), "point {}: no RTL expected: {p}", p["label"]);
        for w in ["atomics_shared", "block_reduce"] {
            assert_eq!(p["workloads"][w]["passed"], true, "{w} at {}: {}", p["label"], p["workloads"][w]["message"]);
        }
    }
    // Points in grid order: (1 slot, 1 lane), (1, 4), (2, 1), (2, 4).
    let cycles = |i: usize, w: &str| points[i]["workloads"][w]["cycles"].as_u64().unwrap();
    assert!(cycles(2, "block_reduce") < cycles(0, "block_reduce"), "a second slot overlaps CTAs");
    assert_eq!(cycles(1, "block_reduce"), cycles(0, "block_reduce"), "block_reduce has no atomics");
    assert!(cycles(3, "atomics_shared") < cycles(2, "atomics_shared"), "4 atomic lanes beat 1");
    let md = std::fs::read_to_string(out.join("results.md")).unwrap();
    assert!(md.contains("Cycles: the SM timing model"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cycles: timed-rtl`: the SM timing model on the Verilated top of each point (gen, then
/// `smsync cosim --timing`). The axis is a `timing:` field, which leaves the RTL as it is (the
/// cached fpga-small model serves both points): a ten times slower ALU lengthens the kernel.
#[test]
fn a_timed_rtl_sweep_measures_the_rtl_back_end() {
    if smsync_testbench::verilator::rtl_tools_skipped() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("smsync-explore-timed-rtl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = workspace().join("testbench/ptx");
    let sweep = dir.join("timed-rtl.yaml");
    std::fs::write(
        &sweep,
        format!(
            "name: timed-rtl\nbase: fpga-small\naxes:\n  timing.alu_latency: [4, 40]\nworkloads:\n  - {}\ntargets: []\ncycles: timed-rtl\n",
            ptx.join("syncthreads_count.ptx").display()
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let (ok, _, err) = explore(&[sweep.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-lint"]);
    assert!(ok, "explore failed:\n{err}");
    let results = read_json(&out.join("results.json"));
    assert_eq!(results["cycles"], "timed-rtl");
    let points = results["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for p in points {
        assert!(!p["gen"].is_null(), "point {}: the RTL is generated", p["label"]);
        let w = &p["workloads"]["syncthreads_count"];
        assert_eq!(w["passed"], true, "at {}: {}", p["label"], w["message"]);
    }
    let cycles = |i: usize| points[i]["workloads"]["syncthreads_count"]["cycles"].as_u64().unwrap();
    assert!(cycles(1) > cycles(0), "ALU latency 40: {} cycles, 4: {}", cycles(1), cycles(0));
    let md = std::fs::read_to_string(out.join("results.md")).unwrap();
    assert!(md.contains("on the Verilated top"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}
