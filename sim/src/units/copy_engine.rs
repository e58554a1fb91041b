//! Async copy / TMA engine (PTX ISA §9.7.9.25): cp.async with its per-thread groups,
//! cp.async.mbarrier.arrive, cp.async.bulk (three directions, multicast, .cp_mask),
//! cp.reduce.async.bulk, cp.async.bulk.tensor (tile mode, 1d-5d, load, store, reduce; im2col mode
//! loads, PTX ISA §5.5.4; the 32B/64B/128B swizzle of the shared-memory side, PTX ISA §5.5.7) and
//! the bulk groups.
//!
//! Timing (deterministic, untimed): every accepted copy is an operation that passes two stages.
//! A non-idle `tick` first performs the write stage of every operation whose source was read on an
//! earlier tick (destination written, complete-tx sent, group bookkeeping), then the read stage of
//! every newly issued operation (source and tensor map read, data captured). An idle tick runs
//! both stages until nothing is left. So `cp.async.bulk.wait_group.read` is satisfied one tick
//! before the full `wait_group` (PTX ISA §9.7.9.25.6.2).
//!
//! Groups: each thread has an open (uncommitted) cp.async group and an open bulk group; commit
//! closes it (an empty group is complete at once). `wait_group N` waits until at most the N newest
//! committed groups of every active lane are incomplete; `wait_all` (imm2 = 1) commits first.
//! Groups retire in commit order (a group counts as pending while any older one is). Only
//! `.bulk_group` operations (bulk/reduce/tensor copies to global) join bulk groups; mbarrier-variant
//! operations do not (PTX ISA §9.7.9.25.6.1; the completion tables of §9.7.9.25.4.1 say they
//! "optionally" may, the project says no).
//!
//! cp.async.mbarrier.arrive: pending += 1 at issue unless .noinc (`MbPendingOverflow`), then an
//! arrive-on(1) once every cp.async the thread issued before it has completed (fired at the end of
//! the tick on which that happens).
//!
//! Queue depth: the golden model accepts every request (no `QueueOverflow`); `copy_queue_depth` is a
//! timing parameter of the RTL, which stalls its request port when the queue is full — invisible
//! to program results.
//!
//! clusterlaunchcontrol.try_cancel (`Op::ClcTryCancel`): this model launches every cluster of the
//! grid before it ends, and never holds a not-yet-launched cluster that could be cancelled, so
//! every request fails. It is an ordinary two-stage operation whose "copy" writes the 16-byte
//! failed response (project layout: byte 0 bit 0 = canceled; a failed response is 16 zero bytes)
//! to `addr` and then performs complete_tx(16) on `mbar` (with `MOD_B`, multicast::cluster::all:
//! the same offsets in every CTA of the cluster). `addr` must be 16-byte aligned (`BulkSizeAlign`).
//!
//! Errors found at issue answer the request (`Response::error`). An error found when an operation
//! completes (its mbarrier was invalidated meanwhile, a tensor element outside global memory)
//! answers again with the issuing request's tag, `lanes = 0` and the error.

use std::collections::HashMap;

use super::atomic_alu::element;
use super::mbarrier_alu::MbarrierAlu;
use super::space::{resolve_shared, slot_of_rank};
use super::tensormap::{self, TensorMap};
use super::{Request, Response, TraceEvent};
use crate::config::Config;
use crate::encoding::{flags, AtomOp, BulkDir, DataType, ErrorCode, Op, Space};
use crate::memory::MemorySystem;

/// (CTA slot, warp, lane).
type Thread = (u16, u16, u8);

/// A memory location: global address, or (slot, offset) in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loc {
    Global(u64),
    Shared(usize, u64),
}

#[derive(Clone, Debug)]
enum Kind {
    /// Copy `len` bytes; bytes from `src_bytes` on are zero (cp.async src-size / ignore-src).
    Plain {
        src: Loc,
        dsts: Vec<Loc>,
        len: u64,
        src_bytes: u64,
        byte_mask: Option<u16>,
    },
    /// Element-wise reduction of `len` bytes.
    Reduce {
        src: Loc,
        dst: Loc,
        len: u64,
        op: AtomOp,
        dtype: DataType,
    },
    /// `offsets`: the im2col offsets of an im2col load (None: tile mode).
    TensorLoad {
        map: TensorMap,
        coords: [i32; 5],
        offsets: Option<[u16; 3]>,
        dsts: Vec<Loc>,
    },
    TensorStore {
        map: TensorMap,
        coords: [i32; 5],
        src: Loc,
        reduce: Option<(AtomOp, DataType)>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Completion {
    /// cp.async: (thread, group id).
    AsyncGroup(Thread, u64),
    /// .bulk_group: (thread, group id).
    BulkGroup(Thread, u64),
    /// complete-tx on mbarriers (listed in `mbars`).
    Mbarrier,
}

#[derive(Clone, Debug)]
struct AsyncOp {
    seq: u64,
    tag: u64,
    cta: u16,
    warp: u16,
    lane: u8,
    kind: Kind,
    completion: Completion,
    mbars: Vec<(usize, u64)>,
    /// Captured source bytes once read (None = not read yet).
    data: Option<Vec<u8>>,
}

/// How a queued operation's bytes move (see [`CopyEngine::queued_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub bytes: u64,
    /// Bytes read from the source (fewer than `bytes`: cp.async's src-size, the rest zero-filled).
    pub source_bytes: u64,
    /// Read from global memory (a load), else from shared memory (a store or reduction).
    pub global_source: bool,
    /// Elements combined by a reduction (0: a plain move).
    pub elements: u64,
    /// Rows of a tensor box (0: not a tensor copy), the bytes of each, and whether the box is
    /// swizzled in shared memory (PTX ISA §5.5.7).
    pub rows: u64,
    pub row_bytes: u64,
    pub swizzled: bool,
    /// The RTL mover's moves for a tensor load (hdl/src/copy_engine.rs, "Tensor tile mode"):
    /// one per box row, two for a row with a fill prefix (elements before coordinate 0 in
    /// dimension 0 and some inside the tensor); 0 otherwise.
    pub row_moves: u64,
}

/// [`Move::row_moves`] of a tensor load at `coords`: a row whose first element lies before the
/// tensor in dimension 0 and whose last lies inside it is a fill prefix and a data move.
fn tensor_load_moves(map: &TensorMap, coords: &[i32; 5]) -> u64 {
    let per_row = (map.box_row_bytes() / map.elem_bytes.max(1)).max(1);
    (0..map.box_rows())
        .map(|r| {
            let first = r * per_row;
            let last = first + per_row - 1;
            let prefix = map.element(coords, first).is_none() && map.element(coords, last).is_some();
            1 + prefix as u64
        })
        .sum()
}

/// A cp.async.mbarrier.arrive waiting for the thread's earlier cp.async.
#[derive(Clone, Debug)]
struct PendingArrive {
    thread: Thread,
    tag: u64,
    after_seq: u64,
    slot: usize,
    off: u64,
}

pub struct CopyEngine {
    cluster_size: u32,
    bulk_copy: bool,
    tensor_copy: bool,
    seq: u64,
    ops: Vec<AsyncOp>,
    arrives: Vec<PendingArrive>,
    /// Id of each thread's open group: (thread, is_bulk) -> id (committed groups have smaller ids).
    open_group: HashMap<(Thread, bool), u64>,
    waiting: Vec<Request>,
    /// Only operations numbered up to `gate` are read and written on a tick (all, by default).
    /// A timing back end (`crate::timing`) raises it as its model of the copy port moves each
    /// operation's bytes, so the data moves and the completions fire at the modelled time.
    pub gate: u64,
}

fn read_loc(mem: &MemorySystem, loc: Loc, len: u64) -> Result<Vec<u8>, ErrorCode> {
    match loc {
        Loc::Global(a) => mem.global.slice(a, len as usize).map(|s| s.to_vec()).ok_or(ErrorCode::GlobalOutOfRange),
        Loc::Shared(s, o) => mem
            .shared
            .get(s)
            .and_then(|r| r.slice(o, len as usize))
            .map(|s| s.to_vec())
            .ok_or(ErrorCode::SharedOutOfRange),
    }
}

fn slice_mut(mem: &mut MemorySystem, loc: Loc, len: u64) -> Result<&mut [u8], ErrorCode> {
    match loc {
        Loc::Global(a) => mem.global.slice_mut(a, len as usize).ok_or(ErrorCode::GlobalOutOfRange),
        Loc::Shared(s, o) => {
            mem.shared.get_mut(s).and_then(|r| r.slice_mut(o, len as usize)).ok_or(ErrorCode::SharedOutOfRange)
        }
    }
}

fn check_range(mem: &MemorySystem, loc: Loc, len: u64) -> Result<(), ErrorCode> {
    read_loc(mem, loc, len.max(1)).map(|_| ())
}

/// The 16-byte chunks of a tensor box in shared memory at `loc`: (offset in the box's linear
/// image, location after the map's swizzle, PTX ISA §5.5.7). The box is a multiple of 16 bytes
/// (its inner dimension is, PTX ISA §5.5.3.1).
fn box_chunks(map: &TensorMap, loc: Loc) -> impl Iterator<Item = (usize, Loc)> + '_ {
    (0..map.box_bytes() / 16).map(move |k| match loc {
        Loc::Shared(s, o) => ((16 * k) as usize, Loc::Shared(s, tensormap::swizzle(map.swizzle, o + 16 * k))),
        Loc::Global(a) => ((16 * k) as usize, Loc::Global(a + 16 * k)),
    })
}

fn le(bytes: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    b[..bytes.len()].copy_from_slice(bytes);
    u128::from_le_bytes(b)
}

/// Reduce `src` element-wise into the bytes at `dst` (same length).
fn reduce_into(dst: &mut [u8], src: &[u8], op: AtomOp, dtype: DataType) {
    let n = dtype.bytes() as usize;
    for (d, s) in dst.chunks_mut(n).zip(src.chunks(n)) {
        // Bulk f32 adds flush subnormals (PTX ISA §9.7.9.25.4.2); f16/bf16 adds are .noftz.
        let v = element(op, dtype, le(d), le(s), 0, true);
        d.copy_from_slice(&v.to_le_bytes()[..n]);
    }
}

pub use smsync_contract::legality::{bulk_reduce_legal, tensor_reduce_legal};

/// A load's destinations and the (slot, address) of each destination's mbarrier.
type LoadTargets = (Vec<Loc>, Vec<(usize, u64)>);

impl CopyEngine {
    pub fn new(config: &Config) -> Self {
        CopyEngine {
            cluster_size: config.cluster_size,
            bulk_copy: config.features.bulk_copy,
            tensor_copy: config.features.tensor_copy,
            seq: 0,
            ops: Vec::new(),
            arrives: Vec::new(),
            open_group: HashMap::new(),
            waiting: Vec::new(),
            gate: u64::MAX,
        }
    }

    /// The operations not read yet, in issue order: (number, bytes moved), for a timing model.
    pub fn queued(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.ops.iter().filter(|o| o.data.is_none()).map(|o| {
            let bytes = match &o.kind {
                Kind::Plain { len, .. } | Kind::Reduce { len, .. } => *len,
                Kind::TensorLoad { map, .. } | Kind::TensorStore { map, .. } => map.box_bytes(),
            };
            (o.seq, bytes)
        })
    }

    /// The operations not read yet, in issue order, with what a model of the RTL's mover needs
    /// (`timing.model: rtl`): how the bytes move, not only how many.
    pub fn queued_moves(&self) -> impl Iterator<Item = (u64, Move)> + '_ {
        self.ops.iter().filter(|o| o.data.is_none()).map(|o| {
            let m = match &o.kind {
                Kind::Plain { src, len, src_bytes, .. } => Move {
                    bytes: *len,
                    source_bytes: *src_bytes.min(len),
                    global_source: matches!(src, Loc::Global(_)),
                    elements: 0,
                    rows: 0,
                    row_bytes: 0,
                    swizzled: false,
                    row_moves: 0,
                },
                Kind::Reduce { src, len, dtype, .. } => Move {
                    bytes: *len,
                    source_bytes: *len,
                    global_source: matches!(src, Loc::Global(_)),
                    elements: len / dtype.bytes() as u64,
                    rows: 0,
                    row_bytes: 0,
                    swizzled: false,
                    row_moves: 0,
                },
                Kind::TensorLoad { map, coords, .. } => Move {
                    bytes: map.box_bytes(),
                    source_bytes: map.box_bytes(),
                    global_source: true,
                    elements: 0,
                    rows: map.box_rows(),
                    row_bytes: map.box_row_bytes(),
                    swizzled: map.swizzle != 0,
                    row_moves: tensor_load_moves(map, coords),
                },
                Kind::TensorStore { map, coords, reduce, .. } => Move {
                    bytes: map.box_bytes(),
                    source_bytes: map.box_bytes(),
                    global_source: false,
                    // only the box's elements inside the tensor are combined (PTX ISA §5.5.5)
                    elements: match reduce {
                        Some(_) => (0..map.box_elements()).filter(|&i| map.element(coords, i).is_some()).count() as u64,
                        None => 0,
                    },
                    rows: map.box_rows(),
                    row_bytes: map.box_row_bytes(),
                    swizzled: map.swizzle != 0,
                    row_moves: 0,
                },
            };
            (o.seq, m)
        })
    }

    pub fn launch_cta(&mut self, slot: u16) {
        self.ops.retain(|o| o.cta != slot);
        self.arrives.retain(|a| a.thread.0 != slot);
        self.open_group.retain(|k, _| k.0 .0 != slot);
        self.waiting.retain(|r| r.cta != slot);
    }

    fn group_id(&mut self, t: Thread, bulk: bool) -> u64 {
        *self.open_group.entry((t, bulk)).or_insert(0)
    }

    fn commit(&mut self, t: Thread, bulk: bool) {
        *self.open_group.entry((t, bulk)).or_insert(0) += 1;
    }

    /// Committed groups of `t` that count as pending (from the oldest incomplete one on). With
    /// `read_only`, a bulk group is complete once its sources have been read.
    fn pending_groups(&self, t: Thread, bulk: bool, read_only: bool) -> u64 {
        let open = self.open_group.get(&(t, bulk)).copied().unwrap_or(0);
        let oldest = self
            .ops
            .iter()
            .filter(|o| !(read_only && o.data.is_some()))
            .filter_map(|o| match o.completion {
                Completion::AsyncGroup(th, g) if !bulk && th == t && g < open => Some(g),
                Completion::BulkGroup(th, g) if bulk && th == t && g < open => Some(g),
                _ => None,
            })
            .min();
        oldest.map_or(0, |g| open - g)
    }

    pub fn submit(
        &mut self,
        req: &Request,
        mem: &mut MemorySystem,
        mbar: &mut MbarrierAlu,
        out: &mut Vec<Response>,
        events: &mut Vec<TraceEvent>,
    ) {
        let _ = events;
        match req.op {
            Op::CpAsyncCommit | Op::BulkCommit => {
                for l in req.active_lanes() {
                    self.commit((req.cta, req.warp, l as u8), req.op == Op::BulkCommit);
                }
                out.push(Response::to(req, req.active_mask));
            }
            Op::CpAsyncWait | Op::BulkWait => {
                if req.op == Op::CpAsyncWait && req.imm2 == 1 {
                    for l in req.active_lanes() {
                        self.commit((req.cta, req.warp, l as u8), false);
                    }
                }
                if self.wait_satisfied(req) {
                    out.push(Response::to(req, req.active_mask));
                } else {
                    self.waiting.push(req.clone());
                }
            }
            _ => {
                let lane0 = req.first_active().unwrap_or(0);
                let built = match req.op {
                    Op::CpBulk | Op::CpReduceBulk => self.bulk_copy,
                    Op::CpBulkTensor => self.tensor_copy,
                    _ => true,
                };
                if !built {
                    return out.push(Response::error(req, ErrorCode::NotBuilt, lane0));
                }
                for lane in req.active_lanes() {
                    if let Err(e) = self.issue(req, lane, mem, mbar) {
                        return out.push(Response::error(req, e, lane));
                    }
                }
                out.push(Response::to(req, req.active_mask));
            }
        }
    }

    fn wait_satisfied(&self, req: &Request) -> bool {
        let n = if req.op == Op::CpAsyncWait && req.imm2 == 1 { 0 } else { req.imm as u64 };
        let bulk = req.op == Op::BulkWait;
        req.active_lanes()
            .all(|l| self.pending_groups((req.cta, req.warp, l as u8), bulk, bulk && req.has(flags::MOD_A)) <= n)
    }

    fn shared_dst(&self, mem: &MemorySystem, mbar: &MbarrierAlu, loc: Loc, len: u64) -> Result<(), ErrorCode> {
        check_range(mem, loc, len)?;
        if let Loc::Shared(slot, off) = loc {
            if mbar.overlaps_live(slot as u16, off, len) {
                return Err(ErrorCode::MbarrierPlainAccess);
            }
        }
        Ok(())
    }

    /// Destination CTAs of a load into shared::cluster (multicast) or shared::cta: (dst, mbar) pairs.
    fn load_targets(
        &self,
        req: &Request,
        lane: usize,
        mem: &MemorySystem,
        mbar: &MbarrierAlu,
        len: u64,
        mask: u128,
    ) -> Result<LoadTargets, ErrorCode> {
        let ops = req.lanes[lane];
        let (slot, off) = resolve_shared(req.cta, self.cluster_size, req.space, ops.addr)?;
        let (mslot, moff) = mbar.locate_in(req.cta, req.space, ops.mbar)?;
        let mut pairs = vec![(slot, off, mslot, moff)];
        if req.has(flags::MOD_B) {
            pairs.clear();
            for rank in 0..16u32 {
                if mask >> rank & 1 == 1 {
                    let s = slot_of_rank(req.cta, self.cluster_size, rank).ok_or(ErrorCode::SharedOutOfRange)?;
                    pairs.push((s, off, s, moff));
                }
            }
        }
        let mut dsts = Vec::new();
        let mut mbars = Vec::new();
        for (s, o, ms, mo) in pairs {
            self.shared_dst(mem, mbar, Loc::Shared(s, o), len)?;
            mbar.check_live(mem, ms, mo)?;
            dsts.push(Loc::Shared(s, o));
            mbars.push((ms, mo));
        }
        Ok((dsts, mbars))
    }

    fn issue(
        &mut self,
        req: &Request,
        lane: usize,
        mem: &mut MemorySystem,
        mbar: &mut MbarrierAlu,
    ) -> Result<(), ErrorCode> {
        let ops = req.lanes[lane];
        let thread = (req.cta, req.warp, lane as u8);
        let mut mbars = Vec::new();
        let (kind, completion) = match req.op {
            Op::MbCpAsyncArrive => {
                let (slot, off) = mbar.locate(req, ops.addr)?;
                mbar.check_live(mem, slot, off)?;
                if !req.has(flags::NO_INC) {
                    mbar.increment_pending_at(mem, slot, off)?;
                }
                self.arrives.push(PendingArrive { thread, tag: req.tag, after_seq: self.seq, slot, off });
                return Ok(());
            }
            Op::CpAsync => {
                let cp = req.imm as u64;
                if ![4, 8, 16].contains(&cp) || !ops.addr.is_multiple_of(cp) || !ops.src.is_multiple_of(cp) {
                    return Err(ErrorCode::CpAsyncAlign);
                }
                let ignore = ops.b & 1 == 1;
                if ops.a > cp as u128 {
                    return Err(ErrorCode::CpAsyncSrcSize);
                }
                let src_bytes = if ignore { 0 } else { ops.a as u64 };
                let dst = Loc::Shared(req.cta as usize, ops.addr);
                self.shared_dst(mem, mbar, dst, cp)?;
                if src_bytes > 0 {
                    check_range(mem, Loc::Global(ops.src), src_bytes)?;
                }
                let g = self.group_id(thread, false);
                (
                    Kind::Plain { src: Loc::Global(ops.src), dsts: vec![dst], len: cp, src_bytes, byte_mask: None },
                    Completion::AsyncGroup(thread, g),
                )
            }
            Op::CpBulk | Op::CpReduceBulk => {
                let len = ops.a as u64;
                if !len.is_multiple_of(16) || !ops.addr.is_multiple_of(16) || !ops.src.is_multiple_of(16) {
                    return Err(ErrorCode::BulkSizeAlign);
                }
                let dir = if req.op == Op::CpBulk { req.sub } else { req.imm as u8 };
                let dir = BulkDir::from_code(dir).ok_or(ErrorCode::BulkSizeAlign)?;
                let reduce = if req.op == Op::CpReduceBulk {
                    let op = AtomOp::from_code(req.sub).ok_or(ErrorCode::AtomBadType)?;
                    if dir == BulkDir::GlobalToShared
                        || !bulk_reduce_legal(op, req.dtype, dir == BulkDir::SharedToGlobal, req.has(flags::MOD_A))
                    {
                        return Err(ErrorCode::AtomBadType);
                    }
                    Some(op)
                } else {
                    None
                };
                let src_shared = Loc::Shared(req.cta as usize, ops.src);
                let (src, dsts, completion) = match dir {
                    BulkDir::GlobalToShared => {
                        let (dsts, m) = self.load_targets(req, lane, mem, mbar, len, ops.b)?;
                        mbars = m;
                        (Loc::Global(ops.src), dsts, Completion::Mbarrier)
                    }
                    BulkDir::SharedToCluster => {
                        let (slot, off) = resolve_shared(req.cta, self.cluster_size, Space::SharedCluster, ops.addr)?;
                        let (ms, mo) = mbar.locate_in(req.cta, Space::SharedCluster, ops.mbar)?;
                        mbar.check_live(mem, ms, mo)?;
                        self.shared_dst(mem, mbar, Loc::Shared(slot, off), len)?;
                        mbars.push((ms, mo));
                        (src_shared, vec![Loc::Shared(slot, off)], Completion::Mbarrier)
                    }
                    BulkDir::SharedToGlobal => {
                        check_range(mem, Loc::Global(ops.addr), len)?;
                        let g = self.group_id(thread, true);
                        (src_shared, vec![Loc::Global(ops.addr)], Completion::BulkGroup(thread, g))
                    }
                };
                check_range(mem, src, len)?;
                let kind = match reduce {
                    Some(op) => Kind::Reduce { src, dst: dsts[0], len, op, dtype: req.dtype },
                    None => {
                        let mask = (dir == BulkDir::SharedToGlobal && req.imm2 & 1 == 1).then_some(ops.c as u16);
                        Kind::Plain { src, dsts, len, src_bytes: len, byte_mask: mask }
                    }
                };
                (kind, completion)
            }
            Op::CpBulkTensor => {
                let map = TensorMap::read(mem, ops.src, req.imm)?;
                let mut coords = [0i32; 5];
                for (d, c) in coords.iter_mut().enumerate().take(4) {
                    *c = (ops.a >> (32 * d)) as u32 as i32;
                }
                coords[4] = ops.b as u32 as i32;
                let smem_len = map.box_bytes();
                let dir = BulkDir::from_code(req.sub).ok_or(ErrorCode::TensorMap)?;
                // the instruction's load mode must be the map's (tile for every store)
                let im2col = dir != BulkDir::SharedToGlobal && req.imm2 == 1;
                if im2col != map.im2col.is_some() {
                    return Err(ErrorCode::TensorMap);
                }
                if dir == BulkDir::SharedToGlobal {
                    if coords[..map.dims].iter().any(|&c| c < 0) {
                        return Err(ErrorCode::TensorNegativeStore);
                    }
                    if !ops.addr.is_multiple_of(16) {
                        return Err(ErrorCode::BulkSizeAlign);
                    }
                    let src = Loc::Shared(req.cta as usize, ops.addr);
                    check_range(mem, src, smem_len)?;
                    // a swizzled box's chunks move within their 128-byte lines, maybe past its end
                    if map.swizzle != 0 {
                        for (_, chunk) in box_chunks(&map, src) {
                            check_range(mem, chunk, 16)?;
                        }
                    }
                    let reduce = match req.imm2 {
                        0 => None,
                        code => {
                            let op = u8::try_from(code - 1)
                                .ok()
                                .and_then(AtomOp::from_code)
                                .ok_or(ErrorCode::AtomBadType)?;
                            let bitwise = matches!(op, AtomOp::And | AtomOp::Or | AtomOp::Xor);
                            let dtype = map.reduce_type(bitwise).ok_or(ErrorCode::AtomBadType)?;
                            if !tensor_reduce_legal(op, dtype) {
                                return Err(ErrorCode::AtomBadType);
                            }
                            Some((op, dtype))
                        }
                    };
                    let g = self.group_id(thread, true);
                    (Kind::TensorStore { map, coords, src, reduce }, Completion::BulkGroup(thread, g))
                } else {
                    if !ops.addr.is_multiple_of(16) {
                        return Err(ErrorCode::BulkSizeAlign);
                    }
                    let offsets = im2col.then(|| [0, 1, 2].map(|s| (ops.b >> (32 + 16 * s)) as u16));
                    if let Some(offs) = &offsets {
                        map.im2col_check(&coords, offs)?;
                    }
                    let (dsts, m) = self.load_targets(req, lane, mem, mbar, smem_len, ops.c)?;
                    // a swizzled box's chunks move within their 128-byte lines, maybe past its end
                    for &d in dsts.iter().filter(|_| map.swizzle != 0) {
                        for (_, chunk) in box_chunks(&map, d) {
                            self.shared_dst(mem, mbar, chunk, 16)?;
                        }
                    }
                    mbars = m;
                    (Kind::TensorLoad { map, coords, offsets, dsts }, Completion::Mbarrier)
                }
            }
            Op::ClcTryCancel => {
                if !ops.addr.is_multiple_of(16) {
                    return Err(ErrorCode::BulkSizeAlign);
                }
                let all_ranks = (1u128 << self.cluster_size) - 1;
                let (dsts, m) = self.load_targets(req, lane, mem, mbar, 16, all_ranks)?;
                mbars = m;
                // src_bytes = 0: the response is 16 zero bytes (failed), nothing is read
                (
                    Kind::Plain { src: Loc::Global(0), dsts, len: 16, src_bytes: 0, byte_mask: None },
                    Completion::Mbarrier,
                )
            }
            _ => return Err(ErrorCode::NotBuilt),
        };
        self.seq += 1;
        self.ops.push(AsyncOp {
            seq: self.seq,
            tag: req.tag,
            cta: req.cta,
            warp: req.warp,
            lane: lane as u8,
            kind,
            completion,
            mbars,
            data: None,
        });
        Ok(())
    }

    /// Read stage: capture the source bytes of an operation.
    fn read_stage(op: &AsyncOp, mem: &MemorySystem) -> Result<Vec<u8>, ErrorCode> {
        match &op.kind {
            Kind::Plain { src, len, src_bytes, .. } => {
                let mut data = if *src_bytes > 0 { read_loc(mem, *src, *src_bytes)? } else { Vec::new() };
                data.resize(*len as usize, 0);
                Ok(data)
            }
            Kind::Reduce { src, len, .. } => read_loc(mem, *src, *len),
            Kind::TensorLoad { map, coords, offsets, .. } => {
                let fill = if map.fill_ones { 0xFF } else { 0 };
                let mut data = Vec::with_capacity(map.box_bytes() as usize);
                for i in 0..map.box_elements() {
                    let at = match offsets {
                        Some(offs) => map.im2col_element(coords, offs, i),
                        None => map.element(coords, i),
                    };
                    match at {
                        Some(a) => data.extend(read_loc(mem, Loc::Global(a), map.elem_bytes)?),
                        None => data.extend(std::iter::repeat_n(fill, map.elem_bytes as usize)),
                    }
                }
                Ok(data)
            }
            Kind::TensorStore { map, src, .. } => {
                let mut data = Vec::with_capacity(map.box_bytes() as usize);
                for (_, chunk) in box_chunks(map, *src) {
                    data.extend(read_loc(mem, chunk, 16)?);
                }
                Ok(data)
            }
        }
    }

    /// Write stage: land the captured data; returns the bytes for complete-tx.
    fn write_stage(op: &AsyncOp, mem: &mut MemorySystem) -> Result<u64, ErrorCode> {
        let data = op.data.as_deref().unwrap_or(&[]);
        match &op.kind {
            Kind::Plain { dsts, len, byte_mask, .. } => {
                for &d in dsts {
                    let dst = slice_mut(mem, d, *len)?;
                    for (i, b) in data.iter().enumerate() {
                        if byte_mask.is_none_or(|m| m >> (i % 16) & 1 == 1) {
                            dst[i] = *b;
                        }
                    }
                }
                Ok(*len)
            }
            Kind::Reduce { dst, len, op, dtype, .. } => {
                reduce_into(slice_mut(mem, *dst, *len)?, data, *op, *dtype);
                Ok(*len)
            }
            Kind::TensorLoad { map, dsts, .. } => {
                for &d in dsts {
                    for (at, chunk) in box_chunks(map, d) {
                        slice_mut(mem, chunk, 16)?.copy_from_slice(&data[at..at + 16]);
                    }
                }
                Ok(map.box_bytes())
            }
            Kind::TensorStore { map, coords, reduce, .. } => {
                let n = map.elem_bytes;
                for i in 0..map.box_elements() {
                    if let Some(a) = map.element(coords, i) {
                        let src = &data[(i * n) as usize..((i + 1) * n) as usize];
                        let dst = slice_mut(mem, Loc::Global(a), n)?;
                        match reduce {
                            Some((op, dtype)) => reduce_into(dst, src, *op, *dtype),
                            None => dst.copy_from_slice(src),
                        }
                    }
                }
                Ok(map.box_bytes())
            }
        }
    }

    fn late_error(op_tag: u64, cta: u16, warp: u16, lane: u8, e: ErrorCode) -> Response {
        Response { tag: op_tag, cta, warp, lanes: 0, values: [0; 32], preds: 0, error: e, error_lane: lane }
    }

    pub fn tick(
        &mut self,
        mem: &mut MemorySystem,
        mbar: &mut MbarrierAlu,
        idle: bool,
        out: &mut Vec<Response>,
        events: &mut Vec<TraceEvent>,
    ) -> bool {
        loop {
            // Write stage for operations read on an earlier pass.
            let (ready, rest): (Vec<AsyncOp>, Vec<AsyncOp>) =
                std::mem::take(&mut self.ops).into_iter().partition(|o| o.data.is_some());
            self.ops = rest;
            for op in ready {
                match Self::write_stage(&op, mem) {
                    Ok(bytes) => {
                        for &(s, o) in &op.mbars {
                            if let Err(e) = mbar.complete_tx_at(mem, s, o, bytes as u32, events) {
                                out.push(Self::late_error(op.tag, op.cta, op.warp, op.lane, e));
                            }
                        }
                        let target = op.mbars.first().map(|&(_, o)| o);
                        events.push(TraceEvent::CopyDone { cta: op.cta, bytes: bytes as u32, mbar: target });
                        if let Completion::AsyncGroup(t, g) = op.completion {
                            let open = self.open_group.get(&(t, false)).copied().unwrap_or(0);
                            let more = self.ops.iter().any(|o| o.completion == op.completion);
                            if g < open && !more {
                                events.push(TraceEvent::GroupDone { cta: t.0, warp: t.1, lane: t.2 });
                            }
                        }
                    }
                    Err(e) => out.push(Self::late_error(op.tag, op.cta, op.warp, op.lane, e)),
                }
            }
            // Read stage for newly issued operations.
            let mut failed = Vec::new();
            for (i, op) in self.ops.iter_mut().enumerate() {
                if op.seq > self.gate {
                    continue;
                }
                match Self::read_stage(op, mem) {
                    Ok(d) => op.data = Some(d),
                    Err(e) => failed.push((i, Self::late_error(op.tag, op.cta, op.warp, op.lane, e))),
                }
            }
            for (i, r) in failed.into_iter().rev() {
                self.ops.remove(i);
                out.push(r);
            }
            self.fire_arrives(mem, mbar, out, events);
            if !idle || !self.ops.iter().any(|o| o.seq <= self.gate) {
                break;
            }
        }
        self.release_waits(out);
        !self.ops.is_empty() || !self.arrives.is_empty()
    }

    /// cp.async.mbarrier.arrive whose earlier cp.async have all completed.
    fn fire_arrives(
        &mut self,
        mem: &mut MemorySystem,
        mbar: &mut MbarrierAlu,
        out: &mut Vec<Response>,
        events: &mut Vec<TraceEvent>,
    ) {
        let mut i = 0;
        while i < self.arrives.len() {
            let a = &self.arrives[i];
            let blocked = self.ops.iter().any(|o| {
                (o.cta, o.warp, o.lane) == a.thread
                    && o.seq <= a.after_seq
                    && matches!(o.completion, Completion::AsyncGroup(..))
            });
            if blocked {
                i += 1;
                continue;
            }
            let a = self.arrives.remove(i);
            if let Err(e) = mbar.arrive_on_at(mem, a.slot, a.off, events) {
                out.push(Self::late_error(a.tag, a.thread.0, a.thread.1, a.thread.2, e));
            }
        }
    }

    fn release_waits(&mut self, out: &mut Vec<Response>) {
        let waiting = std::mem::take(&mut self.waiting);
        for r in waiting {
            if self.wait_satisfied(&r) {
                out.push(Response::to(&r, r.active_mask));
            } else {
                self.waiting.push(r);
            }
        }
    }

    pub fn describe_waits(&self) -> Vec<String> {
        self.waiting
            .iter()
            .map(|r| {
                let bulk = r.op == Op::BulkWait;
                let lanes: Vec<usize> = r.active_lanes().collect();
                let pending = lanes
                    .iter()
                    .map(|&l| self.pending_groups((r.cta, r.warp, l as u8), bulk, bulk && r.has(flags::MOD_A)))
                    .max()
                    .unwrap_or(0);
                let range = match (lanes.first(), lanes.last()) {
                    (Some(a), Some(b)) if a != b => format!("{a}-{b}"),
                    (Some(a), _) => format!("{a}"),
                    _ => String::new(),
                };
                let what = if r.op == Op::CpAsyncWait && r.imm2 == 1 {
                    "cp.async.wait_all".to_string()
                } else {
                    format!("{} {}", r.op.name(), r.imm)
                };
                format!("cta {} warp {} lanes {range}: {what} ({pending} groups pending)", r.cta, r.warp)
            })
            .collect()
    }
}
