//! The built-in bench kernels run correctly (each result is checked against host arithmetic).
//! `bench_figures` (ignored by default) prints the rates that `smsync bench` reports:
//! `cargo test --release -p smsync-sim --test exec_bench -- --ignored --nocapture`.

use smsync_sim::config::Config;
use smsync_sim::exec::bench;

#[test]
fn bench_kernels_compute_the_right_results() {
    for timed in [false, true] {
        for k in bench::kernels() {
            let f = bench::measure(&k, &Config::default(), 1, timed).unwrap_or_else(|e| panic!("{e}"));
            assert!(f.thread_instructions > 0, "{}", k.name);
        }
    }
}

#[test]
#[ignore]
fn bench_figures() {
    for (k, timed) in bench::kernels().into_iter().flat_map(|k| [(k.clone(), false), (k, true)]) {
        let f = bench::measure(&k, &Config::default(), 3, timed).unwrap_or_else(|e| panic!("{e}"));
        println!(
            "{:<20} {:<7} {:>12} thread-instrs {:>8.3} s {:>10.1} M thread-instrs/s",
            f.name,
            if timed { "timed" } else { "untimed" },
            f.thread_instructions,
            f.seconds,
            f.rate / 1e6
        );
    }
}

/// The IR built in code for each kernel (used before the parser landed) and the parsed PTX text
/// compute the same buffers.
#[test]
fn built_ir_and_parsed_ptx_agree() {
    use smsync_sim::exec::{run, Launch, RunOptions};
    use smsync_sim::units::GoldenUnits;
    let cfg = Config::default();
    for k in bench::kernels() {
        let launch = Launch::from_yaml(k.launch).unwrap();
        let parsed = smsync_sim::ptx::parse(k.ptx, k.name).unwrap_or_else(|e| panic!("{e}"));
        let a = run(&parsed, &launch, &cfg, &mut GoldenUnits::new(&cfg), RunOptions::default()).unwrap();
        let b = run(&(k.build)(), &launch, &cfg, &mut GoldenUnits::new(&cfg), RunOptions::default()).unwrap();
        assert_eq!(a.bits("out"), b.bits("out"), "{}", k.name);
    }
}
