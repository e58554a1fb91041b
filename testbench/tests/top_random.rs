//! The Verilated `sync_unit` top against `GoldenUnits` on fpga-small: per seed, a stream of
//! random legal requests for each unit the top builds (named barriers, with divergent warps'
//! partial arrivals; mbarrier; warp network; LSU, with lanes onto live and dead mbarrier objects;
//! atomic ALU; copy engine), compared response by response (matched by tag: values, preds,
//! lanes, errors), then the whole shared memory of both CTA slots (read back through the top's
//! own ld.shared) against the golden memory. Plus directed corners that need the top (phase flip
//! waiting on the tx-count, pending-count overflow).
//!
//! The atomic stream (atom/red of every legal op and type, scalar and vector, shared::cta and
//! global, conflicting lanes) and the copy stream (cp.async with groups and wait_group, bulk
//! shared -> global with bulk groups) also compare global memory: the RTL's global ports are
//! served from their own copy (`StreamPair::rtl_mem`). The streams are in the library
//! (`testbench/src/top_streams.rs`), where `smsync mutate` runs them against mutants too.
//!
//! `cargo test -p smsync-testbench --test top_random -- --nocapture`
//! Longer campaigns: `SMSYNC_TOP_SEEDS=1,2,3 SMSYNC_TOP_COUNT=100000 cargo test ... --test top_random`.

use smsync_sim::config::Config;
use smsync_sim::encoding::{flags, ErrorCode, Op, Space};
use smsync_testbench::rtl_unit::RtlOptions;
use smsync_testbench::top_streams::{all_streams, full, run_streams, StreamPair};
use smsync_testbench::verilator::rtl_tools_skipped;
use smsync_testkit::Campaign;

/// Seeds and requests per unit: quick tier 2,000 per unit, full tier 10,000; or
/// `SMSYNC_TOP_SEEDS` / `SMSYNC_TOP_COUNT`.
fn seeds_and_count() -> (Vec<u64>, usize) {
    Campaign::new("TOP", (&[1], 2_000), (&[1, 2], 10_000)).split()
}

#[test]
fn random_requests_per_unit_match_golden_fpga_small() {
    if rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: not run");
        return;
    }
    let cfg = Config::fpga_small();
    let (seeds, count) = seeds_and_count();
    for seed in seeds {
        eprintln!("top_random: seed {seed}, {count} requests per unit");
        let mut p = pair(&cfg, seed);
        let t = std::time::Instant::now();
        all_streams(&mut p, seed, count, |stream| eprintln!("  {stream}: {:?}", t.elapsed()));
        eprintln!("  shared memory equal, {} requests, {} cycles, {:?}", p.submitted, p.rtl.cycle(), t.elapsed());
    }
}

/// The generated top and the golden units.
fn pair(cfg: &Config, seed: u64) -> StreamPair {
    StreamPair::new(cfg, seed, &RtlOptions::default()).unwrap_or_else(|e| panic!("RTL model: {e}"))
}

/// PTX ISA §9.7.13.15.6: with a pending tx-count the phase does not complete when the last arrival comes;
/// it flips on the complete_tx that brings the tx-count to zero.
#[test]
fn c008_phase_waits_on_tx_count_through_the_top() {
    if rtl_tools_skipped() {
        return;
    }
    let cfg = Config::fpga_small();
    let mut p = pair(&cfg, 0);
    p.launch(0, 2);
    let one = |tag: u64, op: Op, a: u128| {
        let mut r = full(tag, 0, 0, op);
        r.active_mask = 1;
        r.lanes[0].addr = 0x40;
        r.lanes[0].a = a;
        r
    };
    let mut wait = one(5, Op::MbTestWait, 0);
    wait.flags = flags::PARITY;
    p.submit(&one(1, Op::MbInit, 1));
    p.submit(&one(2, Op::MbExpectTx, 128));
    p.submit(&one(3, Op::MbArrive, 1));
    assert_eq!(p.submit(&wait)[0].preds, 0, "arrived, tx 128 pending: phase 0 not complete");
    p.submit(&one(6, Op::MbCompleteTx, 64));
    wait.tag = 7;
    assert_eq!(p.submit(&wait)[0].preds, 0, "tx 64 still pending");
    p.submit(&one(8, Op::MbCompleteTx, 64));
    wait.tag = 9;
    assert_eq!(p.submit(&wait)[0].preds, 1, "tx-count zero: the phase flipped");
}

/// Range errors of the pending count through the top: init above 2^20-1 and an arrive count
/// above the pending count answer the golden errors.
#[test]
fn pending_count_range_errors_through_the_top() {
    if rtl_tools_skipped() {
        return;
    }
    let cfg = Config::fpga_small();
    let mut p = pair(&cfg, 0);
    p.launch(0, 1);
    let one = |tag: u64, op: Op, a: u128| {
        let mut r = full(tag, 0, 0, op);
        r.active_mask = 1;
        r.lanes[0].addr = 0x80;
        r.lanes[0].a = a;
        r
    };
    assert_eq!(p.submit(&one(1, Op::MbInit, 1 << 20))[0].error, ErrorCode::MbInitCount);
    assert_eq!(p.submit(&one(2, Op::MbInit, (1 << 20) - 1))[0].error, ErrorCode::None);
    assert_eq!(p.submit(&one(3, Op::MbArrive, 1 << 20))[0].error, ErrorCode::MbArriveCount);
    assert_eq!(p.submit(&one(4, Op::MbArriveDrop, 2))[0].error, ErrorCode::None);
    // An operand bit no built unit reads is answered NotBuilt, not truncated.
    let mut wide = one(5, Op::MbArrive, 1);
    wide.lanes[0].a |= 1 << 100;
    let mut r = Vec::new();
    p.rtl.submit(&wide, &mut p.mem, &mut r).unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].error, ErrorCode::NotBuilt);
    // mbarrier on shared::cluster: cluster addresses are not resolved in the top yet.
    let mut remote = one(6, Op::MbArrive, 1);
    remote.space = Space::SharedCluster;
    let mut r = Vec::new();
    p.rtl.submit(&remote, &mut p.mem, &mut r).unwrap();
    assert_eq!(r[0].error, ErrorCode::NotBuilt);
}

/// `run_streams`, the form `smsync mutate` runs, reports a broken top as an error naming the
/// request (the test-only fault flips bit 0 of lane 0's value in every warp-network answer)
/// and passes the unbroken one.
#[test]
fn a_stream_run_reports_a_broken_top() {
    if rtl_tools_skipped() {
        return;
    }
    let cfg = Config::fpga_small();
    let (requests, _) = run_streams(&cfg, 1, 200, &RtlOptions::default()).expect("the generated top passes");
    assert!(requests > 1000, "every unit's stream ran: {requests} requests");
    let broken = RtlOptions { fault_inject: true, ..Default::default() };
    let e = run_streams(&cfg, 1, 200, &broken).expect_err("a broken warp network is caught");
    assert!(e.contains("differs"), "{e}");
}
