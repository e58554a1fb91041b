//! Real compiler output (NVRTC, compute_90; regenerate with `python3 sim/tests/data/ptx/gen.py`)
//! must parse, and the decoded program must contain the instructions the source implies.

use smsync_sim::ptx::{self, ir::*};

fn load(name: &str) -> (String, Module) {
    let path = format!("{}/tests/data/ptx/{name}.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test input present");
    let m = ptx::parse(&text, &path).unwrap_or_else(|e| panic!("{e}"));
    (text, m)
}

fn ops(m: &Module) -> Vec<&Opcode> {
    m.funcs.iter().flat_map(|f| f.body.iter().map(|i| &i.op)).collect()
}

#[test]
fn warp_reduce_parses_with_shfl_and_atom() {
    let (_, m) = load("warp_reduce");
    assert_eq!(m.target_sm, 90);
    let o = ops(&m);
    assert!(o.iter().any(|op| matches!(op, Opcode::Shfl { mode: smsync_sim::encoding::ShflMode::Down })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Atom { op: smsync_sim::encoding::AtomOp::Add, .. })));
}

#[test]
fn warp_intrinsics_parse() {
    let (_, m) = load("warp_intrinsics");
    let o = ops(&m);
    assert!(o.iter().any(|op| matches!(op, Opcode::Vote { mode: smsync_sim::encoding::VoteMode::Ballot, sync: true })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Match { all: false, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Match { all: true, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Redux { .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Activemask)));
    assert!(o.iter().any(|op| matches!(op, Opcode::BarWarpSync)));
}

#[test]
fn block_sync_parses_bar_red_and_atomics() {
    let (_, m) = load("block_sync");
    let o = ops(&m);
    assert!(o.iter().any(|op| matches!(op, Opcode::Bar { kind: BarKind::RedPopc, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Bar { kind: BarKind::RedAnd, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Bar { kind: BarKind::RedOr, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Atom { op: smsync_sim::encoding::AtomOp::Cas, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Atom { op: smsync_sim::encoding::AtomOp::Inc, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Fence { .. })));
    assert!(m.vars.iter().any(|v| v.space == StateSpace::Shared && v.size == 1024));
}

#[test]
fn cuda_barrier_memcpy_async_parses_with_globaltimer() {
    // libcu++'s barrier wait back-off reads %globaltimer (the model's deterministic clock)
    let (_, m) = load("cuda_barrier");
    let o = ops(&m);
    assert!(o.iter().any(|op| matches!(op, Opcode::MbInit { .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::MbArrive { .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::MbTestWait { .. })));
    let reads_timer =
        m.funcs.iter().flat_map(|f| &f.body).any(|i| i.ops.contains(&Operand::Special(SpecialReg::Globaltimer)));
    assert!(reads_timer, "the %globaltimer reads decode to SpecialReg::Globaltimer");
}

#[test]
fn tma_bulk_parses_with_scoped_inline_asm_blocks() {
    let (_, m) = load("tma_bulk");
    let o = ops(&m);
    assert!(o.iter().any(|op| matches!(op, Opcode::MbArrive { expect_tx: true, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::CpBulk { dir: smsync_sim::encoding::BulkDir::GlobalToShared, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::CpBulk { dir: smsync_sim::encoding::BulkDir::SharedToGlobal, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::BulkWaitGroup { read: true })));
    assert!(o.iter().any(|op| matches!(op, Opcode::Elect)));
    assert!(o.iter().any(|op| matches!(op, Opcode::Fence { proxy: true, .. })));
    // the two inline-asm copies each declare their own `P1` and their own `WAIT` label:
    // each `@!P1 bra WAIT` must branch back to the try_wait of its own block
    let f = m.funcs.iter().find(|f| f.name == "tma_bulk").unwrap();
    let waits: Vec<usize> = f
        .body
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i.op, Opcode::MbTestWait { try_wait: true, .. }))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(waits.len(), 2);
    for &w in &waits {
        let bra = &f.body[w + 1];
        assert_eq!(bra.ops[0], Operand::Label(w as u32));
        let g = bra.guard.expect("guarded");
        assert!(g.negated);
        assert_eq!(f.body[w].ops[0], Operand::Reg(g.pred));
    }
    let p1 = |k: usize| match f.body[k].ops[0] {
        Operand::Reg(r) => r,
        _ => panic!(),
    };
    assert_ne!(p1(waits[0]), p1(waits[1]), "shadowed P1 gets its own RegId per block");
}

#[test]
fn pipeline_cp_async_parses() {
    let (_, m) = load("pipeline");
    let o = ops(&m);
    assert!(o.iter().any(|op| matches!(op, Opcode::CpAsync { size: 16, .. })));
    assert!(o.iter().any(|op| matches!(op, Opcode::CpAsyncCommit)));
    assert!(o.iter().any(|op| matches!(op, Opcode::CpAsyncWaitGroup)));
}

#[test]
fn device_calls_parse_with_call_and_params() {
    let (_, m) = load("device_calls");
    let o = ops(&m);
    assert!(o.iter().any(|op| matches!(op, Opcode::Call { .. })));
    let helper = m.funcs.iter().find(|f| !f.is_entry).expect("the helper .func");
    assert_eq!(helper.params.len(), 2);
    assert_eq!(helper.rets.len(), 1);
    // the call passes two block-local .param variables and gets one back
    let call = m.funcs.iter().flat_map(|f| &f.body).find(|i| matches!(i.op, Opcode::Call { .. })).unwrap();
    match (&call.ops[0], &call.ops[1]) {
        (Operand::Vector(r), Operand::Vector(a)) => {
            assert_eq!((r.len(), a.len()), (1, 2));
            assert!(a.iter().all(|x| matches!(x, Operand::VarAddr { .. })));
        }
        other => panic!("unexpected call operands {other:?}"),
    }
}

/// Parse speed on the largest real input (cuda_barrier.ptx, 108 KB, with %globaltimer patched);
/// `cargo test --release -p smsync-sim --test ptx_real -- --ignored parse_speed --nocapture`.
#[test]
#[ignore]
fn parse_speed() {
    let path = format!("{}/tests/data/ptx/cuda_barrier.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap().replace("%globaltimer", "%clock64");
    let reps = 50;
    let t = std::time::Instant::now();
    for _ in 0..reps {
        std::hint::black_box(ptx::parse(&text, "x.ptx").unwrap());
    }
    let secs = t.elapsed().as_secs_f64();
    let mb = (text.len() * reps) as f64 / 1e6;
    println!("parsed {mb:.1} MB in {secs:.2} s: {:.1} MB/s", mb / secs);
}
