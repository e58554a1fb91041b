//! mbarrier unit conformance tests (PTX ISA §9.7.13.15, checklist items 1-31, 34, 46).
mod units_common;

use smsync_sim::config::Config;
use smsync_sim::encoding::mbarrier_word::{unpack, Fields};
use smsync_sim::encoding::{flags, state_token, ErrorCode, Op, Space};
use smsync_sim::memory::{CLUSTER_BASE, WINDOW};
use smsync_sim::units::{SyncUnit, TraceEvent};
use units_common::*;

const M: u64 = 0x40;

fn init(b: &mut Bench, addr: u64, n: u128) {
    let mut r = b.req(Op::MbInit, 0);
    r.lanes[0].addr = addr;
    r.lanes[0].a = n;
    b.ok(&r);
}

fn arrive_req(b: &mut Bench, op: Op, addr: u64, count: u128, fl: u8) -> smsync_sim::units::Request {
    let mut r = b.req(op, 0);
    r.lanes[0].addr = addr;
    r.lanes[0].a = count;
    r.flags = fl;
    r
}

fn arrive(b: &mut Bench, addr: u64, count: u128) -> u64 {
    let r = arrive_req(b, Op::MbArrive, addr, count, 0);
    b.ok(&r).values[0] as u64
}

fn tx(b: &mut Bench, op: Op, addr: u64, k: u128) {
    let mut r = b.req(op, 0);
    r.lanes[0].addr = addr;
    r.lanes[0].a = k;
    b.ok(&r);
}

fn word(b: &Bench, addr: u64) -> Fields {
    unpack(b.shared_u64(0, addr))
}

fn test_wait(b: &mut Bench, addr: u64, a: u128, parity: bool) -> bool {
    let mut r = b.req(Op::MbTestWait, 0);
    r.lanes[0].addr = addr;
    r.lanes[0].a = a;
    if parity {
        r.flags = flags::PARITY;
    }
    b.ok(&r).preds & 1 == 1
}

#[test]
fn c001_init_sets_fields_in_shared_word() {
    let mut b = Bench::new(4);
    init(&mut b, M, 1_048_575);
    assert_eq!(word(&b, M), Fields { valid: true, parity: false, expected: 1_048_575, pending: 1_048_575, tx: 0 });
    // The packed word is in shared memory: bit 62 valid, expected in [19:0], pending in [39:20].
    assert_eq!(b.shared_u64(0, M), 1 << 62 | 0xFFFFF | 0xFFFFF << 20);
}

#[test]
fn c002_init_count_range() {
    let mut b = Bench::new(1);
    for n in [0u128, 1 << 20] {
        let mut r = b.req(Op::MbInit, 0);
        r.lanes[0].addr = M;
        r.lanes[0].a = n;
        b.err(&r, ErrorCode::MbInitCount);
    }
}

#[test]
fn c003_init_on_live_object() {
    let mut b = Bench::new(1);
    init(&mut b, M, 2);
    let mut r = b.req(Op::MbInit, 0);
    r.lanes[0].addr = M;
    r.lanes[0].a = 3;
    b.err(&r, ErrorCode::MbInitLive);
}

#[test]
fn c004_ops_on_uninitialized_or_invalidated() {
    let mut b = Bench::new(1);
    let r = arrive_req(&mut b, Op::MbArrive, M, 1, 0);
    b.err(&r, ErrorCode::MbNotInitialized);
    init(&mut b, M, 2);
    let mut inv = b.req(Op::MbInval, 0);
    inv.lanes[0].addr = M;
    b.ok(&inv);
    assert!(!word(&b, M).valid);
    for op in [Op::MbArrive, Op::MbExpectTx, Op::MbInval, Op::MbTestWait] {
        let mut r = arrive_req(&mut b, op, M, 1, 0);
        r.flags = if op == Op::MbTestWait { flags::PARITY } else { 0 };
        r.lanes[0].a = if op == Op::MbTestWait { 0 } else { 1 };
        b.err(&r, ErrorCode::MbNotInitialized);
    }
    // After inval the location may be initialised again.
    init(&mut b, M, 1);
}

#[test]
fn c004_misaligned_mbarrier() {
    let mut b = Bench::new(1);
    let mut r = b.req(Op::MbInit, 0);
    r.lanes[0].addr = M + 4;
    r.lanes[0].a = 1;
    b.err(&r, ErrorCode::MbAlign);
}

#[test]
fn c005_plain_access_to_live_object() {
    let mut b = Bench::new(1);
    init(&mut b, M, 2);
    for (op, addr, imm) in [(Op::LdShared, M + 4, 4), (Op::StShared, M, 2), (Op::LdShared, M, 8)] {
        let mut r = b.req(op, 0);
        r.lanes[0].addr = addr;
        r.imm = imm;
        b.err(&r, ErrorCode::MbarrierPlainAccess);
    }
    // A misaligned access is undefined in itself (PTX ISA §6.4.1) and reported first, also
    // where it overlaps the object.
    let mut r = b.req(Op::LdShared, 0);
    r.lanes[0].addr = M - 4;
    r.imm = 8;
    b.err(&r, ErrorCode::SharedAlign);
    // Neighbours are fine, and after inval the memory may be reused.
    let mut r = b.req(Op::StShared, 0);
    r.lanes[0].addr = M + 8;
    r.imm = 4;
    b.ok(&r);
    let mut inv = b.req(Op::MbInval, 0);
    inv.lanes[0].addr = M;
    b.ok(&inv);
    let mut r = b.req(Op::StShared, 0);
    r.lanes[0].addr = M;
    r.imm = 8;
    r.lanes[0].a = 0x1234;
    b.ok(&r);
    assert_eq!(b.shared_u64(0, M), 0x1234);
}

#[test]
fn c006_arrive_decrements_by_count() {
    let mut b = Bench::new(1);
    init(&mut b, M, 10);
    arrive(&mut b, M, 1);
    assert_eq!(word(&b, M).pending, 9);
    arrive(&mut b, M, 4);
    assert_eq!(word(&b, M).pending, 5);
}

#[test]
fn c006_lanes_arrive_in_ascending_order() {
    let mut b = Bench::new(1);
    init(&mut b, M, 3);
    let mut r = b.req(Op::MbArrive, 0);
    r.active_mask = 0b1011;
    for l in [0, 1, 3] {
        r.lanes[l].addr = M;
        r.lanes[l].a = 1;
    }
    let resp = b.ok(&r);
    // Tokens carry the pending count before each lane's arrive: 3, 2, 1.
    assert_eq!(state_token::pending(resp.values[0] as u64), 3);
    assert_eq!(state_token::pending(resp.values[1] as u64), 2);
    assert_eq!(state_token::pending(resp.values[3] as u64), 1);
    assert!(word(&b, M).parity, "third arrival completed phase 0");
}

#[test]
fn c007_arrive_completes_phase_when_tx_zero() {
    let mut b = Bench::new(1);
    init(&mut b, M, 2);
    arrive(&mut b, M, 1);
    assert!(!word(&b, M).parity);
    arrive(&mut b, M, 1);
    let w = word(&b, M);
    assert!(w.parity);
    assert_eq!((w.pending, w.expected, w.tx), (2, 2, 0));
    assert!(b.units.take_trace().contains(&TraceEvent::PhaseComplete { cta: 0, addr: M, parity: true }));
}

#[test]
fn c008_phase_waits_on_tx_count() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    tx(&mut b, Op::MbExpectTx, M, 128);
    arrive(&mut b, M, 1);
    let w = word(&b, M);
    assert!(!w.parity, "pending 0 but tx 128: no completion");
    assert_eq!((w.pending, w.tx), (0, 128));
    tx(&mut b, Op::MbCompleteTx, M, 100);
    assert!(!word(&b, M).parity);
    tx(&mut b, Op::MbCompleteTx, M, 28);
    assert!(word(&b, M).parity);
    assert_eq!(word(&b, M).pending, 1);
}

#[test]
fn c009_complete_tx_with_pending_does_not_complete() {
    let mut b = Bench::new(1);
    init(&mut b, M, 2);
    tx(&mut b, Op::MbExpectTx, M, 64);
    tx(&mut b, Op::MbCompleteTx, M, 64);
    let w = word(&b, M);
    assert_eq!((w.parity, w.pending, w.tx), (false, 2, 0));
}

#[test]
fn c010_negative_tx_blocks_completion() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    tx(&mut b, Op::MbCompleteTx, M, 32);
    assert_eq!(word(&b, M).tx, -32);
    arrive(&mut b, M, 1);
    assert!(!word(&b, M).parity, "tx < 0 blocks completion");
    // The packed tx field is 21-bit two's complement: -32 = 0x1FFFE0 at bit 40.
    assert_eq!(b.shared_u64(0, M) >> 40 & 0x1F_FFFF, 0x1F_FFE0);
    tx(&mut b, Op::MbExpectTx, M, 32);
    assert!(word(&b, M).parity, "project rule: expect_tx bringing tx to 0 completes the phase");
}

#[test]
fn c011_tx_range() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    tx(&mut b, Op::MbExpectTx, M, 1_048_575);
    let mut r = b.req(Op::MbExpectTx, 0);
    r.lanes[0].addr = M;
    r.lanes[0].a = 1;
    b.err(&r, ErrorCode::MbTxRange);
    let mut r = b.req(Op::MbCompleteTx, 0);
    r.lanes[0].addr = M;
    r.lanes[0].a = 2 * 1_048_575 + 1;
    b.err(&r, ErrorCode::MbTxRange);
    // Unchanged by the failed requests.
    assert_eq!(word(&b, M).tx, 1_048_575);
}

#[test]
fn c012_arrive_expect_tx_adds_tx_before_arriving() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    let mut r = arrive_req(&mut b, Op::MbArrive, M, 1, flags::EXPECT_TX);
    r.lanes[0].b = 256;
    b.ok(&r);
    let w = word(&b, M);
    assert_eq!((w.parity, w.pending, w.tx), (false, 0, 256));
    tx(&mut b, Op::MbCompleteTx, M, 256);
    assert!(word(&b, M).parity);
}

#[test]
fn c013_arrive_expect_tx_counts_one() {
    let mut b = Bench::new(1);
    init(&mut b, M, 5);
    // Even if the executor left a count in `a`, expect_tx arrives with 1.
    let mut r = arrive_req(&mut b, Op::MbArrive, M, 3, flags::EXPECT_TX);
    r.lanes[0].b = 16;
    b.ok(&r);
    assert_eq!(word(&b, M).pending, 4);
}

#[test]
fn c014_token_of_completing_arrive_tests_true() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    let t = arrive(&mut b, M, 1);
    assert!(!state_token::parity(t), "token holds the phase before the arrive");
    assert!(test_wait(&mut b, M, t as u128, false));
}

#[test]
fn c015_c016_token_current_and_previous_phase() {
    let mut b = Bench::new(1);
    init(&mut b, M, 2);
    let t = arrive(&mut b, M, 1);
    assert!(!test_wait(&mut b, M, t as u128, false));
    arrive(&mut b, M, 1);
    assert!(test_wait(&mut b, M, t as u128, false));
}

#[test]
fn c017_token_two_phases_old_is_flagged() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    let t = arrive(&mut b, M, 1); // phase 0 -> 1
                                  // Another thread (warp 1) completes phase 1.
    let mut r = b.req(Op::MbArrive, 1);
    r.lanes[0].addr = M;
    r.lanes[0].a = 1;
    b.ok(&r);
    let mut w = b.req(Op::MbTestWait, 0);
    w.lanes[0].addr = M;
    w.lanes[0].a = t as u128;
    b.err(&w, ErrorCode::MbStaleToken);
    // A register that never held a token is not one.
    w.lanes[0].a = 0;
    b.err(&w, ErrorCode::MbStaleToken);
}

#[test]
fn c018_parity_wait() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    assert!(!test_wait(&mut b, M, 0, true));
    assert!(test_wait(&mut b, M, 1, true), "parity 1 = the phase before 0, complete");
    arrive(&mut b, M, 1);
    assert!(test_wait(&mut b, M, 0, true));
    assert!(!test_wait(&mut b, M, 1, true));
}

#[test]
fn c019_parity_range() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    let mut r = b.req(Op::MbTestWait, 0);
    r.lanes[0].addr = M;
    r.lanes[0].a = 2;
    r.flags = flags::PARITY;
    b.err(&r, ErrorCode::MbParityRange);
}

#[test]
fn c020_try_wait_on_complete_phase_answers_at_once() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    arrive(&mut b, M, 1);
    let mut r = b.req(Op::MbTryWait, 0);
    r.lanes[0].addr = M;
    r.lanes[0].a = 0;
    r.flags = flags::PARITY;
    assert_eq!(b.ok(&r).preds, 1);
}

#[test]
fn c021_try_wait_suspends_until_completion() {
    let mut b = Bench::new(2);
    init(&mut b, M, 1);
    let mut r = b.req(Op::MbTryWait, 1);
    r.lanes[0].addr = M;
    r.flags = flags::PARITY;
    assert!(b.submit(&r).is_empty(), "suspended");
    assert_eq!(
        b.units.describe_waits(),
        vec!["cta 0 warp 1: mbarrier.try_wait [0x40] phase 0 incomplete (pending 1, tx 0)".to_string()]
    );
    // A non-idle tick does not time it out.
    assert!(b.tick(false).1.is_empty());
    let a = arrive_req(&mut b, Op::MbArrive, M, 1, 0);
    let out = b.submit(&a);
    let woken = answers(&out, r.tag);
    assert_eq!(woken.len(), 1);
    assert_eq!(woken[0].preds, 1);
    assert!(b.units.describe_waits().is_empty());
}

#[test]
fn c021_try_wait_times_out_false_when_idle() {
    let mut b = Bench::new(1);
    init(&mut b, M, 1);
    let mut r = b.req(Op::MbTryWait, 0);
    r.lanes[0].addr = M;
    r.flags = flags::PARITY;
    r.lanes[0].b = 1000; // suspendTimeHint: accepted, untimed model
    assert!(b.submit(&r).is_empty());
    let out = b.drain();
    let a = answers(&out, r.tag);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].preds, 0, "timed out: False, never True for an incomplete phase");
    assert!(!word(&b, M).parity);
}

#[test]
fn c021_waiter_table_full_answers_false() {
    let cfg = Config { mbarrier_waiters: 1, ..Config::default() };
    let mut b = Bench::with_config(cfg, 4);
    init(&mut b, M, 1);
    let mut r1 = b.req(Op::MbTryWait, 1);
    r1.lanes[0].addr = M;
    r1.flags = flags::PARITY;
    assert!(b.submit(&r1).is_empty());
    let mut r2 = b.req(Op::MbTryWait, 2);
    r2.lanes[0].addr = M;
    r2.flags = flags::PARITY;
    assert_eq!(b.ok(&r2).preds, 0);
    assert_eq!(b.units.mbarrier.suspended(), 1);
}

#[test]
fn c022_test_wait_never_blocks() {
    let mut b = Bench::new(1);
    init(&mut b, M, 3);
    let r = {
        let mut r = b.req(Op::MbTestWait, 0);
        r.lanes[0].addr = M;
        r.flags = flags::PARITY;
        r
    };
    let resp = b.ok(&r);
    assert_eq!(resp.preds, 0);
    assert_eq!(b.units.mbarrier.suspended(), 0);
}

#[test]
fn c023_c024_c025_arrive_drop() {
    let mut b = Bench::new(1);
    init(&mut b, M, 3);
    let r = arrive_req(&mut b, Op::MbArriveDrop, M, 1, 0);
    b.ok(&r);
    let w = word(&b, M);
    assert_eq!((w.expected, w.pending), (2, 2));
    arrive(&mut b, M, 1);
    let r = arrive_req(&mut b, Op::MbArriveDrop, M, 1, 0);
    b.ok(&r); // completes phase 0: pending reloads from the decremented expected (1)
    let w = word(&b, M);
    assert_eq!((w.parity, w.expected, w.pending), (true, 1, 1));
    // Phase 1 now completes with a single arrival.
    arrive(&mut b, M, 1);
    assert!(!word(&b, M).parity);
}

#[test]
fn c026_drop_below_one_is_flagged() {
    let mut b = Bench::new(1);
    init(&mut b, M, 2);
    let r = arrive_req(&mut b, Op::MbArriveDrop, M, 2, 0);
    b.err(&r, ErrorCode::MbExpectedUnderflow);
    assert_eq!(word(&b, M).expected, 2, "no change on error");
}

#[test]
fn c027_arrive_count_above_pending() {
    let mut b = Bench::new(1);
    init(&mut b, M, 2);
    let r = arrive_req(&mut b, Op::MbArrive, M, 3, 0);
    b.err(&r, ErrorCode::MbPendingUnderflow);
    let r = arrive_req(&mut b, Op::MbArrive, M, 0, 0);
    b.err(&r, ErrorCode::MbArriveCount);
}

#[test]
fn c028_no_complete_that_would_complete() {
    let mut b = Bench::new(1);
    init(&mut b, M, 5);
    let r = arrive_req(&mut b, Op::MbArrive, M, 5, flags::NO_COMPLETE);
    b.err(&r, ErrorCode::MbNoCompleteCompleted);
    assert_eq!(word(&b, M).pending, 5);
    let r = arrive_req(&mut b, Op::MbArriveDrop, M, 5, flags::NO_COMPLETE);
    b.err(&r, ErrorCode::MbExpectedUnderflow);
    let r = arrive_req(&mut b, Op::MbArrive, M, 4, flags::NO_COMPLETE);
    b.ok(&r);
    assert_eq!(word(&b, M).pending, 1);
}

#[test]
fn c030_pending_count_of_no_complete_token() {
    let mut b = Bench::new(1);
    init(&mut b, M, 5);
    let r = arrive_req(&mut b, Op::MbArrive, M, 2, flags::NO_COMPLETE);
    let t = b.ok(&r).values[0];
    let mut p = b.req(Op::MbPendingCount, 0);
    p.lanes[0].a = t;
    assert_eq!(b.ok(&p).values[0], 5);
}

#[test]
fn c031_pending_count_of_plain_token_is_flagged() {
    let mut b = Bench::new(1);
    init(&mut b, M, 5);
    let t = arrive(&mut b, M, 2);
    let mut p = b.req(Op::MbPendingCount, 0);
    p.lanes[0].a = t as u128;
    b.err(&p, ErrorCode::MbPendingCountToken);
}

#[test]
fn c034_remote_expect_and_complete_tx() {
    let cfg = Config { cluster_size: 2, ..Config::default() };
    let mut b = Bench::with_config(cfg, 1);
    // CTA slot 1 (cluster rank 1) initialises its own mbarrier.
    let mut r = b.req(Op::MbInit, 0);
    r.cta = 1;
    r.lanes[0].addr = M;
    r.lanes[0].a = 1;
    b.ok(&r);
    for (op, k) in [(Op::MbExpectTx, 64u128), (Op::MbCompleteTx, 16)] {
        let mut r = b.req(op, 0);
        r.space = Space::SharedCluster;
        r.lanes[0].addr = CLUSTER_BASE + WINDOW + M;
        r.lanes[0].a = k;
        b.ok(&r);
    }
    assert_eq!(unpack(b.shared_u64(1, M)).tx, 48);
    // A remote arrive (the state result is discarded by the program).
    let mut r = b.req(Op::MbArrive, 0);
    r.space = Space::SharedCluster;
    r.lanes[0].addr = CLUSTER_BASE + WINDOW + M;
    r.lanes[0].a = 1;
    b.ok(&r);
    assert_eq!(unpack(b.shared_u64(1, M)).pending, 0);
    // Rank 2 does not exist in a cluster of 2.
    let mut r = b.req(Op::MbExpectTx, 0);
    r.space = Space::SharedCluster;
    r.lanes[0].addr = CLUSTER_BASE + 2 * WINDOW + M;
    b.err(&r, ErrorCode::SharedOutOfRange);
}

#[test]
fn c046_transition_resets_only_pending() {
    let mut b = Bench::new(1);
    init(&mut b, M, 3);
    tx(&mut b, Op::MbExpectTx, M, 8);
    arrive(&mut b, M, 3);
    tx(&mut b, Op::MbCompleteTx, M, 8);
    let w = word(&b, M);
    assert_eq!((w.parity, w.expected, w.pending, w.tx), (true, 3, 3, 0));
    arrive(&mut b, M, 3);
    assert!(!word(&b, M).parity);
}

#[test]
fn failing_lane_ends_the_request() {
    let mut b = Bench::new(1);
    init(&mut b, M, 4);
    let mut r = b.req(Op::MbArrive, 0);
    r.active_mask = 0b111;
    r.lanes[0] = smsync_sim::units::LaneOps { addr: M, a: 1, ..Default::default() };
    r.lanes[1] = smsync_sim::units::LaneOps { addr: M + 8, a: 1, ..Default::default() };
    r.lanes[2] = smsync_sim::units::LaneOps { addr: M, a: 1, ..Default::default() };
    assert_eq!(b.err(&r, ErrorCode::MbNotInitialized), 1);
    assert_eq!(word(&b, M).pending, 3, "lane 0 arrived, lane 2 did not");
}
