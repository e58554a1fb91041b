//! Random legal request streams for the `sync_unit` top, one per unit, each sent to the
//! Verilated top and to `GoldenUnits` and compared response by response (matched by tag:
//! values, preds, lanes, errors); after them, global memory and both CTA slots' shared memory
//! (read back through the top's own ld.shared) against the golden memory. Named barriers (with
//! divergent warps' partial arrivals), mbarrier, the warp network, the LSU (with lanes onto live
//! and dead mbarrier objects), the atomic ALU (every legal op and type, scalar and vector,
//! shared::cta and global, conflicting lanes) and the copy engine (cp.async with groups and
//! wait_group, bulk shared -> global with bulk groups).
//!
//! Used by the `top_random` test (`testbench/tests/top_random.rs`) and as a check of
//! `smsync mutate` ([`run_streams`]: a mutant that makes any stream differ is killed). A
//! difference panics with the seed and the request (the test's report); [`run_streams`] turns
//! it into an error.
//!
//! Not covered here: bulk and tensor loads into shared memory with mbarrier completion (the
//! corpus under cosim and `hdl/tests/copy_engine.rs` cover them), suspending try_waits,
//! divergent rendezvous and warp exits (the corpus and the fuzzer under cosim), >8-byte
//! ld/st.shared.

use crate::rtl_unit::{RtlOptions, RtlSyncUnit};
use smsync_sim::config::Config;
use smsync_sim::encoding::{flags, AtomOp, DataType, ErrorCode, Op, Space};
use smsync_sim::memory::MemorySystem;
use smsync_sim::units::{GoldenUnits, Request, Response, SyncUnit, WARP};
use smsync_testkit::Rng;

/// Every unit's stream of `count` requests on one seed, then the memories compared: what the
/// `top_random` test runs per seed. `progress` is told each stream's name as it ends.
pub fn all_streams(p: &mut StreamPair, seed: u64, count: usize, mut progress: impl FnMut(&str)) {
    let mut rng = Rng::new(seed);
    let mut tag = 1u64;
    barrier_stream(p, &mut rng, count, &mut tag);
    progress("barrier");
    mbarrier_stream(p, &mut rng, count, &mut tag);
    progress("mbarrier");
    warp_network_stream(p, &mut rng, count, &mut tag);
    progress("warp network");
    lsu_stream(p, &mut rng, count, &mut tag);
    progress("lsu");
    atomic_stream(p, &mut rng, count, &mut tag);
    progress("atomic");
    assert!(p.mem.global.bytes == p.rtl_mem.global.bytes, "seed {seed}: global memory differs after the atomic stream");
    copy_stream(p, &mut rng, count, &mut tag);
    progress("copy");
    p.compare_shared_memory(&mut tag);
}

/// [`all_streams`] on a fresh pair, a difference (a panic of the comparison) returned as the
/// error: (requests, RTL cycles) when every stream matched.
pub fn run_streams(cfg: &Config, seed: u64, count: usize, options: &RtlOptions) -> Result<(usize, u64), String> {
    let mut p = StreamPair::new(cfg, seed, options)?;
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| all_streams(&mut p, seed, count, |_| {})));
    match run {
        Ok(()) => Ok((p.submitted, p.rtl.cycle())),
        Err(e) => Err(e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "the stream panicked".into())),
    }
}

/// mbarrier objects live below this shared offset, plain ld/st traffic above it, but for one
/// request in ten of the LSU stream, which sends a lane into it (PTX ISA §9.7.13.15: a plain
/// access to a live object is refused, `MbarrierPlainAccess`).
const MBAR_REGION: u64 = 0x100;

/// Both backends with the golden memory; every request goes to both and the responses must be
/// equal as sets (a barrier release answers several warps, in arrival order in the golden model
/// and in warp order in the RTL).
pub struct StreamPair {
    pub cfg: Config,
    pub golden: GoldenUnits,
    pub mem: MemorySystem,
    /// Global memory as the RTL's ports see it (the golden units write `mem` directly).
    pub rtl_mem: MemorySystem,
    pub rtl: RtlSyncUnit,
    pub seed: u64,
    pub submitted: usize,
}

impl StreamPair {
    /// Both backends for `cfg`, the RTL built with `options` (its `rtl_dir`: a mutated netlist
    /// under `smsync mutate`).
    pub fn new(cfg: &Config, seed: u64, options: &RtlOptions) -> Result<StreamPair, String> {
        Ok(StreamPair {
            cfg: cfg.clone(),
            golden: GoldenUnits::new(cfg),
            mem: MemorySystem::new(4096, cfg.cta_slots as usize, cfg.shared_bytes as usize),
            rtl_mem: MemorySystem::new(4096, cfg.cta_slots as usize, cfg.shared_bytes as usize),
            rtl: RtlSyncUnit::new(cfg, options)?,
            seed,
            submitted: 0,
        })
    }

    pub fn launch(&mut self, slot: u16, warps: u16) {
        // As the executor does (exec/machine.rs): a CTA starts with zeroed shared memory. The
        // RTL top clears the slot's shared memory itself at launch.
        self.mem.shared[slot as usize].bytes.fill(0);
        self.golden.launch_cta(slot, warps, warps as u32 * 32);
        let mut out = Vec::new();
        self.rtl.launch_cta(slot, warps, &mut self.mem, &mut out);
        assert!(out.is_empty(), "seed {}: launch answered {out:?}", self.seed);
    }

    pub fn submit(&mut self, req: &Request) -> Vec<Response> {
        let mut g = Vec::new();
        self.golden.submit(req, &mut self.mem, &mut g);
        self.rtl_submit_and_compare(req, &mut g);
        g
    }

    /// The RTL's answers to `req` (run until idle) must equal `golden`'s as a set (sorted by tag,
    /// CTA, warp, lanes; `golden` is left sorted).
    fn rtl_submit_and_compare(&mut self, req: &Request, golden: &mut [Response]) {
        let mut r = Vec::new();
        if let Err(e) = self.rtl.submit(req, &mut self.rtl_mem, &mut r) {
            panic!("seed {}: request #{} {req:?}: {e}", self.seed, self.submitted);
        }
        let key = |x: &Response| (x.tag, x.cta, x.warp, x.lanes);
        golden.sort_by_key(key);
        r.sort_by_key(key);
        if r != golden {
            panic!(
                "seed {} (replay: SMSYNC_TOP_SEEDS={}): request #{} differs\n  request: {req:?}\n  RTL:    {r:?}\n  golden: {golden:?}",
                self.seed, self.seed, self.submitted
            );
        }
        self.submitted += 1;
    }

    /// For asynchronous ops: the golden model's copies land at once (`tick(idle)` before and
    /// after the request, as the cosim does), the RTL runs until it is idle (every copy landed,
    /// every wait answered); then the two sets of responses must be equal.
    /// Returns the answers (the RTL's, equal to the golden model's).
    pub fn submit_async(&mut self, req: &Request) -> Vec<Response> {
        let mut g = Vec::new();
        self.golden.tick(&mut self.mem, true, &mut g);
        self.golden.submit(req, &mut self.mem, &mut g);
        self.golden.tick(&mut self.mem, true, &mut g);
        self.rtl_submit_and_compare(req, &mut g);
        g
    }

    /// Read both CTA slots' whole shared memory back through the top's ld.shared (8 bytes a
    /// lane) and compare it with the golden memory (mbarrier objects inval'ed first).
    pub fn compare_shared_memory(&mut self, tag: &mut u64) {
        let bytes = self.cfg.shared_bytes as u64;
        // A live mbarrier may not be read by ld.shared (PTX ISA §9.7.13.15): inval every word of
        // the mbarrier region first, on both sides (a dead one's inval is refused alike).
        for slot in 0..self.cfg.cta_slots as u16 {
            for o in 0..MBAR_REGION / 8 {
                let mut inval = Request::new(*tag, slot, 0, Op::MbInval);
                *tag += 1;
                inval.active_mask = 1;
                inval.lanes[0].addr = 8 * o;
                self.submit(&inval);
            }
        }
        for slot in 0..self.cfg.cta_slots as u16 {
            let mut base = 0;
            while base < bytes {
                let mut ld = Request::new(*tag, slot, 0, Op::LdShared);
                *tag += 1;
                ld.imm = 8;
                ld.active_mask = 0;
                for l in 0..WARP {
                    let a = base + 8 * l as u64;
                    if a + 8 <= bytes {
                        ld.lanes[l].addr = a;
                        ld.active_mask |= 1 << l;
                    }
                }
                let mut r = Vec::new();
                self.rtl.submit(&ld, &mut self.rtl_mem, &mut r).unwrap();
                assert_eq!(r.len(), 1, "seed {}: read-back answered {r:?}", self.seed);
                for l in ld.active_lanes() {
                    let want = self.mem.read_shared(slot as usize, ld.lanes[l].addr, 8).unwrap();
                    assert_eq!(
                        r[0].values[l], want,
                        "seed {}: shared memory of slot {slot} at {:#x} differs (RTL {:#x}, golden {want:#x})",
                        self.seed, ld.lanes[l].addr, r[0].values[l]
                    );
                }
                base += 8 * WARP as u64;
            }
        }
    }
}

pub fn full(tag: u64, cta: u16, warp: u16, op: Op) -> Request {
    Request::new(tag, cta, warp, op)
}

// ---------------------------------------------------------------- named barriers

/// bar.sync / bar.arrive / bar.red.* on a few barrier ids, from converged warps and from
/// divergent ones (a request of some of the warp's lanes: PTX ISA §9.7.13.1, the warp counts once
/// all its live lanes have arrived), and barrier.cluster.arrive / .wait (one-CTA clusters; the
/// cluster barrier counts warps: a part's arrive arrives the warp, a second part's is refused,
/// each part's wait blocks until the round completes), from lanes that are not blocked; when every lane of every warp is blocked
/// the CTA is relaunched on both sides.
pub fn barrier_stream(p: &mut StreamPair, rng: &mut Rng, n: usize, tag: &mut u64) {
    let warps = p.cfg.max_warps_per_cta as u16;
    let slots = p.cfg.cta_slots as u16;
    for s in 0..slots {
        p.launch(s, warps);
    }
    // blocked[slot][warp] = the warp's lanes waiting at some barrier
    let mut blocked = vec![vec![0u32; warps as usize]; slots as usize];
    let mut partial = 0;
    for _ in 0..n {
        let slot = rng.below(slots as u64) as u16;
        let free: Vec<u16> = (0..warps).filter(|&w| blocked[slot as usize][w as usize] != u32::MAX).collect();
        if free.is_empty() {
            p.launch(slot, warps);
            blocked[slot as usize].fill(0);
            continue;
        }
        let warp = free[rng.below(free.len() as u64) as usize];
        let free_lanes = !blocked[slot as usize][warp as usize];
        let converged = free_lanes == u32::MAX && !rng.chance(3);
        // (a part of a divergent warp sends every op too: PTX ISA §9.7.13.1 and §9.7.13.3)
        let ops = [
            Op::BarSync,
            Op::BarSync,
            Op::BarArrive,
            Op::BarRedPopc,
            Op::BarRedAnd,
            Op::BarRedOr,
            Op::BarClusterArrive,
            Op::BarClusterWait,
        ];
        let op = ops[rng.below(ops.len() as u64) as usize];
        let mut r = full(*tag, slot, warp, op);
        *tag += 1;
        if !converged {
            // some of the free lanes: often all of them (the warp's last lanes arrive)
            r.active_mask = if rng.chance(2) { free_lanes } else { free_lanes & rng.below(1 << 32) as u32 };
            if r.active_mask == 0 {
                r.active_mask = 1 << free_lanes.trailing_zeros();
            }
            partial += 1;
        }
        r.imm = rng.below(4) as u32;
        if rng.chance(200) {
            r.imm = 16 + rng.below(8) as u32; // out of range
        }
        if op == Op::BarArrive || rng.chance(2) {
            r.flags |= flags::HAS_COUNT;
            r.imm2 = 32 * (1 + rng.below(warps as u64)) as u32;
            if rng.chance(100) {
                r.imm2 = 16; // not a warp multiple
            }
        }
        if rng.chance(3) {
            r.flags |= flags::NEGATE;
        }
        for l in 0..WARP {
            r.lanes[l].a = rng.below(2) as u128;
        }
        let resp = p.submit(&r);
        let answered_self = resp.iter().any(|x| x.tag == r.tag);
        if !answered_self {
            blocked[slot as usize][warp as usize] |= r.active_mask;
        }
        // Released lanes: every response to an earlier request.
        for x in &resp {
            if x.tag != r.tag {
                blocked[x.cta as usize][x.warp as usize] &= !x.lanes;
            }
        }
    }
    assert!(n < 100 || partial > n / 10, "seed {}: only {partial} divergent arrivals in {n}", p.seed);
}

// ---------------------------------------------------------------- mbarrier

/// mbarrier traffic on 8 objects per slot. Multi-lane requests only use ops that cannot fail
/// on a live object whose tx-count is never touched (objects 0..3: arrive of count 1,
/// test_wait.parity, pending_count of a token of 0), so that no lane after a failing lane would
/// execute (the top still executes later lanes; the golden unit stops). Objects 4..7 get every
/// op, one lane per request, errors included.
pub fn mbarrier_stream(p: &mut StreamPair, rng: &mut Rng, n: usize, tag: &mut u64) {
    let warps = p.cfg.max_warps_per_cta as u16;
    let slots = p.cfg.cta_slots as u16;
    for s in 0..slots {
        p.launch(s, warps);
    }
    // last token seen per (slot, object)
    let mut tokens = vec![[0u128; 8]; slots as usize];
    // objects 0..3 of every slot: initialized once (re-inits are single-lane errors only)
    for s in 0..slots {
        for o in 0..4u64 {
            let mut r = full(*tag, s, 0, Op::MbInit);
            *tag += 1;
            r.active_mask = 1;
            r.lanes[0].addr = 8 * o;
            r.lanes[0].a = 1 + rng.below(40) as u128;
            p.submit(&r);
        }
    }
    for _ in 0..n {
        let slot = rng.below(slots as u64) as u16;
        let warp = rng.below(warps as u64) as u16;
        let tx_object = rng.chance(2);
        let mut r = if tx_object {
            let o = 4 + rng.below(4);
            let op = [
                Op::MbInit,
                Op::MbInval,
                Op::MbArrive,
                Op::MbArrive,
                Op::MbArriveDrop,
                Op::MbExpectTx,
                Op::MbCompleteTx,
                Op::MbTestWait,
                Op::MbPendingCount,
            ][rng.below(9) as usize];
            let mut r = full(*tag, slot, warp, op);
            let lane = rng.below(32) as usize;
            r.active_mask = 1 << lane;
            let ops = &mut r.lanes[lane];
            ops.addr = 8 * o;
            if rng.chance(100) {
                ops.addr += 4; // misaligned
            }
            match op {
                Op::MbInit => ops.a = [1, 2, 3, 1 << 20, 0][rng.below(5) as usize],
                Op::MbArrive | Op::MbArriveDrop => {
                    ops.a = 1 + rng.below(3) as u128;
                    if rng.chance(3) {
                        r.flags |= flags::EXPECT_TX;
                        r.lanes[lane].b = rng.below(64) as u128;
                    }
                    if rng.chance(5) {
                        r.flags |= flags::NO_COMPLETE;
                    }
                }
                Op::MbExpectTx | Op::MbCompleteTx => {
                    ops.a = [rng.below(64), 1 << 19, (1 << 20) - 1][rng.below(3) as usize] as u128
                }
                Op::MbTestWait => {
                    if rng.chance(2) {
                        r.flags |= flags::PARITY;
                        ops.a = rng.below(3) as u128;
                    } else {
                        ops.a = tokens[slot as usize][o as usize];
                    }
                }
                Op::MbPendingCount => ops.a = tokens[slot as usize][o as usize],
                _ => {}
            }
            r
        } else {
            let o = rng.below(4);
            let op = [Op::MbArrive, Op::MbArrive, Op::MbTestWait, Op::MbPendingCount][rng.below(4) as usize];
            let mut r = full(*tag, slot, warp, op);
            r.active_mask = match rng.below(3) {
                0 => 1 << rng.below(32),
                1 => rng.next() as u32 | 1,
                _ => u32::MAX,
            };
            for l in 0..WARP {
                r.lanes[l].addr = 8 * o;
                match op {
                    Op::MbArrive => r.lanes[l].a = 1,
                    Op::MbTestWait => {
                        r.flags = flags::PARITY;
                        r.lanes[l].a = rng.below(2) as u128;
                    }
                    // a token of pending 0 (bit layout from the encoding table)
                    _ => r.lanes[l].a = tokens[slot as usize][o as usize],
                }
            }
            r
        };
        r.tag = *tag;
        *tag += 1;
        let resp = p.submit(&r);
        for x in &resp {
            if matches!(r.op, Op::MbArrive | Op::MbArriveDrop) && x.error == ErrorCode::None {
                if let Some(l) = r.active_lanes().last() {
                    let o = (r.lanes[l].addr / 8) as usize;
                    if o < 8 && x.values[l] != 0 {
                        tokens[slot as usize][o] = x.values[l];
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------- warp network

const WN_OPS: [Op; 8] = [
    Op::VoteSync,
    Op::MatchAny,
    Op::MatchAll,
    Op::ReduxSync,
    Op::ElectSync,
    Op::Activemask,
    Op::WarpSync,
    Op::ShflSync,
];

/// Converged warp-network requests (active covers member & live: the top does not build
/// divergent rendezvous), live masks with exited lanes, every sub-op and type.
pub fn warp_network_stream(p: &mut StreamPair, rng: &mut Rng, n: usize, tag: &mut u64) {
    let warps = p.cfg.max_warps_per_cta as u16;
    let slots = p.cfg.cta_slots as u16;
    for s in 0..slots {
        p.launch(s, warps);
    }
    for _ in 0..n {
        let op = WN_OPS[rng.below(WN_OPS.len() as u64) as usize];
        let mut r = full(*tag, rng.below(slots as u64) as u16, rng.below(warps as u64) as u16, op);
        *tag += 1;
        r.member_mask = match rng.below(4) {
            0 => u32::MAX,
            1 => rng.next() as u32 | 1,
            2 => 0xFFFF << (rng.below(2) * 16),
            _ => 1 << rng.below(32),
        };
        r.live_mask = if rng.chance(3) { rng.next() as u32 | r.member_mask } else { u32::MAX };
        r.active_mask = r.member_mask & r.live_mask;
        if op == Op::Activemask {
            r.member_mask = u32::MAX;
            r.active_mask = r.live_mask & rng.next() as u32;
            if r.active_mask == 0 {
                r.active_mask = r.live_mask & r.live_mask.wrapping_neg();
            }
        }
        let domain = if rng.chance(2) { 3 } else { u64::MAX };
        for l in 0..WARP {
            let v = match rng.below(8) {
                0 => [0, 0x8000_0000, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0xFFC0_0001, 0x3F80_0000, 0xBF80_0000]
                    [rng.below(8) as usize],
                _ => rng.next() % domain,
            };
            r.lanes[l].a = v as u128;
            r.lanes[l].b = rng.below(32) as u128;
            r.lanes[l].c = if rng.chance(2) { 0x1F } else { (rng.next() & 0x1F1F) as u128 };
        }
        match op {
            Op::VoteSync => {
                r.sub = rng.below(4) as u8;
                for l in 0..WARP {
                    r.lanes[l].a &= 1;
                }
                if rng.chance(2) {
                    r.flags = flags::NEGATE;
                }
            }
            Op::MatchAny | Op::MatchAll => r.dtype = if rng.chance(2) { DataType::B32 } else { DataType::B64 },
            Op::ReduxSync => {
                let (sub, dt) = match rng.below(4) {
                    0 => (rng.below(3) as u8, DataType::U32),
                    1 => (rng.below(3) as u8, DataType::S32),
                    2 => (3 + rng.below(3) as u8, DataType::B32),
                    _ => (1 + rng.below(2) as u8, DataType::F32),
                };
                r.sub = sub;
                r.dtype = dt;
                if dt == DataType::F32 {
                    r.flags = (rng.below(4) as u8) * flags::MOD_A;
                }
                for l in 0..WARP {
                    r.lanes[l].a &= 0xffff_ffff;
                }
            }
            Op::ShflSync => {
                r.sub = rng.below(4) as u8;
                for l in 0..WARP {
                    r.lanes[l].a &= 0xffff_ffff;
                }
                if rng.chance(2) {
                    let (b0, c0) = (r.lanes[0].b, r.lanes[0].c);
                    for l in 0..WARP {
                        r.lanes[l].b = b0;
                        r.lanes[l].c = c0;
                    }
                }
            }
            _ => {}
        }
        p.submit(&r);
    }
}

// ---------------------------------------------------------------- atomic ALU

/// A random operand of `dt` (one element): raw bits, or for float types now and then a
/// special value (zeros, one, infinities, NaNs, the smallest subnormal).
fn atomic_operand(rng: &mut Rng, dt: DataType) -> u128 {
    let bits = dt.bytes() * 8;
    let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let raw = (rng.next() as u128) << 64 | rng.next() as u128;
    if rng.chance(3) {
        let special: &[u128] = match dt {
            DataType::F32 => &[0, 0x8000_0000, 0x3F80_0000, 0xBF80_0000, 0x7F80_0000, 0x7FC0_0000, 1, 0x8000_0001],
            DataType::F64 => &[0, 1 << 63, 0x3FF0_0000_0000_0000, 0x7FF0_0000_0000_0000, 0x7FF8_0000_0000_0000, 1],
            DataType::F16 | DataType::Bf16 => &[0, 0x8000, 0x3C00, 0x7C00, 0x7E00, 1, 0x3F80, 0x7F80],
            DataType::F16x2 | DataType::Bf16x2 => &[0, 0x8000_8000, 0x3C00_7E00, 0x0001_7C00, 0x3F80_3F80],
            _ => &[0, 1, mask, mask >> 1, 1 << (bits - 1)],
        };
        return special[rng.below(special.len() as u64) as usize] & mask;
    }
    // small values make equal operands, wraps of inc/dec and cas hits likely
    if rng.chance(2) {
        raw % 4
    } else {
        raw & mask
    }
}

/// atom / red of every legal (op, type) pair of the config, scalar on shared::cta and global,
/// vector forms on global; lane addresses from a few 16-byte lines, so that lanes of one
/// request conflict (serialized in lane order on both sides); now and then a misaligned or
/// out-of-range lane, or a shared lane on one of the mbarrier objects the LSU stream left (mostly
/// live: a live one refuses the lane, PTX ISA §9.7.13.15).
pub fn atomic_stream(p: &mut StreamPair, rng: &mut Rng, n: usize, tag: &mut u64) {
    use smsync_sim::units::atomic_alu::legal;
    let warps = p.cfg.max_warps_per_cta as u16;
    let slots = p.cfg.cta_slots as u16;
    let half = |dt: DataType| matches!(dt, DataType::F16 | DataType::Bf16 | DataType::F16x2 | DataType::Bf16x2);
    let mut forms = Vec::new();
    for op in AtomOp::ALL {
        for dt in DataType::ALL {
            if *dt == DataType::B128 && !p.cfg.features.atomic_b128 {
                continue;
            }
            for vec in [1u8, 2, 4, 8] {
                if legal(*op, *dt, vec, half(*dt)) {
                    forms.push((*op, *dt, vec));
                }
            }
        }
    }
    assert!(forms.len() > 20, "legal atomic forms: {forms:?}");
    let gbase = p.mem.global.base;
    let gbytes = p.mem.global.bytes.len() as u64;
    let sbytes = p.cfg.shared_bytes as u64;
    let (mut clean, mut plain) = (0, 0);
    for _ in 0..n {
        let (op, dt, vec) = forms[rng.below(forms.len() as u64) as usize];
        let global = vec > 1 || rng.chance(2);
        let mut r = full(
            *tag,
            rng.below(slots as u64) as u16,
            rng.below(warps as u64) as u16,
            if rng.chance(3) { Op::Red } else { Op::Atom },
        );
        *tag += 1;
        r.sub = op.code();
        r.dtype = dt;
        r.vec = vec;
        r.space = if global { Space::Global } else { Space::SharedCta };
        r.flags = if half(dt) { flags::MOD_A } else { 0 };
        r.active_mask = match rng.below(3) {
            0 => u32::MAX,
            1 => 1 << rng.below(32),
            _ => rng.next() as u32 | 1,
        };
        let size = (dt.bytes() * vec as u32) as u64;
        // shared: above the mbarrier region of the mbarrier stream; global: all of it
        let (base, limit) = if global { (gbase, gbytes) } else { (MBAR_REGION, sbytes - MBAR_REGION) };
        let lines = 1 + rng.below(4);
        let line0 = rng.below(limit.min(0x400) / 16 - 4);
        for l in 0..WARP {
            let line = line0 + rng.below(lines);
            let mut addr = base + line * 16 + rng.below((16 / size).max(1)) * size;
            match rng.below(300) {
                0 => addr += 1 + rng.below(size.max(2) - 1),
                1 => addr = base + limit + 16 * rng.below(4),
                _ => {}
            }
            r.lanes[l].addr = addr;
            let bits = dt.bytes() * 8;
            let mut b = 0u128;
            for e in 0..vec as u32 {
                b |= atomic_operand(rng, dt).checked_shl(e * bits).unwrap_or(0);
            }
            r.lanes[l].b = b;
            r.lanes[l].c = atomic_operand(rng, dt);
        }
        if !global && rng.chance(12) {
            // an active lane onto one of the objects the LSU stream inits first (words 0, 2 and
            // 5; it invals and inits some of them again now and then), at the lane's alignment
            let active: Vec<usize> = (0..WARP).filter(|&i| r.active_mask >> i & 1 == 1).collect();
            let l = active[rng.below(active.len() as u64) as usize];
            r.lanes[l].addr = (8 * [0u64, 2, 5][rng.below(3) as usize] + rng.below(8)) & !(size - 1);
        }
        let answers = p.submit(&r);
        if answers.iter().all(|a| a.error == ErrorCode::None) {
            clean += 1;
        }
        plain += answers.iter().filter(|a| a.error == ErrorCode::MbarrierPlainAccess).count();
    }
    assert!(n < 1000 || plain > 0, "seed {}: no atomic lane on a live mbarrier in {n} requests", p.seed);
    // Most requests must execute (not stop at an error lane), or the stream tests little.
    eprintln!("  atomic: {clean} of {n} requests without error, {plain} on a live mbarrier");
    assert!(clean * 10 >= n * 8, "seed {}: only {clean} of {n} atomic requests ran without error", p.seed);
}

// ---------------------------------------------------------------- copy engine

/// cp.async (4/8/16 bytes, zero fill, ignore-src) with commit_group and wait_group N / wait_all,
/// and cp.async.bulk shared::cta -> global with its bulk commit_group / wait_group (.read), from
/// random warps and lanes over random global contents; in single-lane requests now and then a
/// misaligned, oversized or out-of-range operand (only there: after a lane in error the golden
/// unit stops, the RTL goes on with the later lanes — a documented difference, see the top's
/// chapter), or a destination on one of the LSU stream's mbarrier objects. Other shared
/// destinations stay above the mbarrier region.
pub fn copy_stream(p: &mut StreamPair, rng: &mut Rng, n: usize, tag: &mut u64) {
    let warps = p.cfg.max_warps_per_cta as u16;
    let slots = p.cfg.cta_slots as u16;
    let gbase = p.mem.global.base;
    let gbytes = p.mem.global.bytes.len() as u64;
    let window = 0x800u64;
    for i in 0..gbytes as usize {
        let b = rng.next() as u8;
        p.mem.global.bytes[i] = b;
        p.rtl_mem.global.bytes[i] = b;
    }
    let mut kinds = [0usize; 5];
    let mut plain = 0;
    for _ in 0..n {
        let kind = match rng.below(12) {
            0..=5 => 0,
            6 => 1,
            7 => 2,
            8 | 9 => 3,
            _ => 4,
        };
        kinds[kind] += 1;
        let op = [
            Op::CpAsync,
            Op::CpAsyncCommit,
            Op::CpAsyncWait,
            Op::CpBulk,
            if rng.chance(2) { Op::BulkCommit } else { Op::BulkWait },
        ][kind];
        let mut r = full(*tag, rng.below(slots as u64) as u16, rng.below(warps as u64) as u16, op);
        *tag += 1;
        r.active_mask = match rng.below(3) {
            0 => u32::MAX,
            1 => 1 << rng.below(32),
            _ => rng.next() as u32 | 1,
        };
        let single = r.active_mask.count_ones() == 1;
        match op {
            Op::CpAsync => {
                let cp = [4u64, 8, 16][rng.below(3) as usize];
                r.imm = cp as u32;
                for l in 0..WARP {
                    let ops = &mut r.lanes[l];
                    ops.addr = MBAR_REGION + rng.below(window / cp) * cp;
                    ops.src = gbase + rng.below(gbytes / cp) * cp;
                    ops.a = if rng.chance(4) { rng.below(cp + 1) as u128 } else { cp as u128 };
                    ops.b = rng.chance(10) as u128;
                    match if single { rng.below(20) } else { 4 } {
                        0 => ops.addr += 2,
                        1 => ops.a = cp as u128 + 1,
                        2 => ops.src = gbase + gbytes - cp / 2,
                        // onto one of the LSU stream's mbarrier objects (words 0, 2, 5), live or
                        // not by then: refused while live (PTX ISA §9.7.13.15)
                        3 => ops.addr = (8 * [0u64, 2, 5][rng.below(3) as usize]) & !(cp - 1),
                        _ => {}
                    }
                }
            }
            Op::CpAsyncWait => {
                r.imm = rng.below(3) as u32;
                r.imm2 = rng.chance(4) as u32;
            }
            Op::CpBulk => {
                r.sub = smsync_sim::encoding::BulkDir::SharedToGlobal.code();
                r.active_mask = if rng.chance(4) { rng.next() as u32 & 0xF | 1 } else { 1 << rng.below(32) };
                let single = r.active_mask.count_ones() == 1;
                for l in 0..WARP {
                    let len = 16 * (1 + rng.below(8));
                    let ops = &mut r.lanes[l];
                    ops.a = len as u128;
                    ops.src = MBAR_REGION + 16 * rng.below((window - len) / 16);
                    ops.addr = gbase + 16 * rng.below((gbytes - len) / 16);
                    if single && rng.chance(20) {
                        if rng.chance(2) {
                            ops.addr += 8;
                        } else {
                            ops.addr = gbase + gbytes - 16;
                        }
                    }
                }
            }
            Op::BulkWait => {
                r.imm = rng.below(2) as u32;
                if rng.chance(2) {
                    r.flags = flags::MOD_A;
                }
            }
            _ => {}
        }
        plain += p.submit_async(&r).iter().filter(|a| a.error == ErrorCode::MbarrierPlainAccess).count();
    }
    eprintln!(
        "  copy: cp.async {}, commit {}, wait {}, bulk s2g {}, bulk commit/wait {}; {plain} onto a live mbarrier",
        kinds[0], kinds[1], kinds[2], kinds[3], kinds[4]
    );
    assert!(
        p.mem.global.bytes == p.rtl_mem.global.bytes,
        "seed {}: global memory differs after the copy stream",
        p.seed
    );
}

// ---------------------------------------------------------------- LSU

/// ld/st.shared of 1, 2, 4, 8 bytes (vec 1, or vec 2 / vec 4 of up to 4 bytes), naturally aligned, above
/// the mbarrier region; now and then one lane out of range, or one misaligned.
pub fn lsu_stream(p: &mut StreamPair, rng: &mut Rng, n: usize, tag: &mut u64) {
    let warps = p.cfg.max_warps_per_cta as u16;
    let slots = p.cfg.cta_slots as u16;
    let bytes = p.cfg.shared_bytes as u64;
    let mut plain = 0;
    // a few live mbarrier objects among the words 0..0x40 of each slot, init'ed and inval'ed now
    // and then (errors included: init of a live one, inval of a dead one)
    let object = |tag: u64, slot: u16, op: Op, o: u64| {
        let mut r = Request::new(tag, slot, 0, op);
        r.active_mask = 1;
        r.lanes[0].addr = 8 * o;
        r.lanes[0].a = 1;
        r
    };
    for slot in 0..slots {
        for o in [0, 2, 5] {
            p.submit(&object(*tag, slot, Op::MbInit, o));
            *tag += 1;
        }
    }
    for _ in 0..n {
        if rng.chance(20) {
            let op = if rng.chance(2) { Op::MbInit } else { Op::MbInval };
            p.submit(&object(*tag, rng.below(slots as u64) as u16, op, rng.below(8)));
            *tag += 1;
        }
        let op = if rng.chance(2) { Op::StShared } else { Op::LdShared };
        let mut r = full(*tag, rng.below(slots as u64) as u16, rng.below(warps as u64) as u16, op);
        *tag += 1;
        r.imm = [1, 2, 4, 8][rng.below(4) as usize];
        if r.imm <= 4 && rng.chance(4) {
            r.vec = if rng.chance(2) { 4 } else { 2 };
        }
        let size = (r.imm * r.vec as u32) as u64;
        r.active_mask = if rng.chance(2) { u32::MAX } else { rng.next() as u32 };
        // a small window, so that loads see earlier stores
        let window = 0x400u64;
        let base = MBAR_REGION + rng.below((bytes - MBAR_REGION - window) / size) * size;
        for l in 0..WARP {
            r.lanes[l].addr = base + rng.below(window / size) * size;
            if op == Op::StShared {
                let data = (rng.next() as u128) << 64 | rng.next() as u128;
                r.lanes[l].a = if size == 16 { data } else { data & ((1u128 << (8 * size)) - 1) };
            }
        }
        if rng.chance(100) {
            let l = rng.below(32) as usize;
            r.lanes[l].addr = bytes - size + size * rng.below(3);
        }
        if size > 1 && rng.chance(50) {
            // misaligned (PTX ISA §6.4.1): the first such active lane ends the request
            let l = rng.below(32) as usize;
            r.lanes[l].addr += 1 + rng.below(size - 1);
        }
        if rng.chance(10) {
            // into the mbarrier stream's objects (8-byte words from 0, live or not)
            let l = rng.below(32) as usize;
            r.lanes[l].addr = rng.below(0x40 / size) * size;
        }
        let resp = p.submit(&r);
        plain += resp.iter().filter(|x| x.error == ErrorCode::MbarrierPlainAccess).count();
    }
    assert!(n < 1000 || plain > 0, "seed {}: no plain access to a live mbarrier in {n} requests", p.seed);
}
