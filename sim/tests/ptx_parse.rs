//! Unit tests per construct of the PTX front end, the error format, and a bounded random-input
//! robustness run (no panic, every error positioned inside the input).

use smsync_sim::encoding::{AtomOp, DataType};
use smsync_sim::ptx::{self, ir::*};
use smsync_testkit::Rng;

const HDR: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n";

fn parse(src: &str) -> Module {
    ptx::parse(&format!("{HDR}{src}"), "u.ptx").unwrap_or_else(|e| panic!("{e}"))
}
fn kernel(body: &str) -> Function {
    parse(&format!(".visible .entry k(.param .u64 k_p0, .param .align 8 .b8 k_p1[16])\n{{\n{body}\n}}")).funcs.remove(0)
}
fn err(src: &str) -> ptx::PtxError {
    ptx::parse(&format!("{HDR}{src}"), "u.ptx").expect_err("must be rejected")
}

#[test]
fn header_and_target() {
    let m = parse(".entry k() { ret; }");
    assert_eq!(m.version, (8, 0));
    assert_eq!(m.target_sm, 90);
    assert_eq!(m.target, "sm_90a");
    assert_eq!(m.address_size, 64);
}

#[test]
fn error_display_has_position_source_and_caret() {
    let e = err(".entry k() {\n\tatom.global.addd.u32 %r1, [%rd1], 1;\n}");
    assert_eq!((e.loc.line, e.loc.col), (5, 13));
    assert_eq!(e.message, "unknown modifier `.addd` for `atom`");
    let shown = e.to_string();
    assert_eq!(
        shown,
        "u.ptx:5:13: unknown modifier `.addd` for `atom`\n\tatom.global.addd.u32 %r1, [%rd1], 1;\n\t           ^"
    );
}

#[test]
fn unsupported_and_unknown_instructions() {
    let e = err(".entry k() {\n  wgmma.fence.sync.aligned;\n}");
    assert_eq!(e.message, "instruction `wgmma` is not supported by smsync");
    assert_eq!((e.loc.line, e.loc.col), (5, 3));
    let e = err(".entry k() {\n  frobnicate.u32 %r1;\n}");
    assert!(e.message.contains("unknown instruction `frobnicate`"));
}

#[test]
fn params_regs_and_ranges() {
    let f = kernel(".reg .b32 %r<3>, %x;\n.reg .pred %p<2>;\n.reg .b64 %rd1;\nld.param.u64 %rd1, [k_p0];");
    assert!(f.is_entry);
    assert_eq!(f.params.len(), 2);
    assert_eq!((f.params[1].size, f.params[1].align, f.params[1].offset), (16, 8, 8));
    let names: Vec<&str> = f.regs.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["%r0", "%r1", "%r2", "%x", "%p0", "%p1", "%rd1"]);
    // %rd1 is undeclared
    let e = err(".entry k(.param .u64 a) { ld.param.u64 %rd1, [a]; }");
    assert!(e.message.contains("`%rd1` is not a declared register"), "{e}");
}

#[test]
fn func_with_return_params_and_call() {
    let m = parse(
        ".func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %r<2>;\nld.param.b32 %r0, [a];\nst.param.b32 [r], %r0;\nret;\n}\n\
         .entry k() {\n.reg .b32 %r<2>;\n{\n.param .b32 p0;\nst.param.b32 [p0], 5;\n.param .b32 rv;\ncall.uni (rv), f, (p0);\nld.param.b32 %r1, [rv];\n}\nret;\n}",
    );
    let f = &m.funcs[0];
    assert_eq!((f.params.len(), f.rets.len()), (1, 1));
    // the return parameter is addressed as Param(params.len() + 0)
    assert_eq!(f.body[1].ops[0], Operand::Addr { base: AddrBase::Param(ParamId(1)), offset: 0 });
    let k = &m.funcs[1];
    assert_eq!(k.locals.len(), 2);
    let call = &k.body[1];
    assert_eq!(call.op, Opcode::Call { func: FuncId(0), uni: true });
    assert_eq!(call.ops[0], Operand::Vector(vec![Operand::VarAddr { var: k.locals[1], offset: 0 }]));
    assert_eq!(call.ops[1], Operand::Vector(vec![Operand::VarAddr { var: k.locals[0], offset: 0 }]));
    assert_eq!(m.vars[k.locals[0].0 as usize].space, StateSpace::Param);
}

#[test]
fn variables_alignment_arrays_initializers_dynamic_shared() {
    let m = parse(
        ".global .align 4 .u32 g[2] = {1, 2};\n.const .f32 c = 1.5;\n.shared .align 16 .b8 s[1024];\n\
         .extern .shared .align 16 .b8 dyn[];\n.global .u64 h[] = {7, 8, 9};\n.entry k() { .local .align 8 .b8 l[32]; ret; }",
    );
    let g = &m.vars[0];
    assert_eq!((g.space, g.size, g.align, g.init.clone()), (StateSpace::Global, 8, 4, vec![1, 0, 0, 0, 2, 0, 0, 0]));
    assert_eq!(m.vars[1].init, 1.5f32.to_bits().to_le_bytes().to_vec());
    assert_eq!((m.vars[2].size, m.vars[2].align), (1024, 16));
    assert!(m.vars[3].extern_dynamic && m.vars[3].size == 0);
    assert_eq!(m.vars[4].size, 24);
    assert_eq!(m.vars[5].space, StateSpace::Local);
    assert_eq!(m.funcs[0].locals, vec![VarId(5)]);
}

#[test]
fn operands_addresses_vectors_sink_specials() {
    let f = kernel(
        ".reg .b32 %r<5>;\n.reg .b64 %rd<3>;\n.shared .b32 sm[8];\n\
         ld.global.nc.v2.u32 {%r1, %r2}, [%rd1+8];\nld.shared.u32 %r3, [sm+4];\nst.global.u32 [%rd1+-4], %r1;\n\
         ld.u32 %r1, [sm];\nmov.u32 %r4, %tid.y;\nmov.u64 %rd2, sm;\ncvta.shared.u64 %rd2, %rd2;\nmov.u32 %r0, %cluster_ctarank;\n\
         ld.global.u32 %r1, [0x100];\nmov.b32 %r1, %lanemask_lt;",
    );
    let ops = |i: usize| f.body[i].ops.clone();
    assert_eq!(f.body[0].op, Opcode::Ld { space: StateSpace::Global, ty: Ty::U32, vec: 2 });
    assert_eq!(ops(0)[0], Operand::Vector(vec![Operand::Reg(RegId(1)), Operand::Reg(RegId(2))]));
    assert_eq!(ops(0)[1], Operand::Addr { base: AddrBase::Reg(RegId(6)), offset: 8 });
    assert!(matches!(ops(1)[1], Operand::Addr { base: AddrBase::Var(_), offset: 4 }));
    assert_eq!(ops(2)[0], Operand::Addr { base: AddrBase::Reg(RegId(6)), offset: -4 });
    assert_eq!(f.body[3].op, Opcode::Ld { space: StateSpace::Generic, ty: Ty::U32, vec: 1 });
    assert_eq!(ops(4)[1], Operand::Special(SpecialReg::Tid(1)));
    assert!(matches!(ops(5)[1], Operand::VarAddr { offset: 0, .. }));
    assert_eq!(f.body[6].op, Opcode::Cvta { space: StateSpace::Shared, to_generic: true, ty: Ty::U64 });
    assert_eq!(ops(7)[1], Operand::Special(SpecialReg::ClusterCtarank));
    assert_eq!(ops(8)[1], Operand::Addr { base: AddrBase::Abs, offset: 0x100 });
    assert_eq!(ops(9)[1], Operand::Special(SpecialReg::LanemaskLt));
}

#[test]
fn integer_and_float_literals() {
    let f = kernel(
        ".reg .b32 %r<2>;\n.reg .f32 %f<2>;\n.reg .f64 %d<2>;\n.reg .s64 %s<2>;\n\
         mov.u32 %r1, 0x1F;\nmov.u32 %r1, 017;\nmov.u32 %r1, 0b101;\nmov.u32 %r1, 42U;\nmov.s32 %r1, -1;\n\
         mov.f32 %f1, 0f3F800000;\nmov.f32 %f1, 1.5;\nmov.f64 %d1, 0d4000000000000000;\nmov.f64 %d1, 0f3F800000;\nmov.s64 %s1, -2;",
    );
    let imm = |i: usize| f.body[i].ops[1].clone();
    assert_eq!(imm(0), Operand::Imm(31));
    assert_eq!(imm(1), Operand::Imm(15));
    assert_eq!(imm(2), Operand::Imm(5));
    assert_eq!(imm(3), Operand::Imm(42));
    assert_eq!(imm(4), Operand::Imm(0xFFFF_FFFF));
    assert_eq!(imm(5), Operand::Imm(0x3F80_0000));
    assert_eq!(imm(6), Operand::Imm(1.5f32.to_bits() as u64));
    assert_eq!(imm(7), Operand::Imm(2.0f64.to_bits()));
    assert_eq!(imm(8), Operand::Imm(1.0f64.to_bits()));
    assert_eq!(imm(9), Operand::Imm((-2i64) as u64));
    let e = err(".entry k() { .reg .b32 %r; mov.u32 %r, 1.5; }");
    assert!(e.message.contains("float literal used for integer type"), "{e}");
}

#[test]
fn guards_labels_and_scoped_blocks() {
    let f = kernel(
        ".reg .pred %p;\n.reg .b32 %r<2>;\n$L__BB0_1:\n@%p bra $L__BB0_2;\n@!%p bra.uni $L__BB0_1;\n\
         { .reg .b32 %r1; mov.u32 %r1, 1; }\nmov.u32 %r1, 2;\n$L__BB0_2:\nret;",
    );
    assert_eq!(f.body[0].guard, Some(Guard { pred: RegId(0), negated: false }));
    assert_eq!(f.body[0].ops[0], Operand::Label(4));
    assert_eq!(f.body[1].ops[0], Operand::Label(0));
    assert_eq!(f.body[1].op, Opcode::Bra { uni: true });
    // the inner %r1 shadows the outer one with its own RegId
    assert_eq!(f.body[2].ops[0], Operand::Reg(RegId(3)));
    assert_eq!(f.body[3].ops[0], Operand::Reg(RegId(2)));
    let e = err(".entry k() { bra nowhere; }");
    assert!(e.message.contains("unknown label `nowhere`"));
}

#[test]
fn comments_pragmas_debug_sections_and_perf_directives() {
    let m = parse(
        "/* block\n comment */ .file 1 \"a.cu\"\n.visible .entry k() .maxntid 128, 1, 1 .reqntid 128 .minnctapersm 2 .maxnreg 64\n\
         .reqnctapercluster 2, 1, 1 .explicitcluster .maxclusterrank 8\n{ // c\n.pragma \"nounroll\";\n.loc 1 5 3\nret;\n}\n\
         .section .debug_info { .b32 1 .b8 2, 3 $L__x: }",
    );
    assert_eq!(m.funcs[0].body.len(), 1);
}

#[test]
fn setp_selp_arith_and_conversions() {
    let f = kernel(
        ".reg .pred %p<3>;\n.reg .b32 %r<4>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<2>;\n\
         setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p0;\nselp.b32 %r1, 1, 0, %p1;\nmul.wide.u32 %rd1, %r1, 4;\n\
         mad.lo.s32 %r1, %r2, %r3, 7;\nfma.rn.ftz.f32 %f1, %f2, %f1, 0f00000000;\ncvt.rn.sat.f32.s32 %f1, %r1;\n\
         div.approx.f32 %f1, %f2, %f1;\nshl.b32 %r1, %r2, 3;\nbfe.u32 %r1, %r2, 8, 4;\nprmt.b32 %r1, %r2, %r3, 0x3210;\nset.gt.u32.s32 %r1, %r2, %r3;",
    );
    assert_eq!(f.body[0].op, Opcode::Setp { cmp: CmpOp::Lt, ty: Ty::S32, combine: Some(BoolOp::And), ftz: false });
    assert_eq!(f.body[0].ops[0], Operand::Vector(vec![Operand::Reg(RegId(1)), Operand::Reg(RegId(2))]));
    assert_eq!(f.body[0].ops[3], Operand::NotPred(RegId(0)));
    assert_eq!(
        f.body[2].op,
        Opcode::Arith { op: ArithOp::Mul, ty: Ty::U32, mode: Some(MulMode::Wide), rnd: None, sat: false, ftz: false }
    );
    assert!(matches!(f.body[4].op, Opcode::Arith { op: ArithOp::Fma, rnd: Some(Rounding::Rn), ftz: true, .. }));
    assert_eq!(
        f.body[5].op,
        Opcode::Cvt { dst: Ty::F32, src: Ty::S32, rnd: Some(Rounding::Rn), sat: true, ftz: false }
    );
    assert!(matches!(f.body[10].op, Opcode::Set { dst: Ty::U32, ty: Ty::S32, cmp: CmpOp::Gt, .. }));
    let e = err(".entry k() { .reg .b32 %r<2>; mul24.lo.u32 %r1, %r0, %r0; }");
    assert!(e.message.contains("`mul24` is not supported"), "{e}");
}

#[test]
fn modifiers_in_any_order() {
    let f = kernel(
        ".reg .b32 %r<3>;\n.reg .b64 %rd<2>;\natom.global.cas.b32 %r1, [%rd1], 1, 2;\natom.cas.global.b32 %r1, [%rd1], 1, 2;\n\
         atom.b32.global.cas %r1, [%rd1], 1, 2;\nred.relaxed.gpu.global.add.u32 [%rd1], 1;\nred.global.add.gpu.relaxed.u32 [%rd1], 1;",
    );
    assert_eq!(f.body[0].op, f.body[1].op);
    assert_eq!(f.body[1].op, f.body[2].op);
    assert_eq!(f.body[3].op, f.body[4].op);
    assert_eq!(
        f.body[0].op,
        Opcode::Atom {
            red: false,
            op: AtomOp::Cas,
            ty: DataType::B32,
            space: StateSpace::Global,
            vec: 1,
            sem: Sem::Relaxed,
            scope: Scope::Gpu,
            noftz: false,
            cache_hint: false
        }
    );
    assert_eq!(f.body[0].ops.len(), 4);
}

#[test]
fn sync_unit_instructions_decode() {
    let f = kernel(
        ".reg .pred %p<3>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.shared .align 8 .b64 mb;\n\
         bar.red.popc.u32 %r1, 0, !%p1;\nbarrier.cta.red.or.pred %p2, 1, 64, %p1;\nbar.warp.sync -1;\nbarrier.cluster.arrive.release.aligned;\n\
         barrier.cluster.wait;\nvote.sync.any.pred %p1, !%p2, 0xffffffff;\nmatch.all.sync.b64 %r1|%p1, %rd1, %r2;\nredux.sync.max.s32 %r1, %r2, -1;\n\
         elect.sync _|%p1, -1;\nshfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\nactivemask.b32 %r1;\n\
         mbarrier.init.shared::cta.b64 [mb], 32;\nmbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd1, [mb], 128;\n\
         mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [mb], %r1, 1000;\nmbarrier.pending_count.b64 %r1, %rd1;\n\
         cp.async.mbarrier.arrive.noinc.shared.b64 [mb];\ncp.async.wait_all;\ncp.async.bulk.wait_group 0;\n\
         fence.proxy.async.shared::cta;\nfence.mbarrier_init.release.cluster;\nmembar.gl;\nfence.acq_rel.gpu;\ngriddepcontrol.wait;\nnanosleep.u32 100;\n\
         red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], 1, [%r2];",
    );
    use Opcode::*;
    let o: Vec<&Opcode> = f.body.iter().map(|i| &i.op).collect();
    assert_eq!(*o[0], Bar { kind: BarKind::RedPopc, aligned: true });
    assert_eq!(*o[1], Bar { kind: BarKind::RedOr, aligned: false });
    assert_eq!(f.body[1].ops.len(), 4);
    assert_eq!(*o[2], BarWarpSync);
    assert_eq!(f.body[2].ops[0], Operand::Imm(0xFFFF_FFFF));
    assert!(matches!(*o[3], BarrierCluster { wait: false, .. }));
    assert!(matches!(*o[4], BarrierCluster { wait: true, .. }));
    assert!(matches!(o[6], Match { all: true, ty: DataType::B64 }));
    assert_eq!(f.body[8].ops[0], Operand::Vector(vec![Operand::Sink, Operand::Reg(RegId(1))]));
    assert!(matches!(o[11], MbInit { space: StateSpace::Shared }));
    assert!(matches!(o[12], MbArrive { expect_tx: true, drop: false, no_complete: false, .. }));
    assert!(matches!(o[13], MbTestWait { try_wait: true, parity: true, .. }));
    assert_eq!(f.body[13].ops.len(), 4);
    assert!(matches!(o[15], CpAsyncMbArrive { noinc: true, .. }));
    assert_eq!(*o[16], CpAsyncWaitAll);
    assert_eq!(*o[17], BulkWaitGroup { read: false });
    assert_eq!(*o[18], Fence { sem: None, scope: None, proxy: true });
    assert_eq!(*o[19], Fence { sem: Some(Sem::Release), scope: Some(Scope::Cluster), proxy: false });
    assert_eq!(*o[20], Fence { sem: Some(Sem::Sc), scope: Some(Scope::Gpu), proxy: false });
    assert_eq!(*o[21], Fence { sem: Some(Sem::AcqRel), scope: Some(Scope::Gpu), proxy: false });
    assert_eq!(*o[22], GridDepControl { launch_dependents: false });
    assert!(matches!(o[24], RedAsync { op: AtomOp::Add, ty: DataType::U32 }));
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!(".entry k() {}{}", "{".repeat(100_000), "}".repeat(100_000));
    let e = err(&deep);
    assert!(e.message.contains("nesting deeper"), "{e}");
    let deep = format!(".entry k() {{ .reg .b32 %r; mov.b32 %r, {}1{}; }}", "{".repeat(50_000), "}".repeat(50_000));
    assert!(err(&deep).message.contains("nesting deeper"));
}

/// An index in `0..n` (0 for an empty range) from the test kit's seeded generator.
fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n.max(1) as u64) as usize
}

fn check_no_panic(text: &str) {
    let r = std::panic::catch_unwind(|| ptx::parse(text, "fuzz.ptx"));
    match r {
        Err(_) => panic!("parser panicked on input:\n{text:?}"),
        Ok(Ok(_)) => {}
        Ok(Err(e)) => {
            let lines = text.split('\n').count() as u32;
            assert!(e.loc.line >= 1 && e.loc.line <= lines.max(1), "line {} outside 1..={lines}: {e}", e.loc.line);
            assert!(e.loc.col >= 1);
            let _ = e.to_string();
        }
    }
}

#[test]
fn random_inputs_and_mutations_never_panic() {
    let dir = format!("{}/tests/data/ptx", env!("CARGO_MANIFEST_DIR"));
    let mut seeds: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "ptx"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .filter(|s| s.len() < 20_000)
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty());
    let alphabet: Vec<char> = "{}[](),;:.%_@!|<>+-=0123456789abcdefxAFU \n\t\"/*\u{e9}".chars().collect();
    let mut rng = Rng::new(0x5EED_1234_ABCD_0001);
    // random bytes (lossily decoded) and random token soup
    for _ in 0..500 {
        let n = below(&mut rng, 200);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        check_no_panic(&String::from_utf8_lossy(&bytes));
        let soup: String = (0..n).map(|_| alphabet[below(&mut rng, alphabet.len())]).collect();
        check_no_panic(&format!("{HDR}.entry k() {{ {soup} }}"));
    }
    // mutations of valid PTX: delete / duplicate / replace / swap spans
    for _ in 0..2500 {
        let base = &seeds[below(&mut rng, seeds.len())];
        let mut chars: Vec<char> = base.chars().collect();
        for _ in 0..1 + below(&mut rng, 4) {
            let len = chars.len().max(1);
            let at = below(&mut rng, len);
            let span = 1 + below(&mut rng, 12);
            let end = (at + span).min(chars.len());
            match below(&mut rng, 4) {
                0 => {
                    chars.drain(at.min(chars.len())..end);
                }
                1 => {
                    let dup: Vec<char> = chars[at.min(chars.len())..end].to_vec();
                    let pos = below(&mut rng, chars.len() + 1);
                    chars.splice(pos..pos, dup);
                }
                2 => {
                    if at < chars.len() {
                        chars[at] = alphabet[below(&mut rng, alphabet.len())];
                    }
                }
                _ => {
                    let other = below(&mut rng, len);
                    if at < chars.len() && other < chars.len() {
                        chars.swap(at, other);
                    }
                }
            }
        }
        check_no_panic(&chars.into_iter().collect::<String>());
    }
}

#[test]
fn shf_lop3_bfind_shiftamt_mapa_getctarank_decode() {
    let f = kernel(
        ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
         shf.l.wrap.b32 %r1, %r2, %r3, %r4;\nshf.r.clamp.b32 %r1, %r2, %r3, 40;\n\
         lop3.b32 %r1, %r2, %r3, %r4, 0x96;\nbfind.shiftamt.u32 %r1, %r2;\n\
         mapa.shared::cluster.u32 %r1, %r2, 1;\nmapa.u64 %rd1, %rd2, %r3;\n\
         getctarank.shared::cluster.u32 %r1, %r2;\ngetctarank.u64 %r1, %rd2;\n\
         mov.u32 %r5, %cluster_ctaid.y;\nmov.u64 %rd3, %globaltimer;",
    );
    let ops: Vec<&Opcode> = f.body.iter().map(|i| &i.op).collect();
    assert_eq!(ops[0], &Opcode::Bit { op: BitOp::ShfLWrap, ty: Ty::B32 });
    assert_eq!(ops[1], &Opcode::Bit { op: BitOp::ShfRClamp, ty: Ty::B32 });
    assert_eq!(f.body[1].ops[3], Operand::Imm(40));
    assert_eq!(ops[2], &Opcode::Bit { op: BitOp::Lop3, ty: Ty::B32 });
    assert_eq!(f.body[2].ops[4], Operand::Imm(0x96));
    assert_eq!(ops[3], &Opcode::Bit { op: BitOp::BfindShiftamt, ty: Ty::U32 });
    assert_eq!(ops[4], &Opcode::Mapa { space: StateSpace::SharedCluster, ty: Ty::U32 });
    assert_eq!(ops[5], &Opcode::Mapa { space: StateSpace::Generic, ty: Ty::U64 });
    assert_eq!(ops[6], &Opcode::GetCtaRank { space: StateSpace::SharedCluster, ty: Ty::U32 });
    assert_eq!(ops[7], &Opcode::GetCtaRank { space: StateSpace::Generic, ty: Ty::U64 });
    assert_eq!(f.body[8].ops[1], Operand::Special(SpecialReg::ClusterCtaid(1)));
    assert_eq!(f.body[9].ops[1], Operand::Special(SpecialReg::Globaltimer));
    // rules: shf needs a direction and a mode, .b32 only; lop3's LUT is a constant 0..255
    let e = err(".entry k() {\n.reg .b32 %r<4>;\nshf.l.b32 %r1, %r2, %r3, 1;\n}");
    assert!(e.message.contains("`.clamp` or `.wrap`"), "{e}");
    let e = err(".entry k() {\n.reg .b32 %r<4>;\nshf.l.wrap.u32 %r1, %r2, %r3, 1;\n}");
    assert!(e.message.contains("only the type `.b32`"), "{e}");
    let e = err(".entry k() {\n.reg .b32 %r<4>;\nlop3.b32 %r1, %r2, %r3, %r0, 256;\n}");
    assert!(e.message.contains("immLut must be an integer constant 0..255") && e.loc.col == 30, "{e}");
    let e = err(".entry k() {\n.reg .b32 %r<4>;\nmapa.shared::cluster.b32 %r1, %r2, 1;\n}");
    assert!(e.message.contains("`.u32` or `.u64`"), "{e}");
}
