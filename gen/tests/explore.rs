//! `smsync explore` end to end on a reduced grid: two points (match.any iterative / parallel on
//! fpga-small), one workload under cosim, the warp network synthesised for the xilinx-7 estimate;
//! then the same sweep again, which must come entirely from the cache; then a bad sweep, refused
//! before any work.
//!
//! The full example sweep (configs/sweeps/copy-port-match.yaml) is run by hand; its results are
//! in docs/EXPLORE.md with the command.

use smsync_testbench::verilator::rtl_tools_skipped;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

fn explore(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_smsync")).arg("explore").args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
#[ignore = "not yet run green: written at the end of session 2; run with `cargo test -p smsync --test explore -- --ignored`"]
fn reduced_sweep_runs_end_to_end_and_reruns_from_the_cache() {
    if rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("smsync-explore-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = workspace().join("testbench/ptx");
    let sweep = dir.join("reduced.yaml");
    std::fs::write(
        &sweep,
        format!(
            "name: reduced\nbase: fpga-small\naxes:\n  match_impl: [iterative, parallel]\nworkloads:\n  - {}\ntargets: [xilinx-7]\nsynth_modules: [warp_network]\n",
            ptx.join("match_sync.ptx").display()
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let (ok, _, err) = explore(&[sweep.to_str().unwrap(), "--out", out_s, "--no-lint"]);
    assert!(ok, "explore failed:\n{err}");
    assert!(err.contains("[####################] 2/2"), "no final progress line:\n{err}");

    let results: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let points = results["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for p in points {
        let w = &p["workloads"]["match_sync"];
        assert_eq!(w["passed"], true, "cosim of point {}: {}", p["label"], w["message"]);
        assert!(w["cycles"].as_u64().unwrap() > 0);
        let s = &p["synth"]["xilinx-7"];
        assert!(s["luts"].as_u64().unwrap() > 0, "no LUT count for point {}: {s}", p["label"]);
    }
    // A parallel match.any spends comparators to save cycles: both effects must show.
    let cycles = |i: usize| points[i]["workloads"]["match_sync"]["cycles"].as_u64().unwrap();
    let luts = |i: usize| points[i]["synth"]["xilinx-7"]["luts"].as_u64().unwrap();
    assert!(cycles(1) < cycles(0), "parallel match should take fewer cycles: {} vs {}", cycles(1), cycles(0));
    assert!(luts(1) > luts(0), "parallel match should cost more LUTs: {} vs {}", luts(1), luts(0));

    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.starts_with("point,match_impl,lint,xilinx-7.luts,"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");
    let md = std::fs::read_to_string(out.join("results.md")).unwrap();
    assert!(md.contains("| 1 | parallel |"), "{md}");
    for plot in ["pareto-xilinx-7.svg", "axis-match_impl.svg"] {
        let svg = std::fs::read_to_string(out.join("plots").join(plot)).unwrap_or_else(|e| panic!("{plot}: {e}"));
        assert!(svg.starts_with("<svg") && svg.contains("<circle"), "{plot}");
    }

    // The same sweep again: every stage but gen comes from the cache.
    let (ok, _, err) = explore(&[sweep.to_str().unwrap(), "--out", out_s, "--no-lint"]);
    assert!(ok, "re-run failed:\n{err}");
    assert!(err.contains("0 stage(s) computed, 4 from the cache"), "re-run should be cached:\n{err}");

    // Sharded: shard 2 of 2 holds point 1 only; merging the two shards gives the whole table.
    let shard_out = dir.join("shard2");
    let (ok, _, err) = explore(&[sweep.to_str().unwrap(), "--shard", "2/2", "--out", shard_out.to_str().unwrap(), "--no-lint"]);
    assert!(ok, "shard failed:\n{err}");
    let shard: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(shard_out.join("results.json")).unwrap()).unwrap();
    assert_eq!(shard["points"].as_array().unwrap().len(), 1);
    let merged = dir.join("merged");
    let (ok, _, err) = explore(&["merge", "--out", merged.to_str().unwrap(), out_s, shard_out.to_str().unwrap()]);
    assert!(ok, "merge failed:\n{err}");
    assert!(err.contains("merged 2 of 2 points"), "{err}");
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
