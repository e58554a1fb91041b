//! Sync instructions through the golden units, and the executor's UB / deadlock reports.

mod exec_support;
use exec_support::*;
use smsync_sim::exec::ExecError;
use smsync_sim::ptx::ir::*;

fn bar(aligned: bool) -> Opcode {
    Opcode::Bar { kind: BarKind::Sync, aligned }
}

/// Each thread stores tid to shared, bar.sync, reads its neighbour's slot (cross-warp): exercises
/// the LSU path (ld/st.shared as requests) and the barrier file.
#[test]
fn shared_exchange_across_warps_with_bar_sync() {
    let mut mb = ModuleBuilder::new();
    let sh = mb.var("buf", StateSpace::Shared, Ty::U32, 4 * 64, vec![]);
    let mut f = mb.func("xchg", true);
    let out = f.param("out", Ty::U64);
    let (tid, addr) = prologue_out(&mut f, out);
    let off = f.reg("%soff", Ty::U32);
    let nb = f.reg("%nb", Ty::U32);
    let v = f.reg("%v", Ty::U32);
    let sbase = f.reg("%sbase", Ty::U32);
    f.i("mov.u32 %sbase, buf;", Opcode::Mov(Ty::U32), vec![r(sbase), Operand::VarAddr { var: sh, offset: 0 }]);
    f.i(
        "mad.lo.u32 %soff, %tid, 4, %sbase;",
        Opcode::Arith { op: ArithOp::Mad, ty: Ty::U32, mode: Some(MulMode::Lo), rnd: None, sat: false, ftz: false },
        vec![r(off), r(tid), imm(4), r(sbase)],
    );
    let off64 = f.reg("%so64", Ty::U64);
    f.i(
        "cvt.u64.u32 %so64, %soff;",
        Opcode::Cvt { dst: Ty::U64, src: Ty::U32, rnd: None, sat: false, ftz: false },
        vec![r(off64), r(off)],
    );
    f.i("st.shared.u32 [%so64], %tid;", st(StateSpace::Shared, Ty::U32), vec![at(off64, 0), r(tid)]);
    f.i("bar.sync 0;", bar(true), vec![imm(0)]);
    // neighbour = (tid + 32) % 64
    f.i("add.u32 %nb, %tid, 32;", arith(ArithOp::Add, Ty::U32), vec![r(nb), r(tid), imm(32)]);
    f.i("and.b32 %nb, %nb, 63;", Opcode::Logic { op: LogicOp::And, ty: Ty::B32 }, vec![r(nb), r(nb), imm(63)]);
    f.i(
        "mul.wide.u32 %so64, %nb, 4;",
        Opcode::Arith { op: ArithOp::Mul, ty: Ty::U32, mode: Some(MulMode::Wide), rnd: None, sat: false, ftz: false },
        vec![r(off64), r(nb), imm(4)],
    );
    f.i("ld.shared.u32 %v, [%so64];", ld(StateSpace::Shared, Ty::U32), vec![r(v), at(off64, 0)]);
    f.i("st.global.u32 [%addr], %v;", st(StateSpace::Global, Ty::U32), vec![at(addr, 0), r(v)]);
    f.i("ret;", Opcode::Ret, vec![]);
    f.done();
    let m = mb.finish();
    let l = launch_yaml("block: [64, 1, 1]\nbuffers:\n  out: {type: u32, len: 64}\nparams: [out]\n");
    let res = run(&m, &l).unwrap();
    let got = res.bits("out").unwrap();
    for t in 0..64u64 {
        assert_eq!(got[t as usize], (t + 32) % 64, "thread {t}");
    }
    assert!(res.stats.requests >= 2 * 3, "bar + st.shared + ld.shared per warp go through the unit");
}

/// Item 72: activemask reads 1 exactly for active, predicated-on lanes; the executor supplies
/// the active mask (predicated-off lanes are not in it).
#[test]
fn c072_activemask_excludes_predicated_off_lanes() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("am", true);
    let out = f.param("out", Ty::U64);
    let (tid, addr) = prologue_out(&mut f, out);
    let bit = f.reg("%bit", Ty::U32);
    let p = f.reg("%p", Ty::Pred);
    let m = f.reg("%m", Ty::U32);
    f.i("mov.u32 %m, 0;", Opcode::Mov(Ty::U32), vec![r(m), imm(0)]);
    f.i("and.b32 %bit, %tid, 1;", Opcode::Logic { op: LogicOp::And, ty: Ty::B32 }, vec![r(bit), r(tid), imm(1)]);
    f.i("setp.eq.u32 %p, %bit, 0;", setp(CmpOp::Eq, Ty::U32), vec![r(p), r(bit), imm(0)]);
    f.gi("@%p activemask.b32 %m;", guard(p), Opcode::Activemask, vec![r(m)]);
    f.i("st.global.u32 [%addr], %m;", st(StateSpace::Global, Ty::U32), vec![at(addr, 0), r(m)]);
    f.i("ret;", Opcode::Ret, vec![]);
    f.done();
    let module = mb.finish();
    // 48 threads: warp 1 has 16 lanes, the others do not exist
    let l = launch_yaml("block: [48, 1, 1]\nbuffers:\n  out: {type: u32, len: 48}\nparams: [out]\n");
    let got = run(&module, &l).unwrap().bits("out").unwrap();
    for t in 0..48usize {
        let want = if t % 2 == 1 {
            0
        } else if t < 32 {
            0x5555_5555
        } else {
            0x5555
        };
        assert_eq!(got[t], want, "thread {t}");
    }
}

/// vote.sync.ballot with lanes at different PCs of one warp (ITS): each half submits with the
/// lanes present; the unit does the rendezvous and both halves see the whole ballot.
#[test]
fn vote_ballot_from_diverged_halves() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("ballot", true);
    let out = f.param("out", Ty::U64);
    let (tid, addr) = prologue_out(&mut f, out);
    let p = f.reg("%p", Ty::Pred);
    let q = f.reg("%q", Ty::Pred);
    let b = f.reg("%b", Ty::U32);
    f.i("setp.lt.u32 %q, %tid, 5;", setp(CmpOp::Lt, Ty::U32), vec![r(q), r(tid), imm(5)]);
    f.i("setp.lt.u32 %p, %tid, 16;", setp(CmpOp::Lt, Ty::U32), vec![r(p), r(tid), imm(16)]);
    let br = f.here();
    f.gi("@%p bra LOW;", guard(p), Opcode::Bra { uni: false }, vec![label(0)]);
    f.i(
        "vote.sync.ballot.b32 %b, %q, 0xffffffff;",
        Opcode::Vote { mode: smsync_sim::encoding::VoteMode::Ballot, sync: true },
        vec![r(b), r(q), imm(0xffff_ffff)],
    );
    let br2 = f.here();
    f.i("bra.uni JOIN;", Opcode::Bra { uni: true }, vec![label(0)]);
    let low = f.here();
    f.i(
        "vote.sync.ballot.b32 %b, %q, 0xffffffff;",
        Opcode::Vote { mode: smsync_sim::encoding::VoteMode::Ballot, sync: true },
        vec![r(b), r(q), imm(0xffff_ffff)],
    );
    let join = f.here();
    f.i("st.global.u32 [%addr], %b;", st(StateSpace::Global, Ty::U32), vec![at(addr, 0), r(b)]);
    f.i("ret;", Opcode::Ret, vec![]);
    f.patch(br, low);
    f.patch(br2, join);
    f.done();
    let m = mb.finish();
    let l = launch_yaml("block: [32, 1, 1]\nbuffers:\n  out: {type: u32, len: 32}\nparams: [out]\n");
    let got = run(&m, &l).unwrap().bits("out").unwrap();
    assert!(got.iter().all(|&v| v == 0x1f), "{got:x?}");
}

/// Item 59: `bar.sync` (aligned) reached by the two halves of a warp at different instructions.
#[test]
fn c059_aligned_barrier_in_divergent_code_is_reported() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("div_bar", true);
    let tid = f.reg("%tid", Ty::U32);
    let p = f.reg("%p", Ty::Pred);
    f.i("mov.u32 %tid, %tid.x;", Opcode::Mov(Ty::U32), vec![r(tid), sreg(SpecialReg::Tid(0))]);
    f.i("setp.lt.u32 %p, %tid, 16;", setp(CmpOp::Lt, Ty::U32), vec![r(p), r(tid), imm(16)]);
    let br = f.here();
    f.gi("@%p bra LOW;", guard(p), Opcode::Bra { uni: false }, vec![label(0)]);
    f.i("bar.sync 0;", bar(true), vec![imm(0)]);
    f.i("exit;", Opcode::Exit, vec![]);
    let low = f.here();
    f.i("bar.sync 0;", bar(true), vec![imm(0)]);
    f.i("exit;", Opcode::Exit, vec![]);
    f.patch(br, low);
    f.done();
    let m = mb.finish();
    let err = run(&m, &launch_yaml("block: [32, 1, 1]\n")).unwrap_err();
    let ExecError::Ub { item, .. } = &err else { panic!("expected UB, got {err}") };
    assert_eq!(*item, Some(59));
    let msg = err.to_string();
    assert!(msg.contains("aligned barrier in divergent code"), "{msg}");
    assert!(msg.contains("test.ptx:") && msg.contains("bar.sync 0;"), "{msg}");
    assert!(msg.contains("warp 0"), "{msg}");
}

/// The non-aligned `barrier.sync` lets the lanes of a warp arrive at different times (sm_70+):
/// the same divergent shape is fine when both sides reach the one instruction.
#[test]
fn c059_non_aligned_barrier_waits_for_the_whole_warp() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("nonaligned", true);
    let out = f.param("out", Ty::U64);
    let (tid, addr) = prologue_out(&mut f, out);
    let p = f.reg("%p", Ty::Pred);
    let v = f.reg("%v", Ty::U32);
    f.i("mov.u32 %v, 1;", Opcode::Mov(Ty::U32), vec![r(v), imm(1)]);
    f.i("setp.lt.u32 %p, %tid, 16;", setp(CmpOp::Lt, Ty::U32), vec![r(p), r(tid), imm(16)]);
    let br = f.here();
    f.gi("@%p bra SKIP;", guard(p), Opcode::Bra { uni: false }, vec![label(0)]);
    f.i("add.u32 %v, %v, 10;", arith(ArithOp::Add, Ty::U32), vec![r(v), r(v), imm(10)]);
    let skip = f.here();
    f.i("barrier.sync 0;", bar(false), vec![imm(0)]);
    f.i("st.global.u32 [%addr], %v;", st(StateSpace::Global, Ty::U32), vec![at(addr, 0), r(v)]);
    f.i("ret;", Opcode::Ret, vec![]);
    f.patch(br, skip);
    f.done();
    let m = mb.finish();
    let l = launch_yaml("block: [64, 1, 1]\nbuffers:\n  out: {type: u32, len: 64}\nparams: [out]\n");
    for seed in [None, Some(3), Some(9)] {
        let res =
            run_with(&m, &l, &Default::default(), smsync_sim::exec::RunOptions { seed, ..Default::default() }).unwrap();
        let got = res.bits("out").unwrap();
        for t in 0..64usize {
            assert_eq!(got[t], if t < 16 { 1 } else { 11 }, "thread {t}");
        }
    }
}

/// Warp 0 waits at barrier 0, warp 1 at barrier 1: nobody can proceed.
#[test]
fn deadlock_report_names_each_waiting_instruction() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("dead", true);
    let w = f.reg("%w", Ty::U32);
    f.i("mov.u32 %w, %warpid;", Opcode::Mov(Ty::U32), vec![r(w), sreg(SpecialReg::Warpid)]);
    f.i("bar.sync %w;", bar(true), vec![r(w)]);
    f.i("exit;", Opcode::Exit, vec![]);
    f.done();
    let m = mb.finish();
    let err = run(&m, &launch_yaml("block: [64, 1, 1]\n")).unwrap_err();
    let ExecError::Deadlock { waits, .. } = &err else { panic!("expected a deadlock, got {err}") };
    assert_eq!(waits.len(), 2, "{waits:?}");
    assert!(
        waits[0].contains("warp 0") && waits[0].contains("test.ptx:3:5") && waits[0].contains("bar.sync %w;"),
        "{waits:?}"
    );
    assert!(waits[1].contains("warp 1"), "{waits:?}");
}

#[test]
fn out_of_range_global_store_names_rule_and_instruction() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("oob", true);
    let out = f.param("out", Ty::U64);
    let (_tid, addr) = prologue_out(&mut f, out);
    f.i("st.global.u32 [%addr+4096], 1;", st(StateSpace::Global, Ty::U32), vec![at(addr, 4096), imm(1)]);
    f.i("ret;", Opcode::Ret, vec![]);
    f.done();
    let m = mb.finish();
    let l = launch_yaml("block: [4, 1, 1]\nbuffers:\n  out: {type: u32, len: 4}\nparams: [out]\n");
    let msg = run(&m, &l).unwrap_err().to_string();
    assert!(msg.contains("global memory address out of range"), "{msg}");
    assert!(msg.contains("st.global.u32 [%addr+4096], 1;") && msg.contains("lane 0"), "{msg}");
}

#[test]
fn misaligned_plain_access_is_reported() {
    let mut mb = ModuleBuilder::new();
    let mut f = mb.func("mis", true);
    let out = f.param("out", Ty::U64);
    let (_tid, addr) = prologue_out(&mut f, out);
    f.i("st.global.u32 [%addr+2], 1;", st(StateSpace::Global, Ty::U32), vec![at(addr, 2), imm(1)]);
    f.i("ret;", Opcode::Ret, vec![]);
    f.done();
    let m = mb.finish();
    let l = launch_yaml("block: [4, 1, 1]\nbuffers:\n  out: {type: u32, len: 8}\nparams: [out]\n");
    let msg = run(&m, &l).unwrap_err().to_string();
    assert!(msg.contains("misaligned plain access") && msg.contains("4-byte aligned"), "{msg}");
}
