//! A tiny test-only builder of `ir::Module` values, so the executor can be tested without the
//! PTX parser. Every instruction carries a pseudo-PTX source line so that error reports can be
//! checked for the instruction text.
#![allow(dead_code)]

use smsync_sim::config::Config;
use smsync_sim::exec::{self, ExecError, Launch, RunOptions, RunResult};
use smsync_sim::ptx::ir::*;
use smsync_sim::units::GoldenUnits;

pub struct ModuleBuilder {
    pub m: Module,
}

pub struct FuncBuilder<'a> {
    mb: &'a mut ModuleBuilder,
    f: Function,
}

impl ModuleBuilder {
    pub fn new() -> ModuleBuilder {
        ModuleBuilder {
            m: Module {
                file: "test.ptx".into(),
                source: vec![],
                version: (8, 0),
                target_sm: 90,
                target: "sm_90".into(),
                address_size: 64,
                vars: vec![],
                funcs: vec![],
            },
        }
    }
    pub fn var(&mut self, name: &str, space: StateSpace, ty: Ty, size: u32, init: Vec<u8>) -> VarId {
        self.m.vars.push(VarInfo {
            name: name.into(),
            space,
            ty,
            align: ty.bytes(),
            size,
            extern_dynamic: false,
            init,
            offset: 0,
        });
        VarId(self.m.vars.len() as u32 - 1)
    }
    pub fn extern_shared(&mut self, name: &str) -> VarId {
        self.m.vars.push(VarInfo {
            name: name.into(),
            space: StateSpace::Shared,
            ty: Ty::B8,
            align: 16,
            size: 0,
            extern_dynamic: true,
            init: vec![],
            offset: 0,
        });
        VarId(self.m.vars.len() as u32 - 1)
    }
    /// Reserve a function id (for calls to a function defined later).
    pub fn next_func_id(&self) -> FuncId {
        FuncId(self.m.funcs.len() as u32)
    }
    pub fn func(&mut self, name: &str, is_entry: bool) -> FuncBuilder<'_> {
        let line = self.m.source.len() as u32 + 1;
        self.m.source.push(format!(".{} {name}", if is_entry { "entry" } else { "func" }));
        FuncBuilder {
            mb: self,
            f: Function {
                name: name.into(),
                is_entry,
                params: vec![],
                rets: vec![],
                regs: vec![],
                body: vec![],
                locals: vec![],
                loc: Loc { line, col: 1 },
            },
        }
    }
    pub fn finish(self) -> Module {
        self.m
    }
}

impl<'a> FuncBuilder<'a> {
    pub fn reg(&mut self, name: &str, ty: Ty) -> RegId {
        self.f.regs.push(RegInfo { name: name.into(), ty });
        RegId(self.f.regs.len() as u32 - 1)
    }
    pub fn param(&mut self, name: &str, ty: Ty) -> ParamId {
        let off = self.f.params.len() as u32 * 8;
        self.f.params.push(ParamInfo {
            name: name.into(),
            ty,
            size: ty.bytes(),
            align: ty.bytes(),
            offset: off,
            reg: None,
        });
        ParamId(self.f.params.len() as u32 - 1)
    }
    /// A return value: its ParamId follows the parameters.
    pub fn ret_param(&mut self, name: &str, ty: Ty) -> ParamId {
        self.f.rets.push(ParamInfo {
            name: name.into(),
            ty,
            size: ty.bytes(),
            align: ty.bytes(),
            offset: 0,
            reg: None,
        });
        ParamId((self.f.params.len() + self.f.rets.len()) as u32 - 1)
    }
    /// The index the next instruction will get (a label target).
    pub fn here(&self) -> u32 {
        self.f.body.len() as u32
    }
    pub fn i(&mut self, text: &str, op: Opcode, ops: Vec<Operand>) -> &mut Self {
        self.gi(text, None, op, ops)
    }
    pub fn gi(&mut self, text: &str, guard: Option<Guard>, op: Opcode, ops: Vec<Operand>) -> &mut Self {
        let line = self.mb.m.source.len() as u32 + 1;
        self.mb.m.source.push(format!("    {text}"));
        self.f.body.push(Instr { guard, op, ops, loc: Loc { line, col: 5 } });
        self
    }
    /// Patch the label operand of the branch at `at` to `target`.
    pub fn patch(&mut self, at: u32, target: u32) {
        for o in self.f.body[at as usize].ops.iter_mut() {
            if let Operand::Label(t) = o {
                *t = target;
            }
        }
    }
    pub fn done(self) -> FuncId {
        self.mb.m.funcs.push(self.f);
        FuncId(self.mb.m.funcs.len() as u32 - 1)
    }
}

// ---- operand and opcode shorthands ----

pub fn r(id: RegId) -> Operand {
    Operand::Reg(id)
}
pub fn imm(v: u64) -> Operand {
    Operand::Imm(v)
}
pub fn sreg(s: SpecialReg) -> Operand {
    Operand::Special(s)
}
pub fn at(base: RegId, offset: i64) -> Operand {
    Operand::Addr { base: AddrBase::Reg(base), offset }
}
pub fn at_param(p: ParamId) -> Operand {
    Operand::Addr { base: AddrBase::Param(p), offset: 0 }
}
pub fn at_var(v: VarId, offset: i64) -> Operand {
    Operand::Addr { base: AddrBase::Var(v), offset }
}
pub fn label(t: u32) -> Operand {
    Operand::Label(t)
}
pub fn guard(p: RegId) -> Option<Guard> {
    Some(Guard { pred: p, negated: false })
}
pub fn nguard(p: RegId) -> Option<Guard> {
    Some(Guard { pred: p, negated: true })
}
pub fn arith(op: ArithOp, ty: Ty) -> Opcode {
    Opcode::Arith { op, ty, mode: None, rnd: None, sat: false, ftz: false }
}
pub fn ld(space: StateSpace, ty: Ty) -> Opcode {
    Opcode::Ld { space, ty, vec: 1 }
}
pub fn st(space: StateSpace, ty: Ty) -> Opcode {
    Opcode::St { space, ty, vec: 1 }
}
pub fn setp(cmp: CmpOp, ty: Ty) -> Opcode {
    Opcode::Setp { cmp, ty, combine: None, ftz: false }
}

/// Emit the common prologue: %rd_out = param 0 (a u64 buffer address), %tid = tid.x,
/// %addr = %rd_out + 4 * tid. Returns (tid, addr).
pub fn prologue_out(f: &mut FuncBuilder, out: ParamId) -> (RegId, RegId) {
    let base = f.reg("%rd_out", Ty::U64);
    let tid = f.reg("%tid", Ty::U32);
    let off = f.reg("%off", Ty::U64);
    let addr = f.reg("%addr", Ty::U64);
    f.i("ld.param.u64 %rd_out, [out];", ld(StateSpace::Param, Ty::U64), vec![r(base), at_param(out)]);
    f.i("mov.u32 %tid, %tid.x;", Opcode::Mov(Ty::U32), vec![r(tid), sreg(SpecialReg::Tid(0))]);
    f.i(
        "mul.wide.u32 %off, %tid, 4;",
        Opcode::Arith { op: ArithOp::Mul, ty: Ty::U32, mode: Some(MulMode::Wide), rnd: None, sat: false, ftz: false },
        vec![r(off), r(tid), imm(4)],
    );
    f.i("add.u64 %addr, %rd_out, %off;", arith(ArithOp::Add, Ty::U64), vec![r(addr), r(base), r(off)]);
    (tid, addr)
}

pub fn launch_yaml(y: &str) -> Launch {
    Launch::from_yaml(y).expect("launch parses")
}

pub fn run_with(m: &Module, launch: &Launch, cfg: &Config, opts: RunOptions) -> Result<RunResult, ExecError> {
    let mut unit = GoldenUnits::new(cfg);
    exec::run(m, launch, cfg, &mut unit, opts)
}

pub fn run(m: &Module, launch: &Launch) -> Result<RunResult, ExecError> {
    run_with(m, launch, &Config::default(), RunOptions::default())
}
