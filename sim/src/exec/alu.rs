//! Scalar semantics of the ordinary (non-sync) instructions, one lane at a time, on raw register
//! bits. Values travel as `u64` holding the instruction type's bits in the low end; these
//! functions interpret them per the PTX type and return bits of the result type.
//!
//! Choices where PTX leaves freedom (documented in docs/ARCHITECTURE.md):
//! * integer division or remainder by zero: unsigned gives all ones (quotient) and the dividend
//!   (remainder); signed gives -1 (quotient) and the dividend (remainder). `MIN / -1` wraps.
//! * `.approx` / `.full` float ops return the correctly rounded result (a permitted refinement);
//!   ex2/lg2/sin/cos use the host's libm in f64 and round once.
//! * fma/mad on f64 with a directed rounding mode rounds to nearest (the exact residual of an
//!   f64 fma is not available without wide arithmetic); every other directed-rounding case is exact.

use crate::ptx::ir::{ArithOp, BitOp, CarryOp, CmpOp, LogicOp, MulMode, PackedFmt, Rounding, Ty};

#[inline]
pub fn width_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extend the low `bits` of `v`.
#[inline]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// Bits of `v` interpreted per `ty` and widened to 64 bits (sign-extended for signed types).
#[inline]
pub fn widen(v: u64, ty: Ty) -> u64 {
    let b = ty.bits().min(64);
    if ty.is_signed() {
        sext(v, b) as u64
    } else {
        v & width_mask(b)
    }
}

// ---- integer arithmetic -----------------------------------------------------------------------

/// Integer `Arith` ops. `Err` carries the reason an op/type pair is not an integer op.
pub fn int_arith(
    op: ArithOp,
    ty: Ty,
    mode: Option<MulMode>,
    sat: bool,
    a: u64,
    b: u64,
    c: u64,
) -> Result<u64, &'static str> {
    let bits = ty.bits().min(64);
    let m = width_mask(bits);
    let signed = ty.is_signed();
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let (ua, ub) = (a & m, b & m);
    let sat32 = |x: i128| -> u64 { x.clamp(i32::MIN as i128, i32::MAX as i128) as i64 as u64 };
    Ok(match op {
        ArithOp::Add if sat && signed => sat32(sa as i128 + sb as i128),
        ArithOp::Sub if sat && signed => sat32(sa as i128 - sb as i128),
        ArithOp::Add => ua.wrapping_add(ub),
        ArithOp::Sub => ua.wrapping_sub(ub),
        ArithOp::Mul | ArithOp::Mad => {
            // full 2*bits product, then pick lo / hi / wide
            let full: i128 = if signed { sa as i128 * sb as i128 } else { (ua as u128 * ub as u128) as i128 };
            let prod = match mode.unwrap_or(MulMode::Lo) {
                MulMode::Lo => full as u64 & m,
                MulMode::Hi => (full >> bits) as u64 & m,
                MulMode::Wide => {
                    if bits > 32 {
                        return Err("mul.wide/mad.wide exist only for 16- and 32-bit types");
                    }
                    full as u64 & width_mask(2 * bits)
                }
            };
            if op == ArithOp::Mul {
                prod
            } else {
                let wbits = if mode == Some(MulMode::Wide) { 2 * bits } else { bits };
                if sat && signed && mode == Some(MulMode::Hi) {
                    sat32(sext(prod, bits) as i128 + sext(c, bits) as i128)
                } else {
                    prod.wrapping_add(c) & width_mask(wbits)
                }
            }
        }
        ArithOp::Div => {
            if signed {
                if sb == 0 {
                    u64::MAX
                } else {
                    sa.wrapping_div(sb) as u64
                }
            } else {
                // PTX ISA integer `div`: division by zero is unspecified; all ones, as the signed case above.
                ua.checked_div(ub).unwrap_or(u64::MAX)
            }
        }
        ArithOp::Rem => {
            if signed {
                if sb == 0 {
                    sa as u64
                } else {
                    sa.wrapping_rem(sb) as u64
                }
            } else if ub == 0 {
                ua
            } else {
                ua % ub
            }
        }
        ArithOp::Neg => (sa.wrapping_neg()) as u64,
        ArithOp::Abs => sa.wrapping_abs() as u64,
        ArithOp::Min => {
            if signed {
                sa.min(sb) as u64
            } else {
                ua.min(ub)
            }
        }
        ArithOp::Max => {
            if signed {
                sa.max(sb) as u64
            } else {
                ua.max(ub)
            }
        }
        ArithOp::Sad => {
            // PTX ISA §9.7.1 (sad): d = c + |a - b|, the difference taken in the source type
            let diff = if signed { (sa as i128 - sb as i128).unsigned_abs() as u64 } else { ua.abs_diff(ub) };
            c.wrapping_add(diff)
        }
        _ => return Err("not an integer operation"),
    } & if mode == Some(MulMode::Wide) { width_mask(2 * bits) } else { m })
}

// ---- floating point ---------------------------------------------------------------------------

/// Float helpers shared by f32 and f64.
trait Fl: Copy + PartialOrd + std::ops::Neg<Output = Self> {
    const MAX: Self;
    fn up(self) -> Self;
    fn down(self) -> Self;
    fn zero() -> Self;
    fn is_inf(self) -> bool;
    fn sign_neg(self) -> bool;
}

macro_rules! impl_fl {
    ($t:ty, $u:ty) => {
        impl Fl for $t {
            const MAX: Self = <$t>::MAX;
            fn up(self) -> Self {
                if self.is_nan() || self == <$t>::INFINITY {
                    return self;
                }
                if self == 0.0 {
                    return <$t>::from_bits(1);
                }
                let b = self.to_bits();
                <$t>::from_bits(if self > 0.0 { b + 1 } else { b - 1 })
            }
            fn down(self) -> Self {
                -(-self).up()
            }
            fn zero() -> Self {
                0.0
            }
            fn is_inf(self) -> bool {
                self.is_infinite()
            }
            fn sign_neg(self) -> bool {
                self.is_sign_negative()
            }
        }
    };
}
impl_fl!(f32, u32);
impl_fl!(f64, u64);

/// Adjust the round-to-nearest result `r` to rounding mode `rnd`, given the sign of the exact
/// residual (exact - r): -1, 0 or +1. `finite_inputs` tells an RN overflow to infinity apart
/// from a true infinity.
fn directed<F: Fl>(r: F, residual: i32, rnd: Rounding, finite_inputs: bool) -> F {
    if r.is_inf() && finite_inputs {
        let neg = r.sign_neg();
        return match rnd {
            Rounding::Rz => {
                if neg {
                    -F::MAX
                } else {
                    F::MAX
                }
            }
            Rounding::Rm if !neg => F::MAX,
            Rounding::Rp if neg => -F::MAX,
            _ => r,
        };
    }
    if residual == 0 {
        return r;
    }
    match rnd {
        Rounding::Rz | Rounding::Rzi => {
            if (residual < 0) != r.sign_neg() && r != F::zero() {
                // the exact value is closer to zero than r
                if r.sign_neg() {
                    r.up()
                } else {
                    r.down()
                }
            } else {
                r
            }
        }
        Rounding::Rm | Rounding::Rmi => {
            if residual < 0 {
                r.down()
            } else {
                r
            }
        }
        Rounding::Rp | Rounding::Rpi => {
            if residual > 0 {
                r.up()
            } else {
                r
            }
        }
        _ => r,
    }
}

fn sgn<F: PartialOrd + Default>(x: F) -> i32 {
    let z = F::default();
    if x > z {
        1
    } else if x < z {
        -1
    } else {
        0
    }
}

macro_rules! float_ops {
    ($name:ident, $t:ty) => {
        /// One float op on `$t` with rounding `rnd` (None = .rn); residual-based exact
        /// directed rounding for add/sub/mul/div/sqrt.
        fn $name(op: ArithOp, rnd: Rounding, a: $t, b: $t, c: $t) -> Result<$t, &'static str> {
            let fin = a.is_finite() && b.is_finite();
            let two_sum = |x: $t, y: $t| -> ($t, $t) {
                let s = x + y;
                let bb = s - x;
                let err = (x - (s - bb)) + (y - bb);
                (s, err)
            };
            Ok(match op {
                ArithOp::Add | ArithOp::Sub => {
                    let y = if op == ArithOp::Sub { -b } else { b };
                    let (s, e) = two_sum(a, y);
                    let s =
                        if s == 0.0 && e == 0.0 && rnd == Rounding::Rm && (a != 0.0 || y != 0.0) { -0.0 } else { s };
                    directed(s, if s.is_finite() { sgn(e) } else { 0 }, rnd, fin)
                }
                ArithOp::Mul => {
                    let p = a * b;
                    let e = if p.is_finite() { a.mul_add(b, -p) } else { 0.0 };
                    directed(p, sgn(e), rnd, fin)
                }
                ArithOp::Div => {
                    let q = a / b;
                    let e = if q.is_finite() && q != 0.0 && b.is_finite() { (-q).mul_add(b, a) } else { 0.0 };
                    directed(q, sgn(e) * sgn(b), rnd, fin && b != 0.0)
                }
                ArithOp::Sqrt => {
                    let r = a.sqrt();
                    let e = if r.is_finite() && r > 0.0 { (-r).mul_add(r, a) } else { 0.0 };
                    directed(r, sgn(e), rnd, a.is_finite())
                }
                ArithOp::Fma | ArithOp::Mad => a.mul_add(b, c),
                ArithOp::Rcp => {
                    let q = 1.0 / a;
                    let e = if q.is_finite() && q != 0.0 && a.is_finite() { (-q).mul_add(a, 1.0) } else { 0.0 };
                    directed(q, sgn(e) * sgn(a), rnd, a != 0.0 && a.is_finite())
                }
                ArithOp::Rsqrt => (1.0 / (a as f64).sqrt()) as $t,
                ArithOp::Ex2 => (a as f64).exp2() as $t,
                ArithOp::Lg2 => (a as f64).log2() as $t,
                ArithOp::Sin => (a as f64).sin() as $t,
                ArithOp::Cos => (a as f64).cos() as $t,
                ArithOp::Neg => -a,
                ArithOp::Abs => a.abs(),
                ArithOp::Copysign => b.copysign(a),
                ArithOp::Min | ArithOp::Max => {
                    // PTX: a NaN operand is ignored; two NaNs give the canonical NaN;
                    // -0.0 is smaller than +0.0.
                    if a.is_nan() && b.is_nan() {
                        <$t>::NAN
                    } else if a.is_nan() {
                        b
                    } else if b.is_nan() {
                        a
                    } else if a == b {
                        let pick_neg = op == ArithOp::Min;
                        if a.is_sign_negative() == pick_neg {
                            a
                        } else {
                            b
                        }
                    } else if (a < b) == (op == ArithOp::Min) {
                        a
                    } else {
                        b
                    }
                }
                ArithOp::Rem => return Err("rem is an integer operation"),
                ArithOp::Sad => return Err("sad is an integer operation"),
            })
        }
    };
}
float_ops!(f32_op, f32);
float_ops!(f64_op, f64);

fn flush32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// f32 fma with exact directed rounding: a*b is exact in f64, the sum's residual comes from an
/// f64 two-sum, the final rounding to f32 uses the combined residual sign.
fn fma32(a: f32, b: f32, c: f32, rnd: Rounding) -> f32 {
    let p = a as f64 * b as f64;
    let s = p + c as f64;
    let bb = s - p;
    let e = (p - (s - bb)) + (c as f64 - bb);
    round_f64_to_f32(s, e, rnd)
}

/// Round the value `x + e` (e a tiny residual) to f32 with `rnd`.
fn round_f64_to_f32(x: f64, e: f64, rnd: Rounding) -> f32 {
    let r = x as f32;
    if !x.is_finite() {
        return r;
    }
    let diff = x - r as f64; // exact: both on the f64 grid, close together
    let residual = if diff != 0.0 { sgn(diff) } else { sgn(e) };
    let rn = match rnd {
        Rounding::Rn | Rounding::Rni => return r,
        other => other,
    };
    directed(r, residual, rn, true)
}

fn round_f64_to_half(x: f64, rnd: Rounding, bf: bool) -> u16 {
    let (bits, back) = if bf {
        let h = half::bf16::from_f64(x);
        (h.to_bits(), h.to_f64())
    } else {
        let h = half::f16::from_f64(x);
        (h.to_bits(), h.to_f64())
    };
    if x.is_nan() || back == x || matches!(rnd, Rounding::Rn | Rounding::Rni) {
        return bits;
    }
    let step = |b: u16, toward_up: bool| -> u16 {
        // next representable value up (toward +inf) or down in the 16-bit format
        let neg = b & 0x8000 != 0;
        let mag = b & 0x7fff;
        if mag == 0 {
            return if toward_up { 1 } else { 0x8001 };
        }
        if toward_up != neg {
            b + 1
        } else {
            b - 1
        }
    };
    let inf_bits: u16 = if bf { 0x7f80 } else { 0x7c00 };
    let too_big = back.is_infinite();
    let finite_max = inf_bits - 1;
    match rnd {
        Rounding::Rz | Rounding::Rzi => {
            if too_big {
                finite_max | (bits & 0x8000)
            } else if back.abs() > x.abs() {
                step(bits, back < 0.0)
            } else {
                bits
            }
        }
        Rounding::Rm | Rounding::Rmi => {
            if too_big && back > 0.0 {
                finite_max
            } else if back > x {
                step(bits, false)
            } else {
                bits
            }
        }
        Rounding::Rp | Rounding::Rpi => {
            if too_big && back < 0.0 {
                finite_max | 0x8000
            } else if back < x {
                step(bits, true)
            } else {
                bits
            }
        }
        _ => bits,
    }
}

fn half_to_f64(bits: u64, bf: bool) -> f64 {
    if bf {
        half::bf16::from_bits(bits as u16).to_f64()
    } else {
        half::f16::from_bits(bits as u16).to_f64()
    }
}

/// Float `Arith` ops on f16/bf16/f16x2/bf16x2/f32/f64 bits.
#[allow(clippy::too_many_arguments)]
pub fn float_arith(
    op: ArithOp,
    ty: Ty,
    rnd: Option<Rounding>,
    sat: bool,
    ftz: bool,
    a: u64,
    b: u64,
    c: u64,
) -> Result<u64, &'static str> {
    let rnd = rnd.unwrap_or(Rounding::Rn);
    let sat_f = |x: f64| -> f64 {
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, 1.0)
        }
    };
    match ty {
        Ty::F32 => {
            let f = |x: u64| {
                let v = f32::from_bits(x as u32);
                if ftz {
                    flush32(v)
                } else {
                    v
                }
            };
            let (fa, fb, fc) = (f(a), f(b), f(c));
            let mut r = if matches!(op, ArithOp::Fma | ArithOp::Mad) {
                fma32(fa, fb, fc, rnd)
            } else {
                f32_op(op, rnd, fa, fb, fc)?
            };
            if ftz {
                r = flush32(r);
            }
            if sat {
                r = sat_f(r as f64) as f32;
            }
            Ok(r.to_bits() as u64)
        }
        Ty::F64 => {
            let mut r = f64_op(op, rnd, f64::from_bits(a), f64::from_bits(b), f64::from_bits(c))?;
            if sat {
                r = sat_f(r);
            }
            Ok(r.to_bits())
        }
        Ty::F16 | Ty::Bf16 => half_op(op, rnd, sat, ty == Ty::Bf16, a, b, c),
        Ty::F16x2 | Ty::Bf16x2 => {
            let bf = ty == Ty::Bf16x2;
            let lo = half_op(op, rnd, sat, bf, a & 0xffff, b & 0xffff, c & 0xffff)?;
            let hi = half_op(op, rnd, sat, bf, (a >> 16) & 0xffff, (b >> 16) & 0xffff, (c >> 16) & 0xffff)?;
            Ok(lo | hi << 16)
        }
        _ => Err("not a float type"),
    }
}

fn half_op(op: ArithOp, rnd: Rounding, sat: bool, bf: bool, a: u64, b: u64, c: u64) -> Result<u64, &'static str> {
    let (x, y, z) = (half_to_f64(a, bf), half_to_f64(b, bf), half_to_f64(c, bf));
    // Sums and products of half values are exact in f64 (fma almost always), so one rounding
    // to the 16-bit format gives the correctly rounded result.
    let r = match op {
        ArithOp::Add => x + y,
        ArithOp::Sub => x - y,
        ArithOp::Mul => x * y,
        ArithOp::Fma | ArithOp::Mad => x.mul_add(y, z),
        ArithOp::Neg => return Ok(a ^ 0x8000),
        ArithOp::Abs => return Ok(a & 0x7fff),
        ArithOp::Min | ArithOp::Max | ArithOp::Copysign => f64_op(op, Rounding::Rn, x, y, z)?,
        _ => return Err("operation not defined on f16/bf16"),
    };
    let r = if sat {
        if r.is_nan() {
            0.0
        } else {
            r.clamp(0.0, 1.0)
        }
    } else {
        r
    };
    Ok(round_f64_to_half(r, rnd, bf) as u64)
}

// ---- logic and bit manipulation ---------------------------------------------------------------

pub fn logic(op: LogicOp, ty: Ty, a: u64, b: u64) -> u64 {
    let bits = ty.bits().min(64);
    let m = width_mask(bits);
    if ty == Ty::Pred {
        let (a, b) = (a & 1, b & 1);
        return match op {
            LogicOp::And => a & b,
            LogicOp::Or => a | b,
            LogicOp::Xor => a ^ b,
            LogicOp::Not | LogicOp::Cnot => a ^ 1,
            LogicOp::Shl | LogicOp::Shr => 0,
        };
    }
    match op {
        LogicOp::And => a & b & m,
        LogicOp::Or => (a | b) & m,
        LogicOp::Xor => (a ^ b) & m,
        LogicOp::Not => !a & m,
        LogicOp::Cnot => (a & m == 0) as u64,
        // shift amounts are unsigned 32-bit and clamp at the width
        LogicOp::Shl => {
            let s = b as u32;
            if s >= bits {
                0
            } else {
                (a << s) & m
            }
        }
        LogicOp::Shr => {
            let s = (b as u32).min(bits - 1 + (!ty.is_signed()) as u32);
            if ty.is_signed() {
                (sext(a, bits) >> s.min(63)) as u64 & m
            } else if s >= bits {
                0
            } else {
                (a & m) >> s
            }
        }
    }
}

pub fn bit(op: BitOp, ty: Ty, a: u64, b: u64, c: u64, d: u64) -> Result<u64, &'static str> {
    let bits = ty.bits().min(64);
    let m = width_mask(bits);
    let a_m = a & m;
    Ok(match op {
        BitOp::Popc => a_m.count_ones() as u64,
        BitOp::Clz => (a_m.leading_zeros() - (64 - bits)) as u64,
        BitOp::Brev => a_m.reverse_bits() >> (64 - bits),
        BitOp::Bfind => {
            // position of the most significant non-sign bit; 0xffffffff when none
            let v = if ty.is_signed() && sext(a, bits) < 0 { !a & m } else { a_m };
            if v == 0 {
                0xffff_ffff
            } else {
                (63 - v.leading_zeros()) as u64
            }
        }
        BitOp::Bfe => {
            let pos = (b & 0xff) as u32;
            let len = (c & 0xff) as u32;
            let sbit = if ty.is_signed() {
                if len == 0 {
                    false
                } else {
                    let i = (pos + len - 1).min(bits - 1);
                    (a >> i) & 1 == 1
                }
            } else {
                false
            };
            let mut r = 0u64;
            for i in 0..bits {
                let bitv = if i < len && pos + i < bits { (a >> (pos + i)) & 1 == 1 } else { sbit };
                r |= (bitv as u64) << i;
            }
            r
        }
        BitOp::Bfi => {
            // f = bfi(a, b, pos=c, len=d): insert a's low len bits into b at pos
            let pos = (c & 0xff) as u32;
            let len = (d & 0xff) as u32;
            let mut r = b & m;
            for i in 0..len {
                if pos + i >= bits {
                    break;
                }
                r = (r & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
            }
            r
        }
        BitOp::Prmt => {
            // default mode: each selector nibble picks a byte of {b, a} (8 bytes), bit 3 = sign replicate
            let src = ((b as u32 as u64) << 32) | (a as u32 as u64);
            let mut r = 0u64;
            for i in 0..4 {
                let sel = (c >> (4 * i)) & 0xf;
                let byte = (src >> (8 * (sel & 7))) & 0xff;
                let byte = if sel & 8 != 0 {
                    if byte & 0x80 != 0 {
                        0xff
                    } else {
                        0
                    }
                } else {
                    byte
                };
                r |= byte << (8 * i);
            }
            r
        }
        BitOp::BfindShiftamt => {
            // the left shift that brings the found bit to the MSB: (bits - 1) - position
            let v = if ty.is_signed() && sext(a, bits) < 0 { !a & m } else { a_m };
            if v == 0 {
                0xffff_ffff
            } else {
                (bits - 1 - (63 - v.leading_zeros())) as u64
            }
        }
        BitOp::ShfLWrap | BitOp::ShfLClamp | BitOp::ShfRWrap | BitOp::ShfRClamp => {
            // funnel shift of the 64-bit value b:a; wrap takes c mod 32, clamp takes min(c, 32)
            let n = if matches!(op, BitOp::ShfLClamp | BitOp::ShfRClamp) { (c as u32).min(32) } else { c as u32 & 31 };
            let v = ((b as u32 as u64) << 32) | a as u32 as u64;
            if matches!(op, BitOp::ShfLWrap | BitOp::ShfLClamp) {
                ((v << n) >> 32) & 0xffff_ffff
            } else {
                (v >> n) & 0xffff_ffff
            }
        }
        BitOp::Lop3 => {
            // bit i of the result is LUT[(a_i << 2) | (b_i << 1) | c_i] (ta = 0xF0, tb = 0xCC, tc = 0xAA)
            let lut = d & 0xff;
            let mut r = 0u64;
            for i in 0..32 {
                let idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
                r |= ((lut >> idx) & 1) << i;
            }
            r
        }
        BitOp::BmskClamp | BitOp::BmskWrap => {
            // PTX ISA §9.7.1 (bmsk): mask0 = ~0 << a1, mask1 = ~0 << (a1 + b1), d = mask0 & ~mask1;
            // .clamp: a >= 32 gives 0 and b >= 32 runs the mask to bit 31; .wrap takes both mod 32
            let (a, b) = (a as u32, b as u32);
            let (a1, b1) = (a & 0x1f, b & 0x1f);
            let clamp = op == BitOp::BmskClamp;
            let mask0 = if clamp && a >= 32 { 0 } else { u32::MAX << a1 };
            let mask1 = if a1 + b1 >= 32 || (clamp && b >= 32) {
                0
            } else if b1 == 0 {
                u32::MAX
            } else {
                u32::MAX << (a1 + b1)
            };
            (mask0 & !mask1) as u64
        }
        BitOp::Fns => return Err("fns is not supported by this executor"),
    })
}

// ---- comparisons -----------------------------------------------------------------------------

pub fn compare(cmp: CmpOp, ty: Ty, ftz: bool, a: u64, b: u64) -> bool {
    if ty.is_float() {
        let (x, y) = match ty {
            Ty::F32 => {
                let f = |v: u64| {
                    let v = f32::from_bits(v as u32);
                    (if ftz { flush32(v) } else { v }) as f64
                };
                (f(a), f(b))
            }
            Ty::F64 => (f64::from_bits(a), f64::from_bits(b)),
            Ty::Bf16 | Ty::Bf16x2 => (half_to_f64(a, true), half_to_f64(b, true)),
            _ => (half_to_f64(a, false), half_to_f64(b, false)),
        };
        let unordered = x.is_nan() || y.is_nan();
        return match cmp {
            CmpOp::Eq => !unordered && x == y,
            CmpOp::Ne => !unordered && x != y,
            CmpOp::Lt | CmpOp::Lo => !unordered && x < y,
            CmpOp::Le | CmpOp::Ls => !unordered && x <= y,
            CmpOp::Gt | CmpOp::Hi => !unordered && x > y,
            CmpOp::Ge | CmpOp::Hs => !unordered && x >= y,
            CmpOp::Equ => unordered || x == y,
            CmpOp::Neu => unordered || x != y,
            CmpOp::Ltu => unordered || x < y,
            CmpOp::Leu => unordered || x <= y,
            CmpOp::Gtu => unordered || x > y,
            CmpOp::Geu => unordered || x >= y,
            CmpOp::Num => !unordered,
            CmpOp::Nan => unordered,
        };
    }
    let bits = ty.bits().min(64);
    if ty == Ty::Pred {
        let (a, b) = (a & 1, b & 1);
        return match cmp {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            _ => false,
        };
    }
    let (ua, ub) = (a & width_mask(bits), b & width_mask(bits));
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let signed = ty.is_signed();
    match cmp {
        CmpOp::Eq | CmpOp::Equ => ua == ub,
        CmpOp::Ne | CmpOp::Neu => ua != ub,
        CmpOp::Lt | CmpOp::Ltu => {
            if signed {
                sa < sb
            } else {
                ua < ub
            }
        }
        CmpOp::Le | CmpOp::Leu => {
            if signed {
                sa <= sb
            } else {
                ua <= ub
            }
        }
        CmpOp::Gt | CmpOp::Gtu => {
            if signed {
                sa > sb
            } else {
                ua > ub
            }
        }
        CmpOp::Ge | CmpOp::Geu => {
            if signed {
                sa >= sb
            } else {
                ua >= ub
            }
        }
        CmpOp::Lo => ua < ub,
        CmpOp::Ls => ua <= ub,
        CmpOp::Hi => ua > ub,
        CmpOp::Hs => ua >= ub,
        CmpOp::Num => true,
        CmpOp::Nan => false,
    }
}

// ---- conversions ------------------------------------------------------------------------------

fn to_f64(ty: Ty, v: u64) -> f64 {
    match ty {
        Ty::F32 => f32::from_bits(v as u32) as f64,
        Ty::F64 => f64::from_bits(v),
        Ty::F16 => half_to_f64(v, false),
        Ty::Bf16 => half_to_f64(v, true),
        _ => 0.0,
    }
}

fn int_range(ty: Ty) -> (i128, i128) {
    let bits = ty.bits().min(64);
    if ty.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// `cvt.rnd.sat.dst.src d, a`.
pub fn cvt(dst: Ty, src: Ty, rnd: Option<Rounding>, sat: bool, ftz: bool, a: u64) -> Result<u64, &'static str> {
    let dbits = dst.bits().min(64);
    let dm = width_mask(dbits);
    match (src.is_float(), dst.is_float()) {
        (false, false) => {
            let v = widen(a, src) as i64 as i128;
            let v = if src.is_signed() { v } else { (a & width_mask(src.bits().min(64))) as i128 };
            if sat {
                let (lo, hi) = int_range(dst);
                Ok(v.clamp(lo, hi) as u64 & dm)
            } else {
                Ok(v as u64 & dm)
            }
        }
        (true, false) => {
            // float -> int: NaN gives 0; out-of-range values saturate (PTX float-to-int always saturates)
            let mut x = to_f64(src, a);
            if ftz && src == Ty::F32 && (x as f32).is_subnormal() {
                x = 0.0;
            }
            if x.is_nan() {
                return Ok(0);
            }
            let r = match rnd.unwrap_or(Rounding::Rzi) {
                Rounding::Rni | Rounding::Rn => x.round_ties_even(),
                Rounding::Rmi | Rounding::Rm => x.floor(),
                Rounding::Rpi | Rounding::Rp => x.ceil(),
                _ => x.trunc(),
            };
            let (lo, hi) = int_range(dst);
            let v = if r <= lo as f64 {
                lo
            } else if r >= hi as f64 {
                hi
            } else {
                r as i128
            };
            Ok(v as u64 & dm)
        }
        (false, true) => {
            let v: i128 = if src.is_signed() {
                widen(a, src) as i64 as i128
            } else {
                (a & width_mask(src.bits().min(64))) as i128
            };
            let rnd = rnd.unwrap_or(Rounding::Rn);
            let r = match dst {
                Ty::F64 => {
                    let r = v as f64;
                    let e = v - r as i128; // exact in i128 for |v| < 2^64
                    directed(r, e.signum() as i32, rnd, true).to_bits()
                }
                Ty::F32 => {
                    let r = v as f32;
                    let e = v - r as i128;
                    directed(r, e.signum() as i32, rnd, true).to_bits() as u64
                }
                Ty::F16 | Ty::Bf16 => round_f64_to_half(v as f64, rnd, dst == Ty::Bf16) as u64,
                _ => return Err("unsupported cvt destination"),
            };
            Ok(if sat { float_sat(dst, r) } else { r })
        }
        (true, true) => {
            let mut x = to_f64(src, a);
            if ftz && src == Ty::F32 && (x as f32).is_subnormal() {
                x = 0.0f64.copysign(x);
            }
            // integer rounding within float (cvt.rni.f32.f32 and friends)
            if let Some(r @ (Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi)) = rnd {
                x = match r {
                    Rounding::Rni => x.round_ties_even(),
                    Rounding::Rzi => x.trunc(),
                    Rounding::Rmi => x.floor(),
                    _ => x.ceil(),
                };
            }
            let rnd = rnd.unwrap_or(Rounding::Rn);
            let r = match dst {
                Ty::F64 => x.to_bits(),
                Ty::F32 => {
                    let mut r = round_f64_to_f32(x, 0.0, rnd);
                    if ftz {
                        r = flush32(r);
                    }
                    r.to_bits() as u64
                }
                Ty::F16 | Ty::Bf16 => round_f64_to_half(x, rnd, dst == Ty::Bf16) as u64,
                _ => return Err("unsupported cvt destination"),
            };
            Ok(if sat { float_sat(dst, r) } else { r })
        }
    }
}

fn float_sat(ty: Ty, bits: u64) -> u64 {
    let x = to_f64(ty, bits);
    let c = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    if c == x && !x.is_nan() {
        return bits;
    }
    match ty {
        Ty::F64 => c.to_bits(),
        Ty::F32 => (c as f32).to_bits() as u64,
        Ty::F16 => half::f16::from_f64(c).to_bits() as u64,
        _ => half::bf16::from_f64(c).to_bits() as u64,
    }
}

// ---- carry chains ----------------------------------------------------------------------------

/// One step of the extended-precision instructions of PTX ISA §9.7.2 on `ty` (32 or 64 bits):
/// returns (d, CC.CF out). `cf` is CC.CF in (0 when the instruction does not read it).
/// `sub`'s flag is the borrow: subc computes a - (b + CC.CF).
pub fn carry(op: CarryOp, ty: Ty, cf: bool, a: u64, b: u64, c: u64) -> (u64, bool) {
    let bits = ty.bits().min(64);
    let m = width_mask(bits);
    let (ua, ub, uc) = ((a & m) as u128, (b & m) as u128, (c & m) as u128);
    let cf = cf as u128;
    let (wide, borrow) = match op {
        CarryOp::Add => (ua + ub + cf, None),
        CarryOp::Sub => (ua.wrapping_sub(ub + cf), Some(ua < ub + cf)),
        CarryOp::MadLo | CarryOp::MadHi => {
            let prod: u128 =
                if ty.is_signed() { (sext(a, bits) as i128 * sext(b, bits) as i128) as u128 } else { ua * ub };
            let part = if op == CarryOp::MadLo { prod } else { prod >> bits } & m as u128;
            (part + uc + cf, None)
        }
    };
    let out = borrow.unwrap_or(wide >> bits != 0);
    (wide as u64 & m, out)
}

// ---- packed conversions --------------------------------------------------------------------

/// Layout of an 8-bit float: (exponent bits, mantissa bits, has infinity).
fn fp8_format(f: PackedFmt) -> (i32, i32, bool) {
    match f {
        PackedFmt::E4m3x2 => (4, 3, false),
        _ => (5, 2, true),
    }
}

/// The value of an fp8 code (PTX ISA §5.2.5.1: e4m3 has no infinity and one NaN mantissa;
/// e5m2 follows IEEE 754 conventions).
pub fn fp8_to_f64(code: u8, f: PackedFmt) -> f64 {
    let (e, mb, has_inf) = fp8_format(f);
    let sign = if code & 0x80 != 0 { -1.0 } else { 1.0 };
    let exp = ((code >> mb) & ((1 << e) - 1) as u8) as i32;
    let man = (code & ((1 << mb) - 1) as u8) as i32;
    let bias = (1 << (e - 1)) - 1;
    let emax = (1 << e) - 1;
    if has_inf && exp == emax {
        return if man == 0 { sign * f64::INFINITY } else { f64::NAN };
    }
    if !has_inf && exp == emax && man == (1 << mb) - 1 {
        return f64::NAN;
    }
    if exp == 0 {
        sign * man as f64 * 2f64.powi(1 - bias - mb)
    } else {
        sign * (1.0 + man as f64 / (1 << mb) as f64) * 2f64.powi(exp - bias)
    }
}

/// f64 -> fp8 with round-to-nearest-even and `.satfinite` (out-of-range and infinite values
/// become the largest finite value of their sign; NaN becomes the canonical NaN 0x7f).
pub fn f64_to_fp8_satfinite(x: f64, f: PackedFmt) -> u8 {
    let (e, mb, has_inf) = fp8_format(f);
    if x.is_nan() {
        return 0x7f;
    }
    let sign: u8 = if x.is_sign_negative() { 0x80 } else { 0 };
    let bias = (1 << (e - 1)) - 1;
    // largest finite code: e5m2 0x7b (57344), e4m3 0x7e (448)
    let max_code: u8 = if has_inf { 0x7b } else { 0x7e };
    let a = x.abs();
    let max = fp8_to_f64(max_code, f);
    if a >= max {
        return sign | max_code;
    }
    // quantum of a's binade (the subnormal quantum below the smallest normal)
    let ex = if a == 0.0 { 1 - bias } else { (a.log2().floor() as i32).max(1 - bias) };
    let q = 2f64.powi(ex - mb);
    let r = (a / q).round_ties_even() * q; // exact: a is an f32 or f16 value, q a power of two
    if r >= max {
        return sign | max_code;
    }
    let min_normal = 2f64.powi(1 - bias);
    let code = if r < min_normal {
        (r / 2f64.powi(1 - bias - mb)) as u8
    } else {
        let re = r.log2().floor() as i32;
        let man = (r / 2f64.powi(re - mb)) as i32 - (1 << mb);
        (((re + bias) << mb) | man) as u8
    };
    sign | code
}

/// `cvt` to a packed format (see [`crate::ptx::ir::Opcode::CvtPacked`]): `a`/`b` are the two f32
/// sources (a to the upper half), or `a` alone the packed source.
pub fn cvt_packed(dst: PackedFmt, src: Option<PackedFmt>, rnd: Rounding, relu: bool, sat: bool, a: u64, b: u64) -> u64 {
    // .relu: negative results become +0, NaN stays (canonical) NaN
    let relu_f = |x: f64| if relu && x < 0.0 { 0.0 } else { x };
    let elems: [f64; 2] = match src {
        None => [f32::from_bits(b as u32) as f64, f32::from_bits(a as u32) as f64],
        Some(PackedFmt::F16x2) => [half_to_f64(a & 0xffff, false), half_to_f64((a >> 16) & 0xffff, false)],
        Some(PackedFmt::Bf16x2) => [half_to_f64(a & 0xffff, true), half_to_f64((a >> 16) & 0xffff, true)],
        Some(f) => [fp8_to_f64(a as u8, f), fp8_to_f64((a >> 8) as u8, f)],
    };
    let mut out = 0u64;
    for (i, x) in elems.into_iter().enumerate() {
        let x = relu_f(x);
        let bits = match dst {
            PackedFmt::F16x2 | PackedFmt::Bf16x2 => {
                let bf = dst == PackedFmt::Bf16x2;
                if x.is_nan() {
                    // the canonical NaN of both 16-bit formats (PTX ISA §9.7.9, cvt)
                    0x7fff
                } else {
                    let h = round_f64_to_half(x, rnd, bf);
                    let inf = if bf { 0x7f80 } else { 0x7c00 };
                    if sat && h & 0x7fff == inf {
                        ((h & 0x8000) | (inf - 1)) as u64
                    } else {
                        h as u64
                    }
                }
            }
            f => f64_to_fp8_satfinite(x, f) as u64,
        };
        let w = if matches!(dst, PackedFmt::E4m3x2 | PackedFmt::E5m2x2) { 8 } else { 16 };
        out |= bits << (w * i);
    }
    out
}
