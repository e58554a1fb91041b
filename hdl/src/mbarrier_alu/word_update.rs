//! S1b's work on one candidate word: the mbarrier op applied to a 64-bit mbarrier word (PTX ISA
//! §9.7.13.15), purely combinational.
//!
//! The unit instantiates it twice, on the word S1a registered (`s2_word`) and on the word the op
//! just ahead wrote (`fwd_data`), and selects the results by the registered address match
//! (`s2_same & fwd_valid`). So the forwarding mux sits after the arithmetic and the checks, not
//! in front of them: the one-cycle read-modify-write loop of back-to-back ops on one object is
//! register -> tx adder / count compares -> failure OR -> result select -> register.
//!
//! Every input but `word` is an S1a register of the op (`MbarrierAlu`'s `s2_*`); the widths and
//! the checks' order are those described in the unit's module doc ("Widths").

use rust_hdl::prelude::*;
use smsync_contract::encoding::{mbarrier_word as mw, state_token as st, ErrorCode};

use super::{COUNT_BITS, TXA_BITS};
use crate::common::{error_code, ERROR_BITS};

fn c64(v: u64) -> Constant<Bits<64>> {
    Constant::new(v.to_bits())
}

/// One op applied to one candidate word.
#[derive(LogicBlock)]
pub struct WordUpdate {
    /// The candidate mbarrier word.
    pub word: Signal<In, Bits<64>>,
    // ---- the op, decoded and checked in S1a ----
    pub init: Signal<In, Bit>,
    pub inval: Signal<In, Bit>,
    pub arrive: Signal<In, Bit>,
    pub drop: Signal<In, Bit>,
    pub expect_op: Signal<In, Bit>,
    pub complete_tx: Signal<In, Bit>,
    pub cp_inc: Signal<In, Bit>,
    pub tx_op: Signal<In, Bit>,
    /// `tx_op` and the check chain does not stop before the tx range (not `pre_stop`, not init).
    pub tx_checked: Signal<In, Bit>,
    pub nocomplete: Signal<In, Bit>,
    pub pre_stop: Signal<In, Bit>,
    pub pre_fail: Signal<In, Bit>,
    pub pre_error: Signal<In, Bits<ERROR_BITS>>,
    pub late_fail: Signal<In, Bit>,
    pub late_error: Signal<In, Bits<ERROR_BITS>>,
    pub cnt_bad: Signal<In, Bit>,
    pub cnt: Signal<In, Bits<COUNT_BITS>>,
    pub cnt64: Signal<In, Bits<64>>,
    pub a64: Signal<In, Bits<64>>,
    pub tx_big: Signal<In, Bit>,
    /// The op's tx-count bounds, sign bit flipped (`MbarrierAlu`'s `s2_tx_hi`, `s2_tx_lo`).
    pub tx_hi: Signal<In, Bits<TXA_BITS>>,
    pub tx_lo: Signal<In, Bits<TXA_BITS>>,
    pub ndelta: Signal<In, Bits<TXA_BITS>>,
    pub delta64: Signal<In, Bits<64>>,
    pub want: Signal<In, Bit>,
    // ---- results ----
    /// The word's phase parity (before the op).
    pub parity: Signal<Out, Bit>,
    pub phase_completes: Signal<Out, Bit>,
    /// waitComplete of test_wait / try_wait.
    pub wait_complete: Signal<Out, Bit>,
    /// The first failed check's code, in the golden unit's order.
    pub error: Signal<Out, Bits<ERROR_BITS>>,
    /// Some check failed (the same conditions as one OR).
    pub fail: Signal<Out, Bit>,
    pub new_word: Signal<Out, Bits<64>>,
    /// The state token of an arrive.
    pub token: Signal<Out, Bits<64>>,

    w_valid: Signal<Local, Bit>,
    w_parity: Signal<Local, Bit>,
    expected: Signal<Local, Bits<COUNT_BITS>>,
    pending: Signal<Local, Bits<COUNT_BITS>>,
    /// The fields zero-extended in 64-bit words for the data path.
    expected64: Signal<Local, Bits<64>>,
    pending64: Signal<Local, Bits<64>>,
    tx: Signal<Local, Bits<TXA_BITS>>,
    /// `tx` with its sign bit flipped: signed order as unsigned order.
    tx_s: Signal<Local, Bits<TXA_BITS>>,
    tx_zero: Signal<Local, Bit>,
    tx_bad: Signal<Local, Bit>,
    expected_new: Signal<Local, Bits<64>>,
    pending_new: Signal<Local, Bits<64>>,
    pending_final: Signal<Local, Bits<64>>,
    completes: Signal<Local, Bit>,
    fail_other: Signal<Local, Bit>,
    new_fields: Signal<Local, Bits<64>>,

    e_none: Constant<Bits<ERROR_BITS>>,
    e_init_live: Constant<Bits<ERROR_BITS>>,
    e_not_init: Constant<Bits<ERROR_BITS>>,
    e_arrive_count: Constant<Bits<ERROR_BITS>>,
    e_tx_range: Constant<Bits<ERROR_BITS>>,
    e_expected_underflow: Constant<Bits<ERROR_BITS>>,
    e_pending_underflow: Constant<Bits<ERROR_BITS>>,
    e_nocomplete_completed: Constant<Bits<ERROR_BITS>>,
    e_pending_overflow: Constant<Bits<ERROR_BITS>>,
    k_one: Constant<Bits<64>>,
    k_count_mask: Constant<Bits<64>>,
    k_tx_mask: Constant<Bits<64>>,
    /// The tx-count's 21 bits within 23, and their sign extension.
    k_tx_low23: Constant<Bits<TXA_BITS>>,
    k_tx_ext23: Constant<Bits<TXA_BITS>>,
    k_zero20: Constant<Bits<COUNT_BITS>>,
    k_count_max20: Constant<Bits<COUNT_BITS>>,
    /// The sign bit of a 23-bit two's-complement number.
    k_sign23: Constant<Bits<TXA_BITS>>,
    k_parity_bit: Constant<Bits<64>>,
    k_valid_bit: Constant<Bits<64>>,
    k_clear_valid: Constant<Bits<64>>,
    k_tok_nocomplete: Constant<Bits<64>>,
    k_tok_parity: Constant<Bits<64>>,
    k_tok_valid: Constant<Bits<64>>,
}

impl Default for WordUpdate {
    fn default() -> Self {
        let err = |e: ErrorCode| Constant::new(error_code(e));
        WordUpdate {
            word: Default::default(),
            init: Default::default(),
            inval: Default::default(),
            arrive: Default::default(),
            drop: Default::default(),
            expect_op: Default::default(),
            complete_tx: Default::default(),
            cp_inc: Default::default(),
            tx_op: Default::default(),
            tx_checked: Default::default(),
            nocomplete: Default::default(),
            pre_stop: Default::default(),
            pre_fail: Default::default(),
            pre_error: Default::default(),
            late_fail: Default::default(),
            late_error: Default::default(),
            cnt_bad: Default::default(),
            cnt: Default::default(),
            cnt64: Default::default(),
            a64: Default::default(),
            tx_big: Default::default(),
            tx_hi: Default::default(),
            tx_lo: Default::default(),
            ndelta: Default::default(),
            delta64: Default::default(),
            want: Default::default(),
            parity: Default::default(),
            phase_completes: Default::default(),
            wait_complete: Default::default(),
            error: Default::default(),
            fail: Default::default(),
            new_word: Default::default(),
            token: Default::default(),
            w_valid: Default::default(),
            w_parity: Default::default(),
            expected: Default::default(),
            pending: Default::default(),
            expected64: Default::default(),
            pending64: Default::default(),
            tx: Default::default(),
            tx_s: Default::default(),
            tx_zero: Default::default(),
            tx_bad: Default::default(),
            expected_new: Default::default(),
            pending_new: Default::default(),
            pending_final: Default::default(),
            completes: Default::default(),
            fail_other: Default::default(),
            new_fields: Default::default(),
            e_none: err(ErrorCode::None),
            e_init_live: err(ErrorCode::MbInitLive),
            e_not_init: err(ErrorCode::MbNotInitialized),
            e_arrive_count: err(ErrorCode::MbArriveCount),
            e_tx_range: err(ErrorCode::MbTxRange),
            e_expected_underflow: err(ErrorCode::MbExpectedUnderflow),
            e_pending_underflow: err(ErrorCode::MbPendingUnderflow),
            e_nocomplete_completed: err(ErrorCode::MbNoCompleteCompleted),
            e_pending_overflow: err(ErrorCode::MbPendingOverflow),
            k_one: c64(1),
            k_count_mask: c64(mw::COUNT_MAX as u64),
            k_tx_mask: c64((1 << mw::TX_BITS) - 1),
            k_tx_low23: Constant::new(((1u64 << mw::TX_BITS) - 1).to_bits()),
            k_tx_ext23: Constant::new((((1u64 << TXA_BITS) - 1) & !((1u64 << mw::TX_BITS) - 1)).to_bits()),
            k_zero20: Constant::new(0u64.to_bits()),
            k_count_max20: Constant::new((mw::COUNT_MAX as u64).to_bits()),
            k_sign23: Constant::new((1u64 << (TXA_BITS - 1)).to_bits()),
            k_parity_bit: c64(1 << mw::PARITY_BIT),
            k_valid_bit: c64(1 << mw::VALID_BIT),
            k_clear_valid: c64(!(1u64 << mw::VALID_BIT)),
            k_tok_nocomplete: c64(1 << st::NO_COMPLETE_BIT),
            k_tok_parity: c64(1 << st::PARITY_BIT),
            k_tok_valid: c64(1 << st::VALID_BIT),
        }
    }
}

impl Logic for WordUpdate {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- the word's fields (layout: `encoding::mbarrier_word`, pinned in the unit) ----
        self.w_valid.next = self.word.val().get_bit(62);
        self.w_parity.next = self.word.val().get_bit(61);
        self.parity.next = self.word.val().get_bit(61);
        self.expected.next = self.word.val().get_bits::<COUNT_BITS>(0);
        self.pending.next = self.word.val().get_bits::<COUNT_BITS>(20);
        self.expected64.next = self.word.val() & self.k_count_mask.val();
        self.pending64.next = (self.word.val() >> 20) & self.k_count_mask.val();
        // The 21-bit two's-complement tx-count (word bits 40..60), sign-extended to 23 bits.
        if self.word.val().get_bit(60) {
            self.tx.next = (self.word.val().get_bits::<TXA_BITS>(40) & self.k_tx_low23.val()) | self.k_tx_ext23.val();
        } else {
            self.tx.next = self.word.val().get_bits::<TXA_BITS>(40) & self.k_tx_low23.val();
        }

        // ---- arithmetic at the field widths ----
        self.tx_zero.next = self.tx.val() == self.ndelta.val();
        // |tx + delta| <= COUNT_MAX (PTX ISA §9.7.13.15.2) <=> tx_lo <= tx <= tx_hi: two compares
        // of registers, in parallel, instead of an adder and a range test of its sum.
        self.tx_s.next = self.tx.val() ^ self.k_sign23.val();
        self.tx_bad.next =
            self.tx_big.val() | (self.tx_s.val() > self.tx_hi.val()) | (self.tx_s.val() < self.tx_lo.val());
        // New counts (data only; the checks below keep them within 20 bits).
        self.expected_new.next = self.expected64.val();
        if self.drop.val() {
            self.expected_new.next = self.expected64.val() - self.cnt64.val();
        }
        self.pending_new.next = self.pending64.val();
        if self.arrive.val() {
            self.pending_new.next = self.pending64.val() - self.cnt64.val();
        }
        if self.cp_inc.val() {
            self.pending_new.next = self.pending64.val() + self.k_one.val();
        }
        // try_complete() after every arrive and every tx mutation (PTX ISA §9.7.13.15.6): pending
        // reaches 0 (an arrive of `pending` counts) and tx reaches 0, compared without the sums.
        self.completes.next = ((self.arrive.val() & (self.pending.val() == self.cnt.val()))
            | ((self.expect_op.val() | self.complete_tx.val()) & (self.pending.val() == self.k_zero20.val())))
            & self.tx_zero.val();
        self.phase_completes.next = self.completes.val();
        self.wait_complete.next = self.want.val() != self.w_parity.val();

        // ---- errors, in the golden unit's order of checks ----
        self.error.next = self.late_error.val();
        if self.pre_stop.val() {
            self.error.next = self.pre_error.val();
        } else if self.init.val() {
            self.error.next = self.e_none.val();
            if self.w_valid.val() {
                self.error.next = self.e_init_live.val();
            }
        } else if !self.w_valid.val() {
            self.error.next = self.e_not_init.val();
        } else if self.arrive.val() & self.cnt_bad.val() {
            self.error.next = self.e_arrive_count.val();
        } else if self.arrive.val() & self.tx_op.val() & self.tx_bad.val() {
            self.error.next = self.e_tx_range.val();
        } else if self.drop.val() & (self.cnt.val() >= self.expected.val()) {
            self.error.next = self.e_expected_underflow.val();
        } else if self.arrive.val() & (self.cnt.val() > self.pending.val()) {
            self.error.next = self.e_pending_underflow.val();
        } else if self.arrive.val() & self.nocomplete.val() & self.completes.val() {
            self.error.next = self.e_nocomplete_completed.val();
        } else if self.tx_op.val() & self.tx_bad.val() {
            self.error.next = self.e_tx_range.val();
        } else if self.cp_inc.val() & (self.pending.val() == self.k_count_max20.val()) {
            self.error.next = self.e_pending_overflow.val();
        }
        // The same conditions as one OR (the order matters only for which code is reported), so
        // that the write enable does not wait for the priority chain; the tx range compares, the
        // longest terms, enter last (`tx_checked`: a tx op whose chain did not stop earlier).
        if self.pre_stop.val() {
            self.fail_other.next = self.pre_fail.val();
        } else if self.init.val() {
            self.fail_other.next = self.w_valid.val();
        } else {
            self.fail_other.next = !self.w_valid.val()
                | (self.arrive.val() & self.cnt_bad.val())
                | (self.tx_op.val() & self.tx_big.val())
                | (self.drop.val() & (self.cnt.val() >= self.expected.val()))
                | (self.arrive.val() & (self.cnt.val() > self.pending.val()))
                | (self.arrive.val() & self.nocomplete.val() & self.completes.val())
                | (self.cp_inc.val() & (self.pending.val() == self.k_count_max20.val()))
                | self.late_fail.val();
        }
        self.fail.next = self.fail_other.val()
            | (self.tx_checked.val() & ((self.tx_s.val() > self.tx_hi.val()) | (self.tx_s.val() < self.tx_lo.val())));

        // ---- the new word: on completion the parity flips and pending reloads from expected ----
        self.pending_final.next = self.pending_new.val();
        if self.completes.val() {
            self.pending_final.next = self.expected_new.val();
        }
        // (tx field: the low 21 bits of tx + delta, a 21-bit adder after trimming)
        self.new_fields.next = (self.expected_new.val() & self.k_count_mask.val())
            | ((self.pending_final.val() & self.k_count_mask.val()) << 20)
            | ((((self.word.val() >> 40) + self.delta64.val()) & self.k_tx_mask.val()) << 40)
            | self.k_valid_bit.val();
        self.new_word.next = self.new_fields.val();
        if self.w_parity.val() != self.completes.val() {
            self.new_word.next = self.new_fields.val() | self.k_parity_bit.val();
        }
        if self.init.val() {
            self.new_word.next = self.a64.val() | (self.a64.val() << 20) | self.k_valid_bit.val();
        }
        if self.inval.val() {
            self.new_word.next = self.word.val() & self.k_clear_valid.val();
        }

        // Token: pending before the arrive, .noComplete, parity before the arrive, valid.
        self.token.next = self.pending64.val() | self.k_tok_valid.val();
        if self.nocomplete.val() & !self.w_parity.val() {
            self.token.next = self.pending64.val() | self.k_tok_valid.val() | self.k_tok_nocomplete.val();
        }
        if !self.nocomplete.val() & self.w_parity.val() {
            self.token.next = self.pending64.val() | self.k_tok_valid.val() | self.k_tok_parity.val();
        }
        if self.nocomplete.val() & self.w_parity.val() {
            self.token.next =
                self.pending64.val() | self.k_tok_valid.val() | self.k_tok_nocomplete.val() | self.k_tok_parity.val();
        }
    }
}
