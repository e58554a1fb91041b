//! mbarrier_alu: Verilog lint (verilator -Wall, yosys `proc; check -assert`), directed corners,
//! and a lane-op by lane-op comparison with the golden unit (`smsync_sim::units::mbarrier_alu`) on
//! random request streams issued one per cycle (so the forwarding path is exercised).
//!
//! Campaigns: `SMSYNC_UNIT_SEEDS=1,2,3 SMSYNC_UNIT_COUNT=100000 cargo test -p smsync-hdl --test mbarrier_alu`.

use rust_hdl::prelude::*;
use smsync_hdl::mbarrier_alu::MbarrierAlu;
use smsync_sim::config::Config;
use smsync_sim::encoding::{flags, mbarrier_word, state_token, ErrorCode, Op};
use smsync_sim::memory::MemorySystem;
use smsync_sim::units::mbarrier_alu::MbarrierAlu as GoldenMbarrierAlu;
use smsync_sim::units::{Request, Response, TraceEvent};
use smsync_testkit::hdl_sim::{settle, tick};
use smsync_testkit::{Campaign, Rng};
use std::collections::HashMap;

/// One lane op on the ALU's request port.
#[derive(Clone, Copy, Debug, PartialEq)]
struct LaneOp {
    op: Op,
    flags: u8,
    cta: u16,
    warp: u16,
    lane: u8,
    addr: u64,
    a: u64,
    b: u64,
}

impl LaneOp {
    fn new(op: Op, cta: u16, warp: u16, lane: u8, addr: u64, a: u64) -> LaneOp {
        LaneOp { op, flags: 0, cta, warp, lane, addr, a, b: 0 }
    }
    fn with_flags(mut self, f: u8) -> LaneOp {
        self.flags |= f;
        self
    }
    fn with_b(mut self, b: u64) -> LaneOp {
        self.b = b;
        self
    }
}

/// What the ALU answered for one lane op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Answer {
    cta: u16,
    warp: u16,
    lane: u8,
    value: u64,
    pred: bool,
    suspended: bool,
    error: u8,
}

/// An answer of a suspended try_wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Wake {
    cta: u16,
    warp: u16,
    lane: u8,
    pred: bool,
}

/// The ALU with a testbench model of shared memory (1R1W, synchronous read, read-before-write:
/// the hardest case for the forwarding path).
struct Bench {
    uut: MbarrierAlu,
    mem: Vec<Vec<u64>>,
    cycles: u64,
    answers: Vec<Answer>,
    wakes: Vec<Wake>,
    /// (slot, word, new parity) of every phase-completed strobe.
    dones: Vec<(u16, u16, bool)>,
    /// A CTA launch in this slot during the next cycle (then cleared).
    launch: Option<u16>,
}

impl Bench {
    fn new(config: &Config) -> Bench {
        let mut uut = MbarrierAlu::new(config);
        uut.connect_all();
        let words = config.shared_bytes as usize / 8;
        let mut b = Bench {
            uut,
            mem: vec![vec![0; words]; config.cta_slots as usize],
            cycles: 0,
            answers: vec![],
            wakes: vec![],
            dones: vec![],
            launch: None,
        };
        b.uut.reset.next = true;
        b.cycle(None);
        b.cycle(None);
        b.uut.reset.next = false;
        b.answers.clear();
        b
    }

    /// One clock cycle with `op` (if any) on the request port.
    fn cycle(&mut self, op: Option<LaneOp>) {
        self.cycle_with(op, false);
    }

    fn cycle_with(&mut self, op: Option<LaneOp>, timeout: bool) {
        let u = &mut self.uut;
        u.req_valid.next = op.is_some();
        let o = op.unwrap_or(LaneOp::new(Op::MbInit, 0, 0, 0, 0, 0));
        u.req_op.next = (o.op.code() as u64).to_bits();
        u.req_flags.next = (o.flags as u64).to_bits();
        u.req_cta.next = (o.cta as u64).to_bits();
        u.req_warp.next = (o.warp as u64).to_bits();
        u.req_lane.next = (o.lane as u64).to_bits();
        u.req_slot.next = (o.cta as u64).to_bits();
        u.req_addr.next = o.addr.to_bits();
        u.req_a.next = o.a.to_bits();
        u.req_b.next = o.b.to_bits();
        u.timeout.next = timeout;
        u.launch.next = self.launch.is_some();
        u.launch_slot.next = (self.launch.take().unwrap_or(0) as u64).to_bits();
        settle(u);
        // Sample the outputs of this cycle.
        if u.resp_valid.val() {
            self.answers.push(Answer {
                cta: u.resp_cta.val().index() as u16,
                warp: u.resp_warp.val().index() as u16,
                lane: u.resp_lane.val().index() as u8,
                value: u.resp_value.val().to_u64(),
                pred: u.resp_pred.val(),
                suspended: u.resp_suspended.val(),
                error: u.resp_error.val().index() as u8,
            });
        }
        if u.wake_valid.val() {
            self.wakes.push(Wake {
                cta: u.wake_cta.val().index() as u16,
                warp: u.wake_warp.val().index() as u16,
                lane: u.wake_lane.val().index() as u8,
                pred: u.wake_pred.val(),
            });
        }
        if u.done_valid.val() {
            self.dones.push((u.done_slot.val().index() as u16, u.done_word.val().index() as u16, u.done_parity.val()));
        }
        // Memory: read (old data), then write, at the clock edge.
        let rd = if u.mem_rd.val() {
            let slot = u.mem_rd_slot.val().index();
            let word = u.mem_rd_word.val().index();
            self.mem.get(slot).and_then(|m| m.get(word)).copied().unwrap_or(0)
        } else {
            0xdead_beef_dead_beef
        };
        if u.mem_we.val() {
            let slot = u.mem_wr_slot.val().index();
            let word = u.mem_wr_word.val().index();
            self.mem[slot][word] = u.mem_wdata.val().to_u64();
        }
        tick(
            u,
            |u| u.clock.next = Clock { clk: true },
            |u| u.clock.next = Clock { clk: false },
            |u| u.mem_rdata.next = rd.to_bits(),
        );
        self.cycles += 1;
    }

    /// Run idle cycles until the pipeline and the wake queue are empty.
    fn drain(&mut self) {
        for _ in 0..3 {
            self.cycle(None);
        }
        let mut guard = 0;
        while self.uut.wake_valid.val() && guard < 2000 {
            self.cycle(None);
            guard += 1;
        }
        self.cycle(None);
    }

    /// Issue ops back to back, then drain; returns the answers of these ops.
    fn run(&mut self, ops: &[LaneOp]) -> Vec<Answer> {
        let start = self.answers.len();
        for op in ops {
            self.cycle(Some(*op));
        }
        self.drain();
        self.answers[start..].to_vec()
    }

    fn word(&self, slot: usize, addr: u64) -> mbarrier_word::Fields {
        mbarrier_word::unpack(self.mem[slot][addr as usize / 8])
    }
}

fn code(e: ErrorCode) -> u8 {
    e.code()
}

// Lint: gen/tests/gen_lint.rs lints every module `smsync gen` writes for every config in
// configs/ (equal to the presets: sim/tests/configs.rs).

// ------------------------------------------------------------------------------------------
// Directed corners (hand-computed expectations)
// ------------------------------------------------------------------------------------------

const M: u64 = 0x100;

#[test]
fn c001_init_sets_phase0_expected_pending() {
    let mut b = Bench::new(&Config::fpga_small());
    let a = b.run(&[LaneOp::new(Op::MbInit, 1, 0, 0, M, 5)]);
    assert_eq!(a[0].error, 0);
    let f = b.word(1, M);
    assert_eq!(f, mbarrier_word::Fields { valid: true, parity: false, expected: 5, pending: 5, tx: 0 });
}

#[test]
fn c002_c003_init_count_and_live_errors() {
    let mut b = Bench::new(&Config::fpga_small());
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 0),
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 1 << 20),
        LaneOp::new(Op::MbInit, 0, 0, 0, M, (1 << 20) - 1),
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 3),
    ]);
    let e: Vec<u8> = a.iter().map(|x| x.error).collect();
    assert_eq!(e, vec![code(ErrorCode::MbInitCount), code(ErrorCode::MbInitCount), 0, code(ErrorCode::MbInitLive)]);
}

#[test]
fn c004_op_on_invalid_word_and_alignment_and_range() {
    let cfg = Config::fpga_small();
    let mut b = Bench::new(&cfg);
    let a = b.run(&[
        LaneOp::new(Op::MbArrive, 0, 0, 0, M, 1),
        LaneOp::new(Op::MbArrive, 0, 0, 0, M + 4, 1),
        LaneOp::new(Op::MbInit, 0, 0, 0, cfg.shared_bytes as u64, 1),
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 1),
        LaneOp::new(Op::MbInval, 0, 0, 0, M, 0),
        LaneOp::new(Op::MbTestWait, 0, 0, 0, M, 0).with_flags(flags::PARITY),
    ]);
    let e: Vec<u8> = a.iter().map(|x| x.error).collect();
    assert_eq!(
        e,
        vec![
            code(ErrorCode::MbNotInitialized),
            code(ErrorCode::MbAlign),
            code(ErrorCode::SharedOutOfRange),
            0,
            0,
            code(ErrorCode::MbNotInitialized)
        ]
    );
}

#[test]
fn c007_c014_arrive_completes_phase_and_token_sees_old_phase() {
    let mut b = Bench::new(&Config::fpga_small());
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 2),
        LaneOp::new(Op::MbArrive, 0, 0, 0, M, 1),
        LaneOp::new(Op::MbArrive, 0, 1, 0, M, 1),
    ]);
    // Tokens: pending before (2, then 1), parity 0, valid bit.
    assert_eq!(a[1].value, state_token::pack(2, false, false));
    assert_eq!(a[2].value, state_token::pack(1, false, false));
    let f = b.word(0, M);
    assert!(f.parity && f.pending == 2 && f.expected == 2);
    assert_eq!(b.dones, vec![(0, (M / 8) as u16, true)]);
    // test_wait with the token of the completing arrive: True at once.
    let t = b.run(&[LaneOp::new(Op::MbTestWait, 0, 1, 0, M, a[2].value)]);
    assert!(t[0].pred && t[0].error == 0);
}

#[test]
fn c008_c012_phase_flip_waits_on_tx_count() {
    let mut b = Bench::new(&Config::fpga_small());
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 1),
        LaneOp::new(Op::MbArrive, 0, 0, 0, M, 1).with_flags(flags::EXPECT_TX).with_b(64),
    ]);
    assert_eq!(a[1].error, 0);
    let f = b.word(0, M);
    assert_eq!((f.parity, f.pending, f.tx), (false, 0, 64), "pending 0 but tx 64: no completion");
    b.run(&[LaneOp::new(Op::MbCompleteTx, 0, 0, 0, M, 32)]);
    assert!(!b.word(0, M).parity);
    b.run(&[LaneOp::new(Op::MbCompleteTx, 0, 0, 0, M, 32)]);
    let f = b.word(0, M);
    assert_eq!((f.parity, f.pending, f.tx), (true, 1, 0), "the last bytes complete the phase");
}

#[test]
fn c010_c011_negative_tx_count_and_range() {
    let mut b = Bench::new(&Config::fpga_small());
    let max = mbarrier_word::COUNT_MAX as u64;
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 1),
        LaneOp::new(Op::MbCompleteTx, 0, 0, 0, M, 100),
        LaneOp::new(Op::MbArrive, 0, 0, 0, M, 1),
    ]);
    assert!(a.iter().all(|x| x.error == 0));
    let f = b.word(0, M);
    assert_eq!((f.tx, f.pending, f.parity), (-100, 0, false), "tx < 0 blocks completion");
    let a = b.run(&[
        LaneOp::new(Op::MbCompleteTx, 0, 0, 0, M, max), // -100 - max: out of range
        LaneOp::new(Op::MbExpectTx, 0, 0, 0, M, max + 101), // -100 + max + 101 = max + 1
        LaneOp::new(Op::MbExpectTx, 0, 0, 0, M, 0xffff_ffff), // u32 operand: far out of range
        LaneOp::new(Op::MbExpectTx, 0, 0, 0, M, 100),   // back to 0 with pending 0: completes
    ]);
    let e: Vec<u8> = a.iter().map(|x| x.error).collect();
    assert_eq!(e, vec![code(ErrorCode::MbTxRange), code(ErrorCode::MbTxRange), code(ErrorCode::MbTxRange), 0]);
    let f = b.word(0, M);
    assert_eq!((f.tx, f.pending, f.parity), (0, 1, true), "expect_tx that zeroes tx completes (§22.1)");
}

#[test]
fn c023_c024_c026_arrive_drop() {
    let mut b = Bench::new(&Config::fpga_small());
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 3),
        LaneOp::new(Op::MbArriveDrop, 0, 0, 0, M, 1),
        LaneOp::new(Op::MbArrive, 0, 1, 0, M, 2),
    ]);
    assert!(a.iter().all(|x| x.error == 0));
    let f = b.word(0, M);
    assert_eq!((f.expected, f.pending, f.parity), (2, 2, true), "pending reloads from the dropped expected");
    let a = b.run(&[LaneOp::new(Op::MbArriveDrop, 0, 0, 0, M, 2)]);
    assert_eq!(a[0].error, code(ErrorCode::MbExpectedUnderflow));
}

#[test]
fn c027_c028_c030_pending_underflow_nocomplete_and_pending_count() {
    let mut b = Bench::new(&Config::fpga_small());
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 5),
        LaneOp::new(Op::MbArrive, 0, 0, 0, M, 6),
        LaneOp::new(Op::MbArrive, 0, 0, 0, M, 2).with_flags(flags::NO_COMPLETE),
        LaneOp::new(Op::MbArrive, 0, 0, 0, M, 3).with_flags(flags::NO_COMPLETE),
    ]);
    assert_eq!(a[1].error, code(ErrorCode::MbPendingUnderflow));
    assert_eq!(a[2].error, 0);
    assert_eq!(a[3].error, code(ErrorCode::MbNoCompleteCompleted), "noComplete arrive that would complete");
    assert_eq!(b.word(0, M).pending, 3, "the failed arrive changed nothing");
    let p = b.run(&[
        LaneOp::new(Op::MbPendingCount, 0, 0, 0, 0, a[2].value),
        LaneOp::new(Op::MbPendingCount, 0, 0, 0, 0, state_token::pack(5, false, false)),
    ]);
    assert_eq!((p[0].value, p[0].error), (5, 0));
    assert_eq!(p[1].error, code(ErrorCode::MbPendingCountToken));
}

#[test]
fn c037_c038_cp_async_arrive_increment_and_overflow() {
    let mut b = Bench::new(&Config::fpga_small());
    let max = mbarrier_word::COUNT_MAX as u64;
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 1),
        LaneOp::new(Op::MbCpAsyncArrive, 0, 0, 0, M, 0),
        LaneOp::new(Op::MbArrive, 0, 0, 0, M, 1),
    ]);
    assert!(a.iter().all(|x| x.error == 0));
    assert_eq!((b.word(0, M).pending, b.word(0, M).parity), (1, false), "+1 holds the phase open");
    // the deferred arrive-on (issued by the copy engine as an arrive of 1)
    b.run(&[LaneOp::new(Op::MbArrive, 0, 0, 0, M, 1)]);
    assert!(b.word(0, M).parity);
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M + 8, max),
        LaneOp::new(Op::MbCpAsyncArrive, 0, 0, 0, M + 8, 0),
        LaneOp::new(Op::MbCpAsyncArrive, 0, 0, 0, M + 8, 0).with_flags(flags::NO_INC),
    ]);
    assert_eq!(a[1].error, code(ErrorCode::MbPendingOverflow));
    assert_eq!(a[2].error, 0);
    assert_eq!(b.word(0, M + 8).pending as u64, max);
}

#[test]
fn c018_c019_c020_parity_waits_and_try_wait_release() {
    let mut b = Bench::new(&Config::fpga_small());
    let a = b.run(&[
        LaneOp::new(Op::MbInit, 0, 0, 0, M, 1),
        LaneOp::new(Op::MbTestWait, 0, 0, 0, M, 0).with_flags(flags::PARITY),
        LaneOp::new(Op::MbTestWait, 0, 0, 0, M, 1).with_flags(flags::PARITY),
        LaneOp::new(Op::MbTestWait, 0, 0, 0, M, 2).with_flags(flags::PARITY),
        LaneOp::new(Op::MbTryWait, 0, 3, 7, M, 0).with_flags(flags::PARITY),
    ]);
    assert!(!a[1].pred, "parity 0 is the current phase: not complete");
    assert!(a[2].pred, "parity 1 is the preceding phase: complete");
    assert_eq!(a[3].error, code(ErrorCode::MbParityRange));
    assert!(a[4].suspended && b.wakes.is_empty());
    b.run(&[LaneOp::new(Op::MbArrive, 0, 1, 0, M, 1)]);
    assert_eq!(b.wakes, vec![Wake { cta: 0, warp: 3, lane: 7, pred: true }]);
    // Already complete: try_wait returns True without suspending.
    let a = b.run(&[LaneOp::new(Op::MbTryWait, 0, 3, 7, M, 0).with_flags(flags::PARITY)]);
    assert!(a[0].pred && !a[0].suspended);
}

#[test]
fn try_wait_timeout_inval_and_full_table() {
    let cfg = Config::fpga_small();
    let mut b = Bench::new(&cfg);
    b.run(&[LaneOp::new(Op::MbInit, 0, 0, 0, M, 1), LaneOp::new(Op::MbInit, 0, 0, 0, M + 8, 1)]);
    let n = cfg.mbarrier_waiters as u16;
    let waits: Vec<LaneOp> =
        (0..n + 1).map(|w| LaneOp::new(Op::MbTryWait, 0, w % 8, w as u8, M, 0).with_flags(flags::PARITY)).collect();
    let a = b.run(&waits);
    assert!(a[..n as usize].iter().all(|x| x.suspended));
    assert!(!a[n as usize].suspended && !a[n as usize].pred, "table full: answers False at once");
    b.cycle_with(None, true);
    b.drain();
    assert_eq!(b.wakes.len(), n as usize);
    assert!(b.wakes.iter().all(|w| !w.pred), "timeout answers False");
    b.wakes.clear();
    b.run(&[
        LaneOp::new(Op::MbTryWait, 0, 1, 1, M + 8, 0).with_flags(flags::PARITY),
        LaneOp::new(Op::MbInval, 0, 0, 0, M + 8, 0),
    ]);
    assert_eq!(b.wakes, vec![Wake { cta: 0, warp: 1, lane: 1, pred: false }], "inval answers False");
}

/// A CTA launch in one slot drops that slot's suspended try_waits and no other (the new CTA
/// cannot own them; PTX ISA §9.7.13.15.16: a suspended try_wait of another CTA still answers,
/// here False at the time limit). The launch of slot 0 is placed in each cycle of the try_wait's
/// pipeline in turn, the allocation cycle included, into an entry that last held (at reset) a
/// slot-0 lane.
#[test]
fn launch_of_another_slot_keeps_a_try_wait_suspending_meanwhile() {
    for delay in 0..4 {
        let mut b = Bench::new(&Config::fpga_small());
        b.run(&[LaneOp::new(Op::MbInit, 1, 0, 0, M, 1)]);
        let wait = LaneOp::new(Op::MbTryWait, 1, 2, 5, M, 0).with_flags(flags::PARITY);
        let start = b.answers.len();
        for c in 0..4 {
            if c == delay {
                b.launch = Some(0);
            }
            b.cycle(if c == 0 { Some(wait) } else { None });
        }
        b.drain();
        assert!(b.answers[start].suspended, "delay {delay}: the phase is not complete, the try_wait suspends");
        assert!(b.wakes.is_empty(), "delay {delay}: nothing completes the phase");
        b.cycle_with(None, true);
        b.drain();
        assert_eq!(
            b.wakes,
            vec![Wake { cta: 1, warp: 2, lane: 5, pred: false }],
            "delay {delay}: CTA 1's suspended lane answers False at the time limit"
        );
    }
}

// ------------------------------------------------------------------------------------------
// Throughput
// ------------------------------------------------------------------------------------------

/// Ops per cycle with back-to-back arrives on one address and on different addresses, checked
/// against the golden result (so forwarding is exercised, not just timed).
#[test]
fn throughput_one_op_per_cycle() {
    let cfg = Config::fpga_small();
    for same_address in [true, false] {
        let mut b = Bench::new(&cfg);
        let n = 64u64;
        let inits: Vec<LaneOp> = (0..n).map(|i| LaneOp::new(Op::MbInit, 0, 0, 0, M + 8 * i, 1000)).collect();
        b.run(&inits);
        let ops: Vec<LaneOp> =
            (0..n).map(|i| LaneOp::new(Op::MbArrive, 0, 0, 0, if same_address { M } else { M + 8 * i }, 1)).collect();
        let start_cycle = b.cycles;
        let first = b.answers.len();
        for op in &ops {
            b.cycle(Some(*op));
        }
        while b.answers.len() < first + ops.len() {
            b.cycle(None);
        }
        let cycles = b.cycles - start_cycle;
        let per_cycle = n as f64 / cycles as f64;
        println!(
            "mbarrier_alu throughput ({}): {n} arrives in {cycles} cycles = {per_cycle:.3} ops/cycle (latency 3)",
            if same_address { "same address" } else { "different addresses" }
        );
        assert_eq!(cycles, n + 3, "one op per cycle plus the 3-cycle pipeline latency");
        if same_address {
            assert_eq!(b.word(0, M).pending as u64, 1000 - n, "forwarding lost an update");
            let pend: Vec<u64> = b.answers[first..].iter().map(|a| state_token::pending(a.value) as u64).collect();
            assert_eq!(pend, (0..n).map(|i| 1000 - i).collect::<Vec<_>>());
        } else {
            assert!((0..n).all(|i| b.word(0, M + 8 * i).pending == 999));
        }
    }
}

/// Arrives on one object with 0, 1, 2 and 3 idle cycles between them: each distance takes the
/// word from another place (S1b's forwarding, S1a's forwarding, the RAM). Expected tokens from
/// the PTX definition: every arrive(1) sees the pending count left by the one before.
#[test]
fn forwarding_at_every_distance() {
    let cfg = Config::fpga_small();
    let mut b = Bench::new(&cfg);
    b.run(&[LaneOp::new(Op::MbInit, 0, 0, 0, M, 100)]);
    let first = b.answers.len();
    let mut n = 0u64;
    for gap in 0..4 {
        for _ in 0..4 {
            b.cycle(Some(LaneOp::new(Op::MbArrive, 0, 0, 0, M, 1)));
            n += 1;
            for _ in 0..gap {
                b.cycle(None);
            }
        }
    }
    b.drain();
    let pend: Vec<u64> = b.answers[first..].iter().map(|a| state_token::pending(a.value) as u64).collect();
    assert_eq!(pend, (0..n).map(|i| 100 - i).collect::<Vec<_>>());
    assert!(b.answers[first..].iter().all(|a| a.error == 0));
    assert_eq!(b.word(0, M).pending as u64, 100 - n);
}

// ------------------------------------------------------------------------------------------
// Random comparison with the golden unit
// ------------------------------------------------------------------------------------------

/// The golden side: the golden unit plus what the test must know to generate legal requests.
struct Golden {
    unit: GoldenMbarrierAlu,
    mem: MemorySystem,
    tag: u64,
    /// Phases completed per (slot, addr) (from the golden trace events).
    phase: HashMap<(u16, u64), u64>,
    /// Latest token of each thread per object, with the phase it was taken in.
    tokens: HashMap<(u16, u16, u8, u64), (u64, u64)>,
    /// Tags of suspended try_waits -> thread.
    suspended: HashMap<u64, (u16, u16, u8)>,
    wakes: Vec<Wake>,
}

impl Golden {
    fn new(cfg: &Config) -> Golden {
        Golden {
            unit: GoldenMbarrierAlu::new(cfg),
            mem: MemorySystem::new(4096, cfg.cta_slots as usize, cfg.shared_bytes as usize),
            tag: 0,
            phase: HashMap::new(),
            tokens: HashMap::new(),
            suspended: HashMap::new(),
            wakes: vec![],
        }
    }

    fn take_wakes(&mut self, out: &[Response], own_tag: u64) {
        for r in out {
            if r.tag == own_tag {
                continue;
            }
            if let Some((cta, warp, lane)) = self.suspended.remove(&r.tag) {
                self.wakes.push(Wake { cta, warp, lane, pred: r.preds >> lane & 1 == 1 });
            } else {
                panic!("golden answered an unknown tag {}", r.tag);
            }
        }
    }

    /// Apply one lane op; returns the expected immediate answer (None when suspended).
    fn apply(&mut self, o: &LaneOp) -> Option<Answer> {
        self.tag += 1;
        let tag = self.tag;
        let mut out = Vec::new();
        let mut events = Vec::new();
        let lane = o.lane as usize;
        let mut answer =
            Answer { cta: o.cta, warp: o.warp, lane: o.lane, value: 0, pred: false, suspended: false, error: 0 };
        match o.op {
            // cp.async.mbarrier.arrive at issue (the copy engine's part of the golden model).
            Op::MbCpAsyncArrive => {
                let r = if o.flags & flags::NO_INC != 0 {
                    self.unit
                        .locate_in(o.cta, smsync_sim::encoding::Space::SharedCta, o.addr)
                        .and_then(|(s, off)| self.unit.check_live(&self.mem, s, off))
                } else {
                    self.unit
                        .locate_in(o.cta, smsync_sim::encoding::Space::SharedCta, o.addr)
                        .and_then(|(s, off)| self.unit.increment_pending_at(&mut self.mem, s, off))
                };
                answer.error = r.err().map(|e| e.code()).unwrap_or(0);
                return Some(answer);
            }
            _ => {
                let mut req = Request::new(tag, o.cta, o.warp, o.op);
                req.flags = o.flags;
                req.active_mask = 1 << lane;
                req.lanes[lane].addr = o.addr;
                req.lanes[lane].a = o.a as u128;
                req.lanes[lane].b = o.b as u128;
                self.unit.submit(&req, &mut self.mem, &mut out, &mut events);
            }
        }
        for e in &events {
            if let TraceEvent::PhaseComplete { cta, addr, .. } = e {
                *self.phase.entry((*cta, *addr)).or_default() += 1;
            }
        }
        let own = out.iter().find(|r| r.tag == tag).cloned();
        self.take_wakes(&out, tag);
        match own {
            None => {
                self.suspended.insert(tag, (o.cta, o.warp, o.lane));
                answer.suspended = true;
            }
            Some(r) => {
                answer.error = r.error.code();
                if r.error == ErrorCode::None && o.op == Op::MbInit {
                    // a new object: phases count from 0 again, old tokens are not its tokens
                    self.phase.insert((o.cta, o.addr), 0);
                    self.tokens.retain(|k, _| (k.0, k.3) != (o.cta, o.addr));
                }
                if r.error == ErrorCode::None {
                    answer.value = r.values[lane] as u64;
                    answer.pred = r.preds >> lane & 1 == 1;
                    if matches!(o.op, Op::MbArrive | Op::MbArriveDrop) {
                        let ph = self.phase_of(o.cta, o.addr);
                        // the phase before the arrive: undo a completion this arrive caused
                        let before = if state_token::parity(answer.value) != (ph % 2 == 1) { ph - 1 } else { ph };
                        self.tokens.insert((o.cta, o.warp, o.lane, o.addr), (answer.value, before));
                    }
                }
            }
        }
        Some(answer)
    }

    fn phase_of(&self, cta: u16, addr: u64) -> u64 {
        self.phase.get(&(cta, addr)).copied().unwrap_or(0)
    }

    fn timeout(&mut self) {
        let mut out = Vec::new();
        self.unit.wake_waiters(&mut self.mem, true, &mut out);
        self.take_wakes(&out, 0);
    }
}

/// A random lane op over a few objects, mostly legal, with a share of every error.
fn random_op(rng: &mut Rng, g: &Golden, cfg: &Config, waiter_room: bool) -> LaneOp {
    let cta = rng.below(cfg.cta_slots as u64) as u16;
    let warp = rng.below(4) as u16;
    let lane = rng.below(4) as u8;
    let addr = match rng.below(40) {
        0 => M + 4,                   // misaligned
        1 => cfg.shared_bytes as u64, // out of range
        _ => M + 8 * rng.below(4),
    };
    let small = 1 + rng.below(3);
    let tx = [0u64, 1, 16, 64, 1000][rng.below(5) as usize];
    let pick = rng.below(100);
    let op = match pick {
        0..=7 => {
            LaneOp::new(Op::MbInit, cta, warp, lane, addr, if rng.below(10) == 0 { rng.below(2) << 20 } else { small })
        }
        8..=9 => LaneOp::new(Op::MbInval, cta, warp, lane, addr, 0),
        10..=34 => {
            let mut o =
                LaneOp::new(Op::MbArrive, cta, warp, lane, addr, if rng.below(8) == 0 { rng.below(4) } else { 1 });
            if rng.below(4) == 0 {
                o = o.with_flags(flags::EXPECT_TX).with_b(tx);
            }
            if rng.below(6) == 0 {
                o = o.with_flags(flags::NO_COMPLETE);
            }
            o
        }
        35..=39 => LaneOp::new(Op::MbArriveDrop, cta, warp, lane, addr, 1 + rng.below(2)),
        40..=47 => LaneOp::new(Op::MbExpectTx, cta, warp, lane, addr, if rng.below(30) == 0 { 1 << 20 } else { tx }),
        48..=57 => LaneOp::new(Op::MbCompleteTx, cta, warp, lane, addr, if rng.below(30) == 0 { 1 << 20 } else { tx }),
        58..=79 => {
            let op = if rng.below(2) == 0 || !waiter_room { Op::MbTestWait } else { Op::MbTryWait };
            let own = g.tokens.get(&(cta, warp, lane, addr)).copied();
            match (rng.below(4), own) {
                // the thread's own token, only if from the current or the preceding phase (legal)
                (0 | 1, Some((tok, ph))) if g.phase_of(cta, addr) <= ph + 1 => {
                    LaneOp::new(op, cta, warp, lane, addr, tok)
                }
                (2, _) if rng.below(8) == 0 => LaneOp::new(op, cta, warp, lane, addr, 5), // not a token
                _ => LaneOp::new(op, cta, warp, lane, addr, if rng.below(20) == 0 { 2 } else { rng.below(2) })
                    .with_flags(flags::PARITY),
            }
        }
        80..=85 => {
            let own = g.tokens.get(&(cta, warp, lane, addr)).map(|t| t.0).unwrap_or(0);
            LaneOp::new(Op::MbPendingCount, cta, warp, lane, 0, own)
        }
        86..=91 => LaneOp::new(Op::MbCpAsyncArrive, cta, warp, lane, addr, 0).with_flags(if rng.below(3) == 0 {
            flags::NO_INC
        } else {
            0
        }),
        _ => LaneOp::new(Op::MbArrive, cta, warp, lane, addr, 1), // deferred cp.async arrive-on
    };
    op
}

fn compare_random(seed: u64, count: usize) {
    let cfg = Config { mbarrier_waiters: 16, ..Config::fpga_small() };
    let mut rng = Rng::new(seed);
    let mut b = Bench::new(&cfg);
    let mut g = Golden::new(&cfg);
    let mut expected: Vec<(LaneOp, Option<Answer>)> = Vec::new();
    let mut checked = 0;
    let mut issued_since_drain = 0;
    for i in 0..count {
        // Keep the table away from full: the RTL frees an entry when its answer is emitted, a
        // cycle or more after the golden model does (both then answer False, which PTX allows,
        // but at different moments). The full-table case is a directed test.
        let room = g.suspended.len() + issued_since_drain < cfg.mbarrier_waiters as usize - 2;
        let op = random_op(&mut rng, &g, &cfg, room);
        let ans = g.apply(&op);
        expected.push((op, ans));
        b.cycle(Some(op));
        issued_since_drain += 1;
        // Sometimes idle cycles (1-3: every forwarding distance), sometimes a drain with a timeout
        // (as the top does when idle).
        if rng.below(8) == 0 {
            for _ in 0..1 + rng.below(3) {
                b.cycle(None);
            }
        }
        if rng.below(16) == 0 || i + 1 == count {
            b.drain();
            issued_since_drain = 0;
            if rng.below(6) == 0 {
                b.cycle_with(None, true);
                b.drain();
                g.timeout();
            }
            // Responses so far, in order.
            while checked < b.answers.len() {
                let (op, want) = &expected[checked];
                let got = b.answers[checked];
                let want = want.unwrap();
                // The value of an errored op is unspecified in the golden response.
                let got_cmp = if got.error != 0 { Answer { value: 0, pred: false, ..got } } else { got };
                let want_cmp = if want.error != 0 { Answer { value: 0, pred: false, ..want } } else { want };
                assert_eq!(
                    got_cmp, want_cmp,
                    "seed {seed}: response {checked} to {op:?} differs (rtl left, golden right)"
                );
                checked += 1;
            }
            let mut rw = b.wakes.clone();
            let mut gw = g.wakes.clone();
            rw.sort();
            gw.sort();
            assert_eq!(rw, gw, "seed {seed}: try_wait wake-ups differ after op {i}");
            // Memory: every object word identical.
            for slot in 0..cfg.cta_slots as usize {
                for w in 0..8u64 {
                    let off = M + 8 * w;
                    let gold = g.mem.read_shared(slot, off, 8).unwrap() as u64;
                    assert_eq!(b.mem[slot][off as usize / 8], gold, "seed {seed}: word {slot}:{off:#x} after op {i}");
                }
            }
        }
    }
    assert_eq!(checked, count, "seed {seed}: every op answered once");
}

#[test]
fn random_lane_ops_match_golden_unit() {
    let (seeds, count) = Campaign::new("UNIT", (&[1], 2_000), (&[1, 2, 3], 10_000)).split();
    for seed in seeds {
        compare_random(seed, count);
    }
}
