//! mbarrier arithmetic unit: the golden model of PTX ISA §9.7.13.15 (the object, its phases,
//! expect-tx / complete-tx and arrive-on: §9.7.13.15.1-§9.7.13.15.8; the instructions:
//! §9.7.13.15.9-§9.7.13.15.17).
//!
//! The mbarrier object is the 64-bit word of [`encoding::mbarrier_word`] (valid bit, phase parity,
//! expected count, pending count, 21-bit signed tx-count), stored in the CTA slot's shared memory
//! exactly as the RTL keeps it in block RAM. Every operation is a read-modify-write of that word.
//!
//! Beside the word, a side table keeps what the hardware cannot see but the golden model must check:
//! * which objects are live (init'ed and not inval'ed), for the "plain access to a live mbarrier"
//!   rule ([`MbarrierAlu::overlaps_live`], used by the LSU path, the atomic ALU and the copy engine);
//! * the full phase counter, and the phase in which each thread received its latest token, so that a
//!   thread testing its own token two or more phases old is flagged (`MbStaleToken`). A token that
//!   is not the thread's latest (for instance one passed through memory) is judged by its parity only.
//!
//! Project decision (PTX ISA §9.7.13.15.6 names only arrive-on and complete-tx as completing a
//! phase; a standalone expect_tx, §9.7.13.15.11, is left open): `try_complete` is evaluated after
//! every mutation, including a standalone expect_tx.
//!
//! Waiter table: a try_wait whose phase is incomplete suspends (no response). It is answered True
//! when the phase completes, or False when it times out. The table holds `config.mbarrier_waiters`
//! suspended LANES, as the RTL's `mbarrier_alu` does (one `WaiterEntry` per lane): the lanes of a
//! try_wait that find the table full do not suspend and answer False (PTX allows try_wait to return
//! False at any time before completion); the RTL likewise allocates entries in ascending lane order
//! while one is free and answers the other lanes False at once.
//!
//! Timeouts (PTX: a suspended thread resumes when the phase completes "or the time limit expires"):
//! * when no warp can run ([`MbarrierAlu::wake_waiters`] with `timeout = true`, the executor's idle
//!   tick), every suspended try_wait answers False;
//! * a try_wait suspended for [`WAITER_TIMEOUT_TICKS`] unit ticks answers False even while other
//!   warps run. Without this, warps spinning on try_waits that found the table full keep the machine
//!   busy forever while the suspended lanes wait for a phase only the spinners' own progress (or
//!   a lane of a suspended warp) can complete: a livelock (fpga-small, `smsync fuzz --interleave`
//!   seeds 4 and 214). The untimed model counts ticks instead of time; the `suspendTimeHint`
//!   operand is accepted and ignored.

use std::collections::{BTreeMap, HashMap};

use super::space::resolve_shared;
use super::{Request, Response, TraceEvent};
use crate::config::Config;
use crate::encoding::mbarrier_word::{self, Fields, COUNT_MAX};
use crate::encoding::{flags, state_token, ErrorCode, Op};
use crate::memory::MemorySystem;

/// Bytes of one mbarrier object.
pub const OBJECT_BYTES: u64 = 8;

/// Unit ticks (executor turns) after which a suspended try_wait answers False although other
/// warps can still run: the golden model's stand-in for the hardware's suspend time limit.
pub const WAITER_TIMEOUT_TICKS: u32 = 256;

/// A thread: (CTA slot, warp, lane).
type ThreadId = (u16, u16, u8);

/// What the golden model remembers about a live object beyond its word.
#[derive(Clone, Debug, Default)]
struct LiveObject {
    /// Full phase counter (the word holds only its parity).
    phase: u64,
    /// Latest token each thread received from an arrive on this object, with its phase.
    tokens: HashMap<ThreadId, (u64, u64)>,
}

/// One lane of a suspended try_wait.
#[derive(Clone, Debug)]
struct WaitingLane {
    lane: usize,
    slot: usize,
    off: u64,
    /// The incomplete phase the lane waits on: done once the object's phase moves past it.
    phase: u64,
}

/// A suspended try_wait request.
#[derive(Clone, Debug)]
struct Waiter {
    req: Request,
    /// Lanes already known to be complete (answer True).
    done: u32,
    waiting: Vec<WaitingLane>,
    /// The word of the first waiting lane's object when last checked (for `describe_waits`).
    last_seen: Fields,
    /// Unit ticks since the request suspended.
    age: u32,
}

pub struct MbarrierAlu {
    cluster_size: u32,
    waiter_capacity: usize,
    live: Vec<BTreeMap<u64, LiveObject>>,
    waiters: Vec<Waiter>,
}

/// The outcome of one lane's operation, before it is committed.
enum LaneResult {
    /// A value for the lane's `values` slot (token, count) and its predicate.
    Value(u128, bool),
    /// try_wait on an incomplete phase: wait for `phase` to complete.
    Suspend(WaitingLane),
}

impl MbarrierAlu {
    pub fn new(config: &Config) -> Self {
        MbarrierAlu {
            cluster_size: config.cluster_size,
            waiter_capacity: config.mbarrier_waiters as usize,
            live: (0..config.cta_slots).map(|_| BTreeMap::new()).collect(),
            waiters: Vec::new(),
        }
    }

    /// A new CTA in `slot`: its objects are gone and no warp of it waits.
    pub fn launch_cta(&mut self, slot: u16) {
        if let Some(t) = self.live.get_mut(slot as usize) {
            t.clear();
        }
        self.waiters.retain(|w| w.req.cta != slot);
    }

    /// True when `[addr, addr+len)` of the slot's shared memory overlaps a live mbarrier object.
    pub fn overlaps_live(&self, cta: u16, addr: u64, len: u64) -> bool {
        let Some(table) = self.live.get(cta as usize) else { return false };
        let lo = addr.saturating_sub(OBJECT_BYTES - 1);
        let hi = addr.saturating_add(len);
        len > 0 && table.range(lo..hi).next().is_some()
    }

    /// Resolve a request lane's mbarrier address to (slot, offset), checking 8-byte alignment.
    pub fn locate(&self, req: &Request, addr: u64) -> Result<(usize, u64), ErrorCode> {
        self.locate_in(req.cta, req.space, addr)
    }

    pub fn locate_in(&self, cta: u16, space: crate::encoding::Space, addr: u64) -> Result<(usize, u64), ErrorCode> {
        let (slot, off) = resolve_shared(cta, self.cluster_size, space, addr)?;
        if off % OBJECT_BYTES != 0 {
            return Err(ErrorCode::MbAlign);
        }
        Ok((slot, off))
    }

    /// Read the word of a live object (MbNotInitialized if the object is not live).
    fn load(&self, mem: &MemorySystem, slot: usize, off: u64) -> Result<Fields, ErrorCode> {
        let word = mem.read_shared(slot, off, OBJECT_BYTES as usize)? as u64;
        let live = self.live.get(slot).is_some_and(|t| t.contains_key(&off));
        let f = mbarrier_word::unpack(word);
        if !live || !f.valid {
            return Err(ErrorCode::MbNotInitialized);
        }
        Ok(f)
    }

    fn store(mem: &mut MemorySystem, slot: usize, off: u64, f: Fields) -> Result<(), ErrorCode> {
        mem.write_shared(slot, off, OBJECT_BYTES as usize, mbarrier_word::pack(f) as u128)
    }

    /// Check that a live object is at (slot, off); used by the copy engine at issue time.
    pub fn check_live(&self, mem: &MemorySystem, slot: usize, off: u64) -> Result<(), ErrorCode> {
        self.load(mem, slot, off).map(|_| ())
    }

    /// Write back a mutated word, completing the phase if pending and tx are both zero.
    /// Returns true when the phase completed.
    fn commit(
        &mut self,
        mem: &mut MemorySystem,
        slot: usize,
        off: u64,
        mut f: Fields,
        events: &mut Vec<TraceEvent>,
    ) -> Result<bool, ErrorCode> {
        let completed = f.pending == 0 && f.tx == 0;
        if completed {
            f.parity = !f.parity;
            f.pending = f.expected;
            if let Some(obj) = self.live[slot].get_mut(&off) {
                obj.phase += 1;
            }
            events.push(TraceEvent::PhaseComplete { cta: slot as u16, addr: off, parity: f.parity });
        }
        Self::store(mem, slot, off, f)?;
        Ok(completed)
    }

    /// tx-count plus `delta`, checked against ±(2^20-1).
    fn add_tx(tx: i32, delta: i64) -> Result<i32, ErrorCode> {
        let t = tx as i64 + delta;
        if t.abs() > COUNT_MAX as i64 {
            return Err(ErrorCode::MbTxRange);
        }
        Ok(t as i32)
    }

    /// complete-tx(bytes) from an asynchronous copy (or mbarrier.complete_tx).
    pub fn complete_tx_at(
        &mut self,
        mem: &mut MemorySystem,
        slot: usize,
        off: u64,
        bytes: u32,
        events: &mut Vec<TraceEvent>,
    ) -> Result<(), ErrorCode> {
        let mut f = self.load(mem, slot, off)?;
        f.tx = Self::add_tx(f.tx, -(bytes as i64))?;
        self.commit(mem, slot, off, f, events).map(|_| ())
    }

    /// The asynchronous arrive-on(1) of cp.async.mbarrier.arrive.
    pub fn arrive_on_at(
        &mut self,
        mem: &mut MemorySystem,
        slot: usize,
        off: u64,
        events: &mut Vec<TraceEvent>,
    ) -> Result<(), ErrorCode> {
        let mut f = self.load(mem, slot, off)?;
        if f.pending == 0 {
            return Err(ErrorCode::MbPendingUnderflow);
        }
        f.pending -= 1;
        self.commit(mem, slot, off, f, events).map(|_| ())
    }

    /// The pending += 1 of cp.async.mbarrier.arrive without .noinc (at issue).
    pub fn increment_pending_at(&mut self, mem: &mut MemorySystem, slot: usize, off: u64) -> Result<(), ErrorCode> {
        let mut f = self.load(mem, slot, off)?;
        if f.pending >= COUNT_MAX {
            return Err(ErrorCode::MbPendingOverflow);
        }
        f.pending += 1;
        Self::store(mem, slot, off, f)
    }

    pub fn submit(
        &mut self,
        req: &Request,
        mem: &mut MemorySystem,
        out: &mut Vec<Response>,
        events: &mut Vec<TraceEvent>,
    ) {
        let mut resp = Response::to(req, req.active_mask);
        let mut suspended = Vec::new();
        for lane in req.active_lanes() {
            match self.lane_op(req, lane, mem, events) {
                Ok(LaneResult::Value(v, p)) => {
                    resp.values[lane] = v;
                    resp.preds |= (p as u32) << lane;
                }
                Ok(LaneResult::Suspend(w)) => suspended.push(w),
                Err(e) => {
                    out.push(Response::error(req, e, lane));
                    // Arrivals of earlier lanes may have completed phases other warps wait on.
                    self.wake_completed(mem, false, out);
                    return;
                }
            }
        }
        // One table entry per suspended lane, allocated in ascending lane order while one is free;
        // the lanes that find the table full answer False (as the RTL's waiter table does).
        suspended.truncate(self.waiter_capacity.saturating_sub(self.suspended_lanes()));
        if suspended.is_empty() {
            out.push(resp);
        } else {
            let last_seen = self.peek(mem, suspended[0].slot, suspended[0].off);
            self.waiters.push(Waiter { req: req.clone(), done: resp.preds, waiting: suspended, last_seen, age: 0 });
        }
        self.wake_completed(mem, false, out);
    }

    fn peek(&self, mem: &MemorySystem, slot: usize, off: u64) -> Fields {
        mem.read_shared(slot, off, 8).map(|w| mbarrier_word::unpack(w as u64)).unwrap_or_default()
    }

    /// One lane of one request, in ascending lane order.
    fn lane_op(
        &mut self,
        req: &Request,
        lane: usize,
        mem: &mut MemorySystem,
        events: &mut Vec<TraceEvent>,
    ) -> Result<LaneResult, ErrorCode> {
        let ops = req.lanes[lane];
        if req.op == Op::MbPendingCount {
            let t = ops.a as u64;
            if !state_token::valid(t) || !state_token::no_complete(t) {
                return Err(ErrorCode::MbPendingCountToken);
            }
            return Ok(LaneResult::Value(state_token::pending(t) as u128, false));
        }
        let (slot, off) = self.locate(req, ops.addr)?;
        match req.op {
            Op::MbInit => {
                let n = ops.a;
                if n == 0 || n > COUNT_MAX as u128 {
                    return Err(ErrorCode::MbInitCount);
                }
                // Read first so that an out-of-range address is reported before anything changes.
                mem.read_shared(slot, off, 8)?;
                if self.live[slot].contains_key(&off) {
                    return Err(ErrorCode::MbInitLive);
                }
                let f = Fields { valid: true, parity: false, expected: n as u32, pending: n as u32, tx: 0 };
                Self::store(mem, slot, off, f)?;
                self.live[slot].insert(off, LiveObject::default());
                Ok(LaneResult::Value(0, false))
            }
            Op::MbInval => {
                let f = self.load(mem, slot, off)?;
                Self::store(mem, slot, off, Fields { valid: false, ..f })?;
                self.live[slot].remove(&off);
                Ok(LaneResult::Value(0, false))
            }
            Op::MbArrive | Op::MbArriveDrop => {
                let mut f = self.load(mem, slot, off)?;
                let count = if req.has(flags::EXPECT_TX) { 1 } else { ops.a };
                if count == 0 || count > COUNT_MAX as u128 {
                    return Err(ErrorCode::MbArriveCount);
                }
                let count = count as u32;
                if req.has(flags::EXPECT_TX) {
                    f.tx = Self::add_tx(f.tx, ops.b as u32 as i64)?;
                }
                if req.op == Op::MbArriveDrop {
                    // expected must stay >= 1 (it is the pending count of every later phase).
                    if count >= f.expected {
                        return Err(ErrorCode::MbExpectedUnderflow);
                    }
                    f.expected -= count;
                }
                if count > f.pending {
                    return Err(ErrorCode::MbPendingUnderflow);
                }
                let no_complete = req.has(flags::NO_COMPLETE);
                let token = state_token::pack(f.pending, no_complete, f.parity);
                f.pending -= count;
                if no_complete && f.pending == 0 && f.tx == 0 {
                    return Err(ErrorCode::MbNoCompleteCompleted);
                }
                let phase_before = self.live[slot][&off].phase;
                self.live[slot]
                    .get_mut(&off)
                    .unwrap()
                    .tokens
                    .insert((req.cta, req.warp, lane as u8), (token, phase_before));
                self.commit(mem, slot, off, f, events)?;
                Ok(LaneResult::Value(token as u128, false))
            }
            Op::MbExpectTx | Op::MbCompleteTx => {
                let mut f = self.load(mem, slot, off)?;
                let k = ops.a as u32 as i64;
                f.tx = Self::add_tx(f.tx, if req.op == Op::MbExpectTx { k } else { -k })?;
                self.commit(mem, slot, off, f, events)?;
                Ok(LaneResult::Value(0, false))
            }
            Op::MbTestWait | Op::MbTryWait => {
                let f = self.load(mem, slot, off)?;
                let phase = self.live[slot][&off].phase;
                let complete = if req.has(flags::PARITY) {
                    if ops.a > 1 {
                        return Err(ErrorCode::MbParityRange);
                    }
                    (ops.a == 1) != f.parity
                } else {
                    let t = ops.a as u64;
                    if !state_token::valid(t) {
                        return Err(ErrorCode::MbStaleToken);
                    }
                    match self.live[slot][&off].tokens.get(&(req.cta, req.warp, lane as u8)) {
                        // The thread's own latest token: its phase is known exactly.
                        Some(&(own, token_phase)) if own == t => {
                            if token_phase == phase {
                                false
                            } else if token_phase + 1 == phase {
                                true
                            } else {
                                return Err(ErrorCode::MbStaleToken);
                            }
                        }
                        _ => state_token::parity(t) != f.parity,
                    }
                };
                if complete || req.op == Op::MbTestWait {
                    Ok(LaneResult::Value(0, complete))
                } else {
                    Ok(LaneResult::Suspend(WaitingLane { lane, slot, off, phase }))
                }
            }
            _ => Err(ErrorCode::NotBuilt),
        }
    }

    /// One unit tick: answer suspended try_waits whose phases completed (True); with `timeout`
    /// (no warp can run) every other suspended try_wait, and in any case those suspended for
    /// [`WAITER_TIMEOUT_TICKS`] ticks, answer False for their incomplete lanes. An object
    /// invalidated while a lane waits on it answers False.
    pub fn wake_waiters(&mut self, mem: &mut MemorySystem, timeout: bool, out: &mut Vec<Response>) {
        for w in &mut self.waiters {
            w.age = w.age.saturating_add(1);
        }
        self.wake_completed(mem, timeout, out);
    }

    /// Lanes suspended in the waiter table (each holds one entry).
    fn suspended_lanes(&self) -> usize {
        self.waiters.iter().map(|w| w.waiting.len()).sum()
    }

    /// Answer suspended try_waits whose phases completed, or (`timeout`) all, or those that
    /// have waited [`WAITER_TIMEOUT_TICKS`] ticks; without advancing time.
    fn wake_completed(&mut self, mem: &mut MemorySystem, timeout: bool, out: &mut Vec<Response>) {
        let mut i = 0;
        while i < self.waiters.len() {
            let live = &self.live;
            let w = &mut self.waiters[i];
            w.waiting.retain(|l| match live.get(l.slot).and_then(|t| t.get(&l.off)) {
                Some(obj) if obj.phase > l.phase => {
                    w.done |= 1 << l.lane;
                    false
                }
                Some(_) => true,
                None => false,
            });
            if let Some(first) = w.waiting.first() {
                w.last_seen = mem
                    .read_shared(first.slot, first.off, 8)
                    .map(|x| mbarrier_word::unpack(x as u64))
                    .unwrap_or_default();
            }
            if w.waiting.is_empty() || timeout || w.age >= WAITER_TIMEOUT_TICKS {
                let w = self.waiters.remove(i);
                let mut r = Response::to(&w.req, w.req.active_mask);
                r.preds = w.done;
                out.push(r);
            } else {
                i += 1;
            }
        }
    }

    pub fn describe_waits(&self) -> Vec<String> {
        self.waiters
            .iter()
            .map(|w| {
                let l = &w.waiting[0];
                format!(
                    "cta {} warp {}: mbarrier.try_wait [0x{:x}] phase {} incomplete (pending {}, tx {}){}",
                    w.req.cta,
                    w.req.warp,
                    l.off,
                    l.phase,
                    w.last_seen.pending,
                    w.last_seen.tx,
                    if w.waiting.len() > 1 {
                        format!(" and {} more lanes", w.waiting.len() - 1)
                    } else {
                        String::new()
                    }
                )
            })
            .collect()
    }

    /// Number of suspended try_wait requests (for tests and the waiter-table sizing report).
    pub fn suspended(&self) -> usize {
        self.waiters.len()
    }

    /// Number of suspended try_wait lanes (table entries in use; at most `mbarrier_waiters`).
    pub fn suspended_entries(&self) -> usize {
        self.suspended_lanes()
    }
}
