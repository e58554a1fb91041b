//! The SM timing model (`smsync run --timing`): the same machine, stepped by cycles.
//!
//! Every cycle each of `timing.schedulers` warp schedulers issues at most one warp-instruction
//! from its warps (warp `w` of slot `s` belongs to scheduler `(s * max_warps_per_cta + w) %
//! schedulers`), picked by its policy (loose round-robin or greedy-then-oldest) among the warps
//! that are *eligible*: some lane can run, the warp did not issue this cycle, and the sources of
//! its next instruction are ready on the scoreboard. An instruction executes when it issues (the
//! functional model is the untimed one's); its destination registers become ready after its
//! class's latency (`timing.alu_latency`, `fp64_latency`, `sfu_latency`, `global_latency`). A sync-unit
//! instruction sends its request to the back end ([`crate::timing::TimedUnits`], or the RTL) and
//! its lanes wait for the answer, which arrives when the back end's time says.
//!
//! CTAs occupy the unit's `cta_slots`; when every CTA of a cluster has finished, the next
//! cluster of the grid is launched into its slots (an SM with free resources takes the next CTA).
//! When no warp can issue, the model jumps to the next cycle at which something changes (a
//! register becomes ready, the back end answers). Every cycle each resident warp that did not
//! issue is charged one stall reason ([`Stall`]).

use super::machine::Machine;
use super::warp::{Group, Warp};
use super::ExecError;
use crate::config::SchedPolicy;
use crate::encoding::Unit;
use crate::ptx::ir::{AddrBase, ArithOp, Instr, Opcode, Operand, StateSpace, Ty};
use crate::timing::UnitTiming;
use serde::Serialize;

/// Why a resident warp did not issue in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// Waiting for the barrier file (bar.sync, barrier.cluster.wait, a parked .aligned arrival).
    Barrier = 0,
    Mbarrier,
    Atomic,
    WarpNetwork,
    Copy,
    /// ld/st.shared through the LSU.
    Shared,
    /// The next instruction's source register is not ready (an ALU, SFU or global-load latency).
    Scoreboard,
    /// Eligible, but its scheduler issued another warp.
    NotSelected,
}

pub const STALLS: [&str; 8] =
    ["barrier", "mbarrier", "atomic", "warp_network", "copy", "shared", "scoreboard", "not_selected"];

/// One warp's issue slots and stall cycles over its CTA's life.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct WarpTiming {
    pub ctaid: [u32; 3],
    pub warp: u32,
    pub issued: u64,
    /// Cycles per reason, in the order of [`STALLS`].
    pub stalls: [u64; 8],
}

/// What a timed run reports (`--json`'s `timing`, and the table of `smsync run --timing`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct TimingReport {
    /// Kernel cycles: from the first CTA's launch to the last one's end.
    pub cycles: u64,
    pub warp_instructions: u64,
    /// Warp-instructions per cycle over the SM.
    pub ipc: f64,
    /// Stall cycles per reason, summed over warps (names in [`STALLS`]).
    pub stalls: Vec<(String, u64)>,
    pub units: Vec<UnitTiming>,
    pub warps: Vec<WarpTiming>,
}

/// The timing of one instruction: its class latency and the registers it reads and writes.
#[derive(Clone, Debug, Default)]
struct InstrTiming {
    /// Cycles until its destinations are ready; 0 for sync-unit instructions (their answer
    /// writes the registers) and instructions without a destination.
    latency: u64,
    dsts: Vec<u32>,
    srcs: Vec<u32>,
}

fn regs_of(op: &Operand, out: &mut Vec<u32>) {
    match op {
        Operand::Reg(r) | Operand::NotPred(r) => out.push(r.0),
        Operand::Addr { base: AddrBase::Reg(r), .. } => out.push(r.0),
        Operand::Vector(v) => v.iter().for_each(|o| regs_of(o, out)),
        _ => {}
    }
}

/// The sync-unit owner of an instruction that waits for the unit's answer, if any.
fn unit_of(op: &Opcode) -> Option<Unit> {
    use Opcode::*;
    Some(match op {
        Bar { .. } | BarrierCluster { .. } => Unit::BarrierFile,
        BarWarpSync | Vote { .. } | Match { .. } | Activemask | Redux { .. } | Elect | Shfl { .. } => Unit::WarpNetwork,
        Atom { .. } | RedAsync { .. } => Unit::AtomicAlu,
        MbInit { .. }
        | MbInval { .. }
        | MbArrive { .. }
        | MbExpectTx { .. }
        | MbCompleteTx { .. }
        | MbTestWait { .. }
        | MbPendingCount
        | CpAsyncMbArrive { .. } => Unit::MbarrierAlu,
        CpAsync { .. }
        | CpAsyncCommit
        | CpAsyncWaitGroup
        | CpAsyncWaitAll
        | CpBulk { .. }
        | CpReduceBulk { .. }
        | CpBulkTensor { .. }
        | CpReduceBulkTensor { .. }
        | ClcTryCancel { .. }
        | BulkCommit
        | BulkWaitGroup { .. } => Unit::CopyEngine,
        Ld { space: StateSpace::Shared | StateSpace::SharedCluster, .. }
        | St { space: StateSpace::Shared | StateSpace::SharedCluster, .. } => Unit::Lsu,
        _ => return None,
    })
}

fn classify(instr: &Instr, t: &crate::config::Timing) -> InstrTiming {
    let mut it = InstrTiming::default();
    if let Some(g) = &instr.guard {
        it.srcs.push(g.pred.0);
    }
    let writes_first = !matches!(
        instr.op,
        Opcode::St { .. }
            | Opcode::Bra { .. }
            | Opcode::Call { .. }
            | Opcode::Ret
            | Opcode::Exit
            | Opcode::Nanosleep
            | Opcode::Fence { .. }
            | Opcode::GridDepControl { .. }
            | Opcode::BulkPrefetch
            | Opcode::TensormapCpFenceproxy { .. }
    );
    for (i, op) in instr.ops.iter().enumerate() {
        if i == 0 && writes_first {
            regs_of(op, &mut it.dsts);
        } else {
            regs_of(op, &mut it.srcs);
        }
    }
    it.latency = match &instr.op {
        op if unit_of(op).is_some() => 0,
        Opcode::Arith {
            op:
                ArithOp::Div
                | ArithOp::Rem
                | ArithOp::Rcp
                | ArithOp::Sqrt
                | ArithOp::Rsqrt
                | ArithOp::Ex2
                | ArithOp::Lg2
                | ArithOp::Sin
                | ArithOp::Cos,
            ..
        } => t.sfu_latency as u64,
        Opcode::Arith { ty: Ty::F64, .. } => t.fp64_latency as u64,
        Opcode::Ld {
            space: StateSpace::Global | StateSpace::Local | StateSpace::Const | StateSpace::Generic, ..
        } => t.global_latency as u64,
        _ => t.alu_latency as u64,
    };
    if it.latency == 0 || !writes_first {
        it.dsts.clear();
    }
    it
}

/// A warp's place in the timing model while its CTA is resident.
#[derive(Clone, Debug, Default)]
struct WarpState {
    /// First cycle it may issue again (one instruction per cycle per warp).
    next_issue: u64,
    /// Cycle each register (by id; registers of called functions share ids) becomes ready.
    reg_ready: Vec<u64>,
    timing: WarpTiming,
}

/// The SM's scheduling state over a run.
pub(super) struct Sm {
    cycle: u64,
    /// Per function, per instruction.
    instrs: Vec<Vec<InstrTiming>>,
    /// Per slot, per warp.
    warps: Vec<Vec<WarpState>>,
    /// Per slot: the launch order of its CTA (for greedy-then-oldest).
    age: Vec<u64>,
    /// Per scheduler: the warp that issued last, as (slot, warp).
    last: Vec<Option<(usize, usize)>>,
    /// Per scheduler: its resident warps in its policy's base order.
    warps_of: Vec<Vec<(usize, usize)>>,
    report: TimingReport,
    launched: u64,
}

impl<'a> Machine<'a> {
    fn new_sm(&self) -> Sm {
        let t = &self.cfg.timing;
        let instrs = self.module.funcs.iter().map(|f| f.body.iter().map(|i| classify(i, t)).collect()).collect();
        let slots = self.cfg.cta_slots as usize;
        Sm {
            cycle: 0,
            instrs,
            warps: vec![Vec::new(); slots],
            age: vec![0; slots],
            last: vec![None; t.schedulers as usize],
            warps_of: vec![Vec::new(); t.schedulers as usize],
            report: TimingReport::default(),
            launched: 0,
        }
    }

    /// Run the whole grid on the SM timing model; return the final buffers and the timing.
    pub(super) fn run_timed(mut self) -> Result<super::RunResult, ExecError> {
        let clusters = self.cluster_list();
        let per_cluster = self.launch.cluster.iter().product::<u32>() as usize;
        let groups = (self.cfg.cta_slots as usize / per_cluster).max(1);
        let mut sm = self.new_sm();
        let mut next = 0usize;
        loop {
            self.sm_cycle = Some(sm.cycle);
            self.unit.set_time(sm.cycle);
            self.unit.tick(&mut self.mem, false, &mut self.out);
            self.stats.ticks += 1;
            self.drain_responses()?;
            for g in 0..groups {
                let slots = g * per_cluster..(g + 1) * per_cluster;
                let finished = slots.clone().all(|s| {
                    self.ctas[s].as_ref().is_none_or(|c| c.warps.iter().all(Warp::done))
                        && self.unit.slot_drained(s as u16)
                });
                if finished {
                    let mut changed = false;
                    for s in slots.clone() {
                        changed |= self.retire_cta(&mut sm, s);
                    }
                    if next < clusters.len() {
                        self.launch_cluster(&mut sm, &clusters[next], slots.start);
                        next += 1;
                        changed = true;
                    }
                    if changed {
                        self.rebuild_schedule(&mut sm);
                    }
                }
            }
            if next == clusters.len() && self.ctas.iter().all(Option::is_none) {
                break;
            }
            if self.issue_cycle(&mut sm)? {
                self.charge_stalls(&mut sm, 1);
                sm.cycle += 1;
                continue;
            }
            self.wait_for_event(&mut sm)?;
        }
        // Every CTA has finished: let the back end finish what it still holds (the last warps'
        // exits queued for an RTL port, a late error of a copy) outside the kernel's cycles.
        let mut guard = 0u64;
        while self.unit.tick(&mut self.mem, true, &mut self.out) && guard < 1_000_000 {
            self.drain_responses()?;
            guard += 1;
        }
        self.drain_responses()?;
        self.check_unit()?;
        self.collect_trace();
        Ok(self.timed_result(sm))
    }

    /// Nothing issued this cycle: jump to the next cycle at which something changes, or report
    /// the deadlock.
    fn wait_for_event(&mut self, sm: &mut Sm) -> Result<(), ExecError> {
        let ready = self.next_ready(sm);
        let unit = self.unit.next_event().map(|c| c.max(sm.cycle + 1));
        let wake = match (ready, unit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let Some(c) = wake {
            self.charge_stalls(sm, c - sm.cycle);
            sm.cycle = c;
            return Ok(());
        }
        // Nothing scheduled: let the back end finish what it can (suspended try_waits time out).
        self.unit.tick(&mut self.mem, true, &mut self.out);
        self.drain_responses()?;
        if self.any_runnable() || self.unit.next_event().is_some() {
            self.charge_stalls(sm, 1);
            sm.cycle += 1;
            return Ok(());
        }
        if self.all_done() {
            return Ok(()); // the CTAs retire at the top of the next step
        }
        Err(self.stuck_error())
    }

    /// The earliest cycle after now at which a runnable warp's next issue or its next
    /// instruction's sources become ready.
    fn next_ready(&mut self, sm: &Sm) -> Option<u64> {
        let mut best: Option<u64> = None;
        for (s, c) in self.ctas.iter().enumerate() {
            let Some(c) = c else { continue };
            for (wi, w) in c.warps.iter().enumerate() {
                let runnable = w.runnable();
                if runnable == 0 {
                    continue;
                }
                let ws = &sm.warps[s][wi];
                let l = runnable.trailing_zeros() as usize;
                let it = &sm.instrs[w.func[l] as usize].get(w.pc[l] as usize);
                let src_ready = it.map_or(0, |it| it.srcs.iter().map(|&r| reg_at(ws, r)).max().unwrap_or(0));
                let at = ws.next_issue.max(src_ready).max(sm.cycle + 1);
                best = Some(best.map_or(at, |b| b.min(at)));
            }
        }
        best
    }

    /// Each scheduler issues at most one warp-instruction. Returns whether any issued.
    fn issue_cycle(&mut self, sm: &mut Sm) -> Result<bool, ExecError> {
        let nsched = sm.last.len();
        let mut issued = false;
        for sched in 0..nsched {
            if let Some((slot, wi, g)) = self.pick_warp(sm, sched) {
                self.issue(sm, slot, wi, g)?;
                sm.last[sched] = Some((slot, wi));
                issued = true;
            }
        }
        Ok(issued)
    }

    /// Each scheduler's warps in its policy's base order: (slot, warp) ascending for `lrr`,
    /// oldest CTA first for `gto`. Rebuilt when a CTA starts or retires.
    fn rebuild_schedule(&self, sm: &mut Sm) {
        let per = self.cfg.max_warps_per_cta as usize;
        let nsched = sm.last.len();
        for list in sm.warps_of.iter_mut() {
            list.clear();
        }
        for (s, c) in self.ctas.iter().enumerate() {
            if let Some(c) = c {
                for wi in 0..c.warps.len() {
                    sm.warps_of[(s * per + wi) % nsched].push((s, wi));
                }
            }
        }
        if self.cfg.timing.policy == SchedPolicy::Gto {
            for list in sm.warps_of.iter_mut() {
                list.sort_by_key(|&(s, wi)| (sm.age[s], wi));
            }
        }
    }

    /// The first eligible warp of `sched`, tried in its policy's order (`lrr`: from the warp after
    /// the last one that issued; `gto`: that warp first, then the oldest), and the group of lanes
    /// it would issue.
    fn pick_warp(&mut self, sm: &Sm, sched: usize) -> Option<(usize, usize, Group)> {
        let list = &sm.warps_of[sched];
        let n = list.len();
        let (greedy, start) = match (self.cfg.timing.policy, sm.last[sched]) {
            (SchedPolicy::Lrr, Some(last)) => (None, list.iter().position(|&x| x > last).unwrap_or(0)),
            (SchedPolicy::Gto, Some(last)) => (list.iter().position(|&x| x == last), 0),
            _ => (None, 0),
        };
        let order = greedy.into_iter().chain((0..n).map(|i| (start + i) % n).filter(move |&i| Some(i) != greedy));
        for i in order {
            let (s, wi) = list[i];
            let ws = &sm.warps[s][wi];
            if ws.next_issue > sm.cycle {
                continue;
            }
            let w = &mut self.ctas[s].as_mut().expect("resident").warps[wi];
            let runnable = w.runnable();
            if runnable == 0 {
                continue;
            }
            let g = w.pick_group(runnable, &self.layout.func_base, None);
            let ready = sm.instrs[g.func as usize]
                .get(g.pc as usize)
                .is_none_or(|it| it.srcs.iter().all(|&r| reg_at(ws, r) <= sm.cycle));
            if ready {
                return Some((s, wi, g));
            }
        }
        None
    }

    /// Execute `g` of warp (slot, wi) now and mark its destinations busy.
    fn issue(&mut self, sm: &mut Sm, slot: usize, wi: usize, g: Group) -> Result<(), ExecError> {
        if self.stats.warp_instructions >= self.opts.max_steps {
            return Err(ExecError::StepLimit { steps: self.opts.max_steps, running: vec![] });
        }
        let mut w = std::mem::take(&mut self.ctas[slot].as_mut().expect("resident").warps[wi]);
        let res = self.exec(slot, &mut w, g).and_then(|_| self.check_unit());
        self.ctas[slot].as_mut().expect("resident").warps[wi] = w;
        res?;
        self.drain_responses()?;
        let ws = &mut sm.warps[slot][wi];
        ws.next_issue = sm.cycle + 1;
        ws.timing.issued += 1;
        if let Some(it) = sm.instrs[g.func as usize].get(g.pc as usize) {
            for &r in &it.dsts {
                if ws.reg_ready.len() <= r as usize {
                    ws.reg_ready.resize(r as usize + 1, 0);
                }
                ws.reg_ready[r as usize] = sm.cycle + it.latency;
            }
        }
        Ok(())
    }

    /// Charge `n` cycles to every resident warp that did not issue in the current cycle.
    fn charge_stalls(&self, sm: &mut Sm, n: u64) {
        for (s, c) in self.ctas.iter().enumerate() {
            let Some(c) = c else { continue };
            for (wi, w) in c.warps.iter().enumerate() {
                if w.done() {
                    continue;
                }
                let ws = &sm.warps[s][wi];
                if ws.next_issue == sm.cycle + 1 && n == 1 {
                    continue; // issued this cycle
                }
                let reason = self.stall_reason(sm, w, ws) as usize;
                sm.warps[s][wi].timing.stalls[reason] += n;
            }
        }
    }

    fn stall_reason(&self, sm: &Sm, w: &Warp, ws: &WarpState) -> Stall {
        if w.runnable() == 0 {
            if w.parked != 0 {
                return Stall::Barrier;
            }
            let l = (w.waiting & w.live).trailing_zeros() as usize;
            let unit = self.pending.get(&w.wait_tag[l.min(31)]).and_then(|p| unit_of(&self.instr(p.func, p.pc).op));
            return match unit {
                Some(Unit::BarrierFile) => Stall::Barrier,
                Some(Unit::MbarrierAlu) => Stall::Mbarrier,
                Some(Unit::AtomicAlu) => Stall::Atomic,
                Some(Unit::WarpNetwork) => Stall::WarpNetwork,
                Some(Unit::CopyEngine) => Stall::Copy,
                _ => Stall::Shared,
            };
        }
        let l = w.runnable().trailing_zeros() as usize;
        let blocked = sm.instrs[w.func[l] as usize]
            .get(w.pc[l] as usize)
            .is_some_and(|it| it.srcs.iter().any(|&r| reg_at(ws, r) > sm.cycle));
        if blocked {
            Stall::Scoreboard
        } else {
            Stall::NotSelected
        }
    }

    fn launch_cluster(&mut self, sm: &mut Sm, cluster: &[([u32; 3], u32)], slot0: usize) {
        for (i, &(ctaid, rank)) in cluster.iter().enumerate() {
            let slot = slot0 + i;
            self.launch_cta(slot, ctaid, rank, slot0 as u32);
            sm.launched += 1;
            sm.age[slot] = sm.launched;
            let c = self.ctas[slot].as_ref().expect("just launched");
            sm.warps[slot] = (0..c.warps.len())
                .map(|wi| WarpState {
                    next_issue: sm.cycle,
                    reg_ready: Vec::new(),
                    timing: WarpTiming { ctaid, warp: wi as u32, ..Default::default() },
                })
                .collect();
        }
    }

    /// Retire the CTA in `slot`, if any (true when there was one).
    fn retire_cta(&mut self, sm: &mut Sm, slot: usize) -> bool {
        if self.ctas[slot].take().is_some() {
            sm.report.warps.extend(sm.warps[slot].drain(..).map(|w| w.timing));
            return true;
        }
        false
    }

    fn timed_result(self, sm: Sm) -> super::RunResult {
        let mut report = sm.report;
        report.cycles = sm.cycle;
        report.warp_instructions = self.stats.warp_instructions;
        report.ipc = if sm.cycle == 0 { 0.0 } else { self.stats.warp_instructions as f64 / sm.cycle as f64 };
        report.stalls = STALLS
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), report.warps.iter().map(|w| w.stalls[i]).sum()))
            .collect();
        report.units = self.unit.unit_timing();
        let mut r = self.finish();
        r.timing = Some(report);
        r
    }
}

fn reg_at(ws: &WarpState, r: u32) -> u64 {
    ws.reg_ready.get(r as usize).copied().unwrap_or(0)
}
