//! Atomic ALU tests (PTX ISA §9.7.13.5, §9.7.13.6; checklist items 83-94). Float expectations are hand-computed
//! bit patterns.
mod units_common;

use smsync_sim::encoding::{flags, AtomOp, DataType, ErrorCode, Op, Space};
use smsync_sim::memory::GLOBAL_BASE;
use smsync_sim::units::Request;
use units_common::*;

const G: u64 = GLOBAL_BASE + 0x100;

fn atom(b: &mut Bench, op: AtomOp, dtype: DataType, space: Space, addr: u64, bv: u128, cv: u128) -> Request {
    let mut r = b.req(Op::Atom, 0);
    r.sub = op.code();
    r.dtype = dtype;
    r.space = space;
    r.lanes[0].addr = addr;
    r.lanes[0].b = bv;
    r.lanes[0].c = cv;
    if matches!(dtype, DataType::F16 | DataType::Bf16 | DataType::F16x2 | DataType::Bf16x2) {
        r.flags |= flags::MOD_A;
    }
    r
}

fn put(b: &mut Bench, space: Space, addr: u64, len: usize, v: u128) {
    match space {
        Space::Global => b.mem.write_global(addr, len, v).unwrap(),
        _ => b.mem.write_shared(0, addr, len, v).unwrap(),
    }
}

fn get(b: &Bench, space: Space, addr: u64, len: usize) -> u128 {
    match space {
        Space::Global => b.mem.read_global(addr, len).unwrap(),
        _ => b.mem.read_shared(0, addr, len).unwrap(),
    }
}

/// Run one scalar atom on a fresh memory word holding `old`; return (returned old, new memory).
fn one(op: AtomOp, dtype: DataType, space: Space, old: u128, bv: u128, cv: u128) -> (u128, u128) {
    let mut b = Bench::new(1);
    let addr = if space == Space::Global { G } else { 0x100 };
    let len = dtype.bytes() as usize;
    put(&mut b, space, addr, len, old);
    let r = atom(&mut b, op, dtype, space, addr, bv, cv);
    let resp = b.ok(&r);
    (resp.values[0], get(&b, space, addr, len))
}

#[test]
fn c083_atom_returns_old_and_stores_op() {
    assert_eq!(one(AtomOp::And, DataType::B32, Space::Global, 0b1100, 0b1010, 0), (0b1100, 0b1000));
    assert_eq!(one(AtomOp::Or, DataType::B64, Space::SharedCta, 1 << 40, 1, 0), (1 << 40, 1 << 40 | 1));
    assert_eq!(one(AtomOp::Xor, DataType::B32, Space::Global, 0xFF, 0x0F, 0), (0xFF, 0xF0));
}

#[test]
fn c083_same_address_lanes_serialize_in_lane_order() {
    let mut b = Bench::new(1);
    let mut r = atom(&mut b, AtomOp::Add, DataType::U32, Space::Global, G, 0, 0);
    r.active_mask = 0b1101;
    for l in [0, 2, 3] {
        r.lanes[l].addr = G;
        r.lanes[l].b = 10 + l as u128;
    }
    let resp = b.ok(&r);
    assert_eq!((resp.values[0], resp.values[2], resp.values[3]), (0, 10, 22));
    assert_eq!(get(&b, Space::Global, G, 4), 35);
}

#[test]
fn c084_inc_wraps() {
    assert_eq!(one(AtomOp::Inc, DataType::U32, Space::Global, 5, 5, 0), (5, 0));
    assert_eq!(one(AtomOp::Inc, DataType::U32, Space::Global, 4, 5, 0), (4, 5));
    assert_eq!(one(AtomOp::Inc, DataType::U32, Space::Global, 9, 5, 0), (9, 0));
}

#[test]
fn c085_dec_wraps() {
    assert_eq!(one(AtomOp::Dec, DataType::U32, Space::Global, 0, 7, 0).1, 7);
    assert_eq!(one(AtomOp::Dec, DataType::U32, Space::Global, 9, 7, 0).1, 7);
    assert_eq!(one(AtomOp::Dec, DataType::U32, Space::Global, 3, 7, 0).1, 2);
}

#[test]
fn c086_cas_all_widths() {
    for dt in [DataType::B16, DataType::B32, DataType::B64, DataType::B128] {
        let bits = dt.bytes() * 8;
        let old: u128 = if bits == 128 { 0xDEAD << 100 | 7 } else { (1u128 << (bits - 1)) | 7 };
        let newv: u128 = 0x55;
        assert_eq!(one(AtomOp::Cas, dt, Space::Global, old, old, newv), (old, newv), "{dt:?} match");
        assert_eq!(one(AtomOp::Cas, dt, Space::SharedCta, old, old ^ 1, newv), (old, old), "{dt:?} no match");
    }
}

#[test]
fn c087_exch() {
    for dt in [DataType::B32, DataType::B64, DataType::B128] {
        assert_eq!(one(AtomOp::Exch, dt, Space::Global, 3, 0x77, 0), (3, 0x77));
    }
}

#[test]
fn c088_min_max_signedness() {
    let m1_32 = 0xFFFF_FFFFu128;
    assert_eq!(one(AtomOp::Min, DataType::S32, Space::Global, 1, m1_32, 0).1, m1_32);
    assert_eq!(one(AtomOp::Min, DataType::U32, Space::Global, 1, m1_32, 0).1, 1);
    assert_eq!(one(AtomOp::Max, DataType::S64, Space::Global, 1, u64::MAX as u128, 0).1, 1);
    assert_eq!(one(AtomOp::Max, DataType::U64, Space::Global, 1, u64::MAX as u128, 0).1, u64::MAX as u128);
}

#[test]
fn c089_add_wraps() {
    assert_eq!(one(AtomOp::Add, DataType::U32, Space::Global, 0xFFFF_FFFF, 2, 0).1, 1);
    assert_eq!(one(AtomOp::Add, DataType::U64, Space::Global, u64::MAX as u128, 3, 0).1, 2);
}

#[test]
fn c090_f32_add_global_flushes_shared_does_not() {
    let f = |space, a, b| one(AtomOp::Add, DataType::F32, space, a, b, 0).1;
    // Subnormal inputs: 2^-149 + 2^-149.
    assert_eq!(f(Space::Global, 0x0000_0001, 0x0000_0001), 0);
    assert_eq!(f(Space::SharedCta, 0x0000_0001, 0x0000_0001), 0x0000_0002);
    // Subnormal result from normal inputs: (2^-126 + 2^-149) - 2^-126 = 2^-149; sign kept when flushed.
    assert_eq!(f(Space::Global, 0x0080_0001, 0x8080_0000), 0);
    assert_eq!(f(Space::Global, 0x8080_0001, 0x0080_0000), 0x8000_0000);
    assert_eq!(f(Space::SharedCta, 0x0080_0001, 0x8080_0000), 0x0000_0001);
    // Input flush: 2^-126 + (-2^-149) is 2^-126 on global, the subnormal 0x007FFFFF on shared.
    assert_eq!(f(Space::Global, 0x0080_0000, 0x8000_0001), 0x0080_0000);
    assert_eq!(f(Space::SharedCta, 0x0080_0000, 0x8000_0001), 0x007F_FFFF);
    // Round to nearest even: 1 + 2^-24 is a tie -> 1.0; 1 + 3*2^-24 is a tie -> 1 + 2^-22.
    assert_eq!(f(Space::Global, 0x3F80_0000, 0x3380_0000), 0x3F80_0000);
    assert_eq!(f(Space::Global, 0x3F80_0000, 0x3440_0000), 0x3F80_0002);
    // NaN -> canonical NaN.
    assert_eq!(f(Space::Global, 0x7FC0_0000, 0x3F80_0000), 0x7FFF_FFFF);
}

#[test]
fn c090_f64_add_round_even() {
    // 1 + 2^-53 is a tie -> 1.0; 1 + 3*2^-53 -> 1 + 2^-51.
    let one_f = 0x3FF0_0000_0000_0000u128;
    assert_eq!(one(AtomOp::Add, DataType::F64, Space::Global, one_f, 0x3CA0_0000_0000_0000, 0).1, one_f);
    assert_eq!(one(AtomOp::Add, DataType::F64, Space::Global, one_f, 0x3CB8_0000_0000_0000, 0).1, one_f + 2);
}

#[test]
fn c091_half_adds_keep_subnormals() {
    let f = |dt, a, b| one(AtomOp::Add, dt, Space::Global, a, b, 0).1;
    assert_eq!(f(DataType::F16, 0x0001, 0x0001), 0x0002);
    assert_eq!(f(DataType::Bf16, 0x0001, 0x0001), 0x0002);
    // f16: 1 + 2^-11 ties to 1.0; 1 + 2^-10 = 0x3C01.
    assert_eq!(f(DataType::F16, 0x3C00, 0x1000), 0x3C00);
    assert_eq!(f(DataType::F16, 0x3C00, 0x1400), 0x3C01);
    // bf16: 1 + 2^-8 ties to 1.0; 1 + 1.5*2^-7 ties up to 1 + 2^-6 = 0x3F82.
    assert_eq!(f(DataType::Bf16, 0x3F80, 0x3B80), 0x3F80);
    assert_eq!(f(DataType::Bf16, 0x3F80, 0x3C40), 0x3F82);
    // The form without .noftz is not an atom.
    let mut b = Bench::new(1);
    let mut r = atom(&mut b, AtomOp::Add, DataType::F16, Space::Global, G, 0, 0);
    r.flags = 0;
    b.err(&r, ErrorCode::AtomBadType);
}

#[test]
fn c092_packed_and_vector_elements_are_independent() {
    // f16x2: lo 1.0 + 1.0 = 2.0 (0x4000), hi 0x0001 + 0x0001 = 0x0002 (subnormal kept).
    assert_eq!(one(AtomOp::Add, DataType::F16x2, Space::Global, 0x0001_3C00, 0x0001_3C00, 0).1, 0x0002_4000);
    // v4.f32 add: four independent elements, old values packed little-endian.
    let mut b = Bench::new(1);
    let old: u128 = 0x3F80_0000 | 0x4000_0000 << 32 | 0x0000_0001u128 << 64 | 0x7FC0_0000u128 << 96;
    put(&mut b, Space::Global, G, 16, old);
    let addend: u128 = 0x3F80_0000 | 0x3F80_0000 << 32 | 0x0000_0001u128 << 64 | 0x3F80_0000u128 << 96;
    let mut r = atom(&mut b, AtomOp::Add, DataType::F32, Space::Global, G, addend, 0);
    r.vec = 4;
    assert_eq!(b.ok(&r).values[0], old);
    let expect: u128 = (0x4000_0000 | 0x4040_0000 << 32) | 0x7FFF_FFFFu128 << 96;
    assert_eq!(get(&b, Space::Global, G, 16), expect);
    // v2.f16 max (.noftz): NaN ignored, +0 above -0.
    let mut b = Bench::new(1);
    put(&mut b, Space::Global, G, 4, 0x8000 | 0x7E00 << 16);
    let mut r = atom(&mut b, AtomOp::Max, DataType::F16, Space::Global, G, 0xBC00 << 16, 0);
    r.vec = 2;
    b.ok(&r);
    assert_eq!(get(&b, Space::Global, G, 4), (0xBC00 << 16));
}

#[test]
fn c093_vector_table_and_global_only() {
    let mut b = Bench::new(1);
    for (op, dt, vec, okay) in [
        (AtomOp::Add, DataType::F32, 8, false),
        (AtomOp::Max, DataType::F32, 2, false),
        (AtomOp::Min, DataType::F16x2, 8, false),
        (AtomOp::Add, DataType::U32, 2, false),
        (AtomOp::Min, DataType::Bf16, 1, false),
        (AtomOp::Min, DataType::Bf16, 8, true),
    ] {
        let mut r = atom(&mut b, op, dt, Space::Global, G, 0, 0);
        r.vec = vec;
        if okay {
            b.ok(&r);
        } else {
            b.err(&r, ErrorCode::AtomBadType);
        }
    }
    let mut r = atom(&mut b, AtomOp::Add, DataType::F32, Space::SharedCta, 0x100, 0, 0);
    r.vec = 2;
    b.err(&r, ErrorCode::AtomBadType);
}

#[test]
fn c094_red_updates_without_return() {
    let mut b = Bench::new(1);
    put(&mut b, Space::Global, G, 4, 40);
    let mut r = atom(&mut b, AtomOp::Add, DataType::U32, Space::Global, G, 2, 0);
    r.op = Op::Red;
    assert_eq!(b.ok(&r).values[0], 0);
    assert_eq!(get(&b, Space::Global, G, 4), 42);
    r.sub = AtomOp::Cas.code();
    r.dtype = DataType::B32;
    b.err(&r, ErrorCode::AtomBadType);
}

#[test]
fn atom_type_alignment_and_mbarrier_checks() {
    let mut b = Bench::new(1);
    let r = atom(&mut b, AtomOp::Inc, DataType::U64, Space::Global, G, 1, 0);
    b.err(&r, ErrorCode::AtomBadType);
    let r = atom(&mut b, AtomOp::And, DataType::U32, Space::Global, G, 1, 0);
    b.err(&r, ErrorCode::AtomBadType);
    let r = atom(&mut b, AtomOp::Add, DataType::U64, Space::Global, G + 4, 1, 0);
    b.err(&r, ErrorCode::AtomAlign);
    let r = atom(&mut b, AtomOp::Cas, DataType::B128, Space::Global, G + 8, 1, 0);
    b.err(&r, ErrorCode::AtomAlign);
    // A shared atom on a live mbarrier.
    let mut init = b.req(Op::MbInit, 0);
    init.lanes[0].addr = 0x40;
    init.lanes[0].a = 1;
    b.ok(&init);
    let r = atom(&mut b, AtomOp::Add, DataType::U32, Space::SharedCta, 0x44, 1, 0);
    b.err(&r, ErrorCode::MbarrierPlainAccess);
    let r = atom(&mut b, AtomOp::Add, DataType::U32, Space::Global, GLOBAL_BASE + (1 << 16), 1, 0);
    b.err(&r, ErrorCode::GlobalOutOfRange);
}
