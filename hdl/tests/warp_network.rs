//! warp_network RTL (rust-hdl simulator) against a reference model of PTX vote/match/redux/elect/
//! activemask/bar.warp.sync/shfl.sync semantics.
//!
//! Random requests are compared response by response with the golden unit
//! `smsync_sim::units::warp_network` (its per-request responses merged per rendezvous); directed tests use
//! hand-computed expectations.
//!
//! Random campaigns: SMSYNC_UNIT_SEEDS=1,2,3 SMSYNC_UNIT_COUNT=100000 cargo test -p smsync-hdl --test warp_network

use rust_hdl::prelude::*;
use smsync_hdl::warp_network::{beats_per_request, carries_beats, WarpNetwork, CANONICAL_NAN};
use smsync_sim::config::{Config, MatchImpl};
use smsync_sim::encoding::{flags, DataType, ErrorCode, Op, ReduxOp, ShflMode, VoteMode};
use smsync_sim::units::{LaneOps, Request};
use smsync_testkit::{Campaign, Rng};

// ------------------------------------------------------------------ harness

#[derive(Clone, Debug, Default)]
struct Req {
    op: u8,
    sub: u8,
    dtype: u8,
    flags: u8,
    cta: u8,
    warp: u8,
    member: u32,
    active: u32,
    live: u32,
    a: [u64; 32],
    b: [u8; 32],
    c: [u16; 32],
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Resp {
    cta: u8,
    warp: u8,
    lanes: u32,
    values: [u32; 32],
    preds: u32,
    error: u8,
    error_lane: u8,
}

struct Dut {
    uut: WarpNetwork,
    cycles: u64,
    /// `lanes_per_beat` and beats per data-op request of the config.
    lanes: usize,
    beats: usize,
}

impl Dut {
    fn new(cfg: &Config) -> Dut {
        let mut uut = WarpNetwork::new(cfg);
        uut.connect_all();
        let mut d = Dut { uut, cycles: 0, lanes: cfg.lanes_per_beat as usize, beats: beats_per_request(cfg) };
        d.uut.reset.next = true;
        d.tick();
        d.uut.reset.next = false;
        d.settle();
        d
    }
    fn settle(&mut self) {
        assert!(simulate(&mut self.uut, 10_000), "circuit did not settle");
    }
    fn tick(&mut self) {
        self.settle();
        self.uut.clock.next = Clock { clk: true };
        self.settle();
        self.uut.clock.next = Clock { clk: false };
        self.settle();
        self.cycles += 1;
    }
    fn drive(&mut self, r: &Req) {
        let u = &mut self.uut;
        u.req_valid.next = true;
        u.req_op.next = bits(r.op as u64);
        u.req_sub.next = bits(r.sub as u64);
        u.req_dtype.next = bits(r.dtype as u64);
        u.req_flags.next = bits(r.flags as u64);
        u.req_cta.next = bits(r.cta as u64);
        u.req_warp.next = bits(r.warp as u64);
        u.req_member.next = bits(r.member as u64);
        u.req_active.next = bits(r.active as u64);
        u.req_live.next = bits(r.live as u64);
        let pred = (0..32).fold(0u64, |p, i| p | ((r.a[i] & 1) << i));
        u.req_pred.next = bits(pred);
    }
    /// Put beat `beat` of `r` (lanes `L*beat ..`) on the beat port, or none when `beat` is past
    /// the request's beats.
    fn drive_beat(&mut self, r: &Req, beat: usize) {
        let has_beats = Op::from_code(r.op).is_some_and(carries_beats);
        let on = has_beats && beat < self.beats;
        let u = &mut self.uut;
        u.beat_valid.next = on;
        for i in 0..self.lanes {
            let lane = if on { beat * self.lanes + i } else { 0 };
            u.beat_a[i].next = bits(if on { r.a[lane] } else { 0 });
            u.beat_b[i].next = bits(if on { r.b[lane] as u64 } else { 0 });
            u.beat_clamp[i].next = bits(if on { (r.c[lane] & 31) as u64 } else { 0 });
            u.beat_segmask[i].next = bits(if on { (r.c[lane] >> 8 & 31) as u64 } else { 0 });
        }
    }
    /// The response this cycle, if any. A response of no lanes and no error is the unit taking a
    /// partial arrival (its lanes are answered when the rendezvous fires): the caller treats it as no answer yet.
    fn read_resp(&mut self) -> Option<Resp> {
        if !self.uut.resp_valid.val() {
            return None;
        }
        // The values a row of L lanes at a time, as the top's egress reads them.
        let mut values = [0u32; 32];
        for row in 0..self.beats {
            self.uut.resp_row.next = bits(row as u64);
            self.settle();
            for i in 0..self.lanes {
                values[row * self.lanes + i] = self.uut.resp_row_values[i].val().to_u32();
            }
        }
        let u = &self.uut;
        Some(Resp {
            cta: u.resp_cta.val().to_u8(),
            warp: u.resp_warp.val().to_u8(),
            lanes: u.resp_lanes.val().to_u32(),
            values,
            preds: u.resp_preds.val().to_u32(),
            error: u.resp_error.val().to_u8(),
            error_lane: u.resp_error_lane.val().to_u8(),
        })
    }
    /// Offer a request's header until taken and its operand beats one per cycle; return the
    /// response it produced and the latency: clock edges from the header's first cycle on the
    /// port to the response (the record lookup and the cycle the header is taken count). Every
    /// header taken is answered once; an answer of no lanes and no error (a partial arrival
    /// recorded, or an exit that fired nothing) is returned as `None`.
    fn submit(&mut self, r: &Req) -> (Option<Resp>, u64) {
        self.drive(r);
        let (mut header_taken, mut beat, mut latency) = (false, 0usize, 0u64);
        loop {
            self.drive_beat(r, beat);
            self.settle();
            let take_header = !header_taken && self.uut.req_ready.val();
            let take_beat = self.uut.beat_valid.val() && self.uut.beat_ready.val();
            self.tick();
            latency += 1;
            header_taken |= take_header;
            if take_header {
                self.uut.req_valid.next = false;
            }
            beat += take_beat as usize;
            self.settle();
            if let Some(resp) = self.read_resp() {
                assert!(header_taken, "a response before the header was taken");
                self.drive_beat(r, usize::MAX);
                self.settle();
                let none = resp.lanes == 0 && resp.error == 0;
                return (if none { None } else { Some(resp) }, latency);
            }
            assert!(latency < 200, "no response within 200 cycles (header taken: {header_taken}, beats: {beat})");
        }
    }
}

// ------------------------------------------------------------------ golden reference

/// The golden unit answers each partial request of a rendezvous separately; the RTL answers a
/// completed rendezvous with one response covering every arrived lane. `Golden::submit` merges
/// the golden responses of one submission into that form.
struct Golden {
    unit: smsync_sim::units::warp_network::WarpNetwork,
    tag: u64,
}

impl Golden {
    fn new(cfg: &Config) -> Golden {
        Golden { unit: smsync_sim::units::warp_network::WarpNetwork::new(cfg), tag: 0 }
    }
    fn submit(&mut self, r: &Req) -> Option<Resp> {
        self.tag += 1;
        let mut q = Request::new(self.tag, r.cta as u16, r.warp as u16, Op::from_code(r.op).unwrap());
        q.sub = r.sub;
        q.dtype = DataType::from_code(r.dtype).unwrap();
        q.flags = r.flags;
        q.member_mask = r.member;
        q.active_mask = r.active;
        q.live_mask = r.live;
        for i in 0..32 {
            q.lanes[i] = LaneOps { a: r.a[i] as u128, b: r.b[i] as u128, c: r.c[i] as u128, ..Default::default() };
        }
        let mut out = vec![];
        self.unit.submit(&q, &mut out);
        if out.is_empty() {
            return None;
        }
        let mut m = Resp { cta: r.cta, warp: r.warp, lanes: 0, values: [0; 32], preds: 0, error: 0, error_lane: 0 };
        for g in &out {
            m.lanes |= g.lanes;
            m.preds |= g.preds;
            for i in 0..32 {
                if g.lanes >> i & 1 == 1 {
                    m.values[i] = g.values[i] as u32;
                }
            }
            if g.error != ErrorCode::None && (m.error == 0 || g.tag == self.tag) {
                m.error = g.error.code();
                m.error_lane = g.error_lane;
            }
        }
        Some(m)
    }
}

// ------------------------------------------------------------------ random requests

const OPS: [Op; 8] = [
    Op::VoteSync,
    Op::MatchAny,
    Op::MatchAll,
    Op::ReduxSync,
    Op::ElectSync,
    Op::Activemask,
    Op::WarpSync,
    Op::ShflSync,
];

fn random_request(rng: &mut Rng, cfg: &Config) -> Req {
    let op = OPS[rng.below(OPS.len() as u64) as usize];
    let mut r = Req {
        op: op.code(),
        cta: rng.below(cfg.cta_slots as u64) as u8,
        warp: rng.below(cfg.max_warps_per_cta as u64) as u8,
        ..Default::default()
    };
    r.member = match rng.below(4) {
        0 => u32::MAX,
        1 => rng.next() as u32 | 1,
        2 => 0xFFFF << (rng.below(2) * 16),
        _ => 1 << rng.below(32),
    };
    r.live = if rng.below(3) == 0 { rng.next() as u32 | r.member } else { u32::MAX };
    if rng.below(5) == 0 {
        r.live &= rng.next() as u32;
    }
    if r.member & r.live == 0 {
        r.live |= r.member & r.member.wrapping_neg();
    }
    r.active = r.member & r.live;
    if op == Op::Activemask {
        r.member = u32::MAX;
        r.active = r.live & rng.next() as u32;
    } else if rng.below(50) == 0 {
        // perhaps outside the mask (NotInMemberMask); never an exited lane: the executor only
        // sends live lanes (active is a subset of live)
        r.active |= (1 << rng.below(32)) & r.live;
    }
    let domain = if rng.below(2) == 0 { 3 } else { u64::MAX };
    for i in 0..32 {
        r.a[i] = match rng.below(8) {
            0 => [0, 0x8000_0000, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0xFFC0_0001, 0x3F80_0000, 0xBF80_0000]
                [rng.below(8) as usize],
            _ => rng.next() % domain.max(1).wrapping_add(0),
        };
        if domain == 3 && rng.below(2) == 0 {
            r.a[i] |= (rng.below(2)) << 40; // b64 only differences
        }
        r.b[i] = rng.below(32) as u8;
        r.c[i] = if rng.below(2) == 0 { 0x1F } else { rng.next() as u16 & 0x1F1F };
    }
    match op {
        Op::VoteSync => {
            r.sub = rng.below(4) as u8;
            r.flags = if rng.below(2) == 0 { flags::NEGATE } else { 0 };
        }
        Op::MatchAny | Op::MatchAll => {
            r.dtype = if rng.below(2) == 0 { DataType::B32.code() } else { DataType::B64.code() }
        }
        Op::ReduxSync => {
            let choice = rng.below(4);
            let (sub, dt) = match choice {
                0 => (rng.below(3) as u8, DataType::U32),
                1 => (rng.below(3) as u8, DataType::S32),
                2 => (3 + rng.below(3) as u8, DataType::B32),
                _ => (1 + rng.below(2) as u8, DataType::F32),
            };
            r.sub = sub;
            r.dtype = dt.code();
            if dt == DataType::F32 {
                r.flags = (rng.below(4) as u8) * flags::MOD_A;
            }
        }
        Op::ShflSync => {
            r.sub = rng.below(4) as u8;
            // shfl b and c are usually warp-uniform
            if rng.below(2) == 0 {
                let (b0, c0) = (r.b[0], r.c[0]);
                r.b = [b0; 32];
                r.c = [c0; 32];
            }
        }
        _ => {}
    }
    r
}

/// Split a request into partial arrivals (a diverged warp), sometimes.
fn split(rng: &mut Rng, r: &Req) -> Vec<Req> {
    if r.op == Op::Activemask.code() || rng.below(3) != 0 || r.active.count_ones() < 2 || r.active & !r.member != 0 {
        return vec![r.clone()];
    }
    let first = r.active & rng.next() as u32;
    let mut p1 = r.clone();
    p1.active = first;
    let mut p2 = r.clone();
    p2.active = r.active & !first;
    [p1, p2].into_iter().filter(|p| p.active != 0).collect()
}

/// `quick`: the quick tier's request count for this config (the full tier runs 10,000 per seed).
fn run_random(cfg: &Config, quick: usize) {
    let (seeds, count) = Campaign::new("UNIT", (&[0x5EED_0001], quick), (&[0x5EED_0001, 2, 3], 10_000)).split();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut dut = Dut::new(cfg);
        let mut reference = Golden::new(cfg);
        let mut n = 0;
        while n < count {
            let r = random_request(&mut rng, cfg);
            for part in split(&mut rng, &r) {
                let want = reference.submit(&part);
                let (got, _) = dut.submit(&part);
                assert_eq!(got, want, "config {} seed {seed:#x} request #{n}: {part:?}", cfg.name);
                n += 1;
            }
        }
    }
}

fn req(op: Op) -> Req {
    Req { op: op.code(), member: u32::MAX, active: u32::MAX, live: u32::MAX, ..Default::default() }
}

// ------------------------------------------------------------------ tests

/// 500 requests in the quick tier: the default network costs about 50 ms of rust-hdl simulation
/// per request (2,000 took 102 s of CPU), fpga-small's about 13 ms.
#[test]
fn random_requests_match_golden_default_config() {
    run_random(&Config::hopper_like(), 500);
}

#[test]
fn random_requests_match_golden_fpga_small_iterative_match() {
    run_random(&Config::fpga_small(), 2_000);
}

#[test]
fn c064_c065_c067_vote_all_any_ballot() {
    let mut dut = Dut::new(&Config::fpga_small());
    let mut r = req(Op::VoteSync);
    r.member = 0x0000_00FF;
    r.active = 0xFF;
    for i in 0..8 {
        r.a[i] = (i % 2) as u64;
    }
    r.sub = VoteMode::All.code();
    assert_eq!(dut.submit(&r).0.unwrap().preds, 0);
    r.sub = VoteMode::Any.code();
    assert_eq!(dut.submit(&r).0.unwrap().preds, 0xFF);
    r.sub = VoteMode::Ballot.code();
    let resp = dut.submit(&r).0.unwrap();
    assert_eq!(resp.values[0], 0xAA);
    assert_eq!(resp.values[7], 0xAA);
}

#[test]
fn c069_match_any_with_partial_mask_and_exited_lanes() {
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        let mut dut = Dut::new(&cfg);
        let mut r = req(Op::MatchAny);
        r.member = 0x0000_F0F0;
        r.live = !0x0000_0010; // lane 4 exited
        r.active = r.member & r.live;
        for i in 0..32 {
            r.a[i] = (i % 3) as u64;
        }
        let (resp, latency) = dut.submit(&r);
        let resp = resp.unwrap();
        // lanes 5,6,7,12,13,14,15 with values 2,0,1,0,1,2,0
        assert_eq!(resp.values[5], 1 << 5 | 1 << 14);
        assert_eq!(resp.values[6], 1 << 6 | 1 << 12 | 1 << 15);
        assert_eq!(resp.values[4], 0);
        assert_eq!(resp.lanes, 0xF0E0);
        // record read, match and lookup, NB beats (the first with the header), the last one's landing
        // cycle, then NB emit cycles of
        // lanes_per_beat rows (parallel) or the registered key's cycle and 32 cycles of one row
        // (iterative), the group's register stage and the cycle that writes the last answers
        // into the result store
        let nb = beats_per_request(&cfg) as u64;
        let expect_latency = if cfg.match_impl == MatchImpl::Parallel { 6 + 2 * nb } else { 7 + nb + 32 };
        assert_eq!(latency, expect_latency, "{}", cfg.name);
    }
}

#[test]
fn c074_signed_redux_min_max() {
    let mut dut = Dut::new(&Config::hopper_like());
    let mut r = req(Op::ReduxSync);
    r.dtype = DataType::S32.code();
    for i in 0..32 {
        r.a[i] = (i as i32 - 5) as u32 as u64;
    }
    r.sub = ReduxOp::Min.code();
    assert_eq!(dut.submit(&r).0.unwrap().values[3], (-5i32) as u32);
    r.sub = ReduxOp::Max.code();
    assert_eq!(dut.submit(&r).0.unwrap().values[3], 26);
    r.dtype = DataType::U32.code();
    assert_eq!(dut.submit(&r).0.unwrap().values[3], (-1i32) as u32);
}

#[test]
fn c076_c077_c078_c079_redux_f32_zero_nan_abs() {
    // Both presets build redux.f32 (fpga-small's tree is 4 leaves wide, folded over 8 groups).
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        redux_f32_cases(&cfg);
    }
}

fn redux_f32_cases(cfg: &Config) {
    let mut dut = Dut::new(cfg);
    let mut r = req(Op::ReduxSync);
    r.dtype = DataType::F32.code();
    r.member = 0b11;
    r.active = 0b11;
    r.a[0] = 0x0000_0000;
    r.a[1] = 0x8000_0000;
    r.sub = ReduxOp::Max.code();
    assert_eq!(dut.submit(&r).0.unwrap().values[0], 0);
    r.sub = ReduxOp::Min.code();
    assert_eq!(dut.submit(&r).0.unwrap().values[0], 0x8000_0000);
    r.a[0] = 0x7FC0_0000; // NaN
    r.a[1] = (-3.0f32).to_bits() as u64;
    assert_eq!(dut.submit(&r).0.unwrap().values[0], (-3.0f32).to_bits());
    r.flags = flags::MOD_B;
    assert_eq!(dut.submit(&r).0.unwrap().values[0], CANONICAL_NAN);
    r.flags = flags::MOD_A;
    r.a[0] = 2.0f32.to_bits() as u64;
    r.sub = ReduxOp::Max.code();
    assert_eq!(dut.submit(&r).0.unwrap().values[0], 3.0f32.to_bits());
    // Lanes in the first and the last beat group: max(-1.0, 2.5) = 2.5, min = -1.0.
    r.flags = 0;
    r.member = 1 | 1 << 31;
    r.active = r.member;
    r.a[0] = (-1.0f32).to_bits() as u64;
    r.a[31] = 2.5f32.to_bits() as u64;
    assert_eq!(dut.submit(&r).0.unwrap().values[31], 2.5f32.to_bits(), "max on {}", cfg.name);
    r.sub = ReduxOp::Min.code();
    assert_eq!(dut.submit(&r).0.unwrap().values[0], (-1.0f32).to_bits(), "min on {}", cfg.name);
}

#[test]
fn c080_elect_lowest_live_lane_of_mask() {
    let mut dut = Dut::new(&Config::hopper_like());
    let mut r = req(Op::ElectSync);
    r.member = 0xF0F0_0000;
    r.live = !0x0010_0000;
    r.active = r.member & r.live;
    let resp = dut.submit(&r).0.unwrap();
    assert_eq!(resp.preds, 1 << 21);
    assert_eq!(resp.values[22], 21);
}

#[test]
fn c081_c082_warp_sync_waits_for_all_mask_lanes_and_flags_outside_lane() {
    let mut dut = Dut::new(&Config::hopper_like());
    let mut r = req(Op::WarpSync);
    r.cta = 3;
    r.warp = 7;
    r.member = 0xFF;
    r.active = 0x0F;
    assert_eq!(dut.submit(&r).0, None);
    r.active = 0xF0;
    let resp = dut.submit(&r).0.unwrap();
    assert_eq!((resp.lanes, resp.cta, resp.warp, resp.error), (0xFF, 3, 7, 0));
    r.active = 0x100;
    let resp = dut.submit(&r).0.unwrap();
    assert_eq!((resp.error, resp.error_lane), (ErrorCode::NotInMemberMask.code(), 8));
    // a second request of the warp with another membermask
    r.active = 0x1;
    assert_eq!(dut.submit(&r).0, None);
    r.member = 0x3;
    r.active = 0x2;
    assert_eq!(dut.submit(&r).0.unwrap().error, ErrorCode::MemberMaskMismatch.code());
}

#[test]
fn shfl_down_clamp_and_idx_segments() {
    let mut dut = Dut::new(&Config::hopper_like());
    let mut r = req(Op::ShflSync);
    for i in 0..32 {
        r.a[i] = 100 + i as u64;
        r.b[i] = 4;
        r.c[i] = 0x1F;
    }
    r.sub = ShflMode::Down.code();
    let resp = dut.submit(&r).0.unwrap();
    assert_eq!(resp.values[0], 104);
    assert_eq!(resp.values[28], 128); // source 32 > clamp 31: own value, p = 0
    assert_eq!(resp.preds, 0x0FFF_FFFF);
    // idx within 8-lane segments: segmask 0x18, clamp 7
    r.sub = ShflMode::Idx.code();
    for i in 0..32 {
        r.b[i] = 2;
        r.c[i] = 0x1807;
    }
    let resp = dut.submit(&r).0.unwrap();
    assert_eq!(resp.values[13], 110);
    assert_eq!(resp.values[31], 126);
}

/// Latency (clocks from the header's first cycle on the port to the response) of the documented
/// datapath, for `NB = 32 / lanes_per_beat` beats: ops without operands 4 (records read, matched,
/// decision, then taken and answered); shfl 6 + 2 NB (read, match and decision, NB beats with the
/// first taken with the header, the cycle in which the last registered beat lands in the operand
/// store, NB emit cycles, each group registered and its answers computed a cycle later into
/// registers, the cycle that writes the last of them into the result store); match.all 9 + 2 NB
/// (and the cycle that reads its key, the leader's operand, into a register before its row
/// compares, the one whose row is registered, and the one whose compare with the member lanes
/// is); redux 7 + 3 NB + log2 L (as shfl,
/// plus NB groups into the pipelined tree and 1 + log2 L cycles through its registers: the
/// leaves' and one per level). Checked on both presets
/// (NB = 1 and NB = 8), with the values from the PTX definitions.
#[test]
fn latency_follows_the_beat_datapath() {
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        let nb = beats_per_request(&cfg) as u64;
        let mut dut = Dut::new(&cfg);
        let mut r = req(Op::ReduxSync);
        r.sub = ReduxOp::Add.code();
        r.dtype = DataType::U32.code();
        for i in 0..32 {
            r.a[i] = i as u64;
        }
        let (resp, latency) = dut.submit(&r);
        assert_eq!(resp.unwrap().values[0], (0..32).sum::<u32>(), "{}", cfg.name);
        let levels = cfg.lanes_per_beat.trailing_zeros() as u64;
        assert_eq!(latency, 7 + 3 * nb + levels, "redux on {}", cfg.name);
        let mut s = req(Op::ShflSync);
        s.sub = ShflMode::Idx.code();
        for i in 0..32 {
            s.a[i] = 100 + i as u64;
            s.b[i] = (31 - i) as u8;
            s.c[i] = 0x1f;
        }
        let (resp, latency) = dut.submit(&s);
        assert_eq!(resp.unwrap().values[0], 131, "shfl.idx lane 0 reads lane 31 on {}", cfg.name);
        assert_eq!(latency, 6 + 2 * nb, "shfl on {}", cfg.name);
        // match.all: lanes 0..31 of the full mask all hold 7 but lane 9 (8): no match, 0 and
        // predicate false; then all equal: every lane answers the member mask.
        let mut m = req(Op::MatchAll);
        m.dtype = DataType::B32.code();
        for i in 0..32 {
            m.a[i] = if i == 9 { 8 } else { 7 };
        }
        let (resp, latency) = dut.submit(&m);
        let resp = resp.unwrap();
        assert_eq!((resp.values[0], resp.preds), (0, 0), "match.all with one lane different on {}", cfg.name);
        assert_eq!(latency, 9 + 2 * nb, "match.all on {}", cfg.name);
        m.a[9] = 7;
        let (resp, latency) = dut.submit(&m);
        let resp = resp.unwrap();
        assert_eq!((resp.values[31], resp.preds), (u32::MAX, u32::MAX), "match.all, all equal, on {}", cfg.name);
        assert_eq!(latency, 9 + 2 * nb, "match.all on {}", cfg.name);
        let (resp, latency) = dut.submit(&req(Op::VoteSync));
        assert!(resp.is_some());
        assert_eq!(latency, 4, "vote on {}", cfg.name);
    }
}

#[test]
fn verilog_is_generated_for_both_presets() {
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        let mut uut = WarpNetwork::new(&cfg);
        uut.connect_all();
        let v = generate_verilog(&uut);
        assert!(v.contains("module top"), "{}", cfg.name);
    }
}

// Lint: gen/tests/gen_lint.rs lints every module `smsync gen` writes for every config in
// configs/ (equal to the presets: sim/tests/configs.rs).

/// Lanes 0..28 reach redux.sync / vote.sync / match.any (full mask) while lanes 29..31 are still
/// live: the unit takes them as a partial arrival (no answer yet). The exit of lanes 29..31
/// (WarpExit with the smaller live mask) fires the rendezvous: one response for lanes 0..28,
/// equal to the golden unit's. An exit with no pending rendezvous answers no lanes.
#[test]
fn c069_exit_of_the_last_lanes_fires_a_pending_rendezvous() {
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        for (op, sub, dtype) in [
            (Op::ReduxSync, ReduxOp::Add.code(), DataType::U32.code()),
            (Op::VoteSync, 0, 0),
            (Op::MatchAny, 0, DataType::B32.code()),
        ] {
            let mut dut = Dut::new(&cfg);
            let mut gold = Golden::new(&cfg);
            let mut r = req(op);
            r.sub = sub;
            r.dtype = dtype;
            r.warp = 1;
            r.active = 0x1FFF_FFFF;
            for i in 0..32 {
                r.a[i] = (i as u64 * 7) % 5;
            }
            assert_eq!(gold.submit(&r), None, "{op:?}: golden waits for lanes 29..31");
            assert_eq!(dut.submit(&r).0, None, "{op:?}: the RTL waits for lanes 29..31");
            let mut exit = req(Op::WarpExit);
            exit.warp = 1;
            exit.active = 0xE000_0000;
            exit.live = 0x1FFF_FFFF;
            let want = gold.submit(&exit).expect("golden fires on the exit");
            let got = dut.submit(&exit).0.expect("the RTL fires on the exit");
            assert_eq!(got, want, "{op:?} on {}", cfg.name);
            assert_eq!(got.lanes, 0x1FFF_FFFF);
            // Nothing pending now: a second exit answers no lanes.
            let mut exit2 = exit.clone();
            exit2.live = 0x0FFF_FFFF;
            exit2.active = 0x1000_0000;
            assert_eq!(dut.submit(&exit2).0, None, "{op:?}: an exit with nothing pending");
        }
    }
}

// ------------------------------------------------------------------ several rendezvous per warp

/// A redux.sync.u32 request of `lanes` with membermask `member` (operand a = 3 * lane + 1).
fn redux_part(sub: ReduxOp, member: u32, lanes: u32) -> Req {
    let mut r = req(Op::ReduxSync);
    r.sub = sub.code();
    r.dtype = DataType::U32.code();
    r.warp = 2;
    r.member = member;
    r.active = lanes;
    for i in 0..32 {
        r.a[i] = 3 * i as u64 + 1;
    }
    r
}

fn vote_part(member: u32, lanes: u32) -> Req {
    let mut r = req(Op::VoteSync);
    r.sub = VoteMode::Ballot.code();
    r.warp = 2;
    r.member = member;
    r.active = lanes;
    r
}

/// PTX ISA §9.7.13.12: each lane is released once every live lane of its membermask has
/// arrived; under independent thread scheduling lanes 0..3 may wait at one redux while lanes
/// 8..11 wait at another. Both are pending at once (a record each) and their lanes
/// share the operand store; each completes with its own lanes' operands only.
#[test]
fn a_warp_waits_at_two_collectives_at_once() {
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        let mut dut = Dut::new(&cfg);
        let mut gold = Golden::new(&cfg);
        let a_lo = redux_part(ReduxOp::Add, 0x0000_00FF, 0x0000_000F);
        let b_lo = redux_part(ReduxOp::Max, 0x0000_FF00, 0x0000_0F00);
        let b_hi = redux_part(ReduxOp::Max, 0x0000_FF00, 0x0000_F000);
        let a_hi = redux_part(ReduxOp::Add, 0x0000_00FF, 0x0000_00F0);
        let mut answers = vec![];
        for r in [&a_lo, &b_lo, &b_hi, &a_hi] {
            let got = dut.submit(r).0;
            assert_eq!(got, gold.submit(r), "{}: {r:?}", cfg.name);
            answers.push(got);
        }
        assert_eq!(answers[0], None, "lanes 0..3 wait for 4..7");
        assert_eq!(answers[1], None, "lanes 8..11 wait for 12..15 (a second record of the warp)");
        // host reference: max over lanes 8..15 of 3i+1, sum over lanes 0..7
        let b = answers[2].clone().expect("lanes 12..15 complete the max");
        assert_eq!(b.lanes, 0xFF00);
        assert_eq!(b.values[8], 3 * 15 + 1);
        let a = answers[3].clone().expect("lanes 4..7 complete the sum");
        assert_eq!(a.lanes, 0xFF);
        assert_eq!(a.values[0], (0..8).map(|i| 3 * i + 1).sum::<u32>());
    }
}

/// Lanes 0..3 wait at a vote over 0xff and lanes 4..7 arrive at a ballot of another mask that
/// needs lanes 0..3: each rendezvous waits for lanes blocked at the other, a certain hang, so
/// both fail with MemberMaskMismatch (as the golden model answers a wait-for cycle), and a
/// later vote of the warp starts afresh.
#[test]
fn a_wait_for_cycle_between_two_rendezvous_fails_both() {
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        let mut dut = Dut::new(&cfg);
        let mut gold = Golden::new(&cfg);
        let first = vote_part(0x0000_00FF, 0x0000_000F);
        let mut second = vote_part(0x0000_001F, 0x0000_0010);
        second.sub = VoteMode::Any.code();
        assert_eq!(dut.submit(&first).0, gold.submit(&first));
        let got = dut.submit(&second).0.expect("the cycle is answered at once");
        assert_eq!(Some(got.clone()), gold.submit(&second), "{}", cfg.name);
        assert_eq!(got.error, ErrorCode::MemberMaskMismatch.code());
        assert_eq!(got.lanes, 0x1F, "the waiting lanes fail with the new request");
        let whole = vote_part(0x0000_00FF, 0x0000_00FF);
        let again = dut.submit(&whole).0.expect("a full vote completes: no record is left");
        assert_eq!((again.lanes, again.error), (0xFF, 0));
    }
}

/// With every record of a warp pending (`rendezvous_per_warp` K = 3 on fpga-small: lane groups
/// 0..3, 8..11 and 16..19 each wait at a vote of their byte's lanes), a partial arrival at one
/// more collective is refused (`req_refused`) rather than lost or failed, for as long as it is
/// offered; once a request of the warp completes a pending rendezvous (dropping its record),
/// the same header is taken.
#[test]
fn a_rendezvous_waits_for_a_free_record() {
    let cfg = Config::fpga_small();
    let k = cfg.rendezvous_per_warp;
    assert!(k < 4, "needs a lane group beyond the records");
    let mut dut = Dut::new(&cfg);
    for g in 0..k {
        assert_eq!(dut.submit(&vote_part(0xFF << (8 * g), 0x0F << (8 * g))).0, None, "group {g} waits");
    }
    let extra = vote_part(0xFF << (8 * k), 0x0F << (8 * k));
    dut.drive(&extra);
    let mut refused = 0;
    for _ in 0..6 {
        dut.settle();
        assert!(!dut.uut.req_ready.val(), "no free record: the rendezvous is not taken");
        refused += dut.uut.req_refused.val() as u32;
        dut.tick();
    }
    assert!(refused > 0, "the unit says it refuses the header");
    // The sender withdraws it (the top answers it Retry) and completes group 1's vote.
    dut.uut.req_valid.next = false;
    dut.tick();
    let done = dut.submit(&vote_part(0x0000_FF00, 0x0000_F000)).0.expect("lanes 12..15 complete it");
    assert_eq!(done.lanes, 0xFF00);
    assert_eq!(dut.submit(&extra).0, None, "taken now, waiting for the rest of its byte");
    let rest = dut.submit(&vote_part(0xFF << (8 * k), 0xF0 << (8 * k))).0.expect("and completed by it");
    assert_eq!(rest.lanes, 0xFF << (8 * k));
}

/// An exit that completes two pending rendezvous answers one and asks to be sent again
/// (`resp_again`), then answers the other: one answer per rendezvous, none lost.
#[test]
fn an_exit_completing_two_rendezvous_answers_each() {
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        let mut dut = Dut::new(&cfg);
        let mut gold = Golden::new(&cfg);
        let a = redux_part(ReduxOp::Add, 0x0000_00FF, 0x0000_000F);
        let b = vote_part(0x0000_FF00, 0x0000_0F00);
        for r in [&a, &b] {
            assert_eq!(dut.submit(r).0, gold.submit(r));
        }
        let mut exit = req(Op::WarpExit);
        exit.warp = 2;
        exit.active = 0x0000_F0F0;
        exit.live = !0x0000_F0F0;
        let want = gold.submit(&exit).expect("golden fires both on the exit");
        let first = dut.submit(&exit).0.expect("the exit fires the first rendezvous");
        assert!(dut.uut.resp_again.val(), "another one is complete: send the exit again");
        let second = dut.submit(&exit).0.expect("the exit sent again fires the second");
        assert!(!dut.uut.resp_again.val());
        assert_eq!((first.lanes, second.lanes), (0x0F, 0x0F00));
        assert_eq!(first.values[0], (0..4).map(|i| 3 * i + 1).sum::<u32>(), "the sum over the lanes that arrived");
        assert_eq!(first.lanes | second.lanes, want.lanes);
        assert_eq!(dut.submit(&exit).0, None, "nothing pending any more");
    }
}

/// The lanes of a partial data op wait in the park (block RAM, a word per CTA slot, warp and
/// lane), not in the operand store: three warps each have half their lanes waiting at a
/// redux / shfl at once, and none waits for another (with the lanes kept in the one store,
/// the second warp's request was refused until the first completed).
#[test]
fn partial_data_rendezvous_of_several_warps_wait_at_once() {
    for cfg in [Config::hopper_like(), Config::fpga_small()] {
        let mut dut = Dut::new(&cfg);
        let mut gold = Golden::new(&cfg);
        let part = |warp: u8, lanes: u32, shfl: bool| {
            let mut r = redux_part(ReduxOp::Add, u32::MAX, lanes);
            r.warp = warp;
            for i in 0..32 {
                r.a[i] = 1000 * warp as u64 + i as u64;
                r.b[i] = 1;
                r.c[i] = 0x1f;
            }
            if shfl {
                r.op = Op::ShflSync.code();
                r.sub = ShflMode::Down.code();
                r.dtype = DataType::B32.code();
            }
            r
        };
        let warps = [(0u8, false), (1, true), (3, false)];
        for &(w, shfl) in &warps {
            let r = part(w, 0x0000_FFFF, shfl);
            assert_eq!(dut.submit(&r).0, None, "{}: warp {w}'s lanes 0..15 wait", cfg.name);
            assert_eq!(gold.submit(&r), None);
        }
        for &(w, shfl) in &warps {
            let r = part(w, 0xFFFF_0000, shfl);
            let got = dut.submit(&r).0.expect("lanes 16..31 complete the rendezvous");
            assert_eq!(Some(got.clone()), gold.submit(&r), "{}: warp {w}", cfg.name);
            assert_eq!(got.lanes, u32::MAX);
            if shfl {
                // shfl.down by 1: lane 15 reads lane 16 (which arrived second), lane 16 lane 17
                assert_eq!((got.values[15], got.values[16]), (1000 * w as u32 + 16, 1000 * w as u32 + 17));
            } else {
                assert_eq!(got.values[0], (0..32).map(|i| 1000 * w as u32 + i).sum::<u32>());
            }
        }
    }
}
