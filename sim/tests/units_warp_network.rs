//! Warp-network tests (PTX ISA §9.7.13.2, §9.7.13.8-§9.7.13.14, shfl.sync; checklist items 64-82).
mod units_common;

use smsync_sim::config::Config;
use smsync_sim::encoding::{flags, DataType, ErrorCode, Op, ReduxOp, ShflMode, VoteMode};
use smsync_sim::units::{Request, Response, SyncUnit};
use units_common::*;

fn wreq(b: &mut Bench, op: Op, mask: u32, active: u32, a: impl Fn(usize) -> u128) -> Request {
    let mut r = b.req(op, 0);
    r.member_mask = mask;
    r.active_mask = active;
    for l in 0..32 {
        r.lanes[l].a = a(l);
    }
    r
}

/// Submit a converged request covering all of `mask` and return its response.
fn run(b: &mut Bench, r: &Request) -> Response {
    b.ok(r)
}

fn vote(mode: VoteMode, mask: u32, live: u32, preds: u32, negate: bool) -> Response {
    let mut b = Bench::new(1);
    let mut r = wreq(&mut b, Op::VoteSync, mask, mask & live, |l| (preds >> l & 1) as u128);
    r.live_mask = live;
    r.sub = mode.code();
    if negate {
        r.flags |= flags::NEGATE;
    }
    run(&mut b, &r)
}

#[test]
fn c064_vote_all() {
    assert_eq!(vote(VoteMode::All, 0xFF, u32::MAX, 0xFF, false).preds, 0xFF);
    assert_eq!(vote(VoteMode::All, 0xFF, u32::MAX, 0x7F, false).preds, 0);
    // Lane 7 exited: it does not count.
    assert_eq!(vote(VoteMode::All, 0xFF, !0x80, 0x7F, false).preds, 0x7F);
}

#[test]
fn c065_vote_any() {
    assert_eq!(vote(VoteMode::Any, 0xF0, u32::MAX, 0x01, false).preds, 0, "lane 0 is outside the mask");
    assert_eq!(vote(VoteMode::Any, 0xF0, u32::MAX, 0x10, false).preds, 0xF0);
}

#[test]
fn c066_vote_uni_and_negation() {
    assert_eq!(vote(VoteMode::Uni, u32::MAX, u32::MAX, 0, false).preds, u32::MAX);
    assert_eq!(vote(VoteMode::Uni, u32::MAX, u32::MAX, 0, true).preds, u32::MAX);
    assert_eq!(vote(VoteMode::Uni, u32::MAX, u32::MAX, 1, false).preds, 0);
    assert_eq!(vote(VoteMode::Uni, u32::MAX, u32::MAX, 1, true).preds, 0);
}

#[test]
fn c067_ballot_outside_and_exited_lanes_are_zero() {
    let r = vote(VoteMode::Ballot, 0x0000_FFFF, !0x2, u32::MAX, false);
    assert_eq!(r.values[0], 0x0000_FFFD);
    let r = vote(VoteMode::Ballot, 0x0000_FFFF, u32::MAX, 0x0000_00F0, true);
    assert_eq!(r.values[3], 0x0000_FF0F);
}

#[test]
fn c069_match_any_partial_mask() {
    let mut b = Bench::new(1);
    // Lanes 0..7 of mask 0xFF hold value l % 3; lanes outside the mask hold 0 but do not count.
    let mut r = wreq(&mut b, Op::MatchAny, 0xFF, 0xFF, |l| (l % 3) as u128);
    r.dtype = DataType::B32;
    let resp = run(&mut b, &r);
    assert_eq!(resp.values[0], 0b0100_1001);
    assert_eq!(resp.values[1], 0b1001_0010);
    assert_eq!(resp.values[2], 0b0010_0100);
    assert_eq!(resp.values[6], 0b0100_1001);
}

#[test]
fn c069_match_any_in_two_partial_requests() {
    let mut b = Bench::new(1);
    let mut lo = wreq(&mut b, Op::MatchAny, 0xF, 0x3, |l| (l / 2) as u128);
    lo.dtype = DataType::B32;
    let mut hi = wreq(&mut b, Op::MatchAny, 0xF, 0xC, |l| (l / 2) as u128);
    hi.dtype = DataType::B32;
    assert!(b.submit(&lo).is_empty());
    assert_eq!(
        b.units.describe_waits(),
        vec!["cta 0 warp 0 lanes 0-1: match.any.sync (mask 0x0000000f) waiting for lanes 2-3".to_string()]
    );
    let out = b.submit(&hi);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].values[1], 0b0011);
    assert_eq!(out[1].values[2], 0b1100);
    assert_eq!(out[0].lanes, 0x3);
}

#[test]
fn c070_c071_match_all_and_b64() {
    let mut b = Bench::new(1);
    let mut r = wreq(&mut b, Op::MatchAll, 0xF, 0xF, |_| 0x1_0000_0005);
    r.dtype = DataType::B64;
    let resp = run(&mut b, &r);
    assert_eq!((resp.values[0], resp.preds), (0xF, 0xF));
    // Values differ only in the high 32 bits: b64 sees them as different, b32 as equal.
    let mut r = wreq(&mut b, Op::MatchAll, 0xF, 0xF, |l| ((l as u128) << 32) | 5);
    r.dtype = DataType::B64;
    let resp = run(&mut b, &r);
    assert_eq!((resp.values[0], resp.preds), (0, 0));
    r.tag += 100;
    r.dtype = DataType::B32;
    let resp = run(&mut b, &r);
    assert_eq!((resp.values[0], resp.preds), (0xF, 0xF));
}

#[test]
fn c072_activemask() {
    let mut b = Bench::new(1);
    let r = wreq(&mut b, Op::Activemask, u32::MAX, 0x0F0F_00F1, |_| 0);
    let resp = run(&mut b, &r);
    assert_eq!(resp.values[0], 0x0F0F_00F1);
    assert_eq!(resp.values[1], 0, "inactive lanes get nothing");
}

fn redux(op: ReduxOp, dtype: DataType, fl: u8, mask: u32, v: &[u32]) -> u32 {
    let mut b = Bench::new(1);
    let mut r = wreq(&mut b, Op::ReduxSync, mask, mask, |l| v.get(l).copied().unwrap_or(0) as u128);
    r.sub = op.code();
    r.dtype = dtype;
    r.flags = fl;
    run(&mut b, &r).values[mask.trailing_zeros() as usize] as u32
}

#[test]
fn c073_redux_add_wraps() {
    assert_eq!(redux(ReduxOp::Add, DataType::U32, 0, 0b111, &[0xFFFF_FFFF, 2, 3]), 4);
    assert_eq!(redux(ReduxOp::Add, DataType::S32, 0, 0b11, &[-5i32 as u32, 3]), -2i32 as u32);
}

#[test]
fn c074_redux_signed_vs_unsigned() {
    let v = [-1i32 as u32, 7, -8i32 as u32];
    assert_eq!(redux(ReduxOp::Min, DataType::S32, 0, 0b111, &v), -8i32 as u32);
    assert_eq!(redux(ReduxOp::Max, DataType::S32, 0, 0b111, &v), 7);
    assert_eq!(redux(ReduxOp::Min, DataType::U32, 0, 0b111, &v), 7);
    assert_eq!(redux(ReduxOp::Max, DataType::U32, 0, 0b111, &v), 0xFFFF_FFFF);
}

#[test]
fn c075_redux_bitwise_over_mask_lanes_only() {
    let v = [0b1100, 0b1010, 0xFFFF];
    assert_eq!(redux(ReduxOp::And, DataType::B32, 0, 0b011, &v), 0b1000);
    assert_eq!(redux(ReduxOp::Or, DataType::B32, 0, 0b011, &v), 0b1110);
    assert_eq!(redux(ReduxOp::Xor, DataType::B32, 0, 0b011, &v), 0b0110);
}

const PZ: u32 = 0x0000_0000;
const NZ: u32 = 0x8000_0000;
const QNAN: u32 = 0x7FC0_0000;
const NEG_NAN: u32 = 0xFFC0_0001;
const THREE_NEG: u32 = 0xC040_0000; // -3.0
const TWO: u32 = 0x4000_0000; // 2.0
const THREE: u32 = 0x4040_0000; // 3.0

#[test]
fn c076_redux_f32_signed_zero_order() {
    assert_eq!(redux(ReduxOp::Max, DataType::F32, 0, 0b11, &[NZ, PZ]), PZ);
    assert_eq!(redux(ReduxOp::Min, DataType::F32, 0, 0b11, &[PZ, NZ]), NZ);
}

#[test]
fn c077_redux_f32_ignores_nan() {
    assert_eq!(redux(ReduxOp::Max, DataType::F32, 0, 0b111, &[QNAN, TWO, THREE_NEG]), TWO);
    assert_eq!(redux(ReduxOp::Min, DataType::F32, 0, 0b111, &[QNAN, TWO, THREE_NEG]), THREE_NEG);
    assert_eq!(redux(ReduxOp::Min, DataType::F32, 0, 0b11, &[QNAN, NEG_NAN]), 0x7FFF_FFFF);
}

#[test]
fn c078_redux_f32_nan_propagates() {
    assert_eq!(redux(ReduxOp::Max, DataType::F32, flags::MOD_B, 0b111, &[TWO, NEG_NAN, THREE]), 0x7FFF_FFFF);
}

#[test]
fn c079_redux_f32_abs() {
    assert_eq!(redux(ReduxOp::Max, DataType::F32, flags::MOD_A, 0b11, &[THREE_NEG, TWO]), THREE);
    assert_eq!(redux(ReduxOp::Min, DataType::F32, flags::MOD_A, 0b11, &[THREE_NEG, NZ]), PZ);
}

#[test]
fn redux_f32_not_built_without_its_feature() {
    let mut config = Config::fpga_small();
    config.features.redux_f32 = false;
    let mut b = Bench::with_config(config, 1);
    let mut r = wreq(&mut b, Op::ReduxSync, 1, 1, |_| 0);
    r.dtype = DataType::F32;
    r.sub = ReduxOp::Max.code();
    b.err(&r, ErrorCode::NotBuilt);
}

#[test]
fn c080_elect_lowest_active_lane() {
    let mut b = Bench::new(1);
    for _ in 0..2 {
        let mut r = wreq(&mut b, Op::ElectSync, 0xF0F0, 0xF0E0, |_| 0);
        r.live_mask = !0x10; // lane 4 exited
        let resp = run(&mut b, &r);
        assert_eq!(resp.preds, 1 << 5);
        assert!([5usize, 6, 12, 15].iter().all(|&l| resp.values[l] == 5));
    }
}

#[test]
fn c081_lane_outside_membermask() {
    let mut b = Bench::new(1);
    for op in [Op::WarpSync, Op::VoteSync, Op::MatchAny, Op::ReduxSync, Op::ElectSync, Op::ShflSync] {
        let r = wreq(&mut b, op, 0x0F, 0x1F, |_| 0);
        assert_eq!(b.err(&r, ErrorCode::NotInMemberMask), 4, "{op:?}");
    }
}

#[test]
fn c082_warp_sync_waits_for_all_mask_lanes_with_same_mask() {
    let mut b = Bench::new(1);
    let a = wreq(&mut b, Op::WarpSync, 0xFF, 0x0F, |_| 0);
    assert!(b.submit(&a).is_empty());
    let c = wreq(&mut b, Op::WarpSync, 0xFF, 0xF0, |_| 0);
    let out = b.submit(&c);
    assert_eq!(out.iter().map(|r| r.tag).collect::<Vec<_>>(), vec![a.tag, c.tag]);
    // A certain hang fails on both sides: lanes 0-3 wait (mask 0xff) for lane 4, which now waits
    // (mask 0x1f) for lanes 0-3.
    let a = wreq(&mut b, Op::WarpSync, 0xFF, 0x0F, |_| 0);
    assert!(b.submit(&a).is_empty());
    let c = wreq(&mut b, Op::WarpSync, 0x1F, 0x10, |_| 0);
    let out = b.submit(&c);
    assert_eq!(out.iter().map(|r| r.tag).collect::<Vec<_>>(), vec![a.tag, c.tag]);
    assert!(out.iter().all(|r| r.error == ErrorCode::MemberMaskMismatch));
    // Lanes 4-7 may synchronise among themselves (mask 0xf0) while lanes 0-3 wait with mask 0xff:
    // not an error; lanes 0-3 are released when lanes 4-7 reach a mask-0xff bar.warp.sync.
    let a = wreq(&mut b, Op::WarpSync, 0xFF, 0x0F, |_| 0);
    assert!(b.submit(&a).is_empty());
    let c = wreq(&mut b, Op::WarpSync, 0xF0, 0xF0, |_| 0);
    b.ok(&c);
    let d = wreq(&mut b, Op::WarpSync, 0xFF, 0xF0, |_| 0);
    let out = b.submit(&d);
    assert_eq!(
        out.iter().map(|r| (r.tag, r.error)).collect::<Vec<_>>(),
        vec![(a.tag, ErrorCode::None), (d.tag, ErrorCode::None)]
    );
    // Disjoint masks are independent rendezvous.
    let a = wreq(&mut b, Op::WarpSync, 0x0F, 0x0F, |_| 0);
    let c = wreq(&mut b, Op::WarpSync, 0xF0, 0x30, |_| 0);
    b.ok(&a);
    assert!(b.submit(&c).is_empty());
    // Lanes 6,7 exit: exited lanes count as arrived.
    let mut e = b.req(Op::WarpExit, 0);
    e.active_mask = 0;
    e.live_mask = !0xC0;
    let out = b.submit(&e);
    assert_eq!(answers(&out, c.tag).len(), 1);
}

fn shfl(mode: ShflMode, b_op: u32, c_op: u32, mask: u32) -> Response {
    let mut bench = Bench::new(1);
    let mut r = wreq(&mut bench, Op::ShflSync, mask, mask, |l| 100 + l as u128);
    r.sub = mode.code();
    for l in 0..32 {
        r.lanes[l].b = b_op as u128;
        r.lanes[l].c = c_op as u128;
    }
    run(&mut bench, &r)
}

#[test]
fn shfl_up_down_bfly_idx_full_warp() {
    // up by 1, c = 0 (clamp at lane 0): lane 0 keeps its own value with p = 0.
    let r = shfl(ShflMode::Up, 1, 0, u32::MAX);
    assert_eq!((r.values[0], r.values[5]), (100, 104));
    assert_eq!(r.preds, !1);
    // down by 2, c = 31: lanes 30, 31 out of range.
    let r = shfl(ShflMode::Down, 2, 31, u32::MAX);
    assert_eq!((r.values[0], r.values[29], r.values[30]), (102, 131, 130));
    assert_eq!(r.preds, 0x3FFF_FFFF);
    let r = shfl(ShflMode::Bfly, 1, 31, u32::MAX);
    assert_eq!((r.values[0], r.values[1]), (101, 100));
    let r = shfl(ShflMode::Idx, 7, 31, u32::MAX);
    assert!(r.values.iter().all(|&v| v == 107));
}

#[test]
fn shfl_segments_with_width_8() {
    // width 8: c = ((32 - 8) << 8) | 0x1f for idx/bfly/down; segmask = 0x18.
    let c = (24 << 8) | 0x1f;
    let r = shfl(ShflMode::Idx, 2, c, u32::MAX);
    assert_eq!((r.values[0], r.values[9], r.values[31]), (102, 110, 126));
    let r = shfl(ShflMode::Down, 1, c, u32::MAX);
    assert_eq!((r.values[6], r.values[7], r.values[8]), (107, 107, 109));
    assert_eq!(r.preds >> 7 & 1, 0, "lane 7 is the segment end");
    // up with width 8: c = (24 << 8) | 0.
    let r = shfl(ShflMode::Up, 1, 24 << 8, u32::MAX);
    assert_eq!((r.values[8], r.values[9]), (108, 108));
    assert_eq!(r.preds >> 8 & 1, 0);
}

#[test]
fn shfl_source_outside_mask_returns_own_value() {
    // Mask 0x0F: lane 3 reading lane 4 (down 1) is in range but not a participant.
    let r = shfl(ShflMode::Down, 1, 31, 0x0F);
    assert_eq!((r.values[2], r.values[3]), (103, 103));
    assert_eq!(r.preds & 0x0F, 0x0F);
}

/// Divergent collectives of one warp pending at the same time (independent thread scheduling,
/// the `smsync fuzz --interleave` case): lanes 0-15 wait at a vote.sync of mask 0x0000ffff for
/// lanes 8-15; lanes 16-31 run a shfl.sync of mask 0xffff0000, then reach a vote.sync of mask
/// 0xffffffff and wait there for lanes 0-15. PTX only asks that each mask's lanes execute the
/// collective with the same mask, which this order satisfies: nothing fails, and each vote is
/// computed over its own mask's lanes.
#[test]
fn c082_disjoint_lane_groups_wait_at_different_collectives() {
    let mut b = Bench::new(1);
    let any = VoteMode::Any.code();
    let mut low_first = wreq(&mut b, Op::VoteSync, 0x0000_FFFF, 0x0000_00FF, |l| (l == 3) as u128);
    low_first.sub = any;
    assert!(b.submit(&low_first).is_empty());
    let shfl = wreq(&mut b, Op::ShflSync, 0xFFFF_0000, 0xFFFF_0000, |l| 100 + l as u128);
    let r = b.ok(&shfl);
    assert_eq!(r.values[16], 100 + 16, "b = c = 0: every lane reads its own value");
    let mut high_full = wreq(&mut b, Op::VoteSync, 0xFFFF_FFFF, 0xFFFF_0000, |_| 0);
    high_full.sub = any;
    assert!(b.submit(&high_full).is_empty(), "lanes 16-31 wait for lanes 0-15 at the full-mask vote");
    // Lanes 8-15 complete the half-mask vote: lane 3's true predicate makes it true for 0-15 only.
    let mut low_rest = wreq(&mut b, Op::VoteSync, 0x0000_FFFF, 0x0000_FF00, |_| 0);
    low_rest.sub = any;
    let out = b.submit(&low_rest);
    assert_eq!(
        out.iter().map(|r| (r.tag, r.error, r.preds)).collect::<Vec<_>>(),
        vec![(low_first.tag, ErrorCode::None, 0x0000_00FF), (low_rest.tag, ErrorCode::None, 0x0000_FF00),]
    );
    // Lanes 0-15 reach the full-mask vote with false predicates: that vote is false everywhere.
    let mut low_full = wreq(&mut b, Op::VoteSync, 0xFFFF_FFFF, 0x0000_FFFF, |_| 0);
    low_full.sub = any;
    let out = b.submit(&low_full);
    assert_eq!(
        out.iter().map(|r| (r.tag, r.error, r.preds)).collect::<Vec<_>>(),
        vec![(high_full.tag, ErrorCode::None, 0), (low_full.tag, ErrorCode::None, 0),]
    );
}

/// Same membermask, other op: the pending lanes wait for lanes that now wait for them at another
/// op, a certain hang; every request of both fails. A lane arriving while it already waits fails too.
#[test]
fn c082_same_mask_other_op_and_double_arrival_fail() {
    let mut b = Bench::new(1);
    let a = wreq(&mut b, Op::WarpSync, 0xFF, 0x0F, |_| 0);
    assert!(b.submit(&a).is_empty());
    let c = wreq(&mut b, Op::ElectSync, 0xFF, 0xF0, |_| 0);
    let out = b.submit(&c);
    assert_eq!(
        out.iter().map(|r| (r.tag, r.error)).collect::<Vec<_>>(),
        vec![(a.tag, ErrorCode::MemberMaskMismatch), (c.tag, ErrorCode::MemberMaskMismatch),]
    );
    let a = wreq(&mut b, Op::WarpSync, 0xFF, 0x0F, |_| 0);
    assert!(b.submit(&a).is_empty());
    let twice = wreq(&mut b, Op::WarpSync, 0x0F, 0x01, |_| 0);
    let out = b.submit(&twice);
    assert_eq!(
        out.iter().map(|r| (r.tag, r.error)).collect::<Vec<_>>(),
        vec![(a.tag, ErrorCode::MemberMaskMismatch), (twice.tag, ErrorCode::MemberMaskMismatch),]
    );
    // A cycle of three rendezvous, closed by the last request: A waits for C, C for B, B for A.
    let a = wreq(&mut b, Op::WarpSync, 0x00FF, 0x000F, |_| 0); // needs 4-7
    assert!(b.submit(&a).is_empty());
    let bb = wreq(&mut b, Op::WarpSync, 0x0F0F, 0x0F00, |_| 0); // needs 0-3 (blocked at A): B -> A
    assert!(b.submit(&bb).is_empty());
    let c = wreq(&mut b, Op::WarpSync, 0x0FF0, 0x00F0, |_| 0); // lanes 4-7 (A -> C), needs 8-11 (C -> B)
    let out = b.submit(&c);
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out.iter().all(|r| r.error == ErrorCode::MemberMaskMismatch));
    assert_eq!(out.last().unwrap().tag, c.tag);
}
