//! Atomic ALU: atom and red (PTX ISA §9.7.13.5, §9.7.13.6), and the element operation used by the copy engine's
//! bulk reductions.
//!
//! Lanes are executed in ascending lane order, each as one indivisible read-modify-write, so
//! same-address conflicts inside a warp serialize deterministically (lane 0 first). Vector and
//! packed forms update each element independently (per-element atomicity).
//!
//! Legal op x type table (ptxas 12.x for sm_90 agrees; the seeds leave it open, §22.6):
//!
//! | op | types |
//! |---|---|
//! | and, or, xor | b32, b64 |
//! | cas | b16, b32, b64, b128 (atom only) |
//! | exch | b32, b64, b128 (atom only) |
//! | add | u32, s32, u64, f32, f64, f16, bf16, f16x2, bf16x2 (16-bit floats need .noftz) |
//! | inc, dec | u32 |
//! | min, max | u32, s32, u64, s64; f16, bf16 (.noftz, vector forms only), f16x2, bf16x2 (.noftz, vector only) |
//!
//! Vector forms (`vec` 2/4/8, global only): add/min/max on f16 and bf16 (v2, v4, v8) and on f16x2
//! and bf16x2 (v2, v4); add on f32 (v2, v4). The packed elements are little-endian in lane `b` and
//! in the response `values`.
//!
//! Errors: an op/type/vector combination outside the table, red.cas/red.exch, or a vector form not
//! in global memory (`AtomBadType`); an address not aligned to the whole access size
//! (`AtomAlign`); a shared-memory access overlapping a live mbarrier (`MbarrierPlainAccess`); memory
//! ranges (`GlobalOutOfRange` / `SharedOutOfRange`); a family the config leaves out (`NotBuilt`).
//! Float rules are in [`super::float`].
//!
//! red.async (`Op::RedAsync`, PTX ISA §9.7.13.7; its complete-tx: §9.7.13.15.5.2): lane `addr` and
//! `mbar` are shared::cluster addresses
//! of one *other* CTA of the cluster. The reduction (table: add u32/s32/u64, min/max u32/s32,
//! inc/dec u32, and/or/xor b32) is applied to that CTA's shared memory, then complete_tx(4, or 8
//! for u64) on the mbarrier there. The golden model is untimed, so both happen at issue. A target
//! in the executing CTA, or `a` and `mbar` in different CTAs, is `RedAsyncTarget` (item 97).

use super::float::{f32_add, f64_add, half_add, half_minmax, Half};
use super::mbarrier_alu::MbarrierAlu;
use super::space::resolve_shared;
use super::TraceEvent;
use super::{Request, Response};
use crate::config::Config;
use crate::encoding::{flags, AtomOp, DataType, ErrorCode, Op, Space};
use crate::memory::MemorySystem;

pub struct AtomicAlu {
    cluster_size: u32,
    float_atomics: bool,
    atomic_b128: bool,
}

/// Is `op` on `dtype` with vector length `vec` an atom/red form? (`noftz` = the .noftz qualifier.)
pub fn legal(op: AtomOp, dtype: DataType, vec: u8, noftz: bool) -> bool {
    use DataType::*;
    let half = matches!(dtype, F16 | Bf16 | F16x2 | Bf16x2);
    if half && !noftz || !half && noftz {
        return false;
    }
    let scalar_ok = match op {
        AtomOp::And | AtomOp::Or | AtomOp::Xor => matches!(dtype, B32 | B64),
        AtomOp::Cas => matches!(dtype, B16 | B32 | B64 | B128),
        AtomOp::Exch => matches!(dtype, B32 | B64 | B128),
        AtomOp::Add => matches!(dtype, U32 | S32 | U64 | F32 | F64 | F16 | Bf16 | F16x2 | Bf16x2),
        AtomOp::Inc | AtomOp::Dec => dtype == U32,
        AtomOp::Min | AtomOp::Max => matches!(dtype, U32 | S32 | U64 | S64 | F16 | Bf16 | F16x2 | Bf16x2),
    };
    let minmax = matches!(op, AtomOp::Min | AtomOp::Max);
    match vec {
        1 => scalar_ok && !(half && minmax),
        2 | 4 => scalar_ok && (half || dtype == F32 && op == AtomOp::Add),
        8 => scalar_ok && matches!(dtype, F16 | Bf16),
        _ => false,
    }
}

/// One element of an atomic or reduction: the new memory value from the old value `r`, the operand
/// `s` and (cas) `t`. `ftz_f32` selects the global-memory f32 flush. Values are zero-extended.
pub fn element(op: AtomOp, dtype: DataType, r: u128, s: u128, t: u128, ftz_f32: bool) -> u128 {
    use DataType::*;
    let bits = dtype.bytes() * 8;
    let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let (r, s, t) = (r & mask, s & mask, t & mask);
    let v = match (op, dtype) {
        (AtomOp::And, _) => r & s,
        (AtomOp::Or, _) => r | s,
        (AtomOp::Xor, _) => r ^ s,
        (AtomOp::Cas, _) => {
            if r == s {
                t
            } else {
                r
            }
        }
        (AtomOp::Exch, _) => s,
        (AtomOp::Inc, _) => {
            if r >= s {
                0
            } else {
                r + 1
            }
        }
        (AtomOp::Dec, _) => {
            if r == 0 || r > s {
                s
            } else {
                r - 1
            }
        }
        (AtomOp::Add, F32) => f32_add(r as u32, s as u32, ftz_f32) as u128,
        (AtomOp::Add, F64) => f64_add(r as u64, s as u64) as u128,
        (AtomOp::Add, F16) => half_add(Half::F16, r as u16, s as u16) as u128,
        (AtomOp::Add, Bf16) => half_add(Half::Bf16, r as u16, s as u16) as u128,
        (AtomOp::Add, F16x2 | Bf16x2) | (AtomOp::Min | AtomOp::Max, F16x2 | Bf16x2) => {
            let scalar = if dtype == F16x2 { F16 } else { Bf16 };
            let lo = element(op, scalar, r & 0xFFFF, s & 0xFFFF, 0, false);
            let hi = element(op, scalar, r >> 16, s >> 16, 0, false);
            lo | hi << 16
        }
        (AtomOp::Add, _) => r.wrapping_add(s),
        (AtomOp::Min | AtomOp::Max, F16 | Bf16) => {
            let k = if dtype == F16 { Half::F16 } else { Half::Bf16 };
            half_minmax(k, op == AtomOp::Max, r as u16, s as u16) as u128
        }
        (AtomOp::Min | AtomOp::Max, S32 | S64) => {
            let sign = |x: u128| ((x << (128 - bits)) as i128) >> (128 - bits);
            let pick_r = if op == AtomOp::Min { sign(r) <= sign(s) } else { sign(r) >= sign(s) };
            if pick_r {
                r
            } else {
                s
            }
        }
        (AtomOp::Min, _) => r.min(s),
        (AtomOp::Max, _) => r.max(s),
    };
    v & mask
}

impl AtomicAlu {
    pub fn new(config: &Config) -> Self {
        AtomicAlu {
            cluster_size: config.cluster_size,
            float_atomics: config.features.float_atomics,
            atomic_b128: config.features.atomic_b128,
        }
    }

    fn check(&self, req: &Request) -> Result<AtomOp, ErrorCode> {
        let op = AtomOp::from_code(req.sub).ok_or(ErrorCode::AtomBadType)?;
        if req.dtype.is_float() && !self.float_atomics || req.dtype == DataType::B128 && !self.atomic_b128 {
            return Err(ErrorCode::NotBuilt);
        }
        if !legal(op, req.dtype, req.vec, req.has(flags::MOD_A)) {
            return Err(ErrorCode::AtomBadType);
        }
        if req.op == Op::Red && matches!(op, AtomOp::Cas | AtomOp::Exch) {
            return Err(ErrorCode::AtomBadType);
        }
        if req.vec > 1 && req.space != Space::Global {
            return Err(ErrorCode::AtomBadType);
        }
        Ok(op)
    }

    pub fn submit(
        &mut self,
        req: &Request,
        mem: &mut MemorySystem,
        mbar: &mut MbarrierAlu,
        out: &mut Vec<Response>,
        events: &mut Vec<TraceEvent>,
    ) {
        if req.op == Op::RedAsync {
            return self.red_async(req, mem, mbar, out, events);
        }
        let op = match self.check(req) {
            Ok(op) => op,
            Err(e) => return out.push(Response::error(req, e, req.first_active().unwrap_or(0))),
        };
        let mut resp = Response::to(req, req.active_mask);
        for lane in req.active_lanes() {
            match self.lane(req, op, lane, mem, mbar) {
                Ok(old) => {
                    if req.op == Op::Atom {
                        resp.values[lane] = old;
                    }
                }
                Err(e) => return out.push(Response::error(req, e, lane)),
            }
        }
        out.push(resp);
    }

    /// Is `op` on `dtype` a red.async form?
    pub fn red_async_legal(op: AtomOp, dtype: DataType) -> bool {
        use DataType::*;
        match op {
            AtomOp::Inc | AtomOp::Dec => dtype == U32,
            AtomOp::Min | AtomOp::Max => matches!(dtype, U32 | S32),
            AtomOp::And | AtomOp::Or | AtomOp::Xor => dtype == B32,
            AtomOp::Add => matches!(dtype, U32 | S32 | U64),
            AtomOp::Cas | AtomOp::Exch => false,
        }
    }

    fn red_async(
        &self,
        req: &Request,
        mem: &mut MemorySystem,
        mbar: &mut MbarrierAlu,
        out: &mut Vec<Response>,
        events: &mut Vec<TraceEvent>,
    ) {
        let first = req.first_active().unwrap_or(0);
        let op = match AtomOp::from_code(req.sub) {
            Some(op) if Self::red_async_legal(op, req.dtype) && req.vec == 1 => op,
            _ => return out.push(Response::error(req, ErrorCode::AtomBadType, first)),
        };
        for lane in req.active_lanes() {
            if let Err(e) = self.red_async_lane(req, op, lane, mem, mbar, events) {
                return out.push(Response::error(req, e, lane));
            }
        }
        out.push(Response::to(req, req.active_mask));
    }

    fn red_async_lane(
        &self,
        req: &Request,
        op: AtomOp,
        lane: usize,
        mem: &mut MemorySystem,
        mbar: &mut MbarrierAlu,
        events: &mut Vec<TraceEvent>,
    ) -> Result<(), ErrorCode> {
        let ops = req.lanes[lane];
        let size = req.dtype.bytes() as usize;
        let (slot, off) = resolve_shared(req.cta, self.cluster_size, req.space, ops.addr)?;
        let (mslot, moff) = mbar.locate_in(req.cta, req.space, ops.mbar)?;
        if slot == req.cta as usize || mslot != slot {
            return Err(ErrorCode::RedAsyncTarget);
        }
        if !ops.addr.is_multiple_of(size as u64) {
            return Err(ErrorCode::AtomAlign);
        }
        if mbar.overlaps_live(slot as u16, off, size as u64) {
            return Err(ErrorCode::MbarrierPlainAccess);
        }
        // the mbarrier must be live before the reduction changes anything
        mbar.check_live(mem, mslot, moff)?;
        let region = mem.shared.get_mut(slot).ok_or(ErrorCode::SharedOutOfRange)?;
        rmw(region, off, op, req, size, ops, false, ErrorCode::SharedOutOfRange)?;
        mbar.complete_tx_at(mem, mslot, moff, size as u32, events)
    }

    /// One lane's read-modify-write; returns the old value (packed for vectors).
    fn lane(
        &self,
        req: &Request,
        op: AtomOp,
        lane: usize,
        mem: &mut MemorySystem,
        mbar: &MbarrierAlu,
    ) -> Result<u128, ErrorCode> {
        let ops = req.lanes[lane];
        let elem = req.dtype.bytes() as usize;
        let size = elem * req.vec as usize;
        if !ops.addr.is_multiple_of(size as u64) {
            return Err(ErrorCode::AtomAlign);
        }
        let region = match req.space {
            Space::Global => &mut mem.global,
            space => {
                let (slot, off) = resolve_shared(req.cta, self.cluster_size, space, ops.addr)?;
                if mbar.overlaps_live(slot as u16, off, size as u64) {
                    return Err(ErrorCode::MbarrierPlainAccess);
                }
                let region = mem.shared.get_mut(slot).ok_or(ErrorCode::SharedOutOfRange)?;
                return rmw(region, off, op, req, elem, ops, false, ErrorCode::SharedOutOfRange);
            }
        };
        rmw(region, ops.addr, op, req, elem, ops, true, ErrorCode::GlobalOutOfRange)
    }
}

/// Read-modify-write `req.vec` elements of `elem` bytes at `addr` of `region`.
#[allow(clippy::too_many_arguments)]
fn rmw(
    region: &mut crate::memory::Region,
    addr: u64,
    op: AtomOp,
    req: &Request,
    elem: usize,
    ops: super::LaneOps,
    global: bool,
    range_err: ErrorCode,
) -> Result<u128, ErrorCode> {
    let size = elem * req.vec as usize;
    let old = region.read(addr, size).ok_or(range_err)?;
    let bits = elem * 8;
    let emask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let mut new = 0u128;
    for i in 0..req.vec as usize {
        let sh = i * bits;
        let r = old >> sh & emask;
        let s = ops.b >> sh & emask;
        new |= element(op, req.dtype, r, s, ops.c, global) << sh;
    }
    region.write(addr, size, new).ok_or(range_err)?;
    Ok(old)
}
