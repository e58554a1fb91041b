//! Floating-point element arithmetic of the atomic ALU and the bulk-reduce path, bit-exact.
//!
//! * f32 add: IEEE round-to-nearest-even (the host's f32 add); with `ftz` (global atom/red, bulk
//!   reduce) subnormal inputs and results are flushed to zero with their sign kept (PTX ISA §9.7.13.5).
//! * f64 add: round-to-nearest-even, no flush.
//! * f16 / bf16 add (.noftz): computed exactly in f64 (the sum of two f16 or two bf16 values
//!   rounded to 53 bits then to 11 / 8 bits is correctly rounded: 53 >= 2p+2) and rounded once to
//!   nearest-even by the `half` crate; subnormals are kept.
//! * A NaN result is the canonical NaN of the format (f32 0x7FFFFFFF, f64 0x7FFFFFFFFFFFFFFF,
//!   f16/bf16 0x7FFF), as NVIDIA arithmetic units produce; the RTL emits the same constants.
//! * f16 / bf16 min/max (vector atoms; PTX ISA §9.7.13.5 leaves NaN and zero handling open): the
//!   rules of the PTX `min`/`max` instructions: a NaN operand is ignored (the other one is the
//!   result), two NaNs give the canonical NaN, and -0.0 is below +0.0.

use half::{bf16, f16};

pub use smsync_contract::encoding::canonical_nan::{
    F32 as F32_CANONICAL_NAN, F64 as F64_CANONICAL_NAN, HALF as HALF_CANONICAL_NAN,
};

fn flush_f32(bits: u32) -> u32 {
    if bits & 0x7F80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

pub fn f32_add(a: u32, b: u32, ftz: bool) -> u32 {
    let (a, b) = if ftz { (flush_f32(a), flush_f32(b)) } else { (a, b) };
    let r = f32::from_bits(a) + f32::from_bits(b);
    if r.is_nan() {
        return F32_CANONICAL_NAN;
    }
    if ftz {
        flush_f32(r.to_bits())
    } else {
        r.to_bits()
    }
}

pub fn f64_add(a: u64, b: u64) -> u64 {
    let r = f64::from_bits(a) + f64::from_bits(b);
    if r.is_nan() {
        F64_CANONICAL_NAN
    } else {
        r.to_bits()
    }
}

/// The two 16-bit float formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    F16,
    Bf16,
}

impl Half {
    fn to_f64(self, x: u16) -> f64 {
        match self {
            Half::F16 => f16::from_bits(x).to_f64(),
            Half::Bf16 => bf16::from_bits(x).to_f64(),
        }
    }
    fn bits_of_f64(self, x: f64) -> u16 {
        match self {
            Half::F16 => f16::from_f64(x).to_bits(),
            Half::Bf16 => bf16::from_f64(x).to_bits(),
        }
    }
    fn is_nan(self, x: u16) -> bool {
        match self {
            Half::F16 => x & 0x7C00 == 0x7C00 && x & 0x03FF != 0,
            Half::Bf16 => x & 0x7F80 == 0x7F80 && x & 0x007F != 0,
        }
    }
}

pub fn half_add(kind: Half, a: u16, b: u16) -> u16 {
    let r = kind.to_f64(a) + kind.to_f64(b);
    if r.is_nan() {
        HALF_CANONICAL_NAN
    } else {
        kind.bits_of_f64(r)
    }
}

pub fn half_minmax(kind: Half, max: bool, a: u16, b: u16) -> u16 {
    match (kind.is_nan(a), kind.is_nan(b)) {
        (true, true) => return HALF_CANONICAL_NAN,
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    // Order-preserving key on non-NaN values that puts -0.0 below +0.0.
    let key = |x: u16| if x & 0x8000 != 0 { !x } else { x | 0x8000 };
    let a_first = if max { key(a) >= key(b) } else { key(a) <= key(b) };
    if a_first {
        a
    } else {
        b
    }
}
