//! Named-barrier file and cluster-barrier tests (PTX ISA §9.7.13.1, §9.7.13.3; checklist items 47-62).
mod units_common;

use smsync_sim::config::Config;
use smsync_sim::encoding::{flags, ErrorCode, Op};
use smsync_sim::units::{Request, SyncUnit, TraceEvent};
use units_common::*;

/// A converged whole-warp barrier request.
fn bar(b: &mut Bench, op: Op, warp: u16, id: u32, count: Option<u32>) -> Request {
    let mut r = b.req(op, warp);
    r.active_mask = u32::MAX;
    r.imm = id;
    if let Some(c) = count {
        r.flags |= flags::HAS_COUNT;
        r.imm2 = c;
    }
    r
}

#[test]
fn c048_whole_cta_sync_completes_when_all_warps_arrive() {
    let mut b = Bench::new(4);
    let reqs: Vec<_> = (0..4).map(|w| bar(&mut b, Op::BarSync, w, 0, None)).collect();
    for r in &reqs[..3] {
        assert!(b.submit(r).is_empty(), "blocks until the last warp");
    }
    assert_eq!(b.units.describe_waits()[0], "cta 0 warp 0: bar.sync 0 (3/4 warps arrived)");
    let out = b.submit(&reqs[3]);
    let tags: Vec<u64> = out.iter().map(|r| r.tag).collect();
    assert_eq!(tags, reqs.iter().map(|r| r.tag).collect::<Vec<_>>(), "released in arrival order");
    assert!(out.iter().all(|r| r.lanes == u32::MAX && r.error == ErrorCode::None));
    assert!(b.units.take_trace().contains(&TraceEvent::BarrierRelease { cta: 0, id: 0, warps: 0b1111 }));
}

#[test]
fn c047_barriers_are_independent_and_ids_checked() {
    let mut b = Bench::new(4);
    let a = bar(&mut b, Op::BarSync, 0, 1, Some(64));
    let c = bar(&mut b, Op::BarSync, 1, 15, Some(64));
    assert!(b.submit(&a).is_empty());
    assert!(b.submit(&c).is_empty());
    let d = bar(&mut b, Op::BarSync, 2, 1, Some(64));
    let out = b.submit(&d);
    assert_eq!(out.iter().map(|r| r.tag).collect::<Vec<_>>(), vec![a.tag, d.tag], "only barrier 1 completes");
    let e = bar(&mut b, Op::BarSync, 0, 16, None);
    b.err(&e, ErrorCode::BarIdRange);
    let mut small = Bench::with_config(Config { named_barriers: 4, ..Config::default() }, 2);
    let e = bar(&mut small, Op::BarSync, 0, 4, None);
    small.err(&e, ErrorCode::BarIdRange);
}

#[test]
fn c049_counted_sync_completes_after_count_over_32_warps() {
    let mut b = Bench::new(4);
    let a = bar(&mut b, Op::BarSync, 3, 2, Some(64));
    assert!(b.submit(&a).is_empty());
    let c = bar(&mut b, Op::BarSync, 1, 2, Some(64));
    assert_eq!(b.submit(&c).len(), 2);
}

#[test]
fn c050_arrive_does_not_block_and_releases_only_sync_warps() {
    let mut b = Bench::new(4);
    let p0 = bar(&mut b, Op::BarArrive, 0, 1, Some(96));
    let p1 = bar(&mut b, Op::BarArrive, 1, 1, Some(96));
    assert_eq!(b.ok(&p0).lanes, u32::MAX);
    let c = bar(&mut b, Op::BarSync, 2, 1, Some(96));
    assert!(b.submit(&c).is_empty());
    let out = b.submit(&p1);
    assert_eq!(out.iter().map(|r| r.tag).collect::<Vec<_>>(), vec![p1.tag, c.tag]);
}

#[test]
fn c051_bad_counts() {
    let mut b = Bench::new(4);
    let r = bar(&mut b, Op::BarArrive, 0, 0, None);
    b.err(&r, ErrorCode::BarArriveNeedsCount);
    let r = bar(&mut b, Op::BarArrive, 0, 0, Some(0));
    b.err(&r, ErrorCode::BarArriveNeedsCount);
    let r = bar(&mut b, Op::BarSync, 0, 0, Some(48));
    b.err(&r, ErrorCode::BarCountNotWarpMultiple);
    let r = bar(&mut b, Op::BarSync, 0, 0, Some(160));
    b.err(&r, ErrorCode::BarCountTooLarge);
    // Different counts on one barrier in one round.
    let r = bar(&mut b, Op::BarSync, 0, 0, Some(64));
    assert!(b.submit(&r).is_empty());
    let r = bar(&mut b, Op::BarSync, 1, 0, Some(96));
    b.err(&r, ErrorCode::BarCountMismatch);
    let r = bar(&mut b, Op::BarSync, 1, 0, None);
    b.err(&r, ErrorCode::BarCountMismatch);
}

#[test]
fn c052_barrier_resets_for_a_second_round() {
    let mut b = Bench::new(2);
    for _round in 0..2 {
        let a = bar(&mut b, Op::BarSync, 0, 5, None);
        let c = bar(&mut b, Op::BarSync, 1, 5, None);
        assert!(b.submit(&a).is_empty());
        assert_eq!(b.submit(&c).len(), 2);
    }
    assert!(b.units.describe_waits().is_empty());
}

fn red(b: &mut Bench, op: Op, warp: u16, preds: u32, negate: bool) -> Request {
    let mut r = bar(b, op, warp, 3, None);
    for l in 0..32 {
        r.lanes[l].a = (preds >> l & 1) as u128;
    }
    if negate {
        r.flags |= flags::NEGATE;
    }
    r
}

#[test]
fn c053_red_popc_to_every_thread() {
    let mut b = Bench::new(2);
    let a = red(&mut b, Op::BarRedPopc, 0, 0x0000_00FF, false);
    let c = red(&mut b, Op::BarRedPopc, 1, 0x8000_0001, false);
    assert!(b.submit(&a).is_empty());
    let out = b.submit(&c);
    assert_eq!(out.len(), 2);
    for r in &out {
        assert!(r.values.iter().all(|&v| v == 10));
    }
}

#[test]
fn c054_red_and_or() {
    for (op, p0, p1, expect) in [
        (Op::BarRedAnd, u32::MAX, u32::MAX, true),
        (Op::BarRedAnd, u32::MAX, !1, false),
        (Op::BarRedOr, 0, 0, false),
        (Op::BarRedOr, 0, 1 << 7, true),
    ] {
        let mut b = Bench::new(2);
        let a = red(&mut b, op, 0, p0, false);
        let c = red(&mut b, op, 1, p1, false);
        assert!(b.submit(&a).is_empty());
        let out = b.submit(&c);
        for r in &out {
            assert_eq!(r.preds, if expect { u32::MAX } else { 0 }, "{op:?} {p0:x} {p1:x}");
        }
    }
}

#[test]
fn c055_negated_predicate() {
    let mut b = Bench::new(1);
    let a = red(&mut b, Op::BarRedPopc, 0, 0x0000_000F, true);
    let out = b.submit(&a);
    assert_eq!(out[0].values[0], 28);
    let a = red(&mut b, Op::BarRedAnd, 0, 0, true);
    assert_eq!(b.submit(&a)[0].preds, u32::MAX);
}

#[test]
fn c056_red_mixed_with_sync_is_flagged() {
    let mut b = Bench::new(3);
    let a = bar(&mut b, Op::BarSync, 0, 3, None);
    assert!(b.submit(&a).is_empty());
    let r = red(&mut b, Op::BarRedOr, 1, 0, false);
    b.err(&r, ErrorCode::BarRedMixed);
    let mut b = Bench::new(3);
    let r = red(&mut b, Op::BarRedOr, 1, 0, false);
    assert!(b.submit(&r).is_empty());
    let r = red(&mut b, Op::BarRedAnd, 0, 0, false);
    b.err(&r, ErrorCode::BarRedOpMismatch);
    let r = bar(&mut b, Op::BarSync, 2, 3, None);
    b.err(&r, ErrorCode::BarRedMixed);
}

#[test]
fn c057_exited_warps_and_threads_do_not_block_or_contribute() {
    let mut b = Bench::new(3);
    let a = red(&mut b, Op::BarRedPopc, 0, u32::MAX, false);
    assert!(b.submit(&a).is_empty());
    // Warp 1 has lanes 16..31 exited: only its 16 live lanes take part.
    let mut c = red(&mut b, Op::BarRedPopc, 1, u32::MAX, false);
    c.active_mask = 0xFFFF;
    c.live_mask = 0xFFFF;
    assert!(b.submit(&c).is_empty());
    // Warp 2 exits: the whole-CTA barrier was waiting only on it.
    let mut e = b.req(Op::WarpExit, 2);
    e.active_mask = 0;
    e.live_mask = 0;
    let out = b.submit(&e);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].values[0], 48);
    assert_eq!(out[1].values[5], 48);
    assert_eq!(out[1].lanes, 0xFFFF);
}

#[test]
fn c059_divergent_warp_arrives_once_all_live_lanes_have() {
    let mut b = Bench::new(2);
    let mut lo = bar(&mut b, Op::BarSync, 0, 0, None);
    lo.active_mask = 0x0000_FFFF;
    let mut hi = bar(&mut b, Op::BarSync, 0, 0, None);
    hi.active_mask = 0xFFFF_0000;
    let other = bar(&mut b, Op::BarSync, 1, 0, None);
    assert!(b.submit(&lo).is_empty());
    assert!(b.submit(&other).is_empty(), "warp 0 has not fully arrived");
    let out = b.submit(&hi);
    assert_eq!(out.len(), 3);
}

fn cluster_bench() -> Bench {
    Bench::with_config(Config { cluster_size: 2, cta_slots: 2, ..Config::default() }, 2)
}

fn creq(b: &mut Bench, op: Op, cta: u16, warp: u16) -> Request {
    let mut r = b.req(op, warp);
    r.cta = cta;
    r.active_mask = u32::MAX;
    r
}

#[test]
fn c060_c061_cluster_wait_returns_after_every_warp_arrived() {
    let mut b = cluster_bench();
    let mut waits = Vec::new();
    for (cta, warp) in [(0, 0), (0, 1), (1, 0)] {
        let a = creq(&mut b, Op::BarClusterArrive, cta, warp);
        assert_eq!(b.ok(&a).lanes, u32::MAX, "arrive does not block");
        let w = creq(&mut b, Op::BarClusterWait, cta, warp);
        assert!(b.submit(&w).is_empty());
        waits.push(w.tag);
    }
    assert_eq!(b.units.describe_waits().len(), 3);
    assert!(b.units.describe_waits()[0].contains("1 warps of the cluster not arrived"));
    let a = creq(&mut b, Op::BarClusterArrive, 1, 1);
    let out = b.submit(&a);
    let mut tags: Vec<u64> = out.iter().map(|r| r.tag).collect();
    tags.retain(|t| *t != a.tag);
    assert_eq!(tags, waits);
    // The last arriver's wait returns at once.
    let w = creq(&mut b, Op::BarClusterWait, 1, 1);
    b.ok(&w);
}

#[test]
fn c060_exited_warps_do_not_block_cluster_barrier() {
    let mut b = cluster_bench();
    for (cta, warp) in [(0, 0), (0, 1), (1, 0)] {
        let a = creq(&mut b, Op::BarClusterArrive, cta, warp);
        b.ok(&a);
    }
    let w = creq(&mut b, Op::BarClusterWait, 0, 0);
    assert!(b.submit(&w).is_empty());
    let mut e = creq(&mut b, Op::WarpExit, 1, 1);
    e.live_mask = 0;
    e.active_mask = 0;
    let out = b.submit(&e);
    assert_eq!(answers(&out, w.tag).len(), 1);
}

#[test]
fn c062_cluster_barrier_rearms_and_flags_double_arrive() {
    let mut b = cluster_bench();
    for round in 0..2 {
        for (cta, warp) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let a = creq(&mut b, Op::BarClusterArrive, cta, warp);
            b.ok(&a);
            if round == 0 && cta == 0 && warp == 0 {
                let again = creq(&mut b, Op::BarClusterArrive, 0, 0);
                b.err(&again, ErrorCode::BarClusterArriveTwice);
            }
        }
        for (cta, warp) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let w = creq(&mut b, Op::BarClusterWait, cta, warp);
            b.ok(&w);
        }
    }
    let w = creq(&mut b, Op::BarClusterWait, 0, 0);
    b.err(&w, ErrorCode::BarClusterWaitNoArrive);
}
