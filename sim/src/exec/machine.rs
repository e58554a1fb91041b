//! The machine: resident CTAs in sync-unit slots, the warp scheduler, the execution of ordinary
//! instructions, plain memory, and the plumbing of requests and responses to a [`SyncUnit`].
//!
//! Scheduling: CTAs run in waves of `config.cta_slots` (clusters occupy consecutive slots). Warps
//! take turns; a turn runs one warp for up to `quantum` instructions or until none of its lanes
//! can run. Between turns the unit is ticked. When no warp can run the unit is ticked idle until
//! nothing is in flight; if still nothing can run, that is a deadlock (or, for a warp partly parked
//! at an `.aligned` barrier, the divergence UB of checklist item 59).

use super::error::{ExecError, Site};
use super::launch::Launch;
use super::loader::{self, Layout};
use super::rng::Rng;
use super::warp::{lanes, Frame, Group, Warp, LANES};
use super::{alu, RunOptions, RunResult, Stats};
use crate::config::Config;
use crate::encoding::{ErrorCode, Op};
use crate::memory::{classify, Generic, MemorySystem, CLUSTER_BASE, LOCAL_BASE, SHARED_BASE, WINDOW};
use crate::ptx::ir::{AddrBase, Instr, Module, Opcode, Operand, PackedFmt, SpecialReg, StateSpace, Ty};
use crate::units::{Request, Response, SyncUnit};
use std::collections::{HashMap, VecDeque};

pub(super) type Col = [u64; LANES];

/// A CTA resident in a sync-unit slot.
pub(super) struct Cta {
    pub ctaid: [u32; 3],
    pub rank: u32,
    /// Slot of cluster rank 0 of this CTA's cluster.
    pub cluster_slot0: u32,
    pub warps: Vec<Warp>,
    /// Thread-local memory, `local_bytes` per thread.
    pub local: Vec<u8>,
}

/// A request in flight: which warp and instruction its response completes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pending {
    pub slot: usize,
    pub warp: usize,
    pub func: u32,
    pub pc: u32,
}

/// Where one lane's plain access goes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Target {
    Global(u64),
    /// (slot, offset) of shared memory; own-slot accesses go through the unit's LSU port.
    Shared(usize, u64),
    Local(u64),
    KernelParam(u64),
}

pub struct Machine<'a> {
    pub(super) module: &'a Module,
    pub(super) cfg: &'a Config,
    pub(super) launch: &'a Launch,
    pub(super) layout: Layout,
    pub(super) mem: MemorySystem,
    pub(super) unit: &'a mut dyn SyncUnit,
    pub(super) ctas: Vec<Option<Cta>>,
    pub(super) pending: HashMap<u64, Pending>,
    /// Requests answered lately (the newest `RETIRED`), by tag: a copy's late error (an error of
    /// its mbarrier event, after the copy was answered) names the copy's instruction.
    pub(super) retired: VecDeque<(u64, Pending)>,
    pub(super) next_tag: u64,
    pub(super) rng: Option<Rng>,
    pub(super) out: Vec<Response>,
    pub(super) stats: Stats,
    pub(super) opts: RunOptions,
    pub(super) trace: Vec<serde_json::Value>,
    /// Timed runs: the SM's cycle, which `%clock` / `%clock64` read (untimed runs count
    /// executed warp-instructions instead).
    pub(super) sm_cycle: Option<u64>,
}

impl<'a> Machine<'a> {
    pub fn new(
        module: &'a Module,
        launch: &'a Launch,
        cfg: &'a Config,
        unit: &'a mut dyn SyncUnit,
        opts: RunOptions,
    ) -> Result<Machine<'a>, ExecError> {
        let layout = loader::load(module, launch, cfg)?;
        let mut mem = MemorySystem::new(layout.global_bytes, cfg.cta_slots as usize, cfg.shared_bytes as usize);
        for (addr, bytes) in &layout.global_init {
            if let Some(s) = mem.global.slice_mut(*addr, bytes.len()) {
                s.copy_from_slice(bytes);
            }
        }
        Ok(Machine {
            module,
            cfg,
            launch,
            layout,
            mem,
            unit,
            ctas: (0..cfg.cta_slots).map(|_| None).collect(),
            pending: HashMap::new(),
            retired: VecDeque::new(),
            next_tag: 1,
            rng: opts.seed.map(Rng::new),
            out: Vec::new(),
            stats: Stats::default(),
            opts,
            trace: Vec::new(),
            sm_cycle: None,
        })
    }

    /// Run the whole grid; return the final buffers.
    pub fn run(mut self) -> Result<RunResult, ExecError> {
        if self.opts.timing {
            return self.run_timed();
        }
        let clusters = self.cluster_list();
        let per_cluster = self.launch.cluster.iter().product::<u32>() as usize;
        let clusters_per_wave = (self.cfg.cta_slots as usize / per_cluster).max(1);
        for wave in clusters.chunks(clusters_per_wave) {
            for (i, cluster) in wave.iter().enumerate() {
                let slot0 = i * per_cluster;
                for (r, &(ctaid, rank)) in cluster.iter().enumerate() {
                    self.launch_cta(slot0 + r, ctaid, rank, slot0 as u32);
                }
            }
            self.stats.waves += 1;
            self.run_wave()?;
        }
        Ok(self.finish())
    }

    /// The grid's clusters in launch order, each as its CTAs' (ctaid, rank in the cluster).
    pub(super) fn cluster_list(&self) -> Vec<Vec<([u32; 3], u32)>> {
        let l = self.launch;
        let cluster_ctas: u32 = l.cluster.iter().product();
        let ncl = [l.grid[0] / l.cluster[0], l.grid[1] / l.cluster[1], l.grid[2] / l.cluster[2]];
        (0..ncl[0] * ncl[1] * ncl[2])
            .map(|c| {
                let cid = [c % ncl[0], (c / ncl[0]) % ncl[1], c / (ncl[0] * ncl[1])];
                (0..cluster_ctas)
                    .map(|r| {
                        let inner =
                            [r % l.cluster[0], (r / l.cluster[0]) % l.cluster[1], r / (l.cluster[0] * l.cluster[1])];
                        let ctaid = [
                            cid[0] * l.cluster[0] + inner[0],
                            cid[1] * l.cluster[1] + inner[1],
                            cid[2] * l.cluster[2] + inner[2],
                        ];
                        (ctaid, r)
                    })
                    .collect()
            })
            .collect()
    }

    /// The final buffers and statistics.
    pub(super) fn finish(mut self) -> RunResult {
        let l = self.launch;
        self.stats.global_bytes = self.layout.global_bytes as u64;
        let buffers = l
            .buffers
            .iter()
            .zip(&self.layout.buffer_addr)
            .map(|(b, &a)| {
                (b.name.clone(), b.ty, self.mem.global.slice(a, b.bytes.len()).map(|s| s.to_vec()).unwrap_or_default())
            })
            .collect();
        RunResult { buffers, stats: self.stats, trace: self.trace, timing: None }
    }

    pub(super) fn launch_cta(&mut self, slot: usize, ctaid: [u32; 3], rank: u32, slot0: u32) {
        let threads = self.launch.threads_per_cta();
        let nwarps = threads.div_ceil(32);
        let local = self.layout.local_bytes();
        let warps = (0..nwarps)
            .map(|w| {
                let lanes = (threads - w * 32).min(32);
                Warp::new(w, lanes, self.layout.entry.0, self.layout.max_regs, self.layout.local_static)
            })
            .collect();
        // Shared memory starts zeroed for every CTA (deterministic runs).
        if let Some(r) = self.mem.shared.get_mut(slot) {
            r.bytes.fill(0);
        }
        self.unit.launch_cta(slot as u16, nwarps as u16, threads);
        self.ctas[slot] =
            Some(Cta { ctaid, rank, cluster_slot0: slot0, warps, local: vec![0; (threads * local) as usize] });
        self.stats.ctas += 1;
    }

    fn run_wave(&mut self) -> Result<(), ExecError> {
        let mut order: Vec<(usize, usize)> = Vec::new();
        let mut rr = 0usize;
        loop {
            order.clear();
            for (s, c) in self.ctas.iter().enumerate() {
                if let Some(c) = c {
                    for (wi, w) in c.warps.iter().enumerate() {
                        if w.runnable() != 0 {
                            order.push((s, wi));
                        }
                    }
                }
            }
            if order.is_empty() {
                // Nothing can run: let the unit finish in-flight work.
                let mut busy = true;
                let mut guard = 0u64;
                while busy {
                    busy = self.unit.tick(&mut self.mem, true, &mut self.out);
                    self.stats.ticks += 1;
                    self.drain_responses()?;
                    guard += 1;
                    if self.any_runnable() || guard > 1_000_000 {
                        break;
                    }
                }
                if self.any_runnable() {
                    continue;
                }
                if self.all_done() {
                    for c in self.ctas.iter_mut() {
                        *c = None;
                    }
                    self.collect_trace();
                    return Ok(());
                }
                return Err(self.stuck_error());
            }
            let pick = match &mut self.rng {
                Some(r) => r.below(order.len() as u64) as usize,
                None => {
                    rr = (rr + 1) % order.len();
                    rr
                }
            };
            let quantum = match &mut self.rng {
                Some(r) => 1 + r.below(64),
                None => 256,
            };
            let (slot, wi) = order[pick];
            self.turn(slot, wi, quantum)?;
            self.unit.tick(&mut self.mem, false, &mut self.out);
            self.stats.ticks += 1;
            self.drain_responses()?;
            self.collect_trace();
        }
    }

    pub(super) fn any_runnable(&self) -> bool {
        self.ctas.iter().flatten().any(|c| c.warps.iter().any(|w| w.runnable() != 0))
    }
    pub(super) fn all_done(&self) -> bool {
        self.ctas.iter().flatten().all(|c| c.warps.iter().all(|w| w.done()))
    }

    /// Run one warp for up to `quantum` instructions.
    fn turn(&mut self, slot: usize, wi: usize, quantum: u64) -> Result<(), ExecError> {
        let mut w = std::mem::take(&mut self.ctas[slot].as_mut().expect("resident").warps[wi]);
        let mut result = Ok(());
        for _ in 0..quantum {
            let runnable = w.runnable();
            if runnable == 0 {
                break;
            }
            if self.stats.warp_instructions >= self.opts.max_steps {
                result = Err(ExecError::StepLimit { steps: self.opts.max_steps, running: vec![] });
                break;
            }
            let g = w.pick_group(runnable, &self.layout.func_base, self.rng.as_mut());
            if let Err(e) = self.exec(slot, &mut w, g) {
                result = Err(e);
                break;
            }
            if let Err(e) = self.check_unit() {
                result = Err(e);
                break;
            }
            if !self.out.is_empty() {
                // responses that came back at once (most of them) may release this warp's lanes
                let outs = std::mem::take(&mut self.out);
                for r in outs {
                    if let Err(e) = self.apply_response(&r, Some((slot, wi, &mut w))) {
                        result = Err(e);
                        break;
                    }
                }
                if result.is_err() {
                    break;
                }
            }
        }
        self.ctas[slot].as_mut().expect("resident").warps[wi] = w;
        if let Err(ExecError::StepLimit { steps, .. }) = result {
            return Err(ExecError::StepLimit { steps, running: self.describe_running() });
        }
        result
    }

    pub(super) fn drain_responses(&mut self) -> Result<(), ExecError> {
        self.check_unit()?;
        while !self.out.is_empty() {
            let outs = std::mem::take(&mut self.out);
            for r in outs {
                self.apply_response(&r, None)?;
            }
        }
        Ok(())
    }

    pub(super) fn collect_trace(&mut self) {
        if self.opts.trace {
            for e in self.unit.take_trace() {
                self.trace.push(serde_json::json!({ "event": format!("{e:?}") }));
            }
        }
    }

    /// Stop when a self-checking backend (the cosim) reported a failure; name the instruction
    /// of the request it is about (still pending: its response was withheld).
    pub(super) fn check_unit(&self) -> Result<(), ExecError> {
        let Some(f) = self.unit.failure() else { return Ok(()) };
        // Warps are stored in index order (`launch_cta`), so the vector index is the warp id.
        let site =
            f.tag.and_then(|t| self.pending.get(&t)).map(|p| self.site(p.slot, p.warp as u32, p.func, p.pc, None));
        Err(ExecError::Backend { message: f.message, site })
    }

    // ---- sites and errors ----------------------------------------------------------------

    pub(super) fn instr(&self, func: u32, pc: u32) -> &'a Instr {
        &self.module.funcs[func as usize].body[pc as usize]
    }

    pub(super) fn site(&self, slot: usize, warp: u32, func: u32, pc: u32, lane: Option<u32>) -> Site {
        let ctaid = self.ctas[slot].as_ref().map(|c| c.ctaid).unwrap_or_default();
        let (at, source) = match self.module.funcs.get(func as usize).and_then(|f| f.body.get(pc as usize)) {
            Some(i) => (self.module.where_(i.loc), self.module.line_text(i.loc).to_string()),
            None => (
                format!("{}: end of function `{}`", self.module.file, self.module.funcs[func as usize].name),
                String::new(),
            ),
        };
        Site { at, source, cta: ctaid, warp, lane }
    }

    pub(super) fn ub(
        &self,
        slot: usize,
        w: &Warp,
        g: &Group,
        rule: impl Into<String>,
        item: Option<u32>,
        lane: Option<usize>,
    ) -> ExecError {
        ExecError::Ub { rule: rule.into(), item, site: self.site(slot, w.index, g.func, g.pc, lane.map(|l| l as u32)) }
    }

    pub(super) fn unsupported(&self, slot: usize, w: &Warp, g: &Group, msg: impl Into<String>) -> ExecError {
        ExecError::Unsupported { message: msg.into(), site: self.site(slot, w.index, g.func, g.pc, None) }
    }

    fn describe_lane_groups(&self, slot: usize, w: &Warp, mask: u32, what: &str, out: &mut Vec<String>) {
        let mut seen: Vec<(u32, u32, u32)> = Vec::new();
        for l in lanes(mask) {
            if seen.iter().any(|&(f, p, _)| f == w.func[l] && p == w.pc[l]) {
                continue;
            }
            let m: u32 =
                lanes(mask).filter(|&k| w.func[k] == w.func[l] && w.pc[k] == w.pc[l]).fold(0, |a, k| a | 1 << k);
            seen.push((w.func[l], w.pc[l], m));
            let site = self.site(slot, w.index, w.func[l], w.pc[l], None);
            out.push(format!(
                "CTA ({}, {}, {}) warp {} lanes {:#010x} {what} at {} (`{}`)",
                site.cta[0], site.cta[1], site.cta[2], w.index, m, site.at, site.source
            ));
        }
    }

    fn describe_running(&self) -> Vec<String> {
        let mut v = Vec::new();
        for (s, c) in self.ctas.iter().enumerate() {
            if let Some(c) = c {
                for w in &c.warps {
                    self.describe_lane_groups(s, w, w.runnable(), "running", &mut v);
                }
            }
        }
        v.truncate(32);
        v
    }

    /// The error when nothing can run any more: the divergence UB for a warp partly parked at an
    /// `.aligned` barrier (item 59), otherwise a deadlock report.
    pub(super) fn stuck_error(&self) -> ExecError {
        for (s, c) in self.ctas.iter().enumerate() {
            let Some(c) = c else { continue };
            for w in &c.warps {
                if w.parked != 0 && w.parked != w.live {
                    let l = w.parked.trailing_zeros() as usize;
                    if let Opcode::Bar { aligned: true, .. } | Opcode::BarrierCluster { .. } =
                        self.instr(w.func[l], w.pc[l]).op
                    {
                        let others = w.live & !w.parked;
                        let o = others.trailing_zeros() as usize;
                        let osite = self.site(s, w.index, w.func[o], w.pc[o], None);
                        let g = Group { mask: w.parked, func: w.func[l], pc: w.pc[l], depth: w.depth[l] };
                        return self.ub(
                            s,
                            w,
                            &g,
                            format!(
                                "aligned barrier reached by lanes {:#010x} while live lanes {:#010x} of the warp are elsewhere (lane {o} waits at {} `{}`); an .aligned barrier must be executed by all threads of the warp together",
                                w.parked, others, osite.at, osite.source
                            ),
                            Some(59),
                            Some(l),
                        );
                    }
                }
            }
        }
        let mut waits = Vec::new();
        for (s, c) in self.ctas.iter().enumerate() {
            if let Some(c) = c {
                for w in &c.warps {
                    self.describe_lane_groups(s, w, w.waiting & w.live, "wait for the sync unit", &mut waits);
                    self.describe_lane_groups(s, w, w.parked & w.live, "wait for the rest of their warp", &mut waits);
                }
            }
        }
        ExecError::Deadlock { waits, unit_waits: self.unit.describe_waits() }
    }

    // ---- operands ----------------------------------------------------------------------------

    pub(super) fn lin_tid(w: &Warp, l: usize) -> u32 {
        w.index * 32 + l as u32
    }

    fn special(&self, slot: usize, w: &Warp, s: SpecialReg, l: usize) -> u64 {
        let b = self.launch.block;
        let t = Self::lin_tid(w, l);
        let cta = self.ctas[slot].as_ref().expect("resident");
        let lane = l as u32;
        (match s {
            SpecialReg::Tid(c) => [t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])][c as usize % 3],
            SpecialReg::Ntid(c) => b[c as usize % 3],
            SpecialReg::Ctaid(c) => cta.ctaid[c as usize % 3],
            SpecialReg::Nctaid(c) => self.launch.grid[c as usize % 3],
            SpecialReg::Laneid => lane,
            SpecialReg::Warpid => w.index,
            SpecialReg::Nwarpid => self.cfg.max_warps_per_cta,
            SpecialReg::LanemaskEq => 1 << lane,
            SpecialReg::LanemaskLe => ((1u64 << (lane + 1)) - 1) as u32,
            SpecialReg::LanemaskLt => (1u32 << lane) - 1,
            SpecialReg::LanemaskGe => !((1u32 << lane) - 1),
            SpecialReg::LanemaskGt => !(((1u64 << (lane + 1)) - 1) as u32),
            SpecialReg::Clock => self.sm_cycle.unwrap_or(self.stats.warp_instructions) as u32,
            SpecialReg::Clock64 => return self.sm_cycle.unwrap_or(self.stats.warp_instructions),
            SpecialReg::Smid => 0,
            SpecialReg::DynamicSmemSize => self.layout.dyn_shared,
            SpecialReg::TotalSmemSize => self.layout.dyn_shared_base + self.layout.dyn_shared,
            SpecialReg::ClusterCtarank => cta.rank,
            SpecialReg::ClusterNctarank => self.launch.cluster.iter().product(),
            SpecialReg::ClusterCtaid(c) => cta.ctaid[c as usize % 3] % self.launch.cluster[c as usize % 3],
            SpecialReg::ClusterNctaid(c) => self.launch.cluster[c as usize % 3],
            SpecialReg::Clusterid(c) => cta.ctaid[c as usize % 3] / self.launch.cluster[c as usize % 3],
            SpecialReg::Nclusterid(c) => self.launch.grid[c as usize % 3] / self.launch.cluster[c as usize % 3],
            SpecialReg::Globaltimer => return self.globaltimer(),
            SpecialReg::GlobaltimerLo => self.globaltimer() as u32,
            SpecialReg::GlobaltimerHi => (self.globaltimer() >> 32) as u32,
        }) as u64
    }

    /// `%globaltimer`: a deterministic nanosecond clock, `GLOBALTIMER_NS_PER_STEP` ns per executed
    /// warp-instruction of the whole grid, so runs (and libcu++ back-off loops reading it) are
    /// reproducible. It only ever increases within a run, which is all PTX promises.
    fn globaltimer(&self) -> u64 {
        self.stats.warp_instructions.wrapping_mul(super::GLOBALTIMER_NS_PER_STEP)
    }

    /// The value of a variable's address as `mov d, var` yields it (in the variable's own space).
    pub(super) fn var_value(&self, var: crate::ptx::ir::VarId) -> u64 {
        self.layout.var_addr[var.0 as usize]
    }

    /// Read a source operand for the lanes of `mask` into `out`.
    pub(super) fn src(
        &self,
        slot: usize,
        w: &Warp,
        depth: u8,
        op: &Operand,
        mask: u32,
        out: &mut Col,
    ) -> Result<(), String> {
        match op {
            Operand::Reg(r) => *out = w.regs[depth as usize][r.0 as usize],
            Operand::NotPred(r) => {
                let c = &w.regs[depth as usize][r.0 as usize];
                for l in 0..LANES {
                    out[l] = (c[l] & 1) ^ 1;
                }
            }
            Operand::Imm(v) => *out = [*v; LANES],
            Operand::Special(s) => {
                for l in lanes(mask) {
                    out[l] = self.special(slot, w, *s, l);
                }
            }
            Operand::VarAddr { var, offset } => *out = [self.var_value(*var).wrapping_add(*offset as u64); LANES],
            Operand::ParamAddr { param, offset } => {
                // a kernel parameter's .param-space address: its offset in the parameter block
                let frame = &self.layout.frames[self.layout.entry.0 as usize];
                let off = frame.offsets.get(param.0 as usize).copied().ok_or("parameter index out of range")?;
                *out = [(off as u64).wrapping_add(*offset as u64); LANES];
            }
            Operand::Sink => *out = [0; LANES],
            Operand::Vector(_) => return Err("a vector operand is not allowed here".into()),
            Operand::Addr { .. } => return Err("an address operand is not allowed here".into()),
            Operand::Label(_) => return Err("a label is not a value".into()),
        }
        Ok(())
    }

    /// Write `vals` (bits of type `ty`) to a destination operand for the lanes of `mask`,
    /// extending to the register's width (sign-extending signed types).
    pub(super) fn dst(
        &self,
        w: &mut Warp,
        g: &Group,
        op: &Operand,
        vals: &Col,
        mask: u32,
        ty: Ty,
    ) -> Result<(), String> {
        match op {
            Operand::Reg(r) => {
                let rm = self.layout.reg_mask[g.func as usize][r.0 as usize];
                let col = &mut w.regs[g.depth as usize][r.0 as usize];
                let tb = ty.bits().min(64);
                if ty == Ty::Pred {
                    for l in lanes(mask) {
                        col[l] = vals[l] & 1;
                    }
                } else if mask == u32::MAX && (tb == 64 || !ty.is_signed()) {
                    let tm = alu::width_mask(tb);
                    for l in 0..LANES {
                        col[l] = vals[l] & tm & rm;
                    }
                } else {
                    for l in lanes(mask) {
                        col[l] = alu::widen(vals[l], ty) & rm;
                    }
                }
                Ok(())
            }
            Operand::Sink => Ok(()),
            Operand::Vector(items) => {
                // a packed value split into equal parts (mov.b64 {lo, hi}, x)
                let n = items.len() as u32;
                let part = (ty.bits().min(64) / n.max(1)).max(1);
                let pty = match part {
                    8 => Ty::B8,
                    16 => Ty::B16,
                    32 => Ty::B32,
                    _ => Ty::B64,
                };
                for (i, it) in items.iter().enumerate() {
                    let mut c = [0u64; LANES];
                    for l in lanes(mask) {
                        c[l] = (vals[l] >> (part * i as u32)) & alu::width_mask(part);
                    }
                    self.dst(w, g, it, &c, mask, pty)?;
                }
                Ok(())
            }
            other => Err(format!("{other:?} is not a destination")),
        }
    }

    /// Write one lane's value to a destination (used by responses, whose lanes may be at
    /// different call depths).
    pub(super) fn dst_lane(&self, w: &mut Warp, l: usize, op: &Operand, v: u64, ty: Ty) {
        let g = Group { mask: 1 << l, func: w.func[l], pc: w.pc[l], depth: w.depth[l] };
        let mut c = [0u64; LANES];
        c[l] = v;
        let _ = self.dst(w, &g, op, &c, 1 << l, ty);
    }

    /// Is `op` a `.b128` register of function `func` (two slots: low half, then high half)?
    fn b128_reg(&self, func: u32, op: &Operand) -> Option<usize> {
        match op {
            Operand::Reg(r) => {
                let regs = &self.module.funcs[func as usize].regs;
                // the high half's slot follows (the decoder allocates it); a hand-built module
                // without it keeps 64 bits
                (regs.get(r.0 as usize)?.ty == Ty::B128 && regs.len() > r.0 as usize + 1).then_some(r.0 as usize)
            }
            _ => None,
        }
    }

    /// A 128-bit source: a `.b128` register (both halves), or `{lo, hi}` of two 64-bit values, or
    /// any other value zero-extended.
    pub(super) fn src128(
        &self,
        slot: usize,
        w: &Warp,
        g: &Group,
        op: &Operand,
        m: u32,
    ) -> Result<[u128; LANES], String> {
        let mut out = [0u128; LANES];
        if let Some(r) = self.b128_reg(g.func, op) {
            let regs = &w.regs[g.depth as usize];
            for l in lanes(m) {
                out[l] = regs[r][l] as u128 | (regs[r + 1][l] as u128) << 64;
            }
            return Ok(out);
        }
        let items: Vec<&Operand> = match op {
            Operand::Vector(v) => v.iter().collect(),
            one => vec![one],
        };
        let part = 128 / items.len().max(1);
        let mut t = [0u64; LANES];
        for (i, it) in items.iter().enumerate() {
            self.src(slot, w, g.depth, it, m, &mut t)?;
            for l in lanes(m) {
                out[l] |= ((t[l] as u128) & ((1u128 << part.min(64)) - 1)) << (part * i);
            }
        }
        Ok(out)
    }

    /// A 128-bit destination: a `.b128` register (both halves), `{lo, hi}` (or four 32-bit parts),
    /// or a narrower register taking the low bits.
    pub(super) fn dst128(
        &self,
        w: &mut Warp,
        g: &Group,
        op: &Operand,
        vals: &[u128; LANES],
        m: u32,
    ) -> Result<(), String> {
        if let Some(r) = self.b128_reg(g.func, op) {
            let regs = &mut w.regs[g.depth as usize];
            for l in lanes(m) {
                regs[r][l] = vals[l] as u64;
                regs[r + 1][l] = (vals[l] >> 64) as u64;
            }
            return Ok(());
        }
        let items: Vec<&Operand> = match op {
            Operand::Vector(v) => v.iter().collect(),
            one => vec![one],
        };
        let part = (128 / items.len().max(1)).min(64);
        let pty = match part {
            8 => Ty::B8,
            16 => Ty::B16,
            32 => Ty::B32,
            _ => Ty::B64,
        };
        for (i, it) in items.iter().enumerate() {
            let mut c = [0u64; LANES];
            for l in lanes(m) {
                c[l] = (vals[l] >> (part * i)) as u64 & alu::width_mask(part as u32);
            }
            self.dst(w, g, it, &c, m, pty)?;
        }
        Ok(())
    }

    // ---- addresses and plain memory -----------------------------------------------------------

    /// Per-lane addresses of an address operand, in the instruction's space (`space`). A variable
    /// base in a generic access yields the variable's generic address.
    pub(super) fn addrs(
        &self,
        slot: usize,
        w: &Warp,
        g: &Group,
        op: &Operand,
        space: StateSpace,
        mask: u32,
    ) -> Result<Col, String> {
        let Operand::Addr { base, offset } = op else {
            return Err(format!("expected an address operand [..], found {op:?}"));
        };
        let mut out = [0u64; LANES];
        match base {
            AddrBase::Reg(r) => {
                let c = &w.regs[g.depth as usize][r.0 as usize];
                for l in lanes(mask) {
                    out[l] = c[l].wrapping_add(*offset as u64);
                }
            }
            AddrBase::Var(v) => {
                let var = self.module.var(*v);
                let mut a = self.var_value(*v).wrapping_add(*offset as u64);
                if space == StateSpace::Generic {
                    a = match var.space {
                        StateSpace::Shared | StateSpace::SharedCluster => a + SHARED_BASE,
                        StateSpace::Local | StateSpace::Param => a + LOCAL_BASE,
                        _ => a,
                    };
                }
                out = [a; LANES];
            }
            AddrBase::Param(p) => {
                let off = self.layout.frames[g.func as usize]
                    .offsets
                    .get(p.0 as usize)
                    .copied()
                    .ok_or("parameter index out of range")? as u64;
                if g.func == self.layout.entry.0 {
                    out = [off.wrapping_add(*offset as u64); LANES];
                } else {
                    // a .func's parameter frame lives on the lane's local stack
                    for l in lanes(mask) {
                        let base = w.frames[l].last().map(|f| f.base).unwrap_or(0) as u64;
                        out[l] = base + off.wrapping_add(*offset as u64);
                    }
                }
            }
            AddrBase::Abs => out = [*offset as u64; LANES],
        }
        let _ = slot;
        Ok(out)
    }

    /// Resolve one lane's address in `space` to a target; `None` when the address is in no window.
    pub(super) fn resolve(
        &self,
        slot: usize,
        g: &Group,
        space: StateSpace,
        base_is_var_param: bool,
        a: u64,
    ) -> Option<Target> {
        let cta = self.ctas[slot].as_ref().expect("resident");
        Some(match space {
            StateSpace::Global | StateSpace::Const => Target::Global(a),
            StateSpace::Shared => Target::Shared(slot, a),
            StateSpace::SharedCluster => self.cluster_target(cta, slot, a)?,
            StateSpace::Local => Target::Local(a),
            StateSpace::Param => {
                if g.func == self.layout.entry.0 && !base_is_var_param {
                    Target::KernelParam(a)
                } else {
                    Target::Local(a)
                }
            }
            StateSpace::Generic => match classify(a) {
                Generic::Global(x) => Target::Global(x),
                Generic::Shared(o) => Target::Shared(slot, o as u64),
                Generic::Cluster(..) => self.cluster_target(cta, slot, a)?,
                Generic::Local(o) => Target::Local(o as u64),
                Generic::Invalid => return None,
            },
        })
    }

    fn cluster_target(&self, cta: &Cta, slot: usize, a: u64) -> Option<Target> {
        if a < WINDOW {
            // a shared::cta offset used as shared::cluster: the own CTA
            return Some(Target::Shared(slot, a));
        }
        let off = a.checked_sub(CLUSTER_BASE)?;
        let rank = (off / WINDOW) as u32;
        let nctas: u32 = self.launch.cluster.iter().product();
        if rank >= nctas {
            return None;
        }
        Some(Target::Shared((cta.cluster_slot0 + rank) as usize, off % WINDOW))
    }

    pub(super) fn read_target(
        &self,
        slot: usize,
        w: &Warp,
        l: usize,
        t: Target,
        len: usize,
    ) -> Result<u128, ErrorCode> {
        match t {
            Target::Global(a) => self.mem.read_global(a, len),
            Target::Shared(s, o) => self.mem.read_shared(s, o, len),
            Target::Local(o) => {
                let cta = self.ctas[slot].as_ref().expect("resident");
                let lb = self.layout.local_bytes() as u64;
                if o + len as u64 > lb {
                    return Err(ErrorCode::GlobalOutOfRange);
                }
                let base = Self::lin_tid(w, l) as u64 * lb + o;
                let mut buf = [0u8; 16];
                buf[..len].copy_from_slice(&cta.local[base as usize..base as usize + len]);
                Ok(u128::from_le_bytes(buf))
            }
            Target::KernelParam(o) => {
                let p = &self.layout.kernel_params;
                if o as usize + len > p.len() {
                    return Err(ErrorCode::GlobalOutOfRange);
                }
                let mut buf = [0u8; 16];
                buf[..len].copy_from_slice(&p[o as usize..o as usize + len]);
                Ok(u128::from_le_bytes(buf))
            }
        }
    }

    pub(super) fn write_target(
        &mut self,
        slot: usize,
        w: &Warp,
        l: usize,
        t: Target,
        len: usize,
        v: u128,
    ) -> Result<(), ErrorCode> {
        match t {
            Target::Global(a) => self.mem.write_global(a, len, v),
            Target::Shared(s, o) => self.mem.write_shared(s, o, len, v),
            Target::Local(o) => {
                let lb = self.layout.local_bytes() as u64;
                if o + len as u64 > lb {
                    return Err(ErrorCode::GlobalOutOfRange);
                }
                let base = (Self::lin_tid(w, l) as u64 * lb + o) as usize;
                let cta = self.ctas[slot].as_mut().expect("resident");
                cta.local[base..base + len].copy_from_slice(&v.to_le_bytes()[..len]);
                Ok(())
            }
            Target::KernelParam(_) => Err(ErrorCode::GlobalOutOfRange),
        }
    }

    pub(super) fn new_tag(&mut self, slot: usize, wi: usize, g: &Group) -> u64 {
        let t = self.next_tag;
        self.next_tag += 1;
        self.pending.insert(t, Pending { slot, warp: wi, func: g.func, pc: g.pc });
        t
    }

    /// Submit a request whose lanes wait for its response.
    pub(super) fn submit_blocking(&mut self, w: &mut Warp, req: &Request) {
        for l in lanes(req.active_mask) {
            w.wait_tag[l] = req.tag;
        }
        w.waiting |= req.active_mask;
        self.submit(req);
    }

    pub(super) fn submit(&mut self, req: &Request) {
        self.stats.requests += 1;
        if self.opts.trace {
            self.trace.push(super::trace_request(req));
        }
        self.unit.submit(req, &mut self.mem, &mut self.out);
    }

    // ---- execution ---------------------------------------------------------------------------

    /// Execute one instruction for the lanes of group `g`.
    pub(super) fn exec(&mut self, slot: usize, w: &mut Warp, g: Group) -> Result<(), ExecError> {
        let func = &self.module.funcs[g.func as usize];
        let Some(instr) = func.body.get(g.pc as usize) else {
            // falling off the end of a function is an implicit ret
            return self.do_ret(slot, w, g, g.mask);
        };
        self.stats.warp_instructions += 1;
        self.stats.thread_instructions += g.mask.count_ones() as u64;
        // guard predicate
        let mut m = g.mask;
        if let Some(gd) = instr.guard {
            let c = &w.regs[g.depth as usize][gd.pred.0 as usize];
            let mut on = 0u32;
            for l in lanes(g.mask) {
                if ((c[l] & 1) == 1) != gd.negated {
                    on |= 1 << l;
                }
            }
            m = on;
        }
        let off = g.mask & !m;
        let wrap = |e: String| self.unsupported(slot, w, &g, e);
        match &instr.op {
            Opcode::Mov(Ty::B128) => {
                // all 128 bits travel: mov.b128 d, {lo, hi} / {lo, hi}, d / d, s
                let v = self.src128(slot, w, &g, &instr.ops[1], m).map_err(wrap)?;
                self.dst128(w, &g, &instr.ops[0], &v, m).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Mov(ty) => {
                let mut a = [0u64; LANES];
                if let Operand::Vector(items) = &instr.ops[1] {
                    // mov.b64 d, {lo, hi}: pack
                    let part = ty.bits().min(64) / items.len().max(1) as u32;
                    let mut t = [0u64; LANES];
                    for (i, it) in items.iter().enumerate() {
                        self.src(slot, w, g.depth, it, m, &mut t).map_err(wrap)?;
                        for l in lanes(m) {
                            a[l] |= (t[l] & alu::width_mask(part)) << (part * i as u32);
                        }
                    }
                } else {
                    self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                }
                self.dst(w, &g, &instr.ops[0], &a, m, *ty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Arith { op, ty, mode, rnd, sat, ftz } => {
                let (mut a, mut b, mut c) = ([0u64; LANES], [0u64; LANES], [0u64; LANES]);
                let n = instr.ops.len();
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                if n > 2 {
                    self.src(slot, w, g.depth, &instr.ops[2], m, &mut b).map_err(wrap)?;
                }
                if n > 3 {
                    self.src(slot, w, g.depth, &instr.ops[3], m, &mut c).map_err(wrap)?;
                }
                let mut d = [0u64; LANES];
                let (op, ty, mode, rnd, sat, ftz) = (*op, *ty, *mode, *rnd, *sat, *ftz);
                let dty = if mode == Some(crate::ptx::ir::MulMode::Wide) { wide_ty(ty) } else { ty };
                if ty.is_float() {
                    for l in lanes(m) {
                        d[l] = alu::float_arith(op, ty, rnd, sat, ftz, a[l], b[l], c[l])
                            .map_err(|e| self.unsupported(slot, w, &g, e))?;
                    }
                } else if m == u32::MAX
                    && !sat
                    && matches!(mode, None | Some(crate::ptx::ir::MulMode::Lo))
                    && fast_int(op)
                {
                    // the hottest integer ops on a converged warp: one tight loop each (the
                    // destination write masks to the type's width)
                    use crate::ptx::ir::ArithOp as A;
                    match op {
                        A::Add => (0..LANES).for_each(|l| d[l] = a[l].wrapping_add(b[l])),
                        A::Sub => (0..LANES).for_each(|l| d[l] = a[l].wrapping_sub(b[l])),
                        A::Mul => (0..LANES).for_each(|l| d[l] = a[l].wrapping_mul(b[l])),
                        _ => (0..LANES).for_each(|l| d[l] = a[l].wrapping_mul(b[l]).wrapping_add(c[l])),
                    }
                } else {
                    for l in lanes(m) {
                        d[l] = alu::int_arith(op, ty, mode, sat, a[l], b[l], c[l])
                            .map_err(|e| self.unsupported(slot, w, &g, e))?;
                    }
                }
                self.dst(w, &g, &instr.ops[0], &d, m, dty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Logic { op, ty } => {
                let (mut a, mut b) = ([0u64; LANES], [0u64; LANES]);
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                if instr.ops.len() > 2 {
                    self.src(slot, w, g.depth, &instr.ops[2], m, &mut b).map_err(wrap)?;
                }
                let mut d = [0u64; LANES];
                use crate::ptx::ir::LogicOp as L;
                if m == u32::MAX && *ty != Ty::Pred && matches!(op, L::And | L::Or | L::Xor) {
                    match op {
                        L::And => (0..LANES).for_each(|l| d[l] = a[l] & b[l]),
                        L::Or => (0..LANES).for_each(|l| d[l] = a[l] | b[l]),
                        _ => (0..LANES).for_each(|l| d[l] = a[l] ^ b[l]),
                    }
                } else if m == u32::MAX && !ty.is_signed() && *ty != Ty::Pred && matches!(op, L::Shl | L::Shr) {
                    // unsigned shifts clamp at the width
                    let bits = ty.bits().min(64) as u64;
                    let wm = alu::width_mask(bits as u32);
                    if *op == L::Shl {
                        (0..LANES).for_each(|l| {
                            d[l] = if (b[l] as u32 as u64) < bits { (a[l] << (b[l] as u32)) & wm } else { 0 }
                        });
                    } else {
                        (0..LANES).for_each(|l| {
                            d[l] = if (b[l] as u32 as u64) < bits { (a[l] & wm) >> (b[l] as u32) } else { 0 }
                        });
                    }
                } else {
                    for l in lanes(m) {
                        d[l] = alu::logic(*op, *ty, a[l], b[l]);
                    }
                }
                self.dst(w, &g, &instr.ops[0], &d, m, *ty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Bit { op, ty } => {
                let mut s = [[0u64; LANES]; 4];
                for i in 1..instr.ops.len().min(5) {
                    self.src(slot, w, g.depth, &instr.ops[i], m, &mut s[i - 1]).map_err(wrap)?;
                }
                let mut d = [0u64; LANES];
                for l in lanes(m) {
                    d[l] = alu::bit(*op, *ty, s[0][l], s[1][l], s[2][l], s[3][l])
                        .map_err(|e| self.unsupported(slot, w, &g, e))?;
                }
                let dty = match op {
                    crate::ptx::ir::BitOp::Popc
                    | crate::ptx::ir::BitOp::Clz
                    | crate::ptx::ir::BitOp::Bfind
                    | crate::ptx::ir::BitOp::BfindShiftamt => Ty::U32,
                    crate::ptx::ir::BitOp::Prmt => Ty::B32,
                    _ => *ty,
                };
                self.dst(w, &g, &instr.ops[0], &d, m, dty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Setp { cmp, ty, combine, ftz } => {
                let (mut a, mut b, mut c) = ([0u64; LANES], [0u64; LANES], [1u64; LANES]);
                let (dsts, srcs): (Vec<&Operand>, &[Operand]) = match &instr.ops[0] {
                    Operand::Vector(v) => (v.iter().collect(), &instr.ops[1..]),
                    first => (vec![first], &instr.ops[1..]),
                };
                self.src(slot, w, g.depth, &srcs[0], m, &mut a).map_err(wrap)?;
                self.src(slot, w, g.depth, &srcs[1], m, &mut b).map_err(wrap)?;
                if let Some(cop) = srcs.get(2) {
                    self.src(slot, w, g.depth, cop, m, &mut c).map_err(wrap)?;
                }
                let (mut p, mut q) = ([0u64; LANES], [0u64; LANES]);
                if m == u32::MAX && combine.is_none() && !ty.is_float() && *ty != Ty::Pred {
                    // converged integer compare: widen once, one tight loop
                    use crate::ptx::ir::CmpOp as C;
                    let signed = ty.is_signed();
                    for l in 0..LANES {
                        a[l] = alu::widen(a[l], *ty);
                        b[l] = alu::widen(b[l], *ty);
                    }
                    let t: fn(u64, u64) -> bool = match (cmp, signed) {
                        (C::Eq | C::Equ, _) => |x, y| x == y,
                        (C::Ne | C::Neu, _) => |x, y| x != y,
                        (C::Lt | C::Ltu, true) => |x, y| (x as i64) < (y as i64),
                        (C::Le | C::Leu, true) => |x, y| (x as i64) <= (y as i64),
                        (C::Gt | C::Gtu, true) => |x, y| (x as i64) > (y as i64),
                        (C::Ge | C::Geu, true) => |x, y| (x as i64) >= (y as i64),
                        (C::Lt | C::Ltu | C::Lo, _) => |x, y| x < y,
                        (C::Le | C::Leu | C::Ls, _) => |x, y| x <= y,
                        (C::Gt | C::Gtu | C::Hi, _) => |x, y| x > y,
                        (C::Ge | C::Geu | C::Hs, _) => |x, y| x >= y,
                        (C::Num, _) => |_, _| true,
                        (C::Nan, _) => |_, _| false,
                    };
                    for l in 0..LANES {
                        let v = t(a[l], b[l]);
                        p[l] = v as u64;
                        q[l] = !v as u64;
                    }
                } else {
                    for l in lanes(m) {
                        let t = alu::compare(*cmp, *ty, *ftz, a[l], b[l]);
                        let cc = c[l] & 1 == 1;
                        let (pv, qv) = match combine {
                            None => (t, !t),
                            Some(crate::ptx::ir::BoolOp::And) => (t && cc, !t && cc),
                            Some(crate::ptx::ir::BoolOp::Or) => (t || cc, !t || cc),
                            Some(crate::ptx::ir::BoolOp::Xor) => (t ^ cc, !t ^ cc),
                        };
                        p[l] = pv as u64;
                        q[l] = qv as u64;
                    }
                }
                self.dst(w, &g, dsts[0], &p, m, Ty::Pred).map_err(|e| self.unsupported(slot, w, &g, e))?;
                if let Some(qd) = dsts.get(1) {
                    self.dst(w, &g, qd, &q, m, Ty::Pred).map_err(|e| self.unsupported(slot, w, &g, e))?;
                }
            }
            Opcode::Set { cmp, dst, ty, combine, ftz } => {
                let (mut a, mut b, mut c) = ([0u64; LANES], [0u64; LANES], [1u64; LANES]);
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                self.src(slot, w, g.depth, &instr.ops[2], m, &mut b).map_err(wrap)?;
                if let Some(cop) = instr.ops.get(3) {
                    self.src(slot, w, g.depth, cop, m, &mut c).map_err(wrap)?;
                }
                let mut d = [0u64; LANES];
                for l in lanes(m) {
                    let t = alu::compare(*cmp, *ty, *ftz, a[l], b[l]);
                    let cc = c[l] & 1 == 1;
                    let r = match combine {
                        None => t,
                        Some(crate::ptx::ir::BoolOp::And) => t && cc,
                        Some(crate::ptx::ir::BoolOp::Or) => t || cc,
                        Some(crate::ptx::ir::BoolOp::Xor) => t ^ cc,
                    };
                    d[l] = match (dst, r) {
                        (Ty::F32, true) => 1.0f32.to_bits() as u64,
                        (_, false) => 0,
                        _ => u32::MAX as u64,
                    };
                }
                self.dst(w, &g, &instr.ops[0], &d, m, *dst).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Selp(ty) => {
                let (mut a, mut b, mut c) = ([0u64; LANES], [0u64; LANES], [0u64; LANES]);
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                self.src(slot, w, g.depth, &instr.ops[2], m, &mut b).map_err(wrap)?;
                self.src(slot, w, g.depth, &instr.ops[3], m, &mut c).map_err(wrap)?;
                let mut d = [0u64; LANES];
                for l in lanes(m) {
                    d[l] = if c[l] & 1 == 1 { a[l] } else { b[l] };
                }
                self.dst(w, &g, &instr.ops[0], &d, m, *ty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Cvt { dst, src, rnd, sat, ftz } => {
                let mut a = [0u64; LANES];
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                let mut d = [0u64; LANES];
                for l in lanes(m) {
                    d[l] =
                        alu::cvt(*dst, *src, *rnd, *sat, *ftz, a[l]).map_err(|e| self.unsupported(slot, w, &g, e))?;
                }
                self.dst(w, &g, &instr.ops[0], &d, m, *dst).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::CvtPacked { dst, src, rnd, relu, satfinite } => {
                let (mut a, mut b) = ([0u64; LANES], [0u64; LANES]);
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                if let Some(bop) = instr.ops.get(2) {
                    self.src(slot, w, g.depth, bop, m, &mut b).map_err(wrap)?;
                }
                let mut d = [0u64; LANES];
                for l in lanes(m) {
                    d[l] = alu::cvt_packed(*dst, *src, *rnd, *relu, *satfinite, a[l], b[l]);
                }
                let dty = if matches!(dst, PackedFmt::E4m3x2 | PackedFmt::E5m2x2) { Ty::B16 } else { Ty::B32 };
                self.dst(w, &g, &instr.ops[0], &d, m, dty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Carry { op, ty, cin, cout } => {
                let mut s = [[0u64; LANES]; 3];
                for i in 1..instr.ops.len().min(4) {
                    self.src(slot, w, g.depth, &instr.ops[i], m, &mut s[i - 1]).map_err(wrap)?;
                }
                let mut d = [0u64; LANES];
                for l in lanes(m) {
                    let cf = *cin && w.carry >> l & 1 == 1;
                    let (v, out) = alu::carry(*op, *ty, cf, s[0][l], s[1][l], s[2][l]);
                    d[l] = v;
                    if *cout {
                        w.carry = (w.carry & !(1 << l)) | (out as u32) << l;
                    }
                }
                self.dst(w, &g, &instr.ops[0], &d, m, *ty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Cvta { space, to_generic, ty } => {
                let mut a = [0u64; LANES];
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                let mut d = [0u64; LANES];
                for l in lanes(m) {
                    d[l] = match self.cvta(*space, *to_generic, a[l]) {
                        Some(v) => v,
                        None => {
                            return Err(self.ub(
                                slot,
                                w,
                                &g,
                                                if *space == StateSpace::Param {
                                    format!("cvta{}.param: address {:#x} is not in the kernel's parameter block ({} bytes)", if *to_generic { "" } else { ".to" }, a[l], self.layout.kernel_params.len())
                                } else {
                                    format!("cvta.to.{space:?}: address {:#x} is not in the {space:?} window of the generic address space", a[l]).to_lowercase()
                                },
                                None,
                                Some(l),
                            ))
                        }
                    };
                }
                self.dst(w, &g, &instr.ops[0], &d, m, *ty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Ld { space, ty, vec } => {
                return self.exec_ld(slot, w, g, m, off, instr, *space, *ty, *vec);
            }
            Opcode::St { space, ty, vec } => {
                return self.exec_st(slot, w, g, m, off, instr, *space, *ty, *vec);
            }
            Opcode::Bra { .. } => {
                let Some(Operand::Label(t)) = instr.ops.first() else {
                    return Err(self.unsupported(slot, w, &g, "bra needs a label operand"));
                };
                w.set_pc(m, *t);
                w.advance(off);
                return Ok(());
            }
            Opcode::Call { func: callee, .. } => {
                return self.do_call(slot, w, g, m, off, instr, callee.0);
            }
            Opcode::Ret => {
                w.advance(off);
                return self.do_ret(slot, w, g, m);
            }
            Opcode::Exit => {
                w.advance(off);
                return self.do_exit(slot, w, m);
            }
            Opcode::TensormapCpFenceproxy { .. } => {
                // A plain 128-byte copy shared::cta -> global per lane; the proxy release and the
                // warp-wide `.sync` wait have no further observable effect in this sequentially
                // consistent, in-order model.
                let dst = self.addrs(slot, w, &g, &instr.ops[0], StateSpace::Global, m).map_err(wrap)?;
                let src = self.addrs(slot, w, &g, &instr.ops[1], StateSpace::Shared, m).map_err(wrap)?;
                for l in lanes(m) {
                    for chunk in 0..8u64 {
                        let v = self.mem.read_shared(slot, src[l] + 16 * chunk, 16).map_err(|e| {
                            self.ub(
                                slot,
                                w,
                                &g,
                                format!("tensormap.cp_fenceproxy source {:#x}: {}", src[l], e.name()),
                                Some(115),
                                Some(l),
                            )
                        })?;
                        self.mem.write_global(dst[l] + 16 * chunk, 16, v).map_err(|e| {
                            self.ub(
                                slot,
                                w,
                                &g,
                                format!("tensormap.cp_fenceproxy destination {:#x}: {}", dst[l], e.name()),
                                Some(115),
                                Some(l),
                            )
                        })?;
                    }
                }
            }
            Opcode::Fence { proxy: true, .. } if !instr.ops.is_empty() => {
                // fence.proxy.tensormap::generic.acquire [addr], 128: the address must be global
                let a = self.addrs(slot, w, &g, &instr.ops[0], StateSpace::Generic, m).map_err(wrap)?;
                let var_space = match &instr.ops[0] {
                    Operand::Addr { base: AddrBase::Var(v), .. } => Some(self.module.var(*v).space),
                    _ => None,
                };
                for l in lanes(m) {
                    let global = match var_space {
                        Some(sp) => sp == StateSpace::Global,
                        None => matches!(classify(a[l]), Generic::Global(_)),
                    };
                    if !global {
                        return Err(self.ub(
                            slot,
                            w,
                            &g,
                            format!("fence.proxy.tensormap::generic.acquire needs a global address, found {:#x}", a[l]),
                            Some(116),
                            Some(l),
                        ));
                    }
                }
            }
            Opcode::ClcQueryCancel { first_ctaid } => {
                // project response layout: bit 0 = canceled; this model only produces failed
                // (all-zero) responses, so is_canceled is false and get_first_ctaid is UB
                let mut h = [0u64; LANES];
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut h).map_err(wrap)?;
                match first_ctaid {
                    None => {
                        let mut d = [0u64; LANES];
                        for l in lanes(m) {
                            d[l] = h[l] & 1;
                        }
                        self.dst(w, &g, &instr.ops[0], &d, m, Ty::Pred)
                            .map_err(|e| self.unsupported(slot, w, &g, e))?;
                    }
                    Some(_) => {
                        let l = m.trailing_zeros() as usize;
                        if h[l] & 1 == 0 {
                            return Err(self.ub(
                                slot,
                                w,
                                &g,
                                "clusterlaunchcontrol.query_cancel.get_first_ctaid on a failed try_cancel response",
                                Some(45),
                                Some(l),
                            ));
                        }
                        return Err(self.unsupported(
                            slot,
                            w,
                            &g,
                            "get_first_ctaid of a successful response: this model never cancels a cluster",
                        ));
                    }
                }
            }
            Opcode::Mapa { space, ty } | Opcode::GetCtaRank { space, ty } => {
                let is_mapa = matches!(instr.op, Opcode::Mapa { .. });
                let (mut a, mut b) = ([0u64; LANES], [0u64; LANES]);
                self.src(slot, w, g.depth, &instr.ops[1], m, &mut a).map_err(wrap)?;
                if is_mapa {
                    self.src(slot, w, g.depth, &instr.ops[2], m, &mut b).map_err(wrap)?;
                }
                let own = self.ctas[slot].as_ref().expect("resident").rank;
                let nctas: u32 = self.launch.cluster.iter().product();
                let name = if is_mapa { "mapa" } else { "getctarank" };
                let mut d = [0u64; LANES];
                for l in lanes(m) {
                    let x = a[l] & alu::width_mask(ty.bits());
                    // (rank, offset) of the shared variable `x` names
                    let place = match (space, classify(x)) {
                        (StateSpace::SharedCluster, _) if x < WINDOW => Some((own, x)),
                        (StateSpace::Generic, Generic::Shared(o)) => Some((own, o as u64)),
                        (_, Generic::Cluster(r, o)) if r < nctas => Some((r, o as u64)),
                        _ => None,
                    };
                    let Some((rank, offset)) = place else {
                        let what = if *space == StateSpace::Generic {
                            "a generic address of shared memory"
                        } else {
                            "a shared::cluster address"
                        };
                        return Err(self.ub(
                            slot,
                            w,
                            &g,
                            format!("{name}: {x:#x} is not {what} of this cluster"),
                            None,
                            Some(l),
                        ));
                    };
                    d[l] = if is_mapa {
                        let target = b[l] as u32;
                        if target >= nctas {
                            return Err(self.ub(
                                slot,
                                w,
                                &g,
                                format!("mapa: target CTA rank {target} is not in the cluster ({nctas} CTAs)"),
                                None,
                                Some(l),
                            ));
                        }
                        CLUSTER_BASE + target as u64 * WINDOW + offset
                    } else {
                        rank as u64
                    };
                }
                let dty = if is_mapa { *ty } else { Ty::U32 };
                self.dst(w, &g, &instr.ops[0], &d, m, dty).map_err(|e| self.unsupported(slot, w, &g, e))?;
            }
            Opcode::Nanosleep | Opcode::Fence { .. } | Opcode::GridDepControl { .. } => {
                // No-ops in this sequentially consistent, in-order model; their operands and
                // qualifiers were validated by the front end.
            }
            _ => {
                // everything else belongs to the sync unit
                return self.exec_sync(slot, w, g, m, off, instr);
            }
        }
        w.advance(g.mask);
        Ok(())
    }

    fn cvta(&self, space: StateSpace, to_generic: bool, a: u64) -> Option<u64> {
        if space == StateSpace::Param {
            // the kernel's parameter block and its read-only copy in global memory (loader)
            let (base, len) = (self.layout.param_base, self.layout.kernel_params.len() as u64);
            debug_assert!(base != 0, "the loader maps the parameter block when cvta.param occurs");
            return if to_generic {
                (a < len).then(|| base + a)
            } else {
                (base..base + len).contains(&a).then(|| a - base)
            };
        }
        let (base, local) = match space {
            StateSpace::Shared => (SHARED_BASE, true),
            StateSpace::Local => (LOCAL_BASE, true),
            StateSpace::SharedCluster => (CLUSTER_BASE, false),
            _ => (0, false),
        };
        if to_generic {
            return Some(if local { a + base } else { a });
        }
        if !local {
            return Some(a);
        }
        (base..base + WINDOW).contains(&a).then(|| a - base)
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_ld(
        &mut self,
        slot: usize,
        w: &mut Warp,
        g: Group,
        m: u32,
        off: u32,
        instr: &'a Instr,
        space: StateSpace,
        ty: Ty,
        vec: u8,
    ) -> Result<(), ExecError> {
        let vec = vec.max(1) as usize;
        let eb = ty.bytes() as usize;
        let len = eb * vec;
        let a = self.addrs(slot, w, &g, &instr.ops[1], space, m).map_err(|e| self.unsupported(slot, w, &g, e))?;
        let var_param = matches!(&instr.ops[1], Operand::Addr { base: AddrBase::Var(_), .. });
        let mut vals = [0u128; LANES];
        let mut shared_lanes = 0u32;
        let mut lsu = Request::new(0, slot as u16, w.index as u16, Op::LdShared);
        for l in lanes(m) {
            let t = self.resolve(slot, &g, space, var_param, a[l]).ok_or_else(|| {
                self.ub(
                    slot,
                    w,
                    &g,
                    format!("generic address {:#x} is in no memory window (global, shared, local)", a[l]),
                    None,
                    Some(l),
                )
            })?;
            self.check_align(slot, w, &g, l, a[l], len, t)?;
            match t {
                Target::Shared(s, o) if s == slot => {
                    shared_lanes |= 1 << l;
                    lsu.lanes[l].addr = o;
                }
                _ => {
                    vals[l] =
                        self.read_target(slot, w, l, t, len).map_err(|e| self.mem_err(slot, w, &g, l, a[l], len, e))?;
                }
            }
        }
        let plain = m & !shared_lanes;
        self.write_loaded(w, &g, &instr.ops[0], &vals, plain, ty, vec);
        w.advance(plain | off);
        self.submit_lsu(slot, w, &g, lsu, shared_lanes, eb, vec as u8, len)
    }

    /// Unpack loaded bytes into the destination (vector or scalar), extending per `ty`.
    pub(super) fn write_loaded(
        &self,
        w: &mut Warp,
        g: &Group,
        d: &Operand,
        vals: &[u128; LANES],
        mask: u32,
        ty: Ty,
        vec: usize,
    ) {
        let eb = ty.bytes() as usize * 8;
        if eb == 128 && vec == 1 {
            let _ = self.dst128(w, g, d, vals, mask);
            return;
        }
        let items: Vec<&Operand> = match d {
            Operand::Vector(v) => v.iter().collect(),
            one => vec![one],
        };
        for (i, it) in items.iter().enumerate().take(vec) {
            let mut c = [0u64; LANES];
            for l in lanes(mask) {
                c[l] = ((vals[l] >> (eb * i)) as u64) & alu::width_mask(eb as u32);
            }
            let _ = self.dst(w, g, it, &c, mask, ty);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_st(
        &mut self,
        slot: usize,
        w: &mut Warp,
        g: Group,
        m: u32,
        off: u32,
        instr: &'a Instr,
        space: StateSpace,
        ty: Ty,
        vec: u8,
    ) -> Result<(), ExecError> {
        let vec = vec.max(1) as usize;
        let eb = ty.bytes() as usize;
        let len = eb * vec;
        let a = self.addrs(slot, w, &g, &instr.ops[0], space, m).map_err(|e| self.unsupported(slot, w, &g, e))?;
        let var_param = matches!(&instr.ops[0], Operand::Addr { base: AddrBase::Var(_), .. });
        let data =
            self.pack_values(slot, w, &g, &instr.ops[1], m, ty, vec).map_err(|e| self.unsupported(slot, w, &g, e))?;
        let mut shared_lanes = 0u32;
        let mut lsu = Request::new(0, slot as u16, w.index as u16, Op::StShared);
        // Lanes are processed in ascending order, so the highest lane's store wins on a
        // same-address conflict (deterministic).
        for l in lanes(m) {
            let t = self.resolve(slot, &g, space, var_param, a[l]).ok_or_else(|| {
                self.ub(
                    slot,
                    w,
                    &g,
                    format!("generic address {:#x} is in no memory window (global, shared, local)", a[l]),
                    None,
                    Some(l),
                )
            })?;
            self.check_align(slot, w, &g, l, a[l], len, t)?;
            match t {
                Target::Shared(s, o) if s == slot => {
                    shared_lanes |= 1 << l;
                    lsu.lanes[l].addr = o;
                    lsu.lanes[l].a = data[l];
                }
                Target::Global(x)
                    if (self.layout.param_base..self.layout.param_base + self.layout.kernel_params.len() as u64)
                        .contains(&x) =>
                {
                    return Err(self.ub(
                        slot,
                        w,
                        &g,
                        format!(
                            "store to {x:#x}, a kernel parameter's generic address (kernel parameters are read-only)"
                        ),
                        None,
                        Some(l),
                    ))
                }
                Target::KernelParam(_) => {
                    return Err(self.ub(
                        slot,
                        w,
                        &g,
                        "st.param to a kernel parameter (kernel parameters are read-only)",
                        None,
                        Some(l),
                    ))
                }
                _ => self
                    .write_target(slot, w, l, t, len, data[l])
                    .map_err(|e| self.mem_err(slot, w, &g, l, a[l], len, e))?,
            }
        }
        w.advance((m & !shared_lanes) | off);
        self.submit_lsu(slot, w, &g, lsu, shared_lanes, eb, vec as u8, len)
    }

    /// Pack a (vector) source operand into per-lane little-endian bytes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pack_values(
        &self,
        slot: usize,
        w: &Warp,
        g: &Group,
        op: &Operand,
        m: u32,
        ty: Ty,
        vec: usize,
    ) -> Result<[u128; LANES], String> {
        let eb = ty.bytes() as usize * 8;
        if eb == 128 && vec == 1 {
            return self.src128(slot, w, g, op, m);
        }
        let items: Vec<&Operand> = match op {
            Operand::Vector(v) => v.iter().collect(),
            one => vec![one],
        };
        if items.len() < vec {
            return Err(format!("expected a vector of {vec} values"));
        }
        let mut data = [0u128; LANES];
        let mut t = [0u64; LANES];
        for (i, it) in items.iter().enumerate().take(vec) {
            self.src(slot, w, g.depth, it, m, &mut t)?;
            for l in lanes(m) {
                data[l] |= ((t[l] & alu::width_mask(eb as u32)) as u128) << (eb * i);
            }
        }
        Ok(data)
    }

    #[allow(clippy::too_many_arguments)]
    /// Send the shared-memory lanes of a plain ld/st through the sync unit's LSU port (so the RTL
    /// sees every shared access); the warp blocks until the response arrives.
    #[allow(clippy::too_many_arguments)]
    fn submit_lsu(
        &mut self,
        slot: usize,
        w: &mut Warp,
        g: &Group,
        mut lsu: Request,
        shared_lanes: u32,
        eb: usize,
        vec: u8,
        len: usize,
    ) -> Result<(), ExecError> {
        if shared_lanes == 0 {
            return Ok(());
        }
        if len > 16 {
            let what = if lsu.op == Op::LdShared { "ld.shared" } else { "st.shared" };
            return Err(self.unsupported(slot, w, g, format!("{what} wider than 16 bytes per thread")));
        }
        lsu.tag = self.new_tag(slot, w.index as usize, g);
        lsu.imm = eb as u32;
        lsu.vec = vec;
        lsu.active_mask = shared_lanes;
        lsu.live_mask = w.live;
        self.submit_blocking(w, &lsu);
        Ok(())
    }

    fn check_align(
        &self,
        slot: usize,
        w: &Warp,
        g: &Group,
        l: usize,
        a: u64,
        len: usize,
        t: Target,
    ) -> Result<(), ExecError> {
        let off = match t {
            Target::Global(x) => x,
            Target::Shared(_, o) | Target::Local(o) | Target::KernelParam(o) => o,
        };
        if len.is_power_of_two() && off % len as u64 != 0 {
            return Err(self.ub(
                slot,
                w,
                g,
                format!("misaligned plain access: address {a:#x} is not {len}-byte aligned"),
                None,
                Some(l),
            ));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn mem_err(&self, slot: usize, w: &Warp, g: &Group, l: usize, a: u64, len: usize, e: ErrorCode) -> ExecError {
        let what = match e {
            ErrorCode::SharedOutOfRange => {
                format!("{} ({len} bytes at shared offset {a:#x}; shared_bytes = {})", e.name(), self.cfg.shared_bytes)
            }
            _ => format!(
                "{} ({len} bytes at {a:#x}; global memory is {:#x}..{:#x}, local memory {} bytes per thread)",
                e.name(),
                self.mem.global.base,
                self.mem.global.base + self.mem.global.bytes.len() as u64,
                self.layout.local_bytes()
            ),
        };
        self.ub(slot, w, g, what, None, Some(l))
    }

    #[allow(clippy::too_many_arguments)]
    fn do_call(
        &mut self,
        slot: usize,
        w: &mut Warp,
        g: Group,
        m: u32,
        off: u32,
        instr: &'a Instr,
        callee: u32,
    ) -> Result<(), ExecError> {
        let cf = &self.module.funcs[callee as usize];
        let frame = self.layout.frames[callee as usize].clone();
        let (rets, args) = match (&instr.ops.first(), &instr.ops.get(1)) {
            (Some(Operand::Vector(r)), Some(Operand::Vector(a))) => (r, a),
            _ => return Err(self.unsupported(slot, w, &g, "call needs (rets), func, (args) operands")),
        };
        let _ = rets;
        if args.len() != cf.params.len() {
            return Err(self.unsupported(
                slot,
                w,
                &g,
                format!("call passes {} arguments, `{}` takes {}", args.len(), cf.name, cf.params.len()),
            ));
        }
        let need = g.depth as usize + 2;
        while w.regs.len() < need {
            w.regs.push(vec![[0u64; LANES]; self.layout.max_regs]);
        }
        // copy arguments into each lane's new frame on its local stack (`.reg` parameters into
        // the callee's registers)
        let lb = self.layout.local_bytes();
        for l in lanes(m) {
            let base = w.sp[l];
            if base + frame.size > lb {
                return Err(self.ub(
                    slot,
                    w,
                    &g,
                    format!("call stack overflow ({} bytes of local stack per thread)", self.layout.stack_bytes),
                    None,
                    Some(l),
                ));
            }
            for (i, (arg, p)) in args.iter().zip(&cf.params).enumerate() {
                let size = loader::param_size(p) as usize;
                let dst = Target::Local((base + frame.offsets[i]) as u64);
                if let (Operand::VarAddr { var, offset }, None) = (arg, p.reg) {
                    // a `.param` variable of any size (a by-value struct): copied whole
                    let from = (self.var_value(*var) as i64 + offset) as u64;
                    self.copy_local(slot, w, l, from, (base + frame.offsets[i]) as u64, size)
                        .map_err(|e| self.mem_err(slot, w, &g, l, base as u64, size, e))?;
                    continue;
                }
                let v = self.arg_value(slot, w, &g, l, arg, size).map_err(|e| self.unsupported(slot, w, &g, e))?;
                if let Some(r) = p.reg {
                    let rm = self.layout.reg_mask[callee as usize][r.0 as usize];
                    w.regs[g.depth as usize + 1][r.0 as usize][l] = alu::widen(v as u64, p.ty) & rm;
                    continue;
                }
                self.write_target(slot, w, l, dst, size.min(16), v)
                    .map_err(|e| self.mem_err(slot, w, &g, l, base as u64, size, e))?;
            }
            w.frames[l].push(Frame { ret_func: g.func, ret_pc: g.pc, base, saved_sp: base });
            w.sp[l] = base + frame.size;
            w.func[l] = callee;
            w.pc[l] = 0;
            w.depth[l] = g.depth + 1;
        }
        w.advance(off);
        Ok(())
    }

    /// One call argument's bytes for lane `l`: a param variable's contents, or a value.
    fn arg_value(
        &self,
        slot: usize,
        w: &Warp,
        g: &Group,
        l: usize,
        arg: &Operand,
        size: usize,
    ) -> Result<u128, String> {
        match arg {
            Operand::VarAddr { var, offset } | Operand::Addr { base: AddrBase::Var(var), offset } => {
                let a = (self.var_value(*var) as i64 + offset) as u64;
                self.read_target(slot, w, l, Target::Local(a), size.min(16)).map_err(|e| e.name().to_string())
            }
            other if size == 16 => Ok(self.src128(slot, w, g, other, 1 << l)?[l]),
            other => {
                let mut c = [0u64; LANES];
                self.src(slot, w, g.depth, other, 1 << l, &mut c)?;
                Ok(c[l] as u128)
            }
        }
    }

    /// Copies `size` bytes of lane `l`'s local memory from `from` to `to`, 16 bytes at a time.
    fn copy_local(
        &mut self,
        slot: usize,
        w: &Warp,
        l: usize,
        from: u64,
        to: u64,
        size: usize,
    ) -> Result<(), ErrorCode> {
        for at in (0..size).step_by(16) {
            let n = (size - at).min(16);
            let v = self.read_target(slot, w, l, Target::Local(from + at as u64), n)?;
            self.write_target(slot, w, l, Target::Local(to + at as u64), n, v)?;
        }
        Ok(())
    }

    fn do_ret(&mut self, slot: usize, w: &mut Warp, g: Group, m: u32) -> Result<(), ExecError> {
        if m == 0 {
            return Ok(());
        }
        if g.depth == 0 {
            return self.do_exit(slot, w, m);
        }
        let callee = g.func as usize;
        let cf = &self.module.funcs[callee];
        let frame = self.layout.frames[callee].clone();
        for l in lanes(m) {
            let Some(fr) = w.frames[l].pop() else { continue };
            let call = self.instr(fr.ret_func, fr.ret_pc);
            let rets = match call.ops.first() {
                Some(Operand::Vector(r)) => r.clone(),
                _ => vec![],
            };
            // restore the caller first, so that register writes land in its window
            w.func[l] = fr.ret_func;
            w.pc[l] = fr.ret_pc + 1;
            w.depth[l] = g.depth - 1;
            w.sp[l] = fr.saved_sp;
            for (i, (r, p)) in rets.iter().zip(&cf.rets).enumerate() {
                if let (Operand::VarAddr { var, offset }, None) = (r, p.reg) {
                    // a `.param` return value of any size: copied whole into the caller's variable
                    let from = (fr.base + frame.offsets[cf.params.len() + i]) as u64;
                    let to = (self.var_value(*var) as i64 + offset) as u64;
                    let _ = self.copy_local(slot, w, l, from, to, loader::param_size(p) as usize);
                    continue;
                }
                let size = (loader::param_size(p) as usize).min(16);
                let v = match p.reg {
                    // a `.reg` return value is the callee's register (its depth is g.depth)
                    Some(reg) => w.regs[g.depth as usize][reg.0 as usize][l] as u128,
                    None => {
                        let src = Target::Local((fr.base + frame.offsets[cf.params.len() + i]) as u64);
                        self.read_target(slot, w, l, src, size).unwrap_or(0)
                    }
                };
                match r {
                    Operand::VarAddr { var, offset } | Operand::Addr { base: AddrBase::Var(var), offset } => {
                        let a = (self.var_value(*var) as i64 + offset) as u64;
                        let _ = self.write_target(slot, w, l, Target::Local(a), size, v);
                    }
                    other => self.dst_lane(w, l, other, v as u64, p.ty),
                }
            }
        }
        Ok(())
    }

    /// Lanes of `m` exit. The unit hears of every exit (`live_mask` = the lanes still live, 0 when
    /// the whole warp is gone): exited lanes count as arrived at warp-level rendezvous, and a
    /// fully exited warp no longer counts toward whole-CTA barriers.
    pub(super) fn do_exit(&mut self, slot: usize, w: &mut Warp, m: u32) -> Result<(), ExecError> {
        if m == 0 {
            return Ok(());
        }
        w.live &= !m;
        if !w.exit_sent {
            w.exit_sent = w.live == 0;
            let mut req = Request::new(0, slot as u16, w.index as u16, Op::WarpExit);
            req.active_mask = m;
            req.live_mask = w.live;
            self.submit(&req);
        }
        if w.parked != 0 {
            // exiting lanes may complete a warp's arrival at a barrier
            self.try_release_parked(slot, w)?;
        }
        Ok(())
    }

    // ---- responses ---------------------------------------------------------------------------

    fn apply_response(&mut self, r: &Response, cur: Option<(usize, usize, &mut Warp)>) -> Result<(), ExecError> {
        self.stats.responses += 1;
        if self.opts.trace {
            self.trace.push(super::trace_response(r));
        }
        let Some(p) = self.pending.get(&r.tag).copied() else {
            if let Some(e) = self.late_error(r) {
                return Err(e);
            }
            return Err(ExecError::Unsupported {
                message: format!(
                    "sync unit answered tag {} that no request carries (CTA slot {}, warp {})",
                    r.tag, r.cta, r.warp
                ),
                site: Site::default(),
            });
        };
        match cur {
            Some((s, wi, w)) if s == p.slot && wi == p.warp => self.complete(p, w, r),
            _ => {
                let mut w = std::mem::take(&mut self.ctas[p.slot].as_mut().expect("resident").warps[p.warp]);
                let res = self.complete(p, &mut w, r);
                self.ctas[p.slot].as_mut().expect("resident").warps[p.warp] = w;
                res
            }
        }
    }

    fn complete(&mut self, p: Pending, w: &mut Warp, r: &Response) -> Result<(), ExecError> {
        let instr = self.instr(p.func, p.pc);
        if r.error != ErrorCode::None {
            let g = Group { mask: r.lanes, func: p.func, pc: p.pc, depth: 0 };
            return Err(self.ub(
                p.slot,
                w,
                &g,
                r.error.name(),
                super::lower::checklist_item(r.error),
                Some(r.error_lane as usize),
            ));
        }
        let lanes_done = r.lanes & w.waiting;
        let mut done = 0u32;
        for l in lanes(lanes_done) {
            if w.wait_tag[l] == r.tag {
                done |= 1 << l;
            }
        }
        self.write_results(w, instr, r, done);
        w.waiting &= !done;
        for l in lanes(done) {
            w.pc[l] += 1;
        }
        if !(0..32).any(|l| w.waiting >> l & 1 == 1 && w.wait_tag[l] == r.tag) {
            if let Some(p) = self.pending.remove(&r.tag) {
                self.retired.push_back((r.tag, p));
                if self.retired.len() > RETIRED {
                    self.retired.pop_front();
                }
            }
        }
        Ok(())
    }

    /// A late error: an error answer with no lanes for a request already answered, which is how
    /// the copy engine reports a refused complete_tx or arrive-on of a finished copy (the
    /// undefined case is the mbarrier's, PTX ISA §9.7.13.15; the instruction is the copy's).
    fn late_error(&self, r: &Response) -> Option<ExecError> {
        if r.lanes != 0 || r.error == ErrorCode::None {
            return None;
        }
        let &(_, p) = self.retired.iter().rev().find(|(t, _)| *t == r.tag)?;
        let site = self.site(p.slot, p.warp as u32, p.func, p.pc, Some(r.error_lane as u32));
        Some(ExecError::Ub { rule: r.error.name().into(), item: super::lower::checklist_item(r.error), site })
    }
}

/// Answered requests kept for a late error of their copies (see `Machine::retired`).
const RETIRED: usize = 4096;

/// Integer ops whose low bits do not depend on signedness (safe for the converged fast path).
fn fast_int(op: crate::ptx::ir::ArithOp) -> bool {
    use crate::ptx::ir::ArithOp as A;
    matches!(op, A::Add | A::Sub | A::Mul | A::Mad)
}

fn wide_ty(t: Ty) -> Ty {
    match t {
        Ty::U16 => Ty::U32,
        Ty::S16 => Ty::S32,
        Ty::U32 => Ty::U64,
        Ty::S32 => Ty::S64,
        Ty::B16 => Ty::B32,
        Ty::B32 => Ty::B64,
        other => other,
    }
}
