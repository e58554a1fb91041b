//! Launch files (errors name the field), params of several types, generic addressing, output JSON.

mod exec_support;
use exec_support::*;
use smsync_sim::exec::{ExecError, Launch};
use smsync_sim::memory::GLOBAL_BASE;
use smsync_sim::ptx::ir::*;

fn field_of(y: &str) -> (String, String) {
    match Launch::from_yaml(y).unwrap_err() {
        ExecError::Launch { field, message } => (field, message),
        other => panic!("expected a launch error, got {other}"),
    }
}

#[test]
fn launch_errors_name_the_field() {
    assert_eq!(field_of("grid: [1,1,1]\n").0, "block");
    let (f, m) = field_of("block: [32]\nbuffers:\n  a: {type: u33, len: 2}\n");
    assert_eq!(f, "buffers.a.type");
    assert!(m.contains("u33") && m.contains("f16"), "{m}");
    let (f, m) = field_of("block: [32]\nbuffers:\n  a: {type: u8, data: [1, 256]}\n");
    assert_eq!(f, "buffers.a.data[1]");
    assert!(m.contains("256") && m.contains("0..=255"), "{m}");
    let (f, _) = field_of("block: [32]\nparams: [nothere]\n");
    assert_eq!(f, "params[0]");
    let (f, _) = field_of("block: [32]\nparams: [{s33: 1}]\n");
    assert_eq!(f, "params[0].s33");
    let (f, _) = field_of("block: [0, 1, 1]\n");
    assert_eq!(f, "block[0]");
    let (f, _) = field_of("block: [32]\ncolour: red\n");
    assert_eq!(f, "colour");
    let (f, _) = field_of("block: [32]\nbuffers:\n  a: {type: f32}\n");
    assert_eq!(f, "buffers.a");
}

#[test]
fn buffers_keep_file_order_and_floats_round_trip() {
    let l = Launch::from_yaml(
        "block: [1]\nbuffers:\n  zeta: {type: f32, data: [1.5, nan, -inf]}\n  alpha: {type: s8, data: [-1, 127]}\n",
    )
    .unwrap();
    assert_eq!(l.buffers[0].name, "zeta");
    assert_eq!(l.buffers[1].name, "alpha");
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("nop", true);
    f.i("ret;", Opcode::Ret, vec![]);
    f.done();
    let res = run(&mb.finish(), &l).unwrap();
    let json = res.to_json(false);
    assert!(json.starts_with("{\"buffers\": {\"zeta\": [1.5,\"nan\",\"-inf\"], \"alpha\": [-1,127]}"), "{json}");
    assert!(json.contains("\"stats\""));
}

#[test]
fn kernel_param_count_and_size_are_checked() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("k", true);
    f.param("a", Ty::U64);
    f.param("n", Ty::U32);
    f.i("ret;", Opcode::Ret, vec![]);
    f.done();
    let m = mb.finish();
    let err = run(&m, &launch_yaml("block: [1]\nparams: [{u32: 1}]\n")).unwrap_err().to_string();
    assert!(err.contains("`params`") && err.contains("takes 2 parameters"), "{err}");
    let err = run(&m, &launch_yaml("block: [1]\nbuffers:\n  b: {type: u32, len: 1}\nparams: [b, {u64: 1}]\n"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("params[1]") && err.contains("4 bytes"), "{err}");
    let err = run(&m, &launch_yaml("block: [2048]\n")).unwrap_err().to_string();
    assert!(err.contains("`block`") && err.contains("max_warps_per_cta"), "{err}");
}

/// Scalar params of several types, a module .global with an initializer, generic ld/st to
/// global, shared (via cvta) and local memory.
#[test]
fn params_globals_and_generic_addressing() {
    let mut mb = ModuleBuilder::new();
    let g = mb.var("table", StateSpace::Global, Ty::U32, 8, vec![7, 0, 0, 0, 9, 0, 0, 0]);
    let sh = mb.var("sh", StateSpace::Shared, Ty::U32, 128, vec![]);
    let lo = mb.var("loc", StateSpace::Local, Ty::U32, 16, vec![]);
    let mut f = mb.func("gen", true);
    let out = f.param("out", Ty::U64);
    let neg = f.param("neg", Ty::S32);
    let half = f.param("h", Ty::F16);
    let (tid, addr) = prologue_out(&mut f, out);
    let a = f.reg("%a", Ty::S32);
    let hb = f.reg("%hb", Ty::B16);
    let hf = f.reg("%hf", Ty::F32);
    let gp = f.reg("%gp", Ty::U64);
    let v = f.reg("%v", Ty::U32);
    let acc = f.reg("%acc", Ty::U32);
    f.i("ld.param.s32 %a, [neg];", ld(StateSpace::Param, Ty::S32), vec![r(a), at_param(neg)]);
    f.i("ld.param.b16 %hb, [h];", ld(StateSpace::Param, Ty::B16), vec![r(hb), at_param(half)]);
    f.i(
        "cvt.f32.f16 %hf, %hb;",
        Opcode::Cvt { dst: Ty::F32, src: Ty::F16, rnd: None, sat: false, ftz: false },
        vec![r(hf), r(hb)],
    );
    f.i(
        "cvt.rzi.u32.f32 %acc, %hf;",
        Opcode::Cvt { dst: Ty::U32, src: Ty::F32, rnd: Some(Rounding::Rzi), sat: false, ftz: false },
        vec![r(acc), r(hf)],
    );
    f.i("add.s32 %acc, %acc, %a;", arith(ArithOp::Add, Ty::S32), vec![r(acc), r(acc), r(a)]);
    // generic global: table[1] via cvta.global of its address
    f.i("mov.u64 %gp, table;", Opcode::Mov(Ty::U64), vec![r(gp), Operand::VarAddr { var: g, offset: 4 }]);
    f.i(
        "cvta.global.u64 %gp, %gp;",
        Opcode::Cvta { space: StateSpace::Global, to_generic: true, ty: Ty::U64 },
        vec![r(gp), r(gp)],
    );
    f.i("ld.u32 %v, [%gp];", ld(StateSpace::Generic, Ty::U32), vec![r(v), at(gp, 0)]);
    f.i("add.u32 %acc, %acc, %v;", arith(ArithOp::Add, Ty::U32), vec![r(acc), r(acc), r(v)]);
    // generic shared: st through generic, ld through .shared
    f.i("mov.u64 %gp, sh;", Opcode::Mov(Ty::U64), vec![r(gp), Operand::VarAddr { var: sh, offset: 0 }]);
    f.i(
        "cvta.shared.u64 %gp, %gp;",
        Opcode::Cvta { space: StateSpace::Shared, to_generic: true, ty: Ty::U64 },
        vec![r(gp), r(gp)],
    );
    f.i("st.u32 [%gp], 100;", st(StateSpace::Generic, Ty::U32), vec![at(gp, 0), imm(100)]);
    f.i("ld.shared.u32 %v, [sh];", ld(StateSpace::Shared, Ty::U32), vec![r(v), at_var(sh, 0)]);
    f.i("add.u32 %acc, %acc, %v;", arith(ArithOp::Add, Ty::U32), vec![r(acc), r(acc), r(v)]);
    // generic local: per-thread storage of tid
    f.i("mov.u64 %gp, loc;", Opcode::Mov(Ty::U64), vec![r(gp), Operand::VarAddr { var: lo, offset: 8 }]);
    f.i(
        "cvta.local.u64 %gp, %gp;",
        Opcode::Cvta { space: StateSpace::Local, to_generic: true, ty: Ty::U64 },
        vec![r(gp), r(gp)],
    );
    f.i("st.u32 [%gp], %tid;", st(StateSpace::Generic, Ty::U32), vec![at(gp, 0), r(tid)]);
    f.i("ld.local.u32 %v, [loc+8];", ld(StateSpace::Local, Ty::U32), vec![r(v), at_var(lo, 8)]);
    f.i("add.u32 %acc, %acc, %v;", arith(ArithOp::Add, Ty::U32), vec![r(acc), r(acc), r(v)]);
    f.i("st.global.u32 [%addr], %acc;", st(StateSpace::Global, Ty::U32), vec![at(addr, 0), r(acc)]);
    // an address in no window
    f.i(
        "ld.u32 %v, [16];",
        ld(StateSpace::Generic, Ty::U32),
        vec![r(v), Operand::Addr { base: AddrBase::Abs, offset: 16 }],
    );
    f.i("ret;", Opcode::Ret, vec![]);
    f.done();
    let m = mb.finish();
    let l =
        launch_yaml("block: [8, 1, 1]\nbuffers:\n  out: {type: u32, len: 8}\nparams: [out, {s32: -3}, {f16: 6.5}]\n");
    let err = run(&m, &l).unwrap_err().to_string();
    assert!(err.contains("generic address 0x10 is in no memory window") && err.contains("ld.u32 %v, [16];"), "{err}");

    // without the bad load, the values: 6 + (-3) + 9 + 100 + tid
    let mut m2 = m.clone();
    let body = &mut m2.funcs[0].body;
    let n = body.len();
    body.remove(n - 2);
    let res = run(&m2, &l).unwrap();
    let got = res.bits("out").unwrap();
    for t in 0..8u64 {
        assert_eq!(got[t as usize], 112 + t, "thread {t}");
    }
    // 32 bytes of buffer + the 8-byte .global, rounded up to 256
    assert_eq!(res.stats.global_bytes, 256);
    let _ = GLOBAL_BASE;
}
