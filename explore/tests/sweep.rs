//! Sweep files: the grid, shards, and every way a bad sweep is refused before work starts.

use smsync_explore::plot::pareto_front;
use smsync_explore::results::{PointResult, SweepResults, WorkloadFigures};
use smsync_explore::sweep::{parse_shard, Sweep};
use std::path::{Path, PathBuf};

/// A sweep file in the repository's configs/sweeps/ (so that relative workload paths resolve).
fn sweep_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/sweeps/test-inline.yaml")
}

fn parse(text: &str) -> Result<Sweep, String> {
    Sweep::parse(text, &sweep_path()).map_err(|e| e.to_string())
}

const OK: &str = "
name: t
base: fpga-small
axes:
  copy_port_bytes: [8, 16]
  match_impl: [parallel, iterative]
  cta_slots: {from: 1, to: 3}
workloads:
  - ../../testbench/ptx/vote_ballot.ptx
targets: [ecp5-85k]
";

#[test]
fn grid_is_the_product_first_axis_slowest() {
    let s = parse(OK).unwrap();
    assert_eq!(s.points.len(), 2 * 2 * 3);
    assert_eq!(s.points[0].label(), "copy_port_bytes=8 match_impl=parallel cta_slots=1");
    assert_eq!(s.points[1].label(), "copy_port_bytes=8 match_impl=parallel cta_slots=2");
    assert_eq!(s.points[11].label(), "copy_port_bytes=16 match_impl=iterative cta_slots=3");
    // The overrides land on the base preset: fpga-small's other fields are kept.
    let p = &s.points[11].config;
    assert_eq!((p.copy_port_bytes, p.cta_slots, p.shared_bytes), (16, 3, 16384));
    assert_eq!(p.match_impl, smsync_sim::config::MatchImpl::Iterative);
    assert_eq!(s.workloads[0].name, "vote_ballot");
    assert!(s.workloads[0].launch.ends_with("vote_ballot.launch.yaml"));
}

#[test]
fn geometric_range_and_features() {
    let s = parse("name: g\nbase: fpga-small\naxes:\n  atomic_lanes: {from: 1, to: 32, times: 2}\n  features.redux_f32: [false, true]\n").unwrap();
    let lanes: Vec<u32> = s.points.iter().step_by(2).map(|p| p.config.atomic_lanes).collect();
    assert_eq!(lanes, vec![1, 2, 4, 8, 16, 32]);
    assert!(!s.points[0].config.features.redux_f32 && s.points[1].config.features.redux_f32);
}

#[test]
fn timing_fields_are_axes() {
    let s = parse(
        "name: t\nbase: fpga-small\naxes:\n  timing.schedulers: [1, 4]\n  timing.policy: [gto, lrr]\ncycles: timed\n",
    )
    .unwrap();
    assert_eq!(s.points.len(), 4);
    assert_eq!(s.cycles, smsync_explore::sweep::CycleSource::Timed);
    let p = &s.points[1].config.timing;
    assert_eq!((p.schedulers, p.policy), (1, smsync_sim::config::SchedPolicy::Lrr));
}

#[test]
fn shards_partition_the_grid() {
    let s = parse(OK).unwrap();
    let mut seen: Vec<usize> = (1..=5).flat_map(|i| s.shard(i, 5).into_iter().map(|p| p.index)).collect();
    seen.sort();
    assert_eq!(seen, (0..12).collect::<Vec<_>>());
    assert_eq!(s.shard(2, 5).iter().map(|p| p.index).collect::<Vec<_>>(), vec![1, 6, 11]);
    assert_eq!(parse_shard("2/5").unwrap(), (2, 5));
    for bad in ["0/3", "4/3", "x", "1/0", "1/"] {
        assert!(parse_shard(bad).is_err(), "{bad}");
    }
}

/// (sweep text, words the error must contain)
const BAD: &[(&str, &[&str])] = &[
    ("name: b\naxes:\n  atomic_lane: [1, 2]\n", &["unknown axis `atomic_lane`", "atomic_lanes"]),
    ("name: b\naxes:\n  atomic_lanes: [3]\n", &["atomic_lanes", "3", "power of two"]),
    ("name: b\naxes:\n  cta_slots: [0, 1]\n", &["cta_slots", "= 0", "1..=32"]),
    ("name: b\naxes:\n  shared_bytes: {from: 131072, to: 300000, step: 131072}\n", &["shared_bytes", "232448"]),
    ("name: b\naxes:\n  match_impl: [fast]\n", &["match_impl", "parallel or iterative"]),
    ("name: b\naxes:\n  timing.policy: [gto, fifo]\n", &["timing.policy", "gto or lrr"]),
    ("name: b\naxes:\n  timing.schedulers: [0]\n", &["timing.schedulers", "= 0", "1..=8"]),
    ("name: b\naxes:\n  cta_slots: [1]\ncycles: rtl\n", &["cycles", "rtl"]),
    ("name: b\naxes:\n  cta_slots: [1]\nworkloads: [../../testbench/ptx/nope.ptx]\n", &["nope.ptx", "does not exist"]),
    ("name: b\naxes:\n  cta_slots: [1]\ntargets: [stratix]\n", &["unknown target `stratix`", "ecp5-85k"]),
    ("name: b\naxes: {}\n", &["`axes` is empty"]),
    ("name: b\naxes:\n  cta_slots: {from: 4, to: 1}\n", &["empty"]),
    ("name: b\nbase: nosuch.yaml\naxes:\n  cta_slots: [1]\n", &["nosuch.yaml", "neither a preset"]),
    ("name: b\naxes:\n  cta_slots: [1]\nworkload: []\n", &["workload"]),
    ("name: b\naxes:\n  cta_slots: {from: 1, to: 100000000}\n", &["limit"]),
];

#[test]
fn bad_sweeps_are_refused_naming_the_problem() {
    for (text, words) in BAD {
        let e = parse(text).expect_err(text);
        for w in *words {
            assert!(e.contains(w), "error for\n{text}\nshould contain `{w}`:\n{e}");
        }
    }
}

#[test]
fn pareto_front_keeps_only_undominated_points() {
    let pts = [(10.0, 100.0), (20.0, 50.0), (15.0, 120.0), (30.0, 50.0), (40.0, 10.0)];
    assert_eq!(pareto_front(&pts), vec![0, 1, 4]);
}

fn result(index: usize, cycles: Option<u64>) -> PointResult {
    let mut p = PointResult { index, label: format!("p{index}"), ..Default::default() };
    p.workloads.insert(
        "k".into(),
        WorkloadFigures { passed: cycles.is_some(), cycles, requests: None, message: "diverged, at x".into() },
    );
    p
}

#[test]
fn shards_merge_and_tables_render() {
    let base = SweepResults {
        sweep: "s".into(),
        axes: vec!["cta_slots".into()],
        workloads: vec!["k".into()],
        grid_points: 3,
        ..Default::default()
    };
    let a = SweepResults { points: vec![result(0, Some(10)), result(2, None)], ..base.clone() };
    let b = SweepResults { points: vec![result(1, Some(12))], ..base.clone() };
    let m = SweepResults::merge(vec![a.clone(), b]).unwrap();
    assert_eq!(m.points.iter().map(|p| p.index).collect::<Vec<_>>(), vec![0, 1, 2]);
    let csv = m.to_csv();
    assert!(csv.starts_with("point,cta_slots,lint,k.cycles,total_cycles,status\n"), "{csv}");
    assert!(csv.contains("\n2,,,FAIL,,cosim\n"), "{csv}");
    assert!(m.to_markdown().contains("point 2 (p2): k: diverged, at x"));
    // Another sweep's shard, or one point with two different results, is refused.
    let other = SweepResults { sweep: "t".into(), ..base.clone() };
    assert!(SweepResults::merge(vec![a.clone(), other]).unwrap_err().contains("different sweeps"));
    let clash = SweepResults { points: vec![result(0, Some(11))], ..base };
    assert!(SweepResults::merge(vec![a, clash]).unwrap_err().contains("point 0"));
}

#[test]
fn the_committed_example_sweeps_are_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/sweeps");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let s = Sweep::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(!s.points.is_empty() && !s.workloads.is_empty(), "{}", path.display());
            n += 1;
        }
    }
    assert!(n >= 1, "no example sweep in {}", dir.display());
}
