//! Syntactic conformance rules of the PTX ISA text checked by the front end (checklist items 29, 32,
//! 33, 51, 68, 91, 93, 96, 98, 105, 108, 111, 113). Each test shows the legal form parses and the
//! illegal one is rejected with a positioned message.

use smsync_sim::ptx::{self, ir::*, PtxError};

fn module(target: &str, version: &str, body: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
         .reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n.reg .f32 %f<4>;\n.reg .b16 %h<8>;\n\
         .shared .align 8 .b64 bar;\n{body}\n}}\n"
    )
}
fn ok90(body: &str) -> Module {
    ptx::parse(&module("sm_90", "8.0", body), "t.ptx").unwrap_or_else(|e| panic!("{e}"))
}
fn err_at(target: &str, version: &str, body: &str) -> PtxError {
    match ptx::parse(&module(target, version, body), "t.ptx") {
        Ok(_) => panic!("expected a rejection of:\n{body}"),
        Err(e) => {
            // the statement is on line 12 (first body line) of the generated module
            assert_eq!(e.loc.line, 12, "{e}");
            assert!(e.loc.col >= 1);
            e
        }
    }
}
fn err90(body: &str) -> PtxError {
    err_at("sm_90", "8.0", body)
}

#[test]
fn c029_arrive_count_without_nocomplete_rejected_on_sm8x() {
    let body = "mbarrier.arrive.shared.b64 %rd1, [bar], 2;";
    let e = err_at("sm_80", "7.8", body);
    assert!(e.message.contains("needs `.noComplete`"), "{e}");
    ptx::parse(&module("sm_80", "7.8", "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 2;"), "t").unwrap();
    ptx::parse(&module("sm_90", "7.8", body), "t").unwrap();
}

#[test]
fn c032_remote_arrive_must_use_sink() {
    let m = ok90("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];");
    assert!(matches!(m.funcs[0].body[0].op, Opcode::MbArrive { space: StateSpace::SharedCluster, .. }));
    assert_eq!(m.funcs[0].body[0].ops[0], Operand::Sink);
    let e = err90("mbarrier.arrive.release.cluster.shared::cluster.b64 %rd1, [%r1];");
    assert!(e.message.contains("must be `_`"), "{e}");
    assert_eq!(e.loc.col, 53);
    let e = err90("mbarrier.arrive_drop.shared::cluster.b64 %rd1, [%r1];");
    assert!(e.message.contains("must be `_`"), "{e}");
}

#[test]
fn c033_cluster_space_not_supported_for_local_only_ops() {
    for body in [
        "mbarrier.test_wait.shared::cluster.b64 %p1, [%r1], %rd1;",
        "mbarrier.try_wait.parity.shared::cluster.b64 %p1, [%r1], 0;",
        "mbarrier.init.shared::cluster.b64 [%r1], 1;",
        "mbarrier.inval.shared::cluster.b64 [%r1];",
        "cp.async.mbarrier.arrive.shared::cluster.b64 [%r1];",
    ] {
        let e = err90(body);
        assert!(e.message.contains("shared::cluster"), "{e}");
    }
    ok90("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%r1], 16;");
    ok90("mbarrier.complete_tx.shared::cluster.b64 [%r1], 16;");
}

#[test]
fn c051_bar_arrive_needs_nonzero_count_multiple_of_32() {
    let e = err90("bar.arrive 1;");
    assert!(e.message.contains("requires a thread count"), "{e}");
    let e = err90("barrier.arrive 1, 0;");
    assert!(e.message.contains("non-zero"), "{e}");
    let e = err90("bar.sync 1, 33;");
    assert!(e.message.contains("multiple of the warp size"), "{e}");
    let e = err90("bar.sync 16;");
    assert!(e.message.contains("out of range"), "{e}");
    let m = ok90("bar.arrive 1, 64;\nbarrier.sync 1, %r1;");
    assert_eq!(m.funcs[0].body[0].op, Opcode::Bar { kind: BarKind::Arrive, aligned: true });
    assert_eq!(m.funcs[0].body[1].op, Opcode::Bar { kind: BarKind::Sync, aligned: false });
}

#[test]
fn c068_legacy_vote_rejected_for_sm70_ptx64() {
    let e = err_at("sm_70", "6.4", "vote.ballot.b32 %r1, %p1;");
    assert!(e.message.contains("removed in PTX 6.4"), "{e}");
    let m = ptx::parse(&module("sm_70", "6.3", "vote.ballot.b32 %r1, %p1;"), "t").unwrap();
    assert!(matches!(m.funcs[0].body[0].op, Opcode::Vote { sync: false, .. }));
    ptx::parse(&module("sm_60", "7.0", "vote.any.pred %p1, !%p2;"), "t").unwrap();
    ok90("vote.sync.ballot.b32 %r1, %p1, 0xffffffff;");
}

#[test]
fn c091_half_adds_need_noftz() {
    for ty in ["f16", "f16x2", "bf16", "bf16x2"] {
        let e = err90(&format!("atom.global.add.{ty} %r1, [%rd1], %r2;"));
        assert!(e.message.contains("requires `.noftz`"), "{e}");
        ok90(&format!("atom.global.add.noftz.{ty} %r1, [%rd1], %r2;"));
        ok90(&format!("red.global.add.noftz.{ty} [%rd1], %r2;"));
    }
}

#[test]
fn c093_vector_atom_table() {
    ok90("atom.global.v8.f16.max.noftz {%h0,%h1,%h2,%h3,%h4,%h5,%h6,%h7}, [%rd1], {%h0,%h1,%h2,%h3,%h4,%h5,%h6,%h7};");
    ok90("atom.global.v4.f32.add {%f0,%f1,%f2,%f3}, [%rd1], {%f0,%f1,%f2,%f3};");
    ok90("red.global.v4.bf16x2.min.noftz [%rd1], {%r0,%r1,%r2,%r3};");
    for body in [
        "atom.global.v8.f16x2.add.noftz {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, [%rd1], {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7};",
        "atom.global.v2.f32.max {%f0,%f1}, [%rd1], {%f0,%f1};",
        "atom.global.v2.u32.add {%r0,%r1}, [%rd1], {%r0,%r1};",
        "atom.global.v8.f32.add {%f0,%f1,%f2,%f3,%f0,%f1,%f2,%f3}, [%rd1], {%f0,%f1,%f2,%f3,%f0,%f1,%f2,%f3};",
    ] {
        let e = err90(body);
        assert!(e.message.contains("is not allowed"), "{e}");
    }
    let e = err90("atom.shared.v2.f32.add {%f0,%f1}, [%r1], {%f0,%f1};");
    assert!(e.message.contains("only valid in `.global`"), "{e}");
    let e = err90("atom.global.v4.f32.add {%f0,%f1}, [%rd1], {%f0,%f1};");
    assert!(e.message.contains("4 elements"), "{e}");
}

#[test]
fn c096_cache_hint_rules() {
    let e = err90("atom.shared.add.L2::cache_hint.u32 %r1, [%r2], 1, %rd1;");
    assert!(e.message.contains("not allowed with a `.shared`"), "{e}");
    let e = err90("atom.global.add.u32 %r1, [%rd2], 1, %rd1;");
    assert!(e.message.contains("needs `.L2::cache_hint`"), "{e}");
    let e = err90("red.global.add.u32 [%rd2], 1, %rd1;");
    assert!(e.message.contains("needs `.L2::cache_hint`"), "{e}");
    let m = ok90("atom.global.add.L2::cache_hint.u32 %r1, [%rd2], 1, %rd1;");
    assert!(matches!(m.funcs[0].body[0].op, Opcode::Atom { cache_hint: true, .. }));
    assert_eq!(m.funcs[0].body[0].ops.len(), 4);
}

#[test]
fn c098_cp_async_cg_size_16() {
    let e = err90("cp.async.cg.shared.global [%r1], [%rd1], 8;");
    assert!(e.message.contains("requires cp-size 16"), "{e}");
    let e = err90("cp.async.ca.shared.global [%r1], [%rd1], 2;");
    assert!(e.message.contains("4, 8 or 16"), "{e}");
    for n in [4, 8, 16] {
        let m = ok90(&format!("cp.async.ca.shared.global [%r1], [%rd1], {n};"));
        assert!(matches!(m.funcs[0].body[0].op, Opcode::CpAsync { cg: false, size, .. } if size as u32 == n));
    }
    let m = ok90("cp.async.cg.shared.global [%r1], [%rd1], 16, %r2;\ncp.async.ca.shared.global [%r1], [%rd1], 4, %p1;");
    assert!(matches!(m.funcs[0].body[0].op, Opcode::CpAsync { has_src_size: true, has_ignore_src: false, .. }));
    assert!(matches!(m.funcs[0].body[1].op, Opcode::CpAsync { has_src_size: false, has_ignore_src: true, .. }));
}

#[test]
fn c105_bulk_size_multiple_of_16() {
    let e = err90("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 24, [bar];");
    assert!(e.message.contains("multiple of 16"), "{e}");
    let e = err90("cp.async.bulk.prefetch.L2.global [%rd1], 8;");
    assert!(e.message.contains("multiple of 16"), "{e}");
    let e = err90("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], 100;");
    assert!(e.message.contains("multiple of 16"), "{e}");
    ok90("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 32, [bar];");
    ok90("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], %r2;");
}

#[test]
fn c108_bulk_reduce_half_add_needs_noftz() {
    let e = err90("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%rd1], [%r1], 16;");
    assert!(e.message.contains("requires `.noftz`"), "{e}");
    let m = ok90("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%rd1], [%r1], 16;");
    assert!(matches!(m.funcs[0].body[0].op, Opcode::CpReduceBulk { noftz: true, .. }));
    ok90("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r1], 16;");
    let e = err90("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.f32 [%r2], [%r1], 16, [bar];");
    assert!(e.message.contains("does not support"), "{e}");
}

#[test]
fn c111_tensor_coordinate_count_equals_dims() {
    for d in 1..=5usize {
        let coords: Vec<String> = (0..d).map(|i| format!("%r{i}")).collect();
        let m = ok90(&format!(
            "cp.async.bulk.tensor.{d}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r7], [%rd1, {{{}}}], [bar];",
            coords.join(", ")
        ));
        assert!(matches!(m.funcs[0].body[0].op, Opcode::CpBulkTensor { dims, .. } if dims as usize == d));
        let e = err90(&format!(
            "cp.async.bulk.tensor.{}d.global.shared::cta.bulk_group [%rd1, {{{}}}], [%r7];",
            if d == 5 { 4 } else { d + 1 },
            coords.join(", ")
        ));
        assert!(e.message.contains("tensor coordinates"), "{e}");
    }
    let e = err90("cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r7], [%rd1, {%r0, %r1}], [bar], {%h0};");
    assert!(e.message.contains("at least `.3d`"), "{e}");
}

#[test]
fn c113_cta_group_needs_mbarrier_mechanism() {
    let e = err90("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group.cta_group::1 [%rd1, {%r0}], [%r7];");
    assert!(e.message.contains("needs the `.mbarrier::complete_tx::bytes`"), "{e}");
    ok90("cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes.cta_group::1 [%r7], [%rd1, {%r0}], [bar];");
}

// ---- memory-ordering qualifiers (items 35, 36, 63, 95, 117) ---------------------------------
// The golden model is sequentially consistent, so orderings are trivially satisfied at run time;
// what is decidable is which qualifiers are legal and which defaults the decoder records.

fn op0(m: &Module) -> &Opcode {
    &m.funcs[0].body[0].op
}

#[test]
fn c035_expect_tx_and_complete_tx_are_relaxed_only() {
    for body in [
        "mbarrier.expect_tx.shared.b64 [bar], 16;",
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
        "mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%r1], 16;",
    ] {
        ok90(body);
    }
    for body in [
        "mbarrier.expect_tx.release.cta.shared.b64 [bar], 16;",
        "mbarrier.complete_tx.acquire.cta.shared.b64 [bar], 16;",
    ] {
        let e = err90(body);
        assert!(e.message.contains("unknown modifier") || e.message.contains("conflicting"), "{e}");
    }
}

#[test]
fn c036_arrive_defaults_release_cta_and_waits_acquire_cta() {
    let m = ok90("mbarrier.arrive.shared.b64 %rd1, [bar];");
    assert!(matches!(op0(&m), Opcode::MbArrive { sem: Sem::Release, scope: Scope::Cta, .. }), "{:?}", op0(&m));
    let m = ok90("mbarrier.arrive_drop.shared.b64 %rd1, [bar];");
    assert!(matches!(op0(&m), Opcode::MbArrive { drop: true, sem: Sem::Release, scope: Scope::Cta, .. }));
    let m = ok90("mbarrier.test_wait.shared.b64 %p1, [bar], %rd1;");
    assert!(matches!(op0(&m), Opcode::MbTestWait { sem: Sem::Acquire, scope: Scope::Cta, .. }));
    let m = ok90("mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0;");
    assert!(matches!(op0(&m), Opcode::MbTestWait { try_wait: true, sem: Sem::Acquire, scope: Scope::Cta, .. }));
    // explicit qualifiers are recorded as written
    let m = ok90("mbarrier.arrive.relaxed.cluster.shared.b64 %rd1, [bar];");
    assert!(matches!(op0(&m), Opcode::MbArrive { sem: Sem::Relaxed, scope: Scope::Cluster, .. }));
    let m = ok90("mbarrier.try_wait.relaxed.cluster.shared.b64 %p1, [bar], %rd1;");
    assert!(matches!(op0(&m), Opcode::MbTestWait { sem: Sem::Relaxed, scope: Scope::Cluster, .. }));
    // arrive cannot acquire, waits cannot release
    assert!(err90("mbarrier.arrive.acquire.shared.b64 %rd1, [bar];").message.contains("acquire"));
    assert!(err90("mbarrier.try_wait.release.shared.b64 %p1, [bar], %rd1;").message.contains("release"));
}

#[test]
fn c058_bar_is_barrier_aligned_and_cta_changes_nothing() {
    let same = |a: &str, b: &str| {
        let (x, y) = (ok90(a), ok90(b));
        assert_eq!((op0(&x), &x.funcs[0].body[0].ops), (op0(&y), &y.funcs[0].body[0].ops), "`{a}` vs `{b}`");
    };
    same("bar.sync 1;", "barrier.sync.aligned 1;");
    same("bar.sync 1;", "barrier.cta.sync.aligned 1;");
    same("bar.sync 1, 64;", "barrier.cta.sync.aligned 1, 64;");
    same("bar.arrive 2, 64;", "barrier.arrive.aligned 2, 64;");
    same("bar.red.popc.u32 %r1, 3, %p1;", "barrier.cta.red.popc.aligned.u32 %r1, 3, %p1;");
    same("bar.red.and.pred %p2, 3, %p1;", "barrier.red.and.aligned.pred %p2, 3, %p1;");
    same("barrier.sync 1;", "barrier.cta.sync 1;");
    assert!(matches!(op0(&ok90("bar.sync 0;")), Opcode::Bar { kind: BarKind::Sync, aligned: true }));
    assert!(matches!(op0(&ok90("barrier.sync 0;")), Opcode::Bar { kind: BarKind::Sync, aligned: false }));
}

#[test]
fn c063_cluster_barrier_defaults_release_arrive_acquire_wait() {
    assert!(matches!(op0(&ok90("barrier.cluster.arrive;")), Opcode::BarrierCluster { wait: false, sem: Sem::Release }));
    assert!(matches!(
        op0(&ok90("barrier.cluster.arrive.aligned;")),
        Opcode::BarrierCluster { wait: false, sem: Sem::Release }
    ));
    assert!(matches!(
        op0(&ok90("barrier.cluster.arrive.relaxed.aligned;")),
        Opcode::BarrierCluster { wait: false, sem: Sem::Relaxed }
    ));
    assert!(matches!(op0(&ok90("barrier.cluster.wait;")), Opcode::BarrierCluster { wait: true, sem: Sem::Acquire }));
    assert!(matches!(
        op0(&ok90("barrier.cluster.wait.acquire.aligned;")),
        Opcode::BarrierCluster { wait: true, sem: Sem::Acquire }
    ));
    // wait is only .acquire; arrive is .release or .relaxed
    assert!(err90("barrier.cluster.wait.relaxed;").message.contains("relaxed"));
    assert!(err90("barrier.cluster.arrive.acquire;").message.contains("acquire"));
}

#[test]
fn c095_atom_red_default_relaxed_gpu_and_shared_is_shared_cta() {
    for body in ["atom.global.add.u32 %r1, [%rd1], 1;", "red.global.add.u32 [%rd1], 1;", "atom.add.u32 %r1, [%rd1], 1;"]
    {
        assert!(matches!(op0(&ok90(body)), Opcode::Atom { sem: Sem::Relaxed, scope: Scope::Gpu, .. }), "{body}");
    }
    let a = ok90("atom.shared.add.u32 %r1, [%r2], 1;");
    let b = ok90("atom.shared::cta.add.u32 %r1, [%r2], 1;");
    assert_eq!(op0(&a), op0(&b));
    assert!(matches!(op0(&a), Opcode::Atom { space: StateSpace::Shared, sem: Sem::Relaxed, scope: Scope::Gpu, .. }));
    assert!(matches!(
        op0(&ok90("red.shared.add.u32 [%r2], 1;")),
        Opcode::Atom { red: true, space: StateSpace::Shared, .. }
    ));
    // written qualifiers are kept
    assert!(matches!(
        op0(&ok90("atom.acq_rel.cta.shared.add.u32 %r1, [%r2], 1;")),
        Opcode::Atom { sem: Sem::AcqRel, scope: Scope::Cta, .. }
    ));
}

#[test]
fn c117_fence_mbarrier_init_is_release_cluster_only() {
    assert!(matches!(
        op0(&ok90("fence.mbarrier_init.release.cluster;")),
        Opcode::Fence { sem: Some(Sem::Release), scope: Some(Scope::Cluster), proxy: false }
    ));
    for body in ["fence.mbarrier_init.release.cta;", "fence.mbarrier_init.acquire.cluster;", "fence.mbarrier_init;"] {
        assert!(err90(body).message.contains("must be `.release.cluster`"), "{body}");
    }
}

// ---- bulk / TMA (items 112, 115, 116) ------------------------------------------------------

#[test]
fn c112_im2col_w_whalo_and_woffset_ranges() {
    let load = |mode: &str, halo: u32, off: u32| {
        format!("cp.async.bulk.tensor.3d.{mode}.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {{%r1, %r2, %r3}}], [%r4], {{{halo}, {off}}};")
    };
    let parse = |body: &str| ptx::parse(&module("sm_100a", "8.6", body), "t.ptx");
    // out of range immediates: rejected with the rule, at the operand
    for (mode, halo, off, what) in [
        ("im2col::w", 512, 0, "wHalo must be in [0, 512)"),
        ("im2col::w::128", 32, 0, "wHalo must be in [0, 32)"),
        ("im2col::w", 0, 32, "wOffset must be in [0, 32)"),
    ] {
        let e = parse(&load(mode, halo, off)).unwrap_err();
        assert!(e.message.contains(what) && e.message.contains("im2col::w wHalo < 512"), "{mode} {halo} {off}: {e}");
        assert!(e.source_line.contains(&format!("{{{halo}, {off}}}")));
    }
    // in range: the mode itself is the (documented) unsupported part
    for (mode, halo, off) in [("im2col::w", 511, 31), ("im2col::w::128", 31, 0)] {
        let e = parse(&load(mode, halo, off)).unwrap_err();
        assert!(e.message.contains("is not supported by smsync"), "{mode}: {e}");
    }
}

#[test]
fn c115_tensormap_cp_fenceproxy_size_128_only() {
    let form = |size: &str| {
        format!("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [%r1], {size};")
    };
    let m = ok90(&form("128"));
    assert!(matches!(op0(&m), Opcode::TensormapCpFenceproxy { scope: Scope::Gpu }));
    for size in ["64", "256", "%r2"] {
        let e = err90(&form(size));
        assert!(e.message.contains("size must be the integer 128"), "{size}: {e}");
    }
    let e =
        err90("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.aligned [%rd1], [%r1], 128;");
    assert!(e.message.contains("`.sync`"), "{e}");
    let e = err90(
        "tensormap.cp_fenceproxy.shared::cta.global.tensormap::generic.release.gpu.sync.aligned [%rd1], [%r1], 128;",
    );
    assert!(e.message.contains(".global.shared::cta"), "{e}");
}

#[test]
fn c116_tensormap_acquire_fence_size_128() {
    ok90("fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;");
    let e = err90("fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;");
    assert!(e.message.contains("size must be the integer 128"), "{e}");
    // the global-address half of the rule is checked at run time: exec_cluster.rs
}

#[test]
fn c045_clusterlaunchcontrol_decodes_on_sm100_only() {
    let parse = |t: &str, body: &str| ptx::parse(&module(t, "8.6", body), "t.ptx");
    let body = "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%r1], [bar];";
    let m = parse("sm_100a", body).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(op0(&m), Opcode::ClcTryCancel { multicast: false, space: StateSpace::Shared }));
    let e = parse("sm_90", body).unwrap_err();
    assert!(e.message.contains("requires sm_100"), "{e}");
    let e = parse("sm_100a", "clusterlaunchcontrol.try_cancel.async.b128 [%r1], [bar];").unwrap_err();
    assert!(e.message.contains("mbarrier::complete_tx::bytes"), "{e}");
}

#[test]
fn im2col_load_takes_dims_minus_two_offsets() {
    // PTX ISA §9.7.9.25.5.2: im2colInfo of `.im2col` holds dims - 2 offsets (W, H, D)
    let m = ok90("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r7], [%rd1, {%r0, %r1, %r2, %r3}], [bar], {%h0, %h1};");
    assert!(matches!(m.funcs[0].body[0].op, Opcode::CpBulkTensor { dims: 4, im2col: true, .. }));
    let m = ok90("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%r7], [%rd1, {%r0, %r1, %r2}], [bar];");
    assert!(matches!(m.funcs[0].body[0].op, Opcode::CpBulkTensor { im2col: false, .. }));
    let e = err90("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r7], [%rd1, {%r0, %r1, %r2, %r3}], [bar], {%h0};");
    assert!(e.message.contains("takes 2 im2col offsets, found 1"), "{e}");
    let e = err90("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r7], [%rd1, {%r0, %r1, %r2}], [bar];");
    assert!(e.message.contains("im2col"), "{e}");
    // stores have no `.im2col` (their im2col form is `.im2col_no_offs`, not modelled)
    let e = err90("cp.async.bulk.tensor.3d.global.shared::cta.im2col.bulk_group [%rd1, {%r0, %r1, %r2}], [%r7];");
    assert!(e.message.contains("not valid in this direction"), "{e}");
}
