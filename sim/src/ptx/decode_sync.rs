//! Typed decode of the instructions the sync unit owns (digest §2-§16): named and cluster
//! barriers, the warp network, atomics, mbarrier, cp.async and the bulk/tensor copies, with the
//! digest's purely syntactic rules (checklist items 29, 32, 33, 51, 68, 91, 93, 96, 98, 105,
//! 108, 111, 113).

use super::*;

type Decoded = (Opcode, Vec<Operand>);

/// Is the operand the literal integer `v`?
fn imm_int(a: &OperandAst) -> Option<i128> {
    match a {
        OperandAst::Num { value: Num::Int(v), .. } => Some(*v),
        _ => None,
    }
}

/// Legal atom/red operation x type combinations for scalar forms (digest §6, [derived] parts).
fn atom_type_ok(op: AtomOp, ty: DataType) -> bool {
    use DataType::*;
    match op {
        AtomOp::And | AtomOp::Or | AtomOp::Xor => matches!(ty, B32 | B64),
        AtomOp::Cas => matches!(ty, B16 | B32 | B64 | B128),
        AtomOp::Exch => matches!(ty, B32 | B64 | B128),
        AtomOp::Add => matches!(ty, U32 | U64 | S32 | F32 | F64 | F16 | F16x2 | Bf16 | Bf16x2),
        AtomOp::Inc | AtomOp::Dec => matches!(ty, U32),
        AtomOp::Min | AtomOp::Max => matches!(ty, U32 | U64 | S32 | S64),
    }
}

/// Vector atom/red table (digest §6, checklist 93).
fn atom_vector_ok(op: AtomOp, ty: DataType, vec: u8) -> bool {
    use DataType::*;
    match ty {
        F16 | Bf16 => matches!(op, AtomOp::Add | AtomOp::Min | AtomOp::Max) && matches!(vec, 2 | 4 | 8),
        F16x2 | Bf16x2 => matches!(op, AtomOp::Add | AtomOp::Min | AtomOp::Max) && matches!(vec, 2 | 4),
        F32 => op == AtomOp::Add && matches!(vec, 2 | 4),
        _ => false,
    }
}

fn is_half(ty: DataType) -> bool {
    matches!(ty, DataType::F16 | DataType::F16x2 | DataType::Bf16 | DataType::Bf16x2)
}

impl<'m> FuncDecoder<'m> {
    /// `bar`/`barrier{.cta}` sync/arrive/red, `bar.warp.sync`, `barrier.cluster.arrive/wait`.
    pub(super) fn d_bar(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        let legacy = ins.opcode == "bar";
        if m.has("warp")? {
            m.need(&[("sync", ())], "`.sync`")?;
            self.nops(ins, 1..=1)?;
            return Ok((Opcode::BarWarpSync, vec![self.value(self.op(ins, 0)?, Ty::B32)?]));
        }
        if !legacy && m.has("cluster")? {
            let wait = m.need(&[("arrive", false), ("wait", true)], "`.arrive` or `.wait`")?;
            let sems: &[(&str, Sem)] = if wait {
                &[("acquire", Sem::Acquire)]
            } else {
                &[("release", Sem::Release), ("relaxed", Sem::Relaxed)]
            };
            let sem = m.pick_v(sems)?.unwrap_or(if wait { Sem::Acquire } else { Sem::Release });
            m.has("aligned")?;
            self.nops(ins, 0..=0)?;
            return Ok((Opcode::BarrierCluster { wait, sem }, vec![]));
        }
        m.has("cta")?;
        let kind = m.need(
            &[("sync", BarKind::Sync), ("arrive", BarKind::Arrive), ("red", BarKind::RedPopc)],
            "`.sync`, `.arrive` or `.red`",
        )?;
        let aligned = m.has("aligned")? || legacy;
        let kind = if kind == BarKind::RedPopc {
            m.need(
                &[("popc", BarKind::RedPopc), ("and", BarKind::RedAnd), ("or", BarKind::RedOr)],
                "`.popc`, `.and` or `.or`",
            )?
        } else {
            kind
        };
        let first = match kind {
            BarKind::RedPopc => {
                m.need(&[("u32", ())], "type `.u32`")?;
                1
            }
            BarKind::RedAnd | BarKind::RedOr => {
                m.need(&[("pred", ())], "type `.pred`")?;
                1
            }
            _ => 0,
        };
        let n = ins.operands.len();
        match kind {
            BarKind::Sync => self.nops(ins, 1..=2)?,
            BarKind::Arrive => {
                if n == 1 {
                    return Err(Diag::new(ins.loc, "`bar.arrive` requires a thread count operand `b`"));
                }
                self.nops(ins, 2..=2)?
            }
            _ => self.nops(ins, 3..=4)?,
        }
        let mut ops = Vec::new();
        if first == 1 {
            ops.push(self.dest(self.op(ins, 0)?)?);
        }
        let a = self.op(ins, first)?;
        if let Some(v) = imm_int(a) {
            if !(0..=15).contains(&v) {
                return Err(Diag::new(a.loc(), format!("barrier id {v} is out of range 0..15")));
            }
        }
        ops.push(self.value(a, Ty::U32)?);
        let has_b = n - first == if first == 1 { 3 } else { 2 };
        if has_b {
            let b = self.op(ins, first + 1)?;
            if let Some(v) = imm_int(b) {
                if v == 0 && kind == BarKind::Arrive {
                    return Err(Diag::new(b.loc(), "`bar.arrive` requires a non-zero thread count"));
                }
                if v % 32 != 0 || v < 0 {
                    return Err(Diag::new(
                        b.loc(),
                        format!("barrier thread count {v} is not a multiple of the warp size 32"),
                    ));
                }
            }
            ops.push(self.value(b, Ty::U32)?);
        }
        if first == 1 {
            ops.push(self.value(self.op(ins, n - 1)?, Ty::Pred)?);
        }
        Ok((Opcode::Bar { kind, aligned }, ops))
    }

    pub(super) fn d_vote(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        let sync = m.has("sync")?;
        let mode = m.need(
            &[("all", VoteMode::All), ("any", VoteMode::Any), ("uni", VoteMode::Uni), ("ballot", VoteMode::Ballot)],
            "a mode `.all`, `.any`, `.uni` or `.ballot`",
        )?;
        if mode == VoteMode::Ballot {
            m.need(&[("b32", ())], "type `.b32`")?;
        } else {
            m.need(&[("pred", ())], "type `.pred`")?;
        }
        if !sync && self.module.target_sm >= 70 && self.module.version >= (6, 4) {
            return Err(Diag::new(
                ins.loc,
                format!(
                    "`vote` without `.sync` was removed in PTX 6.4 for sm_70 and later (this module is PTX {}.{} for {}); use `vote.sync`",
                    self.module.version.0, self.module.version.1, self.module.target
                ),
            ));
        }
        let n = if sync { 3 } else { 2 };
        self.nops(ins, n..=n)?;
        let mut ops = vec![self.dest(self.op(ins, 0)?)?, self.value(self.op(ins, 1)?, Ty::Pred)?];
        if sync {
            ops.push(self.value(self.op(ins, 2)?, Ty::B32)?);
        }
        Ok((Opcode::Vote { mode, sync }, ops))
    }

    pub(super) fn d_match(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        let all = m.need(&[("any", false), ("all", true)], "`.any` or `.all`")?;
        if !m.has("sync")? {
            return Err(Diag::new(ins.loc, "`match` needs `.sync`"));
        }
        let ty = m.need(&[("b32", DataType::B32), ("b64", DataType::B64)], "type `.b32` or `.b64`")?;
        self.nops(ins, 3..=3)?;
        let d = self.op(ins, 0)?;
        if !all && matches!(d, OperandAst::Pair { .. }) {
            return Err(Diag::new(d.loc(), "`match.any` has no predicate destination"));
        }
        if let OperandAst::Pair { first, second, .. } = d {
            if matches!(**first, OperandAst::Sink { .. }) && matches!(**second, OperandAst::Sink { .. }) {
                return Err(Diag::new(d.loc(), "only one of `d|p` may be the sink `_`"));
            }
        }
        Ok((
            Opcode::Match { all, ty },
            vec![self.dest(d)?, self.value(self.op(ins, 1)?, dt_to_ty(ty))?, self.value(self.op(ins, 2)?, Ty::B32)?],
        ))
    }

    pub(super) fn d_redux(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        if !m.has("sync")? {
            return Err(Diag::new(ins.loc, "`redux` needs `.sync`"));
        }
        let op = m.need(
            &[
                ("add", ReduxOp::Add),
                ("min", ReduxOp::Min),
                ("max", ReduxOp::Max),
                ("and", ReduxOp::And),
                ("or", ReduxOp::Or),
                ("xor", ReduxOp::Xor),
            ],
            "an operation",
        )?;
        let abs = m.has("abs")?;
        let nan = m.has("NaN")?;
        let ty = m.need(
            &[("u32", DataType::U32), ("s32", DataType::S32), ("b32", DataType::B32), ("f32", DataType::F32)],
            "a type",
        )?;
        let ok = match op {
            ReduxOp::Add => matches!(ty, DataType::U32 | DataType::S32),
            ReduxOp::Min | ReduxOp::Max => matches!(ty, DataType::U32 | DataType::S32 | DataType::F32),
            _ => ty == DataType::B32,
        };
        if !ok {
            return Err(Diag::new(ins.loc, format!("`redux.sync.{}` does not take type `.{}`", op.name(), ty.name())));
        }
        if (abs || nan) && ty != DataType::F32 {
            return Err(Diag::new(ins.loc, "`.abs` and `.NaN` are only valid with `.f32`"));
        }
        self.nops(ins, 3..=3)?;
        Ok((
            Opcode::Redux { op, ty, abs, nan },
            vec![
                self.dest(self.op(ins, 0)?)?,
                self.value(self.op(ins, 1)?, dt_to_ty(ty))?,
                self.value(self.op(ins, 2)?, Ty::B32)?,
            ],
        ))
    }

    pub(super) fn d_shfl(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        m.has("sync")?;
        let mode = m.need(
            &[("up", ShflMode::Up), ("down", ShflMode::Down), ("bfly", ShflMode::Bfly), ("idx", ShflMode::Idx)],
            "a mode `.up`, `.down`, `.bfly` or `.idx`",
        )?;
        m.need(&[("b32", ())], "type `.b32`")?;
        self.nops(ins, 5..=5)?;
        let mut ops = vec![self.dest(self.op(ins, 0)?)?];
        for i in 1..5 {
            ops.push(self.value(self.op(ins, i)?, Ty::B32)?);
        }
        Ok((Opcode::Shfl { mode }, ops))
    }

    /// `atom` and `red` (scalar and vector forms).
    pub(super) fn d_atom(&self, ins: &Instruction, m: &mut Mods, red: bool) -> DResult<Decoded> {
        let name = if red { "red" } else { "atom" };
        let sem = m.pick(&SEMS[..4])?;
        if red {
            if let Some((s, text, loc)) = sem {
                if !matches!(s, Sem::Relaxed | Sem::Release) {
                    return Err(Diag::new(
                        loc,
                        format!("`red` does not take `.{text}` (only `.relaxed` or `.release`)"),
                    ));
                }
            }
        }
        let scope = m.pick_v(SCOPES)?.unwrap_or(Scope::Gpu);
        let space = m.pick(&SPACES[..4])?;
        let space_v = space.map(|s| s.0).unwrap_or(StateSpace::Generic);
        let op = m.need(ATOM_OPS, "an operation like `.add`")?;
        if red && matches!(op, AtomOp::Cas | AtomOp::Exch) {
            return Err(Diag::new(ins.loc, format!("`red` has no `.{}` operation", op.name())));
        }
        let noftz = m.has("noftz")?;
        let hint = m.has("L2::cache_hint")?;
        let vec = m.pick_v(VECS)?.unwrap_or(1);
        let ty = m.need(DTYPES, "a type")?;
        if vec > 1 {
            if !atom_vector_ok(op, ty, vec) {
                return Err(Diag::new(
                    ins.loc,
                    format!("vector `{name}.v{vec}.{}.{}` is not allowed (vector forms: add/min/max on f16/bf16 v2/v4/v8, f16x2/bf16x2 v2/v4; add on f32 v2/v4)", op.name(), ty.name()),
                ));
            }
            if matches!(space_v, StateSpace::Shared | StateSpace::SharedCluster) {
                return Err(Diag::new(ins.loc, format!("vector `{name}` is only valid in `.global`")));
            }
        } else if !atom_type_ok(op, ty) {
            return Err(Diag::new(ins.loc, format!("`{name}.{}` does not take type `.{}`", op.name(), ty.name())));
        }
        if is_half(ty) && op == AtomOp::Add && !noftz {
            return Err(Diag::new(ins.loc, format!("`{name}.add.{}` requires `.noftz`", ty.name())));
        }
        if noftz && !is_half(ty) {
            return Err(Diag::new(m.loc_of("noftz"), "`.noftz` is only valid with f16/bf16 types"));
        }
        if hint && matches!(space_v, StateSpace::Shared | StateSpace::SharedCluster) {
            return Err(Diag::new(
                m.loc_of("L2::cache_hint"),
                "`.L2::cache_hint` is not allowed with a `.shared` address",
            ));
        }
        if red {
            if let Some(first) = ins.operands.first() {
                if !matches!(first, OperandAst::Addr { .. }) {
                    return Err(Diag::new(first.loc(), "`red` has no destination: expected an address `[a]` first"));
                }
            }
        }
        let base = if red {
            2
        } else if op == AtomOp::Cas {
            4
        } else {
            3
        };
        let n = ins.operands.len();
        if n == base + 1 && !hint {
            let at = ins.operands.get(base).map(|o| o.loc()).unwrap_or(ins.loc);
            return Err(Diag::new(at, "a cache-policy operand needs `.L2::cache_hint`"));
        }
        self.nops(ins, base..=base + hint as usize)?;
        let ety = dt_to_ty(ty);
        let mut ops = Vec::new();
        let mut i = 0;
        if !red {
            ops.push(self.dest(self.op(ins, 0)?)?);
            i = 1;
        }
        ops.push(self.addr(self.op(ins, i)?)?);
        for k in i + 1..base {
            ops.push(self.value(self.op(ins, k)?, ety)?);
        }
        if vec > 1 {
            let data: Vec<usize> = if red { vec![1] } else { vec![0, 2] };
            for k in data {
                match ops.get(k) {
                    Some(Operand::Vector(v)) if v.len() == vec as usize => {}
                    _ => {
                        let at = ins.operands.get(k).map(|o| o.loc()).unwrap_or(ins.loc);
                        return Err(Diag::new(at, format!("`.v{vec}` needs a vector operand of {vec} elements")));
                    }
                }
            }
        }
        if hint {
            if let Some(p) = ins.operands.get(base) {
                ops.push(self.value(p, Ty::B64)?);
            }
        }
        let sem = sem.map(|s| s.0).unwrap_or(Sem::Relaxed);
        Ok((Opcode::Atom { red, op, ty, space: space_v, vec, sem, scope, noftz, cache_hint: hint }, ops))
    }

    /// `red.async.relaxed.cluster{.shared::cluster}{.mbarrier::complete_tx::bytes}.op.type [a], b, [mbar]`
    pub(super) fn d_red_async(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        m.has("async")?;
        if m.has("release")? || m.has("mmio")? {
            return Err(Diag::new(ins.loc, "the `.release` form of `red.async` (sm_100) is not supported by smsync"));
        }
        if !m.has("relaxed")? {
            return Err(Diag::new(ins.loc, "`red.async` needs `.relaxed`"));
        }
        if !m.has("cluster")? {
            return Err(Diag::new(ins.loc, "`red.async.relaxed` needs scope `.cluster`"));
        }
        m.has("shared::cluster")?;
        m.has("mbarrier::complete_tx::bytes")?;
        let op = m.need(ATOM_OPS, "an operation")?;
        let ty = m.need(DTYPES, "a type")?;
        use DataType::*;
        let ok = match op {
            AtomOp::Inc | AtomOp::Dec => ty == U32,
            AtomOp::Min | AtomOp::Max => matches!(ty, U32 | S32),
            AtomOp::And | AtomOp::Or | AtomOp::Xor => ty == B32,
            AtomOp::Add => matches!(ty, U32 | S32 | U64),
            _ => false,
        };
        if !ok {
            return Err(Diag::new(ins.loc, format!("`red.async.{}` does not take type `.{}`", op.name(), ty.name())));
        }
        self.nops(ins, 3..=3)?;
        Ok((
            Opcode::RedAsync { op, ty },
            vec![
                self.addr(self.op(ins, 0)?)?,
                self.value(self.op(ins, 1)?, dt_to_ty(ty))?,
                self.addr(self.op(ins, 2)?)?,
            ],
        ))
    }

    pub(super) fn d_mbarrier(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        #[derive(Clone, Copy, PartialEq)]
        enum K {
            Init,
            Inval,
            Arrive,
            Drop,
            ExpectTx,
            CompleteTx,
            TestWait,
            TryWait,
            Pending,
        }
        // `.expect_tx` is an operation on its own, or a qualifier of arrive/arrive_drop.
        let arrive = m.pick(&[("arrive", K::Arrive), ("arrive_drop", K::Drop)])?;
        let (k, kname, _) = match arrive {
            Some(a) => a,
            None => m
                .pick(&[
                    ("init", K::Init),
                    ("inval", K::Inval),
                    ("expect_tx", K::ExpectTx),
                    ("complete_tx", K::CompleteTx),
                    ("test_wait", K::TestWait),
                    ("try_wait", K::TryWait),
                    ("pending_count", K::Pending),
                ])?
                .ok_or_else(|| Diag::new(ins.loc, "`mbarrier` needs an operation like `.init` or `.arrive`"))?,
        };
        // `.expect_tx` after arrive/arrive_drop is the arrive variant, not the standalone op.
        let expect_tx = matches!(k, K::Arrive | K::Drop) && m.has("expect_tx")?;
        let no_complete = matches!(k, K::Arrive | K::Drop) && m.has("noComplete")?;
        let parity = matches!(k, K::TestWait | K::TryWait) && m.has("parity")?;
        let sems: &[(&str, Sem)] = match k {
            K::Arrive | K::Drop => &[("release", Sem::Release), ("relaxed", Sem::Relaxed)],
            K::TestWait | K::TryWait => &[("acquire", Sem::Acquire), ("relaxed", Sem::Relaxed)],
            K::ExpectTx | K::CompleteTx => &[("relaxed", Sem::Relaxed)],
            _ => &[],
        };
        let sem = m.pick(sems)?;
        let scope = if matches!(k, K::Init | K::Inval | K::Pending) { None } else { m.pick(&SCOPES[..2])? };
        let space = m.pick(&SPACES[1..4])?;
        let space_v = space.map(|s| s.0).unwrap_or(StateSpace::Generic);
        m.need(&[("b64", ())], "type `.b64`")?;
        if space_v == StateSpace::SharedCluster && !matches!(k, K::Arrive | K::Drop | K::ExpectTx | K::CompleteTx) {
            return Err(Diag::new(
                space.map(|s| s.2).unwrap_or(ins.loc),
                format!("`mbarrier.{kname}` does not support `.shared::cluster` (only arrive, arrive_drop, expect_tx and complete_tx do)"),
            ));
        }
        if no_complete {
            if expect_tx {
                return Err(Diag::new(m.loc_of("noComplete"), "`.noComplete` cannot be combined with `.expect_tx`"));
            }
            if let Some((s, t, loc)) = sem {
                if s != Sem::Release {
                    return Err(Diag::new(loc, format!("`.noComplete` takes only `.release`, not `.{t}`")));
                }
            }
            if let Some((s, t, loc)) = scope {
                if s != Scope::Cta {
                    return Err(Diag::new(loc, format!("`.noComplete` takes only `.cta`, not `.{t}`")));
                }
            }
            if space_v == StateSpace::SharedCluster {
                return Err(Diag::new(m.loc_of("noComplete"), "`.noComplete` is not valid with `.shared::cluster`"));
            }
        }
        let n = ins.operands.len();
        let u32v = |i: usize| -> DResult<Operand> { self.value(self.op(ins, i)?, Ty::U32) };
        let (op, ops) = match k {
            K::Init => {
                self.nops(ins, 2..=2)?;
                (Opcode::MbInit { space: space_v }, vec![self.addr(self.op(ins, 0)?)?, u32v(1)?])
            }
            K::Inval => {
                self.nops(ins, 1..=1)?;
                (Opcode::MbInval { space: space_v }, vec![self.addr(self.op(ins, 0)?)?])
            }
            K::ExpectTx | K::CompleteTx => {
                self.nops(ins, 2..=2)?;
                let op = if k == K::ExpectTx {
                    Opcode::MbExpectTx { space: space_v }
                } else {
                    Opcode::MbCompleteTx { space: space_v }
                };
                (op, vec![self.addr(self.op(ins, 0)?)?, u32v(1)?])
            }
            K::Arrive | K::Drop => {
                if expect_tx || no_complete {
                    if n == 2 {
                        let what = if expect_tx {
                            "`.expect_tx` needs a txCount operand"
                        } else {
                            "`.noComplete` needs a count operand"
                        };
                        return Err(Diag::new(ins.loc, what));
                    }
                    self.nops(ins, 3..=3)?;
                } else {
                    self.nops(ins, 2..=3)?;
                }
                if n == 3 && !expect_tx && !no_complete && (80..90).contains(&self.module.target_sm) {
                    return Err(Diag::new(
                        ins.loc,
                        format!(
                            "on {} an arrive count needs `.noComplete` (count without `.noComplete` needs sm_90)",
                            self.module.target
                        ),
                    ));
                }
                let d = self.op(ins, 0)?;
                if space_v == StateSpace::SharedCluster && !matches!(d, OperandAst::Sink { .. }) {
                    return Err(Diag::new(
                        d.loc(),
                        "an arrive on a `.shared::cluster` mbarrier cannot return a state: the destination must be `_`",
                    ));
                }
                let mut ops = vec![self.dest(d)?, self.addr(self.op(ins, 1)?)?];
                if n == 3 {
                    ops.push(u32v(2)?);
                }
                let (sem, scope) = (sem.map(|s| s.0).unwrap_or(Sem::Release), scope.map(|s| s.0).unwrap_or(Scope::Cta));
                (Opcode::MbArrive { drop: k == K::Drop, expect_tx, no_complete, space: space_v, sem, scope }, ops)
            }
            K::TestWait | K::TryWait => {
                let try_wait = k == K::TryWait;
                self.nops(ins, 3..=if try_wait { 4 } else { 3 })?;
                let third = self.op(ins, 2)?;
                if parity {
                    if let Some(v) = imm_int(third) {
                        if !(0..=1).contains(&v) {
                            return Err(Diag::new(third.loc(), format!("phaseParity must be 0 or 1, not {v}")));
                        }
                    }
                }
                let mut ops = vec![
                    self.dest(self.op(ins, 0)?)?,
                    self.addr(self.op(ins, 1)?)?,
                    self.value(third, if parity { Ty::U32 } else { Ty::B64 })?,
                ];
                if n == 4 {
                    ops.push(u32v(3)?);
                }
                let (sem, scope) = (sem.map(|s| s.0).unwrap_or(Sem::Acquire), scope.map(|s| s.0).unwrap_or(Scope::Cta));
                (Opcode::MbTestWait { try_wait, parity, space: space_v, sem, scope }, ops)
            }
            K::Pending => {
                self.nops(ins, 2..=2)?;
                (Opcode::MbPendingCount, vec![self.dest(self.op(ins, 0)?)?, self.value(self.op(ins, 1)?, Ty::B64)?])
            }
        };
        Ok((op, ops))
    }

    /// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned [dst], [src], 128`
    /// (checklist 115: the size must be 128).
    pub(super) fn d_tensormap_cp_fenceproxy(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        m.has("cp_fenceproxy")?;
        let spaces = m.take_all(&SPACES[..4]);
        if !matches!(spaces.as_slice(), [(StateSpace::Global, _, _), (StateSpace::Shared, _, _)]) {
            return Err(Diag::new(
                ins.loc,
                "`tensormap.cp_fenceproxy` needs `.global.shared::cta` (copy from shared::cta to global)",
            ));
        }
        for (q, what) in [
            ("tensormap::generic", "the proxy kind `.tensormap::generic`"),
            ("release", "`.release`"),
            ("sync", "`.sync`"),
            ("aligned", "`.aligned`"),
        ] {
            if !m.has(q)? {
                return Err(Diag::new(ins.loc, format!("`tensormap.cp_fenceproxy` needs {what}")));
            }
        }
        let scope = m.need(SCOPES, "a scope `.cta`, `.cluster`, `.gpu` or `.sys`")?;
        self.nops(ins, 3..=3)?;
        let size = self.op(ins, 2)?;
        if imm_int(size) != Some(128) {
            return Err(Diag::new(size.loc(), "`tensormap.cp_fenceproxy` size must be the integer 128"));
        }
        Ok((
            Opcode::TensormapCpFenceproxy { scope },
            vec![self.addr(self.op(ins, 0)?)?, self.addr(self.op(ins, 1)?)?, Operand::Imm(128)],
        ))
    }

    /// `clusterlaunchcontrol.try_cancel` and `.query_cancel` (sm_100+).
    pub(super) fn d_clusterlaunchcontrol(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        if self.module.target_sm < 100 {
            return Err(Diag::new(
                ins.loc,
                format!("`clusterlaunchcontrol` requires sm_100 or higher (target is {})", self.module.target),
            ));
        }
        let kind = m.need(&[("try_cancel", true), ("query_cancel", false)], "`.try_cancel` or `.query_cancel`")?;
        if kind {
            if !m.has("async")? {
                return Err(Diag::new(ins.loc, "`clusterlaunchcontrol.try_cancel` needs `.async`"));
            }
            let space = if m.has("shared::cta")? { StateSpace::Shared } else { StateSpace::Generic };
            if !m.has("mbarrier::complete_tx::bytes")? {
                return Err(Diag::new(
                    ins.loc,
                    "`clusterlaunchcontrol.try_cancel` needs the completion mechanism `.mbarrier::complete_tx::bytes`",
                ));
            }
            let multicast = m.has("multicast::cluster::all")?;
            m.need(&[("b128", ())], "type `.b128`")?;
            self.nops(ins, 2..=2)?;
            return Ok((
                Opcode::ClcTryCancel { multicast, space },
                vec![self.addr(self.op(ins, 0)?)?, self.addr(self.op(ins, 1)?)?],
            ));
        }
        let query = m.need(
            &[
                ("is_canceled", None),
                ("get_first_ctaid", Some(3u8)),
                ("get_first_ctaid::x", Some(0)),
                ("get_first_ctaid::y", Some(1)),
                ("get_first_ctaid::z", Some(2)),
            ],
            "`.is_canceled` or `.get_first_ctaid`",
        )?;
        match query {
            None => m.need(&[("pred", ())], "type `.pred`")?,
            Some(3) => {
                m.need(&[("v4", ())], "`.v4`")?;
                m.need(&[("b32", ())], "type `.b32`")?
            }
            Some(_) => m.need(&[("b32", ())], "type `.b32`")?,
        }
        m.need(&[("b128", ())], "operand type `.b128`")?;
        self.nops(ins, 2..=2)?;
        let d = self.dest(self.op(ins, 0)?)?;
        if (query == Some(3)) != matches!(&d, Operand::Vector(v) if v.len() == 4) {
            return Err(Diag::new(
                self.op(ins, 0)?.loc(),
                "`.get_first_ctaid.v4` writes a 4-vector `{x, y, z, _}`; the other forms one register",
            ));
        }
        Ok((Opcode::ClcQueryCancel { first_ctaid: query }, vec![d, self.value(self.op(ins, 1)?, Ty::B128)?]))
    }

    /// Every `cp.*` instruction.
    pub(super) fn d_cp(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        let reduce = m.has("reduce")?;
        if !m.has("async")? {
            return Err(Diag::new(ins.loc, "`cp` needs `.async`"));
        }
        if !reduce && m.has("mbarrier")? {
            // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
            m.need(&[("arrive", ())], "`.arrive`")?;
            let noinc = m.has("noinc")?;
            let space = m.pick(&SPACES[1..4])?;
            if let Some((StateSpace::SharedCluster, _, loc)) = space {
                return Err(Diag::new(loc, "`cp.async.mbarrier.arrive` does not support `.shared::cluster`"));
            }
            m.need(&[("b64", ())], "type `.b64`")?;
            self.nops(ins, 1..=1)?;
            let space = space.map(|s| s.0).unwrap_or(StateSpace::Generic);
            return Ok((Opcode::CpAsyncMbArrive { noinc, space }, vec![self.addr(self.op(ins, 0)?)?]));
        }
        let bulk = m.has("bulk")?;
        // group management
        if m.has("commit_group")? {
            self.nops(ins, 0..=0)?;
            return Ok((if bulk { Opcode::BulkCommit } else { Opcode::CpAsyncCommit }, vec![]));
        }
        if m.has("wait_group")? {
            let read = bulk && m.has("read")?;
            self.nops(ins, 1..=1)?;
            let n = self.op(ins, 0)?;
            if imm_int(n).is_none() {
                return Err(Diag::new(n.loc(), "wait_group N needs an integer constant"));
            }
            let op = if bulk { Opcode::BulkWaitGroup { read } } else { Opcode::CpAsyncWaitGroup };
            return Ok((op, vec![self.value(n, Ty::U32)?]));
        }
        if !bulk && m.has("wait_all")? {
            self.nops(ins, 0..=0)?;
            return Ok((Opcode::CpAsyncWaitAll, vec![]));
        }
        if !bulk {
            if reduce {
                return Err(Diag::new(ins.loc, "`cp.reduce.async` needs `.bulk`"));
            }
            return self.d_cp_async(ins, m);
        }
        let tensor = m.has("tensor")?;
        if m.has("prefetch")? {
            m.need(&[("L2", ())], "`.L2`")?;
            m.need(&[("global", ())], "`.global`")?;
            let hint = m.has("L2::cache_hint")?;
            if tensor {
                let dims = m.need(DIMS, "a dimension `.1d`..`.5d`")?;
                let im2col = self.load_mode(ins, m, dims, true)?;
                // [tensorMap, coords]{, im2colInfo}{, cache-policy}
                let base = 1 + im2col as usize;
                self.nops(ins, base..=base + hint as usize)?;
                if im2col {
                    self.im2col_info(self.op(ins, 1)?, dims)?;
                }
                return Ok((Opcode::BulkPrefetch, vec![self.tensor(self.op(ins, 0)?, dims as usize)?]));
            }
            let n = ins.operands.len();
            if n == 3 && !hint {
                return Err(Diag::new(ins.loc, "a cache-policy operand needs `.L2::cache_hint`"));
            }
            self.nops(ins, 2..=2 + hint as usize)?;
            self.check_bulk_size(self.op(ins, 1)?)?;
            let mut ops = vec![self.addr(self.op(ins, 0)?)?, self.value(self.op(ins, 1)?, Ty::U32)?];
            if n == 3 {
                ops.push(self.value(self.op(ins, 2)?, Ty::B64)?);
            }
            return Ok((Opcode::BulkPrefetch, ops));
        }
        // direction from the ordered pair of state-space modifiers: destination first
        let spaces = m.take_all(&[("global", 'g'), ("shared::cta", 'c'), ("shared", 'c'), ("shared::cluster", 'k')]);
        let dir = match spaces.iter().map(|s| s.0).collect::<String>().as_str() {
            "kg" | "cg" => BulkDir::GlobalToShared,
            "gc" => BulkDir::SharedToGlobal,
            "kc" => BulkDir::SharedToCluster,
            _ => {
                let text: Vec<String> = spaces.iter().map(|s| format!(".{}", s.1)).collect();
                return Err(Diag::new(
                    spaces.first().map(|s| s.2).unwrap_or(ins.loc),
                    format!(
                        "`{}` needs a destination and a source state space, found `{}`",
                        full_name(ins),
                        text.join("")
                    ),
                ));
            }
        };
        let dst_cta = spaces.first().map(|s| s.0) == Some('c');
        let mut mbar = m.has("mbarrier::complete_tx::bytes")?;
        let group = m.has("bulk_group")?;
        if tensor && !mbar && !group && dir == BulkDir::GlobalToShared {
            // Several seed examples omit the completion mechanism of tensor loads; the only one
            // that exists for this direction is the mbarrier.
            mbar = true;
        }
        match (dir, mbar, group) {
            (BulkDir::SharedToGlobal, false, true)
            | (BulkDir::GlobalToShared | BulkDir::SharedToCluster, true, false) => {}
            (BulkDir::SharedToGlobal, _, _) => {
                return Err(Diag::new(
                    ins.loc,
                    "the `.global.shared::cta` direction needs the `.bulk_group` completion mechanism",
                ))
            }
            _ => {
                return Err(Diag::new(
                    ins.loc,
                    "this direction needs the `.mbarrier::complete_tx::bytes` completion mechanism",
                ))
            }
        }
        let multicast = m.has("multicast::cluster")?;
        if multicast && (dir != BulkDir::GlobalToShared || dst_cta) {
            return Err(Diag::new(
                m.loc_of("multicast::cluster"),
                "`.multicast::cluster` is only valid for global -> shared::cluster",
            ));
        }
        let hint = m.has("L2::cache_hint")?;
        if hint && dir == BulkDir::SharedToCluster {
            return Err(Diag::new(
                m.loc_of("L2::cache_hint"),
                "`.L2::cache_hint` needs a global source or destination",
            ));
        }
        if tensor {
            return self.d_bulk_tensor(ins, m, reduce, dir, mbar, multicast, hint);
        }
        if reduce {
            let op = m.need(ATOM_OPS, "a reduction operation")?;
            let noftz = m.has("noftz")?;
            let ty = m.need(DTYPES, "a type")?;
            use DataType::*;
            let ok = if dir == BulkDir::SharedToCluster {
                match op {
                    AtomOp::Add => matches!(ty, U32 | S32 | U64),
                    AtomOp::Min | AtomOp::Max => matches!(ty, U32 | S32),
                    AtomOp::Inc | AtomOp::Dec => ty == U32,
                    AtomOp::And | AtomOp::Or | AtomOp::Xor => ty == B32,
                    _ => false,
                }
            } else {
                match op {
                    AtomOp::Add => matches!(ty, U32 | S32 | U64 | F32 | F64 | F16 | Bf16),
                    AtomOp::Min | AtomOp::Max => matches!(ty, U32 | S32 | U64 | S64 | F16 | Bf16),
                    AtomOp::Inc | AtomOp::Dec => ty == U32,
                    AtomOp::And | AtomOp::Or | AtomOp::Xor => matches!(ty, B32 | B64),
                    _ => false,
                }
            };
            if !ok {
                return Err(Diag::new(
                    ins.loc,
                    format!("`cp.reduce.async.bulk` does not support `.{}.{}` in this direction", op.name(), ty.name()),
                ));
            }
            if op == AtomOp::Add && matches!(ty, F16 | Bf16) && !noftz {
                return Err(Diag::new(ins.loc, format!("`cp.reduce.async.bulk .add.{}` requires `.noftz`", ty.name())));
            }
            if noftz && !(op == AtomOp::Add && matches!(ty, F16 | Bf16)) {
                return Err(Diag::new(m.loc_of("noftz"), "`.noftz` is only valid with `.add.f16`/`.add.bf16`"));
            }
            let base = if mbar { 4 } else { 3 };
            let n = ins.operands.len();
            if n == base + 1 && !hint {
                return Err(Diag::new(ins.loc, "a cache-policy operand needs `.L2::cache_hint`"));
            }
            self.nops(ins, base..=base + hint as usize)?;
            self.check_bulk_size(self.op(ins, 2)?)?;
            let mut ops = vec![
                self.addr(self.op(ins, 0)?)?,
                self.addr(self.op(ins, 1)?)?,
                self.value(self.op(ins, 2)?, Ty::U32)?,
            ];
            if mbar {
                ops.push(self.addr(self.op(ins, 3)?)?);
            }
            if n == base + 1 {
                ops.push(self.value(self.op(ins, base)?, Ty::B64)?);
            }
            return Ok((Opcode::CpReduceBulk { dir, op, ty, noftz, cache_hint: hint }, ops));
        }
        let cp_mask = m.has("cp_mask")?;
        if cp_mask && dir != BulkDir::SharedToGlobal {
            return Err(Diag::new(m.loc_of("cp_mask"), "`.cp_mask` is only valid for shared::cta -> global"));
        }
        // [dst], [src], size{, [mbar]}{, ctaMask}{, cache-policy}{, byteMask}
        let want = 3 + mbar as usize + multicast as usize + hint as usize + cp_mask as usize;
        if ins.operands.len() == want + 1 && !hint {
            return Err(Diag::new(ins.loc, "a cache-policy operand needs `.L2::cache_hint`"));
        }
        self.nops(ins, want..=want)?;
        self.check_bulk_size(self.op(ins, 2)?)?;
        let mut ops =
            vec![self.addr(self.op(ins, 0)?)?, self.addr(self.op(ins, 1)?)?, self.value(self.op(ins, 2)?, Ty::U32)?];
        let mut i = 3;
        if mbar {
            ops.push(self.addr(self.op(ins, i)?)?);
            i += 1;
        }
        if multicast {
            ops.push(self.value(self.op(ins, i)?, Ty::B16)?);
            i += 1;
        }
        if hint {
            ops.push(self.value(self.op(ins, i)?, Ty::B64)?);
            i += 1;
        }
        if cp_mask {
            ops.push(self.value(self.op(ins, i)?, Ty::B16)?);
        }
        Ok((Opcode::CpBulk { dir, multicast, cache_hint: hint, cp_mask }, ops))
    }

    /// A literal bulk size must be a multiple of 16 (checklist 105, syntactic part).
    fn check_bulk_size(&self, a: &OperandAst) -> DResult<()> {
        if let Some(v) = imm_int(a) {
            if v <= 0 || v % 16 != 0 {
                return Err(Diag::new(a.loc(), format!("bulk copy size {v} is not a positive multiple of 16")));
            }
        }
        Ok(())
    }

    /// `.tile` (default) and the other load modes; returns whether the mode is `.im2col` (a
    /// load, PTX ISA §5.5.4). The other modes are validated (checklist 111) and then reported as
    /// not supported.
    fn load_mode(&self, ins: &Instruction, m: &mut Mods, dims: u8, load: bool) -> DResult<bool> {
        let modes: &[(&str, u8)] = &[
            ("tile", 0),
            ("tile::gather4", 1),
            ("tile::scatter4", 2),
            ("im2col", 3),
            ("im2col::w", 4),
            ("im2col::w::128", 5),
            ("im2col_no_offs", 6),
        ];
        let Some((mode, text, loc)) = m.pick(modes)? else { return Ok(false) };
        let legal = if load { matches!(mode, 0 | 1 | 3 | 4 | 5) } else { matches!(mode, 0 | 2 | 6) };
        if !legal {
            return Err(Diag::new(loc, format!("load mode `.{text}` is not valid in this direction")));
        }
        match mode {
            0 => return Ok(false),
            1 | 2 if dims != 2 => return Err(Diag::new(loc, format!("`.{text}` needs `.2d`"))),
            3..=6 if dims < 3 => return Err(Diag::new(loc, format!("`.{text}` needs at least `.3d`"))),
            3 => return Ok(true),
            _ => {}
        }
        if matches!(mode, 4 | 5) {
            // checklist 112: im2colInfo = {wHalo, wOffset}; literal values are range-checked
            let info = ins.operands.iter().find_map(|o| match o {
                OperandAst::Vector { items, .. } => Some(items),
                _ => None,
            });
            if let Some(items) = info {
                let halo_max = if mode == 4 { 512 } else { 32 };
                for (i, (name, max)) in [("wHalo", halo_max), ("wOffset", 32)].into_iter().enumerate() {
                    if let Some(v) = items.get(i).and_then(imm_int) {
                        if !(0..max).contains(&v) {
                            return Err(Diag::new(
                                items[i].loc(),
                                format!("`.{text}` {name} must be in [0, {max}), found {v} (im2col::w wHalo < 512, < 32 for ::w::128; wOffset < 32)"),
                            ));
                        }
                    }
                }
            }
        }
        Err(Diag::new(
            loc,
            format!("tensor load mode `.{text}` is not supported by smsync (only `.tile` and `.im2col`)"),
        ))
    }

    /// The `.im2col` operand `im2colInfo`: a vector of `dims - 2` im2col offsets (W, H, D),
    /// 16-bit values (PTX ISA §9.7.9.25.5.2).
    fn im2col_info(&self, a: &OperandAst, dims: u8) -> DResult<Operand> {
        let want = dims as usize - 2;
        match a {
            OperandAst::Vector { items, loc } if items.len() == want => {
                Ok(Operand::Vector(items.iter().map(|i| self.value(i, Ty::U16)).collect::<DResult<Vec<_>>>()?))
            }
            OperandAst::Vector { items, loc } => Err(Diag::new(
                *loc,
                format!("`.im2col` with `.{dims}d` takes {want} im2col offsets, found {}", items.len()),
            )),
            other => Err(Diag::new(other.loc(), format!("expected the im2col offsets `{{..}}` ({want} values)"))),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn d_bulk_tensor(
        &self,
        ins: &Instruction,
        m: &mut Mods,
        reduce: bool,
        dir: BulkDir,
        mbar: bool,
        multicast: bool,
        hint: bool,
    ) -> DResult<Decoded> {
        if dir == BulkDir::SharedToCluster {
            return Err(Diag::new(ins.loc, "tensor copies go between global and shared memory"));
        }
        let dims = m.need(DIMS, "a dimension `.1d`..`.5d`")?;
        let cta_group = m.pick(&[("cta_group::1", 1u8), ("cta_group::2", 2)])?;
        if let Some((g, text, loc)) = cta_group {
            if !mbar {
                return Err(Diag::new(
                    loc,
                    format!("`.{text}` needs the `.mbarrier::complete_tx::bytes` completion mechanism"),
                ));
            }
            if g == 2 {
                return Err(Diag::new(loc, "`.cta_group::2` is not supported by smsync"));
            }
        }
        let load = dir == BulkDir::GlobalToShared;
        let red_op = if reduce { Some(m.need(ATOM_OPS, "a reduction operation")?) } else { None };
        if let Some(op) = red_op {
            if matches!(op, AtomOp::Cas | AtomOp::Exch) {
                return Err(Diag::new(ins.loc, format!("`cp.reduce.async.bulk.tensor` has no `.{}`", op.name())));
            }
        }
        let im2col = self.load_mode(ins, m, dims, load)?;
        let ncoords = dims as usize;
        let n = ins.operands.len();
        let (base, ops) = if load {
            // [dst], [tmap, coords], [mbar]{, im2colInfo}{, ctaMask}{, cache-policy}
            let base = 3 + im2col as usize + multicast as usize;
            if n == base + 1 && !hint {
                return Err(Diag::new(ins.loc, "a cache-policy operand needs `.L2::cache_hint`"));
            }
            self.nops(ins, base..=base + hint as usize)?;
            let mut ops = vec![
                self.addr(self.op(ins, 0)?)?,
                self.tensor(self.op(ins, 1)?, ncoords)?,
                self.addr(self.op(ins, 2)?)?,
            ];
            if im2col {
                ops.push(self.im2col_info(self.op(ins, 3)?, dims)?);
            }
            if multicast {
                ops.push(self.value(self.op(ins, 3 + im2col as usize)?, Ty::B16)?);
            }
            (base, ops)
        } else {
            let base = 2;
            if n == base + 1 && !hint {
                return Err(Diag::new(ins.loc, "a cache-policy operand needs `.L2::cache_hint`"));
            }
            self.nops(ins, base..=base + hint as usize)?;
            (base, vec![self.tensor(self.op(ins, 0)?, ncoords)?, self.addr(self.op(ins, 1)?)?])
        };
        let mut ops = ops;
        if n == base + 1 {
            ops.push(self.value(self.op(ins, base)?, Ty::B64)?);
        }
        let op = match red_op {
            Some(op) => Opcode::CpReduceBulkTensor { dims, op },
            None => Opcode::CpBulkTensor { dims, dir, multicast, cache_hint: hint, im2col },
        };
        Ok((op, ops))
    }

    /// `cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size|ignore-src}{, cache-policy}`
    fn d_cp_async(&self, ins: &Instruction, m: &mut Mods) -> DResult<Decoded> {
        let cg = m.need(&[("ca", false), ("cg", true)], "`.ca` or `.cg`")?;
        let spaces = m.take_all(&[("global", 'g'), ("shared::cta", 'c'), ("shared", 'c'), ("shared::cluster", 'k')]);
        if spaces.iter().map(|s| s.0).collect::<String>() != "cg" {
            return Err(Diag::new(
                ins.loc,
                "`cp.async` copies `.shared{::cta}.global` (destination shared, source global)",
            ));
        }
        let hint = m.has("L2::cache_hint")?;
        m.pick(&[("L2::64B", ()), ("L2::128B", ()), ("L2::256B", ())])?;
        self.nops(ins, 3..=4 + hint as usize)?;
        let size_op = self.op(ins, 2)?;
        let size = match imm_int(size_op) {
            Some(v @ (4 | 8 | 16)) => v as u8,
            Some(v) => return Err(Diag::new(size_op.loc(), format!("cp-size must be 4, 8 or 16, not {v}"))),
            None => return Err(Diag::new(size_op.loc(), "cp-size must be an integer constant")),
        };
        if cg && size != 16 {
            return Err(Diag::new(size_op.loc(), format!("`cp.async.cg` requires cp-size 16, not {size}")));
        }
        let n = ins.operands.len();
        let extra = n - 3; // src-size/ignore-src and/or cache-policy
        let has_policy = hint && extra >= 1;
        if hint && extra == 0 {
            return Err(Diag::new(ins.loc, "`.L2::cache_hint` needs a cache-policy operand"));
        }
        if !hint && extra == 2 {
            return Err(Diag::new(ins.loc, "a cache-policy operand needs `.L2::cache_hint`"));
        }
        let has_fourth = extra - has_policy as usize == 1;
        let mut ops = vec![self.addr(self.op(ins, 0)?)?, self.addr(self.op(ins, 1)?)?, Operand::Imm(size as u64)];
        let (mut has_src_size, mut has_ignore_src) = (false, false);
        if has_fourth {
            let a = self.op(ins, 3)?;
            let is_pred = match a {
                OperandAst::Not { .. } => true,
                OperandAst::Name { name, .. } => self.find_reg(name).and_then(|r| self.reg_ty(r)) == Some(Ty::Pred),
                _ => false,
            };
            if is_pred {
                has_ignore_src = true;
                ops.push(self.value(a, Ty::Pred)?);
            } else {
                if let Some(v) = imm_int(a) {
                    if v > size as i128 || v < 0 {
                        return Err(Diag::new(a.loc(), format!("src-size {v} is larger than cp-size {size}")));
                    }
                }
                has_src_size = true;
                ops.push(self.value(a, Ty::U32)?);
            }
        }
        if has_policy {
            ops.push(self.value(self.op(ins, n - 1)?, Ty::B64)?);
        }
        Ok((Opcode::CpAsync { cg, size, has_src_size, has_ignore_src, cache_hint: hint }, ops))
    }
}
