//! Sync instructions -> warp-level [`Request`]s, per the operand convention table in
//! `units/request.rs`, and responses -> destination registers.
//!
//! * Addresses are resolved before packing: generic addresses to shared::cta offsets, cluster
//!   window addresses or global addresses; a request whose lanes point into different spaces is
//!   split into one request per space.
//! * Warp-uniform operands (barrier id, counts, membermask, wait_group N) are taken from the first
//!   executing lane; lanes that disagree are reported.
//! * Named barriers and barrier.cluster first wait for every live lane of the warp (lanes "park"),
//!   then send one request for the warp. An `.aligned` barrier whose lanes park at different
//!   instructions, or that can never be joined by the rest of the warp, is the UB of item 59.

use super::error::ExecError;
use super::machine::{Col, Machine};
use super::warp::{lanes, Group, Warp, LANES};
use crate::encoding::{flags, BulkDir, DataType, ErrorCode, Op, Space};
use crate::memory::{classify, Generic, CLUSTER_BASE, WINDOW};
use crate::ptx::ir::{BarKind, Instr, Opcode, Operand, StateSpace, Ty};
use crate::units::Request;

/// The §23 checklist item a unit error code enforces, when there is a single one.
pub fn checklist_item(e: ErrorCode) -> Option<u32> {
    Some(match e {
        ErrorCode::MbInitCount => 2,
        ErrorCode::MbInitLive => 3,
        ErrorCode::MbNotInitialized => 4,
        ErrorCode::MbarrierPlainAccess => 5,
        ErrorCode::MbTxRange => 11,
        ErrorCode::MbStaleToken => 17,
        ErrorCode::MbParityRange => 19,
        ErrorCode::MbExpectedUnderflow => 26,
        ErrorCode::MbPendingUnderflow => 27,
        ErrorCode::MbNoCompleteCompleted => 28,
        ErrorCode::MbPendingCountToken => 31,
        ErrorCode::MbPendingOverflow => 38,
        ErrorCode::BarIdRange => 47,
        ErrorCode::BarCountNotWarpMultiple | ErrorCode::BarArriveNeedsCount => 51,
        ErrorCode::BarRedMixed => 56,
        ErrorCode::NotInMemberMask => 81,
        ErrorCode::CpAsyncSrcSize => 99,
        ErrorCode::BulkSizeAlign => 105,
        ErrorCode::TensorNegativeStore => 114,
        ErrorCode::RedAsyncTarget => 97,
        _ => return None,
    })
}

fn is_barrier(op: &Opcode) -> bool {
    matches!(op, Opcode::Bar { .. } | Opcode::BarrierCluster { .. })
}

fn is_aligned(op: &Opcode) -> bool {
    match op {
        Opcode::Bar { aligned, .. } => *aligned,
        // barrier.cluster requires warp convergence (.aligned or not, all non-exited threads of
        // the warp arrive together); divergence is only reported with .aligned, which the IR
        // does not record, so it is treated as non-aligned.
        _ => false,
    }
}

/// The membermask operand of a warp-level `.sync` instruction.
fn membermask_operand(instr: &Instr) -> Option<&Operand> {
    match &instr.op {
        Opcode::Vote { sync: true, .. } => instr.ops.get(2),
        Opcode::Match { .. } | Opcode::Redux { .. } | Opcode::Elect | Opcode::Shfl { .. } => instr.ops.last(),
        Opcode::BarWarpSync => instr.ops.first(),
        _ => None,
    }
}

/// Split the destinations of `d|p`-style instructions from their `nsrc` sources.
fn split_dests(ops: &[Operand], nsrc: usize) -> (Vec<&Operand>, &[Operand]) {
    match ops.first() {
        Some(Operand::Vector(v)) => (v.iter().collect(), &ops[1..]),
        _ => {
            let k = ops.len().saturating_sub(nsrc).max(1).min(ops.len());
            (ops[..k].iter().collect(), &ops[k..])
        }
    }
}

impl<'a> Machine<'a> {
    /// Execute a sync instruction for the lanes of `m` (guard true); `off` lanes skip it.
    pub(super) fn exec_sync(
        &mut self,
        slot: usize,
        w: &mut Warp,
        g: Group,
        m: u32,
        off: u32,
        instr: &'a Instr,
    ) -> Result<(), ExecError> {
        w.advance(off);
        if m == 0 {
            return Ok(());
        }
        let sub = Group { mask: m, ..g };
        if is_barrier(&instr.op) {
            // a different aligned barrier already has lanes of this warp parked: divergence UB
            if w.parked != 0 {
                let l = w.parked.trailing_zeros() as usize;
                if (w.func[l], w.pc[l]) != (g.func, g.pc)
                    && (is_aligned(&instr.op) || is_aligned(&self.instr(w.func[l], w.pc[l]).op))
                {
                    let other = self.site(slot, w.index, w.func[l], w.pc[l], None);
                    return Err(self.ub(
                        slot,
                        w,
                        &sub,
                        format!(
                            "aligned barrier in divergent code: lanes {m:#010x} reached this barrier while lanes {:#010x} of the warp wait at another barrier ({} `{}`)",
                            w.parked, other.at, other.source
                        ),
                        Some(59),
                        Some(m.trailing_zeros() as usize),
                    ));
                }
            }
            w.parked |= m;
            return self.try_release_parked(slot, w);
        }
        // Lanes of one group may name different membermasks (e.g. two half-warp masks at one
        // instruction): one request per distinct membermask; the unit rendezvouses each.
        let mut parts = vec![sub];
        if let Some(mop) = membermask_operand(instr) {
            let mut c = [0u64; LANES];
            self.src(slot, w, g.depth, mop, m, &mut c).map_err(|e| self.unsupported(slot, w, &sub, e))?;
            parts.clear();
            let mut rest = m;
            while rest != 0 {
                let l0 = rest.trailing_zeros() as usize;
                let part: u32 = lanes(rest).filter(|&l| c[l] as u32 == c[l0] as u32).fold(0, |a, l| a | 1 << l);
                parts.push(Group { mask: part, ..g });
                rest &= !part;
            }
        }
        for part in parts {
            let reqs = self.lower(slot, w, &part, instr)?;
            for r in reqs {
                self.submit_blocking(w, &r);
            }
        }
        Ok(())
    }

    /// When every live lane of the warp is parked at a barrier, send the warp's arrival.
    pub(super) fn try_release_parked(&mut self, slot: usize, w: &mut Warp) -> Result<(), ExecError> {
        if w.parked == 0 || w.parked != w.live {
            return Ok(());
        }
        let parked = w.parked;
        let l0 = parked.trailing_zeros() as usize;
        let (f0, p0) = (w.func[l0], w.pc[l0]);
        let instr = self.instr(f0, p0);
        let mut groups: Vec<Group> = Vec::new();
        for l in lanes(parked) {
            match groups.iter_mut().find(|gr| gr.func == w.func[l] && gr.pc == w.pc[l] && gr.depth == w.depth[l]) {
                Some(gr) => gr.mask |= 1 << l,
                None => groups.push(Group { mask: 1 << l, func: w.func[l], pc: w.pc[l], depth: w.depth[l] }),
            }
        }
        let mut req: Option<Request> = None;
        for gr in &groups {
            let ins = self.instr(gr.func, gr.pc);
            if groups.len() > 1 && (is_aligned(&ins.op) || is_aligned(&instr.op)) {
                return Err(self.ub(
                    slot,
                    w,
                    gr,
                    "aligned barrier in divergent code: lanes of one warp reached different barrier instructions",
                    Some(59),
                    Some(gr.mask.trailing_zeros() as usize),
                ));
            }
            let mut rs = self.lower(slot, w, gr, ins)?;
            let r = rs.remove(0);
            match &mut req {
                None => req = Some(r),
                Some(acc) => {
                    if (acc.op, acc.imm, acc.imm2, acc.flags & !flags::NEGATE)
                        != (r.op, r.imm, r.imm2, r.flags & !flags::NEGATE)
                    {
                        return Err(self.ub(
                            slot,
                            w,
                            gr,
                            "lanes of one warp arrived at barriers with different operands",
                            None,
                            Some(gr.mask.trailing_zeros() as usize),
                        ));
                    }
                    acc.active_mask |= r.active_mask;
                    for l in lanes(r.active_mask) {
                        acc.lanes[l] = r.lanes[l];
                    }
                }
            }
        }
        let req = req.expect("at least one group");
        w.parked = 0;
        if matches!(req.op, Op::BarArrive | Op::BarClusterArrive) {
            // arrive does not wait for other warps: the lanes continue at once
            self.submit(&req);
            for l in lanes(req.active_mask) {
                w.pc[l] += 1;
            }
        } else {
            self.submit_blocking(w, &req);
        }
        Ok(())
    }

    fn uniform(&self, slot: usize, w: &Warp, g: &Group, op: &Operand, what: &str) -> Result<u64, ExecError> {
        let mut c = [0u64; LANES];
        self.src(slot, w, g.depth, op, g.mask, &mut c).map_err(|e| self.unsupported(slot, w, g, e))?;
        let l0 = g.mask.trailing_zeros() as usize;
        if let Some(l) = lanes(g.mask).find(|&l| c[l] != c[l0]) {
            return Err(self.ub(
                slot,
                w,
                g,
                format!("{what} must be the same in every lane of the warp (lane {l0}: {}, lane {l}: {})", c[l0], c[l]),
                None,
                Some(l),
            ));
        }
        Ok(c[l0])
    }

    fn col(&self, slot: usize, w: &Warp, g: &Group, op: &Operand) -> Result<Col, ExecError> {
        let mut c = [0u64; LANES];
        self.src(slot, w, g.depth, op, g.mask, &mut c).map_err(|e| self.unsupported(slot, w, g, e))?;
        Ok(c)
    }

    /// A predicate source `{!}a`: raw value and whether it is negated (the unit applies NEGATE).
    fn pred_src(&self, slot: usize, w: &Warp, g: &Group, op: &Operand) -> Result<(Col, bool), ExecError> {
        match op {
            Operand::NotPred(r) => Ok((self.col(slot, w, g, &Operand::Reg(*r))?, true)),
            other => Ok((self.col(slot, w, g, other)?, false)),
        }
    }

    /// Resolve the per-lane addresses of a sync op's address operand to (space, address).
    /// A `.shared::cluster.shared::cta` bulk copy or reduce (PTX ISA §9.7.9.25.4.1, .4.2): its
    /// destination and mbarrier travel as cluster-window addresses, the executing CTA's too (a
    /// `.shared::cta` address or its own window, which `sync_addrs` folds to a CTA offset), as
    /// for `red.async`: the unit resolves both in the cluster window. Other directions unchanged.
    #[allow(clippy::type_complexity)]
    fn s2c_window(
        &self,
        slot: usize,
        dir: BulkDir,
        dst: [(Space, u64); LANES],
        mbar: Option<[(Space, u64); LANES]>,
    ) -> ([(Space, u64); LANES], Option<[(Space, u64); LANES]>) {
        if dir != BulkDir::SharedToCluster {
            return (dst, mbar);
        }
        let rank = self.ctas[slot].as_ref().map(|c| c.rank).unwrap_or(0) as u64;
        let window = |(sp, x): (Space, u64)| {
            if sp == Space::SharedCta {
                (Space::SharedCluster, CLUSTER_BASE + rank * WINDOW + x)
            } else {
                (sp, x)
            }
        };
        (dst.map(window), mbar.map(|m| m.map(window)))
    }

    fn sync_addrs(
        &self,
        slot: usize,
        w: &Warp,
        g: &Group,
        op: &Operand,
        space: StateSpace,
    ) -> Result<[(Space, u64); LANES], ExecError> {
        let a = self.addrs(slot, w, g, op, space, g.mask).map_err(|e| self.unsupported(slot, w, g, e))?;
        let rank = self.ctas[slot].as_ref().map(|c| c.rank).unwrap_or(0);
        let mut out = [(Space::SharedCta, 0u64); LANES];
        for l in lanes(g.mask) {
            let x = a[l];
            out[l] = match space {
                StateSpace::Shared => (Space::SharedCta, x),
                StateSpace::Global | StateSpace::Const => (Space::Global, x),
                StateSpace::SharedCluster if x < WINDOW => (Space::SharedCta, x),
                StateSpace::SharedCluster => match classify(x) {
                    Generic::Cluster(r, o) if r == rank => (Space::SharedCta, o as u64),
                    Generic::Cluster(..) => (Space::SharedCluster, x),
                    _ => {
                        return Err(self.ub(
                            slot,
                            w,
                            g,
                            format!("address {x:#x} is not a shared::cluster address"),
                            None,
                            Some(l),
                        ))
                    }
                },
                _ => match classify(x) {
                    Generic::Global(x) => (Space::Global, x),
                    Generic::Shared(o) => (Space::SharedCta, o as u64),
                    Generic::Cluster(r, o) if r == rank => (Space::SharedCta, o as u64),
                    Generic::Cluster(..) => (Space::SharedCluster, x),
                    Generic::Local(_) => {
                        return Err(self.ub(
                            slot,
                            w,
                            g,
                            format!(
                                "generic address {x:#x} points to local memory, which sync operations cannot access"
                            ),
                            None,
                            Some(l),
                        ))
                    }
                    Generic::Invalid => {
                        return Err(self.ub(
                            slot,
                            w,
                            g,
                            format!("generic address {x:#x} is in no memory window (global, shared, local)"),
                            None,
                            Some(l),
                        ))
                    }
                },
            };
        }
        Ok(out)
    }

    fn base_req(&mut self, slot: usize, w: &Warp, g: &Group, op: Op) -> Request {
        let tag = self.new_tag(slot, w.index as usize, g);
        let mut r = Request::new(tag, slot as u16, w.index as u16, op);
        r.active_mask = g.mask;
        r.live_mask = w.live;
        r
    }

    /// Split `r` by the per-lane address spaces in `spaces` (one request per distinct space).
    fn split_by_space(
        &mut self,
        slot: usize,
        w: &Warp,
        g: &Group,
        r: Request,
        spaces: &[(Space, u64); LANES],
    ) -> Vec<Request> {
        let mut out: Vec<Request> = Vec::new();
        for l in lanes(g.mask) {
            let sp = spaces[l].0;
            match out.iter_mut().find(|q| q.space == sp) {
                Some(q) => q.active_mask |= 1 << l,
                None => {
                    let mut q = r.clone();
                    if !out.is_empty() {
                        q.tag = self.new_tag(slot, w.index as usize, g);
                    }
                    q.space = sp;
                    q.active_mask = 1 << l;
                    out.push(q);
                }
            }
        }
        out
    }

    /// Build the request(s) for one sync instruction executed by the lanes of `g`.
    pub(super) fn lower(
        &mut self,
        slot: usize,
        w: &Warp,
        g: &Group,
        instr: &'a Instr,
    ) -> Result<Vec<Request>, ExecError> {
        let ops = &instr.ops;
        let arg = |i: usize| ops.get(i).ok_or(());
        let missing = |me: &Self| me.unsupported(slot, w, g, format!("{:?}: missing operand", instr.op));
        macro_rules! op {
            ($i:expr) => {
                match arg($i) {
                    Ok(o) => o,
                    Err(()) => return Err(missing(self)),
                }
            };
        }
        let features = &self.cfg.features;
        let not_built =
            |me: &Self, what: &str| me.ub(slot, w, g, format!("{} ({what})", ErrorCode::NotBuilt.name()), None, None);
        let mut reqs = Vec::new();
        match &instr.op {
            Opcode::Bar { kind, .. } => {
                let (code, first) = match kind {
                    BarKind::Sync => (Op::BarSync, 0),
                    BarKind::Arrive => (Op::BarArrive, 0),
                    BarKind::RedPopc => (Op::BarRedPopc, 1),
                    BarKind::RedAnd => (Op::BarRedAnd, 1),
                    BarKind::RedOr => (Op::BarRedOr, 1),
                };
                let mut r = self.base_req(slot, w, g, code);
                r.imm = self.uniform(slot, w, g, op!(first), "the barrier id")? as u32;
                let is_red = first == 1;
                let nsrc = ops.len() - first;
                let has_count = if is_red { nsrc == 3 } else { nsrc == 2 };
                if has_count {
                    r.imm2 = self.uniform(slot, w, g, op!(first + 1), "the barrier thread count")? as u32;
                    r.flags |= flags::HAS_COUNT;
                }
                if is_red {
                    let (c, neg) = self.pred_src(slot, w, g, op!(ops.len() - 1))?;
                    if neg {
                        r.flags |= flags::NEGATE;
                    }
                    for l in lanes(g.mask) {
                        r.lanes[l].a = (c[l] & 1) as u128;
                    }
                }
                reqs.push(r);
            }
            Opcode::BarrierCluster { wait, .. } => {
                reqs.push(self.base_req(slot, w, g, if *wait { Op::BarClusterWait } else { Op::BarClusterArrive }))
            }
            Opcode::BarWarpSync => {
                let mut r = self.base_req(slot, w, g, Op::WarpSync);
                r.member_mask = self.uniform(slot, w, g, op!(0), "membermask")? as u32;
                reqs.push(r);
            }
            Opcode::Vote { mode, sync } => {
                let mut r = self.base_req(slot, w, g, Op::VoteSync);
                r.sub = mode.code();
                let (a, neg) = self.pred_src(slot, w, g, op!(1))?;
                if neg {
                    r.flags |= flags::NEGATE;
                }
                for l in lanes(g.mask) {
                    r.lanes[l].a = (a[l] & 1) as u128;
                }
                // legacy vote works over the active lanes: its membermask is the active mask
                r.member_mask = if *sync { self.uniform(slot, w, g, op!(2), "membermask")? as u32 } else { g.mask };
                reqs.push(r);
            }
            Opcode::Match { all, ty } => {
                if !features.match_sync {
                    return Err(not_built(self, "match.sync; features.match_sync = false"));
                }
                let (_, srcs) = split_dests(ops, 2);
                let mut r = self.base_req(slot, w, g, if *all { Op::MatchAll } else { Op::MatchAny });
                r.dtype = *ty;
                let a = self.col(slot, w, g, &srcs[0])?;
                for l in lanes(g.mask) {
                    r.lanes[l].a = a[l] as u128;
                }
                r.member_mask = self.uniform(slot, w, g, &srcs[1], "membermask")? as u32;
                reqs.push(r);
            }
            Opcode::Activemask => reqs.push(self.base_req(slot, w, g, Op::Activemask)),
            Opcode::Redux { op: rop, ty, abs, nan } => {
                if *ty == DataType::F32 && !features.redux_f32 {
                    return Err(not_built(self, "redux.sync.f32; features.redux_f32 = false"));
                }
                let mut r = self.base_req(slot, w, g, Op::ReduxSync);
                r.sub = rop.code();
                r.dtype = *ty;
                if *abs {
                    r.flags |= flags::MOD_A;
                }
                if *nan {
                    r.flags |= flags::MOD_B;
                }
                let a = self.col(slot, w, g, op!(1))?;
                for l in lanes(g.mask) {
                    r.lanes[l].a = (a[l] & 0xffff_ffff) as u128;
                }
                r.member_mask = self.uniform(slot, w, g, op!(2), "membermask")? as u32;
                reqs.push(r);
            }
            Opcode::Elect => {
                let (_, srcs) = split_dests(ops, 1);
                let mut r = self.base_req(slot, w, g, Op::ElectSync);
                r.member_mask = self.uniform(slot, w, g, &srcs[0], "membermask")? as u32;
                reqs.push(r);
            }
            Opcode::Shfl { mode } => {
                let (_, srcs) = split_dests(ops, 4);
                if srcs.len() < 4 {
                    return Err(missing(self));
                }
                let mut r = self.base_req(slot, w, g, Op::ShflSync);
                r.sub = mode.code();
                let (a, b, c) =
                    (self.col(slot, w, g, &srcs[0])?, self.col(slot, w, g, &srcs[1])?, self.col(slot, w, g, &srcs[2])?);
                for l in lanes(g.mask) {
                    r.lanes[l].a = (a[l] & 0xffff_ffff) as u128;
                    r.lanes[l].b = (b[l] & 0xffff_ffff) as u128;
                    r.lanes[l].c = (c[l] & 0xffff_ffff) as u128;
                }
                r.imm = c[g.mask.trailing_zeros() as usize] as u32;
                r.member_mask = self.uniform(slot, w, g, &srcs[3], "membermask")? as u32;
                reqs.push(r);
            }
            Opcode::Atom { red, op: aop, ty, space, vec, noftz, .. } => {
                if ty.is_float() && !features.float_atomics {
                    return Err(not_built(self, "floating-point atomics; features.float_atomics = false"));
                }
                if *ty == DataType::B128 && !features.atomic_b128 {
                    return Err(not_built(self, "128-bit atomics; features.atomic_b128 = false"));
                }
                let base = if *red { 0 } else { 1 };
                let mut r = self.base_req(slot, w, g, if *red { Op::Red } else { Op::Atom });
                r.sub = aop.code();
                r.dtype = *ty;
                r.vec = (*vec).max(1);
                if *noftz {
                    r.flags |= flags::MOD_A;
                }
                let addrs = self.sync_addrs(slot, w, g, op!(base), *space)?;
                let eb = ty.bytes() as usize;
                let b = self
                    .pack_values(slot, w, g, op!(base + 1), g.mask, bytes_ty(eb), r.vec as usize)
                    .map_err(|e| self.unsupported(slot, w, g, e))?;
                let c = match ops.get(base + 2) {
                    Some(o) if *aop == crate::encoding::AtomOp::Cas => self
                        .pack_values(slot, w, g, o, g.mask, bytes_ty(eb), 1)
                        .map_err(|e| self.unsupported(slot, w, g, e))?,
                    _ => [0u128; LANES],
                };
                for l in lanes(g.mask) {
                    r.lanes[l].addr = addrs[l].1;
                    r.lanes[l].b = b[l];
                    r.lanes[l].c = c[l];
                }
                reqs.extend(self.split_by_space(slot, w, g, r, &addrs));
            }
            Opcode::RedAsync { op: aop, ty } => {
                // both addresses travel as cluster-window addresses (the own CTA's too, so the
                // unit can see and report a target in the executing CTA)
                let mut r = self.base_req(slot, w, g, Op::RedAsync);
                r.sub = aop.code();
                r.dtype = *ty;
                r.space = Space::SharedCluster;
                let rank = self.ctas[slot].as_ref().map(|c| c.rank).unwrap_or(0) as u64;
                let window =
                    |(sp, x): (Space, u64)| if sp == Space::SharedCta { CLUSTER_BASE + rank * WINDOW + x } else { x };
                let addrs = self.sync_addrs(slot, w, g, op!(0), StateSpace::SharedCluster)?;
                let mbars = self.sync_addrs(slot, w, g, op!(2), StateSpace::SharedCluster)?;
                let b = self
                    .pack_values(slot, w, g, op!(1), g.mask, bytes_ty(ty.bytes() as usize), 1)
                    .map_err(|e| self.unsupported(slot, w, g, e))?;
                for l in lanes(g.mask) {
                    r.lanes[l].addr = window(addrs[l]);
                    r.lanes[l].mbar = window(mbars[l]);
                    r.lanes[l].b = b[l];
                }
                reqs.push(r);
            }
            Opcode::MbInit { space }
            | Opcode::MbInval { space }
            | Opcode::MbExpectTx { space }
            | Opcode::MbCompleteTx { space }
            | Opcode::CpAsyncMbArrive { space, .. } => {
                let code = match instr.op {
                    Opcode::MbInit { .. } => Op::MbInit,
                    Opcode::MbInval { .. } => Op::MbInval,
                    Opcode::MbExpectTx { .. } => Op::MbExpectTx,
                    Opcode::MbCompleteTx { .. } => Op::MbCompleteTx,
                    _ => Op::MbCpAsyncArrive,
                };
                let mut r = self.base_req(slot, w, g, code);
                r.dtype = DataType::B64;
                if let Opcode::CpAsyncMbArrive { noinc: true, .. } = instr.op {
                    r.flags |= flags::NO_INC;
                }
                let addrs = self.sync_addrs(slot, w, g, op!(0), *space)?;
                let a = match ops.get(1) {
                    Some(o) => self.col(slot, w, g, o)?,
                    None => [0; LANES],
                };
                for l in lanes(g.mask) {
                    r.lanes[l].addr = addrs[l].1;
                    r.lanes[l].a = a[l] as u128;
                }
                reqs.extend(self.split_by_space(slot, w, g, r, &addrs));
            }
            Opcode::MbArrive { drop, expect_tx, no_complete, space, .. } => {
                let mut r = self.base_req(slot, w, g, if *drop { Op::MbArriveDrop } else { Op::MbArrive });
                r.dtype = DataType::B64;
                if *expect_tx {
                    r.flags |= flags::EXPECT_TX;
                }
                if *no_complete {
                    r.flags |= flags::NO_COMPLETE;
                }
                let addrs = self.sync_addrs(slot, w, g, op!(1), *space)?;
                let n = match ops.get(2) {
                    Some(o) => Some(self.col(slot, w, g, o)?),
                    None => None,
                };
                for l in lanes(g.mask) {
                    r.lanes[l].addr = addrs[l].1;
                    if *expect_tx {
                        r.lanes[l].a = 1;
                        r.lanes[l].b = n.map(|c| c[l] & 0xffff_ffff).unwrap_or(0) as u128;
                    } else {
                        r.lanes[l].a = n.map(|c| c[l] & 0xffff_ffff).unwrap_or(1) as u128;
                    }
                }
                reqs.extend(self.split_by_space(slot, w, g, r, &addrs));
            }
            Opcode::MbTestWait { try_wait, parity, space, .. } => {
                let mut r = self.base_req(slot, w, g, if *try_wait { Op::MbTryWait } else { Op::MbTestWait });
                r.dtype = DataType::B64;
                if *parity {
                    r.flags |= flags::PARITY;
                }
                let addrs = self.sync_addrs(slot, w, g, op!(1), *space)?;
                let a = self.col(slot, w, g, op!(2))?;
                let b = match ops.get(3) {
                    Some(o) => self.col(slot, w, g, o)?,
                    None => [0; LANES],
                };
                for l in lanes(g.mask) {
                    r.lanes[l].addr = addrs[l].1;
                    r.lanes[l].a = a[l] as u128;
                    r.lanes[l].b = (b[l] & 0xffff_ffff) as u128;
                }
                reqs.extend(self.split_by_space(slot, w, g, r, &addrs));
            }
            Opcode::MbPendingCount => {
                let mut r = self.base_req(slot, w, g, Op::MbPendingCount);
                r.dtype = DataType::B64;
                let a = self.col(slot, w, g, op!(1))?;
                for l in lanes(g.mask) {
                    r.lanes[l].a = a[l] as u128;
                }
                reqs.push(r);
            }
            Opcode::CpAsync { size, has_src_size, has_ignore_src, .. } => {
                let mut r = self.base_req(slot, w, g, Op::CpAsync);
                r.imm = *size as u32;
                let dst = self.sync_addrs(slot, w, g, op!(0), StateSpace::Shared)?;
                let src = self.sync_addrs(slot, w, g, op!(1), StateSpace::Global)?;
                let extra = match ops.get(3) {
                    Some(o) if *has_src_size || *has_ignore_src => Some(self.pred_src(slot, w, g, o)?),
                    _ => None,
                };
                if *has_ignore_src {
                    r.flags |= flags::MOD_B;
                }
                for l in lanes(g.mask) {
                    r.lanes[l].addr = dst[l].1;
                    r.lanes[l].src = src[l].1;
                    r.lanes[l].a = *size as u128;
                    if let Some((c, neg)) = &extra {
                        if *has_src_size {
                            r.lanes[l].a = (c[l] & 0xffff_ffff) as u128;
                        } else {
                            r.lanes[l].b = ((c[l] & 1) ^ (*neg as u64)) as u128;
                        }
                    }
                }
                reqs.push(r);
            }
            Opcode::CpAsyncCommit => reqs.push(self.base_req(slot, w, g, Op::CpAsyncCommit)),
            Opcode::CpAsyncWaitGroup | Opcode::CpAsyncWaitAll => {
                let mut r = self.base_req(slot, w, g, Op::CpAsyncWait);
                if let Opcode::CpAsyncWaitAll = instr.op {
                    r.imm2 = 1;
                } else {
                    r.imm = self.uniform(slot, w, g, op!(0), "wait_group N")? as u32;
                }
                reqs.push(r);
            }
            Opcode::CpBulk { dir, multicast, cache_hint, cp_mask } => {
                if !features.bulk_copy {
                    return Err(not_built(self, "cp.async.bulk; features.bulk_copy = false"));
                }
                let mut r = self.base_req(slot, w, g, Op::CpBulk);
                r.sub = dir.code();
                let (dsp, ssp) = bulk_spaces(*dir);
                let dst = self.sync_addrs(slot, w, g, op!(0), dsp)?;
                let src = self.sync_addrs(slot, w, g, op!(1), ssp)?;
                let size = self.col(slot, w, g, op!(2))?;
                let mut i = 3;
                let mbar = if *dir != BulkDir::SharedToGlobal {
                    i += 1;
                    Some(self.sync_addrs(slot, w, g, op!(3), StateSpace::SharedCluster)?)
                } else {
                    None
                };
                let cta_mask = if *multicast {
                    r.flags |= flags::MOD_B;
                    i += 1;
                    Some(self.col(slot, w, g, op!(i - 1))?)
                } else {
                    None
                };
                if *cache_hint {
                    i += 1;
                }
                let byte_mask = if *cp_mask {
                    r.imm2 = 1;
                    Some(self.col(slot, w, g, op!(i))?)
                } else {
                    None
                };
                let (dst, mbar) = self.s2c_window(slot, *dir, dst, mbar);
                for l in lanes(g.mask) {
                    r.lanes[l].addr = dst[l].1;
                    r.lanes[l].src = src[l].1;
                    r.lanes[l].a = (size[l] & 0xffff_ffff) as u128;
                    r.lanes[l].mbar = mbar.map(|m| m[l].1).unwrap_or(0);
                    r.lanes[l].b = cta_mask.map(|c| c[l] & 0xffff).unwrap_or(0) as u128;
                    r.lanes[l].c = byte_mask.map(|c| c[l] & 0xffff).unwrap_or(0) as u128;
                }
                r.space = dst[g.mask.trailing_zeros() as usize].0;
                reqs.push(r);
            }
            Opcode::CpReduceBulk { dir, op: rop, ty, noftz, .. } => {
                if !features.bulk_copy {
                    return Err(not_built(self, "cp.reduce.async.bulk; features.bulk_copy = false"));
                }
                let mut r = self.base_req(slot, w, g, Op::CpReduceBulk);
                r.sub = rop.code();
                r.imm = dir.code() as u32;
                r.dtype = *ty;
                if *noftz {
                    r.flags |= flags::MOD_A;
                }
                let (dsp, ssp) = bulk_spaces(*dir);
                let dst = self.sync_addrs(slot, w, g, op!(0), dsp)?;
                let src = self.sync_addrs(slot, w, g, op!(1), ssp)?;
                let size = self.col(slot, w, g, op!(2))?;
                let mbar = if *dir != BulkDir::SharedToGlobal {
                    Some(self.sync_addrs(slot, w, g, op!(3), StateSpace::SharedCluster)?)
                } else {
                    None
                };
                let (dst, mbar) = self.s2c_window(slot, *dir, dst, mbar);
                for l in lanes(g.mask) {
                    r.lanes[l].addr = dst[l].1;
                    r.lanes[l].src = src[l].1;
                    r.lanes[l].a = (size[l] & 0xffff_ffff) as u128;
                    r.lanes[l].mbar = mbar.map(|m| m[l].1).unwrap_or(0);
                }
                r.space = dst[g.mask.trailing_zeros() as usize].0;
                reqs.push(r);
            }
            Opcode::CpBulkTensor { .. } | Opcode::CpReduceBulkTensor { .. } => {
                let (dims, dir, multicast, red_op, im2col) = match &instr.op {
                    Opcode::CpBulkTensor { dims, dir, multicast, im2col, .. } => {
                        (*dims, *dir, *multicast, None, *im2col)
                    }
                    Opcode::CpReduceBulkTensor { dims, op: rop } => {
                        (*dims, BulkDir::SharedToGlobal, false, Some(*rop), false)
                    }
                    _ => unreachable!("matched above"),
                };
                if !features.tensor_copy {
                    return Err(not_built(self, "cp.async.bulk.tensor; features.tensor_copy = false"));
                }
                let mut r = self.base_req(slot, w, g, Op::CpBulkTensor);
                r.sub = dir.code();
                r.imm = dims as u32;
                // a reduce's op, or a load's mode (request.rs: 1 = .im2col)
                r.imm2 = red_op.map(|o| o.code() as u32 + 1).unwrap_or(im2col as u32);
                let load = dir != BulkDir::SharedToGlobal;
                let (smem_i, tmap_i) = if load { (0, 1) } else { (1, 0) };
                let smem = self.sync_addrs(slot, w, g, op!(smem_i), StateSpace::SharedCluster)?;
                let (tmap_op, coords) = tensor_operand(op!(tmap_i))
                    .ok_or_else(|| self.unsupported(slot, w, g, "expected [tensorMap, {coords}]"))?;
                let tmap = self.sync_addrs(slot, w, g, &tmap_op, StateSpace::Generic)?;
                let mut cs = Vec::new();
                for c in &coords {
                    cs.push(self.col(slot, w, g, c)?);
                }
                let mbar =
                    if load { Some(self.sync_addrs(slot, w, g, op!(2), StateSpace::SharedCluster)?) } else { None };
                // im2col offsets W, H, D (zero when absent)
                let mut offs = Vec::new();
                if im2col {
                    let Operand::Vector(items) = op!(3) else {
                        return Err(self.unsupported(slot, w, g, "expected the im2col offsets {..}"));
                    };
                    for it in items {
                        offs.push(self.col(slot, w, g, it)?);
                    }
                }
                let cta_mask = if multicast {
                    r.flags |= flags::MOD_B;
                    Some(self.col(slot, w, g, op!(3 + im2col as usize))?)
                } else {
                    None
                };
                for l in lanes(g.mask) {
                    r.lanes[l].addr = smem[l].1;
                    r.lanes[l].src = tmap[l].1;
                    let mut a = 0u128;
                    for (i, c) in cs.iter().enumerate().take(4) {
                        a |= ((c[l] & 0xffff_ffff) as u128) << (32 * i);
                    }
                    r.lanes[l].a = a;
                    r.lanes[l].b = cs.get(4).map(|c| c[l] & 0xffff_ffff).unwrap_or(0) as u128;
                    for (s, o) in offs.iter().enumerate() {
                        r.lanes[l].b |= ((o[l] & 0xffff) as u128) << (32 + 16 * s);
                    }
                    r.lanes[l].mbar = mbar.map(|m| m[l].1).unwrap_or(0);
                    r.lanes[l].c = cta_mask.map(|c| c[l] & 0xffff).unwrap_or(0) as u128;
                }
                r.space = smem[g.mask.trailing_zeros() as usize].0;
                reqs.push(r);
            }
            Opcode::ClcTryCancel { multicast, space } => {
                let mut r = self.base_req(slot, w, g, Op::ClcTryCancel);
                if *multicast {
                    r.flags |= flags::MOD_B;
                }
                let addrs = self.sync_addrs(slot, w, g, op!(0), *space)?;
                let mbars = self.sync_addrs(slot, w, g, op!(1), *space)?;
                for l in lanes(g.mask) {
                    if addrs[l].0 != Space::SharedCta || mbars[l].0 != Space::SharedCta {
                        return Err(self.ub(slot, w, g, "clusterlaunchcontrol.try_cancel: addr and mbar must be in the executing CTA's shared::cta window", Some(45), Some(l)));
                    }
                    r.lanes[l].addr = addrs[l].1;
                    r.lanes[l].mbar = mbars[l].1;
                }
                reqs.push(r);
            }
            Opcode::BulkPrefetch => {
                // a prefetch has no architectural effect; nothing to send
            }
            Opcode::BulkCommit => reqs.push(self.base_req(slot, w, g, Op::BulkCommit)),
            Opcode::BulkWaitGroup { read } => {
                let mut r = self.base_req(slot, w, g, Op::BulkWait);
                r.imm = self.uniform(slot, w, g, op!(0), "wait_group N")? as u32;
                if *read {
                    r.flags |= flags::MOD_A;
                }
                reqs.push(r);
            }
            other => return Err(self.unsupported(slot, w, g, format!("{other:?} is not a sync instruction"))),
        }
        Ok(reqs)
    }

    /// Write a response's results into the destinations of `instr` for the lanes of `done`.
    pub(super) fn write_results(&self, w: &mut Warp, instr: &Instr, r: &crate::units::Response, done: u32) {
        if done == 0 {
            return;
        }
        let l0 = done.trailing_zeros() as usize;
        let g = Group { mask: done, func: w.func[l0], pc: w.pc[l0], depth: w.depth[l0] };
        let mut vals = [0u64; LANES];
        let mut preds = [0u64; LANES];
        for l in lanes(done) {
            vals[l] = r.values[l] as u64;
            preds[l] = ((r.preds >> l) & 1) as u64;
        }
        let is_pred = |o: &Operand| match o {
            Operand::Reg(id) => {
                self.module.funcs[g.func as usize].regs.get(id.0 as usize).map(|ri| ri.ty == Ty::Pred).unwrap_or(false)
            }
            _ => false,
        };
        let ops = &instr.ops;
        let _ = match &instr.op {
            Opcode::Bar { kind: BarKind::RedPopc, .. } => self.dst(w, &g, &ops[0], &vals, done, Ty::U32),
            Opcode::Bar { kind: BarKind::RedAnd | BarKind::RedOr, .. } => {
                self.dst(w, &g, &ops[0], &preds, done, Ty::Pred)
            }
            Opcode::Vote { mode, .. } => {
                if *mode == crate::encoding::VoteMode::Ballot {
                    self.dst(w, &g, &ops[0], &vals, done, Ty::B32)
                } else {
                    self.dst(w, &g, &ops[0], &preds, done, Ty::Pred)
                }
            }
            Opcode::Match { .. } | Opcode::Elect | Opcode::Shfl { .. } => {
                let nsrc = match instr.op {
                    Opcode::Match { .. } => 2,
                    Opcode::Elect => 1,
                    _ => 4,
                };
                let (dests, _) = split_dests(ops, nsrc);
                // d (value) then p (predicate); a lone predicate destination takes the predicate
                let mut res = Ok(());
                for (i, d) in dests.iter().enumerate() {
                    res = if i == 1 || (dests.len() == 1 && is_pred(d)) {
                        self.dst(w, &g, d, &preds, done, Ty::Pred)
                    } else {
                        self.dst(w, &g, d, &vals, done, Ty::B32)
                    };
                }
                res
            }
            Opcode::Redux { .. } | Opcode::Activemask => self.dst(w, &g, &ops[0], &vals, done, Ty::B32),
            Opcode::Atom { red: false, ty, vec, .. } => {
                let eb = ty.bytes() as usize;
                let mut v128 = [0u128; LANES];
                for l in lanes(done) {
                    v128[l] = r.values[l];
                }
                self.write_loaded(w, &g, &ops[0], &v128, done, bytes_ty(eb), (*vec).max(1) as usize);
                Ok(())
            }
            Opcode::MbArrive { .. } | Opcode::MbPendingCount => self.dst(w, &g, &ops[0], &vals, done, Ty::B64),
            Opcode::MbTestWait { .. } => self.dst(w, &g, &ops[0], &preds, done, Ty::Pred),
            Opcode::Ld { ty, vec, .. } => {
                let mut v128 = [0u128; LANES];
                for l in lanes(done) {
                    v128[l] = r.values[l];
                }
                self.write_loaded(w, &g, &ops[0], &v128, done, *ty, (*vec).max(1) as usize);
                Ok(())
            }
            _ => Ok(()),
        };
    }
}

fn bytes_ty(b: usize) -> Ty {
    match b {
        1 => Ty::B8,
        2 => Ty::B16,
        4 => Ty::B32,
        8 => Ty::B64,
        _ => Ty::B128,
    }
}

fn bulk_spaces(dir: BulkDir) -> (StateSpace, StateSpace) {
    match dir {
        BulkDir::GlobalToShared => (StateSpace::SharedCluster, StateSpace::Global),
        BulkDir::SharedToGlobal => (StateSpace::Global, StateSpace::Shared),
        BulkDir::SharedToCluster => (StateSpace::SharedCluster, StateSpace::Shared),
    }
}

/// `[tensorMap, {c0, c1, ...}]`: the tensor-map address operand and the coordinate operands.
/// Accepted shapes: `Vector([addr_or_value, Vector(coords)])` or `Vector([addr_or_value, c0, ..])`.
fn tensor_operand(op: &Operand) -> Option<(Operand, Vec<Operand>)> {
    let Operand::Vector(items) = op else { return None };
    let first = items.first()?.clone();
    let coords = match items.get(1) {
        Some(Operand::Vector(c)) => c.clone(),
        _ => items[1..].to_vec(),
    };
    let addr = match first {
        a @ Operand::Addr { .. } => a,
        Operand::Reg(r) => Operand::Addr { base: crate::ptx::ir::AddrBase::Reg(r), offset: 0 },
        Operand::VarAddr { var, offset } => Operand::Addr { base: crate::ptx::ir::AddrBase::Var(var), offset },
        _ => return None,
    };
    Some((addr, coords))
}
