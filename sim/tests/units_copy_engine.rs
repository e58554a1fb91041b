//! Copy-engine tests (PTX ISA §9.7.13.15.15, §9.7.9.25; checklist items 37-43, 98-107, 109, 110, 114).
mod units_common;

use smsync_sim::config::Config;
use smsync_sim::encoding::mbarrier_word::unpack;
use smsync_sim::encoding::{flags, AtomOp, BulkDir, DataType, ErrorCode, Op, Space};
use smsync_sim::memory::{CLUSTER_BASE, GLOBAL_BASE, WINDOW};
use smsync_sim::units::{Request, SyncUnit, TraceEvent};
use units_common::*;

const G: u64 = GLOBAL_BASE + 0x1000;
const MB: u64 = 0x8;

fn fill_global(b: &mut Bench, addr: u64, len: usize) {
    for i in 0..len {
        b.mem.write_global(addr + i as u64, 1, (i as u128 & 0xFF) + 1).unwrap();
    }
}

fn cp_async(b: &mut Bench, dst: u64, src: u64, cp: u32, src_size: u128, ignore: bool) -> Request {
    let mut r = b.req(Op::CpAsync, 0);
    r.imm = cp;
    r.lanes[0].addr = dst;
    r.lanes[0].src = src;
    r.lanes[0].a = src_size;
    r.lanes[0].b = ignore as u128;
    r
}

fn simple(b: &mut Bench, op: Op, imm: u32, imm2: u32) -> Request {
    let mut r = b.req(op, 0);
    r.imm = imm;
    r.imm2 = imm2;
    r
}

fn init(b: &mut Bench, cta: u16, addr: u64, n: u128) {
    let mut r = b.req(Op::MbInit, 0);
    r.cta = cta;
    r.lanes[0].addr = addr;
    r.lanes[0].a = n;
    b.ok(&r);
}

#[test]
fn c098_c104_cp_async_copies_cp_size_bytes_at_completion() {
    let mut b = Bench::new(1);
    fill_global(&mut b, G, 32);
    for (cp, dst) in [(4u32, 0x100u64), (8, 0x200), (16, 0x300)] {
        let r = cp_async(&mut b, dst, G, cp, cp as u128, false);
        b.ok(&r);
        assert_eq!(b.mem.read_shared(0, dst, 16).unwrap(), 0, "not landed before the engine runs");
    }
    b.drain();
    assert_eq!(b.mem.read_shared(0, 0x100, 8).unwrap(), 0x04030201);
    assert_eq!(b.mem.read_shared(0, 0x200, 16).unwrap(), 0x0807060504030201);
    assert_eq!(b.mem.read_shared(0, 0x300, 16).unwrap(), b.mem.read_global(G, 16).unwrap());
    let r = cp_async(&mut b, 0x104, G, 8, 8, false);
    b.err(&r, ErrorCode::CpAsyncAlign);
    let r = cp_async(&mut b, 0x100, G, 12, 8, false);
    b.err(&r, ErrorCode::CpAsyncAlign);
}

#[test]
fn c099_src_size_zero_fills() {
    let mut b = Bench::new(1);
    fill_global(&mut b, G, 16);
    b.mem.write_shared(0, 0x100, 16, u128::MAX).unwrap();
    let r = cp_async(&mut b, 0x100, G, 16, 3, false);
    b.ok(&r);
    b.drain();
    assert_eq!(b.mem.read_shared(0, 0x100, 16).unwrap(), 0x030201);
    let r = cp_async(&mut b, 0x100, G, 16, 17, false);
    b.err(&r, ErrorCode::CpAsyncSrcSize);
}

#[test]
fn c100_ignore_src_writes_zeros() {
    let mut b = Bench::new(1);
    fill_global(&mut b, G, 16);
    b.mem.write_shared(0, 0x100, 16, u128::MAX).unwrap();
    b.mem.write_shared(0, 0x200, 16, u128::MAX).unwrap();
    let r = cp_async(&mut b, 0x100, G, 16, 16, true);
    b.ok(&r);
    let r = cp_async(&mut b, 0x200, G, 16, 16, false);
    b.ok(&r);
    b.drain();
    assert_eq!(b.mem.read_shared(0, 0x100, 16).unwrap(), 0);
    assert_eq!(b.mem.read_shared(0, 0x200, 16).unwrap(), b.mem.read_global(G, 16).unwrap());
}

#[test]
fn c101_empty_group_is_complete() {
    let mut b = Bench::new(1);
    let c = simple(&mut b, Op::CpAsyncCommit, 0, 0);
    b.ok(&c);
    let w = simple(&mut b, Op::CpAsyncWait, 0, 0);
    b.ok(&w);
}

#[test]
fn c102_wait_group_ordering() {
    let mut b = Bench::new(1);
    fill_global(&mut b, G, 64);
    for i in 0..3u64 {
        let r = cp_async(&mut b, 0x100 + 16 * i, G + 16 * i, 16, 16, false);
        b.ok(&r);
        let c = simple(&mut b, Op::CpAsyncCommit, 0, 0);
        b.ok(&c);
    }
    let w2 = simple(&mut b, Op::CpAsyncWait, 2, 0);
    assert!(b.submit(&w2).is_empty(), "3 groups pending > 2");
    let w0 = simple(&mut b, Op::CpAsyncWait, 0, 0);
    assert!(b.submit(&w0).is_empty());
    let lines = b.units.describe_waits();
    assert!(lines.contains(&"cta 0 warp 0 lanes 0: cp.async.wait_group 2 (3 groups pending)".to_string()), "{lines:?}");
    // One non-idle tick reads, the second lands the data and retires every group.
    assert!(b.tick(false).1.is_empty());
    let (_, out) = b.tick(false);
    assert_eq!(out.iter().map(|r| r.tag).collect::<Vec<_>>(), vec![w2.tag, w0.tag]);
    let groups = b.units.take_trace().into_iter().filter(|e| matches!(e, TraceEvent::GroupDone { .. })).count();
    assert_eq!(groups, 3);
}

#[test]
fn c103_wait_group_0_skips_uncommitted_wait_all_covers_it() {
    let mut b = Bench::new(1);
    fill_global(&mut b, G, 16);
    let r = cp_async(&mut b, 0x100, G, 16, 16, false);
    b.ok(&r);
    let w0 = simple(&mut b, Op::CpAsyncWait, 0, 0);
    b.ok(&w0); // the op is uncommitted: not waited on
    assert_eq!(b.mem.read_shared(0, 0x100, 16).unwrap(), 0);
    let wall = simple(&mut b, Op::CpAsyncWait, 0, 1);
    assert!(b.submit(&wall).is_empty());
    let out = b.drain();
    assert_eq!(answers(&out, wall.tag).len(), 1);
    assert_eq!(b.mem.read_shared(0, 0x100, 16).unwrap(), b.mem.read_global(G, 16).unwrap());
}

fn cp_arrive(b: &mut Bench, noinc: bool) -> Request {
    let mut r = b.req(Op::MbCpAsyncArrive, 0);
    r.lanes[0].addr = MB;
    if noinc {
        r.flags = flags::NO_INC;
    }
    r
}

#[test]
fn c037_c040_c041_cp_async_mbarrier_arrive() {
    let mut b = Bench::new(1);
    fill_global(&mut b, G, 32);
    init(&mut b, 0, MB, 1);
    let r = cp_async(&mut b, 0x100, G, 16, 16, false);
    b.ok(&r);
    let a = cp_arrive(&mut b, false);
    b.ok(&a);
    assert_eq!(unpack(b.shared_u64(0, MB)).pending, 2, "+1 at issue");
    // A cp.async issued after the arrive is not tracked by it.
    let late = cp_async(&mut b, 0x200, G + 16, 16, 16, false);
    b.ok(&late);
    // The thread's own arrive brings pending to 1; the +1 keeps the phase open.
    let mut own = b.req(Op::MbArrive, 0);
    own.lanes[0].addr = MB;
    own.lanes[0].a = 1;
    b.ok(&own);
    assert!(!unpack(b.shared_u64(0, MB)).parity, "outstanding cp.async.mbarrier.arrive holds the phase");
    b.tick(false);
    b.tick(false);
    let w = unpack(b.shared_u64(0, MB));
    assert!(w.parity, "the async arrive completed the phase");
    assert_eq!(w.pending, 1);
    assert_eq!(b.mem.read_shared(0, 0x100, 16).unwrap(), b.mem.read_global(G, 16).unwrap());
}

#[test]
fn c038_pending_overflow() {
    let mut b = Bench::new(1);
    init(&mut b, 0, MB, 1_048_575);
    let a = cp_arrive(&mut b, false);
    b.err(&a, ErrorCode::MbPendingOverflow);
}

#[test]
fn c039_noinc_consumes_an_expected_arrival() {
    let mut b = Bench::new(1);
    init(&mut b, 0, MB, 2);
    let a = cp_arrive(&mut b, true);
    b.ok(&a);
    assert_eq!(unpack(b.shared_u64(0, MB)).pending, 2);
    let mut own = b.req(Op::MbArrive, 0);
    own.lanes[0].addr = MB;
    own.lanes[0].a = 1;
    b.ok(&own);
    b.drain();
    assert!(unpack(b.shared_u64(0, MB)).parity);
}

fn bulk(b: &mut Bench, dir: BulkDir, dst: u64, src: u64, size: u128, mbar: u64) -> Request {
    let mut r = b.req(Op::CpBulk, 0);
    r.sub = dir.code();
    r.lanes[0] = smsync_sim::units::LaneOps { addr: dst, src, a: size, mbar, ..Default::default() };
    r
}

#[test]
fn c042_bulk_copy_completes_tx_with_arrive_expect_tx() {
    let mut b = Bench::new(1);
    fill_global(&mut b, G, 64);
    init(&mut b, 0, MB, 1);
    let mut a = b.req(Op::MbArrive, 0);
    a.flags = flags::EXPECT_TX;
    a.lanes[0].addr = MB;
    a.lanes[0].a = 1;
    a.lanes[0].b = 64;
    b.ok(&a);
    let c = bulk(&mut b, BulkDir::GlobalToShared, 0x400, G, 64, MB);
    b.ok(&c);
    // A try_wait suspends until the bytes land.
    let mut w = b.req(Op::MbTryWait, 0);
    w.lanes[0].addr = MB;
    w.flags = flags::PARITY;
    assert!(b.submit(&w).is_empty());
    b.tick(false);
    assert!(!unpack(b.shared_u64(0, MB)).parity);
    let (_, out) = b.tick(false);
    assert_eq!(answers(&out, w.tag)[0].preds, 1, "complete_tx from the copy woke the waiter");
    assert_eq!(b.mem.read_shared(0, 0x400, 16).unwrap(), b.mem.read_global(G, 16).unwrap());
    assert!(b.units.take_trace().contains(&TraceEvent::CopyDone { cta: 0, bytes: 64, mbar: Some(MB) }));
}

#[test]
fn c043_multicast_delivers_data_and_complete_tx_to_each_cta() {
    let cfg = Config { cluster_size: 4, cta_slots: 4, ..Config::default() };
    let mut b = Bench::with_config(cfg, 1);
    fill_global(&mut b, G, 32);
    for cta in [0, 2, 3] {
        init(&mut b, cta, MB, 1);
        let mut e = b.req(Op::MbExpectTx, 0);
        e.cta = cta;
        e.lanes[0].addr = MB;
        e.lanes[0].a = 32;
        b.ok(&e);
    }
    let mut c = bulk(&mut b, BulkDir::GlobalToShared, CLUSTER_BASE + 0x400, G, 32, CLUSTER_BASE + MB);
    c.space = Space::SharedCluster;
    c.flags = flags::MOD_B;
    c.lanes[0].b = 0b1101;
    b.ok(&c);
    b.drain();
    for cta in [0usize, 2, 3] {
        assert_eq!(b.mem.read_shared(cta, 0x400, 16).unwrap(), b.mem.read_global(G, 16).unwrap());
        assert_eq!(unpack(b.shared_u64(cta, MB)).tx, (-32 + 32), "tx back to 0 after expect 32 / complete 32");
    }
    assert_eq!(b.mem.read_shared(1, 0x400, 16).unwrap(), 0, "rank 1 not in ctaMask");
    // Each selected mbarrier went from pending 1/tx 32 to tx 0: the arrive completes the phase.
    let mut a = b.req(Op::MbArrive, 0);
    a.cta = 2;
    a.lanes[0].addr = MB;
    a.lanes[0].a = 1;
    b.ok(&a);
    assert!(unpack(b.shared_u64(2, MB)).parity);
}

#[test]
fn c043_shared_to_cluster_copy() {
    let cfg = Config { cluster_size: 2, cta_slots: 2, ..Config::default() };
    let mut b = Bench::with_config(cfg, 1);
    b.mem.write_shared(0, 0x100, 16, 0xABCD).unwrap();
    init(&mut b, 1, MB, 1);
    let mut c =
        bulk(&mut b, BulkDir::SharedToCluster, CLUSTER_BASE + WINDOW + 0x200, 0x100, 16, CLUSTER_BASE + WINDOW + MB);
    c.space = Space::SharedCluster;
    b.ok(&c);
    b.drain();
    assert_eq!(b.mem.read_shared(1, 0x200, 16).unwrap(), 0xABCD);
    assert_eq!(unpack(b.shared_u64(1, MB)).tx, -16);
}

#[test]
fn c105_bulk_size_and_alignment() {
    let mut b = Bench::new(1);
    init(&mut b, 0, MB, 1);
    for (dst, src, size) in [(0x400, G, 24u128), (0x408, G, 16), (0x400, G + 8, 16)] {
        let c = bulk(&mut b, BulkDir::GlobalToShared, dst, src, size, MB);
        b.err(&c, ErrorCode::BulkSizeAlign);
    }
    let mut r = b.req(Op::CpReduceBulk, 0);
    r.sub = AtomOp::Add.code();
    r.imm = BulkDir::SharedToGlobal.code() as u32;
    r.dtype = DataType::U32;
    r.lanes[0] = smsync_sim::units::LaneOps { addr: G, src: 0x100, a: 20, ..Default::default() };
    b.err(&r, ErrorCode::BulkSizeAlign);
    // The mbarrier must be live at issue.
    let c = bulk(&mut b, BulkDir::GlobalToShared, 0x400, G, 16, 0x10);
    b.err(&c, ErrorCode::MbNotInitialized);
}

#[test]
fn c106_cp_mask_writes_selected_bytes() {
    let mut b = Bench::new(1);
    b.mem.write_shared(0, 0x100, 16, 0x11111111_22222222_33333333_44444444).unwrap();
    b.mem.write_shared(0, 0x110, 16, 0x55555555_66666666_77777777_88888888).unwrap();
    b.mem.global.slice_mut(G, 32).unwrap().fill(0xEE);
    let mut c = bulk(&mut b, BulkDir::SharedToGlobal, G, 0x100, 32, 0);
    c.imm2 = 1;
    c.lanes[0].c = 0x8001; // bytes 0 and 15 of each chunk
    b.ok(&c);
    b.drain();
    assert_eq!(b.mem.read_global(G, 16).unwrap(), 0x11EEEEEE_EEEEEEEE_EEEEEEEE_EEEEEE44);
    assert_eq!(b.mem.read_global(G + 16, 16).unwrap(), 0x55EEEEEE_EEEEEEEE_EEEEEEEE_EEEEEE88);
}

fn reduce(b: &mut Bench, op: AtomOp, dtype: DataType, noftz: bool) -> Request {
    let mut r = b.req(Op::CpReduceBulk, 0);
    r.sub = op.code();
    r.imm = BulkDir::SharedToGlobal.code() as u32;
    r.dtype = dtype;
    if noftz {
        r.flags = flags::MOD_A;
    }
    r.lanes[0] = smsync_sim::units::LaneOps { addr: G, src: 0x100, a: 16, ..Default::default() };
    r
}

#[test]
fn c107_bulk_reduce_elementwise_with_inc_dec_and_f32_flush() {
    let mut b = Bench::new(1);
    // inc: dst = [5, 4, 0, 9], src = [5, 5, 1, 3] -> [0, 5, 1, 0]
    b.mem.write_global(G, 16, (5 | 4 << 32) | 9u128 << 96).unwrap();
    b.mem.write_shared(0, 0x100, 16, 5 | 5 << 32 | 1u128 << 64 | 3u128 << 96).unwrap();
    let r = reduce(&mut b, AtomOp::Inc, DataType::U32, false);
    b.ok(&r);
    b.drain();
    assert_eq!(b.mem.read_global(G, 16).unwrap(), 5u128 << 32 | 1u128 << 64);
    // f32 add flushes: 2^-149 + 2^-149 = 0; 1.0 + 1.0 = 2.0.
    b.mem.write_global(G, 16, 1 | 0x3F80_0000 << 32).unwrap();
    b.mem.write_shared(0, 0x100, 16, 1 | 0x3F80_0000 << 32).unwrap();
    let r = reduce(&mut b, AtomOp::Add, DataType::F32, false);
    b.ok(&r);
    b.drain();
    assert_eq!(b.mem.read_global(G, 8).unwrap(), 0x4000_0000 << 32);
    // f16 add needs .noftz and keeps subnormals.
    let r = reduce(&mut b, AtomOp::Add, DataType::F16, false);
    b.err(&r, ErrorCode::AtomBadType);
    b.mem.write_global(G, 16, 1).unwrap();
    b.mem.write_shared(0, 0x100, 16, 1).unwrap();
    let r = reduce(&mut b, AtomOp::Add, DataType::F16, true);
    b.ok(&r);
    b.drain();
    assert_eq!(b.mem.read_global(G, 16).unwrap(), 2);
}

#[test]
fn c107_bulk_reduce_type_table() {
    let mut b = Bench::new(1);
    for (op, dt, to_global, ok) in [
        (AtomOp::Add, DataType::F64, true, true),
        (AtomOp::Add, DataType::F64, false, false),
        (AtomOp::Min, DataType::S64, true, true),
        (AtomOp::Min, DataType::U64, false, false),
        (AtomOp::And, DataType::B64, true, true),
        (AtomOp::And, DataType::B64, false, false),
        (AtomOp::Inc, DataType::U64, true, false),
        (AtomOp::Max, DataType::F32, true, false),
    ] {
        let legal = smsync_sim::units::copy_engine::bulk_reduce_legal(op, dt, to_global, false);
        assert_eq!(legal, ok, "{op:?} {dt:?} global={to_global}");
    }
    let r = reduce(&mut b, AtomOp::Max, DataType::F32, false);
    b.err(&r, ErrorCode::AtomBadType);
}

#[test]
fn c109_bulk_groups_only_bulk_group_ops_and_independent_of_cp_async() {
    let mut b = Bench::new(1);
    fill_global(&mut b, G, 64);
    init(&mut b, 0, MB, 1);
    // An mbarrier-variant copy is not a bulk-group member.
    let c = bulk(&mut b, BulkDir::GlobalToShared, 0x400, G, 16, MB);
    b.ok(&c);
    let commit = simple(&mut b, Op::BulkCommit, 0, 0);
    b.ok(&commit);
    let w = simple(&mut b, Op::BulkWait, 0, 0);
    b.ok(&w);
    // A pending cp.async group does not hold a bulk wait, and vice versa.
    let r = cp_async(&mut b, 0x500, G, 16, 16, false);
    b.ok(&r);
    let commit = simple(&mut b, Op::CpAsyncCommit, 0, 0);
    b.ok(&commit);
    let w = simple(&mut b, Op::BulkWait, 0, 0);
    b.ok(&w);
    let st = bulk(&mut b, BulkDir::SharedToGlobal, G + 0x100, 0x600, 16, 0);
    b.ok(&st);
    let commit = simple(&mut b, Op::BulkCommit, 0, 0);
    b.ok(&commit);
    let wb = simple(&mut b, Op::BulkWait, 0, 0);
    assert!(b.submit(&wb).is_empty());
    let wa = simple(&mut b, Op::CpAsyncWait, 1, 0);
    b.ok(&wa);
}

#[test]
fn c110_read_wait_returns_before_full_wait() {
    let mut b = Bench::new(1);
    b.mem.write_shared(0, 0x600, 16, 0x1234).unwrap();
    let st = bulk(&mut b, BulkDir::SharedToGlobal, G, 0x600, 16, 0);
    b.ok(&st);
    let commit = simple(&mut b, Op::BulkCommit, 0, 0);
    b.ok(&commit);
    let mut wr = simple(&mut b, Op::BulkWait, 0, 0);
    wr.flags = flags::MOD_A;
    let wf = simple(&mut b, Op::BulkWait, 0, 0);
    assert!(b.submit(&wr).is_empty());
    assert!(b.submit(&wf).is_empty());
    let (_, out) = b.tick(false);
    assert_eq!(out.iter().map(|r| r.tag).collect::<Vec<_>>(), vec![wr.tag], "source read, not yet written");
    // The source may be reused now: the copy carries the value it read.
    b.mem.write_shared(0, 0x600, 16, 0x9999).unwrap();
    assert_eq!(b.mem.read_global(G, 16).unwrap(), 0);
    let (_, out) = b.tick(false);
    assert_eq!(out.iter().map(|r| r.tag).collect::<Vec<_>>(), vec![wf.tag]);
    assert_eq!(b.mem.read_global(G, 16).unwrap(), 0x1234);
}

/// Write a tensor map at `at`: 2-D u32 tensor of `w` x `h` at `base`, box `bw` x `bh`.
fn tensor_map(b: &mut Bench, at: u64, base: u64, w: u32, h: u32, bw: u32, bh: u32, fill_ones: bool, elem_type: u32) {
    let mut m = [0u8; 128];
    let put32 = |m: &mut [u8; 128], o: usize, v: u32| m[o..o + 4].copy_from_slice(&v.to_le_bytes());
    put32(&mut m, 0, 0x5041_4D54);
    put32(&mut m, 4, 2);
    put32(&mut m, 8, 4);
    put32(&mut m, 12, fill_ones as u32);
    m[16..24].copy_from_slice(&base.to_le_bytes());
    for (d, v) in [w, h, 1, 1, 1].into_iter().enumerate() {
        put32(&mut m, 24 + 4 * d, v);
    }
    for (d, v) in [bw, bh, 1, 1, 1].into_iter().enumerate() {
        put32(&mut m, 44 + 4 * d, v);
    }
    m[64..72].copy_from_slice(&(w as u64 * 4).to_le_bytes());
    put32(&mut m, 96, elem_type);
    b.mem.global.slice_mut(at, 128).unwrap().copy_from_slice(&m);
}

const TMAP: u64 = GLOBAL_BASE + 0x8000;
const TBASE: u64 = GLOBAL_BASE + 0x9000;

fn tensor_req(b: &mut Bench, dir: BulkDir, smem: u64, x: i32, y: i32) -> Request {
    let mut r = b.req(Op::CpBulkTensor, 0);
    r.sub = dir.code();
    r.imm = 2;
    r.lanes[0].addr = smem;
    r.lanes[0].src = TMAP;
    r.lanes[0].a = x as u32 as u128 | (y as u32 as u128) << 32;
    r.lanes[0].mbar = MB;
    r
}

#[test]
fn tensor_load_2d_with_oob_fill_and_full_box_tx() {
    let mut b = Bench::new(1);
    // 6 x 3 tensor, element (x, y) = 100*y + x.
    for y in 0..3u64 {
        for x in 0..6u64 {
            b.mem.write_global(TBASE + (y * 6 + x) * 4, 4, (100 * y + x) as u128).unwrap();
        }
    }
    tensor_map(&mut b, TMAP, TBASE, 6, 3, 4, 2, true, 0);
    init(&mut b, 0, MB, 1);
    // Box at (4, 2): x 4..8, y 2..4 -> only (4,2), (5,2) are inside.
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x400, 4, 2);
    b.ok(&r);
    b.drain();
    let got: Vec<u32> = (0..8).map(|i| b.mem.read_shared(0, 0x400 + 4 * i, 4).unwrap() as u32).collect();
    let f = u32::MAX;
    assert_eq!(got, vec![204, 205, f, f, f, f, f, f]);
    assert_eq!(unpack(b.shared_u64(0, MB)).tx, -32, "complete_tx counts the full 4x2x4-byte box");
    // Negative start: (-1, 0) reads (0,0),(1,0),(2,0) and (0,1)...
    tensor_map(&mut b, TMAP, TBASE, 6, 3, 4, 2, false, 0);
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x500, -1, 0);
    b.ok(&r);
    b.drain();
    let got: Vec<u32> = (0..8).map(|i| b.mem.read_shared(0, 0x500 + 4 * i, 4).unwrap() as u32).collect();
    assert_eq!(got, vec![0, 0, 1, 2, 0, 100, 101, 102]);
}

#[test]
fn c114_tensor_store_in_bounds_only_and_negative_coords_flagged() {
    let mut b = Bench::new(1);
    tensor_map(&mut b, TMAP, TBASE, 6, 3, 4, 2, false, 0);
    for i in 0..8u64 {
        b.mem.write_shared(0, 0x400 + 4 * i, 4, (i + 1) as u128).unwrap();
    }
    let r = tensor_req(&mut b, BulkDir::SharedToGlobal, 0x400, -1, 0);
    b.err(&r, ErrorCode::TensorNegativeStore);
    let r = tensor_req(&mut b, BulkDir::SharedToGlobal, 0x400, 4, 2);
    b.ok(&r);
    b.drain();
    assert_eq!(b.mem.read_global(TBASE + (2 * 6 + 4) * 4, 8).unwrap(), 1 | 2 << 32);
    // Nothing written past the tensor (row 3 would start at element 18).
    assert_eq!(b.mem.read_global(TBASE + 18 * 4, 16).unwrap(), 0);
    // Tensor reduce add with a typed (u32) map.
    tensor_map(&mut b, TMAP, TBASE, 6, 3, 4, 2, false, DataType::U32.code() as u32 + 1);
    let mut r = tensor_req(&mut b, BulkDir::SharedToGlobal, 0x400, 4, 2);
    r.imm2 = AtomOp::Add.code() as u32 + 1;
    b.ok(&r);
    b.drain();
    assert_eq!(b.mem.read_global(TBASE + (2 * 6 + 4) * 4, 8).unwrap(), 2 | 4 << 32);
}

#[test]
fn tensor_map_validation() {
    let mut b = Bench::new(1);
    init(&mut b, 0, MB, 1);
    tensor_map(&mut b, TMAP, TBASE, 6, 3, 2, 2, false, 0); // box_size[0]*4 = 8: not a multiple of 16
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x400, 0, 0);
    b.err(&r, ErrorCode::TensorMap);
    tensor_map(&mut b, TMAP, TBASE, 6, 3, 4, 2, false, 0);
    let mut r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x400, 0, 0);
    r.imm = 3; // map says 2-D
    b.err(&r, ErrorCode::TensorMap);
}

#[test]
fn tensor_map_swizzle_and_mode_fields_are_validated() {
    use smsync_sim::units::tensormap::offset;
    let mut b = Bench::new(1);
    init(&mut b, 0, MB, 1);
    let set = |b: &mut Bench, o: usize, v: u32| {
        b.mem.global.slice_mut(TMAP + o as u64, 4).unwrap().copy_from_slice(&v.to_le_bytes())
    };
    // box 8 x 2 of u32: a 32-byte inner dimension fits the 32B span (PTX ISA §5.5.7) ...
    tensor_map(&mut b, TMAP, TBASE, 16, 3, 8, 2, false, 0);
    set(&mut b, offset::SWIZZLE, 1);
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x400, 0, 0);
    b.ok(&r);
    b.drain();
    // ... a 64-byte one does not
    tensor_map(&mut b, TMAP, TBASE, 16, 3, 16, 2, false, 0);
    set(&mut b, offset::SWIZZLE, 1);
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x400, 0, 0);
    b.err(&r, ErrorCode::TensorMap);
    // swizzle codes above 3 (128B) and modes above 1 (im2col) are not maps
    tensor_map(&mut b, TMAP, TBASE, 16, 3, 4, 2, false, 0);
    set(&mut b, offset::SWIZZLE, 4);
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x400, 0, 0);
    b.err(&r, ErrorCode::TensorMap);
    tensor_map(&mut b, TMAP, TBASE, 16, 3, 4, 2, false, 0);
    set(&mut b, offset::MODE, 2);
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x400, 0, 0);
    b.err(&r, ErrorCode::TensorMap);
    // im2col needs a 3d..5d tensor (PTX ISA §5.5.4): a 2-D im2col map is malformed
    tensor_map(&mut b, TMAP, TBASE, 16, 3, 4, 2, false, 0);
    set(&mut b, offset::MODE, 1);
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x400, 0, 0);
    b.err(&r, ErrorCode::TensorMap);
}

#[test]
fn swizzled_chunks_are_checked_where_they_land() {
    use smsync_sim::units::tensormap::offset;
    let mut b = Bench::new(1);
    init(&mut b, 0, MB, 1);
    // a live mbarrier at 0x390: line 7, chunk 1
    init(&mut b, 0, 0x390, 1);
    // a 32-byte box (8 x 1 of u32) at 0x3e0, chunks 6 and 7 of line 7: unswizzled it stays there
    tensor_map(&mut b, TMAP, TBASE, 16, 3, 8, 1, false, 0);
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x3e0, 0, 0);
    b.ok(&r);
    b.drain();
    // under the 128B swizzle (PTX ISA §5.5.7) line 7 XORs chunk indices with 7: chunk 6 lands on
    // chunk 1, the mbarrier, which a copy must not overwrite
    let off = TMAP + offset::SWIZZLE as u64;
    b.mem.global.slice_mut(off, 4).unwrap().copy_from_slice(&3u32.to_le_bytes());
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x3e0, 0, 0);
    b.err(&r, ErrorCode::MbarrierPlainAccess);
    // one line lower (line 6, XOR 6) the chunks land on 0 and 1 of line 6: no mbarrier there
    b.mem.write_global(TBASE, 4, 0xABCD).unwrap();
    let r = tensor_req(&mut b, BulkDir::GlobalToShared, 0x360, 0, 0);
    b.ok(&r);
    b.drain();
    assert_eq!(b.mem.read_shared(0, 0x300, 4).unwrap(), 0xABCD, "element 0: chunk 6 of line 6 -> chunk 0");
}
