//! The front end's instruction table: every PTX opcode the decoder dispatches and every valid
//! form it refuses, with its PTX ISA section and one example statement.
//!
//! The decoder reads this table: an opcode with no `Yes` row is an unknown instruction, and a
//! statement matching a `No` row (by opcode, or by a dotted prefix of the full name) that no
//! decoder arm took is refused as "not supported by smsync". `sim/tests/ptx_forms.rs` parses every
//! example and checks it against its row, and `scripts/conformance.py` renders the table into
//! docs/CONFORMANCE.md (checked by that test and `gen/tests/conformance_map.rs`), so the document
//! cannot drift from the parser.
//!
//! Examples are statements inside a kernel that declares `%r0..7` (.b32), `%rd0..7` (.b64),
//! `%p0..3` (.pred), `%f0..3` (.f32), `%fd0..3` (.f64), `%h0..7` (.b16), `.shared .b64 bar`, a
//! label `L` and a `.func f`; they target sm_100a at PTX 8.8.

/// Whether smsync decodes and executes a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    Yes,
    No,
}

/// One row. `name` is the opcode, or the dotted prefix of a form's full name (`st.async`), which
/// the decoder refuses before dispatch; a name with a space (`red.async .release`) describes a
/// form the opcode's own decoder refuses with a message of its own (the row documents it).
#[derive(Clone, Copy, Debug)]
pub struct Form {
    pub support: Support,
    pub name: &'static str,
    pub section: &'static str,
    pub note: &'static str,
    pub example: &'static str,
}

impl Form {
    /// The opcode: the name up to its first `.`.
    pub fn opcode(&self) -> &'static str {
        self.name.split('.').next().unwrap_or(self.name)
    }
}

const fn row(
    support: Support,
    name: &'static str,
    section: &'static str,
    note: &'static str,
    example: &'static str,
) -> Form {
    Form { support, name, section, note, example }
}

use Support::{No, Yes};

#[rustfmt::skip]
pub const FORMS: &[Form] = &[
    // ---- integer and floating-point arithmetic
    row(Yes, "add", "§9.7.1.1, §9.7.3.3", "integer, .f32/.f64 (rounding, .ftz, .sat), .f16x2/.bf16x2 only through cvt", "add.s32 %r0, %r1, %r2;"),
    row(Yes, "sub", "§9.7.1.2, §9.7.3.4", "", "sub.f32 %f0, %f1, %f2;"),
    row(Yes, "mul", "§9.7.1.3, §9.7.3.5", ".lo/.hi/.wide", "mul.wide.s32 %rd0, %r1, %r2;"),
    row(Yes, "mad", "§9.7.1.4, §9.7.3.7", "", "mad.lo.s32 %r0, %r1, %r2, %r3;"),
    row(Yes, "fma", "§9.7.3.6", "", "fma.rn.f32 %f0, %f1, %f2, %f3;"),
    row(Yes, "div", "§9.7.1.8, §9.7.3.8", "", "div.rn.f64 %fd0, %fd1, %fd2;"),
    row(Yes, "rem", "§9.7.1.9", "", "rem.u32 %r0, %r1, %r2;"),
    row(Yes, "neg", "§9.7.1.11, §9.7.3.10", "", "neg.s32 %r0, %r1;"),
    row(Yes, "abs", "§9.7.1.10, §9.7.3.9", "", "abs.f32 %f0, %f1;"),
    row(Yes, "min", "§9.7.1.12, §9.7.3.11", "", "min.u32 %r0, %r1, %r2;"),
    row(Yes, "max", "§9.7.1.13, §9.7.3.12", "", "max.f32 %f0, %f1, %f2;"),
    row(Yes, "rcp", "§9.7.3.13", "", "rcp.rn.f32 %f0, %f1;"),
    row(Yes, "sqrt", "§9.7.3.15", "", "sqrt.rn.f32 %f0, %f1;"),
    row(Yes, "rsqrt", "§9.7.3.16", "", "rsqrt.approx.f32 %f0, %f1;"),
    row(Yes, "ex2", "§9.7.3.21", ".f32 and .f64 forms", "ex2.approx.f32 %f0, %f1;"),
    row(Yes, "lg2", "§9.7.3.20", "", "lg2.approx.f32 %f0, %f1;"),
    row(Yes, "sin", "§9.7.3.18", "", "sin.approx.f32 %f0, %f1;"),
    row(Yes, "cos", "§9.7.3.19", "", "cos.approx.f32 %f0, %f1;"),
    row(Yes, "copysign", "§9.7.3.2", "", "copysign.f32 %f0, %f1, %f2;"),
    row(Yes, "sad", "§9.7.1.7", "", "sad.u32 %r0, %r1, %r2, %r3;"),
    row(Yes, "addc", "§9.7.2.2", "carry chains with add.cc / sub.cc / mad.cc (§9.7.2.1, .3, .5)", "add.cc.u32 %r0, %r1, %r2;\naddc.u32 %r3, %r4, %r5;"),
    row(Yes, "subc", "§9.7.2.4", "", "sub.cc.u32 %r0, %r1, %r2;\nsubc.u32 %r3, %r4, %r5;"),
    row(Yes, "madc", "§9.7.2.6", "", "mad.cc.lo.u32 %r0, %r1, %r2, %r3;\nmadc.hi.u32 %r4, %r1, %r2, %r3;"),
    row(No, "add .f16", "§9.7.4.1", "half-precision arithmetic (values reach f16 only through cvt)", "add.f16 %h0, %h1, %h2;"),
    row(No, "mul24", "§9.7.1.5", "", "mul24.lo.s32 %r0, %r1, %r2;"),
    row(No, "mad24", "§9.7.1.6", "", "mad24.lo.s32 %r0, %r1, %r2, %r3;"),
    row(No, "szext", "§9.7.1.21", "", "szext.clamp.s32 %r0, %r1, %r2;"),
    row(No, "dp4a", "§9.7.1.23", "", "dp4a.u32.u32 %r0, %r1, %r2, %r3;"),
    row(No, "dp2a", "§9.7.1.24", "", "dp2a.lo.u32.u32 %r0, %r1, %r2, %r3;"),
    row(No, "testp", "§9.7.3.1", "", "testp.finite.f32 %p0, %f0;"),
    row(No, "tanh", "§9.7.3.22", "", "tanh.approx.f32 %f0, %f1;"),
    row(No, "ex2 .f16", "§9.7.4", "the half-precision ex2", "ex2.approx.f16 %h0, %h1;"),
    // ---- bit manipulation, logic and shift
    row(Yes, "popc", "§9.7.1.14", "", "popc.b32 %r0, %r1;"),
    row(Yes, "clz", "§9.7.1.15", "", "clz.b32 %r0, %r1;"),
    row(Yes, "bfind", "§9.7.1.16", "", "bfind.u32 %r0, %r1;"),
    row(Yes, "fns", "§9.7.1.17", "", "fns.b32 %r0, %r1, %r2, %r3;"),
    row(Yes, "brev", "§9.7.1.18", "", "brev.b32 %r0, %r1;"),
    row(Yes, "bfe", "§9.7.1.19", "", "bfe.u32 %r0, %r1, %r2, %r3;"),
    row(Yes, "bfi", "§9.7.1.20", "", "bfi.b32 %r0, %r1, %r2, %r3, %r4;"),
    row(Yes, "bmsk", "§9.7.1.22", "", "bmsk.clamp.b32 %r0, %r1, %r2;"),
    row(Yes, "and", "§9.7.8.1", "", "and.b32 %r0, %r1, %r2;"),
    row(Yes, "or", "§9.7.8.2", "", "or.pred %p0, %p1, %p2;"),
    row(Yes, "xor", "§9.7.8.3", "", "xor.b64 %rd0, %rd1, %rd2;"),
    row(Yes, "not", "§9.7.8.4", "", "not.b32 %r0, %r1;"),
    row(Yes, "cnot", "§9.7.8.5", "", "cnot.b32 %r0, %r1;"),
    row(Yes, "lop3", "§9.7.8.6", "", "lop3.b32 %r0, %r1, %r2, %r3, 0x96;"),
    row(Yes, "shf", "§9.7.8.7", "", "shf.l.wrap.b32 %r0, %r1, %r2, %r3;"),
    row(Yes, "shl", "§9.7.8.8", "", "shl.b32 %r0, %r1, 3;"),
    row(Yes, "shr", "§9.7.8.9", "", "shr.s32 %r0, %r1, %r2;"),
    // ---- comparison and selection
    row(Yes, "set", "§9.7.6.1", "", "set.lt.u32.s32 %r0, %r1, %r2;"),
    row(Yes, "setp", "§9.7.6.2", "", "setp.ge.and.f32 %p0, %f0, %f1, %p1;"),
    row(Yes, "selp", "§9.7.6.3", "", "selp.b32 %r0, %r1, %r2, %p0;"),
    row(No, "slct", "§9.7.6.4", "", "slct.s32.s32 %r0, %r1, %r2, %r3;"),
    // ---- data movement and conversion
    row(Yes, "mov", "§9.7.9.3, §9.7.9.4", "registers, immediates, variable and parameter addresses, vector pack/unpack", "mov.b64 %rd0, {%r0, %r1};"),
    row(Yes, "shfl", "§9.7.9.6", "`shfl.sync` only", "shfl.sync.bfly.b32 %r0|%p0, %r1, 1, 0x1f, 0xffffffff;"),
    row(No, "shfl", "§9.7.9.5", "the deprecated `shfl` without `.sync`", "shfl.bfly.b32 %r0, %r1, 1, 0x1f;"),
    row(Yes, "prmt", "§9.7.9.7", "", "prmt.b32 %r0, %r1, %r2, 0x3210;"),
    row(Yes, "ld", "§9.7.9.8, §9.7.9.9", "every state space, vectors, .nc, .volatile/.relaxed/.acquire", "ld.global.nc.v2.u32 {%r0, %r1}, [%rd0+8];"),
    row(Yes, "st", "§9.7.9.11", "", "st.shared.v4.u32 [%r7], {%r0, %r1, %r2, %r3};"),
    row(Yes, "cvta", "§9.7.9.20", "including `cvta.param`", "cvta.to.global.u64 %rd0, %rd1;"),
    row(Yes, "cvt", "§9.7.9.21", "scalar forms; packed .f16x2 / .bf16x2 / .e4m3x2 / .e5m2x2 (with .satfinite)", "cvt.rn.f16x2.f32 %r0, %f0, %f1;"),
    row(Yes, "mapa", "§9.7.9.23", "", "mapa.shared::cluster.u32 %r0, %r1, %r2;"),
    row(Yes, "getctarank", "§9.7.9.24", "", "getctarank.shared::cluster.u32 %r0, %r1;"),
    row(No, "ldu", "§9.7.9.10", "", "ldu.global.u32 %r0, [%rd0];"),
    row(No, "st.async", "§9.7.9.12", "", "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r0], %r1, [%r2];"),
    row(No, "ld.async", "", "", "ld.async.shared::cluster.u32 %r0, [%r1];"),
    row(No, "st.bulk", "§9.7.9.13", "", "st.bulk.weak.shared::cta [%r0], 64, 0;"),
    row(No, "multimem", "§9.7.9.14", "", "multimem.ld_reduce.relaxed.sys.global.add.u32 %r0, [%rd0];"),
    row(No, "prefetch", "§9.7.9.15", "", "prefetch.global.L2 [%rd0];"),
    row(No, "prefetchu", "§9.7.9.15", "", "prefetchu.L1 [%rd0];"),
    row(No, "applypriority", "§9.7.9.16", "", "applypriority.global.L2::evict_normal [%rd0], 128;"),
    row(No, "discard", "§9.7.9.17", "", "discard.global.L2 [%rd0], 128;"),
    row(No, "createpolicy", "§9.7.9.18", "", "createpolicy.fractional.L2::evict_last.b64 %rd0, 1.0;"),
    row(No, "isspacep", "§9.7.9.19", "", "isspacep.shared %p0, %rd0;"),
    row(No, "cvt.pack", "§9.7.9.22", "", "cvt.pack.sat.u8.s32.b32 %r0, %r1, %r2, %r3;"),
    row(No, "tensormap.replace", "§9.7.9.26", "", "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r0], %rd0;"),
    // ---- asynchronous copies (PTX ISA §9.7.9.25)
    row(Yes, "cp.async", "§9.7.9.25.3", "cp-size 4/8/16, src-size, ignore-src, groups", "cp.async.ca.shared.global [%r0], [%rd0], 16;\ncp.async.commit_group;\ncp.async.wait_group 0;"),
    row(Yes, "cp.async.bulk", "§9.7.9.25.4.1", "all directions, .multicast::cluster, .cp_mask; bulk groups (§9.7.9.25.6)", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r0], [%rd0], 64, [bar];"),
    row(Yes, "cp.reduce.async.bulk", "§9.7.9.25.4.2", "", "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd0], [%r0], 64;"),
    row(Yes, "cp.async.bulk.prefetch", "§9.7.9.25.4.3, §9.7.9.25.5.4", "no architectural effect", "cp.async.bulk.prefetch.L2.global [%rd0], 64;"),
    row(Yes, "cp.async.bulk.tensor", "§9.7.9.25.5.2", "1d-5d `.tile` loads (multicast), stores and reduces; the map's swizzle (§5.5.7)", "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r0], [%rd0, {%r1, %r2}], [bar];"),
    row(Yes, "cp.async.bulk.tensor .im2col", "§9.7.9.25.5.2, §5.5.4", "`.im2col` loads, 3d-5d, with the im2col offsets", "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r0], [%rd0, {%r1, %r2, %r3}], [bar], {%h0};"),
    row(No, "cp.async.bulk.tensor .tile::gather4", "§9.7.9.25.5.2, §5.5.3.4", "`.tile::gather4` (and `.tile::scatter4` stores)", "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [%r0], [%rd0, {%r1, %r2, %r3, %r4, %r5}], [bar];"),
    row(No, "cp.async.bulk.tensor .im2col::w", "§9.7.9.25.5.2, §5.5.5", "`.im2col::w`, `.im2col::w::128` and `.im2col_no_offs`", "cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes [%r0], [%rd0, {%r1, %r2, %r3}], [bar], {%h0, %h1};"),
    row(No, "cp.async.bulk.tensor .cta_group::2", "§9.7.9.25.5.2", "`.cta_group::2`", "cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes.cta_group::2 [%r0], [%rd0, {%r1}], [bar];"),
    row(Yes, "cp.reduce.async.bulk.tensor", "§9.7.9.25.5.3", "`.tile`", "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd0, {%r1}], [%r0];"),
    // ---- control flow
    row(Yes, "bra", "§9.7.12.3", "", "bra.uni L;"),
    row(Yes, "call", "§9.7.12.5", "direct calls with .param/.reg arguments", "call f;"),
    row(No, "call (indirect)", "§9.7.12.5", "indirect calls (through a register)", "call (), %rd0, (), fproto;"),
    row(Yes, "ret", "§9.7.12.6", "", "ret;"),
    row(Yes, "exit", "§9.7.12.7", "", "exit;"),
    row(No, "brx", "§9.7.12.4", "", "brx.idx %r0, tbl;"),
    // ---- parallel synchronization and communication (PTX ISA §9.7.13)
    row(Yes, "bar", "§9.7.13.1, §9.7.13.2", "sync/arrive/red, `bar.warp.sync`", "bar.sync 0;\nbar.red.popc.u32 %r0, 1, %p0;\nbar.warp.sync 0xffffffff;"),
    row(Yes, "barrier", "§9.7.13.1, §9.7.13.3", "including `barrier.cluster`", "barrier.sync.aligned 1, 64;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;"),
    row(Yes, "membar", "§9.7.13.4", "ordering only (the model is sequentially consistent)", "membar.gl;"),
    row(Yes, "fence", "§9.7.13.4", "", "fence.acq_rel.gpu;\nfence.proxy.async.shared::cta;"),
    row(Yes, "atom", "§9.7.13.5", "every op and type, vectors", "atom.global.add.f32 %f0, [%rd0], %f1;"),
    row(Yes, "red", "§9.7.13.6", "", "red.shared.add.u32 [%r0], %r1;"),
    row(Yes, "red.async", "§9.7.13.7", "", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r0], %r1, [%r2];"),
    row(No, "red.async .release", "§9.7.13.7", "the sm_100 `.release` form", "red.async.release.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r0], %r1, [%r2];"),
    row(Yes, "vote", "§9.7.13.8, §9.7.13.9", "vote.sync; legacy vote before PTX 6.4", "vote.sync.ballot.b32 %r0, %p0, 0xffffffff;"),
    row(Yes, "match", "§9.7.13.10", "", "match.any.sync.b32 %r0, %r1, 0xffffffff;"),
    row(Yes, "activemask", "§9.7.13.11", "", "activemask.b32 %r0;"),
    row(Yes, "redux", "§9.7.13.12", "integer and f32 (.abs, .NaN)", "redux.sync.add.u32 %r0, %r1, 0xffffffff;"),
    row(Yes, "griddepcontrol", "§9.7.13.13", "", "griddepcontrol.wait;"),
    row(Yes, "elect", "§9.7.13.14", "", "elect.sync %r0|%p0, 0xffffffff;"),
    row(Yes, "mbarrier", "§9.7.13.15", "init, inval, expect_tx, complete_tx, arrive, arrive_drop, test_wait, try_wait, pending_count", "mbarrier.init.shared::cta.b64 [bar], 32;\nmbarrier.arrive.expect_tx.shared::cta.b64 %rd0, [bar], 64;\nmbarrier.try_wait.parity.shared::cta.b64 %p0, [bar], 0;"),
    row(Yes, "cp.async.mbarrier.arrive", "§9.7.13.15.15", "", "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];"),
    row(Yes, "tensormap", "§9.7.13.16", "`tensormap.cp_fenceproxy` only", "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd0], [%r0], 128;"),
    row(Yes, "clusterlaunchcontrol", "§9.7.13.17, §9.7.13.18", "try_cancel (always fails: nothing to cancel), query_cancel", "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%r0], [bar];"),
    // ---- texture, surface, matrix, stack, video and miscellaneous instructions
    row(No, "tex", "§9.7.10", "texture instructions (also tld4, txq, istypep)", "tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [%rd0, {%r0}];"),
    row(No, "tld4", "§9.7.10", "", "tld4.r.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd0, {%f0, %f1}];"),
    row(No, "txq", "§9.7.10", "", "txq.width.b32 %r0, [%rd0];"),
    row(No, "istypep", "§9.7.10", "", "istypep.texref %p0, %rd0;"),
    row(No, "suld", "§9.7.11", "surface instructions (also sust, sured, suq)", "suld.b.1d.b32.trap {%r0}, [%rd0, {%r1}];"),
    row(No, "sust", "§9.7.11", "", "sust.b.1d.b32.trap [%rd0, {%r1}], {%r0};"),
    row(No, "sured", "§9.7.11", "", "sured.b.add.1d.u32.trap [%rd0, {%r1}], %r0;"),
    row(No, "suq", "§9.7.11", "", "suq.width.b32 %r0, [%rd0];"),
    row(No, "wmma", "§9.7.14", "warp-level matrix instructions (also mma, ldmatrix, stmatrix, movmatrix)", "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r0, %r1}, [%rd0];"),
    row(No, "mma", "§9.7.14", "", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2}, {%f0, %f1, %f2, %f3};"),
    row(No, "ldmatrix", "§9.7.14", "", "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%r1];"),
    row(No, "stmatrix", "§9.7.14", "", "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r1], {%r0};"),
    row(No, "movmatrix", "§9.7.14", "", "movmatrix.sync.aligned.m8n8.trans.b16 %r0, %r1;"),
    row(No, "wgmma", "§9.7.15", "", "wgmma.fence.sync.aligned;"),
    row(No, "tcgen05", "§9.7.16", "", "tcgen05.fence::before_thread_sync;"),
    row(No, "stacksave", "§9.7.17.1", "", "stacksave.u64 %rd0;"),
    row(No, "stackrestore", "§9.7.17.2", "", "stackrestore.u64 %rd0;"),
    row(No, "alloca", "§9.7.17.3", "", "alloca.u64 %rd0, %rd1;"),
    row(No, "vadd", "§9.7.18", "video instructions (every scalar and SIMD form)", "vadd.s32.s32.s32 %r0, %r1, %r2;"),
    row(No, "vsub", "§9.7.18", "", "vsub.s32.s32.s32 %r0, %r1, %r2;"),
    row(No, "vabsdiff", "§9.7.18", "", "vabsdiff.s32.s32.s32 %r0, %r1, %r2;"),
    row(No, "vmin", "§9.7.18", "", "vmin.s32.s32.s32 %r0, %r1, %r2;"),
    row(No, "vmax", "§9.7.18", "", "vmax.s32.s32.s32 %r0, %r1, %r2;"),
    row(No, "vshl", "§9.7.18", "", "vshl.u32.u32.u32.clamp %r0, %r1, %r2;"),
    row(No, "vshr", "§9.7.18", "", "vshr.u32.u32.u32.clamp %r0, %r1, %r2;"),
    row(No, "vmad", "§9.7.18", "", "vmad.s32.s32.s32 %r0, %r1, %r2, %r3;"),
    row(No, "vset", "§9.7.18", "", "vset.s32.s32.eq %r0, %r1, %r2;"),
    row(No, "vadd2", "§9.7.18", "", "vadd2.s32.s32.s32 %r0, %r1, %r2, %r3;"),
    row(No, "vabsdiff2", "§9.7.18", "", "vabsdiff2.s32.s32.s32 %r0, %r1, %r2, %r3;"),
    row(No, "vadd4", "§9.7.18", "", "vadd4.s32.s32.s32 %r0, %r1, %r2, %r3;"),
    row(No, "vabsdiff4", "§9.7.18", "", "vabsdiff4.s32.s32.s32 %r0, %r1, %r2, %r3;"),
    row(No, "brkpt", "§9.7.19.1", "", "brkpt;"),
    row(Yes, "nanosleep", "§9.7.19.2", "", "nanosleep.u32 100;"),
    row(No, "pmevent", "§9.7.19.3", "", "pmevent 1;"),
    row(No, "trap", "§9.7.19.4", "", "trap;"),
    row(No, "setmaxnreg", "§9.7.19.5", "", "setmaxnreg.inc.sync.aligned.u32 64;"),
];

/// Whether the table knows `opcode` as an instruction smsync decodes in some form.
pub fn decodes(opcode: &str) -> bool {
    FORMS.iter().any(|f| f.support == Support::Yes && f.opcode() == opcode)
}

/// Whether a statement with opcode `name` and full dotted name `full` is a form the table lists
/// as not supported: by its opcode, or by a dotted prefix of its full name.
pub fn refused(name: &str, full: &str) -> bool {
    FORMS
        .iter()
        .filter(|f| f.support == Support::No && !f.name.contains(' '))
        .any(|f| f.name == name || prefix(f.name, full))
}

/// Whether `full` is a form of an otherwise decoded opcode that the table refuses by its dotted
/// prefix (`st.async` of `st`): checked before the opcode's decoder sees it.
pub fn refused_form(full: &str) -> bool {
    FORMS.iter().filter(|f| f.support == Support::No && !f.name.contains(' ')).any(|f| prefix(f.name, full))
}

fn prefix(row: &str, full: &str) -> bool {
    row.contains('.') && (full == row || full.strip_prefix(row).is_some_and(|rest| rest.starts_with('.')))
}
