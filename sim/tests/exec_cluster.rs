//! PTX programs run end to end (parsed text, golden units) for the cluster-level and late-added
//! instructions: cluster special registers, `mapa`/`getctarank`, `%globaltimer`, red.async,
//! barrier.cluster with mbarrier-init fences, griddepcontrol, tensormap.cp_fenceproxy and the
//! tensormap acquire fence, clusterlaunchcontrol.

use smsync_sim::config::Config;
use smsync_sim::exec::{run, Launch, RunOptions, RunResult};
use smsync_sim::units::GoldenUnits;

/// A config whose clusters have two CTAs (cta_slots a multiple of it).
pub fn cluster2() -> Config {
    Config { cluster_size: 2, cta_slots: 4, ..Config::default() }
}

pub fn run_ptx(ptx: &str, launch_yaml: &str, cfg: &Config) -> Result<RunResult, String> {
    let m = smsync_sim::ptx::parse(ptx, "k.ptx").map_err(|e| e.to_string())?;
    let l = Launch::from_yaml(launch_yaml).map_err(|e| e.to_string())?;
    let mut u = GoldenUnits::new(cfg);
    run(&m, &l, cfg, &mut u, RunOptions { max_steps: 2_000_000, ..RunOptions::default() }).map_err(|e| e.to_string())
}

/// Each CTA of a 4-CTA grid in clusters of 2 writes its cluster coordinates, then reads its
/// partner's shared variable through `mapa` + `ld.shared::cluster` after a cluster barrier, and
/// asks `getctarank` which CTA holds the mapped address.
#[test]
fn cluster_special_registers_mapa_and_getctarank() {
    let ptx = r#"
.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .u32 sv;
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %tid.x;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 bra SKIP;
    mul.lo.u32 %r3, %r1, 100;
    st.shared.u32 [sv], %r3;
SKIP:
    barrier.cluster.arrive;
    barrier.cluster.wait;
    @%p1 bra DONE;
    mul.wide.u32 %rd2, %r1, 32;
    add.u64 %rd2, %rd1, %rd2;
    mov.u32 %r4, %cluster_ctaid.x;
    st.global.u32 [%rd2], %r4;
    mov.u32 %r5, %clusterid.x;
    st.global.u32 [%rd2+4], %r5;
    mov.u32 %r6, %cluster_nctaid.x;
    st.global.u32 [%rd2+8], %r6;
    mov.u32 %r7, %nclusterid.x;
    st.global.u32 [%rd2+12], %r7;
    mov.u32 %r8, %cluster_ctarank;
    xor.b32 %r9, %r8, 1;
    mov.u32 %r10, sv;
    mapa.shared::cluster.u32 %r11, %r10, %r9;
    ld.shared::cluster.u32 %r12, [%r11];
    st.global.u32 [%rd2+16], %r12;
    getctarank.shared::cluster.u32 %r13, %r11;
    st.global.u32 [%rd2+20], %r13;
    // generic form: cvta the own variable, map it to the partner, read through a generic ld
    mov.u64 %rd3, sv;
    cvta.shared.u64 %rd4, %rd3;
    mapa.u64 %rd5, %rd4, %r9;
    ld.u32 %r14, [%rd5];
    st.global.u32 [%rd2+24], %r14;
    getctarank.u64 %r15, %rd4;
    st.global.u32 [%rd2+28], %r15;
DONE:
    barrier.cluster.arrive;
    barrier.cluster.wait;
    ret;
}
"#;
    let yaml = "grid: [4, 1, 1]\nblock: [32, 1, 1]\ncluster: [2, 1, 1]\nbuffers:\n  out: {type: u32, len: 32}\nparams: [out]\n";
    let res = run_ptx(ptx, yaml, &cluster2()).unwrap();
    let got = res.bits("out").unwrap();
    for cta in 0..4u64 {
        let row = &got[cta as usize * 8..cta as usize * 8 + 8];
        let partner = cta ^ 1;
        assert_eq!(row, &[cta % 2, cta / 2, 2, 2, partner * 100, (cta % 2) ^ 1, partner * 100, cta % 2], "CTA {cta}");
    }
}

/// mapa to a rank outside the cluster is an error naming the instruction, not a wild address.
#[test]
fn mapa_rank_outside_the_cluster_is_reported() {
    let ptx = r#"
.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .u32 sv;
.visible .entry k()
{
    .reg .b32 %r<4>;
    mov.u32 %r1, sv;
    mapa.shared::cluster.u32 %r2, %r1, 2;
    ret;
}
"#;
    let e = run_ptx(ptx, "grid: [2, 1, 1]\nblock: [32, 1, 1]\ncluster: [2, 1, 1]\n", &cluster2()).unwrap_err();
    assert!(e.contains("target CTA rank 2 is not in the cluster (2 CTAs)") && e.contains("k.ptx:10"), "{e}");
}

/// `%globaltimer` is a deterministic, increasing nanosecond clock; `_lo`/`_hi` are its halves.
#[test]
fn globaltimer_is_deterministic_and_increasing() {
    let ptx = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u64 %rd2, %globaltimer;
    add.u64 %rd5, %rd5, 1;
    add.u64 %rd5, %rd5, 1;
    mov.u64 %rd3, %globaltimer;
    mov.u32 %r1, %globaltimer_lo;
    mov.u32 %r2, %globaltimer_hi;
    st.global.u64 [%rd1], %rd2;
    st.global.u64 [%rd1+8], %rd3;
    st.global.u32 [%rd1+16], %r1;
    st.global.u32 [%rd1+20], %r2;
    ret;
}
"#;
    let yaml = "block: [32, 1, 1]\nbuffers:\n  out: {type: u64, len: 3}\nparams: [out]\n";
    let a = run_ptx(ptx, yaml, &Config::default()).unwrap().bits("out").unwrap();
    let b = run_ptx(ptx, yaml, &Config::default()).unwrap().bits("out").unwrap();
    assert_eq!(a, b, "same program, same clock readings");
    let ns = smsync_sim::exec::GLOBALTIMER_NS_PER_STEP;
    // the clock advances once per warp-instruction (the two adds and the second mov in between)
    assert_eq!(a[1] - a[0], 3 * ns, "three warp-instructions between the two readings");
    assert_eq!(a[2] & 0xffff_ffff, a[1] + ns, "%globaltimer_lo one instruction later");
    assert_eq!(a[2] >> 32, 0, "%globaltimer_hi of a small count");
}

/// The red.async kernel: every CTA of a cluster of two inits an mbarrier expecting `32 * size`
/// transaction bytes, publishes it with fence.mbarrier_init + barrier.cluster, then its warp
/// reduces `tid + 1` into the *partner* CTA's counter with red.async, which signals the partner's
/// mbarrier. Each CTA waits for its own phase and stores its counter. `target`/`mbar_rank` pick
/// the ranks (relative: 1 = partner, 0 = own) for the UB variants.
fn red_async_kernel(ty: &str, size: u32, target: &str, mbar_rank: &str) -> String {
    let (reg, wide) = if ty == "u64" { ("%rd", "cvt.u64.u32 %rd9, %r1;") } else { ("%r", "mov.u32 %r9, %r1;") };
    format!(
        r#"
.version 8.0
.target sm_90
.address_size 64
.shared .align 8 .b64 mb;
.shared .align 8 .{ty} cnt;
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<16>;
    .reg .b64 %rd<16>;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra PUBLISH;
    mbarrier.init.shared.b64 [mb], 1;
    fence.mbarrier_init.release.cluster;
PUBLISH:
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    @%p1 bra REDUCE;
    mbarrier.arrive.expect_tx.shared.b64 %rd2, [mb], {tx};
REDUCE:
    mov.u32 %r2, %cluster_ctarank;
    xor.b32 %r3, %r2, {target};
    xor.b32 %r4, %r2, {mbar_rank};
    mov.u32 %r5, cnt;
    mov.u32 %r6, mb;
    mapa.shared::cluster.u32 %r7, %r5, %r3;
    mapa.shared::cluster.u32 %r8, %r6, %r4;
    add.u32 %r1, %r1, 1;
    {wide}
    red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.{ty} [%r7], {reg}9, [%r8];
    @%p1 bra DONE;
WAIT:
    mbarrier.try_wait.parity.shared.b64 %p2, [mb], 0;
    @!%p2 bra WAIT;
    ld.shared.{ty} {reg}10, [cnt];
    mul.wide.u32 %rd11, %r2, 8;
    add.u64 %rd11, %rd1, %rd11;
    st.global.{ty} [%rd11], {reg}10;
DONE:
    barrier.cluster.arrive;
    barrier.cluster.wait;
    ret;
}}
"#,
        tx = 32 * size
    )
}

const RED_ASYNC_LAUNCH: &str =
    "grid: [2, 1, 1]\nblock: [32, 1, 1]\ncluster: [2, 1, 1]\nbuffers:\n  out: {type: u64, len: 2}\nparams: [out]\n";

/// Item 44: red.async performs complete_tx(4) for 32-bit types and complete_tx(8) for .u64 on the
/// target mbarrier: each CTA's phase (expecting 32 x 4 or 32 x 8 bytes) completes exactly when the
/// partner's 32 reductions have landed, and the counter holds 1 + ... + 32.
#[test]
fn c044_red_async_completes_tx_4_or_8_bytes_on_the_target_mbarrier() {
    for (ty, size) in [("u32", 4), ("s32", 4), ("u64", 8)] {
        let res = run_ptx(&red_async_kernel(ty, size, "1", "1"), RED_ASYNC_LAUNCH, &cluster2())
            .unwrap_or_else(|e| panic!("{ty}: {e}"));
        let got = res.bits("out").unwrap();
        // u32 results are stored in the low half of each u64 slot
        assert_eq!(got, vec![528, 528], "{ty}: 1 + 2 + ... + 32 in both CTAs");
    }
    // a wrong byte count would leave the phase incomplete: with expect_tx of 32 x 8 for a u32
    // reduction the waits never succeed and the run stops
    let e = run_ptx(&red_async_kernel("u32", 8, "1", "1"), RED_ASYNC_LAUNCH, &cluster2()).unwrap_err();
    assert!(e.contains("step limit") || e.contains("deadlock"), "{e}");
}

/// Item 97: red.async whose target is in the executing CTA, or whose `a` and `mbar` are in
/// different CTAs, is UB and reported with the rule and the instruction.
#[test]
fn c097_red_async_target_in_own_cta_or_split_across_ctas_is_ub() {
    for (target, mbar) in [("0", "0"), ("1", "0"), ("0", "1")] {
        let e = run_ptx(&red_async_kernel("u32", 4, target, mbar), RED_ASYNC_LAUNCH, &cluster2()).unwrap_err();
        assert!(
            e.contains("red.async target in the executing CTA")
                && e.contains("item 97")
                && e.contains("red.async.relaxed"),
            "{target}/{mbar}: {e}"
        );
    }
}

/// Items 35, 36, 63, 117 end to end (orderings are trivially satisfied by the sequentially
/// consistent model; this checks the pattern runs and gives the right result): every CTA of a
/// cluster of two inits its mbarrier for 2 arrivals and 8 tx bytes, publishes it with
/// fence.mbarrier_init.release.cluster + barrier.cluster (default .release arrive / .acquire wait),
/// then arrives locally (default .release.cta) and remotely on the partner's mbarrier, and
/// completes 8 bytes of the partner's tx with a relaxed complete_tx. Each phase completes only
/// when both arrivals and both tx operations have happened.
#[test]
fn c035_c036_c063_c117_remote_arrive_after_mbarrier_init_fence_and_cluster_barrier() {
    let ptx = r#"
.version 8.0
.target sm_90
.address_size 64
.shared .align 8 .b64 mb;
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra PUBLISH;
    mbarrier.init.shared.b64 [mb], 2;
    mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [mb], 8;
    fence.mbarrier_init.release.cluster;
PUBLISH:
    barrier.cluster.arrive;
    barrier.cluster.wait;
    @%p1 bra DONE;
    mov.u32 %r2, %cluster_ctarank;
    xor.b32 %r3, %r2, 1;
    mov.u32 %r4, mb;
    mapa.shared::cluster.u32 %r5, %r4, %r3;
    mbarrier.arrive.shared.b64 %rd2, [mb];
    mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r5];
    mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%r5], 8;
WAIT:
    mbarrier.try_wait.parity.shared.b64 %p2, [mb], 0;
    @!%p2 bra WAIT;
    mov.u32 %r7, %ctaid.x;
    mul.wide.u32 %rd3, %r7, 4;
    add.u64 %rd3, %rd1, %rd3;
    add.u32 %r6, %r2, 10;
    st.global.u32 [%rd3], %r6;
DONE:
    barrier.cluster.arrive.relaxed;
    barrier.cluster.wait.acquire;
    ret;
}
"#;
    let yaml =
        "grid: [4, 1, 1]\nblock: [64, 1, 1]\ncluster: [2, 1, 1]\nbuffers:\n  out: {type: u32, len: 4}\nparams: [out]\n";
    for seed in [None, Some(1), Some(7)] {
        let m = smsync_sim::ptx::parse(ptx, "k.ptx").unwrap();
        let l = Launch::from_yaml(yaml).unwrap();
        let cfg = cluster2();
        let mut u = GoldenUnits::new(&cfg);
        let res = run(&m, &l, &cfg, &mut u, RunOptions { seed, max_steps: 2_000_000, ..RunOptions::default() })
            .unwrap_or_else(|e| panic!("seed {seed:?}: {e}"));
        assert_eq!(res.bits("out").unwrap(), vec![10, 11, 10, 11], "seed {seed:?}");
    }
}

/// Item 118: griddepcontrol.launch_dependents issued several times has the effect of issuing it
/// once: the same program with it once and three times (by every thread) yields the same buffers.
#[test]
fn c118_launch_dependents_repeated_equals_once() {
    let kernel = |times: usize| {
        format!(
            r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    griddepcontrol.wait;
    mov.u32 %r1, %tid.x;
    {dep}
    mul.lo.u32 %r2, %r1, 3;
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd2, %rd1, %rd2;
    st.global.u32 [%rd2], %r2;
    {dep}
    ret;
}}
"#,
            dep = "griddepcontrol.launch_dependents;\n    ".repeat(times)
        )
    };
    let yaml = "grid: [2, 1, 1]\nblock: [64, 1, 1]\nbuffers:\n  out: {type: u32, len: 64}\nparams: [out]\n";
    let once = run_ptx(&kernel(1), yaml, &Config::default()).unwrap().bits("out").unwrap();
    let thrice = run_ptx(&kernel(3), yaml, &Config::default()).unwrap().bits("out").unwrap();
    assert_eq!(once, thrice);
    assert_eq!(once, (0..64).map(|t| t * 3).collect::<Vec<u64>>());
}

const TMAP_KERNEL: &str = r#"
.version 8.3
.target sm_90
.address_size 64
.shared .align 128 .b8 smap[128];
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    // threads 0..31 each write 4 bytes of the 128-byte map in shared memory
    mul.lo.u32 %r2, %r1, 4;
    mov.u32 %r3, smap;
    add.u32 %r3, %r3, %r2;
    mad.lo.u32 %r4, %r1, 16843009, 1;
    st.shared.u32 [%r3], %r4;
    bar.sync 0;
    tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [smap], 128;
    FENCE
    ret;
}
"#;

/// Item 115: tensormap.cp_fenceproxy copies the 128 bytes from shared::cta to global (and the
/// matching acquire fence on the global address runs).
#[test]
fn c115_tensormap_cp_fenceproxy_copies_128_bytes_to_global() {
    let ptx = TMAP_KERNEL.replace("FENCE", "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;");
    let yaml = "block: [32, 1, 1]\nbuffers:\n  out: {type: u32, len: 40, data: [0]}\nparams: [out]\n";
    let got = run_ptx(&ptx, yaml, &Config::default()).unwrap().bits("out").unwrap();
    for i in 0..32u64 {
        assert_eq!(got[i as usize], (i * 0x0101_0101 + 1) & 0xffff_ffff, "word {i}");
    }
    assert_eq!(&got[32..], &[0; 8], "nothing beyond the 128 bytes");
}

/// Item 116: fence.proxy.tensormap::generic.acquire on an address that is not global is UB.
#[test]
fn c116_tensormap_acquire_fence_on_a_shared_address_is_ub() {
    let ptx = TMAP_KERNEL.replace("FENCE", "mov.u64 %rd2, smap;\n    cvta.shared.u64 %rd3, %rd2;\n    fence.proxy.tensormap::generic.acquire.gpu [%rd3], 128;");
    let yaml = "block: [32, 1, 1]\nbuffers:\n  out: {type: u32, len: 32}\nparams: [out]\n";
    let e = run_ptx(&ptx, yaml, &Config::default()).unwrap_err();
    assert!(
        e.contains("needs a global address") && e.contains("item 116") && e.contains("fence.proxy.tensormap"),
        "{e}"
    );
}

const CLC_KERNEL: &str = r#"
.version 8.6
.target sm_100a
.address_size 64
.shared .align 8 .b64 mb;
.shared .align 16 .b8 resp[16];
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    .reg .b128 %q1;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [out];
    mov.u64 %rd5, -1;
    st.shared.v2.u64 [resp], {%rd5, %rd5};
    mbarrier.init.shared.b64 [mb], 1;
    mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 %rd2, [mb], 16;
    clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [resp], [mb];
WAIT:
    mbarrier.try_wait.parity.shared.b64 %p1, [mb], 0;
    @!%p1 bra WAIT;
    ld.shared.v2.u64 {%rd3, %rd4}, [resp];
    st.global.u64 [%rd1], %rd3;
    st.global.u64 [%rd1+8], %rd4;
    ld.shared.b128 %q1, [resp];
    clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p2, %q1;
    selp.u64 %rd6, 7, 9, %p2;
    st.global.u64 [%rd1+16], %rd6;
    QUERY
    ret;
}
"#;

/// Item 45: try_cancel (which always fails here: no cluster is ever waiting to launch) writes its
/// 16-byte failed response over the old bytes and performs complete_tx(16), completing a phase
/// that expects exactly 16 bytes; query_cancel.is_canceled says false.
#[test]
fn c045_try_cancel_writes_a_failed_response_then_complete_tx_16() {
    let yaml = "block: [1, 1, 1]\nbuffers:\n  out: {type: u64, len: 3}\nparams: [out]\n";
    let got = run_ptx(&CLC_KERNEL.replace("QUERY", ""), yaml, &Config::default()).unwrap().bits("out").unwrap();
    assert_eq!(got, vec![0, 0, 9], "response overwritten with the failed (zero) response; is_canceled = false");
    // get_first_ctaid on a failed response is UB
    let q = CLC_KERNEL.replace("QUERY", "clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %r1, %q1;");
    let e = run_ptx(&q, yaml, &Config::default()).unwrap_err();
    assert!(e.contains("get_first_ctaid on a failed try_cancel response") && e.contains("item 45"), "{e}");
}
