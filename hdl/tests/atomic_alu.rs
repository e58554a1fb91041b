//! atomic_alu: the element datapath (`AtomicElement`) against the golden
//! `smsync_sim::units::atomic::element`, operand triple by operand triple, on every op/type pair
//! `legal()` accepts (random operands biased to float corners, plus directed corners).
//!
//! Campaigns: `SMSYNC_UNIT_SEEDS=1,2,3 SMSYNC_UNIT_COUNT=100000 cargo test -p smsync-hdl --test atomic_alu`
//! (the count is per op/type pair for the element tests).

mod rtla_support;

use rtla_support::{seeds_and_count, settle, Rng};
use rust_hdl::prelude::*;
use smsync_hdl::atomic_alu::element::AtomicElement;
use smsync_sim::encoding::{AtomOp, DataType};
use smsync_sim::units::atomic::{element as golden_element, legal};

/// The element block under the rust-hdl simulator.
struct ElementBench {
    uut: AtomicElement,
}

impl ElementBench {
    fn new() -> ElementBench {
        let mut uut = AtomicElement::new();
        uut.connect_all();
        ElementBench { uut }
    }

    fn eval(&mut self, op: AtomOp, dtype: DataType, r: u128, s: u128, t: u128, ftz: bool) -> u128 {
        let u = &mut self.uut;
        u.op.next = (op.code() as u64).to_bits();
        u.dtype.next = (dtype.code() as u64).to_bits();
        u.r.next = r.to_bits();
        u.s.next = s.to_bits();
        u.t.next = t.to_bits();
        u.ftz_f32.next = ftz;
        settle(u);
        u.value.val().to_u128()
    }

    /// Compare with the golden element; the message names everything needed to replay.
    fn check(&mut self, op: AtomOp, dtype: DataType, r: u128, s: u128, t: u128, ftz: bool, ctx: &str) {
        let want = golden_element(op, dtype, r, s, t, ftz);
        let got = self.eval(op, dtype, r, s, t, ftz);
        assert_eq!(
            got, want,
            "{ctx}: {op:?}.{dtype:?} r={r:#x} s={s:#x} t={t:#x} ftz={ftz}: RTL {got:#x}, golden {want:#x}"
        );
    }
}

/// Every (op, dtype) pair of atom/red (scalar forms; the vector forms reuse the same elements).
fn legal_pairs() -> Vec<(AtomOp, DataType)> {
    let mut v = Vec::new();
    for op in AtomOp::ALL {
        for dt in DataType::ALL {
            let half = matches!(dt, DataType::F16 | DataType::Bf16 | DataType::F16x2 | DataType::Bf16x2);
            if [1u8, 2, 4, 8].iter().any(|vec| legal(*op, *dt, *vec, half)) {
                v.push((*op, *dt));
            }
        }
    }
    v
}

/// (exponent bits, mantissa bits) of a float element type, or of the halves of a packed type.
fn float_format(dt: DataType) -> Option<(u32, u32)> {
    match dt {
        DataType::F16 | DataType::F16x2 => Some((5, 10)),
        DataType::Bf16 | DataType::Bf16x2 => Some((8, 7)),
        DataType::F32 => Some((8, 23)),
        DataType::F64 => Some((11, 52)),
        _ => None,
    }
}

/// A float of the format with an exponent field drawn from the interesting ones (0, 1, max-1,
/// max, near `near`) or uniform.
fn float_operand(rng: &mut Rng, e: u32, m: u32, near: Option<u64>) -> u64 {
    let emax = (1u64 << e) - 1;
    let exp = match rng.below(8) {
        0 => 0,
        1 => 1,
        2 => emax,
        3 => emax - 1,
        4 | 5 => match near {
            Some(x) => (x + rng.below(5)).saturating_sub(2).min(emax),
            None => rng.below(emax + 1),
        },
        6 if m + 3 < 60 => near.map(|x| (x + m as u64 + rng.below(5)).saturating_sub(2).min(emax)).unwrap_or(0),
        _ => rng.below(emax + 1),
    };
    let frac = match rng.below(6) {
        0 => 0,
        1 => 1,
        2 => (1u64 << m) - 1,
        _ => rng.next() & ((1u64 << m) - 1),
    };
    let sign = rng.below(2);
    sign << (e + m) | exp << m | frac
}

fn exp_of(x: u64, e: u32, m: u32) -> u64 {
    (x >> m) & ((1 << e) - 1)
}

/// Random (r, s, t) for a pair: integer types get full-range values with small ones and equal
/// operands mixed in (inc/dec/cas/min/max corners), float types biased exponents.
fn operands(rng: &mut Rng, dt: DataType) -> (u128, u128, u128) {
    let wide = |rng: &mut Rng| (rng.next() as u128) << 64 | rng.next() as u128;
    if let Some((e, m)) = float_format(dt) {
        let halves = if matches!(dt, DataType::F16x2 | DataType::Bf16x2) { 2 } else { 1 };
        let (mut r, mut s) = (0u128, 0u128);
        for h in 0..halves {
            let a = float_operand(rng, e, m, None);
            let b = float_operand(rng, e, m, Some(exp_of(a, e, m)));
            let (a, b) = if rng.below(2) == 0 { (a, b) } else { (b, a) };
            r |= (a as u128) << (16 * h);
            s |= (b as u128) << (16 * h);
        }
        // Sometimes x + (-x) or x + x exactly.
        match rng.below(10) {
            0 => s = r ^ (1u128 << (e + m)),
            1 => s = r,
            _ => {}
        }
        return (r, s, wide(rng));
    }
    let r = match rng.below(6) {
        0 => rng.below(4) as u128,
        1 => u128::MAX - rng.below(4) as u128,
        2 => 1u128 << rng.below(128),
        _ => wide(rng),
    };
    let s = match rng.below(6) {
        0 => r,
        1 => r.wrapping_add(1),
        2 => r.wrapping_sub(1),
        3 => rng.below(4) as u128,
        _ => wide(rng),
    };
    let t = wide(rng);
    // cas: make the compare hit in the element's width sometimes
    let width_bits = dt.bytes() * 8;
    let s = if rng.below(3) == 0 && width_bits < 128 { r & ((1u128 << width_bits) - 1) } else { s };
    (r, s, t)
}

#[test]
fn element_matches_golden_on_random_operands() {
    let (seeds, count) = seeds_and_count(&[1, 2], 1500);
    let mut bench = ElementBench::new();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        for (op, dt) in legal_pairs() {
            for i in 0..count {
                let (r, s, t) = operands(&mut rng, dt);
                let ftz = dt == DataType::F32 && rng.below(2) == 0;
                bench.check(op, dt, r, s, t, ftz, &format!("seed {seed} item {i}"));
            }
        }
    }
}

/// Directed corners: subnormals with and without flush, NaN, inf, -0, overflow to inf,
/// cancellation, inc/dec wrap, cas hit/miss up to b128, signed min/max.
#[test]
fn element_directed_corners() {
    let mut b = ElementBench::new();
    let f32_cases: &[(u32, u32)] = &[
        (0x0000_0001, 0x0000_0001),   // two smallest subnormals
        (0x0040_0000, 0x0040_0000),   // subnormal + subnormal = smallest normal
        (0x8000_0001, 0x0000_0001),   // -d + d = +0
        (0x8000_0000, 0x8000_0000),   // -0 + -0 = -0
        (0x8000_0000, 0x0000_0000),   // -0 + +0 = +0
        (0x7F80_0000, 0xFF80_0000),   // inf - inf = NaN
        (0x7F80_0000, 0x3F80_0000),   // inf + 1
        (0x7FC0_0001, 0x3F80_0000),   // NaN payload -> canonical
        (0x7F7F_FFFF, 0x7F7F_FFFF),   // overflow to inf
        (0x7F7F_FFFF, 0x7380_0000),   // max + half ulp: ties to even (stays max? rounds to inf)
        (0x3F80_0000, 0x3380_0000),   // 1 + 2^-24: tie, stays 1
        (0x3F80_0001, 0x3380_0000),   // tie to even upward
        (0x3F80_0000, 0xB380_0000),   // 1 - 2^-24
        (0x0080_0000, 0x8000_0001),   // smallest normal - smallest subnormal
        (0x0080_0001, 0x8080_0000),   // result subnormal (flushed under ftz)
        (0x3F80_0000, 0x0000_0001),   // far apart: sticky only
        (0x4B80_0000, 0xBF80_0000),   // 2^24 - 1
    ];
    for &(x, y) in f32_cases {
        for ftz in [false, true] {
            b.check(AtomOp::Add, DataType::F32, x as u128, y as u128, 0, ftz, "f32 corner");
            b.check(AtomOp::Add, DataType::F32, y as u128, x as u128, 0, ftz, "f32 corner (swapped)");
        }
    }
    let f64_cases: &[(u64, u64)] = &[
        (1, 1),
        (0x8000_0000_0000_0000, 0x8000_0000_0000_0000),
        (0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000),
        (0x7FEF_FFFF_FFFF_FFFF, 0x7FEF_FFFF_FFFF_FFFF),
        (0x3FF0_0000_0000_0000, 0x3CA0_0000_0000_0000),
        (0x3FF0_0000_0000_0001, 0x3CA0_0000_0000_0000),
        (0x0010_0000_0000_0000, 0x8000_0000_0000_0001),
        (0x7FF0_0000_0000_0001, 0),
    ];
    for &(x, y) in f64_cases {
        b.check(AtomOp::Add, DataType::F64, x as u128, y as u128, 0, false, "f64 corner");
    }
    let half_cases: &[(u16, u16)] = &[
        (0x0001, 0x0001),
        (0x8000, 0x8000),
        (0x8000, 0x0000),
        (0x7C00, 0xFC00),
        (0x7BFF, 0x7BFF),
        (0x7E01, 0x3C00),
        (0x7F80, 0xFF80),
        (0x7F7F, 0x7F7F),
        (0x7FC1, 0x7FC1),
        (0x0400, 0x8001),
    ];
    for &(x, y) in half_cases {
        for dt in [DataType::F16, DataType::Bf16] {
            for op in [AtomOp::Add, AtomOp::Min, AtomOp::Max] {
                b.check(op, dt, x as u128, y as u128, 0, false, "half corner");
            }
        }
        for dt in [DataType::F16x2, DataType::Bf16x2] {
            let packed_r = (x as u128) << 16 | y as u128;
            let packed_s = (y as u128) << 16 | x as u128;
            for op in [AtomOp::Add, AtomOp::Min, AtomOp::Max] {
                b.check(op, dt, packed_r, packed_s, 0, false, "packed half corner");
            }
        }
    }
    // inc / dec wrap (checklist item 84 and its dec twin)
    for (r, s) in [(5u128, 5u128), (4, 5), (6, 5), (0, 5), (0, 0), (u32::MAX as u128, u32::MAX as u128), (7, 0)] {
        b.check(AtomOp::Inc, DataType::U32, r, s, 0, false, "inc wrap");
        b.check(AtomOp::Dec, DataType::U32, r, s, 0, false, "dec wrap");
    }
    assert_eq!(b.eval(AtomOp::Inc, DataType::U32, 5, 5, 0, false), 0);
    assert_eq!(b.eval(AtomOp::Inc, DataType::U32, 4, 5, 0, false), 5);
    assert_eq!(b.eval(AtomOp::Dec, DataType::U32, 0, 5, 0, false), 5);
    assert_eq!(b.eval(AtomOp::Dec, DataType::U32, 6, 5, 0, false), 5);
    // cas hit and miss at every width, incl. b128
    let big = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128;
    for dt in [DataType::B16, DataType::B32, DataType::B64, DataType::B128] {
        b.check(AtomOp::Cas, dt, big, big, !big, false, "cas hit");
        b.check(AtomOp::Cas, dt, big, big ^ 1, !big, false, "cas miss");
        b.check(AtomOp::Cas, dt, big, big ^ (1 << 127), !big, false, "cas hit above the width");
    }
    assert_eq!(b.eval(AtomOp::Cas, DataType::B128, big, big, !big, false), !big);
    assert_eq!(b.eval(AtomOp::Exch, DataType::B128, big, !big, 0, false), !big);
    // signed min/max
    for dt in [DataType::S32, DataType::S64, DataType::U32, DataType::U64] {
        for (r, s) in [(u128::MAX, 1u128), (1 << 31, 5), (1 << 63, 5), (0, u128::MAX)] {
            b.check(AtomOp::Min, dt, r, s, 0, false, "min");
            b.check(AtomOp::Max, dt, r, s, 0, false, "max");
        }
    }
}

/// f16 and bf16 add / min / max on a dense sample of operand pairs: every 97th 16-bit pattern
/// against every 89th (about 450,000 pairs per op and format would be too slow for the
/// rust-hdl simulator in the default run; the stride keeps all exponents and sign combinations).
#[test]
fn element_half_pairs_dense_sample() {
    let stride: u32 = std::env::var("SMSYNC_HALF_STRIDE").ok().and_then(|s| s.parse().ok()).unwrap_or(1021);
    let mut b = ElementBench::new();
    for dt in [DataType::F16, DataType::Bf16] {
        let mut x = 0u32;
        while x < 0x1_0000 {
            let mut y = (x * 7) % stride;
            while y < 0x1_0000 {
                for op in [AtomOp::Add, AtomOp::Max] {
                    b.check(op, dt, x as u128, y as u128, 0, false, &format!("half pairs stride {stride}"));
                }
                y += stride;
            }
            x += stride;
        }
    }
}
