//! The built-in bench kernels run correctly (each result is checked against host arithmetic).
//! `bench_figures` (ignored by default) prints the rates that `smsync bench` reports:
//! `cargo test --release -p smsync-sim --test exec_bench -- --ignored --nocapture`.

use smsync_sim::config::Config;
use smsync_sim::exec::bench;

#[test]
fn bench_kernels_compute_the_right_results() {
    for k in bench::kernels() {
        let f = bench::measure(&k, &Config::default(), 1).unwrap_or_else(|e| panic!("{e}"));
        assert!(f.thread_instructions > 0, "{}", k.name);
    }
}

#[test]
#[ignore]
fn bench_figures() {
    for k in bench::kernels() {
        let f = bench::measure(&k, &Config::default(), 3).unwrap_or_else(|e| panic!("{e}"));
        println!("{:<20} {:>12} thread-instrs {:>8.3} s {:>10.1} M thread-instrs/s", f.name, f.thread_instructions, f.seconds, f.rate / 1e6);
    }
}
