//! The comparison policy of one response pair (golden = expected, RTL = actual) and of the final
//! buffers. The policy itself is written down in docs/ARCHITECTURE.md, chapter "Cosim".
//!
//! * error code, then (when both report an error) the error lane, must be equal;
//! * without an error: `lanes`, `preds` (over `lanes`) and every lane's value must be equal;
//! * atomics: a lane whose address another active lane of the same request also targets raced
//!   with it inside the unit: its returned value is the RTL's choice of order and is not compared
//!   (the final memory is); float atomics compare values with [`FLOAT_TOLERANCE`];
//! * polls (mbarrier.test_wait / try_wait) are not compared here: see `unit.rs`.

use smsync_sim::encoding::{DataType, ErrorCode, Op, Unit};
use smsync_sim::exec::ElemType;
use smsync_sim::units::{Request, Response, WARP};
use std::fmt::Write as _;

/// Relative tolerance for float values reached in another order (atomic results, final float
/// buffers): `|a - b| <= max(|a|, |b|) * max_relative`, or `|a - b| <= epsilon` (near zero).
/// Same meaning as `approx::relative_eq!(a, b, epsilon, max_relative)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub epsilon: f64,
    pub max_relative: f64,
}

/// f32/f64: a few ulps of a sum of up to ~1000 terms in another order; f16/bf16 get their own
/// (coarser) precision in [`tolerance_for_bits`].
pub const FLOAT_TOLERANCE: Tolerance = Tolerance { epsilon: 1e-6, max_relative: 1e-5 };

pub fn approx_eq(a: f64, b: f64, t: Tolerance) -> bool {
    if a == b || (a.is_nan() && b.is_nan()) {
        return true;
    }
    if a.is_infinite() || b.is_infinite() {
        return false;
    }
    let diff = (a - b).abs();
    diff <= t.epsilon || diff <= a.abs().max(b.abs()) * t.max_relative
}

/// IEEE half (1-5-10) bits to f64.
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let exp = (h >> 10 & 0x1f) as i32;
    let frac = (h & 0x3ff) as f64;
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        _ => sign * (1.0 + frac / 1024.0) * 2f64.powi(exp - 15),
    }
}

/// bfloat16 bits (the top half of an f32) to f64.
pub fn bf16_to_f64(h: u16) -> f64 {
    f32::from_bits((h as u32) << 16) as f64
}

/// A float element of `bytes` bytes as f64: 2 = f16 or bf16 (`bf16` says which), 4 = f32, 8 = f64.
fn float_of(bits: u64, bytes: usize, bf16: bool) -> f64 {
    match (bytes, bf16) {
        (2, false) => f16_to_f64(bits as u16),
        (2, true) => bf16_to_f64(bits as u16),
        (4, _) => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

/// Tolerance by element width: 16-bit floats have an 8-bit (bf16) or 11-bit (f16) mantissa.
fn tolerance_for_bits(bytes: usize) -> Tolerance {
    if bytes == 2 {
        Tolerance { epsilon: 1e-3, max_relative: 1e-2 }
    } else {
        FLOAT_TOLERANCE
    }
}

/// Equal as floats of the given layout (packed x2 types compare each half).
fn float_values_equal(g: u128, r: u128, dtype: DataType) -> bool {
    let (bytes, bf16, count) = match dtype {
        DataType::F16 => (2, false, 1),
        DataType::Bf16 => (2, true, 1),
        DataType::F16x2 => (2, false, 2),
        DataType::Bf16x2 => (2, true, 2),
        DataType::F32 => (4, false, 1),
        _ => (8, false, 1),
    };
    let mask = if bytes == 8 { u64::MAX } else { (1u64 << (8 * bytes)) - 1 };
    (0..count).all(|i| {
        let gi = (g >> (8 * bytes * i)) as u64 & mask;
        let ri = (r >> (8 * bytes * i)) as u64 & mask;
        approx_eq(float_of(gi, bytes, bf16), float_of(ri, bytes, bf16), tolerance_for_bits(bytes))
    })
}

/// Lanes of an atomic request whose address another active lane also targets.
pub fn same_address_lanes(req: &Request) -> u32 {
    let mut mask = 0u32;
    let active: Vec<usize> = req.active_lanes().collect();
    for (i, &a) in active.iter().enumerate() {
        for &b in &active[i + 1..] {
            if req.lanes[a].addr == req.lanes[b].addr {
                mask |= 1 << a | 1 << b;
            }
        }
    }
    mask
}

/// Is `op` a poll whose answer depends on timing (a `False` is always legal)?
pub fn is_poll(op: Op) -> bool {
    matches!(op, Op::MbTestWait | Op::MbTryWait)
}

/// Compare one response pair; `Err` lists every difference (expected = golden, actual = RTL).
pub fn compare_responses(req: &Request, golden: &Response, rtl: &Response) -> Result<(), String> {
    let mut diffs = String::new();
    if golden.error != rtl.error {
        let _ = writeln!(
            diffs,
            "  error: expected {} ({:?}), actual {} ({:?})",
            golden.error.name(),
            golden.error,
            rtl.error.name(),
            rtl.error
        );
        if rtl.error == ErrorCode::NotBuilt {
            let _ = writeln!(diffs, "  (the RTL answers NotBuilt: `{}` is not built in the RTL yet)", req.op.name());
        }
        return Err(diffs);
    }
    if golden.error != ErrorCode::None {
        if golden.error_lane != rtl.error_lane {
            let _ = writeln!(
                diffs,
                "  error lane of {}: expected {}, actual {}",
                golden.error.name(),
                golden.error_lane,
                rtl.error_lane
            );
            return Err(diffs);
        }
        return Ok(());
    }
    if golden.lanes != rtl.lanes {
        let _ = writeln!(diffs, "  lanes: expected {:#010x}, actual {:#010x}", golden.lanes, rtl.lanes);
    }
    if golden.preds & golden.lanes != rtl.preds & golden.lanes {
        let _ = writeln!(
            diffs,
            "  preds (over lanes): expected {:#010x}, actual {:#010x}",
            golden.preds & golden.lanes,
            rtl.preds & golden.lanes
        );
    }
    let atomic = req.op.unit() == Unit::AtomicAlu;
    let racing = if atomic { same_address_lanes(req) } else { 0 };
    let float = atomic && req.dtype.is_float();
    for l in 0..WARP {
        if golden.lanes >> l & 1 == 0 || racing >> l & 1 == 1 {
            continue;
        }
        let (g, r) = (golden.values[l], rtl.values[l]);
        let equal = if float { float_values_equal(g, r, req.dtype) } else { g == r };
        if !equal {
            let _ = writeln!(diffs, "  value of lane {l}: expected {g:#x}, actual {r:#x}");
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs)
    }
}

/// Compare a final buffer (golden bytes vs the RTL's global-memory mirror); floats with the
/// tolerance of their width. Returns the first differing elements (at most 8).
pub fn compare_buffer(name: &str, ty: ElemType, golden: &[u8], rtl: &[u8]) -> Result<(), String> {
    if golden.len() != rtl.len() {
        return Err(format!(
            "buffer `{name}`: {} bytes in the golden memory, {} in the RTL mirror",
            golden.len(),
            rtl.len()
        ));
    }
    let w = ty.bytes();
    let float = matches!(ty, ElemType::F16 | ElemType::Bf16 | ElemType::F32 | ElemType::F64);
    let mut diffs = Vec::new();
    for (i, (g, r)) in golden.chunks(w).zip(rtl.chunks(w)).enumerate() {
        let bits = |c: &[u8]| {
            let mut b = [0u8; 8];
            b[..w].copy_from_slice(c);
            u64::from_le_bytes(b)
        };
        let (gb, rb) = (bits(g), bits(r));
        let equal = if float {
            let bf = ty == ElemType::Bf16;
            approx_eq(float_of(gb, w, bf), float_of(rb, w, bf), tolerance_for_bits(w))
        } else {
            gb == rb
        };
        if !equal {
            diffs.push(format!(
                "{name}[{i}]: expected {} ({gb:#x}), actual {} ({rb:#x})",
                ty.decode(gb),
                ty.decode(rb)
            ));
            if diffs.len() == 8 {
                break;
            }
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("\n"))
    }
}

/// One line per request field and active lane, for divergence reports.
pub fn describe_request(req: &Request) -> String {
    let mut s = format!(
        "{} (tag {}, CTA slot {}, warp {}, sub {}, dtype {}, space {}, flags {:#04x}, vec {}, imm {}, imm2 {}, member {:#010x}, active {:#010x}, live {:#010x})",
        req.op.name(),
        req.tag,
        req.cta,
        req.warp,
        req.sub,
        req.dtype.name(),
        req.space.name(),
        req.flags,
        req.vec,
        req.imm,
        req.imm2,
        req.member_mask,
        req.active_mask,
        req.live_mask
    );
    for l in req.active_lanes() {
        let o = &req.lanes[l];
        let _ = write!(s, "\n    lane {l:2}: addr {:#x} a {:#x} b {:#x} c {:#x}", o.addr, o.a, o.b, o.c);
    }
    s
}

/// A response in one line plus its lane values.
pub fn describe_response(r: &Response) -> String {
    let mut s =
        format!("lanes {:#010x} preds {:#010x} error {} (lane {})", r.lanes, r.preds, r.error.name(), r.error_lane);
    for l in (0..WARP).filter(|l| r.lanes >> l & 1 == 1) {
        let _ = write!(s, " [{l}]={:#x}", r.values[l]);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use smsync_sim::units::Request;

    fn req(op: Op, dtype: DataType, addrs: &[u64]) -> Request {
        let mut r = Request::new(7, 0, 1, op);
        r.dtype = dtype;
        for (l, a) in addrs.iter().enumerate() {
            r.active_mask |= 1 << l;
            r.lanes[l].addr = *a;
        }
        r
    }

    #[test]
    fn a_value_difference_is_reported_with_lane_expected_and_actual() {
        let q = req(Op::VoteSync, DataType::B32, &[0, 0]);
        let g = Response::to(&q, 0b11);
        let mut r = g.clone();
        assert!(compare_responses(&q, &g, &r).is_ok());
        r.values[1] = 5;
        let e = compare_responses(&q, &g, &r).unwrap_err();
        assert!(e.contains("value of lane 1: expected 0x0, actual 0x5"), "{e}");
        r.values[1] = 0;
        r.error = ErrorCode::NotBuilt;
        assert!(compare_responses(&q, &g, &r).unwrap_err().contains("not built in the RTL"));
    }

    #[test]
    fn racing_atomic_lanes_are_left_to_the_final_memory_and_floats_use_the_tolerance() {
        let q = req(Op::Atom, DataType::F32, &[16, 16, 32]);
        let mut g = Response::to(&q, 0b111);
        g.values[2] = 1.0f32.to_bits() as u128;
        let mut r = g.clone();
        r.values[0] = 9; // lanes 0 and 1 raced on address 16: not compared
        r.values[2] = (1.0f32 + 1e-7).to_bits() as u128;
        assert!(compare_responses(&q, &g, &r).is_ok());
        r.values[2] = 1.5f32.to_bits() as u128;
        assert!(compare_responses(&q, &g, &r).is_err());
    }

    #[test]
    fn buffers_compare_integers_exactly_and_floats_approximately() {
        assert!(compare_buffer("b", ElemType::U32, &[1, 0, 0, 0], &[1, 0, 0, 0]).is_ok());
        let e = compare_buffer("b", ElemType::U32, &[1, 0, 0, 0], &[2, 0, 0, 0]).unwrap_err();
        assert!(e.contains("b[0]: expected 1"), "{e}");
        let a = 100.0f32.to_le_bytes();
        let b = 100.0001f32.to_le_bytes();
        assert!(compare_buffer("f", ElemType::F32, &a, &b).is_ok());
        assert!(compare_buffer("f", ElemType::F32, &a, &101.0f32.to_le_bytes()).is_err());
        assert_eq!(f16_to_f64(0x3c00), 1.0);
        assert_eq!(f16_to_f64(0xc000), -2.0);
    }
}
