//! The SM timing model (`exec::timed`) on the golden units' timing back end (`timing`).
//!
//! Expected cycle figures come from outside the model: the definition of a latency (a chain of
//! n dependent instructions of latency L takes n * L cycles), the published microbenchmark
//! figures the defaults are calibrated against (docs/TIMING.md), and what a designer expects of
//! an architecture change (two resident CTAs overlap).

use smsync_sim::config::{Config, SchedPolicy};
use smsync_sim::exec::timed::TimingReport;
use smsync_sim::exec::{run, Launch, RunOptions, RunResult};
use smsync_sim::timing::TimedUnits;
use std::path::{Path, PathBuf};

fn ptx_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testbench/ptx")
}

fn run_timed(path: &Path, cfg: &Config) -> RunResult {
    let text = std::fs::read_to_string(path).unwrap();
    let module = smsync_sim::ptx::parse(&text, &path.display().to_string()).unwrap();
    let launch = Launch::from_file(&path.with_extension("launch.yaml")).unwrap();
    let mut unit = TimedUnits::new(cfg);
    run(&module, &launch, cfg, &mut unit, RunOptions { timing: true, ..RunOptions::default() }).unwrap()
}

fn report(r: &RunResult) -> &TimingReport {
    r.timing.as_ref().expect("a timed run reports its timing")
}

/// Cycles per instruction that a timing microbenchmark measured (`out[0]` over its 64-long chain).
fn per_instruction(name: &str, cfg: &Config) -> f64 {
    let r = run_timed(&ptx_dir().join("timing").join(format!("{name}.ptx")), cfg);
    r.bits("out").unwrap()[0] as f64 / 64.0
}

#[test]
fn a_dependent_chain_costs_its_latency_per_instruction() {
    for alu in [4, 7] {
        let mut cfg = Config::default();
        cfg.timing.alu_latency = alu;
        assert_eq!(per_instruction("lat_add_u32", &cfg), alu as f64, "add.u32 chain, alu_latency {alu}");
        assert_eq!(per_instruction("lat_fma_f32", &cfg), alu as f64, "fma.rn.f32 chain, alu_latency {alu}");
    }
}

/// The timing microbenchmarks against the published figure each default was calibrated on
/// (sources in docs/TIMING.md). Within 3 %: the chains' first and last instruction are only
/// partly inside the clock reads, as on the hardware.
#[test]
fn microbenchmarks_measure_the_published_figures() {
    let published: &[(&str, f64, &str)] = &[
        ("lat_add_u32", 4.0, "H100 PCIe INT32 dependent latency, arXiv 2507.10789 Table III"),
        ("lat_fma_f32", 4.0, "H100 PCIe FP32 dependent latency, arXiv 2507.10789 Table III"),
        ("lat_fma_f64", 8.04, "H100 PCIe FP64 dependent latency, arXiv 2507.10789 Table III"),
        ("lat_ld_shared", 29.0, "H800 shared-memory load, arXiv 2402.13499 Table IV"),
        ("lat_ld_global", 263.0, "H800 L2 hit, arXiv 2402.13499 Table IV"),
        ("lat_bar_sync", 23.0, "A100 __syncthreads, one warp, Burtchell & Burtscher IISWC'24"),
        ("lat_shfl", 25.0, "A100 __shfl_sync, Burtchell & Burtscher IISWC'24"),
        ("lat_tma", 367.0, "H800 TMA 16-byte cp.async.bulk chase, 365-369, github.com/HPMLL/NVIDIA-Hopper-Benchmark"),
    ];
    let cfg = Config::default();
    for &(name, figure, source) in published {
        let model = per_instruction(name, &cfg);
        let err = (model - figure).abs() / figure;
        assert!(
            err <= 0.03,
            "{name}: the model measures {model:.2} cycles, {source}: {figure} ({:.1} % off)",
            err * 100.0
        );
    }
}

#[test]
fn timed_runs_are_deterministic() {
    let path = ptx_dir().join("block_reduce.ptx");
    for cfg in [Config::default(), Config::fpga_small()] {
        let a = run_timed(&path, &cfg);
        let b = run_timed(&path, &cfg);
        assert_eq!(report(&a), report(&b), "{}", cfg.name);
        assert_eq!(a.buffers, b.buffers);
        assert!(report(&a).cycles > 0);
    }
}

/// block_reduce launches 3 CTAs of 8 warps, each a bar.sync tree reduction. With one slot they
/// run one after another; with two, two run at once and the third after them: about 2/3 of the
/// cycles, a little more for the shared LSU and schedulers (never better than 1/2).
#[test]
fn a_second_cta_slot_overlaps_ctas() {
    let path = ptx_dir().join("block_reduce.ptx");
    let cycles = |slots: u32| {
        let cfg = Config { cta_slots: slots, ..Config::fpga_small() };
        report(&run_timed(&path, &cfg)).cycles as f64
    };
    let (one, two) = (cycles(1), cycles(2));
    let ratio = two / one;
    assert!((0.6..=0.8).contains(&ratio), "1 slot {one} cycles, 2 slots {two}: ratio {ratio:.3}, expected about 2/3");
}

/// More atomic lanes per step shorten a warp's atomics over few lines: the atomic ALU is busy
/// for fewer cycles and the kernel ends sooner.
#[test]
fn atomic_lanes_shorten_atomic_kernels() {
    let path = ptx_dir().join("atomics_shared.ptx");
    let run_with = |lanes: u32| {
        let cfg = Config { atomic_lanes: lanes, ..Config::fpga_small() };
        let r = run_timed(&path, &cfg);
        let t = report(&r);
        let busy = t.units.iter().find(|u| u.unit == "atomic_alu").unwrap().busy_cycles;
        (t.cycles, busy)
    };
    let (c1, b1) = run_with(1);
    let (c4, b4) = run_with(4);
    assert!(b4 < b1, "atomic ALU busy {b1} cycles at 1 lane, {b4} at 4");
    assert!(c4 < c1, "kernel {c1} cycles at 1 lane, {c4} at 4");
}

/// Each stall cycle has one reason and each issue slot is counted once: per warp, issued plus
/// stalled cycles never exceed the kernel's cycles, and the report's totals are the warps' sums.
#[test]
fn stall_accounting_adds_up() {
    for policy in [SchedPolicy::Gto, SchedPolicy::Lrr] {
        let mut cfg = Config::fpga_small();
        cfg.timing.policy = policy;
        let r = run_timed(&ptx_dir().join("mbar_pipeline_bulk.ptx"), &cfg);
        let t = report(&r);
        for w in &t.warps {
            let total = w.issued + w.stalls.iter().sum::<u64>();
            assert!(
                total <= t.cycles,
                "{policy:?}: warp {:?}/{} counts {total} cycles of {}",
                w.ctaid,
                w.warp,
                t.cycles
            );
        }
        let issued: u64 = t.warps.iter().map(|w| w.issued).sum();
        assert_eq!(issued, t.warp_instructions, "{policy:?}");
        for (i, (name, n)) in t.stalls.iter().enumerate() {
            assert_eq!(*n, t.warps.iter().map(|w| w.stalls[i]).sum::<u64>(), "{policy:?} {name}");
        }
        assert!(t.stalls.iter().find(|(n, _)| n == "mbarrier").unwrap().1 > 0, "the pipeline waits on mbarriers");
    }
}
