//! copy_engine: Verilog lint (verilator -Wall with the project waivers, yosys `proc; check
//! -assert`), directed tests against the golden copy engine (`smsync_sim::units::copy_engine`), a random
//! comparison of lane-op streams, and the bulk-copy throughput measurement quoted in
//! docs/units/copy_engine.md.
//!
//! The block runs in rust-hdl's simulator. The bench models the three memory-side ports: global
//! memory (requests granted at once, read data returned in order after `latency` cycles), shared
//! memory (1R1W, read data next cycle) and the mbarrier unit (the golden `GoldenMbarrierAlu` applied to
//! the engine's complete_tx / arrive-on / +1 events).
//!
//! Campaigns: `SMSYNC_UNIT_SEEDS=1,2,3 SMSYNC_UNIT_COUNT=10000 cargo test -p smsync-hdl --test copy_engine`.

use rust_hdl::prelude::*;
use smsync_hdl::atomic_alu::element_latency;
use smsync_hdl::copy_engine::{thread_bits, CopyEngine};
use smsync_sim::config::Config;
use smsync_sim::encoding::{flags, mbarrier_word, AtomOp, BulkDir, DataType, ErrorCode, Op, Space};
use smsync_sim::memory::{MemorySystem, GLOBAL_BASE};
use smsync_sim::units::atomic_alu::element as golden_element;
use smsync_sim::units::copy_engine::{bulk_reduce_legal, CopyEngine as GoldenCopy};
use smsync_sim::units::mbarrier_alu::MbarrierAlu as GoldenMbarrierAlu;
use smsync_sim::units::{Request, Response, TraceEvent};
use smsync_testkit::hdl_sim::{settle, tick};
use smsync_testkit::{Campaign, Rng};
use std::collections::VecDeque;

const GLOBAL_BYTES: usize = 1 << 16;

// ---------------------------------------------------------------- small helpers

fn b128(v: u128) -> Bits<128> {
    let mut b: Bits<128> = Bits::default();
    b.set_bits::<64>(0, (v as u64).to_bits());
    b.set_bits::<64>(64, ((v >> 64) as u64).to_bits());
    b
}

fn bytes_to_bits<const D: usize>(bytes: &[u8]) -> Bits<D> {
    let mut b: Bits<D> = Bits::default();
    for (i, chunk) in bytes.chunks(8).enumerate() {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        let n = chunk.len() * 8;
        if n == 64 {
            b.set_bits::<64>(64 * i, u64::from_le_bytes(w).to_bits());
        } else {
            for (j, byte) in chunk.iter().enumerate() {
                b.set_bits::<8>(64 * i + 8 * j, (*byte as u64).to_bits());
            }
        }
    }
    b
}

fn bits_to_bytes<const D: usize>(b: Bits<D>, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(b.get_bits::<8>(8 * i).to_u64() as u8);
    }
    out
}

// ---------------------------------------------------------------- bench

/// What the RTL did, in the order it did it.
#[derive(Default, Debug)]
struct Trace {
    /// (cta, warp, lane, error) per answered lane op.
    responses: Vec<(u16, u16, u8, ErrorCode)>,
    /// complete_tx events: (slot, offset, bytes).
    complete_tx: Vec<(usize, u64, u32)>,
    /// arrive-on events: (slot, offset).
    arrive_on: Vec<(usize, u64)>,
    /// Errors the mbarrier side answered to the engine's events (any kind).
    mb_errors: Vec<ErrorCode>,
    /// Late errors the engine reported on `late_*`: (tag, cta, warp, lane, error).
    late: Vec<(u64, u16, u16, u8, ErrorCode)>,
    phase_completions: usize,
}

struct Bench<const D: usize, const B: usize, const T: usize> {
    uut: CopyEngine<D, B, T>,
    mem: MemorySystem,
    mbar: GoldenMbarrierAlu,
    latency: u64,
    cycle: u64,
    /// (due cycle, aligned address) of global reads in flight.
    reads: VecDeque<(u64, u64)>,
    sm_read: Option<(usize, u64)>,
    trace: Trace,
    /// Global-port beats moved (reads + writes) and the cycles with a beat.
    gm_beats: u64,
    /// Requests waiting to enter the engine.
    input: VecDeque<Request>,
    stall_cycles: u64,
    /// The mbarrier unit's answers to the events taken, due at (cycle, error), in order; it
    /// answers `answer_latency` cycles after an event (the top: its event register + 3 stages).
    answers: VecDeque<(u64, ErrorCode)>,
    answer_latency: u64,
    /// The atomic ALU's lead element, which the engine's bulk reducer borrows: the golden
    /// element of the operands it took `element_latency` granted cycles before (a cycle that is
    /// not granted pushes an unrelated value, as the ALU's own operands would), and the grant:
    /// every cycle, or (`lend_pct` < 100) at random like a busy ALU, then held while asked.
    elem_pipe: VecDeque<u128>,
    elem_latency: usize,
    lent: bool,
    lend_pct: u64,
    lend_rng: Rng,
    /// The live map's answers (`live_hits`) to the probes of the last two cycles, oldest first:
    /// from the golden mbarrier unit's live objects (the top's `LiveMap` answers two cycles
    /// after a probe; `hdl/tests/live_map.rs` checks it against the same definition).
    live_due: VecDeque<(u32, u32)>,
}

impl<const D: usize, const B: usize, const T: usize> Bench<D, B, T> {
    fn new(config: &Config, latency: u64) -> Self {
        let mut uut = CopyEngine::<D, B, T>::new(config);
        uut.connect_all();
        let mem = MemorySystem::new(GLOBAL_BYTES, config.cta_slots as usize, config.shared_bytes as usize);
        let mut b = Bench {
            uut,
            mem,
            mbar: GoldenMbarrierAlu::new(config),
            latency,
            cycle: 0,
            reads: VecDeque::new(),
            sm_read: None,
            trace: Trace::default(),
            gm_beats: 0,
            input: VecDeque::new(),
            stall_cycles: 0,
            answers: VecDeque::new(),
            answer_latency: 3 + latency % 3,
            elem_pipe: VecDeque::new(),
            elem_latency: element_latency(config) as usize,
            lent: false,
            lend_pct: 100,
            lend_rng: Rng::new(0x1e4d),
            live_due: VecDeque::from([(0, 0), (0, 0)]),
        };
        b.uut.reset.next = true;
        b.uut.global_end.next = (b.mem.global.base + b.mem.global.bytes.len() as u64).to_bits();
        b.cycle();
        b.cycle();
        b.uut.reset.next = false;
        b
    }

    fn global_beat(&self, addr: u64) -> Vec<u8> {
        (0..B as u64).map(|i| self.mem.global.slice(addr + i, 1).map_or(0, |s| s[0])).collect()
    }

    fn drive_request(&mut self) {
        let u = &mut self.uut;
        match self.input.front() {
            None => u.req_valid.next = false,
            Some(r) => {
                let lane = r.first_active().unwrap_or(0);
                let l = r.lanes[lane];
                u.req_valid.next = true;
                u.req_op.next = (r.op.code() as u64).to_bits();
                u.req_sub.next = (r.sub as u64).to_bits();
                u.req_dtype.next = (r.dtype.code() as u64).to_bits();
                u.req_flags.next = (r.flags as u64).to_bits();
                u.req_space.next = (r.space.code() as u64).to_bits();
                u.req_imm.next = (r.imm as u64).to_bits();
                u.req_imm2.next = (r.imm2 as u64).to_bits();
                u.req_cta.next = (r.cta as u64).to_bits();
                u.req_warp.next = (r.warp as u64).to_bits();
                u.req_lane.next = (lane as u64).to_bits();
                u.req_addr.next = l.addr.to_bits();
                u.req_src.next = l.src.to_bits();
                u.req_mbar.next = l.mbar.to_bits();
                u.req_a.next = b128(l.a);
                u.req_b.next = (l.b as u64).to_bits();
                u.req_c.next = ((l.c as u64) & 0xFFFF_FFFF).to_bits();
                u.req_tag.next = r.tag.to_bits();
            }
        }
    }

    /// The lent element: this cycle's grant and value (after a settle, from the engine's
    /// registered operands); returns the golden value of this cycle's operands, or an unrelated
    /// one when not granted, to enter the pipeline at the clock edge.
    fn serve_element(&mut self) -> u128 {
        settle(&mut self.uut);
        let u = &self.uut;
        let req = u.elem_req.val();
        let grant = req && (self.lent || self.lend_pct >= 100 || self.lend_rng.below(100) < self.lend_pct);
        self.lent = grant;
        let entering = if grant {
            let op = AtomOp::from_code(u.elem_op.val().to_u64() as u8).expect("element op");
            let dt = DataType::from_code(u.elem_dtype.val().to_u64() as u8).expect("element type");
            golden_element(op, dt, u.elem_r.val().to_u128(), u.elem_s.val().to_u128(), 0, true)
        } else {
            self.lend_rng.next() as u128
        };
        self.uut.elem_grant.next = grant;
        let value = if self.elem_latency == 0 { entering } else { self.elem_pipe.front().copied().unwrap_or(0) };
        self.uut.elem_value.next = b128(value);
        entering
    }

    /// The slots with a live mbarrier word in the engine's probe (the live map's definition:
    /// words `lo..=hi`, and the words of `lo`'s / `hi`'s 16-word line set in `xh` / `xt`).
    fn live_answer(&self) -> (u32, u32) {
        let u = &self.uut;
        // the mbarrier word: live in the golden unit's sense (initialized, not invalidated)
        let mb = u.live_mb.val().to_u64();
        let mut mb_live = 0;
        for slot in 0..self.mem.shared.len() {
            mb_live |= (self.mbar.check_live(&self.mem, slot, 8 * mb).is_ok() as u32) << slot;
        }
        if u.live_empty.val() {
            return (0, mb_live);
        }
        let (lo, hi) = (u.live_lo.val().to_u64(), u.live_hi.val().to_u64());
        let (xh, xt) = (u.live_xh.val().to_u64(), u.live_xt.val().to_u64());
        let mut hits = 0;
        for slot in 0..self.mem.shared.len() {
            let word = |w: u64| self.mbar.overlaps_live(slot as u16, 8 * w, 8);
            let hit = (hi >= lo && self.mbar.overlaps_live(slot as u16, 8 * lo, 8 * (hi - lo + 1)))
                || (0..16)
                    .any(|i| (xh >> i & 1 == 1 && word((lo & !15) + i)) || (xt >> i & 1 == 1 && word((hi & !15) + i)));
            hits |= (hit as u32) << slot;
        }
        (hits, mb_live)
    }

    /// One clock cycle with every port served.
    fn cycle(&mut self) {
        self.drive_request();
        let (hits, mb_live) = self.live_due.pop_front().unwrap_or((0, 0));
        self.uut.live_hits.next = hits.to_bits();
        self.uut.live_mb_hits.next = mb_live.to_bits();
        settle(&mut self.uut);
        let answer = self.live_answer();
        self.live_due.push_back(answer);
        let entering = self.serve_element();
        self.uut.gm_grant.next = true;
        self.uut.mb_ready.next = true;
        self.uut.sm_rgrant.next = true;
        self.uut.sm_wgrant.next = true;
        self.uut.late_ready.next = true;
        // The mbarrier unit's answer due this cycle.
        let answer = self.answers.front().filter(|&&(c, _)| c <= self.cycle).map(|&(_, e)| e);
        self.uut.mb_resp_valid.next = answer.is_some();
        self.uut.mb_resp_error.next = (answer.unwrap_or(ErrorCode::None).code() as u64).to_bits();
        if answer.is_some() {
            self.answers.pop_front();
        }
        // Global read data due this cycle.
        let due = self.reads.front().is_some_and(|&(c, _)| c <= self.cycle);
        self.uut.gm_rvalid.next = due;
        if due {
            let addr = self.reads.front().unwrap().1;
            self.uut.gm_rdata.next = bytes_to_bits::<D>(&self.global_beat(addr));
        }
        // Shared read data of last cycle's read.
        if let Some((slot, addr)) = self.sm_read {
            let bytes: Vec<u8> = (0..B as u64)
                .map(|i| self.mem.shared.get(slot).and_then(|r| r.slice(addr + i, 1)).map_or(0, |s| s[0]))
                .collect();
            self.uut.sm_rdata.next = bytes_to_bits::<D>(&bytes);
        }
        settle(&mut self.uut);
        let u = &self.uut;
        let mut beat = false;
        if u.req_valid.val() && !u.reset.val() {
            if u.req_ready.val() {
                self.input.pop_front();
            } else {
                self.stall_cycles += 1;
            }
        }
        if due {
            self.reads.pop_front();
            beat = true;
        }
        // Requests on the global port.
        if u.gm_req.val() {
            let addr = u.gm_addr.val().to_u64();
            assert_eq!(addr % B as u64, 0, "global port address not port-aligned");
            if u.gm_we.val() {
                let data = bits_to_bytes(u.gm_wdata.val(), B);
                let be = u.gm_be.val();
                for i in 0..B {
                    if be.get_bit(i) {
                        if let Some(s) = self.mem.global.slice_mut(addr + i as u64, 1) {
                            s[0] = data[i];
                        }
                    }
                }
                beat = true;
            } else {
                self.reads.push_back((self.cycle + self.latency, addr));
            }
        }
        if beat {
            self.gm_beats += 1;
        }
        self.sm_read = None;
        if u.sm_re.val() {
            self.sm_read = Some((u.sm_rslot.val().to_u64() as usize, u.sm_raddr.val().to_u64()));
        }
        if u.sm_we.val() {
            let slot = u.sm_wslot.val().to_u64() as usize;
            let addr = u.sm_waddr.val().to_u64();
            let data = bits_to_bytes(u.sm_wdata.val(), B);
            let be = u.sm_be.val();
            for i in 0..B {
                if be.get_bit(i) {
                    let s = self.mem.shared[slot].slice_mut(addr + i as u64, 1).expect("shared write in range");
                    s[0] = data[i];
                }
            }
        }
        if u.resp_valid.val() {
            let e = ErrorCode::from_code(u.resp_error.val().to_u64() as u8).expect("known error code");
            self.trace.responses.push((
                u.resp_cta.val().to_u64() as u16,
                u.resp_warp.val().to_u64() as u16,
                u.resp_lane.val().to_u64() as u8,
                e,
            ));
        }
        if u.late_valid.val() && !u.reset.val() {
            let e = ErrorCode::from_code(u.late_error.val().to_u64() as u8).expect("known error code");
            self.trace.late.push((
                u.late_tag.val().to_u64(),
                u.late_cta.val().to_u64() as u16,
                u.late_warp.val().to_u64() as u16,
                u.late_lane.val().to_u64() as u8,
                e,
            ));
        }
        if u.mb_valid.val() && !u.reset.val() {
            let op = Op::from_code(u.mb_op.val().to_u64() as u8).expect("mb op");
            let slot = u.mb_slot.val().to_u64() as usize;
            let off = u.mb_addr.val().to_u64();
            let a = u.mb_a.val().to_u64();
            let fl = u.mb_flags.val().to_u64() as u8;
            let mut ev = Vec::new();
            let r = match op {
                Op::MbCompleteTx => {
                    self.trace.complete_tx.push((slot, off, a as u32));
                    self.mbar.complete_tx_at(&mut self.mem, slot, off, a as u32, &mut ev)
                }
                Op::MbArrive => {
                    self.trace.arrive_on.push((slot, off));
                    self.mbar.arrive_on_at(&mut self.mem, slot, off, &mut ev)
                }
                Op::MbCpAsyncArrive => {
                    if fl & flags::NO_INC != 0 {
                        self.mbar.check_live(&self.mem, slot, off)
                    } else {
                        self.mbar.increment_pending_at(&mut self.mem, slot, off)
                    }
                }
                other => panic!("unexpected mbarrier event {other:?}"),
            };
            if let Err(e) = r {
                self.trace.mb_errors.push(e);
            }
            self.answers.push_back((self.cycle + self.answer_latency, r.err().unwrap_or(ErrorCode::None)));
            self.trace.phase_completions += ev.iter().filter(|e| matches!(e, TraceEvent::PhaseComplete { .. })).count();
        }
        self.uut.clock.next = Clock { clk: true };
        settle(&mut self.uut);
        self.uut.clock.next = Clock { clk: false };
        settle(&mut self.uut);
        if self.elem_latency > 0 {
            self.elem_pipe.push_back(entering);
            while self.elem_pipe.len() > self.elem_latency {
                self.elem_pipe.pop_front();
            }
        }
        self.cycle += 1;
    }

    fn busy(&mut self) -> bool {
        settle(&mut self.uut);
        !self.input.is_empty() || self.uut.busy.val() || !self.reads.is_empty()
    }

    /// Run until everything is done (or `limit` cycles).
    fn run(&mut self, limit: u64) {
        let start = self.cycle;
        while self.busy() {
            assert!(
                self.cycle - start < limit,
                "engine still busy after {limit} cycles: {} (input {}, reads {})",
                self.uut.debug_state(),
                self.input.len(),
                self.reads.len()
            );
            self.cycle();
        }
        // Two more cycles flush the registered response / last events.
        self.cycle();
        self.cycle();
    }
}

// ---------------------------------------------------------------- golden side

struct Golden {
    copy: GoldenCopy,
    mbar: GoldenMbarrierAlu,
    mem: MemorySystem,
    responses: Vec<Response>,
    events: Vec<TraceEvent>,
}

impl Golden {
    fn new(config: &Config) -> Golden {
        Golden {
            copy: GoldenCopy::new(config),
            mbar: GoldenMbarrierAlu::new(config),
            mem: MemorySystem::new(GLOBAL_BYTES, config.cta_slots as usize, config.shared_bytes as usize),
            responses: Vec::new(),
            events: Vec::new(),
        }
    }
    fn submit(&mut self, r: &Request) {
        self.copy.submit(r, &mut self.mem, &mut self.mbar, &mut self.responses, &mut self.events);
    }
    fn drain(&mut self) {
        for _ in 0..8 {
            if !self.copy.tick(&mut self.mem, &mut self.mbar, true, &mut self.responses, &mut self.events) {
                break;
            }
        }
    }
    fn complete_tx(&self) -> Vec<(u16, u64, u32)> {
        self.events
            .iter()
            .filter_map(|e| match e {
                TraceEvent::CopyDone { cta, bytes, mbar: Some(m) } => Some((*cta, *m, *bytes)),
                _ => None,
            })
            .collect()
    }
}

fn lane_req(tag: u64, cta: u16, warp: u16, lane: usize, op: Op) -> Request {
    let mut r = Request::new(tag, cta, warp, op);
    r.active_mask = 1 << lane;
    r
}

fn cp_async(tag: u64, lane: usize, dst: u64, src: u64, cp: u32, src_size: u128, ignore: bool) -> Request {
    let mut r = lane_req(tag, 0, 0, lane, Op::CpAsync);
    r.imm = cp;
    r.lanes[lane].addr = dst;
    r.lanes[lane].src = src;
    r.lanes[lane].a = src_size;
    r.lanes[lane].b = ignore as u128;
    r
}

fn init_mbarrier(mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu, slot: u16, off: u64, count: u128) {
    let mut r = Request::new(0, slot, 0, Op::MbInit);
    r.active_mask = 1;
    r.lanes[0].addr = off;
    r.lanes[0].a = count;
    let mut out = Vec::new();
    let mut ev = Vec::new();
    mbar.submit(&r, mem, &mut out, &mut ev);
    assert_eq!(out[0].error, ErrorCode::None);
}

fn expect_tx(mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu, slot: u16, off: u64, tx: u128) {
    let mut r = Request::new(0, slot, 0, Op::MbExpectTx);
    r.active_mask = 1;
    r.lanes[0].addr = off;
    r.lanes[0].a = tx;
    let mut out = Vec::new();
    let mut ev = Vec::new();
    mbar.submit(&r, mem, &mut out, &mut ev);
    assert_eq!(out[0].error, ErrorCode::None);
}

fn fill_global(mem: &mut MemorySystem, seed: u64) {
    let mut rng = Rng::new(seed);
    for b in mem.global.bytes.iter_mut() {
        *b = rng.next() as u8;
    }
}

type Small = Bench<64, 8, 9>;

fn small_config() -> Config {
    let c = Config::fpga_small();
    assert_eq!(thread_bits(&c), 9);
    c
}

/// Run the same lane ops on the RTL (fpga-small instance) and the golden engine, each request
/// drained before the next on the golden side; compare responses, memories and events.
fn compare(
    config: &Config,
    setup: impl Fn(&mut MemorySystem, &mut GoldenMbarrierAlu),
    reqs: &[Request],
    latency: u64,
) -> (Small, Golden) {
    compare_with(config, setup, reqs, latency, true)
}

/// `compare`, optionally without the complete_tx event-stream check: the golden unit records one
/// CopyDone event per operation (issuing CTA, first mbarrier), the RTL one complete_tx per
/// destination CTA, so multicast streams differ there; their effect (the mbarrier words in
/// shared memory) is still compared.
fn compare_with(
    config: &Config,
    setup: impl Fn(&mut MemorySystem, &mut GoldenMbarrierAlu),
    reqs: &[Request],
    latency: u64,
    tx_events: bool,
) -> (Small, Golden) {
    compare_on::<64, 8, 9>(config, setup, reqs, latency, tx_events)
}

/// `compare_with` on the `CopyEngine<D, B, T>` instance (e.g. the default config's 64-byte port).
fn compare_on<const D: usize, const B: usize, const T: usize>(
    config: &Config,
    setup: impl Fn(&mut MemorySystem, &mut GoldenMbarrierAlu),
    reqs: &[Request],
    latency: u64,
    tx_events: bool,
) -> (Bench<D, B, T>, Golden) {
    let mut bench = Bench::<D, B, T>::new(config, latency);
    // Half of the global latencies (2, 3, 6, 7, ...) also lend the element only now and then,
    // as a busy atomic ALU would (the random stream's first seed among them).
    if latency % 4 >= 2 {
        bench.lend_pct = 30;
    }
    let mut golden = Golden::new(config);
    fill_global(&mut bench.mem, 7);
    fill_global(&mut golden.mem, 7);
    setup(&mut bench.mem, &mut bench.mbar);
    setup(&mut golden.mem, &mut golden.mbar);
    for r in reqs {
        golden.submit(r);
        golden.drain();
        bench.input.push_back(r.clone());
    }
    bench.run(5_000 + 400 * reqs.len() as u64);
    let g: Vec<(u16, u16, u8, ErrorCode)> = golden
        .responses
        .iter()
        .filter(|r| r.lanes != 0)
        .map(|r| {
            (
                r.cta,
                r.warp,
                if r.error == ErrorCode::None { r.lanes.trailing_zeros() as u8 } else { r.error_lane },
                r.error,
            )
        })
        .collect();
    let mut rtl = bench.trace.responses.clone();
    let mut gs = g.clone();
    if std::env::var("SMSYNC_COPY_DUMP").is_ok() {
        eprintln!("rtl {rtl:?}\ngolden {:?}", golden.responses.iter().map(|r| (r.tag, r.error)).collect::<Vec<_>>());
    }
    // Waits may answer later than later requests; compare as multisets, errors in order.
    rtl.sort();
    gs.sort();
    assert_eq!(rtl, gs, "responses differ");
    let rtl_errors: Vec<_> = bench.trace.responses.iter().filter(|r| r.3 != ErrorCode::None).collect();
    let g_errors: Vec<_> = g.iter().filter(|r| r.3 != ErrorCode::None).collect();
    assert_eq!(rtl_errors, g_errors, "error answers differ (in order)");
    assert!(bench.mem.global.bytes == golden.mem.global.bytes, "global memory differs");
    for (s, (a, b)) in bench.mem.shared.iter().zip(&golden.mem.shared).enumerate() {
        if a.bytes != b.bytes {
            let i = a.bytes.iter().zip(&b.bytes).position(|(x, y)| x != y).unwrap();
            panic!(
                "shared memory of slot {s} differs at offset {i:#x}: rtl {:#x} golden {:#x}",
                a.bytes[i], b.bytes[i]
            );
        }
    }
    let rtl_tx: Vec<(u16, u64, u32)> = bench.trace.complete_tx.iter().map(|&(s, o, b)| (s as u16, o, b)).collect();
    if tx_events {
        assert_eq!(rtl_tx, golden.complete_tx(), "complete_tx event streams differ");
    }
    // Late errors (the golden `late_error`: no lanes), in order. An event the golden unit would
    // not make, or make elsewhere, shows here: the bench's mbarrier side refuses it.
    let g_late: Vec<(u64, u16, u16, u8, ErrorCode)> = golden
        .responses
        .iter()
        .filter(|r| r.lanes == 0)
        .map(|r| (r.tag, r.cta, r.warp, r.error_lane, r.error))
        .collect();
    assert_eq!(bench.trace.late, g_late, "late errors differ");
    (bench, golden)
}

// Lint: gen/tests/gen_lint.rs lints every module `smsync gen` writes for every config in
// configs/ (equal to the presets: sim/tests/configs.rs).

// ---------------------------------------------------------------- directed: cp.async

const G: u64 = GLOBAL_BASE;

#[test]
fn c_cp_async_zero_fill_sizes_match_golden() {
    let c = small_config();
    let mut reqs = Vec::new();
    let mut tag = 1;
    for (i, cp) in [4u32, 8, 16].into_iter().enumerate() {
        for src_size in 0..=cp as u128 {
            let dst = 0x400 + (i as u64 * 0x200) + src_size as u64 * 16;
            reqs.push(cp_async(tag, (tag % 32) as usize, dst, G + 0x100 + 16 * src_size as u64, cp, src_size, false));
            tag += 1;
        }
    }
    let (bench, _) = compare(&c, |_, _| {}, &reqs, 5);
    assert_eq!(bench.trace.responses.len(), reqs.len());
}

#[test]
fn c_cp_async_ignore_src_and_errors_match_golden() {
    let c = small_config();
    let reqs = vec![
        cp_async(1, 0, 0x100, G + 0x40, 16, 16, true),
        cp_async(2, 1, 0x110, G + 0x48, 8, 8, true),
        cp_async(3, 2, 0x120, G + 0x44, 8, 8, false), // src misaligned -> CpAsyncAlign
        cp_async(4, 3, 0x130, G + 0x40, 12, 12, false), // bad cp-size -> CpAsyncAlign
        cp_async(5, 4, 0x140, G + 0x40, 4, 5, false), // src-size > cp-size
        cp_async(6, 5, c.shared_bytes as u64, G, 16, 16, false), // out of shared memory
        cp_async(7, 6, 0x150, G + 0x50, 16, 16, false),
    ];
    let (bench, _) = compare(&c, |_, _| {}, &reqs, 3);
    let errs: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).collect();
    assert_eq!(
        errs,
        vec![
            ErrorCode::None,
            ErrorCode::None,
            ErrorCode::CpAsyncAlign,
            ErrorCode::CpAsyncAlign,
            ErrorCode::CpAsyncSrcSize,
            ErrorCode::SharedOutOfRange,
            ErrorCode::None
        ]
    );
}

/// wait_group 1 answers once the older group landed (its bytes are in shared memory at the
/// answer), wait_group 0 once both did; wait_all commits the open group first.
#[test]
fn c_wait_group_ordering() {
    let c = small_config();
    let mut bench = Small::new(&c, 30);
    fill_global(&mut bench.mem, 11);
    let commit = |tag| lane_req(tag, 0, 0, 0, Op::CpAsyncCommit);
    let wait = |tag, n| {
        let mut r = lane_req(tag, 0, 0, 0, Op::CpAsyncWait);
        r.imm = n;
        r
    };
    let a = cp_async(1, 0, 0x200, G + 0x1000, 16, 16, false);
    let b = cp_async(2, 0, 0x300, G + 0x2000, 16, 16, false);
    for r in [a, commit(3), b, commit(4), wait(5, 1)] {
        bench.input.push_back(r);
    }
    let expect_a = bench.mem.global.slice(G + 0x1000, 16).unwrap().to_vec();
    let expect_b = bench.mem.global.slice(G + 0x2000, 16).unwrap().to_vec();
    let mut seen = 0;
    while seen < 5 {
        bench.cycle();
        if bench.trace.responses.len() > seen {
            seen = bench.trace.responses.len();
            if seen == 5 {
                // wait_group 1: group A complete.
                assert_eq!(bench.mem.shared[0].slice(0x200, 16).unwrap(), &expect_a[..]);
            }
        }
        assert!(bench.cycle < 2000);
    }
    bench.input.push_back(wait(6, 0));
    bench.run(2000);
    assert_eq!(bench.trace.responses.len(), 6);
    assert_eq!(bench.mem.shared[0].slice(0x300, 16).unwrap(), &expect_b[..]);
    // wait_all over an uncommitted cp.async.
    let cpy = cp_async(7, 0, 0x400, G + 0x3000, 16, 16, false);
    let mut wall = wait(8, 0);
    wall.imm2 = 1;
    bench.input.push_back(cpy);
    bench.input.push_back(wall);
    bench.run(2000);
    assert_eq!(bench.mem.shared[0].slice(0x400, 16).unwrap(), bench.mem.global.slice(G + 0x3000, 16).unwrap());
    assert!(bench.trace.responses.iter().all(|r| r.3 == ErrorCode::None));
}

#[test]
fn c_wait_group_matches_golden_stream() {
    let c = small_config();
    let mut reqs = Vec::new();
    let mut tag = 0;
    let mut next = || {
        tag += 1;
        tag
    };
    for round in 0..6u64 {
        for lane in 0..3 {
            reqs.push(cp_async(
                next(),
                lane,
                0x800 + round * 0x100 + lane as u64 * 16,
                G + 0x40 * (round + 1) + 16 * lane as u64,
                16,
                16,
                false,
            ));
            reqs.push(lane_req(next(), 0, 0, lane, Op::CpAsyncCommit));
            let mut w = lane_req(next(), 0, 0, lane, Op::CpAsyncWait);
            w.imm = (round % 3) as u32;
            reqs.push(w);
        }
    }
    compare(&c, |_, _| {}, &reqs, 12);
}

/// cp.async.mbarrier.arrive: without .noinc the pending count is raised at issue and the later
/// arrive-on takes it back (phase does not complete); with .noinc the arrive-on counts as one of
/// the expected arrivals (count 1: the phase completes).
#[test]
fn c_cp_async_mbarrier_arrive_noinc_vs_inc() {
    let c = small_config();
    for noinc in [false, true] {
        let mb = 0x40;
        let setup = |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| init_mbarrier(mem, mbar, 0, mb, 1);
        let mut arrive = lane_req(3, 0, 0, 0, Op::MbCpAsyncArrive);
        arrive.lanes[0].addr = mb;
        if noinc {
            arrive.flags |= flags::NO_INC;
        }
        let reqs =
            vec![cp_async(1, 0, 0x100, G + 0x80, 16, 16, false), cp_async(2, 0, 0x110, G + 0x90, 8, 4, false), arrive];
        let (bench, golden) = compare(&c, setup, &reqs, 9);
        assert_eq!(bench.trace.arrive_on, vec![(0usize, mb)]);
        let word = |m: &MemorySystem| mbarrier_word::unpack(m.read_shared(0, mb, 8).unwrap() as u64);
        assert_eq!(word(&bench.mem), word(&golden.mem));
        assert_eq!(bench.trace.phase_completions, noinc as usize, "noinc = {noinc}");
    }
}

/// Back-to-back cp.async.mbarrier.arrive of several lanes: every lane's issue event and
/// arrive-on reach the mbarrier (regression: a lane that sent its event and finished in the same
/// cycle left the "sent" flag set, so the next lane finished without its event).
#[test]
fn c_cp_async_mbarrier_arrive_back_to_back_lanes() {
    let c = small_config();
    for noinc in [false, true] {
        let mb = 0x40;
        let lanes = 5usize;
        let count: u128 = if noinc { lanes as u128 } else { 1 };
        let setup = move |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| init_mbarrier(mem, mbar, 0, mb, count);
        let mut reqs = Vec::new();
        for lane in 0..lanes {
            let mut arrive = lane_req(10 + lane as u64, 0, 0, lane, Op::MbCpAsyncArrive);
            arrive.lanes[lane].addr = mb;
            if noinc {
                arrive.flags |= flags::NO_INC;
            }
            reqs.push(arrive);
        }
        let (bench, golden) = compare(&c, setup, &reqs, 9);
        assert_eq!(bench.trace.arrive_on, vec![(0usize, mb); lanes], "noinc = {noinc}");
        let word = |m: &MemorySystem| mbarrier_word::unpack(m.read_shared(0, mb, 8).unwrap() as u64);
        assert_eq!(word(&bench.mem), word(&golden.mem), "noinc = {noinc}");
        assert_eq!(bench.trace.phase_completions, noinc as usize, "noinc = {noinc}");
    }
}

/// cp.async.mbarrier.arrive on an mbarrier that was never initialized (PTX ISA §9.7.13.15:
/// any mbarrier operation other than init on such an object is undefined; the golden unit
/// answers `MbNotInitialized` at issue): the lane is answered with the mbarrier unit's refusal of
/// the issue-time event, with and without `.noinc`, and no arrive-on follows.
#[test]
fn c_cp_async_mbarrier_arrive_on_dead_mbarrier_is_refused_at_issue() {
    let c = small_config();
    for noinc in [false, true] {
        let mb = 0x40;
        let mut arrive = lane_req(3, 0, 1, 2, Op::MbCpAsyncArrive);
        arrive.lanes[2].addr = mb;
        if noinc {
            arrive.flags |= flags::NO_INC;
        }
        let reqs = vec![cp_async(1, 2, 0x100, G + 0x80, 16, 16, false), arrive];
        let (bench, _) = compare(&c, |_, _| {}, &reqs, 5);
        let errs: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).collect();
        assert_eq!(errs, vec![ErrorCode::None, ErrorCode::MbNotInitialized], "noinc = {noinc}");
        assert!(bench.trace.arrive_on.is_empty(), "a refused +1 queues no arrive-on (noinc = {noinc})");
        assert!(bench.trace.late.is_empty());
    }
}

/// A complete_tx that would take the tx-count below -(2^20 - 1) (PTX ISA §9.7.13.15.2: the
/// tx-count's range is ±(2^20 - 1); the golden unit refuses it, `MbTxRange`) is a late error of
/// the bulk copy that made it: its tag, CTA, warp and lane, after the copy itself was answered
/// without error; a second copy's complete_tx on a healthy mbarrier still lands.
#[test]
fn c_complete_tx_out_of_range_is_a_late_error_of_its_copy() {
    let c = small_config();
    let (bad, good) = (0x8, 0x10);
    let setup = |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
        init_mbarrier(mem, mbar, 0, bad, 1);
        init_mbarrier(mem, mbar, 0, good, 1);
        // tx-count -(2^20 - 1): the lowest it may be.
        let mut ev = Vec::new();
        mbar.complete_tx_at(mem, 0, bad, (1 << 20) - 1, &mut ev).unwrap();
    };
    let mut first = bulk(21, BulkDir::GlobalToShared, 0x100, G + 0x10, 16, bad);
    first.warp = 3;
    first.lanes.swap(0, 5);
    first.active_mask = 1 << 5;
    let reqs = vec![first, bulk(22, BulkDir::GlobalToShared, 0x200, G + 0x40, 32, good)];
    let (bench, _) = compare(&c, setup, &reqs, 7);
    assert_eq!(bench.trace.late, vec![(21, 0, 3, 5, ErrorCode::MbTxRange)]);
    assert!(bench.trace.responses.iter().all(|r| r.3 == ErrorCode::None), "{:?}", bench.trace.responses);
    assert_eq!(bench.trace.complete_tx, vec![(0, bad, 16), (0, good, 32)]);
}

/// Global operands outside global memory: a cp.async source (unless ignore-src or src-size 0)
/// and a bulk shared -> global destination are answered `GlobalOutOfRange`, as by the golden
/// unit (found by top_random's copy stream: the RTL had no global range check).
#[test]
fn c_global_operands_out_of_range() {
    let c = small_config();
    let end = G + GLOBAL_BYTES as u64;
    let mut reqs = vec![
        cp_async(1, 0, 0x100, end, 8, 8, false),
        cp_async(2, 0, 0x108, end + 64, 4, 4, false),
        cp_async(3, 0, 0x110, end, 8, 8, true),
        cp_async(4, 0, 0x118, end, 8, 0, false),
        cp_async(5, 0, 0x120, G - 16, 16, 16, false),
    ];
    let mut s2g = bulk(6, BulkDir::SharedToGlobal, end - 16, 0x200, 32, 0);
    reqs.push(s2g.clone());
    s2g.tag = 7;
    s2g.lanes[0].addr = end - 32;
    reqs.push(s2g);
    let (bench, _golden) = compare(&c, |_, _| {}, &reqs, 5);
    let errors: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).collect();
    assert_eq!(
        errors,
        vec![
            ErrorCode::GlobalOutOfRange,
            ErrorCode::GlobalOutOfRange,
            ErrorCode::None,
            ErrorCode::None,
            ErrorCode::GlobalOutOfRange,
            ErrorCode::GlobalOutOfRange,
            ErrorCode::None
        ]
    );
}

// ---------------------------------------------------------------- directed: bulk

fn bulk(tag: u64, dir: BulkDir, dst: u64, src: u64, len: u128, mbar: u64) -> Request {
    let mut r = lane_req(tag, 0, 0, 0, Op::CpBulk);
    r.sub = dir.code();
    r.lanes[0].addr = dst;
    r.lanes[0].src = src;
    r.lanes[0].a = len;
    r.lanes[0].mbar = mbar;
    r
}

#[test]
fn c_bulk_copy_complete_tx_count() {
    let c = small_config();
    let mb = 0x8;
    let setup = |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
        init_mbarrier(mem, mbar, 0, mb, 1);
        expect_tx(mem, mbar, 0, mb, 16 + 272 + 1024);
    };
    let reqs = vec![
        bulk(1, BulkDir::GlobalToShared, 0x100, G + 0x10, 16, mb),
        bulk(2, BulkDir::GlobalToShared, 0x210, G + 0x400, 272, mb), // dst and src 16-aligned, not 8B-port... aligned
        bulk(3, BulkDir::GlobalToShared, 0x1000, G + 0x2010, 1024, mb), // source/destination offsets differ mod 8
        bulk(4, BulkDir::GlobalToShared, 0x1001, G, 16, mb),         // misaligned -> BulkSizeAlign
        bulk(5, BulkDir::GlobalToShared, 0x100, G, 24, mb),          // size -> BulkSizeAlign
        bulk(6, BulkDir::GlobalToShared, 0x100, G, 16, mb + 4),      // mbarrier misaligned -> MbAlign
    ];
    let (bench, _) = compare(&c, setup, &reqs, 7);
    assert_eq!(bench.trace.complete_tx.iter().map(|t| t.2).sum::<u32>(), 16 + 272 + 1024);
    assert_eq!(bench.trace.phase_completions, 0, "tx done but the arrival is still pending");
}

#[test]
fn c_bulk_store_with_cp_mask_and_shared_to_cluster() {
    let c = small_config();
    let mb = 0x8;
    let setup = |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
        init_mbarrier(mem, mbar, 0, mb, 1);
        for (i, b) in mem.shared[0].bytes.iter_mut().enumerate().skip(0x100).take(0x400) {
            *b = (i * 7 + 3) as u8;
        }
    };
    let mut masked = bulk(2, BulkDir::SharedToGlobal, G + 0x800, 0x200, 64, 0);
    masked.imm2 = 1;
    masked.lanes[0].c = 0b1010_0000_1111_0001;
    let mut s2c = bulk(
        4,
        BulkDir::SharedToCluster,
        smsync_sim::memory::CLUSTER_BASE + 0x600,
        0x100,
        48,
        smsync_sim::memory::CLUSTER_BASE + mb,
    );
    s2c.space = Space::SharedCluster;
    let mut bwait = lane_req(6, 0, 0, 0, Op::BulkWait);
    bwait.imm = 0;
    let reqs = vec![
        bulk(1, BulkDir::SharedToGlobal, G + 0x400, 0x100, 256, 0),
        masked,
        lane_req(3, 0, 0, 0, Op::BulkCommit),
        s2c,
        bulk(5, BulkDir::SharedToGlobal, G + 0x1000, 0x110, 32, 0),
        bwait,
    ];
    compare(&c, setup, &reqs, 4);
}

// ---------------------------------------------------------------- directed: reductions

/// cp.reduce.async.bulk (operands per contract/src/request.rs): lane 0 of warp 0, CTA 0.
fn reduce(tag: u64, dir: BulkDir, op: AtomOp, dtype: DataType, dst: u64, src: u64, len: u128, mbar: u64) -> Request {
    let mut r = lane_req(tag, 0, 0, 0, Op::CpReduceBulk);
    r.sub = op.code();
    r.imm = dir.code() as u32;
    r.dtype = dtype;
    r.lanes[0].addr = dst;
    r.lanes[0].src = src;
    r.lanes[0].a = len;
    r.lanes[0].mbar = mbar;
    r
}

/// Shared memory with values that exercise every reduction: small and large integers, signs,
/// f32 subnormals / NaN / infinities (float bytes come from the same pattern).
fn reduce_setup(mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu) {
    init_mbarrier(mem, mbar, 0, 0x10, 1);
    expect_tx(mem, mbar, 0, 0x10, 1_000_000);
    let mut rng = Rng::new(99);
    for (i, b) in mem.shared[0].bytes.iter_mut().enumerate().skip(0x100) {
        *b = match i % 16 {
            0..=3 => rng.next() as u8,
            4..=7 => (i / 16) as u8,
            8 => 0x01,
            9..=10 => 0x00,
            11 => 0x80,
            _ => rng.next() as u8 | 0x7F,
        };
    }
}

/// Every legal op x type of the .global row of the §16.5 table (integers, bitwise, inc/dec
/// wrap, f32 add with subnormal flush, f64 add, f16/bf16 .noftz add and min/max), then the
/// illegal combinations (AtomBadType) and a load direction; global memory and the answers equal
/// the golden unit's.
#[test]
fn c_bulk_reduce_to_global_matches_golden() {
    use DataType::*;
    let c = small_config();
    let mut reqs = Vec::new();
    let mut tag = 0;
    let combos: &[(AtomOp, &[DataType])] = &[
        (AtomOp::Add, &[U32, S32, U64, F32, F64, F16, Bf16]),
        (AtomOp::Min, &[U32, S32, U64, S64, F16, Bf16]),
        (AtomOp::Max, &[U32, S32, U64, S64, F16, Bf16]),
        (AtomOp::Inc, &[U32]),
        (AtomOp::Dec, &[U32]),
        (AtomOp::And, &[B32, B64]),
        (AtomOp::Or, &[B32, B64]),
        (AtomOp::Xor, &[B32, B64]),
    ];
    for (op, types) in combos {
        for dt in *types {
            tag += 1;
            let mut r = reduce(
                tag,
                BulkDir::SharedToGlobal,
                *op,
                *dt,
                G + 0x100 * tag,
                0x100 + 0x40 * (tag % 8),
                48 + 16 * (tag as u128 % 3),
                0,
            );
            if matches!(dt, F16 | Bf16) && *op == AtomOp::Add {
                r.flags |= flags::MOD_A;
            }
            reqs.push(r);
        }
    }
    for (op, dt, dir) in [
        (AtomOp::Add, F16, BulkDir::SharedToGlobal), // f16 add without .noftz
        (AtomOp::Inc, U64, BulkDir::SharedToGlobal),
        (AtomOp::Cas, B32, BulkDir::SharedToGlobal),
        (AtomOp::Exch, B32, BulkDir::SharedToGlobal),
        (AtomOp::Min, F32, BulkDir::SharedToGlobal),
        (AtomOp::Add, U32, BulkDir::GlobalToShared),
    ] {
        tag += 1;
        reqs.push(reduce(tag, dir, op, dt, G + 0x100 * tag, 0x200, 32, 0));
    }
    tag += 1;
    reqs.push(reduce(tag, BulkDir::SharedToGlobal, AtomOp::Add, U32, G + 0x108, 0x200, 32, 0)); // misaligned
    tag += 1;
    reqs.push(reduce(tag, BulkDir::SharedToGlobal, AtomOp::Add, U32, G + GLOBAL_BYTES as u64 - 16, 0x200, 32, 0)); // past the end
    reqs.push(lane_req(tag + 1, 0, 0, 0, Op::BulkCommit));
    reqs.push(lane_req(tag + 2, 0, 0, 0, Op::BulkWait));
    let (bench, golden) = compare(&c, reduce_setup, &reqs, 5);
    let mut before = MemorySystem::new(GLOBAL_BYTES, c.cta_slots as usize, c.shared_bytes as usize);
    fill_global(&mut before, 7);
    let changed = (1..=tag - 8)
        .filter(|t| {
            golden.mem.global.slice(G + 0x100 * t, 48).unwrap() != before.global.slice(G + 0x100 * t, 48).unwrap()
        })
        .count();
    assert!(changed as u64 >= tag - 8 - 2, "the reductions changed global memory ({changed} of {} ranges)", tag - 8);
    let errs: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).filter(|&e| e != ErrorCode::None).collect();
    let mut want = vec![ErrorCode::AtomBadType; 6];
    want.extend([ErrorCode::BulkSizeAlign, ErrorCode::GlobalOutOfRange]);
    assert_eq!(errs, want);
}

/// The shared::cluster form: reduction into shared memory and complete_tx of the byte count on
/// the mbarrier, interleaved with bulk copies (the reducer waits for the mover to drain).
#[test]
fn c_bulk_reduce_to_shared_cluster_completes_tx() {
    use smsync_sim::memory::CLUSTER_BASE;
    let c = small_config();
    let cl = |off: u64| CLUSTER_BASE + off;
    let mut reqs = vec![bulk(1, BulkDir::GlobalToShared, 0x800, G + 0x40, 64, 0x10)];
    for (i, (op, dt)) in [
        (AtomOp::Add, DataType::U32),
        (AtomOp::Max, DataType::S32),
        (AtomOp::Xor, DataType::B32),
        (AtomOp::Add, DataType::U64),
        (AtomOp::Dec, DataType::U32),
    ]
    .into_iter()
    .enumerate()
    {
        let mut r = reduce(
            2 + i as u64,
            BulkDir::SharedToCluster,
            op,
            dt,
            cl(0x800 + 0x10 * i as u64),
            0x100 + 0x20 * i as u64,
            32,
            cl(0x10),
        );
        r.space = Space::SharedCluster;
        reqs.push(r);
    }
    // u64 is not in the shared::cluster row of max: AtomBadType.
    let mut bad = reduce(9, BulkDir::SharedToCluster, AtomOp::Max, DataType::U64, cl(0x900), 0x100, 16, cl(0x10));
    bad.space = Space::SharedCluster;
    reqs.push(bad);
    let (bench, _) = compare(&c, reduce_setup, &reqs, 3);
    assert_eq!(bench.trace.complete_tx.iter().map(|t| t.2).collect::<Vec<_>>(), vec![64, 32, 32, 32, 32, 32]);
}

/// cp.reduce.async.bulk.tensor: a typed f32 map, an untyped map with u32 add and b32 xor (the
/// golden `reduce_type`), a box clipped at the tensor edge, a tensor base that is not 8-byte
/// aligned (elements straddle the 8-byte port words), and an op the table refuses.
#[test]
fn c_tensor_reduce_matches_golden() {
    let c = small_config();
    let mut typed = MapSpec::d2(G + 0x2000, 12, 6, 64, 8, 4);
    typed.elem_type = DataType::F32.code() as u32 + 1;
    let plain = MapSpec::d2(G + 0x3000, 12, 6, 64, 8, 4);
    let straddle = MapSpec::d2(G + 0x4006, 12, 6, 60, 8, 4);
    let red = |tag: u64, map: usize, coords: [i32; 5], op: AtomOp| {
        let mut r =
            tensor_req(tag, BulkDir::SharedToGlobal, 2, 0x200 + 0x80 * (tag % 4), MAPS + 128 * map as u64, coords, 0);
        r.imm2 = op.code() as u32 + 1;
        r
    };
    let reqs = vec![
        red(1, 0, [0, 0, 0, 0, 0], AtomOp::Add),
        red(2, 0, [8, 4, 0, 0, 0], AtomOp::Max), // f32 max: not in the table
        red(3, 1, [0, 0, 0, 0, 0], AtomOp::Add),
        red(4, 1, [8, 4, 0, 0, 0], AtomOp::Xor), // clipped in x and y
        red(5, 2, [2, 1, 0, 0, 0], AtomOp::Add),
        red(6, 2, [0, 0, 0, 0, 0], AtomOp::Or),
        lane_req(7, 0, 0, 0, Op::BulkCommit),
        lane_req(8, 0, 0, 0, Op::BulkWait),
    ];
    let (bench, _) = compare(&c, tensor_setup(vec![typed, plain, straddle], 0), &reqs, 4);
    let errs: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).filter(|&e| e != ErrorCode::None).collect();
    assert_eq!(errs, vec![ErrorCode::AtomBadType]);
}

#[test]
fn c_queue_full_stalls_request_port() {
    let c = small_config(); // copy_queue_depth = 4
    let mut bench = Small::new(&c, 40);
    for i in 0..12u64 {
        bench.input.push_back(cp_async(i + 1, (i % 32) as usize, 0x100 + 16 * i, G + 16 * i, 16, 16, false));
    }
    bench.run(5000);
    assert!(bench.stall_cycles > 0, "a 4-deep queue behind 40-cycle reads must stall the port");
    assert_eq!(bench.trace.responses.len(), 12);
    for i in 0..12u64 {
        assert_eq!(
            bench.mem.shared[0].slice(0x100 + 16 * i, 16).unwrap(),
            bench.mem.global.slice(G + 16 * i, 16).unwrap()
        );
    }
}

// ---------------------------------------------------------------- random comparison

fn random_stream(rng: &mut Rng, n: usize, cfg: &Config) -> Vec<Request> {
    let mut reqs = Vec::with_capacity(n);
    let shared = cfg.shared_bytes as u64;
    for i in 0..n {
        let tag = i as u64 + 1;
        let lane = rng.below(4) as usize;
        let warp = rng.below(2) as u16;
        let mut r = match rng.below(10) {
            0..=3 => {
                let cp = [4u32, 8, 16][rng.below(3) as usize];
                let dst = 0x100 + rng.below((shared - 0x200) / cp as u64) * cp as u64;
                let src = G + rng.below((GLOBAL_BYTES as u64 - 64) / cp as u64) * cp as u64;
                let size = if rng.below(4) == 0 { rng.below(cp as u64 + 1) as u128 } else { cp as u128 };
                cp_async(tag, lane, dst, src, cp, size, rng.below(8) == 0)
            }
            4 => lane_req(tag, 0, 0, lane, Op::CpAsyncCommit),
            5 => {
                let mut w = lane_req(tag, 0, 0, lane, Op::CpAsyncWait);
                w.imm = rng.below(3) as u32;
                w.imm2 = (rng.below(4) == 0) as u32;
                w
            }
            6 | 7 => {
                let len = 16 * (1 + rng.below(24));
                let src = G + 16 * rng.below((GLOBAL_BYTES as u64 - len) / 16);
                let dst = 0x100 + 16 * rng.below((shared - 0x100 - len) / 16);
                bulk(tag, BulkDir::GlobalToShared, dst, src, len as u128, 0x10)
            }
            8 => {
                let len = 16 * (1 + rng.below(16));
                let src = 0x100 + 16 * rng.below((shared - 0x100 - len) / 16);
                let dst = G + 16 * rng.below((GLOBAL_BYTES as u64 - len) / 16);
                let mut r = bulk(tag, BulkDir::SharedToGlobal, dst, src, len as u128, 0);
                match rng.below(6) {
                    0 | 1 => {
                        r.imm2 = 1;
                        r.lanes[0].c = rng.below(1 << 16) as u128;
                    }
                    2 | 3 => {
                        // cp.reduce.async.bulk with a legal .global op x type (.noftz on all).
                        let legal: Vec<(AtomOp, DataType)> = AtomOp::ALL
                            .iter()
                            .flat_map(|op| DataType::ALL.iter().map(move |dt| (*op, *dt)))
                            .filter(|(op, dt)| bulk_reduce_legal(*op, *dt, true, true))
                            .collect();
                        let (op, dt) = legal[rng.below(legal.len() as u64) as usize];
                        r = reduce(tag, BulkDir::SharedToGlobal, op, dt, dst, src, len as u128, 0);
                        r.flags |= flags::MOD_A;
                    }
                    _ => {}
                }
                r
            }
            _ => {
                let mut w = lane_req(tag, 0, 0, 0, if rng.below(2) == 0 { Op::BulkCommit } else { Op::BulkWait });
                w.imm = rng.below(2) as u32;
                w
            }
        };
        r.warp = warp;
        // Single-lane requests address lane `lane`; bulk helpers use lane 0: move operands over.
        let first = r.first_active().unwrap();
        if first != lane {
            r.lanes[lane] = r.lanes[first];
            r.active_mask = 1 << lane;
        }
        reqs.push(r);
    }
    reqs
}

/// Live mbarrier objects amid the random streams' destinations (slot 0).
const LIVE_IN_STREAMS: [u64; 6] = [0x808, 0x1008, 0x1a20, 0x2a10, 0x3380, 0x3f00];

#[test]
fn random_streams_match_golden() {
    let (seeds, count) = Campaign::new("UNIT", (&[1], 300), (&[1, 2], 600)).split();
    let c = small_config();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let reqs = random_stream(&mut rng, count, &c);
        if std::env::var("SMSYNC_COPY_DUMP").is_ok() {
            for r in &reqs {
                let l = r.first_active().unwrap();
                eprintln!("{:?} w{} l{} sub{} imm{} imm2{} {:x?}", r.op, r.warp, l, r.sub, r.imm, r.imm2, r.lanes[l]);
            }
        }
        let setup = |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
            // A never-completing mbarrier receives the bulk loads' complete_tx; six more live
            // objects where copies land now and then (refused, PTX ISA §9.7.13.15).
            init_mbarrier(mem, mbar, 0, 0x10, 1);
            expect_tx(mem, mbar, 0, 0x10, 1_000_000);
            for off in LIVE_IN_STREAMS {
                init_mbarrier(mem, mbar, 0, off, 1);
            }
        };
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compare(&c, setup, &reqs, 1 + seed % 13)));
        if let Err(e) = result {
            eprintln!("random_streams_match_golden failed for seed {seed} (count {count})");
            std::panic::resume_unwind(e);
        }
    }
}

// ---------------------------------------------------------------- throughput

fn bulk_throughput<const D: usize, const B: usize, const T: usize>(
    config: &Config,
    bytes: u64,
    moves: u64,
    latency: u64,
) -> (f64, f64) {
    // `moves` back-to-back bulk loads global -> shared of `bytes` each, then as many stores
    // shared -> global; bytes per cycle from the first request to the last beat, over the port.
    let mut bench = Bench::<D, B, T>::new(config, latency);
    fill_global(&mut bench.mem, 3);
    let mb = 0x8;
    init_mbarrier(&mut bench.mem, &mut bench.mbar, 0, mb, 1);
    expect_tx(&mut bench.mem, &mut bench.mbar, 0, mb, (bytes * moves) as u128);
    for m in 0..moves {
        bench.input.push_back(bulk(
            1 + m,
            BulkDir::GlobalToShared,
            0x400 + m * bytes,
            G + 0x1000 + m * bytes,
            bytes as u128,
            mb,
        ));
    }
    let start = bench.cycle;
    bench.run(1_000_000);
    let load_cycles = bench.cycle - start - 2;
    let total = (bytes * moves) as usize;
    assert_eq!(bench.mem.shared[0].slice(0x400, total).unwrap(), bench.mem.global.slice(G + 0x1000, total).unwrap());
    for m in 0..moves {
        bench.input.push_back(bulk(
            100 + m,
            BulkDir::SharedToGlobal,
            G + 0x8000 + m * bytes,
            0x400 + m * bytes,
            bytes as u128,
            0,
        ));
    }
    let start = bench.cycle;
    bench.run(1_000_000);
    let store_cycles = bench.cycle - start - 2;
    assert_eq!(bench.mem.global.slice(G + 0x8000, total).unwrap(), bench.mem.shared[0].slice(0x400, total).unwrap());
    let bpc = |c: u64| total as f64 / c as f64;
    eprintln!(
        "copy_port_bytes {B}: {moves} x {bytes} B loads {load_cycles} cycles ({:.2} B/cycle, {:.1}% of port), stores {store_cycles} cycles ({:.2} B/cycle, {:.1}%), latency {latency}",
        bpc(load_cycles),
        100.0 * bpc(load_cycles) / B as f64,
        bpc(store_cycles),
        100.0 * bpc(store_cycles) / B as f64
    );
    (bpc(load_cycles) / B as f64, bpc(store_cycles) / B as f64)
}

#[test]
fn throughput_bulk_fpga_small() {
    let (load, store) = bulk_throughput::<64, 8, 9>(&Config::fpga_small(), 2048, 1, 10);
    assert!(load >= 0.9 && store >= 0.9, "load {load:.3} store {store:.3} of the port width");
}

#[test]
fn throughput_bulk_default() {
    // A single 2 KiB move at 64 B/cycle is 32 beats against ~15 cycles of fixed latency; the
    // figure is for a stream of 2 KiB moves (loads pipeline back to back).
    let (load, store) = bulk_throughput::<512, 64, 14>(&Config::hopper_like(), 2048, 8, 10);
    let (single_load, single_store) = bulk_throughput::<512, 64, 14>(&Config::hopper_like(), 2048, 1, 10);
    eprintln!("single 2 KiB move: load {single_load:.3}, store {single_store:.3} of the port");
    assert!(load >= 0.9 && store >= 0.9, "load {load:.3} store {store:.3} of the port width");
}

// ---------------------------------------------------------------- tensor tile mode

/// A tensor map in the project's 128-byte layout (sim/src/units/tensormap.rs).
#[derive(Clone, Debug)]
struct MapSpec {
    magic: u32,
    dims: u32,
    elem_bytes: u32,
    fill_ones: bool,
    base: u64,
    size: [u32; 5],
    boxs: [u32; 5],
    stride: [u64; 4],
    elem_type: u32,
    /// Off 100: 0 none, 1 32B, 2 64B, 3 128B (PTX ISA §5.5.7).
    swizzle: u32,
    /// Off 104: 0 tiled, 1 im2col (PTX ISA §5.5.4); off 108 / 114: the im2col corners.
    mode: u32,
    lower: [i16; 3],
    upper: [i16; 3],
}

impl MapSpec {
    fn bytes(&self) -> [u8; 128] {
        let mut b = [0u8; 128];
        b[0..4].copy_from_slice(&self.magic.to_le_bytes());
        b[4..8].copy_from_slice(&self.dims.to_le_bytes());
        b[8..12].copy_from_slice(&self.elem_bytes.to_le_bytes());
        b[12..16].copy_from_slice(&(self.fill_ones as u32).to_le_bytes());
        b[16..24].copy_from_slice(&self.base.to_le_bytes());
        for d in 0..5 {
            b[24 + 4 * d..28 + 4 * d].copy_from_slice(&self.size[d].to_le_bytes());
            b[44 + 4 * d..48 + 4 * d].copy_from_slice(&self.boxs[d].to_le_bytes());
        }
        for d in 0..4 {
            b[64 + 8 * d..72 + 8 * d].copy_from_slice(&self.stride[d].to_le_bytes());
        }
        b[96..100].copy_from_slice(&self.elem_type.to_le_bytes());
        b[100..104].copy_from_slice(&self.swizzle.to_le_bytes());
        b[104..108].copy_from_slice(&self.mode.to_le_bytes());
        for s in 0..3 {
            b[108 + 2 * s..110 + 2 * s].copy_from_slice(&self.lower[s].to_le_bytes());
            b[114 + 2 * s..116 + 2 * s].copy_from_slice(&self.upper[s].to_le_bytes());
        }
        b
    }
    fn write(&self, mem: &mut MemorySystem, addr: u64) {
        mem.global.slice_mut(addr, 128).expect("map in global memory").copy_from_slice(&self.bytes());
    }
    fn box_bytes(&self) -> u64 {
        self.boxs[..self.dims as usize].iter().map(|&b| b as u64).product::<u64>() * self.elem_bytes as u64
    }
    /// A dense 2D map of `w` x `h` elements of 4 bytes at `base` (row pitch `pitch` bytes).
    fn d2(base: u64, w: u32, h: u32, pitch: u64, bw: u32, bh: u32) -> MapSpec {
        MapSpec {
            magic: smsync_sim::units::tensormap::MAGIC,
            dims: 2,
            elem_bytes: 4,
            fill_ones: false,
            base,
            size: [w, h, 1, 1, 1],
            boxs: [bw, bh, 1, 1, 1],
            stride: [pitch, pitch * h as u64, 0, 0],
            elem_type: 0,
            swizzle: 0,
            mode: 0,
            lower: [0; 3],
            upper: [0; 3],
        }
    }
}

/// cp.async.bulk.tensor (operands per contract/src/request.rs): lane 0 of warp 0, CTA 0.
fn tensor_req(tag: u64, dir: BulkDir, dims: u32, smem: u64, map: u64, coords: [i32; 5], mbar: u64) -> Request {
    let mut r = lane_req(tag, 0, 0, 0, Op::CpBulkTensor);
    r.sub = dir.code();
    r.imm = dims;
    let l = &mut r.lanes[0];
    l.addr = smem;
    l.src = map;
    l.a = (0..4).fold(0u128, |acc, d| acc | ((coords[d] as u32 as u128) << (32 * d)));
    l.b = coords[4] as u32 as u128;
    l.mbar = mbar;
    r
}

/// Where the directed tests keep their maps (tensor data stays below 0xE000).
const MAPS: u64 = G + 0xF000;

fn tensor_setup(maps: Vec<MapSpec>, mb_tx: u128) -> impl Fn(&mut MemorySystem, &mut GoldenMbarrierAlu) {
    move |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
        for (i, m) in maps.iter().enumerate() {
            m.write(mem, MAPS + 128 * i as u64);
        }
        init_mbarrier(mem, mbar, 0, 0x10, 1);
        expect_tx(mem, mbar, 0, 0x10, mb_tx);
        for (i, b) in mem.shared[0].bytes.iter_mut().enumerate().skip(0x100) {
            *b = (i * 13 + 5) as u8;
        }
    }
}

/// Out-of-bounds boxes on every side of a 2D tensor, zero and all-ones fill: shared memory,
/// complete_tx (full box bytes) and responses equal the golden engine's.
#[test]
fn c_tensor_load_oob_fill_matches_golden() {
    let c = small_config();
    let mut zero = MapSpec::d2(G + 0x1000, 20, 10, 96, 8, 4);
    zero.size = [20, 10, 1, 1, 1];
    let mut ones = zero.clone();
    ones.fill_ones = true;
    let mut reqs = Vec::new();
    let corners = [[0, 0], [-3, 0], [16, 0], [0, -2], [-5, -3], [18, 8], [-8, 0], [20, 0], [4, 9], [6, 3]];
    for (i, [x, y]) in corners.into_iter().enumerate() {
        let map = MAPS + 128 * (i % 2) as u64;
        reqs.push(tensor_req(
            1 + i as u64,
            BulkDir::GlobalToShared,
            2,
            0x400 + 0x100 * i as u64,
            map,
            [x, y, 0, 0, 0],
            0x10,
        ));
    }
    let (bench, golden) = compare(&c, tensor_setup(vec![zero, ones], 1_000_000), &reqs, 5);
    assert_eq!(bench.trace.complete_tx.len(), corners.len());
    assert!(bench.trace.complete_tx.iter().all(|t| t.2 == 8 * 4 * 4), "complete_tx counts the full box");
    // The fully out-of-bounds box [20, 0] of the all-ones map reads as 0xFF bytes.
    let i = 7;
    assert!(golden.mem.shared[0].slice(0x400 + 0x100 * i, 128).unwrap().iter().all(|&b| b == 0xFF));
}

/// A store writes only the in-bounds elements (clipped at the far edges); negative start
/// coordinates answer TensorNegativeStore and write nothing.
#[test]
fn c_tensor_store_clips_and_negative_start_is_an_error() {
    let c = small_config();
    let m = MapSpec::d2(G + 0x2000, 12, 6, 64, 8, 4);
    let reqs = vec![
        tensor_req(1, BulkDir::SharedToGlobal, 2, 0x200, MAPS, [0, 0, 0, 0, 0], 0),
        tensor_req(2, BulkDir::SharedToGlobal, 2, 0x300, MAPS, [8, 4, 0, 0, 0], 0), // clipped in x and y
        tensor_req(3, BulkDir::SharedToGlobal, 2, 0x400, MAPS, [12, 0, 0, 0, 0], 0), // nothing in bounds
        tensor_req(4, BulkDir::SharedToGlobal, 2, 0x500, MAPS, [-1, 0, 0, 0, 0], 0),
        tensor_req(5, BulkDir::SharedToGlobal, 2, 0x500, MAPS, [0, -4, 0, 0, 0], 0),
        lane_req(6, 0, 0, 0, Op::BulkCommit),
        lane_req(7, 0, 0, 0, Op::BulkWait),
    ];
    let (bench, _) = compare(&c, tensor_setup(vec![m], 0), &reqs, 6);
    let errs: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).filter(|&e| e != ErrorCode::None).collect();
    assert_eq!(errs, vec![ErrorCode::TensorNegativeStore, ErrorCode::TensorNegativeStore]);
}

/// Malformed maps and operands answer the golden error codes, in order.
#[test]
fn c_tensor_map_checks_match_golden() {
    let c = small_config();
    let good = MapSpec::d2(G + 0x1000, 16, 16, 64, 4, 4);
    let mut bad_magic = good.clone();
    bad_magic.magic ^= 1;
    let mut bad_eb = good.clone();
    bad_eb.elem_bytes = 3;
    let mut bad_box = good.clone();
    bad_box.boxs[0] = 2; // 8 bytes: not a multiple of 16
    let mut zero_size = good.clone();
    zero_size.size[1] = 0;
    let mut huge = good.clone();
    huge.boxs = [4, 1024, 1024, 1, 1];
    huge.dims = 3;
    let mut typed = good.clone();
    typed.elem_type = 1 + smsync_sim::encoding::DataType::F32.code() as u32;
    let mut mistyped = good.clone();
    mistyped.elem_type = 1 + smsync_sim::encoding::DataType::F64.code() as u32;
    let maps = vec![good, bad_magic, bad_eb, bad_box, zero_size, huge, typed, mistyped];
    let m = |i: u64| MAPS + 128 * i;
    let mut reqs = Vec::new();
    for i in 0..8u64 {
        let dims = if i == 5 { 3 } else { 2 };
        reqs.push(tensor_req(1 + i, BulkDir::GlobalToShared, dims, 0x400, m(i), [0; 5], 0x10));
    }
    reqs.push(tensor_req(20, BulkDir::GlobalToShared, 3, 0x400, m(0), [0; 5], 0x10)); // dims mismatch
    reqs.push(tensor_req(21, BulkDir::GlobalToShared, 2, 0x408, m(0), [0; 5], 0x10)); // smem misaligned
    reqs.push(tensor_req(22, BulkDir::GlobalToShared, 2, 0x400, m(0), [0; 5], 0x14)); // mbarrier misaligned
    reqs.push(tensor_req(23, BulkDir::GlobalToShared, 2, c.shared_bytes as u64 - 32, m(0), [0; 5], 0x10)); // range
    let mut bad_dir = tensor_req(24, BulkDir::GlobalToShared, 2, 0x400, m(0), [0; 5], 0x10);
    bad_dir.sub = 7;
    reqs.push(bad_dir);
    let (bench, _) = compare(&c, tensor_setup(maps, 1_000_000), &reqs, 3);
    let errs: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).collect();
    use ErrorCode::*;
    assert_eq!(
        errs,
        vec![
            None,
            TensorMap,
            TensorMap,
            TensorMap,
            TensorMap,
            TensorMap,
            None,
            TensorMap,
            TensorMap,
            BulkSizeAlign,
            MbAlign,
            SharedOutOfRange,
            TensorMap
        ]
    );
}

/// The map's own 128 bytes must lie in global memory: a map below it, straddling its end or past
/// it answers GlobalOutOfRange before any check of its contents (golden `TensorMap::read`); the
/// last 128 bytes of global memory are in range (never written, so the map check fails there).
#[test]
fn c_tensor_map_outside_global_memory() {
    let c = small_config();
    let end = G + GLOBAL_BYTES as u64;
    let good = MapSpec::d2(G + 0x1000, 16, 16, 64, 4, 4);
    let load = |tag, map| tensor_req(tag, BulkDir::GlobalToShared, 2, 0x400, map, [0; 5], 0x10);
    let reqs =
        vec![load(1, MAPS), load(2, end - 64), load(3, end), load(4, G - 128), load(5, G - 8), load(6, end - 128)];
    let (bench, _) = compare(&c, tensor_setup(vec![good], 1_000_000), &reqs, 4);
    let errs: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).collect();
    use ErrorCode::*;
    assert_eq!(errs, vec![None, GlobalOutOfRange, GlobalOutOfRange, GlobalOutOfRange, GlobalOutOfRange, TensorMap]);
}

/// Tensor stores join bulk groups: wait_group 1 answers once the older group's elements are in
/// global memory, wait_group 0 once both are.
#[test]
fn c_tensor_wait_group_ordering() {
    let c = small_config();
    let mut bench = Small::new(&c, 25);
    fill_global(&mut bench.mem, 5);
    let a = MapSpec::d2(G + 0x1000, 32, 32, 128, 16, 8);
    let b = MapSpec::d2(G + 0x4000, 32, 32, 128, 32, 16);
    a.write(&mut bench.mem, MAPS);
    b.write(&mut bench.mem, MAPS + 128);
    for (i, x) in bench.mem.shared[0].bytes.iter_mut().enumerate() {
        *x = (i * 3 + 1) as u8;
    }
    let wait = |tag, n| {
        let mut r = lane_req(tag, 0, 0, 0, Op::BulkWait);
        r.imm = n;
        r
    };
    for r in [
        tensor_req(1, BulkDir::SharedToGlobal, 2, 0x400, MAPS, [0; 5], 0),
        lane_req(2, 0, 0, 0, Op::BulkCommit),
        tensor_req(3, BulkDir::SharedToGlobal, 2, 0x1000, MAPS + 128, [0; 5], 0),
        lane_req(4, 0, 0, 0, Op::BulkCommit),
        wait(5, 1),
    ] {
        bench.input.push_back(r);
    }
    let row_a = |m: &MemorySystem, y: u64| m.global.slice(G + 0x1000 + 128 * y, 64).unwrap().to_vec();
    let mut seen = 0;
    while seen < 5 {
        bench.cycle();
        if bench.trace.responses.len() > seen {
            seen = bench.trace.responses.len();
            if seen == 5 {
                for y in 0..8 {
                    assert_eq!(
                        row_a(&bench.mem, y),
                        bench.mem.shared[0].slice(0x400 + 64 * y, 64).unwrap(),
                        "group A row {y} at wait_group 1"
                    );
                }
            }
        }
        assert!(bench.cycle < 5000, "{}", bench.uut.debug_state());
    }
    bench.input.push_back(wait(6, 0));
    let mut answered = false;
    while !answered {
        bench.cycle();
        answered = bench.trace.responses.len() == 6;
        assert!(bench.cycle < 10000);
    }
    for y in 0..16u64 {
        assert_eq!(
            bench.mem.global.slice(G + 0x4000 + 128 * y, 128).unwrap(),
            bench.mem.shared[0].slice(0x1000 + 128 * y, 128).unwrap(),
            "group B row {y} at wait_group 0"
        );
    }
    assert!(bench.trace.responses.iter().all(|r| r.3 == ErrorCode::None));
}

/// Multicast: one tile into two CTAs of a cluster, each with its own complete_tx.
#[test]
fn c_tensor_multicast_matches_golden() {
    let mut c = small_config();
    c.cluster_size = 2;
    let m = MapSpec::d2(G + 0x1000, 40, 20, 160, 16, 6);
    let setup = move |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
        m.write(mem, MAPS);
        for s in 0..2u16 {
            init_mbarrier(mem, mbar, s, 0x10, 1);
            expect_tx(mem, mbar, s, 0x10, 1_000_000);
        }
    };
    let cl = smsync_sim::memory::CLUSTER_BASE;
    let mut r = tensor_req(1, BulkDir::GlobalToShared, 2, cl + 0x800, MAPS, [30, 17, 0, 0, 0], cl + 0x10);
    r.space = Space::SharedCluster;
    r.flags |= flags::MOD_B;
    r.lanes[0].c = 0b11;
    let (bench, golden) = compare_with(&c, setup, &[r], 4, false);
    assert_eq!(bench.trace.complete_tx, vec![(0, 0x10, 16 * 6 * 4), (1, 0x10, 16 * 6 * 4)]);
    assert_eq!(golden.complete_tx(), vec![(0, 0x10, 16 * 6 * 4)], "golden: one CopyDone per operation");
}

// ---------------------------------------------------------------- the destination's live check

fn mb_inval(mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu, slot: u16, off: u64) {
    let mut r = Request::new(0, slot, 0, Op::MbInval);
    r.active_mask = 1;
    r.lanes[0].addr = off;
    mbar.submit(&r, mem, &mut Vec::new(), &mut Vec::new());
}

/// PTX ISA §9.7.13.15: while an mbarrier object is live it is accessed only by mbarrier
/// instructions, so a copy whose shared destination overlaps one is refused
/// (`MbarrierPlainAccess`) before any byte moves, at its place in the golden order of checks
/// (after the destination's range, before the global source's). Objects: slot 0 at 0x10,
/// 0x208, 0x800 (inside a long copy's middle 512-byte entries), 0xa48 and 0xb38 (lines a
/// swizzled box's chunks land in); slot 1 at 0x308; 0x400 invalidated. The expected refusals
/// are listed from the rule; the RTL must also equal the golden engine in every answer and byte.
#[test]
fn c005_a_copy_onto_a_live_mbarrier_is_refused() {
    let mut c = small_config();
    c.cluster_size = 2;
    let cl = smsync_sim::memory::CLUSTER_BASE;
    let rank1 = cl + (1 << 24);
    let mut swz = MapSpec::d2(G + 0x1000, 20, 10, 96, 4, 3);
    swz.swizzle = 3;
    let tile = MapSpec::d2(G + 0x1000, 20, 10, 96, 8, 4);
    let setup = move |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
        tile.write(mem, MAPS);
        swz.write(mem, MAPS + 128);
        for s in 0..2 {
            init_mbarrier(mem, mbar, s, 0x10, 1);
            expect_tx(mem, mbar, s, 0x10, 1_000_000);
        }
        for off in [0x208, 0x800, 0xa48, 0xb38, 0x400] {
            init_mbarrier(mem, mbar, 0, off, 1);
        }
        init_mbarrier(mem, mbar, 1, 0x308, 1);
        mb_inval(mem, mbar, 0, 0x400);
    };
    let multicast = |tag, mask| {
        let mut r = bulk(tag, BulkDir::GlobalToShared, cl + 0x300, G + 0x100, 16, cl + 0x10);
        r.space = Space::SharedCluster;
        r.flags |= flags::MOD_B;
        r.lanes[0].b = mask;
        r
    };
    let mut s2c = bulk(13, BulkDir::SharedToCluster, rank1 + 0x300, 0x600, 16, rank1 + 0x10);
    s2c.space = Space::SharedCluster;
    let load = |tag, dst, map| tensor_req(tag, BulkDir::GlobalToShared, 2, dst, map, [2, 1, 0, 0, 0], 0x10);
    let reqs = vec![
        cp_async(1, 0, 0x10, G + 0x100, 16, 16, false),  // the object itself
        cp_async(2, 1, 0x14, G + 0x104, 4, 4, false),    // its upper half
        cp_async(3, 2, 0x18, G + 0x108, 8, 8, false),    // the word after it
        cp_async(4, 3, 0x200, G + 0x100, 16, 16, false), // 0x208 in the second word
        cp_async(5, 0, 0x210, G + 0x100, 16, 16, false),
        // live before the global source's range (golden order)
        cp_async(6, 1, 0x10, G + GLOBAL_BYTES as u64, 16, 16, false),
        bulk(7, BulkDir::GlobalToShared, 0x100, G + 0x1000, 0x110, 0x10), // ends at 0x20f
        bulk(8, BulkDir::GlobalToShared, 0x440, G, 0xa00 - 0x440, 0x10),  // 0x800 mid-range
        bulk(9, BulkDir::GlobalToShared, 0x210, G, 0x1f0, 0x10),          // 0x300.. is slot 1's
        bulk(10, BulkDir::GlobalToShared, 0x400, G, 16, 0x10),            // the invalidated object
        multicast(11, 0b11),                                              // slot 1 has 0x308
        multicast(12, 0b01),
        s2c,                   // rank 1's 0x308
        load(14, 0x200, MAPS), // 128-byte box over 0x208
        load(15, 0x280, MAPS),
        // 48-byte swizzled boxes: line 20 puts chunks 0-2 at 4-6 (0xa40..0xa6f: 0xa48 live), line
        // 22 at 6, 7, 4 (0xb40.. and 0xb60..: 0xb38 is beside them, untouched)
        load(16, 0xa00, MAPS + 128),
        load(17, 0xb00, MAPS + 128),
    ];
    let (_, golden) = compare_with(&c, setup, &reqs, 3, false);
    let refused: Vec<u64> =
        golden.responses.iter().filter(|r| r.error == ErrorCode::MbarrierPlainAccess).map(|r| r.tag).collect();
    assert_eq!(refused, vec![1, 2, 4, 6, 7, 8, 11, 13, 14, 16], "refusals by the rule");
    let other: Vec<_> =
        golden.responses.iter().filter(|r| !refused.contains(&r.tag) && r.error != ErrorCode::None).collect();
    assert!(other.is_empty(), "no other error: {other:?}");
}

/// PTX ISA §9.7.13.15: an mbarrier operation on an object that is not live (never initialized,
/// or invalidated) is undefined; the golden unit refuses a copy whose mbarrier is dead at issue
/// (`MbNotInitialized`), in its order: a load's targets one by one in rank order, each its
/// destination's live words first, then its mbarrier; a shared::cluster copy's mbarrier before
/// its destination's range. The RTL's live map answers the mbarrier word with the destination.
/// Expected answers listed from the rule (slot 0: 0x10 live, 0x40 invalidated, 0x80 never
/// initialized, 0x308 live in slot 1 only; slot 1: 0x10 live).
#[test]
fn c004_a_copy_with_a_dead_mbarrier_is_refused_at_issue() {
    let mut c = small_config();
    c.cluster_size = 2;
    let cl = smsync_sim::memory::CLUSTER_BASE;
    let rank1 = cl + (1 << 24);
    let tile = MapSpec::d2(G + 0x1000, 20, 10, 96, 8, 4);
    let setup = move |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
        tile.write(mem, MAPS);
        for s in 0..2 {
            init_mbarrier(mem, mbar, s, 0x10, 1);
            expect_tx(mem, mbar, s, 0x10, 1_000_000);
        }
        init_mbarrier(mem, mbar, 0, 0x40, 1);
        mb_inval(mem, mbar, 0, 0x40);
        init_mbarrier(mem, mbar, 0, 0x208, 1);
        init_mbarrier(mem, mbar, 1, 0x80, 1);
        expect_tx(mem, mbar, 1, 0x80, 1_000_000);
    };
    let multicast = |tag, dst, mb, mask| {
        let mut r = bulk(tag, BulkDir::GlobalToShared, cl + dst, G + 0x100, 16, cl + mb);
        r.space = Space::SharedCluster;
        r.flags |= flags::MOD_B;
        r.lanes[0].b = mask;
        r
    };
    let s2c = |tag, dst, len, mb| {
        let mut r = bulk(tag, BulkDir::SharedToCluster, rank1 + dst, 0x600, len, rank1 + mb);
        r.space = Space::SharedCluster;
        r
    };
    let reqs = vec![
        bulk(1, BulkDir::GlobalToShared, 0x400, G, 64, 0x80), // never initialized (in slot 0)
        bulk(2, BulkDir::GlobalToShared, 0x400, G, 64, 0x40), // invalidated
        bulk(3, BulkDir::GlobalToShared, 0x400, G, 64, 0x10),
        // a destination on a live object and a dead mbarrier: the destination first
        bulk(4, BulkDir::GlobalToShared, 0x200, G, 64, 0x80),
        multicast(5, 0x400, 0x80, 0b11), // rank 0's mbarrier dead, rank 1's live
        multicast(6, 0x400, 0x80, 0b10), // rank 1 only: live
        multicast(7, 0x200, 0x40, 0b11), // rank 0: its destination holds 0x208 (before its dead mbarrier)
        s2c(8, 0x400, 16, 0x40),         // rank 1's 0x40 was never initialized
        s2c(9, 0x3ff0, 0x100, 0x40),     // ... before the destination's range
        s2c(10, 0x400, 16, 0x80),
        tensor_req(11, BulkDir::GlobalToShared, 2, 0x800, MAPS, [0, 0, 0, 0, 0], 0x80),
        tensor_req(12, BulkDir::GlobalToShared, 2, 0x800, MAPS, [0, 0, 0, 0, 0], 0x10),
    ];
    let (_, golden) = compare_with(&c, setup, &reqs, 5, false);
    let answers: Vec<(u64, ErrorCode)> =
        golden.responses.iter().filter(|r| r.lanes != 0).map(|r| (r.tag, r.error)).collect();
    use ErrorCode::{MbNotInitialized as Dead, MbarrierPlainAccess as Plain, None as Ok};
    assert_eq!(
        answers,
        vec![
            (1, Dead),
            (2, Dead),
            (3, Ok),
            (4, Plain),
            (5, Dead),
            (6, Ok),
            (7, Plain),
            (8, Dead),
            (9, Dead),
            (10, Ok),
            (11, Dead),
            (12, Ok)
        ],
        "answers by the rule"
    );
}

// ---------------------------------------------------------------- tensor: random comparison

/// A random legal map (1d-5d) whose elements lie in [G, G + 0xE000).
fn random_map(rng: &mut Rng) -> MapSpec {
    loop {
        let m = random_map_once(rng);
        let extent = m
            .stride
            .iter()
            .take(m.dims as usize - 1)
            .next_back()
            .map_or(m.size[0] as u64 * m.elem_bytes as u64, |&s| s * m.size[m.dims as usize - 1] as u64);
        if m.base + extent <= G + 0xE000 {
            return m;
        }
    }
}

fn random_map_once(rng: &mut Rng) -> MapSpec {
    let dims = 1 + rng.below(5) as u32;
    let elem_bytes = [1u32, 2, 4, 8, 16][rng.below(5) as usize];
    let mut size = [1u32; 5];
    let mut boxs = [1u32; 5];
    // Box row: 16, 32 or 48 bytes of elements; the tensor extent a little more or less.
    let row = 16 * (1 + rng.below(3)) as u32;
    boxs[0] = row / elem_bytes;
    size[0] = (boxs[0] as u64 + rng.below(3 * boxs[0] as u64)) as u32 + 1;
    for d in 1..dims as usize {
        boxs[d] = 1 + rng.below(if dims > 3 { 2 } else { 4 }) as u32;
        size[d] = 1 + rng.below(2 * boxs[d] as u64 + 1) as u32;
    }
    let mut stride = [0u64; 4];
    let mut extent = size[0] as u64 * elem_bytes as u64;
    for d in 1..dims as usize {
        // pitch >= extent of the lower dimensions, random padding, any alignment of 1 element
        stride[d - 1] = extent + elem_bytes as u64 * rng.below(4);
        extent = stride[d - 1] * size[d] as u64;
    }
    let base = G + elem_bytes as u64 * rng.below((0xE000 - extent.min(0xD000)) / elem_bytes as u64 + 1);
    MapSpec {
        magic: smsync_sim::units::tensormap::MAGIC,
        dims,
        elem_bytes,
        fill_ones: rng.below(2) == 1,
        base,
        size,
        boxs,
        stride,
        elem_type: 0,
        swizzle: 0,
        mode: 0,
        lower: [0; 3],
        upper: [0; 3],
    }
}

fn random_tensor_stream(rng: &mut Rng, n: usize, maps: &[MapSpec], shared: u64) -> Vec<Request> {
    let mut reqs = Vec::with_capacity(n);
    // complete_tx bytes so far: the mbarrier's tx-count (expect_tx 1_000_000) must not underflow.
    let mut tx = 0u64;
    for i in 0..n {
        let tag = i as u64 + 1;
        let mi = rng.below(maps.len() as u64) as usize;
        let m = &maps[mi];
        let mut kind = rng.below(8);
        if kind <= 3 && tx + m.box_bytes() > 1_000_000 {
            kind = 4;
        }
        let r = match kind {
            0..=3 => {
                tx += m.box_bytes();
                let mut c = [0i32; 5];
                for d in 0..m.dims as usize {
                    c[d] = rng.below(m.size[d] as u64 + 2 * m.boxs[d] as u64) as i32 - m.boxs[d] as i32;
                }
                let dst = 0x100 + 16 * rng.below((shared - 0x100 - m.box_bytes()) / 16);
                tensor_req(tag, BulkDir::GlobalToShared, m.dims, dst, MAPS + 128 * mi as u64, c, 0x10)
            }
            4 | 5 => {
                let mut c = [0i32; 5];
                for d in 0..m.dims as usize {
                    c[d] = rng.below(m.size[d] as u64 + m.boxs[d] as u64) as i32;
                    if rng.below(40) == 0 {
                        c[d] = -1 - rng.below(4) as i32;
                    }
                }
                let src = 0x100 + 16 * rng.below((shared - 0x100 - m.box_bytes()) / 16);
                tensor_req(tag, BulkDir::SharedToGlobal, m.dims, src, MAPS + 128 * mi as u64, c, 0)
            }
            6 => lane_req(tag, 0, 0, 0, Op::BulkCommit),
            _ => {
                let mut w = lane_req(tag, 0, 0, 0, Op::BulkWait);
                w.imm = rng.below(3) as u32;
                w
            }
        };
        reqs.push(r);
    }
    reqs
}

#[test]
fn random_tensor_streams_match_golden() {
    let (seeds, count) = Campaign::new("UNIT", (&[1], 80), (&[1, 2], 150)).split();
    let c = small_config();
    for seed in seeds {
        let mut rng = Rng::new(seed ^ 0x7E45);
        let maps: Vec<MapSpec> = (0..6).map(|_| random_map(&mut rng)).collect();
        let reqs = random_tensor_stream(&mut rng, count, &maps, c.shared_bytes as u64);
        let base = tensor_setup(maps.clone(), 1_000_000);
        let setup = |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
            base(mem, mbar);
            for off in LIVE_IN_STREAMS {
                init_mbarrier(mem, mbar, 0, off, 1);
            }
        };
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compare(&c, setup, &reqs, 1 + seed % 11)));
        if let Err(e) = result {
            eprintln!("random_tensor_streams_match_golden failed for seed {seed} (count {count}); maps {maps:#?}");
            std::panic::resume_unwind(e);
        }
    }
}

// ---------------------------------------------------------------- tensor: throughput

/// One 2D tensor load of `bw` x `bh` 4-byte elements (a box inside the tensor), then the same
/// box stored back elsewhere; bytes per cycle from the request to the last beat.
fn tensor_throughput<const D: usize, const B: usize, const T: usize>(
    config: &Config,
    bw: u32,
    bh: u32,
    ops: u64,
    latency: u64,
) -> (f64, f64) {
    tensor_throughput_swizzled::<D, B, T>(config, bw, bh, ops, latency, 0)
}

/// `tensor_throughput` with both maps swizzled (`swizzle` code, PTX ISA §5.5.7): the loads land
/// permuted, so only the round trip (the stored tensor equals the source) is checked.
fn tensor_throughput_swizzled<const D: usize, const B: usize, const T: usize>(
    config: &Config,
    bw: u32,
    bh: u32,
    ops: u64,
    latency: u64,
    swizzle: u32,
) -> (f64, f64) {
    let mut bench = Bench::<D, B, T>::new(config, latency);
    fill_global(&mut bench.mem, 9);
    let mut src = MapSpec::d2(G + 0x1000, bw, bh, 4 * bw as u64, bw, bh);
    let mut dst = MapSpec::d2(G + 0x1000 + (4 * bw * bh) as u64, bw, bh, 4 * bw as u64, bw, bh);
    src.swizzle = swizzle;
    dst.swizzle = swizzle;
    src.write(&mut bench.mem, MAPS);
    dst.write(&mut bench.mem, MAPS + 128);
    let bytes = src.box_bytes();
    init_mbarrier(&mut bench.mem, &mut bench.mbar, 0, 0x10, 1);
    expect_tx(&mut bench.mem, &mut bench.mbar, 0, 0x10, (bytes * ops) as u128);
    for i in 0..ops {
        bench.input.push_back(tensor_req(1 + i, BulkDir::GlobalToShared, 2, 0x400 + i * bytes, MAPS, [0; 5], 0x10));
    }
    let start = bench.cycle;
    bench.run(1_000_000);
    let load_cycles = bench.cycle - start - 2;
    for i in 0..ops {
        if swizzle == 0 {
            assert_eq!(
                bench.mem.shared[0].slice(0x400 + i * bytes, bytes as usize).unwrap(),
                bench.mem.global.slice(G + 0x1000, bytes as usize).unwrap()
            );
        }
    }
    for i in 0..ops {
        bench.input.push_back(tensor_req(
            100 + i,
            BulkDir::SharedToGlobal,
            2,
            0x400 + i * bytes,
            MAPS + 128,
            [0; 5],
            0,
        ));
    }
    let start = bench.cycle;
    bench.run(1_000_000);
    let store_cycles = bench.cycle - start - 2;
    assert_eq!(
        bench.mem.global.slice(dst.base, bytes as usize).unwrap(),
        bench.mem.global.slice(src.base, bytes as usize).unwrap(),
        "the round trip restores the tensor"
    );
    let total = (bytes * ops) as f64;
    let (l, s) = (total / load_cycles as f64 / B as f64, total / store_cycles as f64 / B as f64);
    eprintln!(
        "copy_port_bytes {B}: {ops} x tensor 2D {bw}x{bh}x4 B ({bytes} B, swizzle code {swizzle}): load {load_cycles} cycles ({:.1}% of port), store {store_cycles} cycles ({:.1}%), latency {latency}",
        100.0 * l,
        100.0 * s
    );
    (l, s)
}

#[test]
fn throughput_tensor_2d_fpga_small() {
    let (load, store) = tensor_throughput::<64, 8, 9>(&Config::fpga_small(), 64, 16, 1, 10);
    assert_tile_cycles(load, store);
}

/// One 4 KiB tile at the 8-byte port: 512 beats in 573 cycles loading and 557 storing, the rest
/// being the 16-beat map read, the answers and the start. Three of the load's are the
/// destination's live check (CHECK registers the box's probe, the live map answers two cycles
/// later; a store has no shared destination). Two are block-RAM queues
/// (`BlockFifo`: an entry pushed into an empty queue is read a cycle after its write): the
/// request queue at the start (816 LUT4 positions on fpga-small) and the load's complete_tx
/// queue at the end (210); 571 / 555 cycles without them. One more of the store's is the
/// mover's register on the shared read (`s2_*`, for Fmax).
fn assert_tile_cycles(load: f64, store: f64) {
    let (beats, load_cycles, store_cycles) = (512.0, 573.0, 557.0);
    assert!(
        load >= beats / load_cycles && store >= beats / store_cycles,
        "load {load:.4} store {store:.4} of the port width (at most {load_cycles} / {store_cycles} cycles)"
    );
}

#[test]
fn throughput_tensor_2d_default() {
    let (load, store) = tensor_throughput::<512, 64, 14>(&Config::hopper_like(), 64, 16, 4, 10);
    eprintln!("default: load {load:.3} store {store:.3} of the port width");
    assert!(load >= 0.5 && store >= 0.5, "load {load:.3} store {store:.3} of the port width");
}

// ---------------------------------------------------------------- tensor: modes the RTL does not build

/// A valid im2col map (PTX ISA §5.5.4): `dims`-d NWC/NHWC/NDHWC tensor of 4-byte elements,
/// 8 channels, box of 4 channels x 8 pixels, a 3-wide filter with padding 1 (corners -1, -1).
fn im2col_map(dims: u32, base: u64) -> MapSpec {
    let mut size = [1u32; 5];
    size[0] = 8;
    for d in 1..dims as usize {
        size[d] = 4;
    }
    let mut stride = [0u64; 4];
    let mut extent = 32u64;
    for d in 1..dims as usize {
        stride[d - 1] = extent;
        extent *= size[d] as u64;
    }
    MapSpec {
        magic: smsync_sim::units::tensormap::MAGIC,
        dims,
        elem_bytes: 4,
        fill_ones: false,
        base,
        size,
        boxs: [4, 8, 1, 1, 1],
        stride,
        elem_type: 0,
        swizzle: 0,
        mode: 1,
        lower: [-1; 3],
        upper: [-1; 3],
    }
}

/// An im2col load (`imm2` = 1, PTX ISA §5.5.4) with the im2col offsets in lane `b` bits 79:32.
fn im2col_req(tag: u64, dims: u32, smem: u64, map: u64, coords: [i32; 5], offsets: [u16; 3]) -> Request {
    let mut r = tensor_req(tag, BulkDir::GlobalToShared, dims, smem, map, coords, 0x10);
    r.imm2 = 1;
    for (s, o) in offsets.iter().enumerate() {
        r.lanes[0].b |= (*o as u128) << (32 + 16 * s);
    }
    r
}

/// The RTL builds tile mode only. An im2col map or im2col load is never moved as a tile: the RTL
/// answers what the golden unit answers while the answer needs no im2col walk (the map's own
/// checks, im2col fields included, and the load-mode mismatch: TensorMap; the shared address's
/// alignment: BulkSizeAlign), and `NotBuilt` where the golden unit goes on to the im2col walk
/// (its filter-base check, TensorIm2col, or the copy itself). It writes nothing then.
#[test]
fn c_tensor_im2col_and_unbuilt_modes_are_not_built() {
    let c = small_config();
    let tile = MapSpec::d2(G + 0x1000, 16, 16, 64, 4, 4);
    let im3 = im2col_map(3, G + 0x2000);
    let im4 = im2col_map(4, G + 0x3000);
    let im5 = im2col_map(5, G + 0x4000);
    let mut im4_corner = im4.clone();
    im4_corner.lower[1] = -129; // 4d corners are in [-128, 127] (PTX ISA §5.5.4.1)
    let mut im5_corner = im5.clone();
    im5_corner.upper[2] = 16; // 5d corners are in [-16, 15]
    let mut im5_ok_corner = im5.clone();
    im5_ok_corner.lower = [-16, 15, -3];
    im5_ok_corner.upper = [-1, 15, -1];
    let mut im2d = im3.clone();
    im2d.dims = 2; // im2col needs 3d..5d
    im2d.boxs = [4, 8, 1, 1, 1];
    let mut im_box2 = im4.clone();
    im_box2.boxs[2] = 2; // box = channels x pixels only
    let mut mode2 = tile.clone();
    mode2.mode = 2;
    let mut swz_code = tile.clone();
    swz_code.swizzle = 4;
    let mut swz_wide = tile.clone();
    swz_wide.boxs[0] = 16; // 64-byte rows do not fit the 32B span
    swz_wide.swizzle = 1;
    let maps =
        vec![tile, im3, im4, im5, im4_corner, im5_corner, im5_ok_corner, im2d, im_box2, mode2, swz_code, swz_wide];
    let m = |i: u64| MAPS + 128 * i;
    let tile_load = |tag, dims, map| tensor_req(tag, BulkDir::GlobalToShared, dims, 0x400, map, [0; 5], 0x10);
    let reqs = vec![
        im2col_req(1, 3, 0x400, m(1), [0, 1, 0, 0, 0], [0, 0, 0]), // golden: copies
        im2col_req(2, 4, 0x800, m(2), [0, 0, 1, 0, 0], [1, 1, 0]), // golden: copies
        im2col_req(3, 5, 0xC00, m(3), [0, 1, 1, 1, 0], [0, 0, 0]), // golden: copies
        im2col_req(4, 3, 0x400, m(1), [0, -5, 0, 0, 0], [0, 0, 0]), // base outside the bounding box
        im2col_req(5, 3, 0x408, m(1), [0, 1, 0, 0, 0], [0, 0, 0]), // misaligned smem
        im2col_req(6, 5, 0x400, m(6), [0, 1, 16, 1, 0], [0, 0, 0]), // corners at the 5d limits
        im2col_req(7, 4, 0x400, m(4), [0, 1, 1, 0, 0], [0, 0, 0]), // bad 4d corner
        im2col_req(8, 5, 0x400, m(5), [0, 1, 1, 1, 0], [0, 0, 0]), // bad 5d corner
        im2col_req(9, 2, 0x400, m(7), [0; 5], [0, 0, 0]),          // 2d im2col map
        im2col_req(10, 4, 0x400, m(8), [0; 5], [0, 0, 0]),         // box beyond channels x pixels
        im2col_req(11, 2, 0x400, m(0), [0; 5], [0, 0, 0]),         // im2col load of a tiled map
        tile_load(12, 3, m(1)),                                    // tiled load of an im2col map
        tensor_req(13, BulkDir::SharedToGlobal, 4, 0x400, m(2), [0; 5], 0), // store of an im2col map
        tile_load(14, 2, m(9)),                                    // mode 2
        tile_load(15, 2, m(10)),                                   // swizzle code 4
        tile_load(16, 2, m(11)),                                   // inner box wider than the span
    ];
    let setup = tensor_setup(maps, 1_000_000);
    // The golden answers, request by request.
    let mut golden = Golden::new(&c);
    fill_global(&mut golden.mem, 7);
    setup(&mut golden.mem, &mut golden.mbar);
    for r in &reqs {
        golden.submit(r);
        golden.drain();
    }
    let gerr: Vec<ErrorCode> = golden.responses.iter().filter(|x| x.lanes != 0).map(|x| x.error).collect();
    assert!(golden.responses.iter().all(|x| x.lanes != 0), "no late golden errors");
    // The RTL alone: nothing may be written.
    let mut bench = Small::new(&c, 3);
    fill_global(&mut bench.mem, 7);
    setup(&mut bench.mem, &mut bench.mbar);
    let before = (bench.mem.global.bytes.clone(), bench.mem.shared[0].bytes.clone());
    bench.input.extend(reqs.iter().cloned());
    bench.run(20_000);
    let rtl: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).collect();
    use ErrorCode::*;
    let expected: Vec<ErrorCode> = reqs
        .iter()
        .zip(&gerr)
        .map(|(r, &g)| {
            let im2col_walk = r.imm2 == 1 && !matches!(g, TensorMap | GlobalOutOfRange | BulkSizeAlign);
            if im2col_walk {
                NotBuilt
            } else {
                g
            }
        })
        .collect();
    assert_eq!(rtl, expected, "rtl vs golden-derived answers (golden {gerr:?})");
    // The test means something: the golden unit copies the first three (the RTL must not move them
    // as tiles), and every other case is an error both answer alike.
    let mut golden_expected = vec![None, None, None, TensorIm2col, BulkSizeAlign, None];
    golden_expected.extend([TensorMap; 10]);
    assert_eq!(gerr, golden_expected);
    assert!(bench.mem.global.bytes == before.0, "global memory written");
    assert!(bench.mem.shared[0].bytes == before.1, "shared memory written");
    assert!(bench.trace.complete_tx.is_empty(), "complete_tx sent: {:?}", bench.trace.complete_tx);
}

// ---------------------------------------------------------------- tensor: swizzle (PTX ISA §5.5.7)

fn default_config() -> Config {
    let c = Config::hopper_like();
    assert_eq!((c.copy_port_bytes, thread_bits(&c)), (64, 14), "the Wide instance fits the default config");
    c
}

/// Tensor maps at byte addresses that are not port-aligned (the golden engine reads a map
/// wherever it is): loads through maps at offsets inside the first port word, at its last byte
/// and across words give the golden shared memory, complete_tx and responses. The RTL realigns
/// each map beat with the one before it as it arrives.
fn unaligned_maps<const D: usize, const B: usize, const T: usize>(c: &Config) {
    let offsets = [0u64, 1, 4, 7, 12, 27, 63, 64 + 5];
    let base = MapSpec::d2(G + 0x1000, 20, 10, 96, 8, 4);
    let at = |i: usize| MAPS + 0x100 * i as u64 + offsets[i];
    let setup = move |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
        for i in 0..offsets.len() {
            base.write(mem, at(i));
        }
        init_mbarrier(mem, mbar, 0, 0x10, 1);
        expect_tx(mem, mbar, 0, 0x10, 1_000_000);
    };
    let reqs: Vec<Request> = (0..offsets.len())
        .map(|i| {
            let coords = [(i as i32) - 2, i as i32 % 3, 0, 0, 0];
            tensor_req(1 + i as u64, BulkDir::GlobalToShared, 2, 0x400 + 0x100 * i as u64, at(i), coords, 0x10)
        })
        .collect();
    let (bench, _) = compare_on::<D, B, T>(c, setup, &reqs, 5, true);
    assert_eq!(bench.trace.complete_tx.len(), offsets.len(), "one complete_tx per load");
    assert!(bench.trace.responses.iter().all(|r| r.3 == ErrorCode::None), "{:?}", bench.trace.responses);
}

#[test]
fn c_tensor_map_at_unaligned_addresses_fpga_small() {
    unaligned_maps::<64, 8, 9>(&small_config());
}

#[test]
fn c_tensor_map_at_unaligned_addresses_default() {
    unaligned_maps::<512, 64, 14>(&default_config());
}

/// A 2D map of 4-byte elements with 128-byte box rows (32 x `bh`) and the given swizzle code.
fn swizzled_2d(base: u64, swizzle: u32, bh: u32) -> MapSpec {
    let mut m = MapSpec::d2(base, 40, 24, 160, (128 / 4) >> (3 - swizzle.max(1)), bh);
    m.swizzle = swizzle;
    m
}

/// Directed swizzle cases on one instance: 128B / 64B / 32B loads to a pattern-aligned and to an
/// unaligned destination (the pattern's base offset `(dstMem / 128) % lines` of PTX ISA §5.5.7),
/// an out-of-bounds box (fill lands swizzled too), a multicast-free store and a tensor reduce
/// whose shared source is read through the swizzle.
fn swizzle_directed<const D: usize, const B: usize, const T: usize>(c: &Config) -> (Bench<D, B, T>, Golden) {
    let m128 = swizzled_2d(G + 0x1000, 3, 8);
    let m64 = swizzled_2d(G + 0x1000, 2, 8);
    let m32 = swizzled_2d(G + 0x1000, 1, 8);
    let mut out = swizzled_2d(G + 0x6000, 3, 8);
    out.elem_type = DataType::U32.code() as u32 + 1;
    let load = |tag, map: u64, smem, coords: [i32; 2]| {
        tensor_req(tag, BulkDir::GlobalToShared, 2, smem, MAPS + 128 * map, [coords[0], coords[1], 0, 0, 0], 0x10)
    };
    let mut red = tensor_req(9, BulkDir::SharedToGlobal, 2, 0x1480, MAPS + 128 * 3, [4, 2, 0, 0, 0], 0);
    red.imm2 = AtomOp::Add.code() as u32 + 1;
    let reqs = vec![
        load(1, 0, 0x400, [0, 0]),
        load(2, 0, 0x880, [3, 1]),    // pattern starts at line 1 of 8
        load(3, 1, 0xD00, [0, 2]),    // 64B rows of 64 bytes, base offset 2 of 4
        load(4, 2, 0x1040, [1, 0]),   // 32B rows of 32 bytes, 16-byte aligned start
        load(5, 0, 0x1400, [-9, 20]), // out of bounds: fill
        tensor_req(6, BulkDir::SharedToGlobal, 2, 0x880, MAPS + 128 * 3, [0, 0, 0, 0, 0], 0),
        tensor_req(7, BulkDir::SharedToGlobal, 2, 0xD00, MAPS + 128, [8, 16, 0, 0, 0], 0), // clipped
        lane_req(8, 0, 0, 0, Op::BulkCommit),
        red,
        lane_req(10, 0, 0, 0, Op::BulkCommit),
        lane_req(11, 0, 0, 0, Op::BulkWait),
    ];
    compare_on::<D, B, T>(c, tensor_setup(vec![m128, m64, m32, out], 1_000_000), &reqs, 5, true)
}

/// The 128B pattern by its definition (PTX ISA §5.5.7): in a 1024-byte aligned box of 128-byte
/// rows, 16-byte chunk c of row r lands at chunk c ^ (r % 8) of that row.
fn assert_128b_pattern(golden: &Golden, rtl: &MemorySystem) {
    let m = swizzled_2d(G + 0x1000, 3, 8);
    for r in 0..8u64 {
        for c in 0..8u64 {
            let src = golden.mem.global.slice(m.base + r * m.stride[0] + 16 * c, 16).unwrap();
            let at = 0x400 + 128 * r + 16 * (c ^ (r % 8));
            assert_eq!(rtl.shared[0].slice(at, 16).unwrap(), src, "row {r} chunk {c}");
        }
    }
}

#[test]
fn c_tensor_swizzle_directed_fpga_small() {
    let (bench, golden) = swizzle_directed::<64, 8, 9>(&small_config());
    assert_128b_pattern(&golden, &bench.mem);
    assert!(bench.trace.responses.iter().all(|r| r.3 == ErrorCode::None), "{:?}", bench.trace.responses);
}

#[test]
fn c_tensor_swizzle_directed_default() {
    let (bench, golden) = swizzle_directed::<512, 64, 14>(&default_config());
    assert_128b_pattern(&golden, &bench.mem);
    assert!(bench.trace.responses.iter().all(|r| r.3 == ErrorCode::None), "{:?}", bench.trace.responses);
}

/// With `shared_bytes` not a multiple of 128, a swizzled chunk of the last partial line can land
/// past the end although the box does not: SharedOutOfRange, as the golden unit answers (it
/// range-checks every swizzled chunk), for loads and stores; an unswizzled box there is fine.
#[test]
fn c_tensor_swizzle_past_shared_end_matches_golden() {
    let mut c = small_config();
    c.shared_bytes = 16384 - 48; // last line: 5 chunks of 8
    let end = c.shared_bytes as u64;
    let m128 = swizzled_2d(G + 0x1000, 3, 4);
    let m32 = swizzled_2d(G + 0x1000, 1, 4);
    let plain = MapSpec::d2(G + 0x1000, 40, 24, 160, 32, 4);
    let load = |tag, map: u64, smem| tensor_req(tag, BulkDir::GlobalToShared, 2, smem, MAPS + 128 * map, [0; 5], 0x10);
    let store = |tag, map: u64, smem| tensor_req(tag, BulkDir::SharedToGlobal, 2, smem, MAPS + 128 * map, [0; 5], 0);
    let reqs = vec![
        load(1, 0, end - 512),      // 128B: chunks 0..2 of the last line land on 7..5
        load(2, 1, end - 128),      // 32B rows of 32 bytes: chunk 4 lands on 5
        load(3, 2, end - 512),      // unswizzled: in range
        load(4, 0, end - 512 - 80), // ends before the last line: in range
        store(5, 0, end - 512),
        store(6, 2, end - 512),
        lane_req(7, 0, 0, 0, Op::BulkCommit),
        lane_req(8, 0, 0, 0, Op::BulkWait),
    ];
    let (bench, _) = compare(&c, tensor_setup(vec![m128, m32, plain], 1_000_000), &reqs, 3);
    let errs: Vec<ErrorCode> = bench.trace.responses.iter().map(|r| r.3).collect();
    use ErrorCode::*;
    assert_eq!(errs, vec![SharedOutOfRange, SharedOutOfRange, None, None, SharedOutOfRange, None, None, None]);
}

/// A random legal map with a random swizzle its box rows fit (PTX ISA §5.5.7), mostly swizzled.
fn random_swizzled_map(rng: &mut Rng) -> MapSpec {
    let mut m = random_map(rng);
    let row = m.boxs[0] * m.elem_bytes;
    let codes: Vec<u32> = [0u32, 1, 2, 3, 3].into_iter().filter(|&s| s == 0 || row <= 16 << s).collect();
    m.swizzle = codes[rng.below(codes.len() as u64) as usize];
    m
}

fn random_swizzled_streams<const D: usize, const B: usize, const T: usize>(c: &Config, name: &str, quick: usize) {
    let (seeds, count) = Campaign::new("UNIT", (&[1], quick), (&[1, 2], 150)).split();
    for seed in seeds {
        let mut rng = Rng::new(seed ^ 0x5A1E);
        let maps: Vec<MapSpec> = (0..6).map(|_| random_swizzled_map(&mut rng)).collect();
        assert!(maps.iter().any(|m| m.swizzle != 0));
        let reqs = random_tensor_stream(&mut rng, count, &maps, 0x4000);
        let base = tensor_setup(maps.clone(), 1_000_000);
        let setup = |mem: &mut MemorySystem, mbar: &mut GoldenMbarrierAlu| {
            base(mem, mbar);
            for off in LIVE_IN_STREAMS {
                init_mbarrier(mem, mbar, 0, off, 1);
            }
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compare_on::<D, B, T>(c, setup, &reqs, 1 + seed % 11, true)
        }));
        if let Err(e) = result {
            eprintln!("{name} failed for seed {seed} (count {count}); maps {maps:#?}");
            std::panic::resume_unwind(e);
        }
    }
}

#[test]
fn random_swizzled_tensor_streams_match_golden_fpga_small() {
    random_swizzled_streams::<64, 8, 9>(&small_config(), "random_swizzled_tensor_streams_match_golden_fpga_small", 80);
}

#[test]
fn random_swizzled_tensor_streams_match_golden_default() {
    random_swizzled_streams::<512, 64, 14>(
        &default_config(),
        "random_swizzled_tensor_streams_match_golden_default",
        40,
    );
}

/// 128B-swizzled 32 x 32 tiles of 4-byte elements (4 KiB, 128-byte rows). At an 8-byte port a
/// beat never spans two 16-byte chunks, so the swizzle costs nothing; at the 64-byte port a
/// swizzled beat carries at most one 16-byte chunk (a quarter of the port).
#[test]
fn throughput_tensor_2d_swizzled_fpga_small() {
    let (load, store) = tensor_throughput_swizzled::<64, 8, 9>(&Config::fpga_small(), 32, 32, 1, 10, 3);
    assert_tile_cycles(load, store);
}

#[test]
fn throughput_tensor_2d_swizzled_default() {
    let (load, store) = tensor_throughput_swizzled::<512, 64, 14>(&Config::hopper_like(), 32, 32, 4, 10, 3);
    eprintln!("default, 128B swizzle: load {load:.3} store {store:.3} of the port width");
    assert!(load >= 0.2 && store >= 0.2, "load {load:.3} store {store:.3} of the port width");
}

/// The tensor sequencer's set-up block against a host reference of PTX ISA §5.5's tiled
/// addressing: start = base + sum x_d * stride_d (mod 2^64, x_d an s32), box elements = the
/// product of the box sizes, refused above `MAX_BOX_ELEMENTS` (the limit named by the golden
/// `tmap::parse`); random operands with negative coordinates, strides near 2^64, zero boxes and
/// products at the limit, and the latency the engine's state MUL assumes.
#[test]
fn tensor_origin_matches_host_arithmetic() {
    use smsync_hdl::copy_engine::tensor_origin::TensorOrigin;
    use smsync_sim::units::tensormap::MAX_BOX_ELEMENTS;
    let mut uut = TensorOrigin::default();
    uut.connect_all();
    let mut rng = Rng::new(0x7e05);
    let edge32 = [0u32, 1, 2, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 1 << 10, 1 << 20, (1 << 20) + 1];
    let edge64 = [0u64, 1, u64::MAX, 1 << 63, 0xffff_ffff, 1 << 32, 0x1234_5678_9abc_def0];
    for case in 0..300 {
        let pick32 = |rng: &mut Rng| if rng.chance(3) { rng.pick(&edge32) } else { rng.u32() };
        let pick64 = |rng: &mut Rng| if rng.chance(3) { rng.pick(&edge64) } else { rng.next() };
        let base = pick64(&mut rng);
        let coords: Vec<u32> = (0..4).map(|_| pick32(&mut rng)).collect();
        let strides: Vec<u64> = (0..4).map(|_| pick64(&mut rng)).collect();
        // Boxes: mostly small (the product near the limit), sometimes anything.
        let boxes: Vec<u32> = (0..5)
            .map(|_| match rng.below(4) {
                0 => pick32(&mut rng),
                1 => 1,
                _ => 1 + rng.below(64) as u32,
            })
            .collect();
        let lg = rng.below(5) as u32;
        let want_addr =
            (0..4).fold(base, |a, d| a.wrapping_add((coords[d] as i32 as i64 as u64).wrapping_mul(strides[d])));
        let elems: u128 = boxes.iter().map(|&b| b as u128).product();
        let want_big = elems > MAX_BOX_ELEMENTS as u128;

        uut.start.next = true;
        uut.base.next = base.to_bits();
        uut.box0.next = (boxes[0] as u64).to_bits();
        uut.x1.next = (coords[0] as u64).to_bits();
        uut.s1.next = strides[0].to_bits();
        let mut cycles = 0;
        loop {
            settle(&mut uut);
            if !uut.start.val() && uut.last.val() {
                break;
            }
            tick(&mut uut, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, |_| {});
            // The engine's map registers hold from the cycle after start.
            uut.start.next = false;
            uut.base.next = 0u64.to_bits();
            uut.box0.next = 0u64.to_bits();
            uut.x1.next = 0u64.to_bits();
            uut.s1.next = 0u64.to_bits();
            let mut c = Bits::<96>::default();
            let mut s = Bits::<192>::default();
            for d in 1..4 {
                c.set_bits::<32>(32 * (d - 1), (coords[d] as u64).to_bits());
                s.set_bits::<64>(64 * (d - 1), strides[d].to_bits());
            }
            uut.coords.next = c;
            uut.strides.next = s;
            uut.boxes.next = b128(boxes[1..].iter().rev().fold(0u128, |a, &b| (a << 32) | b as u128));
            uut.lg.next = (lg as u64).to_bits();
            cycles += 1;
            assert!(cycles <= 20, "case {case}: `last` never rose");
        }
        // One more edge: the results registered at `last` are read the cycle after.
        tick(&mut uut, |u| u.clock.next = Clock { clk: true }, |u| u.clock.next = Clock { clk: false }, |_| {});
        settle(&mut uut);
        assert_eq!(cycles, 6, "case {case}: state MUL's length");
        assert_eq!(uut.addr.val().to_u64(), want_addr, "case {case}: start address");
        assert_eq!(uut.too_big.val(), want_big, "case {case}: box of {elems} elements");
        if !want_big {
            assert_eq!(uut.box_bytes.val().to_u64(), (elems as u64) << lg, "case {case}: box bytes");
        }
    }
}
