//! mbarrier arithmetic unit: a pipelined read-modify-write of the 64-bit mbarrier word in shared
//! memory, plus the waiter table of suspended `mbarrier.try_wait`s.
//!
//! Behaviour, error codes and token bits are those of the golden unit
//! (`smsync_sim::units::mbarrier_alu`, PTX ISA §9.7.13.15); every number comes from
//! `smsync_sim::encoding` (op codes, flag bits, `mbarrier_word` and `state_token` layouts,
//! `ErrorCode`).
//!
//! # One op per lane, one op per cycle
//!
//! The sync-unit top splits a warp request into lane ops (ascending lane order) and feeds one
//! per cycle on the `req_*` port; the copy engine feeds complete-tx and the deferred arrive-on of
//! `cp.async.mbarrier.arrive` (as `MbArrive` with `a = 1`, whose token it drops) on the same port.
//!
//! ```text
//!  cycle t    S0   request in; read address to shared memory (mem_rd_*)
//!  cycle t+1  S1a  word = mem_rdata, or the word written in cycle t (`fwd_*`: the read of t ran
//!                  before that write landed); op decode, operand-only checks, the narrowed
//!                  operands (arrive count, tx delta and its negation) -> registers
//!  cycle t+2  S1b  the op applied twice (`WordUpdate`): to the S1a word and to the word written
//!                  in cycle t+1 by the op ahead (`fwd_*`); the registered address match of S1a
//!                  (`s2_same`) selects which result counts. tx / pending / expected arithmetic,
//!                  completion, the word-dependent checks, the new word; write back (mem_we,
//!                  mem_wr_*); the waiter table's events (allocate for a suspending try_wait,
//!                  complete, kill) into the `p_*` registers
//!  cycle t+3  S2   response registers (resp_*) and the phase-completed strobe (done_*); the
//!                  waiter table applies the `p_*` events
//!  cycle t+4       a waiter entry answered in t+3 can leave on `wake_*`
//! ```
//!
//! So back-to-back ops on one object run at one op per cycle with no stall: the op in S1b always
//! sees the word as left by every op ahead of it (two writes can be in flight towards an op:
//! the one of the cycle before its S1a, forwarded into S1a, and the one of the cycle before its
//! S1b, forwarded into S1b). The one-cycle loop of that forwarding is register -> the tx range
//! compares and the count compares -> the failure OR -> the candidate select -> `fwd_valid` /
//! `fwd_data`: S1a has done every operand-only step (the op decode, the tx delta and the tx-count
//! bounds it implies, `s2_tx_hi` / `s2_tx_lo`, the write kind in `we_hold`), so S1b has no adder
//! in front of its range check and no mux in front of its arithmetic.
//!
//! # The waiter table
//!
//! It sees everything one cycle late: S1b's events, `timeout` and `launch` all pass through the
//! `p_*` registers, so the table's state is that of a table updated in S1b, a cycle later, and
//! its answers (`wake_*`) leave a cycle later. A try_wait in S1b takes the highest-numbered entry
//! that is free and is not the one the registered allocation is taking;
//! none of the table's logic hangs off S1b's checks but that one allocation register.

//! The memory port has a separate read and write address (a 1R1W block RAM per CTA slot):
//! `mem_rdata` in cycle t+1 is the word at the address presented in cycle t (synchronous read).
//! Whether the RAM returns old or new data on a same-cycle read/write collision does not matter:
//! the forwarding path covers it. A write comes two cycles after its read; `mem_we_next` tells
//! the top one cycle ahead that the op in S1a may write next cycle (its shared-memory
//! arbitration keeps that cycle's write port free).
//!
//! # Widths
//!
//! Fields at their true widths (PTX ISA §9.7.13.15.2: counts up to 2^20 - 1, tx-count within
//! ±(2^20 - 1)): the checks and the completion compare 20-bit counts; the tx arithmetic is 23
//! bits, enough for the 21-bit tx-count plus a delta that S1a has already bounded (a u32 txCount
//! above 2 * (2^20 - 1) is out of range whatever the tx-count, `tx_big`; below it
//! |tx + delta| < 3 * 2^20). The request's 64-bit operands are only compared (range checks) in
//! S1a. The new word's data is assembled from 64-bit words holding masked fields (rust-hdl has no
//! width-clean zero extension, and the unit is linted with `-Wall`): their upper bits are
//! constant or unused, and synthesis trims the adders to the field widths.

use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, mbarrier_word as mw, state_token as st, ErrorCode, Op};

use crate::common::{error_code, op_code, ERROR_BITS, FLAG_BITS, OP_BITS};

pub mod formal;
pub mod word_update;

use word_update::WordUpdate;

/// CTA slot index (config.cta_slots <= 32).
pub const SLOT_BITS: usize = 5;
/// Warp index within a CTA (max_warps_per_cta <= 32).
pub const WARP_BITS: usize = 5;
/// Lane index within a warp.
pub const LANE_BITS: usize = 5;
/// 8-byte word index in a CTA slot's shared memory (shared_bytes <= 232448 = 29056 words).
pub const WORD_BITS: usize = 15;
/// Index into the waiter table (mbarrier_waiters <= 1024).
pub const WAITER_INDEX_BITS: usize = 10;
/// mbarrier count fields (expected, pending): PTX ISA §9.7.13.15.2, counts up to 2^20 - 1.
pub const COUNT_BITS: usize = 20;
/// tx arithmetic: the 21-bit tx-count plus a bounded delta (see "Widths").
pub const TXA_BITS: usize = 23;

fn c64(v: u64) -> Constant<Bits<64>> {
    Constant::new(v.to_bits())
}

/// One entry of the waiter table: a suspended try_wait lane waiting for the phase of the object
/// at (slot, word) whose parity it saw to complete.
#[derive(LogicBlock, Default)]
pub struct WaiterEntry {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Allocate this entry (the table chose it) with the alloc_* fields.
    pub alloc: Signal<In, Bit>,
    pub alloc_cta: Signal<In, Bits<SLOT_BITS>>,
    pub alloc_warp: Signal<In, Bits<WARP_BITS>>,
    pub alloc_lane: Signal<In, Bits<LANE_BITS>>,
    pub alloc_slot: Signal<In, Bits<SLOT_BITS>>,
    pub alloc_word: Signal<In, Bits<WORD_BITS>>,
    pub alloc_parity: Signal<In, Bit>,
    /// The phase of the object at (event_slot, event_word) whose parity was event_parity completed.
    pub complete: Signal<In, Bit>,
    /// The object at (event_slot, event_word) was invalidated: its waiters answer False.
    pub kill: Signal<In, Bit>,
    pub event_slot: Signal<In, Bits<SLOT_BITS>>,
    pub event_word: Signal<In, Bits<WORD_BITS>>,
    pub event_parity: Signal<In, Bit>,
    /// Every waiting entry answers False (timeout when no warp can run).
    pub timeout: Signal<In, Bit>,
    /// A new CTA starts in `launch_slot`: entries of that requester slot vanish without answer.
    pub launch: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<SLOT_BITS>>,
    /// The table emitted this entry's answer this cycle: free it.
    pub emitted: Signal<In, Bit>,
    /// Holds a suspended lane (waiting or answered but not yet emitted).
    pub busy: Signal<Out, Bit>,
    /// Has an answer ready to emit.
    pub ready: Signal<Out, Bit>,
    pub answer: Signal<Out, Bit>,
    pub cta: Signal<Out, Bits<SLOT_BITS>>,
    pub warp: Signal<Out, Bits<WARP_BITS>>,
    pub lane: Signal<Out, Bits<LANE_BITS>>,
    held: DFF<Bit>,
    answered: DFF<Bit>,
    result: DFF<Bit>,
    w_cta: DFF<Bits<SLOT_BITS>>,
    w_warp: DFF<Bits<WARP_BITS>>,
    w_lane: DFF<Bits<LANE_BITS>>,
    w_slot: DFF<Bits<SLOT_BITS>>,
    w_word: DFF<Bits<WORD_BITS>>,
    w_parity: DFF<Bit>,
}

impl Logic for WaiterEntry {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held, answered, result, w_cta, w_warp, w_lane, w_slot, w_word, w_parity);
        self.busy.next = self.held.q.val();
        self.ready.next = self.held.q.val() & self.answered.q.val();
        self.answer.next = self.result.q.val();
        self.cta.next = self.w_cta.q.val();
        self.warp.next = self.w_warp.q.val();
        self.lane.next = self.w_lane.q.val();
        // A waiting entry answers True when its phase completes, False when its object is
        // invalidated or on timeout.
        if self.held.q.val() & !self.answered.q.val() {
            if (self.event_slot.val() == self.w_slot.q.val()) & (self.event_word.val() == self.w_word.q.val()) {
                if self.complete.val() & (self.event_parity.val() == self.w_parity.q.val()) {
                    self.answered.d.next = true;
                    self.result.d.next = true;
                }
                if self.kill.val() {
                    self.answered.d.next = true;
                    self.result.d.next = false;
                }
            }
            if self.timeout.val() {
                self.answered.d.next = true;
                self.result.d.next = false;
            }
        }
        if self.emitted.val() {
            self.held.d.next = false;
            self.answered.d.next = false;
        }
        if self.alloc.val() {
            self.held.d.next = true;
            self.answered.d.next = false;
            self.result.d.next = false;
            self.w_cta.d.next = self.alloc_cta.val();
            self.w_warp.d.next = self.alloc_warp.val();
            self.w_lane.d.next = self.alloc_lane.val();
            self.w_slot.d.next = self.alloc_slot.val();
            self.w_word.d.next = self.alloc_word.val();
            self.w_parity.d.next = self.alloc_parity.val();
        }
        // A launch drops the entry's lane if it belongs to the launched slot: in an allocation
        // cycle that is the new lane's slot (`alloc_cta`), not the previous occupant's.
        if (self.launch.val()
            & ((self.alloc.val() & (self.launch_slot.val() == self.alloc_cta.val()))
                | (!self.alloc.val() & (self.launch_slot.val() == self.w_cta.q.val()))))
            | self.reset.val()
        {
            self.held.d.next = false;
            self.answered.d.next = false;
        }
    }
}

/// The mbarrier arithmetic unit with its waiter table (`config.mbarrier_waiters` entries).
#[derive(LogicBlock)]
pub struct MbarrierAlu {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,

    // ---- request (one lane op per cycle) ----
    pub req_valid: Signal<In, Bit>,
    pub req_op: Signal<In, Bits<OP_BITS>>,
    pub req_flags: Signal<In, Bits<FLAG_BITS>>,
    /// Requesting CTA slot, warp and lane (carried to the response and the waiter table).
    pub req_cta: Signal<In, Bits<SLOT_BITS>>,
    pub req_warp: Signal<In, Bits<WARP_BITS>>,
    pub req_lane: Signal<In, Bits<LANE_BITS>>,
    /// CTA slot whose shared memory holds the object (differs from req_cta for shared::cluster).
    pub req_slot: Signal<In, Bits<SLOT_BITS>>,
    /// Byte offset of the object in that slot's shared memory.
    pub req_addr: Signal<In, Bits<64>>,
    /// Operand a: count, txCount, token or parity (see `units::request`).
    pub req_a: Signal<In, Bits<64>>,
    /// Operand b: txCount of `.expect_tx` arrives.
    pub req_b: Signal<In, Bits<64>>,

    // ---- shared-memory port ----
    pub mem_rd: Signal<Out, Bit>,
    pub mem_rd_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub mem_rd_word: Signal<Out, Bits<WORD_BITS>>,
    pub mem_rdata: Signal<In, Bits<64>>,
    /// The op in S1a may write back next cycle (for the top's write-port arbitration): a
    /// flip-flop (`s1_writes`, decoded from the request at S0), so the copy engine's write
    /// grant and global beats, which the top derives from it, start at a register.
    pub mem_we_next: Signal<Out, Bit>,
    /// The write port is held for the op in S1b, which writes unless it fails: `mem_we_next`
    /// registered. The top arbitrates the other writers on this (a flip-flop), not on
    /// `mem_we`, whose `ok` is the end of S1b's checks: a grant from it would chain S1b's
    /// logic into every other unit's stall logic.
    pub mem_we_hold: Signal<Out, Bit>,
    pub mem_we: Signal<Out, Bit>,
    pub mem_wr_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub mem_wr_word: Signal<Out, Bits<WORD_BITS>>,
    pub mem_wdata: Signal<Out, Bits<64>>,

    // ---- response (three cycles after the request) ----
    pub resp_valid: Signal<Out, Bit>,
    pub resp_cta: Signal<Out, Bits<SLOT_BITS>>,
    pub resp_warp: Signal<Out, Bits<WARP_BITS>>,
    pub resp_lane: Signal<Out, Bits<LANE_BITS>>,
    /// Token of arrive/arrive_drop, count of pending_count, else 0; meaningless when
    /// `resp_error` is not None (a lane's error response carries no value).
    pub resp_value: Signal<Out, Bits<64>>,
    /// waitComplete of test_wait/try_wait.
    pub resp_pred: Signal<Out, Bit>,
    /// The try_wait was suspended in the waiter table: its answer comes on wake_*.
    pub resp_suspended: Signal<Out, Bit>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,

    // ---- phase-completed strobe ----
    pub done_valid: Signal<Out, Bit>,
    pub done_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub done_word: Signal<Out, Bits<WORD_BITS>>,
    /// Parity of the new phase.
    pub done_parity: Signal<Out, Bit>,

    // ---- waiter table ----
    /// All suspended try_waits answer False (the top asserts it when no warp can run).
    pub timeout: Signal<In, Bit>,
    /// A CTA starts in `launch_slot`: its suspended try_waits are dropped.
    pub launch: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<SLOT_BITS>>,
    /// One answer of a suspended try_wait per cycle.
    pub wake_valid: Signal<Out, Bit>,
    pub wake_cta: Signal<Out, Bits<SLOT_BITS>>,
    pub wake_warp: Signal<Out, Bits<WARP_BITS>>,
    pub wake_lane: Signal<Out, Bits<LANE_BITS>>,
    pub wake_pred: Signal<Out, Bit>,

    waiters: Vec<WaiterEntry>,

    // ---- S0 -> S1a registers: the request ----
    s1_valid: DFF<Bit>,
    /// The request is valid and its op writes the word back (any op but the waits, the
    /// pending-count query and a `.noinc` cp.async arrive-on): `mem_we_next`.
    s1_writes: DFF<Bit>,
    s1_op: DFF<Bits<OP_BITS>>,
    s1_flags: DFF<Bits<FLAG_BITS>>,
    s1_cta: DFF<Bits<SLOT_BITS>>,
    s1_warp: DFF<Bits<WARP_BITS>>,
    s1_lane: DFF<Bits<LANE_BITS>>,
    s1_slot: DFF<Bits<SLOT_BITS>>,
    s1_addr: DFF<Bits<64>>,
    s1_a: DFF<Bits<64>>,
    s1_b: DFF<Bits<64>>,
    // ---- S1a -> S1b registers: the word, the one-hot decode, checks and narrowed operands ----
    s2_valid: DFF<Bit>,
    we_hold: DFF<Bit>,
    s2_cta: DFF<Bits<SLOT_BITS>>,
    s2_warp: DFF<Bits<WARP_BITS>>,
    s2_lane: DFF<Bits<LANE_BITS>>,
    s2_slot: DFF<Bits<SLOT_BITS>>,
    s2_word_addr: DFF<Bits<WORD_BITS>>,
    /// The word after S1a's forwarding.
    s2_word: DFF<Bits<64>>,
    /// The op now entering S1b has the object of the op leaving it: if that op wrote, its word
    /// (then in `fwd_*`) replaces `s2_word`.
    s2_same: DFF<Bit>,
    s2_init: DFF<Bit>,
    s2_inval: DFF<Bit>,
    s2_arrive: DFF<Bit>,
    s2_drop: DFF<Bit>,
    s2_expect: DFF<Bit>,
    s2_complete_tx: DFF<Bit>,
    s2_wait: DFF<Bit>,
    s2_try: DFF<Bit>,
    s2_pcount: DFF<Bit>,
    /// cp.async.mbarrier.arrive without .noinc: pending += 1.
    s2_cp_inc: DFF<Bit>,
    /// The op changes the tx-count (expect_tx, complete_tx, arrive.expect_tx).
    s2_tx_op: DFF<Bit>,
    /// A tx op whose check chain reaches the tx range (not stopped in S1a, not init).
    s2_tx_checked: DFF<Bit>,
    s2_nocomplete: DFF<Bit>,
    /// The error chain ended in S1a (pending_count, or an operand-only error), with `s2_pre_error`.
    s2_pre_stop: DFF<Bit>,
    s2_pre_fail: DFF<Bit>,
    s2_pre_error: DFF<Bits<ERROR_BITS>>,
    /// The wait ops' operand errors (last in the chain; no other op has any).
    s2_late_fail: DFF<Bit>,
    s2_late_error: DFF<Bits<ERROR_BITS>>,
    /// Arrive count 0 or above COUNT_MAX.
    s2_cnt_bad: DFF<Bit>,
    /// Arrive count (1 for .expect_tx), at the field width.
    s2_cnt: DFF<Bits<COUNT_BITS>>,
    /// Arrive count and operand a (init count, pending_count's value) masked to the field width
    /// in 64-bit words, for the new word's data path (synthesis trims the constant-zero bits).
    s2_cnt64: DFF<Bits<64>>,
    s2_a64: DFF<Bits<64>>,
    /// The txCount operand exceeds 2 * COUNT_MAX: out of range for any tx-count.
    s2_tx_big: DFF<Bit>,
    /// Signed tx delta and its negation (tx + delta == 0 <=> tx == -delta).
    /// The range of tx-counts the op keeps within ±COUNT_MAX: tx + delta <= COUNT_MAX <=>
    /// tx <= COUNT_MAX - delta (`s2_tx_hi`), tx + delta >= -COUNT_MAX <=> tx >= -COUNT_MAX - delta
    /// (`s2_tx_lo`); 23-bit two's complement with the sign bit flipped, so that S1b compares them
    /// with the word's tx-count as unsigned numbers (no adder in front of the range check).
    s2_tx_hi: DFF<Bits<TXA_BITS>>,
    s2_tx_lo: DFF<Bits<TXA_BITS>>,
    s2_ndelta: DFF<Bits<TXA_BITS>>,
    /// The delta as a 64-bit word (only its low 21 bits reach the new word's tx field).
    s2_delta64: DFF<Bits<64>>,
    /// The parity whose phase a wait awaits is complete when it differs from the word's parity.
    s2_want: DFF<Bit>,
    // ---- forwarding register: the write-back of the previous cycle ----
    fwd_valid: DFF<Bit>,
    fwd_slot: DFF<Bits<SLOT_BITS>>,
    fwd_word: DFF<Bits<WORD_BITS>>,
    fwd_data: DFF<Bits<64>>,
    // ---- S2 output registers ----
    o_valid: DFF<Bit>,
    o_cta: DFF<Bits<SLOT_BITS>>,
    o_warp: DFF<Bits<WARP_BITS>>,
    o_lane: DFF<Bits<LANE_BITS>>,
    o_value: DFF<Bits<64>>,
    o_pred: DFF<Bit>,
    o_suspended: DFF<Bit>,
    o_error: DFF<Bits<ERROR_BITS>>,
    o_done: DFF<Bit>,
    o_done_slot: DFF<Bits<SLOT_BITS>>,
    o_done_word: DFF<Bits<WORD_BITS>>,
    o_done_parity: DFF<Bit>,

    // ---- S1a combinational values ----
    a_word_addr: Signal<Local, Bits<WORD_BITS>>,
    a_init: Signal<Local, Bit>,
    a_inval: Signal<Local, Bit>,
    a_arrive: Signal<Local, Bit>,
    a_drop: Signal<Local, Bit>,
    a_expect: Signal<Local, Bit>,
    a_complete_tx: Signal<Local, Bit>,
    a_wait: Signal<Local, Bit>,
    a_pcount: Signal<Local, Bit>,
    a_cp_arrive: Signal<Local, Bit>,
    a_known: Signal<Local, Bit>,
    s0_writes: Signal<Local, Bit>,
    a_nocomplete: Signal<Local, Bit>,
    a_expect_tx: Signal<Local, Bit>,
    a_parity: Signal<Local, Bit>,
    a_noinc: Signal<Local, Bit>,
    a_pre_error: Signal<Local, Bits<ERROR_BITS>>,
    a_late_error: Signal<Local, Bits<ERROR_BITS>>,
    /// Operands a and b as u32 txCounts, and their negations (b's at the tx arithmetic's width).
    a_ka: Signal<Local, Bits<64>>,
    a_kb: Signal<Local, Bits<64>>,
    a_ka_neg: Signal<Local, Bits<64>>,
    a_kb_neg: Signal<Local, Bits<TXA_BITS>>,
    /// The tx-count bounds for delta = +a, +b and -a.
    a_hi_minus_a: Signal<Local, Bits<TXA_BITS>>,
    a_lo_minus_a: Signal<Local, Bits<TXA_BITS>>,
    a_hi_minus_b: Signal<Local, Bits<TXA_BITS>>,
    a_lo_minus_b: Signal<Local, Bits<TXA_BITS>>,
    a_hi_plus_a: Signal<Local, Bits<TXA_BITS>>,
    a_lo_plus_a: Signal<Local, Bits<TXA_BITS>>,
    /// COUNT_MAX - delta and -COUNT_MAX - delta of the op.
    a_tx_hi: Signal<Local, Bits<TXA_BITS>>,
    a_tx_lo: Signal<Local, Bits<TXA_BITS>>,

    // ---- S1b: the op on both candidate words, and the selected results ----
    /// [0] on the word S1a registered, [1] on the word the op just ahead wrote (`fwd_data`).
    upd: Vec<WordUpdate>,
    /// The op just ahead wrote this op's object: take `upd_fwd`'s results.
    sel_fwd: Signal<Local, Bit>,
    w_parity: Signal<Local, Bit>,
    phase_completes: Signal<Local, Bit>,
    wait_complete: Signal<Local, Bit>,
    error: Signal<Local, Bits<ERROR_BITS>>,
    fail: Signal<Local, Bit>,
    ok: Signal<Local, Bit>,
    new_word: Signal<Local, Bits<64>>,
    token: Signal<Local, Bits<64>>,
    suspend: Signal<Local, Bit>,
    free_found: Signal<Local, Bit>,
    free_index: Signal<Local, Bits<WAITER_INDEX_BITS>>,
    wake_index: Signal<Local, Bits<WAITER_INDEX_BITS>>,
    // ---- the waiter table's inputs, registered at the end of S1b (see "The waiter table") ----
    p_alloc: DFF<Bit>,
    p_index: DFF<Bits<WAITER_INDEX_BITS>>,
    p_cta: DFF<Bits<SLOT_BITS>>,
    p_warp: DFF<Bits<WARP_BITS>>,
    p_lane: DFF<Bits<LANE_BITS>>,
    p_slot: DFF<Bits<SLOT_BITS>>,
    p_word: DFF<Bits<WORD_BITS>>,
    p_parity: DFF<Bit>,
    p_complete: DFF<Bit>,
    p_kill: DFF<Bit>,
    p_timeout: DFF<Bit>,
    p_launch: DFF<Bit>,
    p_launch_slot: DFF<Bits<SLOT_BITS>>,

    // ---- constants (all from smsync_sim::encoding / Config) ----
    op_init: Constant<Bits<OP_BITS>>,
    op_inval: Constant<Bits<OP_BITS>>,
    op_arrive: Constant<Bits<OP_BITS>>,
    op_drop: Constant<Bits<OP_BITS>>,
    op_expect: Constant<Bits<OP_BITS>>,
    op_complete: Constant<Bits<OP_BITS>>,
    op_test: Constant<Bits<OP_BITS>>,
    op_try: Constant<Bits<OP_BITS>>,
    op_pcount: Constant<Bits<OP_BITS>>,
    op_cp_arrive: Constant<Bits<OP_BITS>>,
    flag_nocomplete: Constant<Bits<FLAG_BITS>>,
    flag_expect_tx: Constant<Bits<FLAG_BITS>>,
    flag_parity: Constant<Bits<FLAG_BITS>>,
    flag_noinc: Constant<Bits<FLAG_BITS>>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_align: Constant<Bits<ERROR_BITS>>,
    e_not_built: Constant<Bits<ERROR_BITS>>,
    e_init_count: Constant<Bits<ERROR_BITS>>,
    e_shared_range: Constant<Bits<ERROR_BITS>>,
    e_parity_range: Constant<Bits<ERROR_BITS>>,
    e_stale_token: Constant<Bits<ERROR_BITS>>,
    e_pcount_token: Constant<Bits<ERROR_BITS>>,
    k_zero: Constant<Bits<64>>,
    k_zero5: Constant<Bits<5>>,
    k_zero_index: Constant<Bits<WAITER_INDEX_BITS>>,
    k_one: Constant<Bits<64>>,
    k_align_mask: Constant<Bits<64>>,
    k_count_max: Constant<Bits<64>>,
    k_count_mask: Constant<Bits<64>>,
    k_u32_mask: Constant<Bits<64>>,
    /// The sign bit of a 23-bit two's-complement number (flipped for unsigned compares).
    k_sign23: Constant<Bits<TXA_BITS>>,
    k_zero23: Constant<Bits<TXA_BITS>>,
    /// COUNT_MAX and -COUNT_MAX in 23-bit two's complement.
    k_count_max23: Constant<Bits<TXA_BITS>>,
    k_neg_count_max23: Constant<Bits<TXA_BITS>>,
    k_one20: Constant<Bits<COUNT_BITS>>,
    /// 2 * COUNT_MAX: a larger txCount is out of range for any tx-count.
    k_tx_span: Constant<Bits<64>>,
    /// Largest byte offset at which an 8-byte object still fits: shared_bytes - 8.
    k_last_offset: Constant<Bits<64>>,
    /// Largest CTA slot index: cta_slots - 1.
    k_last_slot: Constant<Bits<SLOT_BITS>>,
}

impl MbarrierAlu {
    pub fn new(config: &Config) -> MbarrierAlu {
        let op = |o: Op| Constant::new(op_code(o));
        let flag = |f: u8| Constant::new((f as u64).to_bits());
        let err = |e: ErrorCode| Constant::new(error_code(e));
        let count_max = mw::COUNT_MAX as u64;
        MbarrierAlu {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_op: Default::default(),
            req_flags: Default::default(),
            req_cta: Default::default(),
            req_warp: Default::default(),
            req_lane: Default::default(),
            req_slot: Default::default(),
            req_addr: Default::default(),
            req_a: Default::default(),
            req_b: Default::default(),
            mem_rd: Default::default(),
            mem_rd_slot: Default::default(),
            mem_rd_word: Default::default(),
            mem_rdata: Default::default(),
            mem_we_next: Default::default(),
            mem_we_hold: Default::default(),
            mem_we: Default::default(),
            mem_wr_slot: Default::default(),
            mem_wr_word: Default::default(),
            mem_wdata: Default::default(),
            resp_valid: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_lane: Default::default(),
            resp_value: Default::default(),
            resp_pred: Default::default(),
            resp_suspended: Default::default(),
            resp_error: Default::default(),
            done_valid: Default::default(),
            done_slot: Default::default(),
            done_word: Default::default(),
            done_parity: Default::default(),
            timeout: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            wake_valid: Default::default(),
            wake_cta: Default::default(),
            wake_warp: Default::default(),
            wake_lane: Default::default(),
            wake_pred: Default::default(),
            waiters: (0..config.mbarrier_waiters).map(|_| WaiterEntry::default()).collect(),
            s1_valid: Default::default(),
            s1_writes: Default::default(),
            s1_op: Default::default(),
            s1_flags: Default::default(),
            s1_cta: Default::default(),
            s1_warp: Default::default(),
            s1_lane: Default::default(),
            s1_slot: Default::default(),
            s1_addr: Default::default(),
            s1_a: Default::default(),
            s1_b: Default::default(),
            s2_valid: Default::default(),
            we_hold: Default::default(),
            s2_cta: Default::default(),
            s2_warp: Default::default(),
            s2_lane: Default::default(),
            s2_slot: Default::default(),
            s2_word_addr: Default::default(),
            s2_word: Default::default(),
            s2_same: Default::default(),
            s2_init: Default::default(),
            s2_inval: Default::default(),
            s2_arrive: Default::default(),
            s2_drop: Default::default(),
            s2_expect: Default::default(),
            s2_complete_tx: Default::default(),
            s2_wait: Default::default(),
            s2_try: Default::default(),
            s2_pcount: Default::default(),
            s2_cp_inc: Default::default(),
            s2_tx_op: Default::default(),
            s2_tx_checked: Default::default(),
            s2_nocomplete: Default::default(),
            s2_pre_stop: Default::default(),
            s2_pre_fail: Default::default(),
            s2_pre_error: Default::default(),
            s2_late_fail: Default::default(),
            s2_late_error: Default::default(),
            s2_cnt_bad: Default::default(),
            s2_cnt: Default::default(),
            s2_cnt64: Default::default(),
            s2_a64: Default::default(),
            s2_tx_big: Default::default(),
            s2_tx_hi: Default::default(),
            s2_tx_lo: Default::default(),
            s2_ndelta: Default::default(),
            s2_delta64: Default::default(),
            s2_want: Default::default(),
            fwd_valid: Default::default(),
            fwd_slot: Default::default(),
            fwd_word: Default::default(),
            fwd_data: Default::default(),
            o_valid: Default::default(),
            o_cta: Default::default(),
            o_warp: Default::default(),
            o_lane: Default::default(),
            o_value: Default::default(),
            o_pred: Default::default(),
            o_suspended: Default::default(),
            o_error: Default::default(),
            o_done: Default::default(),
            o_done_slot: Default::default(),
            o_done_word: Default::default(),
            o_done_parity: Default::default(),
            a_word_addr: Default::default(),
            a_init: Default::default(),
            a_inval: Default::default(),
            a_arrive: Default::default(),
            a_drop: Default::default(),
            a_expect: Default::default(),
            a_complete_tx: Default::default(),
            a_wait: Default::default(),
            a_pcount: Default::default(),
            a_cp_arrive: Default::default(),
            a_known: Default::default(),
            s0_writes: Default::default(),
            a_nocomplete: Default::default(),
            a_expect_tx: Default::default(),
            a_parity: Default::default(),
            a_noinc: Default::default(),
            a_pre_error: Default::default(),
            a_late_error: Default::default(),
            a_ka: Default::default(),
            a_kb: Default::default(),
            a_ka_neg: Default::default(),
            a_kb_neg: Default::default(),
            a_hi_minus_a: Default::default(),
            a_lo_minus_a: Default::default(),
            a_hi_minus_b: Default::default(),
            a_lo_minus_b: Default::default(),
            a_hi_plus_a: Default::default(),
            a_lo_plus_a: Default::default(),
            a_tx_hi: Default::default(),
            a_tx_lo: Default::default(),
            w_parity: Default::default(),
            phase_completes: Default::default(),
            wait_complete: Default::default(),
            error: Default::default(),
            fail: Default::default(),
            ok: Default::default(),
            new_word: Default::default(),
            suspend: Default::default(),
            token: Default::default(),
            free_found: Default::default(),
            free_index: Default::default(),
            wake_index: Default::default(),
            upd: (0..2).map(|_| WordUpdate::default()).collect(),
            sel_fwd: Default::default(),
            p_alloc: Default::default(),
            p_index: Default::default(),
            p_cta: Default::default(),
            p_warp: Default::default(),
            p_lane: Default::default(),
            p_slot: Default::default(),
            p_word: Default::default(),
            p_parity: Default::default(),
            p_complete: Default::default(),
            p_kill: Default::default(),
            p_timeout: Default::default(),
            p_launch: Default::default(),
            p_launch_slot: Default::default(),
            op_init: op(Op::MbInit),
            op_inval: op(Op::MbInval),
            op_arrive: op(Op::MbArrive),
            op_drop: op(Op::MbArriveDrop),
            op_expect: op(Op::MbExpectTx),
            op_complete: op(Op::MbCompleteTx),
            op_test: op(Op::MbTestWait),
            op_try: op(Op::MbTryWait),
            op_pcount: op(Op::MbPendingCount),
            op_cp_arrive: op(Op::MbCpAsyncArrive),
            flag_nocomplete: flag(flags::NO_COMPLETE),
            flag_expect_tx: flag(flags::EXPECT_TX),
            flag_parity: flag(flags::PARITY),
            flag_noinc: flag(flags::NO_INC),
            e_none: err(ErrorCode::None),
            e_align: err(ErrorCode::MbAlign),
            e_not_built: err(ErrorCode::NotBuilt),
            e_init_count: err(ErrorCode::MbInitCount),
            e_shared_range: err(ErrorCode::SharedOutOfRange),
            e_parity_range: err(ErrorCode::MbParityRange),
            e_stale_token: err(ErrorCode::MbStaleToken),
            e_pcount_token: err(ErrorCode::MbPendingCountToken),
            k_zero: c64(0),
            k_zero5: Constant::new(0u64.to_bits()),
            k_zero_index: Constant::new(0u64.to_bits()),
            k_one: c64(1),
            k_align_mask: c64(7),
            k_count_max: c64(count_max),
            k_count_mask: c64(count_max),
            k_u32_mask: c64(u32::MAX as u64),
            k_sign23: Constant::new((1u64 << (TXA_BITS - 1)).to_bits()),
            k_zero23: Constant::new(0u64.to_bits()),
            k_count_max23: Constant::new(count_max.to_bits()),
            k_neg_count_max23: Constant::new((count_max.wrapping_neg() & ((1u64 << TXA_BITS) - 1)).to_bits()),
            k_one20: Constant::new(1u64.to_bits()),
            k_tx_span: c64(2 * count_max),
            k_last_offset: c64(config.shared_bytes as u64 - mw_object_bytes()),
            k_last_slot: Constant::new(((config.cta_slots - 1) as u64).to_bits()),
        }
    }

    /// Number of waiter-table entries (config.mbarrier_waiters).
    pub fn waiter_entries(&self) -> usize {
        self.waiters.len()
    }
}

/// Bytes of one mbarrier object.
const fn mw_object_bytes() -> u64 {
    8
}

// The field extraction below takes the layout's bit positions as literals in the HDL kernel
// (rust-hdl cannot name Rust constants there), so pin them to the table at compile time.
const _: () = assert!(
    mw::EXPECTED_LSB == 0
        && mw::PENDING_LSB == 20
        && mw::TX_LSB == 40
        && mw::COUNT_BITS as usize == COUNT_BITS
        && mw::TX_BITS == 21
        && mw::PARITY_BIT == 61
        && mw::VALID_BIT == 62
        && st::PENDING_LSB == 0
        && st::NO_COMPLETE_BIT == 20
        && st::PARITY_BIT == 21
        && st::VALID_BIT == 63
        // tx + delta with |tx| <= COUNT_MAX and |delta| <= 2 * COUNT_MAX fits TXA_BITS signed.
        && (3 * mw::COUNT_MAX as u64) < (1u64 << (TXA_BITS - 1))
);

impl Logic for MbarrierAlu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            s1_valid,
            s1_writes,
            s1_op,
            s1_flags,
            s1_cta,
            s1_warp,
            s1_lane,
            s1_slot,
            s1_addr,
            s1_a,
            s1_b,
            s2_valid,
            we_hold,
            s2_cta,
            s2_warp,
            s2_lane,
            s2_slot,
            s2_word_addr,
            s2_word,
            s2_same,
            s2_init,
            s2_inval,
            s2_arrive,
            s2_drop,
            s2_expect,
            s2_complete_tx,
            s2_wait,
            s2_try,
            s2_pcount,
            s2_cp_inc,
            s2_tx_op,
            s2_tx_checked,
            s2_nocomplete,
            s2_pre_stop,
            s2_pre_fail,
            s2_pre_error,
            s2_late_fail,
            s2_late_error,
            s2_cnt_bad,
            s2_cnt,
            s2_cnt64,
            s2_a64,
            s2_tx_big,
            s2_tx_hi,
            s2_tx_lo,
            s2_ndelta,
            s2_delta64,
            s2_want,
            fwd_valid,
            fwd_slot,
            fwd_word,
            fwd_data,
            o_valid,
            o_cta,
            o_warp,
            o_lane,
            o_value,
            o_pred,
            o_suspended,
            o_error,
            o_done,
            o_done_slot,
            o_done_word,
            o_done_parity,
            p_alloc,
            p_index,
            p_cta,
            p_warp,
            p_lane,
            p_slot,
            p_word,
            p_parity,
            p_complete,
            p_kill,
            p_timeout,
            p_launch,
            p_launch_slot
        );

        // ================= S0: accept the request, read the word =================
        self.mem_rd.next = self.req_valid.val() & (self.req_op.val() != self.op_pcount.val());
        self.mem_rd_slot.next = self.req_slot.val();
        self.mem_rd_word.next = self.req_addr.val().get_bits::<WORD_BITS>(3);
        self.s1_valid.d.next = self.req_valid.val() & !self.reset.val();
        self.s1_op.d.next = self.req_op.val();
        self.s1_flags.d.next = self.req_flags.val();
        self.s0_writes.next = (self.req_op.val() == self.op_init.val())
            | (self.req_op.val() == self.op_inval.val())
            | (self.req_op.val() == self.op_drop.val())
            | (self.req_op.val() == self.op_arrive.val())
            | (self.req_op.val() == self.op_expect.val())
            | (self.req_op.val() == self.op_complete.val())
            | ((self.req_op.val() == self.op_cp_arrive.val()) & !(self.req_flags.val() & self.flag_noinc.val()).any());
        self.s1_writes.d.next = self.req_valid.val() & self.s0_writes.val() & !self.reset.val();
        self.s1_cta.d.next = self.req_cta.val();
        self.s1_warp.d.next = self.req_warp.val();
        self.s1_lane.d.next = self.req_lane.val();
        self.s1_slot.d.next = self.req_slot.val();
        self.s1_addr.d.next = self.req_addr.val();
        self.s1_a.d.next = self.req_a.val();
        self.s1_b.d.next = self.req_b.val();

        // ================= S1a: the word, decode, operand-only work =================
        self.a_word_addr.next = self.s1_addr.q.val().get_bits::<WORD_BITS>(3);
        // The write of the previous cycle raced this op's read: take it from the register.
        self.s2_word.d.next = self.mem_rdata.val();
        if self.fwd_valid.q.val()
            & (self.fwd_slot.q.val() == self.s1_slot.q.val())
            & (self.fwd_word.q.val() == self.a_word_addr.val())
        {
            self.s2_word.d.next = self.fwd_data.q.val();
        }
        // The op now in S1b writes (if at all) this cycle: S1b takes that write from `fwd_*`.
        self.s2_same.d.next =
            (self.s2_slot.q.val() == self.s1_slot.q.val()) & (self.s2_word_addr.q.val() == self.a_word_addr.val());

        // One-hot op and flag decode.
        self.a_init.next = self.s1_op.q.val() == self.op_init.val();
        self.a_inval.next = self.s1_op.q.val() == self.op_inval.val();
        self.a_drop.next = self.s1_op.q.val() == self.op_drop.val();
        self.a_arrive.next = (self.s1_op.q.val() == self.op_arrive.val()) | self.a_drop.val();
        self.a_expect.next = self.s1_op.q.val() == self.op_expect.val();
        self.a_complete_tx.next = self.s1_op.q.val() == self.op_complete.val();
        self.a_wait.next = (self.s1_op.q.val() == self.op_test.val()) | (self.s1_op.q.val() == self.op_try.val());
        self.a_pcount.next = self.s1_op.q.val() == self.op_pcount.val();
        self.a_cp_arrive.next = self.s1_op.q.val() == self.op_cp_arrive.val();
        self.a_known.next = self.a_init.val()
            | self.a_inval.val()
            | self.a_arrive.val()
            | self.a_expect.val()
            | self.a_complete_tx.val()
            | self.a_wait.val()
            | self.a_cp_arrive.val();
        self.a_nocomplete.next = (self.s1_flags.q.val() & self.flag_nocomplete.val()).any();
        self.a_expect_tx.next = (self.s1_flags.q.val() & self.flag_expect_tx.val()).any();
        self.a_parity.next = (self.s1_flags.q.val() & self.flag_parity.val()).any();
        self.a_noinc.next = (self.s1_flags.q.val() & self.flag_noinc.val()).any();
        self.mem_we_next.next = self.s1_writes.q.val();
        self.we_hold.d.next = self.mem_we_next.val() & !self.reset.val();
        self.mem_we_hold.next = self.we_hold.q.val();
        self.s2_init.d.next = self.a_init.val();
        self.s2_inval.d.next = self.a_inval.val();
        self.s2_arrive.d.next = self.a_arrive.val();
        self.s2_drop.d.next = self.a_drop.val();
        self.s2_expect.d.next = self.a_expect.val();
        self.s2_complete_tx.d.next = self.a_complete_tx.val();
        self.s2_wait.d.next = self.a_wait.val();
        self.s2_try.d.next = self.s1_op.q.val() == self.op_try.val();
        self.s2_pcount.d.next = self.a_pcount.val();
        self.s2_cp_inc.d.next = self.a_cp_arrive.val() & !self.a_noinc.val();
        self.s2_tx_op.d.next =
            (self.a_arrive.val() & self.a_expect_tx.val()) | self.a_expect.val() | self.a_complete_tx.val();
        self.s2_nocomplete.d.next = self.a_nocomplete.val();

        // The golden unit's checks that need only the request, in its order; the chain stops
        // here for pending_count and for any error found.
        self.a_pre_error.next = self.e_none.val();
        if self.a_pcount.val() {
            if !(self.s1_a.q.val().get_bit(63) & self.s1_a.q.val().get_bit(20)) {
                self.a_pre_error.next = self.e_pcount_token.val();
            }
        } else if (self.s1_addr.q.val() & self.k_align_mask.val()) != self.k_zero.val() {
            self.a_pre_error.next = self.e_align.val();
        } else if !self.a_known.val() {
            self.a_pre_error.next = self.e_not_built.val();
        } else if self.a_init.val()
            & ((self.s1_a.q.val() == self.k_zero.val()) | (self.s1_a.q.val() > self.k_count_max.val()))
        {
            self.a_pre_error.next = self.e_init_count.val();
        } else if (self.s1_addr.q.val() > self.k_last_offset.val()) | (self.s1_slot.q.val() > self.k_last_slot.val()) {
            self.a_pre_error.next = self.e_shared_range.val();
        }
        self.s2_pre_error.d.next = self.a_pre_error.val();
        self.s2_pre_fail.d.next = self.a_pre_error.val() != self.e_none.val();
        self.s2_pre_stop.d.next = self.a_pcount.val() | (self.a_pre_error.val() != self.e_none.val());
        self.s2_tx_checked.d.next =
            ((self.a_arrive.val() & self.a_expect_tx.val()) | self.a_expect.val() | self.a_complete_tx.val())
                & !(self.a_pcount.val() | (self.a_pre_error.val() != self.e_none.val()))
                & !self.a_init.val();
        // The wait ops' own checks come last in the golden order (after the word's validity).
        self.a_late_error.next = self.e_none.val();
        if self.a_wait.val() & self.a_parity.val() & (self.s1_a.q.val() > self.k_one.val()) {
            self.a_late_error.next = self.e_parity_range.val();
        } else if self.a_wait.val() & !self.a_parity.val() & !self.s1_a.q.val().get_bit(63) {
            self.a_late_error.next = self.e_stale_token.val();
        }
        self.s2_late_error.d.next = self.a_late_error.val();
        self.s2_late_fail.d.next = self.a_late_error.val() != self.e_none.val();
        // waitComplete compares this with the word's parity (the awaited phase precedes it).
        self.s2_want.d.next = self.s1_a.q.val().get_bit(21);
        if self.a_parity.val() {
            self.s2_want.d.next = self.s1_a.q.val() == self.k_one.val();
        }

        // Arrive count: operand a, or 1 for arrive.expect_tx; out-of-range counts are flagged
        // here so that S1b works on the 20-bit field.
        self.s2_a64.d.next = self.s1_a.q.val() & self.k_count_mask.val();
        self.s2_cnt.d.next = self.s1_a.q.val().get_bits::<COUNT_BITS>(0);
        self.s2_cnt64.d.next = self.s1_a.q.val() & self.k_count_mask.val();
        self.s2_cnt_bad.d.next =
            (self.s1_a.q.val() == self.k_zero.val()) | (self.s1_a.q.val() > self.k_count_max.val());
        if self.a_expect_tx.val() {
            self.s2_cnt.d.next = self.k_one20.val();
            self.s2_cnt64.d.next = self.k_one.val();
            self.s2_cnt_bad.d.next = false;
        }
        // tx delta: +txCount (expect_tx, arrive.expect_tx: operand b), -txCount (complete_tx),
        // 0 for the other ops. Every sum is formed from both operands at once, in parallel with
        // the op decode, which then only selects (no adder behind the decode).
        // (the bounds at the tx arithmetic's 23 bits: the sums are kept modulo 2^23)
        self.a_ka.next = self.s1_a.q.val() & self.k_u32_mask.val();
        self.a_kb.next = self.s1_b.q.val() & self.k_u32_mask.val();
        self.a_ka_neg.next = self.k_zero.val() - self.a_ka.val();
        self.a_kb_neg.next = self.k_zero23.val() - self.a_kb.val().get_bits::<TXA_BITS>(0);
        // The bounds tx_hi = COUNT_MAX - delta and tx_lo = -COUNT_MAX - delta, per source.
        self.a_hi_minus_a.next = self.k_count_max23.val() - self.a_ka.val().get_bits::<TXA_BITS>(0);
        self.a_lo_minus_a.next = self.k_neg_count_max23.val() - self.a_ka.val().get_bits::<TXA_BITS>(0);
        self.a_hi_minus_b.next = self.k_count_max23.val() - self.a_kb.val().get_bits::<TXA_BITS>(0);
        self.a_lo_minus_b.next = self.k_neg_count_max23.val() - self.a_kb.val().get_bits::<TXA_BITS>(0);
        self.a_hi_plus_a.next = self.k_count_max23.val() + self.a_ka.val().get_bits::<TXA_BITS>(0);
        self.a_lo_plus_a.next = self.k_neg_count_max23.val() + self.a_ka.val().get_bits::<TXA_BITS>(0);
        self.s2_tx_big.d.next = false;
        self.s2_ndelta.d.next = self.k_zero23.val();
        self.s2_delta64.d.next = self.k_zero.val();
        self.a_tx_hi.next = self.k_count_max23.val();
        self.a_tx_lo.next = self.k_neg_count_max23.val();
        if self.a_complete_tx.val() {
            self.s2_tx_big.d.next = self.a_ka.val() > self.k_tx_span.val();
            self.s2_ndelta.d.next = self.a_ka.val().get_bits::<TXA_BITS>(0);
            self.s2_delta64.d.next = self.a_ka_neg.val();
            self.a_tx_hi.next = self.a_hi_plus_a.val();
            self.a_tx_lo.next = self.a_lo_plus_a.val();
        }
        if self.a_expect.val() {
            self.s2_tx_big.d.next = self.a_ka.val() > self.k_tx_span.val();
            self.s2_ndelta.d.next = self.a_ka_neg.val().get_bits::<TXA_BITS>(0);
            self.s2_delta64.d.next = self.a_ka.val();
            self.a_tx_hi.next = self.a_hi_minus_a.val();
            self.a_tx_lo.next = self.a_lo_minus_a.val();
        }
        if self.a_arrive.val() & self.a_expect_tx.val() {
            self.s2_tx_big.d.next = self.a_kb.val() > self.k_tx_span.val();
            self.s2_ndelta.d.next = self.a_kb_neg.val();
            self.s2_delta64.d.next = self.a_kb.val();
            self.a_tx_hi.next = self.a_hi_minus_b.val();
            self.a_tx_lo.next = self.a_lo_minus_b.val();
        }
        self.s2_tx_hi.d.next = self.a_tx_hi.val() ^ self.k_sign23.val();
        self.s2_tx_lo.d.next = self.a_tx_lo.val() ^ self.k_sign23.val();

        self.s2_valid.d.next = self.s1_valid.q.val() & !self.reset.val();
        self.s2_cta.d.next = self.s1_cta.q.val();
        self.s2_warp.d.next = self.s1_warp.q.val();
        self.s2_lane.d.next = self.s1_lane.q.val();
        self.s2_slot.d.next = self.s1_slot.q.val();
        self.s2_word_addr.d.next = self.a_word_addr.val();

        // ================= S1b: arithmetic, checks, write-back =================
        // The op on both candidate words (`WordUpdate`), then the result of the right one: the
        // word S1a registered, or the write-back of the op just ahead when it is the same object.
        self.upd[0].word.next = self.s2_word.q.val();
        self.upd[1].word.next = self.fwd_data.q.val();
        for i in 0..2 {
            self.upd[i].init.next = self.s2_init.q.val();
            self.upd[i].inval.next = self.s2_inval.q.val();
            self.upd[i].arrive.next = self.s2_arrive.q.val();
            self.upd[i].drop.next = self.s2_drop.q.val();
            self.upd[i].expect_op.next = self.s2_expect.q.val();
            self.upd[i].complete_tx.next = self.s2_complete_tx.q.val();
            self.upd[i].cp_inc.next = self.s2_cp_inc.q.val();
            self.upd[i].tx_op.next = self.s2_tx_op.q.val();
            self.upd[i].tx_checked.next = self.s2_tx_checked.q.val();
            self.upd[i].nocomplete.next = self.s2_nocomplete.q.val();
            self.upd[i].pre_stop.next = self.s2_pre_stop.q.val();
            self.upd[i].pre_fail.next = self.s2_pre_fail.q.val();
            self.upd[i].pre_error.next = self.s2_pre_error.q.val();
            self.upd[i].late_fail.next = self.s2_late_fail.q.val();
            self.upd[i].late_error.next = self.s2_late_error.q.val();
            self.upd[i].cnt_bad.next = self.s2_cnt_bad.q.val();
            self.upd[i].cnt.next = self.s2_cnt.q.val();
            self.upd[i].cnt64.next = self.s2_cnt64.q.val();
            self.upd[i].a64.next = self.s2_a64.q.val();
            self.upd[i].tx_big.next = self.s2_tx_big.q.val();
            self.upd[i].tx_hi.next = self.s2_tx_hi.q.val();
            self.upd[i].tx_lo.next = self.s2_tx_lo.q.val();
            self.upd[i].ndelta.next = self.s2_ndelta.q.val();
            self.upd[i].delta64.next = self.s2_delta64.q.val();
            self.upd[i].want.next = self.s2_want.q.val();
        }
        self.sel_fwd.next = self.s2_same.q.val() & self.fwd_valid.q.val();
        self.w_parity.next = self.upd[0].parity.val();
        self.phase_completes.next = self.upd[0].phase_completes.val();
        self.wait_complete.next = self.upd[0].wait_complete.val();
        self.error.next = self.upd[0].error.val();
        self.fail.next = self.upd[0].fail.val();
        self.new_word.next = self.upd[0].new_word.val();
        self.token.next = self.upd[0].token.val();
        if self.sel_fwd.val() {
            self.w_parity.next = self.upd[1].parity.val();
            self.phase_completes.next = self.upd[1].phase_completes.val();
            self.wait_complete.next = self.upd[1].wait_complete.val();
            self.error.next = self.upd[1].error.val();
            self.fail.next = self.upd[1].fail.val();
            self.new_word.next = self.upd[1].new_word.val();
            self.token.next = self.upd[1].token.val();
        }
        self.ok.next = self.s2_valid.q.val() & !self.fail.val();

        // Write-back and forwarding register. `we_hold` is the op in S1b, valid and of a writing
        // kind (registered in S1a), so the write enable is one gate after the failure OR.
        self.mem_we.next = self.we_hold.q.val() & !self.fail.val();
        self.mem_wr_slot.next = self.s2_slot.q.val();
        self.mem_wr_word.next = self.s2_word_addr.q.val();
        self.mem_wdata.next = self.new_word.val();
        self.fwd_valid.d.next = self.we_hold.q.val() & !self.fail.val();
        self.fwd_slot.d.next = self.s2_slot.q.val();
        self.fwd_word.d.next = self.s2_word_addr.q.val();
        self.fwd_data.d.next = self.new_word.val();

        // ---- waiter table ----
        // It sees S1b's events (allocate, complete, kill) and the timeout and launch inputs one
        // cycle late, all of them through the `p_*` registers, so its state is that of a table
        // updated in S1b, one cycle later; its answers (`wake_*`) come a cycle later too.
        // One answer per cycle: the highest-numbered ready entry.
        self.wake_index.next = self.k_zero_index.val();
        self.wake_valid.next = false;
        self.wake_cta.next = self.k_zero5.val();
        self.wake_warp.next = self.k_zero5.val();
        self.wake_lane.next = self.k_zero5.val();
        self.wake_pred.next = false;
        for i in 0..self.waiters.len() {
            if self.waiters[i].ready.val() {
                self.wake_valid.next = true;
                self.wake_index.next = i.to_bits();
                self.wake_cta.next = self.waiters[i].cta.val();
                self.wake_warp.next = self.waiters[i].warp.val();
                self.wake_lane.next = self.waiters[i].lane.val();
                self.wake_pred.next = self.waiters[i].answer.val();
            }
        }
        // Free entry for a try_wait in S1b: the highest-numbered free one that is not the one the
        // registered allocation is taking (from the entries' registers: no priority encoder of the
        // answers in front of it).
        self.free_found.next = false;
        self.free_index.next = self.k_zero_index.val();
        for i in 0..self.waiters.len() {
            if !self.waiters[i].busy.val() & !(self.p_alloc.q.val() & (self.p_index.q.val().index() == i)) {
                self.free_found.next = true;
                self.free_index.next = i.to_bits();
            }
        }
        // A try_wait on an incomplete phase suspends if an entry is free; with the table full it
        // answers False at once (as the golden unit does).
        self.suspend.next = self.ok.val() & self.s2_try.q.val() & !self.wait_complete.val() & self.free_found.val();
        self.p_alloc.d.next = self.suspend.val() & !self.reset.val();
        self.p_index.d.next = self.free_index.val();
        self.p_cta.d.next = self.s2_cta.q.val();
        self.p_warp.d.next = self.s2_warp.q.val();
        self.p_lane.d.next = self.s2_lane.q.val();
        self.p_slot.d.next = self.s2_slot.q.val();
        self.p_word.d.next = self.s2_word_addr.q.val();
        self.p_parity.d.next = self.w_parity.val();
        self.p_complete.d.next = self.ok.val() & self.phase_completes.val() & !self.reset.val();
        self.p_kill.d.next = self.ok.val() & self.s2_inval.q.val() & !self.reset.val();
        self.p_timeout.d.next = self.timeout.val() & !self.reset.val();
        self.p_launch.d.next = self.launch.val() & !self.reset.val();
        self.p_launch_slot.d.next = self.launch_slot.val();
        for i in 0..self.waiters.len() {
            self.waiters[i].clock.next = self.clock.val();
            self.waiters[i].reset.next = self.reset.val();
            self.waiters[i].alloc.next = self.p_alloc.q.val() & (self.p_index.q.val().index() == i);
            self.waiters[i].alloc_cta.next = self.p_cta.q.val();
            self.waiters[i].alloc_warp.next = self.p_warp.q.val();
            self.waiters[i].alloc_lane.next = self.p_lane.q.val();
            self.waiters[i].alloc_slot.next = self.p_slot.q.val();
            self.waiters[i].alloc_word.next = self.p_word.q.val();
            self.waiters[i].alloc_parity.next = self.p_parity.q.val();
            self.waiters[i].complete.next = self.p_complete.q.val();
            self.waiters[i].kill.next = self.p_kill.q.val();
            self.waiters[i].event_slot.next = self.p_slot.q.val();
            self.waiters[i].event_word.next = self.p_word.q.val();
            self.waiters[i].event_parity.next = self.p_parity.q.val();
            self.waiters[i].timeout.next = self.p_timeout.q.val();
            self.waiters[i].launch.next = self.p_launch.q.val();
            self.waiters[i].launch_slot.next = self.p_launch_slot.q.val();
            self.waiters[i].emitted.next = self.wake_valid.val() & (self.wake_index.val().index() == i);
        }

        // ================= S1b -> S2 registers =================
        self.o_valid.d.next = self.s2_valid.q.val() & !self.reset.val();
        self.o_cta.d.next = self.s2_cta.q.val();
        self.o_warp.d.next = self.s2_warp.q.val();
        self.o_lane.d.next = self.s2_lane.q.val();
        self.o_error.d.next = self.error.val();
        // (not gated by `ok`: a failed op's value is not part of its error response)
        self.o_value.d.next = self.k_zero.val();
        if self.s2_arrive.q.val() {
            self.o_value.d.next = self.token.val();
        }
        if self.s2_pcount.q.val() {
            self.o_value.d.next = self.s2_a64.q.val();
        }
        self.o_pred.d.next = self.ok.val() & self.s2_wait.q.val() & self.wait_complete.val();
        self.o_suspended.d.next = self.suspend.val();
        self.o_done.d.next = self.ok.val() & self.phase_completes.val() & !self.reset.val();
        self.o_done_slot.d.next = self.s2_slot.q.val();
        self.o_done_word.d.next = self.s2_word_addr.q.val();
        self.o_done_parity.d.next = !self.w_parity.val();

        // ================= S2: outputs =================
        self.resp_valid.next = self.o_valid.q.val();
        self.resp_cta.next = self.o_cta.q.val();
        self.resp_warp.next = self.o_warp.q.val();
        self.resp_lane.next = self.o_lane.q.val();
        self.resp_value.next = self.o_value.q.val();
        self.resp_pred.next = self.o_pred.q.val();
        self.resp_suspended.next = self.o_suspended.q.val();
        self.resp_error.next = self.o_error.q.val();
        self.done_valid.next = self.o_done.q.val();
        self.done_slot.next = self.o_done_slot.q.val();
        self.done_word.next = self.o_done_word.q.val();
        self.done_parity.next = self.o_done_parity.q.val();
    }
}
