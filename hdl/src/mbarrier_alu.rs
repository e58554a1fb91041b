//! mbarrier arithmetic unit: a pipelined read-modify-write of the 64-bit mbarrier word in shared
//! memory, plus the waiter table of suspended `mbarrier.try_wait`s.
//!
//! Behaviour, error codes and token bits are those of the golden unit
//! (`smsync_sim::units::mbarrier_alu`, digest §15); every number comes from
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
//!  cycle t    S0  request in; read address to shared memory (mem_rd_*)
//!  cycle t+1  S1  word = mem_rdata, or the word written at the end of cycle t when it is the same
//!                 object (forwarding: the memory read of t ran before that write landed);
//!                 compute errors / new word / token / wait result; write back (mem_we, mem_wr_*);
//!                 waiter table: allocate (suspending try_wait) and match (phase completion, inval)
//!  cycle t+2  S2  response registers (resp_*) and the phase-completed strobe (done_*)
//! ```
//!
//! The memory port has a separate read and write address (a 1R1W block RAM per CTA slot):
//! `mem_rdata` in cycle t+1 is the word at the address presented in cycle t (synchronous read).
//! Whether the RAM returns old or new data on a same-cycle read/write collision does not matter:
//! the forwarding path covers it.
//!
//! # Widths
//!
//! Arithmetic runs on 64-bit values (the word's fields extracted with masks, the tx-count sign
//! extended), so that every operator sees equal widths (lint-clean Verilog without casts); the
//! operand ranges are exact because |tx| < 2^20 and the operands are u32.

use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, mbarrier_word as mw, state_token as st, ErrorCode, Op};

use crate::common::{error_code, op_code, ERROR_BITS, FLAG_BITS, OP_BITS};

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
        if (self.launch.val() & (self.launch_slot.val() == self.w_cta.q.val())) | self.reset.val() {
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
    pub mem_we: Signal<Out, Bit>,
    pub mem_wr_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub mem_wr_word: Signal<Out, Bits<WORD_BITS>>,
    pub mem_wdata: Signal<Out, Bits<64>>,

    // ---- response (two cycles after the request) ----
    pub resp_valid: Signal<Out, Bit>,
    pub resp_cta: Signal<Out, Bits<SLOT_BITS>>,
    pub resp_warp: Signal<Out, Bits<WARP_BITS>>,
    pub resp_lane: Signal<Out, Bits<LANE_BITS>>,
    /// Token of arrive/arrive_drop, count of pending_count, else 0.
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

    // ---- S1 pipeline registers ----
    s1_valid: DFF<Bit>,
    s1_op: DFF<Bits<OP_BITS>>,
    s1_flags: DFF<Bits<FLAG_BITS>>,
    s1_cta: DFF<Bits<SLOT_BITS>>,
    s1_warp: DFF<Bits<WARP_BITS>>,
    s1_lane: DFF<Bits<LANE_BITS>>,
    s1_slot: DFF<Bits<SLOT_BITS>>,
    s1_addr: DFF<Bits<64>>,
    s1_a: DFF<Bits<64>>,
    s1_b: DFF<Bits<64>>,
    // ---- forwarding register: the write of the previous cycle ----
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

    // ---- S1 combinational values ----
    s1_word_addr: Signal<Local, Bits<WORD_BITS>>,
    word: Signal<Local, Bits<64>>,
    w_valid: Signal<Local, Bit>,
    w_parity: Signal<Local, Bit>,
    expected: Signal<Local, Bits<64>>,
    pending: Signal<Local, Bits<64>>,
    tx: Signal<Local, Bits<64>>,
    is_init: Signal<Local, Bit>,
    is_inval: Signal<Local, Bit>,
    is_arrive: Signal<Local, Bit>,
    is_drop: Signal<Local, Bit>,
    is_expect: Signal<Local, Bit>,
    is_complete_tx: Signal<Local, Bit>,
    is_wait: Signal<Local, Bit>,
    is_try: Signal<Local, Bit>,
    is_pcount: Signal<Local, Bit>,
    is_cp_arrive: Signal<Local, Bit>,
    is_known: Signal<Local, Bit>,
    f_nocomplete: Signal<Local, Bit>,
    f_expect_tx: Signal<Local, Bit>,
    f_parity: Signal<Local, Bit>,
    f_noinc: Signal<Local, Bit>,
    arrive_count: Signal<Local, Bits<64>>,
    tx_add: Signal<Local, Bits<64>>,
    tx_sub: Signal<Local, Bits<64>>,
    tx_new: Signal<Local, Bits<64>>,
    tx_bad: Signal<Local, Bit>,
    expected_new: Signal<Local, Bits<64>>,
    pending_new: Signal<Local, Bits<64>>,
    pending_final: Signal<Local, Bits<64>>,
    phase_completes: Signal<Local, Bit>,
    wait_complete: Signal<Local, Bit>,
    error: Signal<Local, Bits<ERROR_BITS>>,
    ok: Signal<Local, Bit>,
    writes: Signal<Local, Bit>,
    new_word: Signal<Local, Bits<64>>,
    suspend: Signal<Local, Bit>,
    token: Signal<Local, Bits<64>>,
    free_found: Signal<Local, Bit>,
    free_index: Signal<Local, Bits<WAITER_INDEX_BITS>>,
    wake_index: Signal<Local, Bits<WAITER_INDEX_BITS>>,

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
    e_init_live: Constant<Bits<ERROR_BITS>>,
    e_not_init: Constant<Bits<ERROR_BITS>>,
    e_arrive_count: Constant<Bits<ERROR_BITS>>,
    e_tx_range: Constant<Bits<ERROR_BITS>>,
    e_expected_underflow: Constant<Bits<ERROR_BITS>>,
    e_pending_underflow: Constant<Bits<ERROR_BITS>>,
    e_nocomplete_completed: Constant<Bits<ERROR_BITS>>,
    e_pending_overflow: Constant<Bits<ERROR_BITS>>,
    e_parity_range: Constant<Bits<ERROR_BITS>>,
    e_stale_token: Constant<Bits<ERROR_BITS>>,
    e_pcount_token: Constant<Bits<ERROR_BITS>>,
    k_zero: Constant<Bits<64>>,
    k_zero5: Constant<Bits<5>>,
    k_zero_index: Constant<Bits<WAITER_INDEX_BITS>>,
    k_one: Constant<Bits<64>>,
    k_align_mask: Constant<Bits<64>>,
    k_count_mask: Constant<Bits<64>>,
    k_tx_mask: Constant<Bits<64>>,
    k_u32_mask: Constant<Bits<64>>,
    k_tx_sign_ext: Constant<Bits<64>>,
    k_count_max: Constant<Bits<64>>,
    k_tx_span: Constant<Bits<64>>,
    k_parity_bit: Constant<Bits<64>>,
    k_valid_bit: Constant<Bits<64>>,
    k_clear_valid: Constant<Bits<64>>,
    k_tok_nocomplete: Constant<Bits<64>>,
    k_tok_parity: Constant<Bits<64>>,
    k_tok_valid: Constant<Bits<64>>,
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
            s1_op: Default::default(),
            s1_flags: Default::default(),
            s1_cta: Default::default(),
            s1_warp: Default::default(),
            s1_lane: Default::default(),
            s1_slot: Default::default(),
            s1_addr: Default::default(),
            s1_a: Default::default(),
            s1_b: Default::default(),
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
            s1_word_addr: Default::default(),
            word: Default::default(),
            w_valid: Default::default(),
            w_parity: Default::default(),
            expected: Default::default(),
            pending: Default::default(),
            tx: Default::default(),
            is_init: Default::default(),
            is_inval: Default::default(),
            is_arrive: Default::default(),
            is_drop: Default::default(),
            is_expect: Default::default(),
            is_complete_tx: Default::default(),
            is_wait: Default::default(),
            is_try: Default::default(),
            is_pcount: Default::default(),
            is_cp_arrive: Default::default(),
            is_known: Default::default(),
            f_nocomplete: Default::default(),
            f_expect_tx: Default::default(),
            f_parity: Default::default(),
            f_noinc: Default::default(),
            arrive_count: Default::default(),
            tx_add: Default::default(),
            tx_sub: Default::default(),
            tx_new: Default::default(),
            tx_bad: Default::default(),
            expected_new: Default::default(),
            pending_new: Default::default(),
            pending_final: Default::default(),
            phase_completes: Default::default(),
            wait_complete: Default::default(),
            error: Default::default(),
            ok: Default::default(),
            writes: Default::default(),
            new_word: Default::default(),
            suspend: Default::default(),
            token: Default::default(),
            free_found: Default::default(),
            free_index: Default::default(),
            wake_index: Default::default(),
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
            e_init_live: err(ErrorCode::MbInitLive),
            e_not_init: err(ErrorCode::MbNotInitialized),
            e_arrive_count: err(ErrorCode::MbArriveCount),
            e_tx_range: err(ErrorCode::MbTxRange),
            e_expected_underflow: err(ErrorCode::MbExpectedUnderflow),
            e_pending_underflow: err(ErrorCode::MbPendingUnderflow),
            e_nocomplete_completed: err(ErrorCode::MbNoCompleteCompleted),
            e_pending_overflow: err(ErrorCode::MbPendingOverflow),
            e_parity_range: err(ErrorCode::MbParityRange),
            e_stale_token: err(ErrorCode::MbStaleToken),
            e_pcount_token: err(ErrorCode::MbPendingCountToken),
            k_zero: c64(0),
            k_zero5: Constant::new(0u64.to_bits()),
            k_zero_index: Constant::new(0u64.to_bits()),
            k_one: c64(1),
            k_align_mask: c64(7),
            k_count_mask: c64(count_max),
            k_tx_mask: c64((1 << mw::TX_BITS) - 1),
            k_u32_mask: c64(u32::MAX as u64),
            k_tx_sign_ext: c64(!0u64 << mw::TX_BITS),
            k_count_max: c64(count_max),
            // |tx| <= COUNT_MAX  <=>  tx + COUNT_MAX (mod 2^64) <= 2 * COUNT_MAX
            k_tx_span: c64(2 * count_max),
            k_parity_bit: c64(1 << mw::PARITY_BIT),
            k_valid_bit: c64(1 << mw::VALID_BIT),
            k_clear_valid: c64(!(1u64 << mw::VALID_BIT)),
            k_tok_nocomplete: c64(1 << st::NO_COMPLETE_BIT),
            k_tok_parity: c64(1 << st::PARITY_BIT),
            k_tok_valid: c64(1 << st::VALID_BIT),
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

// The field extraction below shifts by the layout's LSB positions; they are literals in the HDL
// kernel (rust-hdl cannot name Rust constants there), so pin them to the table at compile time.
const _: () = assert!(
    mw::EXPECTED_LSB == 0
        && mw::PENDING_LSB == 20
        && mw::TX_LSB == 40
        && mw::COUNT_BITS == 20
        && mw::TX_BITS == 21
        && mw::PARITY_BIT == 61
        && mw::VALID_BIT == 62
        && st::PENDING_LSB == 0
        && st::NO_COMPLETE_BIT == 20
        && st::PARITY_BIT == 21
        && st::VALID_BIT == 63
);

impl Logic for MbarrierAlu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            s1_valid,
            s1_op,
            s1_flags,
            s1_cta,
            s1_warp,
            s1_lane,
            s1_slot,
            s1_addr,
            s1_a,
            s1_b,
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
            o_done_parity
        );

        // ================= S0: accept the request, read the word =================
        self.mem_rd.next = self.req_valid.val() & (self.req_op.val() != self.op_pcount.val());
        self.mem_rd_slot.next = self.req_slot.val();
        self.mem_rd_word.next = self.req_addr.val().get_bits::<WORD_BITS>(3);
        self.s1_valid.d.next = self.req_valid.val() & !self.reset.val();
        self.s1_op.d.next = self.req_op.val();
        self.s1_flags.d.next = self.req_flags.val();
        self.s1_cta.d.next = self.req_cta.val();
        self.s1_warp.d.next = self.req_warp.val();
        self.s1_lane.d.next = self.req_lane.val();
        self.s1_slot.d.next = self.req_slot.val();
        self.s1_addr.d.next = self.req_addr.val();
        self.s1_a.d.next = self.req_a.val();
        self.s1_b.d.next = self.req_b.val();

        // ================= S1: compute =================
        self.s1_word_addr.next = self.s1_addr.q.val().get_bits::<WORD_BITS>(3);
        // Forwarding: the previous cycle's write-back is not yet visible in the read data.
        self.word.next = self.mem_rdata.val();
        if self.fwd_valid.q.val()
            & (self.fwd_slot.q.val() == self.s1_slot.q.val())
            & (self.fwd_word.q.val() == self.s1_word_addr.val())
        {
            self.word.next = self.fwd_data.q.val();
        }
        self.w_valid.next = self.word.val().get_bit(62);
        self.w_parity.next = self.word.val().get_bit(61);
        self.expected.next = self.word.val() & self.k_count_mask.val();
        self.pending.next = (self.word.val() >> 20) & self.k_count_mask.val();
        // 21-bit two's-complement tx-count, sign-extended to 64 bits.
        self.tx.next = (self.word.val() >> 40) & self.k_tx_mask.val();
        if self.word.val().get_bit(60) {
            self.tx.next = ((self.word.val() >> 40) & self.k_tx_mask.val()) | self.k_tx_sign_ext.val();
        }

        // Op and flag decode.
        self.is_init.next = self.s1_op.q.val() == self.op_init.val();
        self.is_inval.next = self.s1_op.q.val() == self.op_inval.val();
        self.is_arrive.next = (self.s1_op.q.val() == self.op_arrive.val()) | (self.s1_op.q.val() == self.op_drop.val());
        self.is_drop.next = self.s1_op.q.val() == self.op_drop.val();
        self.is_expect.next = self.s1_op.q.val() == self.op_expect.val();
        self.is_complete_tx.next = self.s1_op.q.val() == self.op_complete.val();
        self.is_wait.next = (self.s1_op.q.val() == self.op_test.val()) | (self.s1_op.q.val() == self.op_try.val());
        self.is_try.next = self.s1_op.q.val() == self.op_try.val();
        self.is_pcount.next = self.s1_op.q.val() == self.op_pcount.val();
        self.is_cp_arrive.next = self.s1_op.q.val() == self.op_cp_arrive.val();
        self.is_known.next = self.is_init.val()
            | self.is_inval.val()
            | self.is_arrive.val()
            | self.is_expect.val()
            | self.is_complete_tx.val()
            | self.is_wait.val()
            | self.is_cp_arrive.val();
        self.f_nocomplete.next = (self.s1_flags.q.val() & self.flag_nocomplete.val()).any();
        self.f_expect_tx.next = (self.s1_flags.q.val() & self.flag_expect_tx.val()).any();
        self.f_parity.next = (self.s1_flags.q.val() & self.flag_parity.val()).any();
        self.f_noinc.next = (self.s1_flags.q.val() & self.flag_noinc.val()).any();

        // Arithmetic of every mutating op (selected by the decode below).
        // arrive.expect_tx arrives with count 1; its txCount is operand b.
        self.arrive_count.next = self.s1_a.q.val();
        if self.f_expect_tx.val() {
            self.arrive_count.next = self.k_one.val();
        }
        self.tx_add.next = self.k_zero.val();
        self.tx_sub.next = self.k_zero.val();
        if self.is_arrive.val() & self.f_expect_tx.val() {
            self.tx_add.next = self.s1_b.q.val() & self.k_u32_mask.val();
        }
        if self.is_expect.val() {
            self.tx_add.next = self.s1_a.q.val() & self.k_u32_mask.val();
        }
        if self.is_complete_tx.val() {
            self.tx_sub.next = self.s1_a.q.val() & self.k_u32_mask.val();
        }
        self.tx_new.next = self.tx.val() + self.tx_add.val() - self.tx_sub.val();
        self.tx_bad.next = (self.tx_new.val() + self.k_count_max.val()) > self.k_tx_span.val();
        self.expected_new.next = self.expected.val();
        if self.is_drop.val() {
            self.expected_new.next = self.expected.val() - self.arrive_count.val();
        }
        self.pending_new.next = self.pending.val();
        if self.is_arrive.val() {
            self.pending_new.next = self.pending.val() - self.arrive_count.val();
        }
        if self.is_cp_arrive.val() & !self.f_noinc.val() {
            self.pending_new.next = self.pending.val() + self.k_one.val();
        }
        // try_complete(): evaluated after every arrive and every tx mutation (digest §22.1).
        self.phase_completes.next = (self.is_arrive.val() | self.is_expect.val() | self.is_complete_tx.val())
            & (self.pending_new.val() == self.k_zero.val())
            & (self.tx_new.val() == self.k_zero.val());
        // waitComplete: the awaited phase is the one before the current (parity differs).
        if self.f_parity.val() {
            self.wait_complete.next = (self.s1_a.q.val() == self.k_one.val()) != self.w_parity.val();
        } else {
            self.wait_complete.next = self.s1_a.q.val().get_bit(21) != self.w_parity.val();
        }

        // Errors, in the golden unit's order of checks.
        self.error.next = self.e_none.val();
        if self.is_pcount.val() {
            if !(self.s1_a.q.val().get_bit(63) & self.s1_a.q.val().get_bit(20)) {
                self.error.next = self.e_pcount_token.val();
            }
        } else if (self.s1_addr.q.val() & self.k_align_mask.val()) != self.k_zero.val() {
            self.error.next = self.e_align.val();
        } else if !self.is_known.val() {
            self.error.next = self.e_not_built.val();
        } else if self.is_init.val()
            & ((self.s1_a.q.val() == self.k_zero.val()) | (self.s1_a.q.val() > self.k_count_max.val()))
        {
            self.error.next = self.e_init_count.val();
        } else if (self.s1_addr.q.val() > self.k_last_offset.val()) | (self.s1_slot.q.val() > self.k_last_slot.val()) {
            self.error.next = self.e_shared_range.val();
        } else if self.is_init.val() {
            if self.w_valid.val() {
                self.error.next = self.e_init_live.val();
            }
        } else if !self.w_valid.val() {
            self.error.next = self.e_not_init.val();
        } else if self.is_arrive.val()
            & ((self.arrive_count.val() == self.k_zero.val()) | (self.arrive_count.val() > self.k_count_max.val()))
        {
            self.error.next = self.e_arrive_count.val();
        } else if self.is_arrive.val() & self.f_expect_tx.val() & self.tx_bad.val() {
            self.error.next = self.e_tx_range.val();
        } else if self.is_drop.val() & (self.arrive_count.val() >= self.expected.val()) {
            self.error.next = self.e_expected_underflow.val();
        } else if self.is_arrive.val() & (self.arrive_count.val() > self.pending.val()) {
            self.error.next = self.e_pending_underflow.val();
        } else if self.is_arrive.val() & self.f_nocomplete.val() & self.phase_completes.val() {
            self.error.next = self.e_nocomplete_completed.val();
        } else if (self.is_expect.val() | self.is_complete_tx.val()) & self.tx_bad.val() {
            self.error.next = self.e_tx_range.val();
        } else if self.is_cp_arrive.val() & !self.f_noinc.val() & (self.pending.val() >= self.k_count_max.val()) {
            self.error.next = self.e_pending_overflow.val();
        } else if self.is_wait.val() & self.f_parity.val() & (self.s1_a.q.val() > self.k_one.val()) {
            self.error.next = self.e_parity_range.val();
        } else if self.is_wait.val() & !self.f_parity.val() & !self.s1_a.q.val().get_bit(63) {
            self.error.next = self.e_stale_token.val();
        }
        self.ok.next = self.s1_valid.q.val() & (self.error.val() == self.e_none.val());

        // The new word: on completion the parity flips and pending reloads from expected.
        self.pending_final.next = self.pending_new.val();
        if self.phase_completes.val() {
            self.pending_final.next = self.expected_new.val();
        }
        self.new_word.next = (self.expected_new.val() & self.k_count_mask.val())
            | ((self.pending_final.val() & self.k_count_mask.val()) << 20)
            | ((self.tx_new.val() & self.k_tx_mask.val()) << 40)
            | self.k_valid_bit.val();
        if self.w_parity.val() != self.phase_completes.val() {
            self.new_word.next = (self.expected_new.val() & self.k_count_mask.val())
                | ((self.pending_final.val() & self.k_count_mask.val()) << 20)
                | ((self.tx_new.val() & self.k_tx_mask.val()) << 40)
                | self.k_valid_bit.val()
                | self.k_parity_bit.val();
        }
        if self.is_init.val() {
            self.new_word.next = (self.s1_a.q.val() & self.k_count_mask.val())
                | ((self.s1_a.q.val() & self.k_count_mask.val()) << 20)
                | self.k_valid_bit.val();
        }
        if self.is_inval.val() {
            self.new_word.next = self.word.val() & self.k_clear_valid.val();
        }
        self.writes.next = self.is_init.val()
            | self.is_inval.val()
            | self.is_arrive.val()
            | self.is_expect.val()
            | self.is_complete_tx.val()
            | (self.is_cp_arrive.val() & !self.f_noinc.val());

        // Token: pending before the arrive, .noComplete, parity before the arrive, valid.
        self.token.next = self.pending.val() | self.k_tok_valid.val();
        if self.f_nocomplete.val() & !self.w_parity.val() {
            self.token.next = self.pending.val() | self.k_tok_valid.val() | self.k_tok_nocomplete.val();
        }
        if !self.f_nocomplete.val() & self.w_parity.val() {
            self.token.next = self.pending.val() | self.k_tok_valid.val() | self.k_tok_parity.val();
        }
        if self.f_nocomplete.val() & self.w_parity.val() {
            self.token.next =
                self.pending.val() | self.k_tok_valid.val() | self.k_tok_nocomplete.val() | self.k_tok_parity.val();
        }

        // Write-back and forwarding register.
        self.mem_we.next = self.ok.val() & self.writes.val();
        self.mem_wr_slot.next = self.s1_slot.q.val();
        self.mem_wr_word.next = self.s1_word_addr.val();
        self.mem_wdata.next = self.new_word.val();
        self.fwd_valid.d.next = self.ok.val() & self.writes.val() & !self.reset.val();
        self.fwd_slot.d.next = self.s1_slot.q.val();
        self.fwd_word.d.next = self.s1_word_addr.val();
        self.fwd_data.d.next = self.new_word.val();

        // ---- waiter table ----
        // Free entry: the highest-numbered free one (a later loop iteration overrides).
        self.free_found.next = false;
        self.free_index.next = self.k_zero_index.val();
        self.wake_index.next = self.k_zero_index.val();
        self.wake_valid.next = false;
        self.wake_cta.next = self.k_zero5.val();
        self.wake_warp.next = self.k_zero5.val();
        self.wake_lane.next = self.k_zero5.val();
        self.wake_pred.next = false;
        for i in 0..self.waiters.len() {
            if !self.waiters[i].busy.val() {
                self.free_found.next = true;
                self.free_index.next = i.to_bits();
            }
            // One answer per cycle: the highest-numbered ready entry.
            if self.waiters[i].ready.val() {
                self.wake_valid.next = true;
                self.wake_index.next = i.to_bits();
                self.wake_cta.next = self.waiters[i].cta.val();
                self.wake_warp.next = self.waiters[i].warp.val();
                self.wake_lane.next = self.waiters[i].lane.val();
                self.wake_pred.next = self.waiters[i].answer.val();
            }
        }
        // A try_wait on an incomplete phase suspends if an entry is free; with the table full it
        // answers False at once (as the golden unit does).
        self.suspend.next = self.ok.val() & self.is_try.val() & !self.wait_complete.val() & self.free_found.val();
        for i in 0..self.waiters.len() {
            self.waiters[i].clock.next = self.clock.val();
            self.waiters[i].reset.next = self.reset.val();
            self.waiters[i].alloc.next = self.suspend.val() & (self.free_index.val().index() == i);
            self.waiters[i].alloc_cta.next = self.s1_cta.q.val();
            self.waiters[i].alloc_warp.next = self.s1_warp.q.val();
            self.waiters[i].alloc_lane.next = self.s1_lane.q.val();
            self.waiters[i].alloc_slot.next = self.s1_slot.q.val();
            self.waiters[i].alloc_word.next = self.s1_word_addr.val();
            self.waiters[i].alloc_parity.next = self.w_parity.val();
            self.waiters[i].complete.next = self.ok.val() & self.phase_completes.val();
            self.waiters[i].kill.next = self.ok.val() & self.is_inval.val();
            self.waiters[i].event_slot.next = self.s1_slot.q.val();
            self.waiters[i].event_word.next = self.s1_word_addr.val();
            self.waiters[i].event_parity.next = self.w_parity.val();
            self.waiters[i].timeout.next = self.timeout.val();
            self.waiters[i].launch.next = self.launch.val();
            self.waiters[i].launch_slot.next = self.launch_slot.val();
            self.waiters[i].emitted.next = self.wake_valid.val() & (self.wake_index.val().index() == i);
        }

        // ================= S1 -> S2 registers =================
        self.o_valid.d.next = self.s1_valid.q.val() & !self.reset.val();
        self.o_cta.d.next = self.s1_cta.q.val();
        self.o_warp.d.next = self.s1_warp.q.val();
        self.o_lane.d.next = self.s1_lane.q.val();
        self.o_error.d.next = self.error.val();
        self.o_value.d.next = self.k_zero.val();
        if self.ok.val() & self.is_arrive.val() {
            self.o_value.d.next = self.token.val();
        }
        if self.ok.val() & self.is_pcount.val() {
            self.o_value.d.next = self.s1_a.q.val() & self.k_count_mask.val();
        }
        self.o_pred.d.next = self.ok.val() & self.is_wait.val() & self.wait_complete.val();
        self.o_suspended.d.next = self.suspend.val();
        self.o_done.d.next = self.ok.val() & self.phase_completes.val() & !self.reset.val();
        self.o_done_slot.d.next = self.s1_slot.q.val();
        self.o_done_word.d.next = self.s1_word_addr.val();
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
