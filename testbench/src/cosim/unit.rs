//! [`CosimUnit`]: a [`SyncUnit`] that drives the golden model and the Verilated RTL with the same
//! requests, compares their responses by tag, and hands the RTL's responses to the executor.
//!
//! Order of events for one request (`submit`):
//! 1. the executor's plain global stores since the last call are replayed into the RTL's mirror
//!    of global memory (the `MemorySystem` write journal);
//! 2. the golden model finishes its in-flight asynchronous work (`tick(idle = true)`: copies land
//!    at once), then takes the request: it is always at least as far as the RTL, which is what
//!    makes an RTL poll answer checkable;
//! 3. the RTL takes the request (its header, then its lane operands in beats) and runs a few cycles;
//! 4. every RTL response is matched with the golden response of the same tag and compared
//!    (`compare.rs`), then given to the executor. A golden answer may come first (normal: the RTL
//!    is slower); an RTL answer whose golden answer is missing waits for it (checked on every
//!    tick). The first difference is kept in `failure`, which the executor reads
//!    ([`SyncUnit::failure`]) and turns into an error naming the instruction; the offending
//!    response is withheld so the request is still pending there.

use super::compare::{compare_responses, describe_request, describe_response, is_poll, same_address_lanes};
use super::report::UnitCounts;
use super::rtl::RtlBackend;
use smsync_sim::config::Config;
use smsync_sim::encoding::{Op, Unit};
use smsync_sim::memory::MemorySystem;
use smsync_sim::timing::UnitTiming;
use smsync_sim::units::{BackendFailure, GoldenUnits, Request, Response, SyncUnit};
use std::collections::{HashMap, VecDeque};

/// Cycles the RTL runs per executor tick while warps can still run (time passing between
/// scheduler turns).
pub const CYCLES_PER_TICK: u32 = 4;
/// Cycles the RTL may run in one idle tick to finish in-flight work before it counts as stuck.
pub const IDLE_CYCLE_BUDGET: u32 = 20_000;
/// Tags at or above this are the cosim's own golden re-queries (never the executor's).
const REQUERY_TAG: u64 = 1 << 63;
/// Answered copy-engine requests kept for their late errors (the newest this many).
const RETIRED_COPIES: usize = 1024;

/// A request with its answers so far.
struct InFlight {
    req: Request,
    /// Lanes the RTL answered so far.
    rtl_lanes: u32,
}

pub struct CosimUnit {
    pub golden: GoldenUnits,
    pub rtl: RtlBackend,
    /// The RTL's view of global memory (its global port is served from here).
    pub mirror: MemorySystem,
    mirror_ready: bool,
    inflight: HashMap<u64, InFlight>,
    /// Answered copy-engine requests, newest last: a late error of an op's mbarrier events (the
    /// golden `copy_engine::late_error`, a response with no lanes) may come after the answer.
    retired_copies: VecDeque<Request>,
    /// Answered try_waits, newest last (the newest `RETIRED_COPIES`): the top answers a try_wait
    /// with its own response (the lanes it answers at once, possibly none) and wakes the others
    /// on its `wake_*` port; with the egress busy the wakes may come first, so the own response
    /// of a fully woken try_wait can arrive after it was answered.
    retired_polls: VecDeque<u64>,
    /// Golden answers not yet matched with an RTL answer, by tag, in arrival order.
    golden_answers: HashMap<u64, Vec<Response>>,
    /// RTL answers (already given to the executor) whose golden answer had not come yet.
    rtl_early: Vec<Response>,
    failure: Option<BackendFailure>,
    /// RTL cycle of the first cycle of this run (the model may come from the pool).
    pub start_cycle: u64,
    pub counts: UnitCounts,
    requery: u64,
    /// RTL cycle limit of the run (0 = none; see `super::run_cosim_bounded`).
    pub max_cycles: u64,
    /// Timed cosim (`smsync cosim --timing`): the SM timing model drives the run; requests
    /// queue for the top's port when they issue and the top is clocked one cycle per SM cycle
    /// (see [`CosimUnit::timed`]).
    timed: bool,
    /// Timed: the SM's cycle (`set_time`), and whether the top was busy after the last call.
    sm_now: u64,
    rtl_busy: bool,
    /// Timed: per unit (as `Unit::ALL`), the requests the top took, the cycles it held them and
    /// the cycles they queued for its port.
    unit_stats: Vec<UnitTiming>,
    /// Timed: answers the top gave in a CTA launch's cycle (taken at the next tick).
    launch_answers: Vec<Response>,
}

impl CosimUnit {
    pub fn new(config: &Config, rtl: RtlBackend) -> CosimUnit {
        let start_cycle = rtl.cycle();
        CosimUnit {
            golden: GoldenUnits::new(config),
            rtl,
            mirror: MemorySystem::default(),
            mirror_ready: false,
            inflight: HashMap::new(),
            retired_copies: VecDeque::new(),
            retired_polls: VecDeque::new(),
            golden_answers: HashMap::new(),
            rtl_early: Vec::new(),
            failure: None,
            start_cycle,
            counts: UnitCounts::default(),
            requery: REQUERY_TAG,
            max_cycles: 0,
            timed: false,
            sm_now: 0,
            rtl_busy: false,
            unit_stats: Unit::ALL.iter().map(|u| UnitTiming { unit: u.name().into(), ..Default::default() }).collect(),
            launch_answers: Vec::new(),
        }
    }

    /// The timed cosim's RTL back end (issue 19's back end (a)): the SM timing model
    /// (`exec::timed`) issues requests, and each goes into a queue for the top's request port
    /// at the cycle it issues (`submit` no longer clocks the top until it is idle). Every SM
    /// cycle clocks the top once (`tick` catches it up to the SM's cycle), so the top takes
    /// requests while earlier ones are still in its units as far as its port allows, and each
    /// answer reaches its warp the cycle it leaves the top. The golden model still takes each
    /// request when it issues and every answer is compared as in the untimed cosim.
    pub fn timed(mut self) -> CosimUnit {
        self.timed = true;
        self
    }

    /// The top's clock in SM cycles (cycle 0 = the run's first).
    fn rtl_now(&self) -> u64 {
        self.cycles()
    }

    /// Timed: a request the top has not taken for `READY_TIMEOUT` cycles is a hang (in the
    /// untimed cosim `RtlSyncUnit::submit` reports the same). The top's queue full of requests
    /// that wait for one not yet in it is a head-of-line deadlock: named as such, with the last
    /// requests it took.
    fn check_port_hang(&mut self) {
        let Some((req, waited)) = self.rtl.on_port() else { return };
        if waited < crate::rtl_unit::READY_TIMEOUT as u64 {
            return;
        }
        let mut waits = self.describe_waits();
        waits.retain(|w| w.starts_with("RTL:"));
        waits.truncate(12);
        let held: Vec<String> = self
            .rtl
            .recent_taken()
            .into_iter()
            .map(|(tag, cycles)| match self.inflight.get(&tag) {
                Some(f) => format!(
                    "{} (tag {tag}) of CTA slot {} warp {}, taken {cycles} cycles ago",
                    f.req.op.name(),
                    f.req.cta,
                    f.req.warp
                ),
                None => format!("tag {tag} (answered), taken {cycles} cycles ago"),
            })
            .collect();
        let held = if held.is_empty() {
            "it has taken no request (the port itself is not ready)".to_string()
        } else {
            format!("the last requests it took: {}", held.join("; "))
        };
        self.fail(
            Some(req.tag),
            format!(
                "the top has not taken {} (tag {}) of CTA slot {} warp {} for {waited} cycles: {held}. Its request queue is full of requests that wait for one not yet in it (a head-of-line deadlock; more entries, requests_in_flight, may resolve it)\n  not answered by the RTL: {}",
                req.op.name(),
                req.tag,
                req.cta,
                req.warp,
                if waits.is_empty() { "nothing".to_string() } else { waits.join("\n                           ") }
            ),
        );
    }

    /// Fold the top's per-request records into the statistics (and keep the untimed counts).
    fn collect_taken(&mut self) {
        for t in self.rtl.take_taken() {
            let i = Unit::ALL.iter().position(|&u| u == t.op.unit()).unwrap_or(0);
            let s = &mut self.unit_stats[i];
            s.requests += 1;
            s.busy_cycles += t.held;
            s.queue_cycles += t.queued;
            if self.timed {
                self.counts.add_cycles(t.op.unit(), t.held);
            }
        }
    }

    /// RTL cycles of this run so far.
    pub fn cycles(&self) -> u64 {
        self.rtl.cycle() - self.start_cycle
    }

    /// Whether the RTL was ever asked anything (before that, the mirror is not set up and the
    /// RTL cannot have changed global memory).
    pub fn mirror_ready(&self) -> bool {
        self.mirror_ready
    }

    pub fn failed(&self) -> bool {
        self.failure.is_some()
    }

    fn fail(&mut self, tag: Option<u64>, what: String) {
        if self.failure.is_some() {
            return;
        }
        let mut message = format!("cosim divergence at RTL cycle {}: {what}", self.cycles());
        if let Some(f) = tag.and_then(|t| self.inflight.get(&t)) {
            message.push_str(&format!("\n  request: {}", describe_request(&f.req)));
        }
        self.failure = Some(BackendFailure { tag, message });
    }

    /// Fail once the run has used its RTL cycle budget (a livelock, or a top that stays busy).
    fn check_cycle_limit(&mut self) -> bool {
        if self.max_cycles == 0 || self.cycles() < self.max_cycles {
            return false;
        }
        let mut waits = self.describe_waits();
        waits.truncate(12);
        // Name the oldest request the RTL has not fully answered (the executor reports its
        // instruction).
        let oldest = self
            .inflight
            .values()
            .filter(|f| f.rtl_lanes & f.req.active_mask != f.req.active_mask)
            .map(|f| f.req.tag)
            .min();
        self.fail(
            oldest,
            format!(
                "RTL cycle limit of {} cycles reached (a livelock, or a top that never goes idle; see run_cosim_bounded)\n  waiting: {}",
                self.max_cycles,
                if waits.is_empty() { "nothing".to_string() } else { waits.join("\n           ") }
            ),
        );
        true
    }

    /// Replay the executor's plain global stores into the mirror (first call: copy everything
    /// and start the journal).
    fn sync_mirror(&mut self, mem: &mut MemorySystem) {
        if !self.mirror_ready {
            self.mirror.global = mem.global.clone();
            mem.global_journal = Some(Vec::new());
            self.mirror_ready = true;
            return;
        }
        if let Some(j) = &mut mem.global_journal {
            for w in j.drain(..) {
                let _ = self.mirror.write_global(w.addr, w.len, w.value);
            }
        }
    }

    fn record_golden(&mut self, out: Vec<Response>) {
        for r in out {
            self.golden_answers.entry(r.tag).or_default().push(r);
        }
        // RTL answers that were waiting for their golden twin.
        if !self.rtl_early.is_empty() {
            let early = std::mem::take(&mut self.rtl_early);
            for r in early {
                if self.golden_index(&r).is_some() {
                    self.check_pair(&r);
                } else {
                    self.rtl_early.push(r);
                }
            }
        }
    }

    /// The golden answer an RTL answer pairs with: the first of its tag of the same kind. A late
    /// error pairs with a late error: the RTL may send one before the warp's own answer (a
    /// lane's copy can fail before a later lane is issued), the golden model always after.
    fn golden_index(&self, r: &Response) -> Option<usize> {
        self.golden_answers.get(&r.tag)?.iter().position(|g| is_late(g) == is_late(r))
    }

    /// Compare an RTL answer with its golden answer (`golden_index`, which must exist).
    fn check_pair(&mut self, r: &Response) -> bool {
        let g = {
            let i = self.golden_index(r).expect("caller checked");
            let v = self.golden_answers.get_mut(&r.tag).expect("caller checked");
            let g = v.remove(i);
            if v.is_empty() {
                self.golden_answers.remove(&r.tag);
            }
            g
        };
        let req = &self.inflight[&r.tag].req;
        if let Err(diffs) = compare_responses(req, &g, r) {
            let what = format!(
                "{} of CTA slot {} warp {} answered differently\n  expected (golden): {}\n  actual (RTL):     {}\n{diffs}",
                req.op.name(),
                req.cta,
                req.warp,
                describe_response(&g),
                describe_response(r)
            );
            self.fail(Some(r.tag), what);
            return false;
        }
        true
    }

    /// A poll (test_wait / try_wait) answered by the RTL: a False lane is always legal (the phase
    /// may not have completed yet, or the wait timed out); a True lane must be justified by the
    /// golden state now (the golden model is never behind the RTL); the error must be the
    /// golden's (a stale token, a parity out of range are errors whenever asked).
    fn check_poll(&mut self, r: &Response, mem: &mut MemorySystem) -> bool {
        let req = self.inflight[&r.tag].req.clone();
        let first_golden = self.golden_answers.remove(&r.tag).and_then(|mut v| (!v.is_empty()).then(|| v.remove(0)));
        if let Some(g) = &first_golden {
            if g.error != r.error || (g.error != smsync_sim::encoding::ErrorCode::None && g.error_lane != r.error_lane)
            {
                let what = format!(
                    "{} of CTA slot {} warp {}: error differs\n  expected (golden): {}\n  actual (RTL):     {}",
                    req.op.name(),
                    req.cta,
                    req.warp,
                    describe_response(g),
                    describe_response(r)
                );
                self.fail(Some(r.tag), what);
                return false;
            }
        }
        if r.error != smsync_sim::encoding::ErrorCode::None {
            return true;
        }
        let claimed = r.preds & r.lanes;
        let justified = first_golden.as_ref().map_or(0, |g| g.preds & g.lanes);
        let unjustified = claimed & !justified;
        if unjustified == 0 {
            return true;
        }
        // Ask the golden model again (its state may have moved on since the request). First let
        // it finish the asynchronous work it holds: the request being processed may have started
        // copies whose arrive-on / complete_tx the RTL has already applied (the RTL finishes them
        // within the same request; the golden model would only at its next tick), and the golden
        // model must not be behind the RTL when it judges the RTL's True.
        let mut g = Vec::new();
        self.golden.tick(mem, true, &mut g);
        self.record_golden(g);
        let mut q = req.clone();
        q.op = Op::MbTestWait;
        q.tag = self.requery;
        self.requery += 1;
        q.active_mask = unjustified;
        let mut out = Vec::new();
        self.golden.submit(&q, mem, &mut out);
        let now = out
            .iter()
            .filter(|a| a.error == smsync_sim::encoding::ErrorCode::None)
            .fold(0u32, |m, a| m | (a.preds & a.lanes));
        // A stale-token error on the re-query means the phase moved on twice since: completed.
        let stale = out.iter().any(|a| a.error == smsync_sim::encoding::ErrorCode::MbStaleToken);
        if unjustified & !now != 0 && !stale {
            let what = format!(
                "{} of CTA slot {} warp {}: the RTL says the phase completed for lanes {:#010x}, the golden mbarrier state says it did not\n  actual (RTL): {}",
                req.op.name(),
                req.cta,
                req.warp,
                unjustified & !now,
                describe_response(r)
            );
            self.fail(Some(r.tag), what);
            return false;
        }
        true
    }

    /// Match, compare and forward the RTL's answers.
    fn take_rtl(&mut self, rtl_out: Vec<Response>, mem: &mut MemorySystem, out: &mut Vec<Response>) {
        for r in rtl_out {
            if self.failure.is_some() {
                return;
            }
            self.reopen_for_late_error(&r);
            if r.lanes == 0 && r.error == smsync_sim::encoding::ErrorCode::None && self.retired_polls.contains(&r.tag) {
                continue; // a woken try_wait's own empty response, after its wakes
            }
            let Some(f) = self.inflight.get_mut(&r.tag) else {
                self.fail(
                    None,
                    format!(
                        "the RTL answered tag {} that no request in flight carries: {}",
                        r.tag,
                        describe_response(&r)
                    ),
                );
                return;
            };
            f.rtl_lanes |= r.lanes;
            self.counts.responses += 1;
            let poll = is_poll(f.req.op);
            let ok = if poll {
                self.check_poll(&r, mem)
            } else if self.golden_index(&r).is_some() {
                self.check_pair(&r)
            } else {
                // The golden model has not answered yet (a wait it has not satisfied): compare
                // when it does; the executor goes on with the RTL's answer meanwhile.
                self.rtl_early.push(r.clone());
                true
            };
            if !ok {
                return;
            }
            let done = {
                let f = &self.inflight[&r.tag];
                let all = f.rtl_lanes & f.req.active_mask == f.req.active_mask;
                all || (r.error != smsync_sim::encoding::ErrorCode::None && !is_late(&r))
            };
            if done && !self.rtl_early.iter().any(|e| e.tag == r.tag) {
                self.retire(r.tag);
            }
            out.push(r);
        }
    }

    /// A request answered completely leaves the in-flight set; a copy-engine request is kept
    /// (the newest `RETIRED_COPIES`) for a late error of its mbarrier events.
    fn retire(&mut self, tag: u64) {
        if let Some(f) = self.inflight.remove(&tag) {
            if f.req.op == Op::MbTryWait {
                self.retired_polls.push_back(tag);
                if self.retired_polls.len() > RETIRED_COPIES {
                    self.retired_polls.pop_front();
                }
            }
            if f.req.op.unit() == Unit::CopyEngine && !self.retired_copies.iter().any(|q| q.tag == tag) {
                self.retired_copies.push_back(f.req);
                if self.retired_copies.len() > RETIRED_COPIES {
                    self.retired_copies.pop_front();
                }
            }
        }
    }

    /// A late error (no lanes) of an answered copy-engine request: put the request back in
    /// flight, fully answered, so that the error is compared with the golden one of its tag.
    fn reopen_for_late_error(&mut self, r: &Response) {
        if r.lanes != 0 || r.error == smsync_sim::encoding::ErrorCode::None || self.inflight.contains_key(&r.tag) {
            return;
        }
        if let Some(req) = self.retired_copies.iter().find(|q| q.tag == r.tag).cloned() {
            let rtl_lanes = req.active_mask;
            self.inflight.insert(r.tag, InFlight { req, rtl_lanes });
        }
    }

    /// When both sides are quiet: a golden answer the RTL never gave is a divergence.
    fn check_quiet(&mut self) {
        if self.failure.is_some() {
            return;
        }
        let mut tags: Vec<u64> = self.golden_answers.keys().copied().filter(|t| *t < REQUERY_TAG).collect();
        tags.sort();
        if let Some(&t) = tags.first() {
            let g = self.golden_answers[&t][0].clone();
            self.fail(
                Some(t),
                format!(
                    "the golden model answered tag {t}, the RTL did not (it is idle, suspended try_waits timed out)\n  expected (golden): {}",
                    describe_response(&g)
                ),
            );
            return;
        }
        if let Some(r) = self.rtl_early.first().cloned() {
            self.fail(
                Some(r.tag),
                format!(
                    "the RTL answered tag {}, the golden model did not (it has nothing in flight)\n  actual (RTL): {}",
                    r.tag,
                    describe_response(&r)
                ),
            );
        }
    }

    /// An error answer of the RTL that the golden model has not given (yet): the executor took
    /// it (and may have stopped on it as undefined behaviour), but only the RTL claims it, so a
    /// run that ends there is a divergence, not a program failure. E.g. the RTL's one
    /// rendezvous record per warp answers MemberMaskMismatch where the golden model lets both
    /// lane groups wait (docs/units/warp_network.md).
    pub fn unconfirmed_rtl_error(&self) -> Option<String> {
        let r = self.rtl_early.iter().find(|r| r.error != smsync_sim::encoding::ErrorCode::None && !is_late(r))?;
        let req = self.inflight.get(&r.tag).map(|f| describe_request(&f.req)).unwrap_or_default();
        Some(format!(
            "cosim divergence at RTL cycle {}: the RTL answered tag {} with an error the golden model has not given (it lets the request wait)\n  actual (RTL): {}\n  request: {req}",
            self.cycles(),
            r.tag,
            describe_response(r)
        ))
    }

    /// End of the run (the executor returned): nothing may be left unmatched.
    pub fn finish(&mut self) -> Result<(), String> {
        self.check_quiet();
        match &self.failure {
            Some(f) => Err(f.message.clone()),
            None => Ok(()),
        }
    }
}

impl SyncUnit for CosimUnit {
    fn launch_cta(&mut self, slot: u16, warps: u16, threads: u32) {
        self.golden.launch_cta(slot, warps, threads);
        let mut out = Vec::new();
        self.rtl.launch_cta(slot, warps, &mut self.mirror, &mut out);
        if let Some(e) = self.rtl.take_error() {
            self.fail(None, format!("the RTL link failed during a CTA launch: {e}"));
            return;
        }
        if self.timed {
            // Other slots' requests are in flight while a CTA starts: their answers of the
            // launch cycle are taken at the next tick.
            self.launch_answers.append(&mut out);
        } else if let Some(r) = out.first() {
            self.fail(None, format!("the RTL answered during a CTA launch: {}", describe_response(r)));
        }
    }

    fn submit(&mut self, req: &Request, mem: &mut MemorySystem, out: &mut Vec<Response>) {
        if self.failure.is_some() || self.check_cycle_limit() {
            return;
        }
        self.sync_mirror(mem);
        // Same-address lanes serialize only where lanes address memory words.
        let word_unit = matches!(req.op.unit(), Unit::AtomicAlu | Unit::MbarrierAlu | Unit::Lsu);
        self.counts.on_request(req, if word_unit { same_address_lanes(req) } else { 0 });
        self.inflight.insert(req.tag, InFlight { req: req.clone(), rtl_lanes: 0 });

        let mut g = Vec::new();
        self.golden.tick(mem, true, &mut g);
        // A poll is asked of the golden model as test_wait: it answers now, without suspending
        // (the RTL decides whether and when a try_wait suspends or times out).
        if req.op == Op::MbTryWait {
            let mut q = req.clone();
            q.op = Op::MbTestWait;
            self.golden.submit(&q, mem, &mut g);
        } else {
            self.golden.submit(req, mem, &mut g);
        }
        self.record_golden(g);

        if self.timed {
            if let Err(e) = self.rtl.enqueue(req) {
                self.fail(Some(req.tag), format!("the RTL could not take the request: {e}"));
            }
            self.rtl_busy = true;
            return;
        }
        let mut r = Vec::new();
        let before = self.rtl.cycle();
        if let Err(e) = self.rtl.submit(req, &mut self.mirror, &mut r) {
            self.fail(Some(req.tag), format!("the RTL could not take the request: {e}"));
            return;
        }
        self.counts.add_cycles(req.op.unit(), self.rtl.cycle() - before);
        self.collect_taken();
        self.take_rtl(r, mem, out);
    }

    fn tick(&mut self, mem: &mut MemorySystem, idle: bool, out: &mut Vec<Response>) -> bool {
        if self.failure.is_some() || self.check_cycle_limit() {
            return false;
        }
        self.sync_mirror(mem);
        let mut g = Vec::new();
        let golden_busy = self.golden.tick(mem, true, &mut g);
        self.record_golden(g);
        let mut r = std::mem::take(&mut self.launch_answers);
        if idle {
            // Nothing can run: let the RTL finish, with suspended try_waits timing out.
            let mut spent = 0;
            loop {
                self.rtl.run(CYCLES_PER_TICK, true, &mut self.mirror, &mut r);
                spent += CYCLES_PER_TICK;
                if !self.rtl.busy() || !r.is_empty() || spent >= IDLE_CYCLE_BUDGET {
                    break;
                }
            }
            self.counts.idle_cycles += spent as u64;
        } else if self.timed {
            // Catch the top up with the SM (it may be ahead after an idle tick).
            let behind = self.sm_now.saturating_sub(self.rtl_now());
            if behind > 0 {
                self.rtl.run(behind.min(u32::MAX as u64) as u32, false, &mut self.mirror, &mut r);
            }
        } else {
            self.rtl.run(CYCLES_PER_TICK, false, &mut self.mirror, &mut r);
        }
        self.collect_taken();
        if self.timed {
            self.check_port_hang();
        }
        if let Some(e) = self.rtl.take_error() {
            self.fail(None, format!("the RTL link failed: {e}"));
            return false;
        }
        let answered = !r.is_empty();
        self.take_rtl(r, mem, out);
        let rtl_busy = self.rtl.busy();
        self.rtl_busy = rtl_busy;
        if idle && !answered && !rtl_busy && !golden_busy {
            self.check_quiet();
        }
        golden_busy || rtl_busy || answered
    }

    fn describe_waits(&self) -> Vec<String> {
        let mut w = self.golden.describe_waits();
        // A warp exit is answered only when it completes a rendezvous (under the exit's tag,
        // split to the waiting requests), so an exit without an answer waits for nothing.
        let mut open: Vec<&InFlight> = self
            .inflight
            .values()
            .filter(|f| f.req.op != Op::WarpExit && f.rtl_lanes & f.req.active_mask != f.req.active_mask)
            .collect();
        open.sort_by_key(|f| f.req.tag);
        let parked = self.rtl.parked();
        for f in open {
            w.push(format!(
                "RTL: {} (tag {}) of CTA slot {} warp {} not answered for lanes {:#010x}{}",
                f.req.op.name(),
                f.req.tag,
                f.req.cta,
                f.req.warp,
                f.req.active_mask & !f.rtl_lanes,
                if parked.contains(&f.req.tag) {
                    " (answered Retry: offered again after the next answer to its warp)"
                } else {
                    ""
                }
            ));
        }
        w
    }

    fn failure(&self) -> Option<BackendFailure> {
        self.failure.clone()
    }

    fn set_time(&mut self, cycle: u64) {
        self.sm_now = cycle;
    }

    /// Timed: while the top has work (a request queued or on its port, or `busy`), the SM steps
    /// cycle by cycle; otherwise nothing happens in the top until the SM sends something.
    fn next_event(&self) -> Option<u64> {
        (self.timed && self.rtl_busy && self.failure.is_none()).then(|| self.rtl_now().max(self.sm_now) + 1)
    }

    fn unit_timing(&self) -> Vec<UnitTiming> {
        self.unit_stats.clone()
    }

    /// Timed: a slot is free for its next CTA once the top has taken (and finished taking)
    /// every request of its last one, the warps' exits included.
    fn slot_drained(&self, slot: u16) -> bool {
        !self.timed || self.failure.is_some() || !self.rtl.holds_slot(slot)
    }
}

/// A late error of a copy-engine op's mbarrier event (the golden `copy_engine::late_error`): an
/// error answer with no lanes.
fn is_late(r: &Response) -> bool {
    r.lanes == 0 && r.error != smsync_sim::encoding::ErrorCode::None
}
