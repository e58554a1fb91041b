//! The random program generator (`smsync fuzz`): generated programs are accepted by ptxas and
//! run clean on the golden model for every config in configs/; the shrinker reduces a failing
//! program while it keeps failing. Bounded: 200 programs per config.
//!
//! A missing ptxas is a failure, not a skip; set SMSYNC_SKIP_PTXAS=1 to skip the ptxas part
//! deliberately (the golden runs still happen).
//!
//! The 10,000-program campaign: `cargo test -p smsync --test fuzz -- --ignored` (or
//! `smsync fuzz --seed 1 --count 10000 --config configs/<name>.yaml`).

use smsync_sim::config::Config;
use smsync_testbench::fuzz::blocks::{Block, KINDS};
use smsync_testbench::fuzz::run::Schedule;
use smsync_testbench::fuzz::{ptxas, run, shrink, Program};
use std::path::{Path, PathBuf};

fn configs() -> Vec<(String, Config)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no config in {}", dir.display());
    files
        .into_iter()
        .map(|p| (p.display().to_string(), Config::from_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))))
        .collect()
}

fn ptxas_or_skip() -> Option<PathBuf> {
    if std::env::var("SMSYNC_SKIP_PTXAS").as_deref() == Ok("1") {
        eprintln!("SMSYNC_SKIP_PTXAS=1: ptxas part skipped on request");
        return None;
    }
    Some(ptxas::find_ptxas().unwrap_or_else(|e| panic!("{e}; set SMSYNC_SKIP_PTXAS=1 to skip")))
}

/// Generate `count` programs from `first_seed` for every config; all must pass ptxas and run
/// clean on the golden model. Returns the number of programs and of sync requests they made.
fn campaign(first_seed: u64, count: u64) -> (u64, u64) {
    let ptxas_path = ptxas_or_skip();
    let (mut programs_run, mut requests) = (0, 0);
    let mut failures = vec![];
    for (name, config) in configs() {
        let programs: Vec<Program> = (first_seed..first_seed + count).map(|s| Program::generate(s, &config)).collect();
        if let Some(p) = &ptxas_path {
            for chunk in programs.chunks(100) {
                let bad = ptxas::check_batch(p, chunk).unwrap();
                for (i, msg) in bad {
                    failures.push(format!("{name}: seed {} rejected by ptxas:\n{msg}", chunk[i].seed));
                }
            }
        }
        for p in &programs {
            match run::run_golden(p, &config, Schedule::Deterministic) {
                Ok(r) => {
                    programs_run += 1;
                    requests += r.stats.requests;
                }
                Err(e) => failures.push(format!("{name}: seed {} ({}): {e}", p.seed, p.summary())),
            }
        }
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
    (programs_run, requests)
}

#[test]
fn generated_programs_pass_ptxas_and_run_clean_on_golden() {
    let (n, requests) = campaign(1, 200);
    assert_eq!(n, 200 * configs().len() as u64);
    // the programs exercise the sync unit, not just plain ALU code
    assert!(requests > 1000 * n / 100, "only {requests} sync requests in {n} programs");
}

/// Generated programs on the SM timing model (`Schedule::Timed`): every one runs clean (no UB,
/// deadlock or step limit: the cycle-driven scheduler and the delayed answers of the timing back
/// end keep every legal program live), reports its cycles, and runs the same way twice.
#[test]
fn generated_programs_run_clean_on_the_timing_model() {
    let mut failures = vec![];
    for (name, config) in configs() {
        for seed in 1..=50 {
            let p = Program::generate(seed, &config);
            match run::run_golden(&p, &config, Schedule::Timed) {
                Ok(r) => {
                    let cycles = r.timing.as_ref().map(|t| t.cycles).unwrap_or(0);
                    assert!(cycles > 0, "{name}: seed {seed}: no cycles");
                    if seed <= 5 {
                        let again = run::run_golden(&p, &config, Schedule::Timed).unwrap();
                        assert_eq!(again.timing, r.timing, "{name}: seed {seed}: a timed run must repeat exactly");
                        assert_eq!(again.buffers, r.buffers, "{name}: seed {seed}");
                    }
                }
                Err(e) => failures.push(format!("{name}: seed {seed} ({}): {e}", p.summary())),
            }
        }
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn generator_covers_every_block_kind_and_respects_the_config() {
    for (name, config) in configs() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 1..=300 {
            let p = Program::generate(seed, &config);
            assert!(!p.blocks.is_empty(), "{name}: seed {seed} has no block");
            assert!(p.shape.warps <= config.max_warps_per_cta && p.shape.warps >= 1);
            let shared: u32 = p.blocks.iter().map(|b| b.shared_bytes(p.shape.warps * 32)).sum();
            assert!(shared <= config.shared_bytes, "{name}: seed {seed} declares {shared} shared bytes");
            for b in &p.blocks {
                seen.insert(b.kind());
            }
        }
        assert_eq!(seen.len(), KINDS.len(), "{name}: block kinds seen: {seen:?}");
    }
}

/// The issue-18 features are generated: swizzled tensor maps (each swizzle fits the box, PTX ISA
/// §5.5.7) and maps by value, by-value struct parameters, f16x2 / bf16x2 atomics packed by the
/// three-operand cvt, carry chains / sad / bmsk. None is golden-only any more (`fuzz::run::GOLDEN_ONLY` is empty, so the
/// cosim runs them), and `clear_feature` still takes each out of a program's PTX and launch file.
#[test]
fn issue18_features_are_generated_and_can_be_cleared() {
    use smsync_testbench::fuzz::blocks::AtomClass;
    use smsync_testbench::fuzz::run::{clear_feature, without_golden_only, GOLDEN_ONLY};
    assert!(GOLDEN_ONLY.is_empty(), "golden-only features: {GOLDEN_ONLY:?}");
    let config = Config::default();
    let (mut swizzles, mut map_by_value, mut struct_by_value) = (std::collections::BTreeSet::new(), 0, 0);
    let mut ordinary = 0;
    let mut half2 = std::collections::BTreeSet::new();
    for seed in 1..=400 {
        let p = Program::generate(seed, &config);
        assert_eq!(without_golden_only(p.clone()), p, "seed {seed}: nothing is cleared for cosim");
        for b in &p.blocks {
            match b {
                Block::Tensor(t) => {
                    assert!(t.swizzle == 0 || t.boxd[0] * 4 <= 16 << t.swizzle, "seed {seed}: {t:?}");
                    swizzles.insert(t.swizzle);
                    map_by_value += t.by_value as u32;
                }
                Block::Plain(pl) => {
                    struct_by_value += pl.by_value.is_some() as u32;
                    ordinary += pl.ordinary as u32;
                }
                Block::Atomics(a) => {
                    half2.extend(a.ops.iter().filter(|o| o.class == AtomClass::Half2).map(|o| (o.ty, o.global)))
                }
                _ => {}
            }
        }
        let mut cleared = p.clone();
        for f in ["tensor.swizzle", "tensor.by_value", "plain.by_value", "plain.ordinary", "atomics.half2"] {
            clear_feature(&mut cleared, f);
        }
        let r = cleared.render();
        assert!(!r.launch_yaml.contains("tensor_map"), "seed {seed}: a by-value map left");
        assert!(!r.launch_yaml.contains("fields"), "seed {seed}: a by-value struct left");
        for text in ["cvta.param", "f16x2", "addc", "bmsk"] {
            assert!(!r.entry.contains(text), "seed {seed}: `{text}` left:\n{}", r.entry);
        }
    }
    assert_eq!(swizzles.len(), 4, "swizzle codes generated: {swizzles:?}");
    assert!(map_by_value > 0 && struct_by_value > 0, "by value: {map_by_value} maps, {struct_by_value} structs");
    assert!(ordinary > 0, "no carry chain / sad / bmsk generated");
    assert_eq!(half2.len(), 4, "f16x2/bf16x2 x global/shared generated: {half2:?}");
}

/// The shrinker on an injected failure: "fails" = contains an atomic compare-and-swap. From
/// programs with several blocks, it must reach one Atomics block holding that one op, and the
/// result must still be accepted by ptxas and run clean on the golden model.
#[test]
fn shrinker_reduces_an_injected_failure_to_its_cause() {
    let config = Config::default();
    let has_cas =
        |p: &Program| p.blocks.iter().any(|b| matches!(b, Block::Atomics(a) if a.ops.iter().any(|o| o.op == "cas")));
    let start = (1..2000u64)
        .map(|s| Program::generate(s, &config))
        .find(|p| has_cas(p) && p.blocks.len() >= 3 && p.shape.ctas > 1)
        .expect("no generated program with a cas among 2000 seeds");
    let mut calls = 0;
    let (small, steps) = shrink::shrink(&start, &mut |c| {
        calls += 1;
        has_cas(c)
    });
    assert!(steps >= 3, "only {steps} shrink steps from {}", start.summary());
    assert_eq!(small.blocks.len(), 1, "{}", small.summary());
    match &small.blocks[0] {
        Block::Atomics(a) => {
            assert_eq!(a.ops.len(), 1);
            assert_eq!(a.ops[0].op, "cas");
        }
        other => panic!("shrunk to {other:?}"),
    }
    assert_eq!(small.shape.ctas, 1);
    assert!(shrink::size(&small).1 < shrink::size(&start).1);
    if let Some(p) = ptxas_or_skip() {
        ptxas::assemble(&p, &small.ptx()).unwrap();
    }
    run::run_golden(&small, &config, Schedule::Deterministic).unwrap();
    assert!(calls > steps);
}

/// 10,000 programs per config (minutes): the campaign recorded in docs/ARCHITECTURE.md.
#[test]
#[ignore]
fn campaign_10000_programs() {
    let (n, requests) = campaign(1, 10_000);
    eprintln!("{n} programs, {requests} sync requests, all clean");
}
