//! Cluster-level PTX run end to end (parsed text, golden units): cluster special registers, `mapa`
//! and `getctarank`, `%globaltimer`, red.async, barrier.cluster and mbarrier-init fences.

use smsync_sim::config::Config;
use smsync_sim::exec::{run, Launch, RunOptions, RunResult};
use smsync_sim::units::GoldenUnits;

/// A config whose clusters have two CTAs (cta_slots a multiple of it).
pub fn cluster2() -> Config {
    let mut c = Config::default();
    c.cluster_size = 2;
    c.cta_slots = 4;
    c
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
        assert_eq!(row, &[cta % 2, cta / 2, 2, 2, partner * 100, cta % 2 ^ 1, partner * 100, cta % 2], "CTA {cta}");
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
