//! atomic_alu: the element datapath (`AtomicElement`) against the golden
//! `smsync_sim::units::atomic_alu::element`, operand triple by operand triple, on every op/type pair
//! `legal()` accepts (random operands biased to float corners, plus directed corners).
//!
//! Campaigns: `SMSYNC_UNIT_SEEDS=1,2,3 SMSYNC_UNIT_COUNT=100000 cargo test -p smsync-hdl --test atomic_alu`
//! (the count is per op/type pair for the element tests).

use rust_hdl::prelude::*;
use smsync_hdl::atomic_alu::element::{AtomicElement, ELEMENT_LATENCY};
use smsync_sim::encoding::{AtomOp, DataType};
use smsync_sim::units::atomic_alu::{element as golden_element, legal};
use smsync_testkit::hdl_sim::{settle, tick};
use smsync_testkit::{Campaign, Rng};

/// The element block under the rust-hdl simulator.
struct ElementBench {
    uut: AtomicElement,
}

impl ElementBench {
    fn new() -> ElementBench {
        let mut uut = AtomicElement::new();
        uut.connect_all();
        ElementBench { uut }
    }

    fn eval(&mut self, op: AtomOp, dtype: DataType, r: u128, s: u128, t: u128, ftz: bool) -> u128 {
        let u = &mut self.uut;
        u.op.next = (op.code() as u64).to_bits();
        u.dtype.next = (dtype.code() as u64).to_bits();
        u.r.next = r.to_bits();
        u.s.next = s.to_bits();
        u.t.next = t.to_bits();
        u.ftz_f32.next = ftz;
        settle(u);
        u.value.val().to_u128()
    }

    /// Compare with the golden element; the message names everything needed to replay.
    fn check(&mut self, op: AtomOp, dtype: DataType, r: u128, s: u128, t: u128, ftz: bool, ctx: &str) {
        let want = golden_element(op, dtype, r, s, t, ftz);
        let got = self.eval(op, dtype, r, s, t, ftz);
        assert_eq!(
            got, want,
            "{ctx}: {op:?}.{dtype:?} r={r:#x} s={s:#x} t={t:#x} ftz={ftz}: RTL {got:#x}, golden {want:#x}"
        );
    }
}

/// Every (op, dtype) pair of atom/red (scalar forms; the vector forms reuse the same elements).
fn legal_pairs() -> Vec<(AtomOp, DataType)> {
    let mut v = Vec::new();
    for op in AtomOp::ALL {
        for dt in DataType::ALL {
            let half = matches!(dt, DataType::F16 | DataType::Bf16 | DataType::F16x2 | DataType::Bf16x2);
            if [1u8, 2, 4, 8].iter().any(|vec| legal(*op, *dt, *vec, half)) {
                v.push((*op, *dt));
            }
        }
    }
    v
}

/// (exponent bits, mantissa bits) of a float element type, or of the halves of a packed type.
fn float_format(dt: DataType) -> Option<(u32, u32)> {
    match dt {
        DataType::F16 | DataType::F16x2 => Some((5, 10)),
        DataType::Bf16 | DataType::Bf16x2 => Some((8, 7)),
        DataType::F32 => Some((8, 23)),
        DataType::F64 => Some((11, 52)),
        _ => None,
    }
}

/// A float of the format with an exponent field drawn from the interesting ones (0, 1, max-1,
/// max, near `near`) or uniform.
fn float_operand(rng: &mut Rng, e: u32, m: u32, near: Option<u64>) -> u64 {
    let emax = (1u64 << e) - 1;
    let exp = match rng.below(8) {
        0 => 0,
        1 => 1,
        2 => emax,
        3 => emax - 1,
        4 | 5 => match near {
            Some(x) => (x + rng.below(5)).saturating_sub(2).min(emax),
            None => rng.below(emax + 1),
        },
        6 if m + 3 < 60 => near.map(|x| (x + m as u64 + rng.below(5)).saturating_sub(2).min(emax)).unwrap_or(0),
        _ => rng.below(emax + 1),
    };
    let frac = match rng.below(6) {
        0 => 0,
        1 => 1,
        2 => (1u64 << m) - 1,
        _ => rng.next() & ((1u64 << m) - 1),
    };
    let sign = rng.below(2);
    sign << (e + m) | exp << m | frac
}

fn exp_of(x: u64, e: u32, m: u32) -> u64 {
    (x >> m) & ((1 << e) - 1)
}

/// Random (r, s, t) for a pair: integer types get full-range values with small ones and equal
/// operands mixed in (inc/dec/cas/min/max corners), float types biased exponents.
fn operands(rng: &mut Rng, dt: DataType) -> (u128, u128, u128) {
    let wide = |rng: &mut Rng| (rng.next() as u128) << 64 | rng.next() as u128;
    if let Some((e, m)) = float_format(dt) {
        let halves = if matches!(dt, DataType::F16x2 | DataType::Bf16x2) { 2 } else { 1 };
        let (mut r, mut s) = (0u128, 0u128);
        for h in 0..halves {
            let a = float_operand(rng, e, m, None);
            let b = float_operand(rng, e, m, Some(exp_of(a, e, m)));
            let (a, b) = if rng.below(2) == 0 { (a, b) } else { (b, a) };
            r |= (a as u128) << (16 * h);
            s |= (b as u128) << (16 * h);
        }
        // Sometimes x + (-x) or x + x exactly.
        match rng.below(10) {
            0 => s = r ^ (1u128 << (e + m)),
            1 => s = r,
            _ => {}
        }
        return (r, s, wide(rng));
    }
    let r = match rng.below(6) {
        0 => rng.below(4) as u128,
        1 => u128::MAX - rng.below(4) as u128,
        2 => 1u128 << rng.below(128),
        _ => wide(rng),
    };
    let s = match rng.below(6) {
        0 => r,
        1 => r.wrapping_add(1),
        2 => r.wrapping_sub(1),
        3 => rng.below(4) as u128,
        _ => wide(rng),
    };
    let t = wide(rng);
    // cas: make the compare hit in the element's width sometimes
    let width_bits = dt.bytes() * 8;
    let s = if rng.below(3) == 0 && width_bits < 128 { r & ((1u128 << width_bits) - 1) } else { s };
    (r, s, t)
}

/// The pipelined element (the atomic ALU's): operand triples streamed one per enabled clock
/// edge, with the enable low on random cycles (the stages hold, and the operands presented then
/// must not enter); after each edge the value is the golden element of the triple entered
/// `ELEMENT_LATENCY` enabled edges before. `op`, `dtype`, `ftz` are held per run, as the
/// element's contract asks.
#[test]
fn pipelined_element_streams_match_golden() {
    let (seeds, count) = Campaign::new("UNIT", (&[1], 200), (&[1, 2, 3], 1_000)).split();
    let mut uut = AtomicElement::pipelined(smsync_hdl::atomic_alu::element::ElementKinds::ALL);
    uut.connect_all();
    for seed in seeds {
        let mut rng = Rng::new(seed ^ 0x9E37);
        for (op, dt) in legal_pairs() {
            for ftz in [false, true] {
                if ftz && dt != DataType::F32 {
                    continue;
                }
                uut.op.next = (op.code() as u64).to_bits();
                uut.dtype.next = (dt.code() as u64).to_bits();
                uut.ftz_f32.next = ftz;
                let mut entered: Vec<(u128, u128, u128)> = Vec::new();
                for i in 0..count + ELEMENT_LATENCY {
                    let (r, s, t) = operands(&mut rng, dt);
                    let en = rng.below(8) != 0;
                    uut.r.next = r.to_bits();
                    uut.s.next = s.to_bits();
                    uut.t.next = t.to_bits();
                    uut.en.next = en;
                    settle(&mut uut);
                    tick(
                        &mut uut,
                        |u| u.clock.next = Clock { clk: true },
                        |u| u.clock.next = Clock { clk: false },
                        |_| {},
                    );
                    if en {
                        entered.push((r, s, t));
                    }
                    if entered.len() >= ELEMENT_LATENCY {
                        let (r, s, t) = entered[entered.len() - ELEMENT_LATENCY];
                        let want = golden_element(op, dt, r, s, t, ftz);
                        let got = uut.value.val().to_u128();
                        assert_eq!(
                            got, want,
                            "seed {seed} cycle {i}: {op:?}.{dt:?} r={r:#x} s={s:#x} t={t:#x} ftz={ftz}: RTL {got:#x}, golden {want:#x}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn element_matches_golden_on_random_operands() {
    let (seeds, count) = Campaign::new("UNIT", (&[1], 200), (&[1, 2, 3], 1_000)).split();
    let mut bench = ElementBench::new();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        for (op, dt) in legal_pairs() {
            for i in 0..count {
                let (r, s, t) = operands(&mut rng, dt);
                let ftz = dt == DataType::F32 && rng.below(2) == 0;
                bench.check(op, dt, r, s, t, ftz, &format!("seed {seed} item {i}"));
            }
        }
    }
}

/// Directed corners: subnormals with and without flush, NaN, inf, -0, overflow to inf,
/// cancellation, inc/dec wrap, cas hit/miss up to b128, signed min/max.
#[test]
fn element_directed_corners() {
    let mut b = ElementBench::new();
    let f32_cases: &[(u32, u32)] = &[
        (0x0000_0001, 0x0000_0001), // two smallest subnormals
        (0x0040_0000, 0x0040_0000), // subnormal + subnormal = smallest normal
        (0x8000_0001, 0x0000_0001), // -d + d = +0
        (0x8000_0000, 0x8000_0000), // -0 + -0 = -0
        (0x8000_0000, 0x0000_0000), // -0 + +0 = +0
        (0x7F80_0000, 0xFF80_0000), // inf - inf = NaN
        (0x7F80_0000, 0x3F80_0000), // inf + 1
        (0x7FC0_0001, 0x3F80_0000), // NaN payload -> canonical
        (0x7F7F_FFFF, 0x7F7F_FFFF), // overflow to inf
        (0x7F7F_FFFF, 0x7380_0000), // max + half ulp: ties to even (stays max? rounds to inf)
        (0x3F80_0000, 0x3380_0000), // 1 + 2^-24: tie, stays 1
        (0x3F80_0001, 0x3380_0000), // tie to even upward
        (0x3F80_0000, 0xB380_0000), // 1 - 2^-24
        (0x0080_0000, 0x8000_0001), // smallest normal - smallest subnormal
        (0x0080_0001, 0x8080_0000), // result subnormal (flushed under ftz)
        (0x3F80_0000, 0x0000_0001), // far apart: sticky only
        (0x4B80_0000, 0xBF80_0000), // 2^24 - 1
    ];
    for &(x, y) in f32_cases {
        for ftz in [false, true] {
            b.check(AtomOp::Add, DataType::F32, x as u128, y as u128, 0, ftz, "f32 corner");
            b.check(AtomOp::Add, DataType::F32, y as u128, x as u128, 0, ftz, "f32 corner (swapped)");
        }
    }
    let f64_cases: &[(u64, u64)] = &[
        (1, 1),
        (0x8000_0000_0000_0000, 0x8000_0000_0000_0000),
        (0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000),
        (0x7FEF_FFFF_FFFF_FFFF, 0x7FEF_FFFF_FFFF_FFFF),
        (0x3FF0_0000_0000_0000, 0x3CA0_0000_0000_0000),
        (0x3FF0_0000_0000_0001, 0x3CA0_0000_0000_0000),
        (0x0010_0000_0000_0000, 0x8000_0000_0000_0001),
        (0x7FF0_0000_0000_0001, 0),
    ];
    for &(x, y) in f64_cases {
        b.check(AtomOp::Add, DataType::F64, x as u128, y as u128, 0, false, "f64 corner");
    }
    let half_cases: &[(u16, u16)] = &[
        (0x0001, 0x0001),
        (0x8000, 0x8000),
        (0x8000, 0x0000),
        (0x7C00, 0xFC00),
        (0x7BFF, 0x7BFF),
        (0x7E01, 0x3C00),
        (0x7F80, 0xFF80),
        (0x7F7F, 0x7F7F),
        (0x7FC1, 0x7FC1),
        (0x0400, 0x8001),
    ];
    for &(x, y) in half_cases {
        for dt in [DataType::F16, DataType::Bf16] {
            for op in [AtomOp::Add, AtomOp::Min, AtomOp::Max] {
                b.check(op, dt, x as u128, y as u128, 0, false, "half corner");
            }
        }
        for dt in [DataType::F16x2, DataType::Bf16x2] {
            let packed_r = (x as u128) << 16 | y as u128;
            let packed_s = (y as u128) << 16 | x as u128;
            for op in [AtomOp::Add, AtomOp::Min, AtomOp::Max] {
                b.check(op, dt, packed_r, packed_s, 0, false, "packed half corner");
            }
        }
    }
    // inc / dec wrap (checklist item 84 and its dec twin)
    for (r, s) in [(5u128, 5u128), (4, 5), (6, 5), (0, 5), (0, 0), (u32::MAX as u128, u32::MAX as u128), (7, 0)] {
        b.check(AtomOp::Inc, DataType::U32, r, s, 0, false, "inc wrap");
        b.check(AtomOp::Dec, DataType::U32, r, s, 0, false, "dec wrap");
    }
    assert_eq!(b.eval(AtomOp::Inc, DataType::U32, 5, 5, 0, false), 0);
    assert_eq!(b.eval(AtomOp::Inc, DataType::U32, 4, 5, 0, false), 5);
    assert_eq!(b.eval(AtomOp::Dec, DataType::U32, 0, 5, 0, false), 5);
    assert_eq!(b.eval(AtomOp::Dec, DataType::U32, 6, 5, 0, false), 5);
    // cas hit and miss at every width, incl. b128
    let big = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128;
    for dt in [DataType::B16, DataType::B32, DataType::B64, DataType::B128] {
        b.check(AtomOp::Cas, dt, big, big, !big, false, "cas hit");
        b.check(AtomOp::Cas, dt, big, big ^ 1, !big, false, "cas miss");
        b.check(AtomOp::Cas, dt, big, big ^ (1 << 127), !big, false, "cas hit above the width");
    }
    assert_eq!(b.eval(AtomOp::Cas, DataType::B128, big, big, !big, false), !big);
    assert_eq!(b.eval(AtomOp::Exch, DataType::B128, big, !big, 0, false), !big);
    // signed min/max
    for dt in [DataType::S32, DataType::S64, DataType::U32, DataType::U64] {
        for (r, s) in [(u128::MAX, 1u128), (1 << 31, 5), (1 << 63, 5), (0, u128::MAX)] {
            b.check(AtomOp::Min, dt, r, s, 0, false, "min");
            b.check(AtomOp::Max, dt, r, s, 0, false, "max");
        }
    }
}

/// f16 and bf16 add / max on a grid of operand pairs: every `stride`-th 16-bit pattern against
/// every `stride`-th (offset per row). The packed types carry a second pair in the high half,
/// which the element adds on its own 16-bit adders. The default stride (1021: 4,096 pairs per type) keeps the run
/// short under the rust-hdl simulator; `SMSYNC_HALF_STRIDE=97` gives a dense sweep (about
/// 450,000 pairs per op and type).
#[test]
fn element_half_pairs_dense_sample() {
    let stride: u32 = std::env::var("SMSYNC_HALF_STRIDE").ok().and_then(|s| s.parse().ok()).unwrap_or(1021);
    let mut b = ElementBench::new();
    for dt in [DataType::F16, DataType::Bf16, DataType::F16x2, DataType::Bf16x2] {
        let mut x = 0u32;
        while x < 0x1_0000 {
            let mut y = (x * 7) % stride;
            while y < 0x1_0000 {
                let (mut r, mut s) = (x as u128, y as u128);
                if dt.bytes() == 4 {
                    // High half: the pair (y, x) with their signs and low bits varied.
                    r |= ((y ^ 0x8001) as u128) << 16;
                    s |= ((x ^ 0x0003) as u128) << 16;
                }
                for op in [AtomOp::Add, AtomOp::Max] {
                    b.check(op, dt, r, s, 0, false, &format!("half pairs stride {stride}"));
                }
                y += stride;
            }
            x += stride;
        }
    }
}

// ------------------------------------------------------------------------------------------
// The AtomicAlu block: warp requests against the golden AtomicAlu, memory served by the test
// ------------------------------------------------------------------------------------------

mod alu {
    use super::*;
    use smsync_hdl::atomic_alu::{atomic_alu_verilog, element_latency, AtomicAlu};
    use smsync_sim::config::Config;
    use smsync_sim::encoding::{flags, ErrorCode, Op, Space};
    use smsync_sim::memory::{MemorySystem, CLUSTER_BASE, GLOBAL_BASE};
    use smsync_sim::units::atomic_alu::AtomicAlu as GoldenAlu;
    use smsync_sim::units::mbarrier_alu::MbarrierAlu as GoldenMbarrierAlu;
    use smsync_sim::units::{LaneOps, Request, Response};
    use smsync_testkit::assert_lint_clean;
    use smsync_testkit::hdl_sim::tick;
    use std::collections::{HashMap, VecDeque};

    pub const GLOBAL_BYTES: usize = 4096;

    /// The ALU plus a memory model with a read and a write channel: grants each channel's
    /// request (or, independently, with probability `grant_pct`), answers reads in order after
    /// `latency` cycles, applies writes at once.
    pub struct AluBench {
        pub uut: AtomicAlu,
        pub mem: MemorySystem,
        pub cycles: u64,
        latency: u64,
        grant_pct: u64,
        rng: Rng,
        reads: VecDeque<(u64, u128, u64)>,
        /// The request's lane operands: the operand store the ALU reads a row at a time.
        lanes: [LaneOps; 32],
        /// The live mbarrier words of the request's shared lines ((slot, line) -> bit w for
        /// bytes 8w..8w+7), from the golden mbarrier unit (`live_lines`), served on `m_rlive`.
        live: HashMap<(usize, u64), u64>,
    }

    impl AluBench {
        pub fn new(config: &Config, latency: u64, grant_pct: u64, seed: u64) -> AluBench {
            let mut uut = AtomicAlu::new(config);
            uut.connect_all();
            let mem = MemorySystem::new(GLOBAL_BYTES, config.cta_slots as usize, config.shared_bytes as usize);
            let mut b = AluBench {
                uut,
                mem,
                cycles: 0,
                latency,
                grant_pct,
                rng: Rng::new(seed ^ 0x5eed),
                reads: VecDeque::new(),
                lanes: [LaneOps::default(); 32],
                live: HashMap::new(),
            };
            b.uut.reset.next = true;
            b.uut.global_end.next = (GLOBAL_BASE + GLOBAL_BYTES as u64).to_bits();
            b.cycle();
            b.cycle();
            b.uut.reset.next = false;
            b.cycles = 0;
            b
        }

        /// The operand store's registered read port, as the top's: the rows the ALU names in a
        /// cycle (`plan_row`, `ex_row`), read at its clock edge and presented after it.
        fn named_rows(&self) -> Vec<(u64, u64, u128, u128)> {
            let u = &self.uut;
            let b = u.row_addr.len();
            let (plan, ex) = (u.plan_row.val().index(), u.ex_row.val().index());
            (0..b)
                .map(|i| {
                    let (p, e) = (&self.lanes[(plan * b + i) % 32], &self.lanes[(ex * b + i) % 32]);
                    (p.addr, p.mbar, e.b, e.c)
                })
                .collect()
        }

        fn line(&self, global: bool, slot: usize, addr: u64) -> u128 {
            if global {
                self.mem.global.read(addr, 16).expect("RTL read outside global memory")
            } else {
                self.mem.shared[slot].read(addr, 16).expect("RTL read outside shared memory")
            }
        }

        /// One clock cycle; returns the response if `resp_valid` was high in it.
        fn cycle(&mut self) -> Option<Response> {
            let u = &mut self.uut;
            // read data due this cycle
            let due = self.reads.front().map(|r| r.0 <= self.cycles).unwrap_or(false);
            if due {
                let (_, data, live) = self.reads.pop_front().unwrap();
                u.m_rvalid.next = true;
                u.m_rdata.next = data.to_bits();
                u.m_rlive.next = live.to_bits();
            } else {
                u.m_rvalid.next = false;
                u.m_rdata.next = 0xdead_beef_u128.to_bits();
                u.m_rlive.next = 3u64.to_bits();
            }
            u.m_rgrant.next = self.grant_pct >= 100 || self.rng.below(100) < self.grant_pct;
            u.m_wgrant.next = self.grant_pct >= 100 || self.rng.below(100) < self.grant_pct;
            settle(&mut self.uut);
            let u = &mut self.uut;
            let mut resp = None;
            if u.resp_valid.val() {
                let mut r = Response {
                    tag: 0,
                    cta: 0,
                    warp: 0,
                    lanes: 0,
                    values: [0; 32],
                    preds: 0,
                    error: ErrorCode::from_code(u.resp_error.val().index() as u8).unwrap_or(ErrorCode::NotBuilt),
                    error_lane: u.resp_error_lane.val().index() as u8,
                };
                // The old values, a row of `lanes_per_beat` lanes at a time (same-cycle reads).
                let l = u.resp_row_values.len();
                for row in 0..32 / l {
                    u.resp_row.next = (row as u64).to_bits();
                    settle(u);
                    for i in 0..l {
                        r.values[row * l + i] = u.resp_row_values[i].val().to_u128();
                    }
                }
                resp = Some(r);
            }
            // A read granted in the same cycle as a write reads the line before it (the RAM's
            // read-during-write order): the ALU must not depend on the other order.
            let global = self.uut.m_global.val();
            let slot = self.uut.m_slot.val().index();
            if self.uut.m_rreq.val() && self.uut.m_rgrant.val() {
                let addr = self.uut.m_raddr.val().to_u64();
                assert_eq!(addr % 16, 0, "m_raddr not line aligned");
                let data = self.line(global, slot, addr);
                let live = if global { 0 } else { self.live.get(&(slot, addr)).copied().unwrap_or(0) };
                self.reads.push_back((self.cycles + self.latency, data, live));
            }
            if self.uut.m_wreq.val() && self.uut.m_wgrant.val() {
                let addr = self.uut.m_waddr.val().to_u64();
                assert_eq!(addr % 16, 0, "m_waddr not line aligned");
                let be = self.uut.m_be.val().index() as u32;
                let data = self.uut.m_wdata.val().to_u128();
                let old = self.line(global, slot, addr);
                let mut mask = 0u128;
                for i in 0..16 {
                    if be >> i & 1 == 1 {
                        mask |= 0xFF << (8 * i);
                    }
                }
                let new = old & !mask | data & mask;
                if global {
                    self.mem.global.write(addr, 16, new).unwrap();
                } else {
                    self.mem.shared[slot].write(addr, 16, new).unwrap();
                }
            }
            let rows = self.named_rows();
            let u = &mut self.uut;
            let present = |u: &mut AtomicAlu| {
                for (i, &(addr, mbar, b, c)) in rows.iter().enumerate() {
                    u.row_addr[i].next = addr.to_bits();
                    u.row_mbar[i].next = mbar.to_bits();
                    u.row_b[i].next = b.to_bits();
                    u.row_c[i].next = c.to_bits();
                }
            };
            tick(u, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, present);
            self.cycles += 1;
            resp
        }

        /// Present `req` until the response; returns it and the cycles it took.
        pub fn run(&mut self, req: &Request) -> (Response, u64) {
            let u = &mut self.uut;
            u.req_valid.next = true;
            u.req_op.next = (req.op.code() as u64).to_bits();
            u.req_sub.next = (req.sub as u64).to_bits();
            u.req_dtype.next = (req.dtype.code() as u64).to_bits();
            u.req_flags.next = (req.flags as u64).to_bits();
            u.req_space.next = (req.space.code() as u64).to_bits();
            u.req_vec.next = (req.vec as u64).to_bits();
            u.req_cta.next = (req.cta as u64).to_bits();
            u.req_active.next = (req.active_mask as u64).to_bits();
            self.lanes = req.lanes;
            let start = self.cycles;
            for _ in 0..2000 {
                if let Some(r) = self.cycle() {
                    self.uut.req_valid.next = false;
                    return (r, self.cycles - start);
                }
            }
            panic!("no response in 2000 cycles to {req:?}");
        }
    }

    /// Compare one request: response (values, error, error lane) and both memories; returns
    /// the RTL's response.
    pub fn compare(
        bench: &mut AluBench,
        golden: &mut GoldenAlu,
        gmem: &mut MemorySystem,
        mbar: &mut GoldenMbarrierAlu,
        req: &Request,
        ctx: &str,
    ) -> Response {
        let mut out = Vec::new();
        let mut events = Vec::new();
        golden.submit(req, gmem, mbar, &mut out, &mut events);
        let want = &out[0];
        bench.live = live_lines(mbar, req);
        let (got, _) = bench.run(req);
        assert_eq!((got.error, got.error_lane), (want.error, want.error_lane), "{ctx}: error differs for {req:?}");
        for i in 0..32 {
            assert_eq!(got.values[i], want.values[i], "{ctx}: lane {i} value differs for {req:?}");
        }
        assert!(bench.mem.global == gmem.global, "{ctx}: global memory differs after {req:?}");
        for s in 0..gmem.shared.len() {
            assert!(bench.mem.shared[s] == gmem.shared[s], "{ctx}: shared slot {s} differs after {req:?}");
        }
        got
    }

    /// The live mbarrier words of the shared lines `req`'s lanes address (see `AluBench::live`).
    fn live_lines(mbar: &GoldenMbarrierAlu, req: &Request) -> HashMap<(usize, u64), u64> {
        let mut live = HashMap::new();
        let base = match req.space {
            Space::Global => return live,
            Space::SharedCluster => CLUSTER_BASE,
            _ => 0,
        };
        for l in 0..32 {
            let line = req.lanes[l].addr.wrapping_sub(base) & !15;
            let words = (0..2).map(|w| (mbar.overlaps_live(req.cta, line + 8 * w, 8) as u64) << w).sum();
            live.insert((req.cta as usize, line), words);
        }
        live
    }

    /// Make the 8-byte word at `off` of `slot` a live mbarrier object (`init`) or end its life
    /// (inval) in the golden unit, and copy the word's new bytes to the bench's memory.
    fn set_live(
        bench: &mut AluBench,
        gmem: &mut MemorySystem,
        mbar: &mut GoldenMbarrierAlu,
        slot: u16,
        off: u64,
        init: bool,
    ) {
        let mut r = Request::new(0, slot, 0, if init { Op::MbInit } else { Op::MbInval });
        r.active_mask = 1;
        r.lanes[0].addr = off;
        r.lanes[0].a = 1;
        let mut out = Vec::new();
        mbar.submit(&r, gmem, &mut out, &mut Vec::new());
        assert_eq!(out[0].error, ErrorCode::None, "{} at {off:#x} of slot {slot}", r.op);
        bench.mem.shared[slot as usize] = gmem.shared[slot as usize].clone();
    }

    /// A random request: mostly legal forms, addresses from a few lines (conflicts), sometimes
    /// misaligned, out of range, an illegal type, red.async.
    pub fn random_request(rng: &mut Rng, config: &Config, pairs: &[(AtomOp, DataType)]) -> Request {
        let mut req = Request::new(0, rng.below(config.cta_slots as u64) as u16, 0, Op::Atom);
        req.op = match rng.below(20) {
            0 => Op::RedAsync,
            1..=6 => Op::Red,
            _ => Op::Atom,
        };
        let (op, dt) = pairs[rng.below(pairs.len() as u64) as usize];
        req.sub = if rng.below(50) == 0 { 10 + rng.below(6) as u8 } else { op.code() };
        req.dtype = if rng.below(30) == 0 { DataType::ALL[rng.below(DataType::ALL.len() as u64) as usize] } else { dt };
        let half = matches!(req.dtype, DataType::F16 | DataType::Bf16 | DataType::F16x2 | DataType::Bf16x2);
        req.flags = if half ^ (rng.below(40) == 0) { flags::MOD_A } else { 0 };
        req.space = match rng.below(10) {
            0..=4 => Space::Global,
            5..=8 => Space::SharedCta,
            _ => Space::SharedCluster,
        };
        // vector forms where legal (global), else scalar
        let vecs: Vec<u8> = [2u8, 4, 8].into_iter().filter(|v| legal(op, req.dtype, *v, req.flags != 0)).collect();
        req.vec = if !vecs.is_empty() && req.space == Space::Global && rng.below(2) == 0 {
            vecs[rng.below(vecs.len() as u64) as usize]
        } else {
            1
        };
        if rng.below(60) == 0 {
            req.vec = [2u8, 4, 8][rng.below(3) as usize];
        }
        req.active_mask = match rng.below(4) {
            0 => u32::MAX,
            1 => 0,
            _ => rng.next() as u32,
        };
        if rng.below(30) == 0 {
            req.active_mask = 0;
        }
        let size = (req.dtype.bytes() * req.vec as u32).max(1) as u64;
        let base = if req.space == Space::Global { GLOBAL_BASE } else { 0 };
        let limit = if req.space == Space::Global { GLOBAL_BYTES as u64 } else { config.shared_bytes as u64 };
        let cluster = if req.space == Space::SharedCluster { CLUSTER_BASE } else { 0 };
        let lines = 1 + rng.below(6);
        let line0 = rng.below(limit / 16 - 8);
        for i in 0..32 {
            let line = line0 + rng.below(lines);
            let slot_in_line = rng.below((16 / size).max(1));
            let mut addr = cluster + base + line * 16 + slot_in_line * size;
            match rng.below(400) {
                0 => addr += 1 + rng.below(size.max(2) - 1),
                1 => addr = cluster + base + limit - size + 16 * rng.below(2),
                2 => addr = cluster + base + limit + 16 * rng.below(4),
                3 => addr = rng.next() & !15,
                _ => {}
            }
            req.lanes[i].addr = addr;
            req.lanes[i].mbar = cluster + (rng.below(64) * 8) + if rng.below(10) == 0 { 4 } else { 0 };
            let (_, s, t) = operands(rng, req.dtype);
            let mut b = s;
            if req.vec > 1 {
                b = 0;
                for e in 0..req.vec as u32 {
                    let (_, s, _) = operands(rng, req.dtype);
                    let bits = req.dtype.bytes() * 8;
                    let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
                    b |= (s & mask).checked_shl(e * bits).unwrap_or(0);
                }
            }
            req.lanes[i].b = b;
            req.lanes[i].c = t;
        }
        req
    }

    /// Fill memory with float-friendly random contents (the same in both models).
    pub fn fill(mem: &mut MemorySystem, rng: &mut Rng) {
        for byte in mem.global.bytes.iter_mut() {
            *byte = rng.next() as u8;
        }
        for region in mem.shared.iter_mut() {
            for byte in region.bytes.iter_mut() {
                *byte = rng.next() as u8;
            }
        }
    }

    #[test]
    fn alu_matches_golden_on_random_requests() {
        let (seeds, count) = Campaign::new("UNIT", (&[11], 100), (&[11, 12, 13], 1_000)).split();
        let pairs = legal_pairs();
        let one_cycle_element = Config { atomic_element_stages: 0, ..Config::fpga_small() };
        for config in [Config::fpga_small(), Config::hopper_like(), one_cycle_element] {
            for &seed in &seeds {
                let mut rng = Rng::new(seed);
                let latency = 1 + rng.below(3);
                let grant = if seed % 2 == 0 { 100 } else { 70 };
                let mut bench = AluBench::new(&config, latency, grant, seed);
                fill(&mut bench.mem, &mut rng);
                let mut gmem = bench.mem.clone();
                let mut golden = GoldenAlu::new(&config);
                let mut mbar = GoldenMbarrierAlu::new(&config);
                for i in 0..count {
                    let req = random_request(&mut rng, &config, &pairs);
                    // One shared request in four finds a live mbarrier object under one of its
                    // lanes' words (PTX ISA §9.7.13.15: refused, `MbarrierPlainAccess`).
                    let base = if req.space == Space::SharedCluster { CLUSTER_BASE } else { 0 };
                    let lane = req.lanes[rng.below(32) as usize].addr.wrapping_sub(base) & !7;
                    let object =
                        (req.space != Space::Global && rng.below(4) == 0 && lane + 8 <= config.shared_bytes as u64)
                            .then_some(lane);
                    if let Some(off) = object {
                        set_live(&mut bench, &mut gmem, &mut mbar, req.cta, off, true);
                    }
                    compare(
                        &mut bench,
                        &mut golden,
                        &mut gmem,
                        &mut mbar,
                        &req,
                        &format!(
                            "config {} (atomic_element_stages {}) seed {seed} request {i} (latency {latency}, grant {grant}%)",
                            config.name, config.atomic_element_stages
                        ),
                    );
                    if let Some(off) = object {
                        set_live(&mut bench, &mut gmem, &mut mbar, req.cta, off, false);
                    }
                }
            }
        }
    }

    fn request(op: Op, sub: AtomOp, dt: DataType, space: Space, active: u32) -> Request {
        let mut r = Request::new(0, 0, 0, op);
        r.sub = sub.code();
        r.dtype = dt;
        r.space = space;
        r.active_mask = active;
        if matches!(dt, DataType::F16 | DataType::Bf16 | DataType::F16x2 | DataType::Bf16x2) {
            r.flags = flags::MOD_A;
        }
        r
    }

    /// Directed: inc wrap, cas b32/b64/b128, f32 subnormal global (flush) vs shared (kept), NaN,
    /// all 32 lanes on one address; and the cycle figures of docs/BENCHMARKS.md.
    #[test]
    fn alu_directed_corners_and_cycles() {
        for config in [Config::fpga_small(), Config::hopper_like()] {
            let mut bench = AluBench::new(&config, 1, 100, 1);
            let mut gmem = bench.mem.clone();
            let mut golden = GoldenAlu::new(&config);
            let mut mbar = GoldenMbarrierAlu::new(&config);
            let mut go = |bench: &mut AluBench, req: &Request, what: &str| {
                compare(bench, &mut golden, &mut gmem, &mut mbar, req, &format!("{} {what}", config.name))
            };
            // all 32 lanes: inc on one shared address with bound 5 -> wraps; old values 0,1,..5,0,..
            let mut r = request(Op::Atom, AtomOp::Inc, DataType::U32, Space::SharedCta, u32::MAX);
            for l in 0..32 {
                r.lanes[l].addr = 64;
                r.lanes[l].b = 5;
            }
            go(&mut bench, &r, "inc same address");
            let mut dec = r.clone();
            dec.sub = AtomOp::Dec.code();
            go(&mut bench, &dec, "dec same address");
            // f32 subnormal: global flushes, shared keeps
            for space in [Space::Global, Space::SharedCta] {
                let mut r = request(Op::Atom, AtomOp::Add, DataType::F32, space, 0b11);
                let base = if space == Space::Global { GLOBAL_BASE } else { 0 };
                r.lanes[0].addr = base + 128;
                r.lanes[0].b = 0x0000_0001; // smallest subnormal
                r.lanes[1].addr = base + 128;
                r.lanes[1].b = 0x7FC0_0000; // NaN -> canonical
                go(&mut bench, &r, "f32 subnormal / NaN");
            }
            // cas b32 / b64 / b128 (b128 only where the config builds it)
            for dt in [DataType::B32, DataType::B64, DataType::B128] {
                let mut r = request(Op::Atom, AtomOp::Cas, dt, Space::Global, 0b111);
                for l in 0..3 {
                    r.lanes[l].addr = GLOBAL_BASE + 256;
                    r.lanes[l].b = if l == 1 { 0x1234 } else { 0 };
                    r.lanes[l].c = 0x1234 + l as u128;
                }
                go(&mut bench, &r, "cas");
            }
            // misaligned lane 3 stops the request after lanes 0..2 wrote
            let mut r = request(Op::Red, AtomOp::Add, DataType::U64, Space::Global, 0xF);
            for l in 0..4 {
                r.lanes[l].addr = GLOBAL_BASE + 512 + 8 * l as u64 + if l == 3 { 4 } else { 0 };
                r.lanes[l].b = 1;
            }
            go(&mut bench, &r, "misaligned lane");

            // ---- cycle figures: 32-bit integer add, no conflicts vs one address ----
            let mut spread = request(Op::Atom, AtomOp::Add, DataType::U32, Space::SharedCta, u32::MAX);
            let mut same = spread.clone();
            for l in 0..32 {
                spread.lanes[l].addr = 16 * l as u64;
                same.lanes[l].addr = 0;
                spread.lanes[l].b = 1;
                same.lanes[l].b = 1;
            }
            let (_, c_spread) = bench.run(&spread);
            let (_, c_same) = bench.run(&same);
            println!(
                "atomic_alu cycles ({}, read latency 1): 32 lanes on 32 lines: {c_spread} cycles/warp-instruction; 32 lanes on one address: {c_same}",
                config.name
            );
            // Distinct lines: one step per cycle, plus IDLE (which loads the first window into
            // the check stage), the first window's checks, the first step's plan and issue (its
            // line read), the last step's R (its line registered), X2, the element's stages, X3
            // and RESP: 32 + 8 + L (L = ELEMENT_LATENCY). One address: each lane's read waits
            // for the previous lane's write (read, R, X1, X2, L stages, X3 = 5 + L cycles a
            // lane), plus IDLE, the checks and the first plan and issue.
            let l = element_latency(&config) as u64;
            assert_eq!((c_spread, c_same), (32 + 8 + l, (5 + l) * 32 + 4), "{}: cycle counts", config.name);
        }
    }

    /// An atom on a live mbarrier object's bytes is refused at that lane (PTX ISA §9.7.13.15:
    /// while live, the object is accessed only by mbarrier instructions; the project reports
    /// `MbarrierPlainAccess`), the lanes before it having written, none after it: a coalesced
    /// step cut at a joined lane, a step cut at its lead, 8- and 16-byte accesses over the
    /// object's word; the next request runs as usual.
    #[test]
    fn alu_refuses_a_lane_on_a_live_mbarrier() {
        for config in [Config::fpga_small(), Config::hopper_like()] {
            let mut bench = AluBench::new(&config, 1, 100, 7);
            let mut gmem = bench.mem.clone();
            let mut golden = GoldenAlu::new(&config);
            let mut mbar = GoldenMbarrierAlu::new(&config);
            set_live(&mut bench, &mut gmem, &mut mbar, 0, 0x208, true);
            let name = &config.name;
            macro_rules! go {
                ($req:expr, $what:expr) => {
                    compare(&mut bench, &mut golden, &mut gmem, &mut mbar, $req, &format!("{name} {}", $what))
                };
            }
            let word = |bench: &AluBench, off: u64| bench.mem.shared[0].read(off, 4).unwrap();
            // u32 lanes 0..7 over 0x200..0x220: lanes 0 and 1 (0x200, 0x204) join lane 0's
            // step, lane 2 is the object's first half
            let mut r = request(Op::Atom, AtomOp::Add, DataType::U32, Space::SharedCta, 0xff);
            for l in 0..8 {
                r.lanes[l].addr = 0x200 + 4 * l as u64;
                r.lanes[l].b = 1;
            }
            let object = bench.mem.shared[0].read(0x208, 8).unwrap();
            let got = go!(&r, "u32 lanes");
            assert_eq!((got.error, got.error_lane), (ErrorCode::MbarrierPlainAccess, 2), "{name}");
            let after: Vec<u128> = [0x200, 0x204, 0x210, 0x214].iter().map(|&o| word(&bench, o)).collect();
            assert_eq!(after, [1, 1, 0, 0], "{name}: lanes 0-1 written, none from lane 2 on");
            assert_eq!(bench.mem.shared[0].read(0x208, 8).unwrap(), object, "{name}: the object is untouched");
            // the lead on the object (lanes 2.. active): nothing written
            r.active_mask = 0xfc;
            let got = go!(&r, "lead on the object");
            assert_eq!((got.error, got.error_lane), (ErrorCode::MbarrierPlainAccess, 2), "{name}");
            assert_eq!(word(&bench, 0x210), 0, "{name}");
            // 8 bytes: lane 1 is the object; 16 bytes (b128 cas, where built): lane 0 covers it
            let mut r = request(Op::Atom, AtomOp::Add, DataType::U64, Space::SharedCta, 0b11);
            r.lanes[0].addr = 0x200;
            r.lanes[1].addr = 0x208;
            r.lanes[0].b = 5;
            let got = go!(&r, "u64 lanes");
            assert_eq!((got.error, got.error_lane), (ErrorCode::MbarrierPlainAccess, 1), "{name}");
            if config.features.atomic_b128 {
                let mut r = request(Op::Atom, AtomOp::Cas, DataType::B128, Space::SharedCta, 1);
                r.lanes[0].addr = 0x200;
                let got = go!(&r, "b128 over the object");
                assert_eq!((got.error, got.error_lane), (ErrorCode::MbarrierPlainAccess, 0), "{name}");
            }
            // the words beside it, and global memory, are plain
            let mut r = request(Op::Atom, AtomOp::Add, DataType::U32, Space::SharedCta, 0b11);
            r.lanes[0].addr = 0x210;
            r.lanes[1].addr = 0x204;
            let got = go!(&r, "beside the object");
            assert_eq!(got.error, ErrorCode::None, "{name}");
            // inval ends its life: the atom goes through
            set_live(&mut bench, &mut gmem, &mut mbar, 0, 0x208, false);
            let mut r = request(Op::Atom, AtomOp::Exch, DataType::B32, Space::SharedCta, 1);
            r.lanes[0].addr = 0x208;
            assert_eq!(go!(&r, "after inval").error, ErrorCode::None, "{name}");
        }
    }

    /// Coalesced steps (`atomic_lanes`): lanes of one 16-byte line step together, in ascending
    /// lane order, and the result is still the golden one-lane-at-a-time result. Cycle counts
    /// (read latency 1, grants at once): one cycle per step (steps on distinct bytes of a line
    /// overlap), plus 8 + ELEMENT_LATENCY per request (IDLE loads the first window into the
    /// check stage; its checks; the first step's plan and issue; the last step's R, X2,
    /// element stages and X3; RESP).
    #[test]
    fn alu_coalesces_the_lanes_of_a_line() {
        let pairs = legal_pairs();
        for (lanes, stages) in [(1u32, 3u32), (2, 3), (4, 3), (8, 3), (4, 0)] {
            let mut config = Config::fpga_small();
            config.atomic_lanes = lanes;
            config.atomic_element_stages = stages;
            config.features.float_atomics = true;
            let mut bench = AluBench::new(&config, 1, 100, 3);
            let mut rng = Rng::new(77 + lanes as u64);
            fill(&mut bench.mem, &mut rng);
            let mut gmem = bench.mem.clone();
            let mut golden = GoldenAlu::new(&config);
            let mut mbar = GoldenMbarrierAlu::new(&config);
            let ctx = |what: &str| format!("atomic_lanes {lanes}, atomic_element_stages {stages}: {what}");
            // (type, bytes per lane): 32 lanes on consecutive elements, so 16 / bytes lanes per line.
            // u32, f32 and u64 coalesce; f64 and f16 step through the lead's element alone (the
            // group lanes' elements have no f64 or half-precision adders: `group::group_kinds`).
            for (dt, bytes) in
                [(DataType::U32, 4u64), (DataType::F32, 4), (DataType::U64, 8), (DataType::F16, 2), (DataType::F64, 8)]
            {
                let mut r = request(Op::Atom, AtomOp::Add, dt, Space::SharedCta, u32::MAX);
                for l in 0..32 {
                    r.lanes[l].addr = 256 + bytes * l as u64;
                    r.lanes[l].b = 0x3C00 + l as u128; // small positive in every format
                }
                let mut out = Vec::new();
                let mut events = Vec::new();
                golden.submit(&r, &mut gmem, &mut mbar, &mut out, &mut events);
                let (got, cycles) = bench.run(&r);
                assert_eq!(got.error, out[0].error, "{}", ctx("error"));
                assert_eq!(got.values, out[0].values, "{}", ctx(&format!("{dt:?} old values")));
                assert!(bench.mem.shared[0] == gmem.shared[0], "{}", ctx(&format!("{dt:?} memory")));
                let per_line = 16 / bytes;
                let coalesces = matches!(dt, DataType::U32 | DataType::F32 | DataType::U64);
                let group = if coalesces { (lanes as u64).min(per_line) } else { 1 };
                let want = 32 / group + 8 + element_latency(&config) as u64;
                println!("atomic_alu cycles, atomic_lanes {lanes}, atomic_element_stages {stages}, 32 lanes atom.add.{dt:?} on consecutive elements: {cycles} (expected {want})");
                assert_eq!(cycles, want, "{}", ctx(&format!("{dt:?} cycles")));
            }
            // A misaligned lane inside a line ends the group: the lanes before it wrote, it
            // reports, the lanes after it did not write (golden order).
            let mut r = request(Op::Red, AtomOp::Add, DataType::U32, Space::Global, 0xFF);
            for l in 0..8 {
                r.lanes[l].addr = GLOBAL_BASE + 1024 + 4 * l as u64 + if l == 5 { 2 } else { 0 };
                r.lanes[l].b = 1 + l as u128;
            }
            compare(&mut bench, &mut golden, &mut gmem, &mut mbar, &r, &ctx("misaligned lane 5"));
            // Two lanes on the same word inside a line: the second waits for the next step.
            let mut r = request(Op::Atom, AtomOp::Exch, DataType::B32, Space::SharedCta, 0xF);
            for (l, word) in [0u64, 1, 1, 2].into_iter().enumerate() {
                r.lanes[l].addr = 512 + 4 * word;
                r.lanes[l].b = 0x100 + l as u128;
            }
            compare(&mut bench, &mut golden, &mut gmem, &mut mbar, &r, &ctx("same word twice"));
            // Random requests on this config as well.
            for i in 0..60 {
                let req = random_request(&mut rng, &config, &pairs);
                compare(&mut bench, &mut golden, &mut gmem, &mut mbar, &req, &ctx(&format!("random request {i}")));
            }
        }
    }

    /// Global memory whose end is not line-aligned (`global_end` inside a line): the lanes of a
    /// group in the last line join while they end below `global_end` (the slots' 8-bit room
    /// check), the first lane past it reports `GlobalOutOfRange`, and the lanes before it have
    /// written. Expected: the golden model on a global memory of that size (the bench's memory
    /// is a whole number of lines, for the RTL's line reads; its bytes past the end are not
    /// compared, and no write may touch them).
    #[test]
    fn alu_groups_stop_at_a_global_end_inside_a_line() {
        for lanes in [2u32, 4, 8] {
            let mut config = Config::fpga_small();
            config.atomic_lanes = lanes;
            for short in [2usize, 4, 6, 8, 12] {
                let size = GLOBAL_BYTES - short;
                let ctx =
                    |what: &str| format!("atomic_lanes {lanes}, global end {short} bytes before a line end: {what}");
                let mut bench = AluBench::new(&config, 1, 100, 9);
                bench.uut.global_end.next = (GLOBAL_BASE + size as u64).to_bits();
                let mut rng = Rng::new(11 + short as u64);
                fill(&mut bench.mem, &mut rng);
                let mut gmem = MemorySystem::new(size, config.cta_slots as usize, config.shared_bytes as usize);
                gmem.global.bytes.copy_from_slice(&bench.mem.global.bytes[..size]);
                for (g, b) in gmem.shared.iter_mut().zip(&bench.mem.shared) {
                    g.bytes.copy_from_slice(&b.bytes);
                }
                let tail = bench.mem.global.bytes[size..].to_vec();
                let mut golden = GoldenAlu::new(&config);
                let mut mbar = GoldenMbarrierAlu::new(&config);
                for (dt, bytes) in [(DataType::U32, 4u64), (DataType::U64, 8)] {
                    // From the second-to-last line into the last one and past the end.
                    let mut r = request(Op::Atom, AtomOp::Add, dt, Space::Global, 0xFFFF);
                    for l in 0..16 {
                        r.lanes[l].addr = GLOBAL_BASE + GLOBAL_BYTES as u64 - 32 + bytes * l as u64;
                        r.lanes[l].b = 1 + l as u128;
                    }
                    let mut out = Vec::new();
                    let mut events = Vec::new();
                    golden.submit(&r, &mut gmem, &mut mbar, &mut out, &mut events);
                    let want = &out[0];
                    assert_eq!(want.error, ErrorCode::GlobalOutOfRange, "{}", ctx("the golden model's error"));
                    let (got, _) = bench.run(&r);
                    assert_eq!(
                        (got.error, got.error_lane),
                        (want.error, want.error_lane),
                        "{}",
                        ctx(&format!("{dt:?} error"))
                    );
                    assert_eq!(got.values, want.values, "{}", ctx(&format!("{dt:?} old values")));
                    assert!(
                        bench.mem.global.bytes[..size] == gmem.global.bytes[..],
                        "{}",
                        ctx(&format!("{dt:?} memory"))
                    );
                    assert_eq!(bench.mem.global.bytes[size..], tail[..], "{}", ctx("bytes past the end written"));
                }
            }
        }
    }

    /// Lints the atomic ALU of fpga-small with `atomic_lanes` set to `lanes`.
    fn assert_fpga_small_with_lanes_lint_clean(lanes: u32) {
        let mut config = Config::fpga_small();
        config.atomic_lanes = lanes;
        config.name = format!("fpga-small-{lanes}-lanes");
        let text = atomic_alu_verilog(&config, "top").expect("atomic_alu is well formed");
        assert_lint_clean(&text, "top", &format!("atomic_alu_{}", config.name));
    }

    /// The presets' Verilog is linted by gen/tests/gen_lint.rs (every module `smsync gen` writes
    /// for every config in configs/); this is the one-lane variant, a generator branch no preset
    /// takes.
    #[test]
    fn atomic_alu_one_lane_verilog_is_lint_clean() {
        assert_fpga_small_with_lanes_lint_clean(1);
    }

    /// More lanes per step (8) than lanes per response row (4): the old-value store has 8 banks
    /// and a response row is half of a store row.
    #[test]
    fn atomic_alu_wider_step_than_row_verilog_is_lint_clean() {
        assert_fpga_small_with_lanes_lint_clean(8);
    }
}
