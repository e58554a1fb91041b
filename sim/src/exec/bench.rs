//! Built-in benchmark kernels for `smsync bench`: an ALU-heavy loop, a block reduction
//! (redux.sync + shfl.sync + bar.sync through shared memory) and an mbarrier producer/consumer
//! pipeline. Each kernel is given as PTX text (what it means) and, until the PTX parser lands,
//! as the equivalent IR built here instruction by instruction (what runs).

use super::{run, ExecError, Launch, RunOptions, RunResult};
use crate::config::Config;
use crate::encoding::{DataType, ReduxOp, ShflMode};
use crate::ptx::ir::*;
use crate::units::GoldenUnits;

#[derive(Clone)]
pub struct BenchKernel {
    pub name: &'static str,
    pub ptx: &'static str,
    pub launch: &'static str,
    pub build: fn() -> Module,
    /// Checks the result, so that a fast but wrong executor does not pass as a benchmark.
    pub check: fn(&RunResult) -> Result<(), String>,
}

pub const ALU_ITERS: u32 = 2000;

pub const ALU_PTX: &str = r#".version 8.0
.target sm_90
.address_size 64
.visible .entry alu_loop(.param .u64 out)
{
    .reg .pred %p;
    .reg .b32 %x, %y, %i;
    .reg .b64 %rd, %off;
    ld.param.u64 %rd, [out];
    mov.u32 %x, %tid.x;
    mov.u32 %y, 0;
    mov.u32 %i, 0;
LOOP:
    mad.lo.u32 %x, %x, 1664525, 1013904223;
    shr.u32 %y, %x, 7;
    xor.b32 %y, %y, %x;
    add.u32 %i, %i, 1;
    setp.lt.u32 %p, %i, 2000;
    @%p bra LOOP;
    mov.u32 %i, %tid.x;
    mul.wide.u32 %off, %i, 4;
    add.u64 %rd, %rd, %off;
    st.global.u32 [%rd], %y;
    ret;
}
"#;

pub const REDUCE_ROUNDS: u32 = 200;

pub const REDUCE_PTX: &str = r#".version 8.0
.target sm_90
.address_size 64
// Every round: warp sums by redux.sync, a shfl.sync.bfly, warp leaders store to shared,
// bar.sync, every warp reduces the 32 partials, bar.sync. Thread 0 stores rounds * block sum.
.visible .entry block_reduce(.param .u64 out)
{
    .reg .pred %p, %lead;
    .reg .b32 %v, %s, %t, %w, %lane, %r, %acc;
    .reg .b64 %rd, %sa;
    .shared .align 4 .b32 partial[32];
    ld.param.u64 %rd, [out];
    mov.u32 %v, %tid.x; mov.u32 %lane, %laneid; mov.u32 %w, %warpid;
    mov.u32 %acc, 0; mov.u32 %r, 0;
ROUND:
    redux.sync.add.u32 %s, %v, 0xffffffff;
    shfl.sync.bfly.b32 %t, %s, 16, 31, 0xffffffff;
    setp.eq.u32 %lead, %lane, 0;
    mul.wide.u32 %sa, %w, 4;
    @%lead st.shared.u32 [%sa], %t;      // partial is the only .shared variable: offset 0
    bar.sync 0;
    mul.wide.u32 %sa, %lane, 4;
    ld.shared.u32 %t, [%sa];
    redux.sync.add.u32 %t, %t, 0xffffffff;
    add.u32 %acc, %acc, %t;
    bar.sync 0;
    add.u32 %r, %r, 1;
    setp.lt.u32 %p, %r, 200;
    @%p bra ROUND;
    mov.u32 %t, %tid.x;
    setp.eq.u32 %p, %t, 0;
    @%p st.global.u32 [%rd], %acc;
    ret;
}
"#;

pub const PIPE_ITERS: u32 = 500;

pub const PIPE_PTX: &str = r#".version 8.0
.target sm_90
.address_size 64
// Warp 0 produces 500 rounds of values into a 32-word shared slot, warp 1 consumes them;
// the `full` and `empty` mbarriers (count 32) hand the slot back and forth.
.visible .entry pipeline(.param .u64 out)
{
    .reg .pred %p, %done, %ok;
    .reg .b32 %w, %i, %v, %sum, %par, %lane;
    .reg .b64 %rd, %tok, %sa;
    .shared .align 8 .b64 full;
    .shared .align 8 .b64 empty;
    .shared .align 4 .b32 slot[32];        // at offset 16
    mov.u32 %w, %warpid; mov.u32 %lane, %laneid;
    mul.wide.u32 %sa, %lane, 4; add.u64 %sa, %sa, 16;
    setp.ne.u32 %p, %w, 0;
    setp.ne.u32 %done, %tid.x, 0;
    @!%done mbarrier.init.shared.b64 [full], 32;
    @!%done mbarrier.init.shared.b64 [empty], 32;
    bar.sync 0;
    mov.u32 %i, 0; mov.u32 %sum, 0; mov.u32 %par, 0;
    @%p bra CONSUMER;
PRODUCER:
    xor.b32 %v, %par, 1;
PWAIT:
    mbarrier.try_wait.parity.shared.b64 %ok, [empty], %v;
    @!%ok bra PWAIT;
    add.u32 %v, %i, %lane;
    st.shared.u32 [%sa], %v;
    mbarrier.arrive.shared.b64 %tok, [full];
    xor.b32 %par, %par, 1;
    add.u32 %i, %i, 1;
    setp.lt.u32 %done, %i, 500;
    @%done bra PRODUCER;
    exit;
CONSUMER:
    mbarrier.try_wait.parity.shared.b64 %ok, [full], %par;
    @!%ok bra CONSUMER;
    ld.shared.u32 %v, [%sa];
    add.u32 %sum, %sum, %v;
    mbarrier.arrive.shared.b64 %tok, [empty];
    xor.b32 %par, %par, 1;
    add.u32 %i, %i, 1;
    setp.lt.u32 %done, %i, 500;
    @%done bra CONSUMER;
    ld.param.u64 %rd, [out];
    mul.wide.u32 %tok, %lane, 4;
    add.u64 %rd, %rd, %tok;
    st.global.u32 [%rd], %sum;
    exit;
}
"#;

// ---- a minimal builder ------------------------------------------------------------------

struct B {
    f: Function,
    source: Vec<String>,
}

impl B {
    fn new(name: &str, source: &str) -> B {
        B {
            f: Function {
                name: name.into(),
                is_entry: true,
                params: vec![],
                rets: vec![],
                regs: vec![],
                body: vec![],
                locals: vec![],
                loc: Loc { line: 1, col: 1 },
            },
            source: source.lines().map(|s| s.to_string()).collect(),
        }
    }
    fn reg(&mut self, ty: Ty) -> RegId {
        self.f.regs.push(RegInfo { name: format!("%r{}", self.f.regs.len()), ty });
        RegId(self.f.regs.len() as u32 - 1)
    }
    fn param_u64(&mut self, name: &str) -> ParamId {
        self.f.params.push(ParamInfo { name: name.into(), ty: Ty::U64, size: 8, align: 8, offset: 0, reg: None });
        ParamId(self.f.params.len() as u32 - 1)
    }
    fn here(&self) -> u32 {
        self.f.body.len() as u32
    }
    /// `line` is the 1-based line of the PTX text the instruction corresponds to (for reports).
    fn i(&mut self, line: u32, guard: Option<(RegId, bool)>, op: Opcode, ops: Vec<Operand>) {
        self.f.body.push(Instr {
            guard: guard.map(|(pred, negated)| Guard { pred, negated }),
            op,
            ops,
            loc: Loc { line, col: 5 },
        });
    }
    fn module(self, vars: Vec<VarInfo>, file: &str) -> Module {
        Module {
            file: file.into(),
            source: self.source,
            version: (8, 0),
            target_sm: 90,
            target: "sm_90".into(),
            address_size: 64,
            vars,
            funcs: vec![self.f],
        }
    }
}

fn r(x: RegId) -> Operand {
    Operand::Reg(x)
}
fn imm(v: u64) -> Operand {
    Operand::Imm(v)
}
fn at(x: RegId) -> Operand {
    Operand::Addr { base: AddrBase::Reg(x), offset: 0 }
}
fn arith(op: ArithOp, ty: Ty, mode: Option<MulMode>) -> Opcode {
    Opcode::Arith { op, ty, mode, rnd: None, sat: false, ftz: false }
}
fn setp(cmp: CmpOp) -> Opcode {
    Opcode::Setp { cmp, ty: Ty::U32, combine: None, ftz: false }
}
fn shared_var(name: &str, ty: Ty, size: u32) -> VarInfo {
    VarInfo {
        name: name.into(),
        space: StateSpace::Shared,
        ty,
        align: ty.bytes(),
        size,
        extern_dynamic: false,
        init: vec![],
        offset: 0,
    }
}

fn build_alu() -> Module {
    let mut b = B::new("alu_loop", ALU_PTX);
    let out = b.param_u64("out");
    let (p, x, y, i) = (b.reg(Ty::Pred), b.reg(Ty::B32), b.reg(Ty::B32), b.reg(Ty::B32));
    let (rd, off) = (b.reg(Ty::B64), b.reg(Ty::B64));
    b.i(
        10,
        None,
        Opcode::Ld { space: StateSpace::Param, ty: Ty::U64, vec: 1 },
        vec![r(rd), Operand::Addr { base: AddrBase::Param(out), offset: 0 }],
    );
    b.i(11, None, Opcode::Mov(Ty::U32), vec![r(x), Operand::Special(SpecialReg::Tid(0))]);
    b.i(12, None, Opcode::Mov(Ty::U32), vec![r(y), imm(0)]);
    b.i(13, None, Opcode::Mov(Ty::U32), vec![r(i), imm(0)]);
    let top = b.here();
    b.i(15, None, arith(ArithOp::Mad, Ty::U32, Some(MulMode::Lo)), vec![r(x), r(x), imm(1664525), imm(1013904223)]);
    b.i(16, None, Opcode::Logic { op: LogicOp::Shr, ty: Ty::U32 }, vec![r(y), r(x), imm(7)]);
    b.i(17, None, Opcode::Logic { op: LogicOp::Xor, ty: Ty::B32 }, vec![r(y), r(y), r(x)]);
    b.i(18, None, arith(ArithOp::Add, Ty::U32, None), vec![r(i), r(i), imm(1)]);
    b.i(19, None, setp(CmpOp::Lt), vec![r(p), r(i), imm(ALU_ITERS as u64)]);
    b.i(20, Some((p, false)), Opcode::Bra { uni: false }, vec![Operand::Label(top)]);
    b.i(21, None, Opcode::Mov(Ty::U32), vec![r(i), Operand::Special(SpecialReg::Tid(0))]);
    b.i(22, None, arith(ArithOp::Mul, Ty::U32, Some(MulMode::Wide)), vec![r(off), r(i), imm(4)]);
    b.i(23, None, arith(ArithOp::Add, Ty::U64, None), vec![r(rd), r(rd), r(off)]);
    b.i(24, None, Opcode::St { space: StateSpace::Global, ty: Ty::U32, vec: 1 }, vec![at(rd), r(y)]);
    b.i(25, None, Opcode::Ret, vec![]);
    b.module(vec![], "bench/alu_loop.ptx")
}

fn check_alu(res: &RunResult) -> Result<(), String> {
    let got = res.bits("out").ok_or("no out buffer")?;
    for (t, &g) in got.iter().enumerate() {
        let mut x = t as u32;
        let mut y = 0u32;
        for _ in 0..ALU_ITERS {
            x = x.wrapping_mul(1664525).wrapping_add(1013904223);
            y = (x >> 7) ^ x;
        }
        if g != y as u64 {
            return Err(format!("alu_loop: thread {t} computed {g:#x}, expected {y:#x}"));
        }
    }
    Ok(())
}

fn build_reduce() -> Module {
    let mut b = B::new("block_reduce", REDUCE_PTX);
    let out = b.param_u64("out");
    let (p, lead) = (b.reg(Ty::Pred), b.reg(Ty::Pred));
    let (v, s, t, w, lane, rr, acc) = (
        b.reg(Ty::B32),
        b.reg(Ty::B32),
        b.reg(Ty::B32),
        b.reg(Ty::B32),
        b.reg(Ty::B32),
        b.reg(Ty::B32),
        b.reg(Ty::B32),
    );
    let (rd, sa) = (b.reg(Ty::B64), b.reg(Ty::B64));
    let partial = VarId(0);
    b.i(
        10,
        None,
        Opcode::Ld { space: StateSpace::Param, ty: Ty::U64, vec: 1 },
        vec![r(rd), Operand::Addr { base: AddrBase::Param(out), offset: 0 }],
    );
    b.i(11, None, Opcode::Mov(Ty::U32), vec![r(v), Operand::Special(SpecialReg::Tid(0))]);
    b.i(12, None, Opcode::Mov(Ty::U32), vec![r(lane), Operand::Special(SpecialReg::Laneid)]);
    b.i(13, None, Opcode::Mov(Ty::U32), vec![r(w), Operand::Special(SpecialReg::Warpid)]);
    b.i(14, None, Opcode::Mov(Ty::U32), vec![r(acc), imm(0)]);
    b.i(15, None, Opcode::Mov(Ty::U32), vec![r(rr), imm(0)]);
    let top = b.here();
    b.i(
        17,
        None,
        Opcode::Redux { op: ReduxOp::Add, ty: DataType::U32, abs: false, nan: false },
        vec![r(s), r(v), imm(0xffff_ffff)],
    );
    b.i(18, None, Opcode::Shfl { mode: ShflMode::Bfly }, vec![r(t), r(s), imm(16), imm(31), imm(0xffff_ffff)]);
    b.i(19, None, setp(CmpOp::Eq), vec![r(lead), r(lane), imm(0)]);
    b.i(20, None, arith(ArithOp::Mul, Ty::U32, Some(MulMode::Wide)), vec![r(sa), r(w), imm(4)]);
    b.i(
        20,
        Some((lead, false)),
        Opcode::St { space: StateSpace::Shared, ty: Ty::U32, vec: 1 },
        vec![Operand::Addr { base: AddrBase::Reg(sa), offset: 0 }, r(t)],
    );
    b.i(21, None, Opcode::Bar { kind: BarKind::Sync, aligned: true }, vec![imm(0)]);
    b.i(22, None, arith(ArithOp::Mul, Ty::U32, Some(MulMode::Wide)), vec![r(sa), r(lane), imm(4)]);
    b.i(
        22,
        None,
        Opcode::Ld { space: StateSpace::Shared, ty: Ty::U32, vec: 1 },
        vec![r(t), Operand::Addr { base: AddrBase::Reg(sa), offset: 0 }],
    );
    b.i(
        23,
        None,
        Opcode::Redux { op: ReduxOp::Add, ty: DataType::U32, abs: false, nan: false },
        vec![r(t), r(t), imm(0xffff_ffff)],
    );
    b.i(24, None, arith(ArithOp::Add, Ty::U32, None), vec![r(acc), r(acc), r(t)]);
    b.i(25, None, Opcode::Bar { kind: BarKind::Sync, aligned: true }, vec![imm(0)]);
    b.i(26, None, arith(ArithOp::Add, Ty::U32, None), vec![r(rr), r(rr), imm(1)]);
    b.i(27, None, setp(CmpOp::Lt), vec![r(p), r(rr), imm(REDUCE_ROUNDS as u64)]);
    b.i(28, Some((p, false)), Opcode::Bra { uni: false }, vec![Operand::Label(top)]);
    b.i(29, None, Opcode::Mov(Ty::U32), vec![r(t), Operand::Special(SpecialReg::Tid(0))]);
    b.i(30, None, setp(CmpOp::Eq), vec![r(p), r(t), imm(0)]);
    b.i(31, Some((p, false)), Opcode::St { space: StateSpace::Global, ty: Ty::U32, vec: 1 }, vec![at(rd), r(acc)]);
    b.i(32, None, Opcode::Ret, vec![]);
    let _ = partial;
    // `partial` is the only shared variable: it sits at shared offset 0, so addresses are lane*4
    b.module(vec![shared_var("partial", Ty::B32, 128)], "bench/block_reduce.ptx")
}

fn check_reduce(res: &RunResult) -> Result<(), String> {
    let got = res.bits("out").ok_or("no out buffer")?;
    let threads = 1024u64;
    // every round: each warp's partial (its sum; the bfly with itself in a full warp gives the
    // same sum) is stored, then summed by each warp: the block sum. acc = rounds * block sum.
    let want = (REDUCE_ROUNDS as u64 * (threads * (threads - 1) / 2)) & 0xffff_ffff;
    if got[0] != want {
        return Err(format!("block_reduce: got {}, expected {want}", got[0]));
    }
    Ok(())
}

/// Producer/consumer through a one-slot shared buffer guarded by two mbarriers.
fn build_pipeline() -> Module {
    let mut b = B::new("pipeline", PIPE_PTX);
    let out = b.param_u64("out");
    let (p, done, ok) = (b.reg(Ty::Pred), b.reg(Ty::Pred), b.reg(Ty::Pred));
    let (w, i, v, sum, par, lane) =
        (b.reg(Ty::B32), b.reg(Ty::B32), b.reg(Ty::B32), b.reg(Ty::B32), b.reg(Ty::B32), b.reg(Ty::B32));
    let (rd, tok, sa) = (b.reg(Ty::B64), b.reg(Ty::B64), b.reg(Ty::B64));
    let (full, empty) = (VarId(0), VarId(1)); // VarId(2) is `slot`, at shared offset 16
    let var = |v: VarId| Operand::Addr { base: AddrBase::Var(v), offset: 0 };
    let sp = StateSpace::Shared;
    b.i(10, None, Opcode::Mov(Ty::U32), vec![r(w), Operand::Special(SpecialReg::Warpid)]);
    b.i(10, None, Opcode::Mov(Ty::U32), vec![r(lane), Operand::Special(SpecialReg::Laneid)]);
    b.i(10, None, arith(ArithOp::Mul, Ty::U32, Some(MulMode::Wide)), vec![r(sa), r(lane), imm(4)]);
    b.i(10, None, arith(ArithOp::Add, Ty::U64, None), vec![r(sa), r(sa), imm(16)]); // slot is at offset 16
    b.i(11, None, setp(CmpOp::Ne), vec![r(p), r(w), imm(0)]);
    // one thread initializes both barriers (a second init of a live mbarrier is UB)
    b.i(12, None, setp(CmpOp::Ne), vec![r(done), Operand::Special(SpecialReg::Tid(0)), imm(0)]);
    b.i(13, Some((done, true)), Opcode::MbInit { space: sp }, vec![var(full), imm(32)]);
    b.i(14, Some((done, true)), Opcode::MbInit { space: sp }, vec![var(empty), imm(32)]);
    b.i(16, None, Opcode::Bar { kind: BarKind::Sync, aligned: true }, vec![imm(0)]);
    b.i(17, None, Opcode::Mov(Ty::U32), vec![r(i), imm(0)]);
    b.i(17, None, Opcode::Mov(Ty::U32), vec![r(sum), imm(0)]);
    b.i(17, None, Opcode::Mov(Ty::U32), vec![r(par), imm(0)]);
    let bra_consumer = b.here();
    b.i(18, Some((p, false)), Opcode::Bra { uni: false }, vec![Operand::Label(0)]);
    // producer: wait until `empty` completed phase (par ^ 1) — round 0 passes since parity 1
    // refers to the phase before the first
    let prod = b.here();
    b.i(19, None, Opcode::Logic { op: LogicOp::Xor, ty: Ty::B32 }, vec![r(v), r(par), imm(1)]);
    let pwait = b.here();
    b.i(
        19,
        None,
        Opcode::MbTestWait { try_wait: true, parity: true, space: sp, sem: Sem::Acquire, scope: Scope::Cta },
        vec![r(ok), var(empty), r(v)],
    );
    b.i(19, Some((ok, true)), Opcode::Bra { uni: false }, vec![Operand::Label(pwait)]);
    b.i(19, None, arith(ArithOp::Add, Ty::U32, None), vec![r(v), r(i), r(lane)]);
    b.i(19, None, Opcode::St { space: sp, ty: Ty::U32, vec: 1 }, vec![at(sa), r(v)]);
    b.i(
        19,
        None,
        Opcode::MbArrive {
            drop: false,
            expect_tx: false,
            no_complete: false,
            space: sp,
            sem: Sem::Release,
            scope: Scope::Cta,
        },
        vec![r(tok), var(full)],
    );
    b.i(19, None, Opcode::Logic { op: LogicOp::Xor, ty: Ty::B32 }, vec![r(par), r(par), imm(1)]);
    b.i(19, None, arith(ArithOp::Add, Ty::U32, None), vec![r(i), r(i), imm(1)]);
    b.i(19, None, setp(CmpOp::Lt), vec![r(done), r(i), imm(PIPE_ITERS as u64)]);
    b.i(19, Some((done, false)), Opcode::Bra { uni: false }, vec![Operand::Label(prod)]);
    b.i(19, None, Opcode::Exit, vec![]);
    // consumer: wait `full` phase par, read, arrive `empty`
    let cons = b.here();
    b.i(
        20,
        None,
        Opcode::MbTestWait { try_wait: true, parity: true, space: sp, sem: Sem::Acquire, scope: Scope::Cta },
        vec![r(ok), var(full), r(par)],
    );
    b.i(20, Some((ok, true)), Opcode::Bra { uni: false }, vec![Operand::Label(cons)]);
    b.i(20, None, Opcode::Ld { space: sp, ty: Ty::U32, vec: 1 }, vec![r(v), at(sa)]);
    b.i(20, None, arith(ArithOp::Add, Ty::U32, None), vec![r(sum), r(sum), r(v)]);
    b.i(
        20,
        None,
        Opcode::MbArrive {
            drop: false,
            expect_tx: false,
            no_complete: false,
            space: sp,
            sem: Sem::Release,
            scope: Scope::Cta,
        },
        vec![r(tok), var(empty)],
    );
    b.i(20, None, Opcode::Logic { op: LogicOp::Xor, ty: Ty::B32 }, vec![r(par), r(par), imm(1)]);
    b.i(20, None, arith(ArithOp::Add, Ty::U32, None), vec![r(i), r(i), imm(1)]);
    b.i(20, None, setp(CmpOp::Lt), vec![r(done), r(i), imm(PIPE_ITERS as u64)]);
    b.i(20, Some((done, false)), Opcode::Bra { uni: false }, vec![Operand::Label(cons)]);
    b.i(
        20,
        None,
        Opcode::Ld { space: StateSpace::Param, ty: Ty::U64, vec: 1 },
        vec![r(rd), Operand::Addr { base: AddrBase::Param(out), offset: 0 }],
    );
    b.i(20, None, arith(ArithOp::Mul, Ty::U32, Some(MulMode::Wide)), vec![r(tok), r(lane), imm(4)]);
    b.i(20, None, arith(ArithOp::Add, Ty::U64, None), vec![r(rd), r(rd), r(tok)]);
    b.i(20, None, Opcode::St { space: StateSpace::Global, ty: Ty::U32, vec: 1 }, vec![at(rd), r(sum)]);
    b.i(20, None, Opcode::Exit, vec![]);
    b.f.body[bra_consumer as usize].ops[0] = Operand::Label(cons);
    b.module(
        vec![shared_var("full", Ty::B64, 8), shared_var("empty", Ty::B64, 8), shared_var("slot", Ty::B32, 128)],
        "bench/pipeline.ptx",
    )
}

fn check_pipeline(res: &RunResult) -> Result<(), String> {
    let got = res.bits("out").ok_or("no out buffer")?;
    let n = PIPE_ITERS as u64;
    for (lane, &g) in got.iter().enumerate() {
        let want = (n * (n - 1) / 2 + n * lane as u64) & 0xffff_ffff;
        if g != want {
            return Err(format!("pipeline: lane {lane} summed {g}, expected {want}"));
        }
    }
    Ok(())
}

pub fn kernels() -> Vec<BenchKernel> {
    vec![
        BenchKernel {
            name: "alu_loop",
            ptx: ALU_PTX,
            launch: "block: [256, 1, 1]\ngrid: [8, 1, 1]\nbuffers:\n  out: {type: u32, len: 256}\nparams: [out]\n",
            build: build_alu,
            check: check_alu,
        },
        BenchKernel {
            name: "block_reduce",
            ptx: REDUCE_PTX,
            launch: "block: [1024, 1, 1]\nbuffers:\n  out: {type: u32, len: 1}\nparams: [out]\n",
            build: build_reduce,
            check: check_reduce,
        },
        BenchKernel {
            name: "mbarrier_pipeline",
            ptx: PIPE_PTX,
            launch: "block: [64, 1, 1]\nbuffers:\n  out: {type: u32, len: 32}\nparams: [out]\n",
            build: build_pipeline,
            check: check_pipeline,
        },
    ]
}

/// One measurement: thread-instructions, seconds, and the rate.
pub struct BenchFigure {
    pub name: &'static str,
    pub thread_instructions: u64,
    pub seconds: f64,
    pub rate: f64,
}

/// Run one kernel on the golden units, check its result, and time it (best of `reps`);
/// `timed`: on the SM timing model with the golden units' timing back end.
pub fn measure(k: &BenchKernel, config: &Config, reps: u32, timed: bool) -> Result<BenchFigure, String> {
    let module = crate::ptx::parse(k.ptx, &format!("bench/{}.ptx", k.name)).map_err(|e| e.to_string())?;
    let mut launch = Launch::from_yaml(k.launch).map_err(|e: ExecError| e.to_string())?;
    if k.name == "alu_loop" {
        // 256 threads per CTA, 8 CTAs: the ALU loop is per thread, so the buffer is shared by
        // CTAs (each writes the same values)
        launch.grid = [8, 1, 1];
    }
    let mut best: Option<BenchFigure> = None;
    for _ in 0..reps.max(1) {
        let mut golden = GoldenUnits::new(config);
        let mut timing = crate::timing::TimedUnits::new(config);
        let unit: &mut dyn crate::units::SyncUnit = if timed { &mut timing } else { &mut golden };
        let t0 = std::time::Instant::now();
        let opts = RunOptions { timing: timed, ..RunOptions::default() };
        let res = run(&module, &launch, config, unit, opts).map_err(|e| format!("{}: {e}", k.name))?;
        let secs = t0.elapsed().as_secs_f64();
        (k.check)(&res)?;
        let n = res.stats.thread_instructions;
        let fig = BenchFigure { name: k.name, thread_instructions: n, seconds: secs, rate: n as f64 / secs };
        if best.as_ref().map(|b| fig.rate > b.rate).unwrap_or(true) {
            best = Some(fig);
        }
    }
    Ok(best.expect("at least one rep"))
}
