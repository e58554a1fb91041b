//! The `sync_unit` top on the fpga-small config: a directed sequence (mbarrier init/arrive/test_wait, bar.sync of two warps, vote ballot, st/ld.shared
//! and a few errors) fed to both the Verilated top and `GoldenUnits`; every request's responses
//! must be equal. The top's lint gates run elsewhere, once: its yosys structural check in
//! gen/tests/gen_lint.rs, its Verilator `-Wall` in the cosim build of gen/tests/cosim_corpus.rs
//! (whose build log must be empty).
//!
//! `cargo test -p smsync-testbench --test sync_unit_top -- --nocapture`

use smsync_sim::config::Config;
use smsync_sim::encoding::{flags, AtomOp, BulkDir, DataType, ErrorCode, Op, Space, VoteMode};
use smsync_sim::memory::{MemorySystem, GLOBAL_BASE};
use smsync_sim::units::{GoldenUnits, Request, Response, SyncUnit};
use smsync_testbench::rtl_unit::{RtlOptions, RtlSyncUnit};

/// Both backends, the golden one with its memory.
struct Pair {
    golden: GoldenUnits,
    mem: MemorySystem,
    rtl: RtlSyncUnit,
}

impl Pair {
    fn new(cfg: &Config) -> Pair {
        Pair {
            golden: GoldenUnits::new(cfg),
            mem: MemorySystem::new(4096, cfg.cta_slots as usize, cfg.shared_bytes as usize),
            rtl: RtlSyncUnit::new(cfg, &RtlOptions::default()).unwrap(),
        }
    }

    fn launch(&mut self, slot: u16, warps: u16) {
        self.golden.launch_cta(slot, warps, warps as u32 * 32);
        let mut out = Vec::new();
        self.rtl.launch_cta(slot, warps, &mut self.mem, &mut out);
        assert!(out.is_empty(), "launch answered {out:?}");
    }

    /// Feed `req` to both; return the (sorted) responses after checking they agree.
    fn submit(&mut self, req: &Request) -> Vec<Response> {
        let mut g = Vec::new();
        self.golden.submit(req, &mut self.mem, &mut g);
        let mut r = Vec::new();
        self.rtl.submit(req, &mut self.mem, &mut r).unwrap();
        // A release answers several warps; the golden model lists them in arrival order, the
        // RTL in warp order: compare as sets.
        let key = |x: &Response| (x.tag, x.cta, x.warp);
        g.sort_by_key(key);
        r.sort_by_key(key);
        assert_eq!(r, g, "request {} ({}): RTL responses differ from the golden model", req.tag, req.op);
        g
    }

    /// `submit`, then the golden model finishes its copies (`tick` with nothing else to run:
    /// copies land, their late errors are answered), as the RTL has by the time it is idle.
    /// Not for requests that suspend a try_wait (the idle tick times it out).
    fn submit_and_drain(&mut self, req: &Request) -> Vec<Response> {
        let mut g = Vec::new();
        self.golden.submit(req, &mut self.mem, &mut g);
        while self.golden.tick(&mut self.mem, true, &mut g) {}
        let mut r = Vec::new();
        self.rtl.submit(req, &mut self.mem, &mut r).unwrap();
        let key = |x: &Response| (x.tag, x.cta, x.warp, x.lanes);
        g.sort_by_key(key);
        r.sort_by_key(key);
        assert_eq!(r, g, "request {} ({}): RTL responses differ from the golden model", req.tag, req.op);
        g
    }
}

/// The copy engine's mbarrier events refused by the mbarrier ALU, through the top:
/// `cp.async.mbarrier.arrive` on an object never initialized answers `MbNotInitialized` at issue
/// (PTX ISA §9.7.13.15: undefined; the golden unit's rule), and a bulk copy whose complete_tx
/// would take the tx-count below -(2^20 - 1) (PTX ISA §9.7.13.15.2, the tx-count's range) is
/// answered, then followed by a late error of the same tag with no lanes (`MbTxRange`).
#[test]
fn copy_engine_event_errors_are_answered() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    let (mbar, dead) = (0x40, 0x80);
    assert_eq!(p.submit(&one_lane(1, 0, Op::MbInit, mbar, 1))[0].error, ErrorCode::None);
    // The lowest tx-count the object may hold.
    assert_eq!(p.submit(&one_lane(2, 0, Op::MbCompleteTx, mbar, (1 << 20) - 1))[0].error, ErrorCode::None);

    for (tag, noinc) in [(3, false), (4, true)] {
        let mut arrive = one_lane(tag, 1, Op::MbCpAsyncArrive, dead, 0);
        arrive.active_mask = 0b110;
        arrive.lanes[1] = arrive.lanes[0];
        arrive.lanes[2] = arrive.lanes[0];
        if noinc {
            arrive.flags |= flags::NO_INC;
        }
        let r = p.submit_and_drain(&arrive);
        assert_eq!((r.len(), r[0].error, r[0].error_lane), (1, ErrorCode::MbNotInitialized, 1), "noinc = {noinc}");
    }

    let mut copy = one_lane(5, 1, Op::CpBulk, 0x200, 16);
    copy.sub = BulkDir::GlobalToShared.code();
    copy.active_mask = 1 << 4;
    copy.lanes[4] = copy.lanes[0];
    copy.lanes[4].src = GLOBAL_BASE + 0x100;
    copy.lanes[4].mbar = mbar;
    let r = p.submit_and_drain(&copy);
    assert_eq!(r.len(), 2, "{r:?}");
    let late = r.iter().find(|x| x.lanes == 0).expect("a late error");
    assert_eq!((late.tag, late.warp, late.error, late.error_lane), (5, 1, ErrorCode::MbTxRange, 4));
    assert_eq!(r.iter().find(|x| x.lanes != 0).unwrap().error, ErrorCode::None, "the copy itself is answered");
}

/// A cluster of two CTAs (fpga-small with `cluster_size: 2`, a config of its own, so a Verilator
/// build of its own: full tier): the last arrival releases the waiting warps of both slots, two
/// releases at once, and the top takes the second after walking the first.
#[test]
#[ignore = "full tier: builds a third fpga-small top (cluster_size 2)"]
fn c060_cluster_of_two_ctas_releases_the_waiters_of_both() {
    let mut p = Pair::new(&Config { cluster_size: 2, ..Config::fpga_small() });
    p.launch(0, 2);
    p.launch(1, 2);
    let req = |tag, cta, warp, op| {
        let mut r = Request::new(tag, cta, warp, op);
        r.active_mask = u32::MAX;
        r
    };
    for (cta, tag) in [(0, 40), (1, 42)] {
        assert_eq!(p.submit(&req(tag, cta, 0, Op::BarClusterArrive)).len(), 1, "arrive answers at once");
        assert!(p.submit(&req(tag + 1, cta, 0, Op::BarClusterWait)).is_empty(), "warp 0 of slot {cta} waits");
    }
    assert_eq!(p.submit(&req(44, 0, 1, Op::BarClusterArrive)).len(), 1, "warp 1 of slot 1 is still missing");
    let mut tags: Vec<u64> = p.submit(&req(45, 1, 1, Op::BarClusterArrive)).iter().map(|r| r.tag).collect();
    tags.sort();
    assert_eq!(tags, [41, 43, 45], "both slots' waits released, and the arrive answered");
}

/// A diverged warp's `barrier.cluster.wait` (PTX ISA §9.7.13.3: the wait is per thread; its
/// lanes reach it in several requests): each part blocks until the round completes and is
/// released with its own lanes; once the round is over, the first part's wait returns at once
/// and clears the warp's arrival, so a later part has none to wait for
/// (`BarClusterWaitNoArrive`, as the golden unit answers).
#[test]
fn c060_a_divergent_cluster_wait_releases_each_part() {
    let mut p = Pair::new(&Config::fpga_small());
    p.launch(0, 2);
    let req = |tag, warp, op, active| {
        let mut r = Request::new(tag, 0, warp, op);
        r.active_mask = active;
        r
    };
    assert_eq!(p.submit(&req(1, 0, Op::BarClusterArrive, u32::MAX)).len(), 1);
    assert!(p.submit(&req(2, 0, Op::BarClusterWait, 0x0000_ffff)).is_empty(), "lanes 0-15 wait");
    assert!(p.submit(&req(3, 0, Op::BarClusterWait, 0xffff_0000)).is_empty(), "lanes 16-31 wait");
    let r = p.submit(&req(4, 1, Op::BarClusterArrive, u32::MAX));
    let parts: Vec<(u64, u32)> = r.iter().map(|x| (x.tag, x.lanes)).collect();
    assert_eq!(parts, [(2, 0x0000_ffff), (3, 0xffff_0000), (4, u32::MAX)], "each part its lanes");
    // the next round: both warps arrive (it completes), then the parts wait
    assert_eq!(p.submit(&req(5, 0, Op::BarClusterArrive, u32::MAX)).len(), 1);
    assert_eq!(p.submit(&req(6, 1, Op::BarClusterArrive, u32::MAX)).len(), 1);
    let r = p.submit(&req(7, 0, Op::BarClusterWait, 0x0000_00ff));
    assert_eq!((r[0].tag, r[0].lanes, r[0].error), (7, 0xff, ErrorCode::None), "the round is over");
    let r = p.submit(&req(8, 0, Op::BarClusterWait, 0xffff_ff00));
    assert_eq!(r[0].error, ErrorCode::BarClusterWaitNoArrive);
    // a third round, waited by three parts of warp 1 while warp 0 is missing
    assert_eq!(p.submit(&req(9, 1, Op::BarClusterArrive, u32::MAX)).len(), 1);
    for (tag, lanes) in [(10, 0x0000_000f), (11, 0x0000_fff0), (12, 0xffff_0000)] {
        assert!(p.submit(&req(tag, 1, Op::BarClusterWait, lanes)).is_empty());
    }
    let r = p.submit(&req(13, 0, Op::BarClusterArrive, u32::MAX));
    let parts: Vec<(u64, u32)> = r.iter().map(|x| (x.tag, x.lanes)).collect();
    assert_eq!(parts, [(10, 0xf), (11, 0xfff0), (12, 0xffff_0000), (13, u32::MAX)]);
    // a fourth round: warp 0's single part is released with its own lanes only (the lanes of
    // its earlier rounds' waits are not carried over)
    assert_eq!(p.submit(&req(14, 0, Op::BarClusterArrive, u32::MAX)).len(), 1);
    assert!(p.submit(&req(15, 0, Op::BarClusterWait, 0x0000_00ff)).is_empty());
    let r = p.submit(&req(16, 1, Op::BarClusterArrive, u32::MAX));
    let parts: Vec<(u64, u32)> = r.iter().map(|x| (x.tag, x.lanes)).collect();
    assert_eq!(parts, [(15, 0xff), (16, u32::MAX)]);
}

fn one_lane(tag: u64, warp: u16, op: Op, addr: u64, a: u128) -> Request {
    let mut r = Request::new(tag, 0, warp, op);
    r.active_mask = 1;
    r.lanes[0].addr = addr;
    r.lanes[0].a = a;
    r
}

#[test]
fn sync_unit_top_matches_golden_on_a_directed_sequence() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    let mbar = 0x100;

    // ---- mbarrier: init(2), arrive -> token, test_wait.parity before/after the phase ----
    let r = p.submit(&one_lane(1, 0, Op::MbInit, mbar, 2));
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].error, ErrorCode::None);
    let r = p.submit(&one_lane(2, 0, Op::MbArrive, mbar, 1));
    assert_ne!(r[0].values[0], 0, "arrive returns a (valid) state token");
    let token = r[0].values[0];
    let mut wait = one_lane(3, 0, Op::MbTestWait, mbar, 0);
    wait.flags = flags::PARITY;
    let r = p.submit(&wait);
    assert_eq!(r[0].preds, 0, "phase 0 not complete after 1 of 2 arrivals");
    // Two lanes of warp 1 arrive in one request: the sequencer feeds them in lane order, the
    // second completes the phase.
    let mut arrive2 = one_lane(4, 1, Op::MbArrive, mbar, 1);
    arrive2.active_mask = 0b101;
    arrive2.lanes[2] = arrive2.lanes[0];
    p.submit(&arrive2);
    wait.tag = 5;
    let r = p.submit(&wait);
    assert_eq!(r[0].preds, 1, "phase 0 complete");
    // test_wait with the token of phase 0 (completed: true).
    let r = p.submit(&one_lane(6, 0, Op::MbTestWait, mbar, token));
    assert_eq!(r[0].preds, 1);
    // An error: arrive on an uninitialized object.
    let r = p.submit(&one_lane(7, 0, Op::MbArrive, 0x180, 1));
    assert_eq!(r[0].error, ErrorCode::MbNotInitialized);

    // ---- bar.sync 0 of both warps: warp 0 waits, warp 1 releases both ----
    let mut bar0 = Request::new(10, 0, 0, Op::BarSync);
    bar0.imm = 0;
    assert!(p.submit(&bar0).is_empty(), "warp 0 waits at the barrier");
    let mut bar1 = bar0.clone();
    bar1.tag = 11;
    bar1.warp = 1;
    let r = p.submit(&bar1);
    assert_eq!(r.iter().map(|x| x.tag).collect::<Vec<_>>(), vec![10, 11], "both warps released");
    // bar.red.popc over both warps.
    let mut red0 = Request::new(12, 0, 0, Op::BarRedPopc);
    for l in 0..32 {
        red0.lanes[l].a = (l % 3 == 0) as u128;
    }
    assert!(p.submit(&red0).is_empty());
    let mut red1 = red0.clone();
    red1.tag = 13;
    red1.warp = 1;
    let r = p.submit(&red1);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].values[5], 22, "popc = 2 warps x 11 lanes");
    // Error: barrier id out of range.
    let mut bad = Request::new(14, 0, 0, Op::BarSync);
    bad.imm = 99;
    assert_eq!(p.submit(&bad)[0].error, ErrorCode::BarIdRange);

    // ---- vote.sync.ballot ----
    let mut vote = Request::new(20, 0, 1, Op::VoteSync);
    vote.sub = VoteMode::Ballot.code();
    for l in 0..32 {
        vote.lanes[l].a = (l % 5 == 1) as u128;
    }
    let r = p.submit(&vote);
    let ballot: u128 = (0..32).filter(|l| l % 5 == 1).map(|l| 1u128 << l).sum();
    assert_eq!(r[0].values[0], ballot, "ballot of lanes 1, 6, 11, ...");

    // ---- st.shared then ld.shared (4-byte words, and one 8-byte and one 2-byte access) ----
    let mut st = Request::new(30, 0, 0, Op::StShared);
    st.imm = 4;
    for l in 0..32 {
        st.lanes[l].addr = 0x400 + 4 * l as u64;
        st.lanes[l].a = 0x1000_0000 + 7 * l as u128;
    }
    p.submit(&st);
    let mut ld = st.clone();
    ld.tag = 31;
    ld.op = Op::LdShared;
    let r = p.submit(&ld);
    assert_eq!(r[0].values[3], 0x1000_0000 + 21);
    let mut ld8 = ld.clone();
    ld8.tag = 32;
    ld8.imm = 8;
    ld8.active_mask = 0x0000_ffff;
    for l in 0..32 {
        ld8.lanes[l].addr = 0x400 + 8 * l as u64;
    }
    p.submit(&ld8);
    let mut ld2 = ld.clone();
    ld2.tag = 33;
    ld2.imm = 2;
    for l in 0..32 {
        ld2.lanes[l].addr = 0x402 + 4 * l as u64;
    }
    p.submit(&ld2);
    // Out of range: the last lane reads past shared_bytes (aligned).
    let mut oob = ld.clone();
    oob.tag = 34;
    oob.lanes[31].addr = cfg.shared_bytes as u64;
    assert_eq!(p.submit(&oob)[0].error, ErrorCode::SharedOutOfRange);
    // Misaligned (PTX ISA §6.4.1: a 4-byte access at 4n + 2 is undefined): lane 3 is reported,
    // lanes 0-2 before it are stored, lanes after it are not.
    let mut mis = st.clone();
    mis.tag = 35;
    for l in 0..32 {
        mis.lanes[l].a = 0x2000_0000 + l as u128;
    }
    mis.lanes[3].addr += 2;
    let r = p.submit(&mis);
    assert_eq!((r[0].error, r[0].error_lane), (ErrorCode::SharedAlign, 3));
    let mut back = ld.clone();
    back.tag = 36;
    let r = p.submit(&back);
    assert_eq!(r[0].values[..5], [0x2000_0000, 0x2000_0001, 0x2000_0002, 0x1000_0000 + 21, 0x1000_0000 + 28]);
}

/// A CTA launch clears its slot's shared memory at once (the shared RAM's row generations: a
/// row last written by an older CTA reads as zeros) while the other slots' data is kept: the new
/// slot's load reads zeros within a few cycles of its launch (before, the launch wrote zeros
/// into every row, 1,024 cycles on fpga-small, and the slot's requests waited).
#[test]
fn a_cta_launch_clears_its_slot_at_once() {
    let cfg = Config::fpga_small();
    let rows = (cfg.shared_bytes / 16) as u64; // the walker's rows of one slot (16-byte rows)
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    let mut st = one_lane(1, 0, Op::StShared, 0x40, 0xdead_beef);
    st.imm = 4;
    p.submit(&st);

    // Slot 1 starts; requests go to the port at once, without waiting for the top to be idle.
    p.mem.shared[1].bytes.fill(0);
    p.launch(1, 2);
    let launched = p.rtl.cycle();
    let mut ld0 = one_lane(2, 0, Op::LdShared, 0x40, 0);
    ld0.imm = 4;
    let mut ld1 = ld0.clone();
    ld1.tag = 3;
    ld1.cta = 1;
    let mut answered = std::collections::HashMap::new();
    for req in [&ld0, &ld1] {
        p.rtl.enqueue(req).unwrap();
    }
    let mut out = Vec::new();
    while answered.len() < 2 && p.rtl.cycle() - launched < 4 * rows {
        p.rtl.run(1, &mut p.mem, &mut out);
        for r in out.drain(..) {
            answered.insert(r.tag, (p.rtl.cycle() - launched, r));
        }
    }
    let (t0, r0) = answered.get(&2).expect("slot 0's load answered");
    let (t1, r1) = answered.get(&3).expect("slot 1's load answered");
    for (req, r) in [(&ld0, r0), (&ld1, r1)] {
        let mut g = Vec::new();
        p.golden.submit(req, &mut p.mem, &mut g);
        assert_eq!(&g[0], r, "{} of slot {}: RTL differs from the golden model", req.op, req.cta);
    }
    assert_eq!((r0.values[0], r1.values[0]), (0xdead_beef, 0), "slot 0 keeps its data, slot 1 reads zeros");
    assert!(*t0 < 64, "slot 0's load took {t0} cycles after slot 1's launch: it waited for the clear");
    assert!(*t1 < 64, "slot 1's load took {t1} cycles after its launch ({rows} rows): it waited for a clear");
}

/// Every 16th launch into a slot takes its generation round (`GEN_BITS` = 4) to a value a row
/// may still hold (one written 16 launches ago and not since): that launch writes zeros into every row of the
/// slot, so the row reads zeros, and the slot's load waits for the rows (1,024 on fpga-small).
/// A load after each launch in between reads zeros too, whatever its row's last write.
#[test]
fn a_launch_that_takes_the_generation_round_clears_the_rows() {
    let cfg = Config::fpga_small();
    let rows = (cfg.shared_bytes / 16) as u64;
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    p.mem.shared[1].bytes.fill(0);
    p.launch(1, 2);
    settle(&mut p);
    let access = |tag: u64, op: Op, addr: u64, a: u128| slot_access(1, tag, op, addr, a);
    // Row 0x100 written once, in the slot's first generation.
    p.submit(&access(1, Op::StShared, 0x100, 0x5151));
    let mut tag = 10;
    // The slot's launches so far: 1 (its generation 1); the 16th takes it round to 0.
    for launch in 2..=17u64 {
        // Another row written in every generation, read back as zeros after the next launch.
        p.submit(&access(tag, Op::StShared, 0x40, launch as u128));
        p.mem.shared[1].bytes.fill(0);
        p.launch(1, 2);
        let start = p.rtl.cycle();
        let r = p.submit(&access(tag + 1, Op::LdShared, 0x40, 0));
        assert_eq!(r[0].values[0], 0, "launch {launch}: the row written before it reads {}", r[0].values[0]);
        let waited = p.rtl.cycle() - start;
        if launch != 16 {
            assert!(waited < 64, "launch {launch}: the load waited {waited} cycles");
        } else {
            assert!(waited > rows, "launch 16: the load took {waited} cycles, fewer than the {rows} rows to clear");
        }
        tag += 2;
    }
    let r = p.submit(&access(tag, Op::LdShared, 0x100, 0));
    assert_eq!(r[0].values[0], 0, "the row of generation 1 reads its old bytes when the generation is 1 again");
}

/// A slot's shared-memory accesses (one lane, 4 bytes).
fn slot_access(slot: u16, tag: u64, op: Op, addr: u64, a: u128) -> Request {
    let mut r = one_lane(tag, 0, op, addr, a);
    r.cta = slot;
    r.imm = 4;
    r
}

/// A reset during the clear of a launch that took its slot's generation round does not cancel
/// the clear: the reset keeps the generations and the rows, so a row written 16 launches ago
/// would read its old bytes as the new CTA's (a CTA starts with zeroed shared memory, the
/// golden model's rule) once the generation comes round to its tag.
#[test]
fn a_reset_during_the_wrapping_clear_does_not_cancel_it() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(1, 2);
    settle(&mut p);
    // Row 0x100 written in the slot's generation 1.
    p.submit(&slot_access(1, 1, Op::StShared, 0x100, 0x5151));
    for _ in 2..=15 {
        p.mem.shared[1].bytes.fill(0);
        p.launch(1, 2);
    }
    // The 16th launch takes the generation round to 0 and starts the clear; a reset at once.
    p.mem.shared[1].bytes.fill(0);
    p.launch(1, 2);
    let mut out = Vec::new();
    p.rtl.run(4, &mut p.mem, &mut out);
    assert!(!p.rtl.idle(), "the 16th launch of the slot starts a clear of its 1,024 rows");
    p.rtl.reset();
    settle(&mut p);
    // The 17th launch: generation 1 again, the tag of row 0x100 if the clear did not reach it.
    p.mem.shared[1].bytes.fill(0);
    p.launch(1, 2);
    let r = p.submit(&slot_access(1, 2, Op::LdShared, 0x100, 0));
    assert_eq!(r[0].values[0], 0, "the row written in generation 1 reads its old bytes after a reset during the clear");
}

/// `RtlSyncUnit::power_on` (what the cosim's model pool does before a run) gives the top of a
/// new model: a slot launched 15 times and power-cycled is in its first generation again, so
/// its next launch does not clear its rows (after a reset alone, it would: the reset keeps the
/// generations), and a load right after it does not wait for a clear.
#[test]
fn power_on_starts_the_top_as_a_new_model() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    for _ in 0..15 {
        p.launch(1, 2);
    }
    settle(&mut p);
    p.rtl.power_on();
    p.golden = GoldenUnits::new(&cfg);
    p.mem.shared[1].bytes.fill(0);
    p.launch(1, 2);
    let start = p.rtl.cycle();
    let r = p.submit(&slot_access(1, 1, Op::LdShared, 0x40, 0));
    let waited = p.rtl.cycle() - start;
    assert_eq!(r[0].values[0], 0);
    assert!(waited < 64, "the load after the first launch since power-on waited {waited} cycles (a clear)");
}

/// Run the top until every tag of `tags` has an answer (at most `limit` cycles); the answers,
/// each with the cycle it left the top.
fn run_until_answered(p: &mut Pair, tags: &[u64], limit: u64) -> Vec<(u64, Response)> {
    let start = p.rtl.cycle();
    let mut out = Vec::new();
    let mut seen = Vec::new();
    while !tags.iter().all(|t| seen.iter().any(|(_, r): &(u64, Response)| r.tag == *t)) {
        assert!(p.rtl.cycle() - start < limit, "tags {tags:?}: answered only {seen:?} within {limit} cycles");
        p.rtl.run(1, &mut p.mem, &mut out);
        for r in out.drain(..) {
            seen.push((p.rtl.cycle(), r));
        }
    }
    seen
}

/// Clock the top until it is idle (a launch's shared-memory clear done; the launch reaches the
/// core a cycle after the port, through the boundary register, so `busy` rises a cycle later).
fn settle(p: &mut Pair) {
    let mut out = Vec::new();
    for i in 0..100_000 {
        if i > 2 && p.rtl.idle() {
            assert!(out.is_empty(), "answers while settling: {out:?}");
            return;
        }
        p.rtl.run(1, &mut p.mem, &mut out);
    }
    panic!("the top is still busy after 100,000 cycles");
}

/// `r` with the values and predicates of lanes outside `lanes` cleared (not compared).
fn on_lanes(mut r: Response) -> Response {
    for l in 0..32 {
        if r.lanes >> l & 1 == 0 {
            r.values[l] = 0;
        }
    }
    r.preds &= r.lanes;
    r
}

/// The golden model's answers to `reqs` in order.
fn golden_answers(p: &mut Pair, reqs: &[&Request]) -> Vec<Response> {
    let mut g = Vec::new();
    for r in reqs {
        p.golden.submit(r, &mut p.mem, &mut g);
    }
    let mut g: Vec<Response> = g.into_iter().map(on_lanes).collect();
    g.sort_by_key(|x| (x.tag, x.lanes));
    g
}

/// A full-warp redux.sync.add.u32 of warp `warp` (lane l adds l + 1).
fn redux(tag: u64, warp: u16) -> Request {
    let mut r = Request::new(tag, 0, warp, Op::ReduxSync);
    r.dtype = smsync_sim::encoding::DataType::U32;
    for l in 0..32 {
        r.lanes[l].a = l as u128 + 1;
    }
    r
}

/// shfl.sync.down by 16 (clamp 31) of warp `warp` over the lanes `active` (lane l holds 100 + l).
fn shfl_down(tag: u64, warp: u16, active: u32) -> Request {
    let mut r = Request::new(tag, 0, warp, Op::ShflSync);
    r.sub = 1;
    r.active_mask = active;
    for l in 0..32 {
        r.lanes[l].a = 100 + l as u128;
        r.lanes[l].b = 16;
        r.lanes[l].c = 0x1f;
    }
    r
}

/// The request queue (`requests_in_flight` = 2 on fpga-small) takes the next request's header
/// and beats while the core works on the one before: a store's header is taken before the
/// redux ahead of it is answered (the one-request top took it only after).
#[test]
fn the_queue_takes_the_next_request_while_the_core_works_on_one() {
    let cfg = Config::fpga_small();
    assert!(cfg.requests_in_flight >= 2);
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    let rx = redux(1, 0);
    let mut st = one_lane(2, 1, Op::StShared, 0x40, 7);
    st.imm = 4;
    settle(&mut p); // the launch's shared-memory clear holds the slot's requests
    let start = p.rtl.cycle();
    p.rtl.enqueue(&rx).unwrap();
    p.rtl.enqueue(&st).unwrap();
    let answers = run_until_answered(&mut p, &[1, 2], 500);
    let redux_done = answers.iter().find(|(_, r)| r.tag == 1).unwrap().0 - start;
    let taken: Vec<_> = p.rtl.taken.drain(..).collect();
    let store = taken.iter().find(|t| t.tag == 2).expect("the store was taken");
    assert!(
        store.queued < redux_done,
        "the store's header was taken {} cycles after it was queued, the redux answered after {redux_done}",
        store.queued
    );
    let mut r: Vec<Response> = answers.into_iter().map(|(_, r)| on_lanes(r)).collect();
    r.sort_by_key(|x| (x.tag, x.lanes));
    assert_eq!(r, golden_answers(&mut p, &[&rx, &st]));
}

/// A data op of one warp is not held up by another warp's partial one: warp 0's first lanes
/// of a shfl are parked (block RAM) until its other lanes come, and warp 1's whole shfl, sent
/// in between, is answered before them. (While the lanes waited in the one operand store,
/// warp 1's shfl was refused until warp 0's completed, and the one-request top deadlocked on
/// it.) Answers equal the golden model's.
#[test]
fn a_partial_data_op_does_not_hold_up_another_warps() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    settle(&mut p);
    let early = shfl_down(1, 0, 0xffff_ff00);
    let other = shfl_down(2, 1, u32::MAX);
    let late = shfl_down(3, 0, 0x0000_00ff);
    for r in [&early, &other, &late] {
        p.rtl.enqueue(r).unwrap();
    }
    let answers = run_until_answered(&mut p, &[1, 2, 3], 2_000);
    let at = |tag: u64| answers.iter().find(|(_, r)| r.tag == tag).unwrap().0;
    assert!(at(2) < at(3), "warp 1's shfl waited for warp 0's rendezvous");
    let mut r: Vec<Response> = answers.into_iter().map(|(_, r)| on_lanes(r)).collect();
    r.sort_by_key(|x| (x.tag, x.lanes));
    assert_eq!(r, golden_answers(&mut p, &[&early, &other, &late]));
}

/// A CTA launch reaches the core after the requests of its slot taken before it: a store of
/// the slot's last CTA still queued behind a redux when the next CTA is launched is cleared by
/// the launch, and the new CTA reads zeros (the launch overtaking the store would read 7).
#[test]
fn a_launch_waits_for_its_slots_requests_taken_before_it() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    p.launch(1, 2);
    let rx = redux(1, 0);
    let mut st = one_lane(2, 0, Op::StShared, 0x40, 7);
    st.cta = 1;
    st.imm = 4;
    p.rtl.enqueue(&rx).unwrap();
    p.rtl.enqueue(&st).unwrap();
    let mut out = Vec::new();
    while p.rtl.sending() {
        p.rtl.run(1, &mut p.mem, &mut out);
    }
    assert!(out.is_empty(), "the redux was answered before the store's beats were taken: no overlap to test");
    let mut g = Vec::new();
    p.golden.submit(&rx, &mut p.mem, &mut g);
    p.golden.submit(&st, &mut p.mem, &mut g);
    p.mem.shared[1].bytes.fill(0); // the executor clears a new CTA's shared memory for the golden model
    p.golden.launch_cta(1, 2, 64);
    p.rtl.launch_cta(1, 2, &mut p.mem, &mut out);
    let mut ld = one_lane(3, 0, Op::LdShared, 0x40, 0);
    ld.cta = 1;
    ld.imm = 4;
    p.rtl.enqueue(&ld).unwrap();
    let rows = (cfg.shared_bytes / 16) as u64;
    let mut answers: Vec<Response> = std::mem::take(&mut out);
    answers.extend(run_until_answered(&mut p, &[3], 4 * rows).into_iter().map(|(_, r)| r));
    p.golden.submit(&ld, &mut p.mem, &mut g);
    let loaded = answers.iter().find(|r| r.tag == 3).unwrap();
    assert_eq!(loaded.values[0], 0, "the new CTA read its slot's last CTA's store: the launch overtook it");
    answers.sort_by_key(|x| (x.tag, x.lanes));
    g.sort_by_key(|x| (x.tag, x.lanes));
    assert_eq!(answers, g);
}

/// vote.sync.ballot of warp 0's lanes `active` with membermask `member` (lane l votes l odd).
fn ballot(tag: u64, member: u32, active: u32) -> Request {
    warp_ballot(0, tag, member, active)
}

/// [`ballot`] of CTA slot 0's warp `warp`.
fn warp_ballot(warp: u16, tag: u64, member: u32, active: u32) -> Request {
    let mut r = Request::new(tag, 0, warp, Op::VoteSync);
    r.sub = VoteMode::Ballot.code();
    r.member_mask = member;
    r.active_mask = active;
    for l in 0..32 {
        r.lanes[l].a = (l % 2) as u128;
    }
    r
}

/// A warp whose rendezvous records (`rendezvous_per_warp` 3 on fpga-small) are all pending has
/// a fourth collective refused for now: the top answers it `Retry` and drops it from its queue,
/// the request of the warp's other lanes that completes one of the pending ones goes ahead
/// (lane groups of a diverged warp are independent: PTX ISA §9.7.13.9), and the sender offers
/// the refused one again after that answer. In lane order the queue deadlocked.
#[test]
fn a_collective_refused_for_want_of_a_record_goes_after_the_warps_other_lanes() {
    let cfg = Config::fpga_small();
    assert_eq!(cfg.rendezvous_per_warp, 3);
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    settle(&mut p);
    let reqs = [
        ballot(1, 0x0000_00ff, 0x0000_000f),
        ballot(2, 0x0000_ff00, 0x0000_0f00),
        ballot(3, 0x00ff_0000, 0x000f_0000),
        ballot(4, 0xff00_0000, 0x0f00_0000),
        ballot(5, 0x0000_ff00, 0x0000_f000),
        ballot(6, 0xff00_0000, 0xf000_0000),
        ballot(7, 0x00ff_0000, 0x00f0_0000),
        ballot(8, 0x0000_00ff, 0x0000_00f0),
    ];
    for r in &reqs {
        p.rtl.enqueue(r).unwrap();
    }
    let answers = run_until_answered(&mut p, &[1, 2, 3, 4, 5, 6, 7, 8], 2_000);
    let mut r: Vec<Response> = answers.into_iter().map(|(_, r)| on_lanes(r)).collect();
    r.sort_by_key(|x| (x.tag, x.lanes));
    let refs: Vec<&Request> = reqs.iter().collect();
    assert_eq!(r, golden_answers(&mut p, &refs));
    let b = r.iter().find(|x| x.tag == 2).unwrap();
    assert_eq!((b.lanes, b.values[8]), (0x0f00, 0xaa00), "the ballot of lanes 8..15: its odd lanes");
}

/// Refused collectives of more warps than the top's queue holds (`requests_in_flight` 2 on
/// fpga-small; three warps, each with its three records pending and a fourth lane group
/// refused) do not keep the requests that complete their warps' rendezvous out of the queue:
/// each refused one is answered `Retry` and leaves it. With refused requests kept in the queue
/// this deadlocked (generated program seed 628, timed, on fpga-small): the queue was full of
/// them. Every request is answered, as the golden model answers it.
#[test]
fn refused_collectives_of_more_warps_than_queue_entries_do_not_deadlock() {
    let cfg = Config::fpga_small();
    assert_eq!((cfg.rendezvous_per_warp, cfg.requests_in_flight), (3, 2));
    let mut p = Pair::new(&cfg);
    p.launch(0, 3);
    settle(&mut p);
    // (byte, its half) in order: per warp, the low halves of bytes 0..2 wait (three records),
    // the low half of byte 3 is refused, then the high halves complete bytes 0..3.
    let halves = [(0, 0x0f), (1, 0x0f), (2, 0x0f), (3, 0x0f), (0, 0xf0), (1, 0xf0), (2, 0xf0), (3, 0xf0)];
    let mut reqs = Vec::new();
    for (byte, half) in halves {
        for warp in 0..3 {
            let tag = reqs.len() as u64 + 1;
            reqs.push(warp_ballot(warp, tag, 0xff << (8 * byte), half << (8 * byte)));
        }
    }
    for r in &reqs {
        p.rtl.enqueue(r).unwrap();
    }
    let tags: Vec<u64> = reqs.iter().map(|r| r.tag).collect();
    let answers = run_until_answered(&mut p, &tags, 20_000);
    assert!(p.rtl.refused.retries >= 3, "the fourth groups were refused: {} retries", p.rtl.refused.retries);
    let mut r: Vec<Response> = answers.into_iter().map(|(_, r)| on_lanes(r)).collect();
    r.sort_by_key(|x| (x.tag, x.lanes));
    let refs: Vec<&Request> = reqs.iter().collect();
    let mut g = golden_answers(&mut p, &refs);
    g.sort_by_key(|x| (x.tag, x.lanes));
    assert_eq!(r, g);
}

/// An exit of the lanes two pending rendezvous wait for completes both: the warp network
/// answers one, the core sends the exit again, and it answers the other (each waiting request
/// gets its lanes, as the golden model answers them).
#[test]
fn an_exit_completing_two_rendezvous_answers_both_through_the_top() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    settle(&mut p);
    let a = ballot(1, 0x0000_00ff, 0x0000_000f);
    let b = ballot(2, 0x0000_ff00, 0x0000_0f00);
    let mut exit = Request::new(3, 0, 0, Op::WarpExit);
    exit.active_mask = 0x0000_f0f0;
    exit.live_mask = !0x0000_f0f0;
    for r in [&a, &b, &exit] {
        p.rtl.enqueue(r).unwrap();
    }
    let answers = run_until_answered(&mut p, &[1, 2], 2_000);
    let mut r: Vec<Response> = answers.into_iter().map(|(_, r)| on_lanes(r)).collect();
    settle(&mut p);
    r.sort_by_key(|x| (x.tag, x.lanes));
    let g: Vec<Response> = golden_answers(&mut p, &[&a, &b, &exit]).into_iter().filter(|x| x.tag != 3).collect();
    assert_eq!(r, g);
    assert_eq!((r[0].lanes, r[1].lanes), (0x0f, 0x0f00));
}

/// An atom or red on a live mbarrier object's bytes is refused at that lane (PTX ISA
/// §9.7.13.15), as a plain ld/st.shared is: the atomic ALU finds it in the line it reads (the
/// shared RAM's live bits), the lanes of its step before it write, none after it.
#[test]
fn c005_an_atomic_on_a_live_mbarrier_is_refused() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    assert_eq!(p.submit(&one_lane(1, 0, Op::MbInit, 0x208, 1))[0].error, ErrorCode::None);
    // atom.shared.add.u32 over 0x200..0x220: lanes 0-1 share lane 0's step, lane 2 is the object
    let mut atom = Request::new(2, 0, 0, Op::Atom);
    atom.sub = AtomOp::Add.code();
    atom.dtype = DataType::U32;
    atom.space = Space::SharedCta;
    atom.active_mask = 0xff;
    for l in 0..8 {
        atom.lanes[l].addr = 0x200 + 4 * l as u64;
        atom.lanes[l].b = 1 + l as u128;
    }
    let r = p.submit(&atom);
    assert_eq!((r[0].error, r[0].error_lane), (ErrorCode::MbarrierPlainAccess, 2));
    // red.shared.add.u64 with its lead on the object's word
    let mut red = atom.clone();
    red.tag = 3;
    red.op = Op::Red;
    red.dtype = DataType::U64;
    red.active_mask = 0b110;
    red.lanes[1].addr = 0x208;
    red.lanes[2].addr = 0x210;
    let r = p.submit(&red);
    assert_eq!((r[0].error, r[0].error_lane), (ErrorCode::MbarrierPlainAccess, 1));
    // what was written: lanes 0 and 1 of the atom only
    let mut ld = Request::new(4, 0, 0, Op::LdShared);
    ld.imm = 4;
    ld.active_mask = 0b11 | 0b11 << 4;
    for (l, addr) in [(0, 0x200), (1, 0x204), (4, 0x210), (5, 0x214)] {
        ld.lanes[l].addr = addr;
    }
    let r = p.submit(&ld);
    assert_eq!([r[0].values[0], r[0].values[1], r[0].values[4], r[0].values[5]], [1, 2, 0, 0]);
}

/// A copy whose shared destination overlaps a live mbarrier object is refused before any byte
/// moves (PTX ISA §9.7.13.15; the golden unit answers `MbarrierPlainAccess` at issue): the top's
/// live map, fed by the shared RAM's live-bit writes, answers the copy engine's probe of the
/// destination range. The copy right after the init, a range of many 512-byte entries, the
/// same offset in the other slot, inval, and a new CTA in the slot.
#[test]
fn c005_a_copy_onto_a_live_mbarrier_is_refused() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    p.launch(1, 2);
    let (mbar, obj) = (0x40, 0x1208);
    assert_eq!(p.submit(&one_lane(1, 0, Op::MbInit, mbar, 1))[0].error, ErrorCode::None);
    assert_eq!(p.submit(&one_lane(2, 0, Op::MbInit, obj, 1))[0].error, ErrorCode::None);
    // cp.async, 4 lanes of 16 bytes over 0x11f0..0x122f: lane 1 (0x1200) holds the object
    let mut cp = Request::new(3, 0, 0, Op::CpAsync);
    cp.imm = 16;
    cp.active_mask = 0xf;
    for l in 0..4 {
        cp.lanes[l].addr = 0x11f0 + 16 * l as u64;
        cp.lanes[l].src = GLOBAL_BASE + 0x100 + 16 * l as u64;
        cp.lanes[l].a = 16;
    }
    let r = p.submit(&cp);
    assert_eq!((r[0].error, r[0].error_lane), (ErrorCode::MbarrierPlainAccess, 1));
    let bulk = |tag, cta, dst, len| {
        let mut c = one_lane(tag, 0, Op::CpBulk, dst, len);
        c.cta = cta;
        c.sub = BulkDir::GlobalToShared.code();
        c.lanes[0].src = GLOBAL_BASE + 0x400;
        c.lanes[0].mbar = mbar;
        c
    };
    // 0x400..0x1fff: the object in one of its middle entries
    let r = p.submit_and_drain(&bulk(4, 0, 0x400, 0x1c00));
    assert_eq!(r[0].error, ErrorCode::MbarrierPlainAccess);
    // the word after it, and the same offset in slot 1
    assert_eq!(p.submit_and_drain(&bulk(5, 0, obj + 8, 16))[0].error, ErrorCode::None);
    let mut other = one_lane(6, 0, Op::MbInit, mbar, 1);
    other.cta = 1;
    assert_eq!(p.submit(&other)[0].error, ErrorCode::None);
    assert_eq!(p.submit_and_drain(&bulk(7, 1, 0x1200, 16))[0].error, ErrorCode::None);
    // inval ends its life
    assert_eq!(p.submit(&one_lane(8, 0, Op::MbInval, obj, 0))[0].error, ErrorCode::None);
    assert_eq!(p.submit_and_drain(&bulk(9, 0, 0x1200, 16))[0].error, ErrorCode::None);
    // so does a new CTA in the slot
    assert_eq!(p.submit(&one_lane(10, 0, Op::MbInit, obj, 1))[0].error, ErrorCode::None);
    assert_eq!(p.submit_and_drain(&bulk(11, 0, 0x1200, 16))[0].error, ErrorCode::MbarrierPlainAccess);
    p.launch(0, 2);
    assert_eq!(p.submit(&one_lane(12, 0, Op::MbInit, mbar, 1))[0].error, ErrorCode::None);
    assert_eq!(p.submit_and_drain(&bulk(13, 0, 0x1200, 16))[0].error, ErrorCode::None);
}

/// A bulk copy whose mbarrier is not live (never initialized, or invalidated) is refused at issue
/// (PTX ISA §9.7.13.15; the golden unit checks the copy's mbarrier before any byte moves,
/// `MbNotInitialized`): the live map answers the mbarrier word beside the destination range.
/// Before, the RTL moved the bytes and answered a late error at the complete_tx.
#[test]
fn c004_a_bulk_copy_with_a_dead_mbarrier_is_refused_at_issue() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    let bulk = |tag, mbar| {
        let mut c = one_lane(tag, 0, Op::CpBulk, 0x400, 64);
        c.sub = BulkDir::GlobalToShared.code();
        c.lanes[0].src = GLOBAL_BASE + 0x400;
        c.lanes[0].mbar = mbar;
        c
    };
    let r = p.submit_and_drain(&bulk(1, 0x40));
    assert_eq!((r.len(), r[0].error), (1, ErrorCode::MbNotInitialized), "{r:?}");
    assert_eq!(p.submit(&one_lane(2, 0, Op::MbInit, 0x40, 1))[0].error, ErrorCode::None);
    let r = p.submit_and_drain(&bulk(3, 0x40));
    assert_eq!((r.len(), r[0].error), (1, ErrorCode::None), "{r:?}");
    assert_eq!(p.submit(&one_lane(4, 0, Op::MbInval, 0x40, 0))[0].error, ErrorCode::None);
    let r = p.submit_and_drain(&bulk(5, 0x40));
    assert_eq!((r.len(), r[0].error), (1, ErrorCode::MbNotInitialized), "{r:?}");
}

/// A plain ld/st.shared that touches a live mbarrier object is refused at its first such lane
/// (PTX ISA §9.7.13.15: while live, the object is accessed only by mbarrier instructions; the
/// project reports the undefined access as `MbarrierPlainAccess`): the lanes before it are done,
/// the lanes from it on are not (a store's next lane, already on the write port, included); every
/// access size overlapping the object's 8 bytes is caught; inval, and a new CTA in the slot, end
/// the object's life.
#[test]
fn c005_a_plain_access_to_a_live_mbarrier_is_refused() {
    let cfg = Config::fpga_small();
    let mut p = Pair::new(&cfg);
    p.launch(0, 2);
    let mbar = 0x208;
    assert_eq!(p.submit(&one_lane(1, 0, Op::MbInit, mbar, 1))[0].error, ErrorCode::None);
    let words = |tag, op, base: u64, size: u32| {
        let mut r = Request::new(tag, 0, 0, op);
        r.imm = size;
        for l in 0..32 {
            r.lanes[l].addr = base + size as u64 * l as u64;
            r.lanes[l].a = 0x3000_0000 + l as u128;
        }
        r
    };
    // st.shared.b32 over 0x200..0x280: lane 2 (0x208) is the object's first half
    let r = p.submit(&words(2, Op::StShared, 0x200, 4));
    assert_eq!((r[0].error, r[0].error_lane), (ErrorCode::MbarrierPlainAccess, 2));
    // lane 5 at 0x20c (the object's second half): lane 6's store, issued the cycle after, is dropped too
    let mut st = words(3, Op::StShared, 0x300, 4);
    st.lanes[5].addr = mbar + 4;
    let r = p.submit(&st);
    assert_eq!((r[0].error, r[0].error_lane), (ErrorCode::MbarrierPlainAccess, 5));
    let mut back = words(4, Op::LdShared, 0x300, 4);
    back.active_mask = !(1 << 5);
    let r = p.submit(&back);
    assert_eq!(r[0].values[..8], [0x3000_0000, 0x3000_0001, 0x3000_0002, 0x3000_0003, 0x3000_0004, 0, 0, 0]);
    let mut back = words(5, Op::LdShared, 0x200, 4);
    back.active_mask = 0b11 | 0xffff_fff0;
    let r = p.submit(&back);
    assert_eq!(r[0].values[..5], [0x3000_0000, 0x3000_0001, 0, 0, 0], "lanes 0-1 stored, 4 on not");
    // loads of every size that overlap the object: 1 byte at its end, 2, 4, 8 and 16 bytes
    for (tag, addr, size) in [(6, mbar + 7, 1), (7, mbar + 6, 2), (8, mbar + 4, 4), (9, mbar, 8), (10, 0x200, 16)] {
        let mut ld = one_lane(tag, 0, Op::LdShared, addr, 0);
        ld.imm = size;
        let r = p.submit(&ld);
        assert_eq!((r[0].error, r[0].error_lane), (ErrorCode::MbarrierPlainAccess, 0), "{size} bytes at {addr:#x}");
    }
    // the words beside it are plain memory
    let mut ld = one_lane(11, 0, Op::LdShared, mbar + 8, 0);
    ld.imm = 8;
    assert_eq!(p.submit(&ld)[0].error, ErrorCode::None);
    // inval ends its life: the store goes through
    assert_eq!(p.submit(&one_lane(12, 0, Op::MbInval, mbar, 0))[0].error, ErrorCode::None);
    let mut st = one_lane(13, 0, Op::StShared, mbar, 0x5555);
    st.imm = 8;
    assert_eq!(p.submit(&st)[0].error, ErrorCode::None);
    // so does a new CTA in the slot
    assert_eq!(p.submit(&one_lane(14, 0, Op::MbInit, 0x210, 1))[0].error, ErrorCode::None);
    p.launch(0, 2);
    let mut st = one_lane(15, 0, Op::StShared, 0x210, 0x6666);
    st.imm = 8;
    assert_eq!(p.submit(&st)[0].error, ErrorCode::None);
}
