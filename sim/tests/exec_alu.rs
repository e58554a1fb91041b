//! ALU semantics of the executor, against independently computed values.

mod exec_support;
use exec_support::*;
use smsync_sim::exec::alu;
use smsync_sim::ptx::ir::*;

#[test]
fn integer_mul_hi_wide_mad() {
    // mul.hi.u32 0xffffffff * 0xffffffff = 0xfffffffe_00000001 -> hi 0xfffffffe
    assert_eq!(
        alu::int_arith(ArithOp::Mul, Ty::U32, Some(MulMode::Hi), false, 0xffff_ffff, 0xffff_ffff, 0).unwrap(),
        0xffff_fffe
    );
    // mul.hi.s32 -2 * 3 = -6 -> hi = 0xffffffff
    assert_eq!(
        alu::int_arith(ArithOp::Mul, Ty::S32, Some(MulMode::Hi), false, (-2i32) as u32 as u64, 3, 0).unwrap(),
        0xffff_ffff
    );
    // mul.wide.s32 -2 * 3 = -6 as 64 bits
    assert_eq!(
        alu::int_arith(ArithOp::Mul, Ty::S32, Some(MulMode::Wide), false, (-2i32) as u32 as u64, 3, 0).unwrap(),
        (-6i64) as u64
    );
    // mul.wide.u32 0x80000000 * 4 = 0x2_0000_0000
    assert_eq!(
        alu::int_arith(ArithOp::Mul, Ty::U32, Some(MulMode::Wide), false, 0x8000_0000, 4, 0).unwrap(),
        0x2_0000_0000
    );
    // mad.lo.u32 wraps
    assert_eq!(alu::int_arith(ArithOp::Mad, Ty::U32, Some(MulMode::Lo), false, 0x10000, 0x10000, 5).unwrap(), 5);
    // add.sat.s32 clamps
    assert_eq!(alu::int_arith(ArithOp::Add, Ty::S32, None, true, i32::MAX as u64, 1, 0).unwrap(), i32::MAX as u64);
    assert_eq!(
        alu::int_arith(ArithOp::Sub, Ty::S32, None, true, i32::MIN as u32 as u64, 1, 0).unwrap(),
        i32::MIN as u32 as u64
    );
}

#[test]
fn integer_division_by_zero_and_signed() {
    assert_eq!(alu::int_arith(ArithOp::Div, Ty::U32, None, false, 7, 0, 0).unwrap(), 0xffff_ffff);
    assert_eq!(alu::int_arith(ArithOp::Rem, Ty::U32, None, false, 7, 0, 0).unwrap(), 7);
    assert_eq!(
        alu::int_arith(ArithOp::Div, Ty::S32, None, false, (-7i32) as u32 as u64, 2, 0).unwrap(),
        (-3i32) as u32 as u64
    );
    assert_eq!(
        alu::int_arith(ArithOp::Rem, Ty::S32, None, false, (-7i32) as u32 as u64, 2, 0).unwrap(),
        (-1i32) as u32 as u64
    );
    // MIN / -1 wraps to MIN
    assert_eq!(alu::int_arith(ArithOp::Div, Ty::S32, None, false, 0x8000_0000, 0xffff_ffff, 0).unwrap(), 0x8000_0000);
}

#[test]
fn shifts_clamp_and_bit_ops() {
    assert_eq!(alu::logic(LogicOp::Shl, Ty::B32, 1, 40), 0);
    assert_eq!(alu::logic(LogicOp::Shr, Ty::U32, 0x8000_0000, 40), 0);
    assert_eq!(alu::logic(LogicOp::Shr, Ty::S32, 0x8000_0000, 40), 0xffff_ffff);
    assert_eq!(alu::logic(LogicOp::Shr, Ty::S32, 0x8000_0000, 4), 0xf800_0000);
    assert_eq!(alu::bit(BitOp::Popc, Ty::B32, 0xf0f0, 0, 0, 0).unwrap(), 8);
    assert_eq!(alu::bit(BitOp::Clz, Ty::B32, 1, 0, 0, 0).unwrap(), 31);
    assert_eq!(alu::bit(BitOp::Clz, Ty::B64, 1, 0, 0, 0).unwrap(), 63);
    assert_eq!(alu::bit(BitOp::Brev, Ty::B32, 1, 0, 0, 0).unwrap(), 0x8000_0000);
    assert_eq!(alu::bit(BitOp::Bfind, Ty::U32, 0x10, 0, 0, 0).unwrap(), 4);
    assert_eq!(alu::bit(BitOp::Bfind, Ty::U32, 0, 0, 0, 0).unwrap(), 0xffff_ffff);
    // bfe.u32 0xabcd, pos 4, len 8 -> 0xbc ; bfe.s32 of 0xf0, pos 4, len 4 -> sign-extended 0xf -> -1
    assert_eq!(alu::bit(BitOp::Bfe, Ty::U32, 0xabcd, 4, 8, 0).unwrap(), 0xbc);
    assert_eq!(alu::bit(BitOp::Bfe, Ty::S32, 0xf0, 4, 4, 0).unwrap(), 0xffff_ffff);
    // bfi: insert 0x5 (len 4) into 0xffff at pos 8 -> 0xf5ff
    assert_eq!(alu::bit(BitOp::Bfi, Ty::B32, 0x5, 0xffff, 8, 4).unwrap(), 0xf5ff);
    // prmt: select bytes 0x3210 of a = identity, 0x4567 of {b,a} picks b's bytes reversed
    assert_eq!(alu::bit(BitOp::Prmt, Ty::B32, 0x44332211, 0x88776655, 0x3210, 0).unwrap(), 0x44332211);
    assert_eq!(alu::bit(BitOp::Prmt, Ty::B32, 0x44332211, 0x88776655, 0x4567, 0).unwrap(), 0x55667788);
}

#[test]
fn float_rounding_modes_are_exact() {
    let f = |x: f32| x.to_bits() as u64;
    // 1 + 2^-30 in f32: RN gives 1.0, RP gives next_up(1.0)
    let tiny = f(2f32.powi(-30));
    assert_eq!(
        alu::float_arith(ArithOp::Add, Ty::F32, Some(Rounding::Rn), false, false, f(1.0), tiny, 0).unwrap(),
        f(1.0)
    );
    assert_eq!(
        alu::float_arith(ArithOp::Add, Ty::F32, Some(Rounding::Rp), false, false, f(1.0), tiny, 0).unwrap(),
        f(1.0) + 1
    );
    assert_eq!(
        alu::float_arith(ArithOp::Sub, Ty::F32, Some(Rounding::Rz), false, false, f(1.0), tiny, 0).unwrap(),
        f(1.0) - 1
    );
    assert_eq!(
        alu::float_arith(ArithOp::Sub, Ty::F32, Some(Rounding::Rm), false, false, f(1.0), tiny, 0).unwrap(),
        f(1.0) - 1
    );
    // 1/3 with rz is below rn's result (rn rounds 0.333..3 down too: check rp is one ulp above rz)
    let rz = alu::float_arith(ArithOp::Div, Ty::F32, Some(Rounding::Rz), false, false, f(1.0), f(3.0), 0).unwrap();
    let rp = alu::float_arith(ArithOp::Div, Ty::F32, Some(Rounding::Rp), false, false, f(1.0), f(3.0), 0).unwrap();
    assert_eq!(rp, rz + 1);
    assert!((f32::from_bits(rz as u32) as f64) < 1.0 / 3.0 && (f32::from_bits(rp as u32) as f64) > 1.0 / 3.0);
    // overflow with rz saturates to MAX
    assert_eq!(
        alu::float_arith(ArithOp::Mul, Ty::F32, Some(Rounding::Rz), false, false, f(f32::MAX), f(2.0), 0).unwrap(),
        f(f32::MAX)
    );
    // sat clamps, NaN -> 0
    assert_eq!(alu::float_arith(ArithOp::Add, Ty::F32, None, true, false, f(0.75), f(0.5), 0).unwrap(), f(1.0));
    assert_eq!(alu::float_arith(ArithOp::Add, Ty::F32, None, true, false, f(f32::NAN), f(0.5), 0).unwrap(), f(0.0));
}

#[test]
fn float_min_max_nan_and_signed_zero() {
    let f = |x: f32| x.to_bits() as u64;
    assert_eq!(alu::float_arith(ArithOp::Min, Ty::F32, None, false, false, f(f32::NAN), f(2.0), 0).unwrap(), f(2.0));
    assert!(f32::from_bits(
        alu::float_arith(ArithOp::Max, Ty::F32, None, false, false, f(f32::NAN), f(f32::NAN), 0).unwrap() as u32
    )
    .is_nan());
    assert_eq!(alu::float_arith(ArithOp::Min, Ty::F32, None, false, false, f(0.0), f(-0.0), 0).unwrap(), f(-0.0));
    assert_eq!(alu::float_arith(ArithOp::Max, Ty::F32, None, false, false, f(-0.0), f(0.0), 0).unwrap(), f(0.0));
}

#[test]
fn half_precision_and_conversions() {
    let h = |x: f32| half::f16::from_f32(x).to_bits() as u64;
    assert_eq!(alu::float_arith(ArithOp::Add, Ty::F16, None, false, false, h(1.5), h(2.25), 0).unwrap(), h(3.75));
    // f16x2: both halves independently
    let packed = h(1.0) | h(2.0) << 16;
    assert_eq!(
        alu::float_arith(ArithOp::Mul, Ty::F16x2, None, false, false, packed, packed, 0).unwrap(),
        h(1.0) | h(4.0) << 16
    );
    // cvt.rni.s32.f32 2.5 -> 2 (ties to even), cvt.rmi -2.5 -> -3, NaN -> 0, saturation
    let f = |x: f32| x.to_bits() as u64;
    assert_eq!(alu::cvt(Ty::S32, Ty::F32, Some(Rounding::Rni), false, false, f(2.5)).unwrap(), 2);
    assert_eq!(alu::cvt(Ty::S32, Ty::F32, Some(Rounding::Rmi), false, false, f(-2.5)).unwrap(), (-3i32) as u32 as u64);
    assert_eq!(alu::cvt(Ty::S32, Ty::F32, Some(Rounding::Rzi), false, false, f(f32::NAN)).unwrap(), 0);
    assert_eq!(alu::cvt(Ty::U8, Ty::F32, Some(Rounding::Rzi), false, false, f(300.0)).unwrap(), 255);
    assert_eq!(alu::cvt(Ty::U8, Ty::S32, None, true, false, (-5i32) as u32 as u64).unwrap(), 0);
    assert_eq!(alu::cvt(Ty::S64, Ty::S8, None, false, false, 0x80).unwrap(), (-128i64) as u64);
    // f32 -> f16 rounding: 1 + 2^-11 is a tie between 1 and 1+2^-10: rn -> 1.0, rp -> next
    let x = f(1.0 + 2f32.powi(-11));
    assert_eq!(alu::cvt(Ty::F16, Ty::F32, Some(Rounding::Rn), false, false, x).unwrap(), h(1.0));
    assert_eq!(alu::cvt(Ty::F16, Ty::F32, Some(Rounding::Rp), false, false, x).unwrap(), h(1.0) + 1);
    // bf16
    assert_eq!(alu::cvt(Ty::Bf16, Ty::F32, Some(Rounding::Rn), false, false, f(1.0)).unwrap(), 0x3f80);
    // u64 -> f32 directed: 2^24 + 1 is not representable
    let v = (1u64 << 24) + 1;
    assert_eq!(alu::cvt(Ty::F32, Ty::U64, Some(Rounding::Rp), false, false, v).unwrap(), f(16777218.0));
    assert_eq!(alu::cvt(Ty::F32, Ty::U64, Some(Rounding::Rz), false, false, v).unwrap(), f(16777216.0));
}

#[test]
fn compare_ordered_unordered() {
    let f = |x: f32| x.to_bits() as u64;
    assert!(!alu::compare(CmpOp::Lt, Ty::F32, false, f(f32::NAN), f(1.0)));
    assert!(alu::compare(CmpOp::Ltu, Ty::F32, false, f(f32::NAN), f(1.0)));
    assert!(alu::compare(CmpOp::Lt, Ty::S32, false, (-1i32) as u32 as u64, 0));
    assert!(!alu::compare(CmpOp::Lo, Ty::S32, false, (-1i32) as u32 as u64, 0));
}

/// A kernel computing per-thread integer and float values, checked against host arithmetic.
#[test]
fn kernel_alu_values_match_host() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("alu", true);
    let out = f.param("out", Ty::U64);
    let (tid, addr) = prologue_out(&mut f, out);
    let a = f.reg("%a", Ty::U32);
    let b = f.reg("%b", Ty::U32);
    let x = f.reg("%x", Ty::F32);
    let p = f.reg("%p", Ty::Pred);
    // a = tid * 2654435761 (mul.lo), a ^= a >> 13, b = popc(a) + clz(a)
    f.i(
        "mul.lo.u32 %a, %tid, -1640531535;",
        Opcode::Arith { op: ArithOp::Mul, ty: Ty::U32, mode: Some(MulMode::Lo), rnd: None, sat: false, ftz: false },
        vec![r(a), r(tid), imm(2654435761)],
    );
    f.i("shr.u32 %b, %a, 13;", Opcode::Logic { op: LogicOp::Shr, ty: Ty::U32 }, vec![r(b), r(a), imm(13)]);
    f.i("xor.b32 %a, %a, %b;", Opcode::Logic { op: LogicOp::Xor, ty: Ty::B32 }, vec![r(a), r(a), r(b)]);
    f.i("popc.b32 %b, %a;", Opcode::Bit { op: BitOp::Popc, ty: Ty::B32 }, vec![r(b), r(a)]);
    // x = (f32) tid * 0.5 ; if x > 10 then a = a + b else a = a - b  (selp)
    f.i(
        "cvt.rn.f32.u32 %x, %tid;",
        Opcode::Cvt { dst: Ty::F32, src: Ty::U32, rnd: Some(Rounding::Rn), sat: false, ftz: false },
        vec![r(x), r(tid)],
    );
    f.i("mul.f32 %x, %x, 0.5;", arith(ArithOp::Mul, Ty::F32), vec![r(x), r(x), imm(0.5f32.to_bits() as u64)]);
    f.i("setp.gt.f32 %p, %x, 10.0;", setp(CmpOp::Gt, Ty::F32), vec![r(p), r(x), imm(10.0f32.to_bits() as u64)]);
    let s = f.reg("%s", Ty::U32);
    let d = f.reg("%d", Ty::U32);
    f.i("add.u32 %s, %a, %b;", arith(ArithOp::Add, Ty::U32), vec![r(s), r(a), r(b)]);
    f.i("sub.u32 %d, %a, %b;", arith(ArithOp::Sub, Ty::U32), vec![r(d), r(a), r(b)]);
    f.i("selp.u32 %a, %s, %d, %p;", Opcode::Selp(Ty::U32), vec![r(a), r(s), r(d), r(p)]);
    f.i("st.global.u32 [%addr], %a;", st(StateSpace::Global, Ty::U32), vec![at(addr, 0), r(a)]);
    f.i("ret;", Opcode::Ret, vec![]);
    f.done();
    let m = mb.finish();
    let l = launch_yaml("block: [64, 1, 1]\nbuffers:\n  out: {type: u32, len: 64}\nparams: [out]\n");
    let res = run(&m, &l).expect("runs");
    let got = res.bits("out").unwrap();
    for t in 0..64u32 {
        let mut a = t.wrapping_mul(2654435761);
        a ^= a >> 13;
        let b = a.count_ones();
        let x = t as f32 * 0.5;
        let want = if x > 10.0 { a.wrapping_add(b) } else { a.wrapping_sub(b) };
        assert_eq!(got[t as usize], want as u64, "thread {t}");
    }
    assert_eq!(res.stats.thread_instructions, 64 * 16);
}

/// shf (funnel shift), lop3 and bfind.shiftamt, against values worked out by hand.
#[test]
fn funnel_shift_lop3_and_bfind_shiftamt() {
    let (a, b) = (0x89ab_cdefu64, 0x0123_4567u64); // b:a = 0x01234567_89abcdef
    assert_eq!(alu::bit(BitOp::ShfLWrap, Ty::B32, a, b, 8, 0).unwrap(), 0x2345_6789);
    assert_eq!(alu::bit(BitOp::ShfLWrap, Ty::B32, a, b, 40, 0).unwrap(), 0x2345_6789, "wrap: 40 mod 32 = 8");
    assert_eq!(
        alu::bit(BitOp::ShfLClamp, Ty::B32, a, b, 40, 0).unwrap(),
        a,
        "clamp: shift 32 moves a into the high word"
    );
    assert_eq!(alu::bit(BitOp::ShfLWrap, Ty::B32, a, b, 0, 0).unwrap(), b);
    assert_eq!(alu::bit(BitOp::ShfRWrap, Ty::B32, a, b, 8, 0).unwrap(), 0x6789_abcd);
    assert_eq!(alu::bit(BitOp::ShfRWrap, Ty::B32, a, b, 32, 0).unwrap(), a, "wrap: 32 mod 32 = 0");
    assert_eq!(alu::bit(BitOp::ShfRClamp, Ty::B32, a, b, 32, 0).unwrap(), b);
    assert_eq!(alu::bit(BitOp::ShfRClamp, Ty::B32, a, b, 99, 0).unwrap(), b);
    // rotate idiom: shf.l.wrap x, x, n == rotl(x, n)
    assert_eq!(alu::bit(BitOp::ShfLWrap, Ty::B32, 0x8000_0001, 0x8000_0001, 1, 0).unwrap(), 0x0000_0003);
    // lop3 LUTs: 0x96 = a^b^c, 0xE8 = majority, 0xF0 = a, 0x00 = 0
    let (x, y, z) = (0xff00_ff00u64, 0xf0f0_f0f0u64, 0xcccc_ccccu64);
    assert_eq!(alu::bit(BitOp::Lop3, Ty::B32, x, y, z, 0x96).unwrap(), x ^ y ^ z);
    assert_eq!(alu::bit(BitOp::Lop3, Ty::B32, x, y, z, 0xe8).unwrap(), (x & y) | (x & z) | (y & z));
    assert_eq!(alu::bit(BitOp::Lop3, Ty::B32, x, y, z, 0xf0).unwrap(), x);
    assert_eq!(alu::bit(BitOp::Lop3, Ty::B32, x, y, z, 0x00).unwrap(), 0);
    // bfind.shiftamt: 31 - position (63 - position for 64-bit), 0xffffffff when no bit
    assert_eq!(alu::bit(BitOp::BfindShiftamt, Ty::U32, 0x10, 0, 0, 0).unwrap(), 27);
    assert_eq!(alu::bit(BitOp::BfindShiftamt, Ty::U32, 0x8000_0000, 0, 0, 0).unwrap(), 0);
    assert_eq!(alu::bit(BitOp::BfindShiftamt, Ty::U32, 0, 0, 0, 0).unwrap(), 0xffff_ffff);
    assert_eq!(alu::bit(BitOp::BfindShiftamt, Ty::U64, 1, 0, 0, 0).unwrap(), 63);
    assert_eq!(
        alu::bit(BitOp::BfindShiftamt, Ty::S32, 0xffff_fff0, 0, 0, 0).unwrap(),
        28,
        "-16: highest non-sign bit is bit 3"
    );
    assert_eq!(alu::bit(BitOp::BfindShiftamt, Ty::S32, 0xffff_ffff, 0, 0, 0).unwrap(), 0xffff_ffff);
}
