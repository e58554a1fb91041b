//! The golden units with time: the sync unit's fast timing back end for the SM timing model
//! (`exec::timed`, `smsync run --timing`).
//!
//! Every request is executed by the golden units ([`GoldenUnits`]) when the SM issues it, so
//! results, errors and the order in which concurrent requests take effect are the golden model's
//! (the SM's issue order). What this layer adds is **when** each answer reaches its warp: each
//! unit is a server that takes one request at a time for an occupancy of some cycles (from the
//! config: lanes per step, beats per request), requests queue behind it, and the answer leaves
//! a fixed latency (`config.timing`) after the request's last cycle in the unit. Answers made
//! later by the golden units (a barrier's release, a suspended try_wait woken by a copy's
//! complete_tx, a wait_group whose copies landed) leave the unit's latency after they were made.
//!
//! Asynchronous copies move their bytes through one `copy_port_bytes`-wide port in issue order;
//! an operation's data is read and written (and its complete_tx fires) `copy_latency` cycles
//! after its last beat: the golden copy engine's [`gate`](crate::units::copy_engine::CopyEngine::gate)
//! holds it until then.
//!
//! The model of each unit follows the RTL's microarchitecture as configured (one mbarrier and
//! one LSU lane per cycle, one 16-byte line per atomic step of `atomic_lanes` lanes,
//! `32 / lanes_per_beat` operand beats into the warp network); docs/TIMING.md describes it.
//!
//! That is the `timing.model: h100` profile (the default). With `timing.model: rtl` the answer
//! times are instead those of the generated RTL top as the timed cosim drives it ([`rtl`]).

mod rtl;
mod rtl_costs;

use crate::config::{Config, MatchImpl, TimingModel};
use crate::encoding::{Op, Space, Unit};
use crate::memory::MemorySystem;
use crate::units::{BackendFailure, GoldenUnits, Request, Response, SyncUnit, TraceEvent};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

/// One unit's load over a timed run.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct UnitTiming {
    pub unit: String,
    /// Requests the unit took.
    pub requests: u64,
    /// Cycles the unit was occupied by a request (its throughput limit).
    pub busy_cycles: u64,
    /// Cycles requests waited for the unit to be free (summed over requests).
    pub queue_cycles: u64,
}

fn unit_index(u: Unit) -> usize {
    Unit::ALL.iter().position(|&x| x == u).expect("Unit::ALL lists every unit")
}

/// The golden units behind a per-unit occupancy and latency model.
pub struct TimedUnits {
    inner: GoldenUnits,
    cfg: Config,
    now: u64,
    /// First cycle each unit (indexed as `Unit::ALL`) is free.
    free_at: [u64; 6],
    stats: Vec<UnitTiming>,
    /// Answers held until their cycle: (cycle, order of scheduling) -> `held`.
    due: BinaryHeap<Reverse<(u64, u64)>>,
    held: HashMap<u64, Response>,
    order: u64,
    /// Requests not answered at once, by tag: the unit whose latency their later answer takes.
    waiting: HashMap<u64, Unit>,
    /// The copy port: first free cycle, and each scheduled operation's (number, cycle it lands).
    copy_port_free: u64,
    copy_landing: VecDeque<(u64, u64)>,
    copy_scheduled: u64,
    /// `timing.model: rtl`: the top's port, queue, core and copy engine.
    rtl: Option<rtl::RtlTop>,
}

impl TimedUnits {
    pub fn new(config: &Config) -> TimedUnits {
        let mut inner = GoldenUnits::new(config);
        inner.copy.gate = 0;
        TimedUnits {
            inner,
            cfg: config.clone(),
            now: 0,
            free_at: [0; 6],
            stats: Unit::ALL.iter().map(|u| UnitTiming { unit: u.name().into(), ..Default::default() }).collect(),
            due: BinaryHeap::new(),
            held: HashMap::new(),
            order: 0,
            waiting: HashMap::new(),
            copy_port_free: 0,
            copy_landing: VecDeque::new(),
            copy_scheduled: 0,
            rtl: (config.timing.model == TimingModel::Rtl).then(rtl::RtlTop::default),
        }
    }

    pub fn enable_trace(&mut self) {
        self.inner.enable_trace();
    }

    /// Each unit's load so far (with `timing.model: rtl`: the core's cycles per unit and the
    /// cycles its requests waited for the core).
    pub fn unit_stats(&self) -> Vec<UnitTiming> {
        let mut s = self.stats.clone();
        if let Some(top) = &self.rtl {
            for (i, u) in s.iter_mut().enumerate() {
                u.busy_cycles = top.busy[i];
                u.queue_cycles = top.queued[i];
            }
        }
        s
    }

    /// `timing.model: rtl`: `req` (answered `made` by the golden units) through the top's model.
    fn submit_rtl(&mut self, req: &Request, made: Vec<Response>) {
        let seen = self.copy_scheduled;
        let moves: Vec<_> = self.inner.copy.queued_moves().filter(|&(s, _)| s > seen).collect();
        if let Some(&(last, _)) = moves.last() {
            self.copy_scheduled = last;
        }
        self.stats[unit_index(req.op.unit())].requests += 1;
        if !made.iter().any(|r| r.tag == req.tag && r.lanes == req.active_mask) {
            self.waiting.insert(req.tag, req.op.unit());
        }
        let p = rtl::Pending { req: req.clone(), issued: self.now, made, header: None, moves };
        let mut timed = Vec::new();
        let top = self.rtl.as_mut().expect("the RTL profile");
        top.submit(&self.cfg, p, &mut timed);
        self.absorb_rtl(timed);
    }

    /// Hold the RTL model's timed answers and take its copy landings.
    fn absorb_rtl(&mut self, timed: Vec<rtl::Timed>) {
        for (at, r) in timed {
            self.hold(at, r);
        }
        let top = self.rtl.as_mut().expect("the RTL profile");
        self.copy_landing.extend(top.landings.drain(..));
    }

    /// `timing.model: rtl`: an answer the golden units made later, at `self.now`.
    fn later_rtl(&mut self, r: Response) {
        let now = self.now;
        let top = self.rtl.as_mut().expect("the RTL profile");
        if top.blocked_on(r.tag) {
            let mut timed = Vec::new();
            top.unblock(&self.cfg, now, r, &mut timed);
            self.absorb_rtl(timed);
        } else if top.holds(r.tag) {
            top.add_made(r);
        } else {
            let latency = match self.waiting.get(&r.tag) {
                Some(Unit::MbarrierAlu) => rtl_costs::k::WAKE,
                Some(Unit::BarrierFile) => rtl_costs::k::RELEASE_WALK,
                Some(Unit::WarpNetwork) => rtl_costs::beats(&self.cfg),
                Some(_) => 1,
                None => 0,
            };
            self.hold(now + latency, r);
        }
    }

    /// Cycles `req` occupies its unit, and its latency after that.
    fn cost(&self, req: &Request) -> (u64, u64) {
        let t = &self.cfg.timing;
        let lanes = (req.active_mask.count_ones() as u64).max(1);
        match req.op.unit() {
            Unit::BarrierFile => (1, t.barrier_latency as u64),
            Unit::MbarrierAlu => (lanes, t.mbarrier_latency as u64),
            Unit::AtomicAlu => {
                let lat = if req.space == Space::Global { t.atomic_global_latency } else { t.atomic_latency };
                (self.atomic_steps(req), lat as u64)
            }
            Unit::WarpNetwork => {
                let beats = 32 / self.cfg.lanes_per_beat as u64;
                let occ = match req.op {
                    Op::ElectSync | Op::Activemask | Op::WarpSync => 1,
                    Op::MatchAny if self.cfg.match_impl == MatchImpl::Iterative => beats + 32,
                    _ => beats,
                };
                (occ, t.warp_network_latency as u64)
            }
            // One lane op per cycle into the engine's queue; the issue is answered at once (the
            // bytes move behind it, see `schedule_copies`).
            Unit::CopyEngine => (lanes, 1),
            Unit::Lsu => (lanes, t.shared_latency as u64),
        }
    }

    /// Atomic ALU steps: one 16-byte line per step, up to `atomic_lanes` of its lanes at once.
    fn atomic_steps(&self, req: &Request) -> u64 {
        let mut lines: Vec<(u64, u64)> = Vec::new();
        for l in req.active_lanes() {
            let line = req.lanes[l].addr >> 4;
            match lines.iter_mut().find(|(a, _)| *a == line) {
                Some((_, n)) => *n += 1,
                None => lines.push((line, 1)),
            }
        }
        let per = self.cfg.atomic_lanes as u64;
        lines.iter().map(|(_, n)| n.div_ceil(per)).sum::<u64>().max(1)
    }

    fn hold(&mut self, cycle: u64, r: Response) {
        self.order += 1;
        self.due.push(Reverse((cycle, self.order)));
        self.held.insert(self.order, r);
    }

    /// Give the copy operations made since the last call their place on the port.
    fn schedule_copies(&mut self, from: u64) {
        let port = self.cfg.copy_port_bytes as u64;
        let lat = self.cfg.timing.copy_latency as u64;
        let new: Vec<(u64, u64)> = self.inner.copy.queued().filter(|&(s, _)| s > self.copy_scheduled).collect();
        for (seq, bytes) in new {
            let begin = self.copy_port_free.max(from);
            self.copy_port_free = begin + bytes.div_ceil(port).max(1);
            self.copy_landing.push_back((seq, self.copy_port_free + lat));
            self.copy_scheduled = seq;
        }
    }

    /// Let the copy operations whose bytes have landed be read and written.
    fn open_copy_gate(&mut self) {
        while let Some(&(seq, at)) = self.copy_landing.front() {
            if at > self.now {
                break;
            }
            self.inner.copy.gate = seq;
            self.copy_landing.pop_front();
        }
    }

    fn release_due(&mut self, out: &mut Vec<Response>) {
        while let Some(&Reverse((cycle, order))) = self.due.peek() {
            if cycle > self.now {
                break;
            }
            self.due.pop();
            let r = self.held.remove(&order).expect("every due entry holds a response");
            self.waiting.remove(&r.tag);
            out.push(r);
        }
    }
}

impl SyncUnit for TimedUnits {
    fn launch_cta(&mut self, slot: u16, warps: u16, threads: u32) {
        self.inner.launch_cta(slot, warps, threads);
    }

    fn submit(&mut self, req: &Request, mem: &mut MemorySystem, _out: &mut Vec<Response>) {
        let mut made = Vec::new();
        self.inner.submit(req, mem, &mut made);
        if self.rtl.is_some() {
            return self.submit_rtl(req, made);
        }
        let u = unit_index(req.op.unit());
        let (occupancy, latency) = self.cost(req);
        let start = self.now.max(self.free_at[u]);
        self.free_at[u] = start + occupancy;
        let s = &mut self.stats[u];
        s.requests += 1;
        s.busy_cycles += occupancy;
        s.queue_cycles += start - self.now;
        self.schedule_copies(start + occupancy);
        if !made.iter().any(|r| r.tag == req.tag && r.lanes == req.active_mask) {
            self.waiting.insert(req.tag, req.op.unit());
        }
        for r in made {
            self.hold(start + occupancy + latency, r);
        }
    }

    fn tick(&mut self, mem: &mut MemorySystem, idle: bool, out: &mut Vec<Response>) -> bool {
        self.open_copy_gate();
        let mut made = Vec::new();
        let held = self.rtl.as_ref().is_some_and(|t| t.busy_with_requests());
        let quiet = idle && self.due.is_empty() && self.copy_landing.is_empty() && !held;
        let busy = self.inner.tick(mem, quiet, &mut made);
        if self.rtl.is_some() {
            for r in made {
                self.later_rtl(r);
            }
            self.release_due(out);
            let held = self.rtl.as_ref().is_some_and(|t| t.busy_with_requests());
            return busy || held || !self.due.is_empty() || !self.copy_landing.is_empty();
        }
        for r in made {
            let latency = match self.waiting.get(&r.tag) {
                Some(&u) => self.cost_latency(u),
                None => 0, // a late error: the copy's own tag, reported as it happens
            };
            self.hold(self.now + latency, r);
        }
        self.release_due(out);
        busy || !self.due.is_empty() || !self.copy_landing.is_empty()
    }

    fn describe_waits(&self) -> Vec<String> {
        self.inner.describe_waits()
    }

    fn take_trace(&mut self) -> Vec<TraceEvent> {
        self.inner.take_trace()
    }

    fn failure(&self) -> Option<BackendFailure> {
        None
    }

    fn set_time(&mut self, cycle: u64) {
        self.now = cycle;
    }

    fn next_event(&self) -> Option<u64> {
        let due = self.due.peek().map(|Reverse((c, _))| *c);
        let copy = self.copy_landing.front().map(|&(_, c)| c);
        match (due, copy) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn unit_timing(&self) -> Vec<UnitTiming> {
        self.unit_stats()
    }
}

impl TimedUnits {
    /// The latency of a later answer from unit `u` (a release, a wake-up, a group done).
    fn cost_latency(&self, u: Unit) -> u64 {
        let t = &self.cfg.timing;
        match u {
            Unit::BarrierFile => t.barrier_latency,
            Unit::MbarrierAlu => t.mbarrier_latency,
            Unit::AtomicAlu => t.atomic_latency,
            Unit::WarpNetwork => t.warp_network_latency,
            Unit::CopyEngine => 1,
            Unit::Lsu => t.shared_latency,
        }
        .into()
    }
}
