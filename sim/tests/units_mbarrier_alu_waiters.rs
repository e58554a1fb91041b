//! The golden mbarrier waiter table as the RTL's `mbarrier_alu` builds it: one entry per
//! suspended LANE (not per request), and a time limit that frees entries even while warps run
//! (without it, spinning warps and suspended waiters livelocked: `smsync fuzz --interleave` on
//! fpga-small, seeds 4 and 214).

mod units_common;

use smsync_sim::config::Config;
use smsync_sim::encoding::{flags, Op};
use smsync_sim::units::mbarrier_alu::WAITER_TIMEOUT_TICKS;
use units_common::*;

const M: u64 = 0x40;

fn init(b: &mut Bench, addr: u64, n: u128) {
    let mut r = b.req(Op::MbInit, 0);
    r.lanes[0].addr = addr;
    r.lanes[0].a = n;
    b.ok(&r);
}

/// A try_wait.parity on the incomplete phase 0 of `M` by `lanes` of `warp`.
fn try_wait(b: &mut Bench, warp: u16, lanes: u32) -> smsync_sim::units::Request {
    let mut r = b.req(Op::MbTryWait, warp);
    r.active_mask = lanes;
    r.flags = flags::PARITY;
    for l in 0..32 {
        r.lanes[l].addr = M;
    }
    r
}

#[test]
fn c021_waiter_table_counts_lanes_not_requests() {
    let cfg = Config { mbarrier_waiters: 4, ..Config::default() };
    let mut b = Bench::with_config(cfg, 4);
    init(&mut b, M, 1);
    // 3 lanes suspend (3 of 4 entries used).
    let r1 = try_wait(&mut b, 1, 0b111);
    assert!(b.submit(&r1).is_empty());
    assert_eq!(b.units.mbarrier.suspended_entries(), 3);
    // 4 lanes: the lowest one takes the last entry, the other three find the table full and
    // answer False; the request answers when its suspended lane does.
    let r2 = try_wait(&mut b, 2, 0b1111);
    assert!(b.submit(&r2).is_empty());
    assert_eq!(b.units.mbarrier.suspended_entries(), 4);
    // table full: a one-lane try_wait answers False at once
    let r3 = try_wait(&mut b, 3, 1);
    assert_eq!(b.ok(&r3).preds, 0);
    // the phase completes: every suspended lane answers True, the lanes that found the table
    // full answer False
    let mut a = b.req(Op::MbArrive, 0);
    a.lanes[0].addr = M;
    a.lanes[0].a = 1;
    let out = b.submit(&a);
    let a1 = answers(&out, r1.tag);
    assert_eq!((a1.len(), a1[0].preds), (1, 0b111));
    let a2 = answers(&out, r2.tag);
    assert_eq!((a2.len(), a2[0].lanes, a2[0].preds), (1, 0b1111, 0b0001));
    assert_eq!(b.units.mbarrier.suspended_entries(), 0);
}

#[test]
fn c021_suspended_try_wait_times_out_while_warps_run() {
    let mut b = Bench::new(2);
    init(&mut b, M, 1);
    let r = try_wait(&mut b, 1, 1);
    assert!(b.submit(&r).is_empty());
    // Busy ticks (other warps can run): no answer before the time limit ...
    for _ in 1..WAITER_TIMEOUT_TICKS {
        let (_, out) = b.tick(false);
        assert!(answers(&out, r.tag).is_empty());
    }
    // ... then False (the phase is still incomplete: never True).
    let (_, out) = b.tick(false);
    let a = answers(&out, r.tag);
    assert_eq!((a.len(), a[0].preds), (1, 0));
    assert_eq!(b.units.mbarrier.suspended_entries(), 0);
}
