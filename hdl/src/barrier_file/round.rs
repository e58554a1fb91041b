//! Stage U of the barrier file: one named barrier's round against one arrival (or a completion
//! check of the exit sweep), PTX ISA §9.7.13.1. Combinational; `BarrierFile` feeds it the round
//! read from the round RAM (or forwarded from the previous cycle's write) and writes back what it
//! computes.
//!
//! The round word (as stored in the RAM, `RoundWord` packing below):
//! * `count_warps`: the thread count `b` in warps, 0 for a whole-CTA round (b is a non-zero
//!   multiple of 32 when given, so 0 is free to mean "no b");
//! * `kind`: 0 for bar.sync / bar.arrive, else the red op's code (its low 3 bits: popc, and, or);
//! * `left`: arrivals a counted round still needs (count_warps - arrivals);
//! * `popc`, `all`: the bar.red accumulators (`any` is `popc != 0`);
//! * `arrived`, `waiting`: warp masks (kept in RAMs of their own);
//! * `partial`: the warps part of whose live lanes have arrived (a divergent warp's arrival
//!   comes in several requests, PTX ISA §9.7.13.1: the barrier counts a warp once all its
//!   non-exited threads have arrived), in a RAM of its own.
//!
//! Per (barrier, warp), the lane word (`LANES_*`, a RAM of its own addressed {slot, id, warp}):
//! the warp's lanes that have arrived in this round so far (meaningful while its `partial` bit is
//! set) and its lanes that wait for the release (meaningful while its `waiting` bit is set; the
//! top answers them with one response at the release).
//!
//! Whether the barrier is in a round (`active`) lives in flip-flops beside the RAM (a CTA launch
//! clears every barrier of its slot at once), so a round's RAM word is meaningful only while it
//! is active; a new round overwrites it.

use rust_hdl::prelude::*;
use smsync_contract::encoding::ErrorCode;

use super::{KIND_BITS, POPC_BITS, WARP_COUNT_BITS, WARP_MASK_BITS};
use crate::common::{error_code, ERROR_BITS};

/// Bit offsets of the round word's fields in the `meta` RAM (`arrived` and `waiting` have their own).
pub const META_ALL: usize = 0;
pub const META_KIND: usize = 1;
pub const META_COUNT: usize = META_KIND + KIND_BITS;
pub const META_LEFT: usize = META_COUNT + WARP_COUNT_BITS;
pub const META_POPC: usize = META_LEFT + WARP_COUNT_BITS;
pub const META_BITS: usize = META_POPC + POPC_BITS;
// `update()` spells the offsets as literals (rust-hdl's generator writes a constant's name into
// the Verilog as a signal name): keep them equal to the constants above.
/// The lane word: arrived lanes in bits 0..32, waiting lanes in bits 32..64.
pub const LANES_BITS: usize = 64;

const _: () = assert!(
    META_ALL == 0 && META_KIND == 1 && META_COUNT == 4 && META_LEFT == 10 && META_POPC == 16 && META_BITS == 27
);

#[derive(LogicBlock)]
pub struct RoundUpdate {
    /// A named-barrier arrival that passed the request-only checks.
    pub hit: Signal<In, Bit>,
    /// An exit-sweep check: does the whole-CTA round complete with the slot's live warps now?
    pub check: Signal<In, Bit>,
    /// A divergent warp's finish: its partial arrival of the cycle before covered its live
    /// lanes (`lanes_complete` then); the warp arrives now, with nothing more to contribute.
    pub finish: Signal<In, Bit>,
    /// The barrier is in a round, and its round word.
    pub active: Signal<In, Bit>,
    pub cur_meta: Signal<In, Bits<META_BITS>>,
    pub cur_arrived: Signal<In, Bits<WARP_MASK_BITS>>,
    pub cur_waiting: Signal<In, Bits<WARP_MASK_BITS>>,
    pub cur_partial: Signal<In, Bits<WARP_MASK_BITS>>,
    /// The arriving warp's lane word as stored (meaningful as the masks above say).
    pub cur_lanes: Signal<In, Bits<LANES_BITS>>,
    /// The arrival (registered in stage D): its kind and thread count in the round word's coding,
    /// the arrivals a new counted round still needs after it and whether it completes one.
    pub req_kind: Signal<In, Bits<KIND_BITS>>,
    pub req_count_warps: Signal<In, Bits<WARP_COUNT_BITS>>,
    pub req_left1: Signal<In, Bits<WARP_COUNT_BITS>>,
    pub req_first_done: Signal<In, Bit>,
    /// bar.sync / bar.red: the warp waits for the release.
    pub req_blocking: Signal<In, Bit>,
    pub req_warp_bit: Signal<In, Bits<WARP_MASK_BITS>>,
    /// The request's active lanes, and whether they cover its warp's live lanes (the warp
    /// arrives with this request).
    pub req_active: Signal<In, Bits<32>>,
    pub req_converged: Signal<In, Bit>,
    pub req_popc: Signal<In, Bits<POPC_BITS>>,
    pub req_all: Signal<In, Bits<1>>,
    /// The CTA's live warps (an exiting warp has already left for a check).
    pub live: Signal<In, Bits<WARP_MASK_BITS>>,
    /// Round-dependent error of a hit (ErrorCode::None = 0 otherwise).
    pub error: Signal<Out, Bits<ERROR_BITS>>,
    /// The arriving warp had a partial arrival in this round (its lanes so far are the lane
    /// word's low half). `BarrierFile` tests whether a divergent request completes the warp's
    /// lanes from this and the lane word, into a register: the warp arrives with a finish in the
    /// next cycle, so that the lane RAM's read is not in front of the completion.
    pub had_partial: Signal<Out, Bit>,
    /// The arrival joins (or opens) the round; the round completes at this edge.
    pub apply: Signal<Out, Bit>,
    pub completes: Signal<Out, Bit>,
    /// The round after this cycle (the release's contents when it completes).
    pub n_meta: Signal<Out, Bits<META_BITS>>,
    pub n_arrived: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub n_waiting: Signal<Out, Bits<WARP_MASK_BITS>>,
    pub n_popc: Signal<Out, Bits<POPC_BITS>>,
    pub n_all: Signal<Out, Bits<1>>,
    pub n_partial: Signal<Out, Bits<WARP_MASK_BITS>>,
    /// The arriving warp's lane word after this cycle (meaningful when the request joins: it is
    /// written only then).
    pub n_lanes: Signal<Out, Bits<LANES_BITS>>,
    cur_kind: Signal<Local, Bits<KIND_BITS>>,
    cur_count: Signal<Local, Bits<WARP_COUNT_BITS>>,
    cur_left: Signal<Local, Bits<WARP_COUNT_BITS>>,
    cur_popc: Signal<Local, Bits<POPC_BITS>>,
    cur_all: Signal<Local, Bits<1>>,
    mismatch: Signal<Local, Bit>,
    joins: Signal<Local, Bit>,
    /// The warp's lanes arrived / waiting before this request (zero when not meaningful).
    had_lanes: Signal<Local, Bits<32>>,
    had_waiting: Signal<Local, Bits<32>>,
    whole: Signal<Local, Bit>,
    base_arrived: Signal<Local, Bits<WARP_MASK_BITS>>,
    base_waiting: Signal<Local, Bits<WARP_MASK_BITS>>,
    base_partial: Signal<Local, Bits<WARP_MASK_BITS>>,
    new_waiting_lanes: Signal<Local, Bits<32>>,
    seen: Signal<Local, Bits<WARP_MASK_BITS>>,
    others_in: Signal<Local, Bit>,
    count_done: Signal<Local, Bit>,
    counted: Signal<Local, Bit>,
    completes_if_whole: Signal<Local, Bit>,
    kind: Signal<Local, Bits<KIND_BITS>>,
    count: Signal<Local, Bits<WARP_COUNT_BITS>>,
    left: Signal<Local, Bits<WARP_COUNT_BITS>>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_red_mixed: Constant<Bits<ERROR_BITS>>,
    e_red_op: Constant<Bits<ERROR_BITS>>,
    e_count_mismatch: Constant<Bits<ERROR_BITS>>,
    k_one: Constant<Bits<WARP_COUNT_BITS>>,
    k_zero_count: Constant<Bits<WARP_COUNT_BITS>>,
    k_zero_kind: Constant<Bits<KIND_BITS>>,
    k_zero_mask: Constant<Bits<WARP_MASK_BITS>>,
}

impl Default for RoundUpdate {
    fn default() -> Self {
        let err = |e: ErrorCode| Constant::new(error_code(e));
        RoundUpdate {
            hit: Default::default(),
            check: Default::default(),
            finish: Default::default(),
            active: Default::default(),
            cur_meta: Default::default(),
            cur_arrived: Default::default(),
            cur_waiting: Default::default(),
            cur_partial: Default::default(),
            cur_lanes: Default::default(),
            req_kind: Default::default(),
            req_count_warps: Default::default(),
            req_left1: Default::default(),
            req_first_done: Default::default(),
            req_blocking: Default::default(),
            req_warp_bit: Default::default(),
            req_active: Default::default(),
            req_converged: Default::default(),
            req_popc: Default::default(),
            req_all: Default::default(),
            live: Default::default(),
            error: Default::default(),
            had_partial: Default::default(),
            apply: Default::default(),
            completes: Default::default(),
            n_meta: Default::default(),
            n_arrived: Default::default(),
            n_waiting: Default::default(),
            n_popc: Default::default(),
            n_all: Default::default(),
            n_partial: Default::default(),
            n_lanes: Default::default(),
            cur_kind: Default::default(),
            cur_count: Default::default(),
            cur_left: Default::default(),
            cur_popc: Default::default(),
            cur_all: Default::default(),
            mismatch: Default::default(),
            joins: Default::default(),
            had_lanes: Default::default(),
            had_waiting: Default::default(),
            whole: Default::default(),
            base_arrived: Default::default(),
            base_waiting: Default::default(),
            base_partial: Default::default(),
            new_waiting_lanes: Default::default(),
            seen: Default::default(),
            others_in: Default::default(),
            count_done: Default::default(),
            counted: Default::default(),
            completes_if_whole: Default::default(),
            kind: Default::default(),
            count: Default::default(),
            left: Default::default(),
            e_none: err(ErrorCode::None),
            e_red_mixed: err(ErrorCode::BarRedMixed),
            e_red_op: err(ErrorCode::BarRedOpMismatch),
            e_count_mismatch: err(ErrorCode::BarCountMismatch),
            k_one: Constant::new(1u64.to_bits()),
            k_zero_count: Constant::new(0u64.to_bits()),
            k_zero_kind: Constant::new(0u64.to_bits()),
            k_zero_mask: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for RoundUpdate {
    #[hdl_gen]
    fn update(&mut self) {
        self.cur_all.next = self.cur_meta.val().get_bits::<1>(0);
        self.cur_kind.next = self.cur_meta.val().get_bits::<KIND_BITS>(1);
        self.cur_count.next = self.cur_meta.val().get_bits::<WARP_COUNT_BITS>(4);
        self.cur_left.next = self.cur_meta.val().get_bits::<WARP_COUNT_BITS>(10);
        self.cur_popc.next = self.cur_meta.val().get_bits::<POPC_BITS>(16);

        // Round-dependent checks, in the golden unit's order: kind (red or not), red op, thread
        // count (with 0 for "no b", one compare covers both "counted?" and "which b?").
        self.error.next = self.e_none.val();
        self.mismatch.next = false;
        if self.hit.val() & self.active.val() {
            if (self.cur_kind.val() == self.k_zero_kind.val()) != (self.req_kind.val() == self.k_zero_kind.val()) {
                self.error.next = self.e_red_mixed.val();
                self.mismatch.next = true;
            } else if self.cur_kind.val() != self.req_kind.val() {
                self.error.next = self.e_red_op.val();
                self.mismatch.next = true;
            } else if self.cur_count.val() != self.req_count_warps.val() {
                self.error.next = self.e_count_mismatch.val();
                self.mismatch.next = true;
            }
        }
        // The request joins the round (a finish joins the round its partial arrival joined); its
        // warp arrives with a converged request, or with the finish of a divergent one.
        self.joins.next = (self.hit.val() & !self.mismatch.val()) | (self.finish.val() & self.active.val());
        self.had_lanes.next = self.k_zero_mask.val();
        self.had_waiting.next = self.k_zero_mask.val();
        self.had_partial.next =
            self.active.val() & ((self.cur_partial.val() & self.req_warp_bit.val()) != self.k_zero_mask.val());
        if self.had_partial.val() {
            self.had_lanes.next = self.cur_lanes.val().get_bits::<32>(0);
        }
        if self.active.val() & ((self.cur_waiting.val() & self.req_warp_bit.val()) != self.k_zero_mask.val()) {
            self.had_waiting.next = self.cur_lanes.val().get_bits::<32>(32);
        }
        self.whole.next = self.req_converged.val() | self.finish.val();

        // Completion: a counted round on its last missing arrival (`left` <= 1, or b <= 32 for a
        // new round); a whole-CTA round when no live warp other than the arriving one is missing
        // (a check: when no live warp is missing at all).
        self.seen.next = self.k_zero_mask.val();
        self.kind.next = self.req_kind.val();
        self.count.next = self.req_count_warps.val();
        self.count_done.next = self.req_first_done.val();
        if self.active.val() {
            self.seen.next = self.cur_arrived.val();
            self.kind.next = self.cur_kind.val();
            self.count.next = self.cur_count.val();
            self.count_done.next = self.cur_left.val() <= self.k_one.val();
        }
        self.counted.next = self.count.val() != self.k_zero_count.val();
        self.others_in.next = (self.live.val() & !self.req_warp_bit.val() & !self.seen.val()) == self.k_zero_mask.val();
        self.completes_if_whole.next = self.others_in.val();
        if self.counted.val() {
            self.completes_if_whole.next = self.count_done.val();
        }
        self.completes.next = (self.joins.val() & self.completes_if_whole.val() & self.whole.val())
            | (self.check.val() & self.active.val() & !self.counted.val() & self.others_in.val());

        // The round after this cycle (a new round when the barrier is idle; unchanged for a check).
        self.n_arrived.next = self.cur_arrived.val();
        self.n_waiting.next = self.cur_waiting.val();
        self.n_popc.next = self.cur_popc.val();
        self.n_all.next = self.cur_all.val();
        self.left.next = self.cur_left.val();
        self.n_partial.next = self.cur_partial.val();
        // (a new round when the barrier is idle: nothing arrived before this request)
        self.base_arrived.next = self.k_zero_mask.val();
        self.base_waiting.next = self.k_zero_mask.val();
        self.base_partial.next = self.k_zero_mask.val();
        if self.active.val() {
            self.base_arrived.next = self.cur_arrived.val();
            self.base_waiting.next = self.cur_waiting.val();
            self.base_partial.next = self.cur_partial.val() & !self.req_warp_bit.val();
        }
        self.new_waiting_lanes.next = self.had_waiting.val();
        if self.req_blocking.val() {
            self.new_waiting_lanes.next = self.had_waiting.val() | self.req_active.val();
        }
        if self.joins.val() {
            self.n_popc.next = self.req_popc.val();
            self.n_all.next = self.req_all.val();
            self.left.next = self.req_count_warps.val();
            if self.whole.val() {
                self.left.next = self.req_left1.val();
            }
            if self.active.val() {
                self.n_popc.next = self.cur_popc.val() + self.req_popc.val();
                self.n_all.next = self.cur_all.val() & self.req_all.val();
                self.left.next = self.cur_left.val();
                if self.whole.val() {
                    self.left.next = self.cur_left.val() - self.k_one.val();
                }
            }
            self.n_arrived.next = self.base_arrived.val();
            self.n_partial.next = self.base_partial.val() | self.req_warp_bit.val();
            if self.whole.val() {
                self.n_arrived.next = self.base_arrived.val() | self.req_warp_bit.val();
                self.n_partial.next = self.base_partial.val();
            }
            self.n_waiting.next = self.base_waiting.val();
            if self.req_blocking.val() {
                self.n_waiting.next = self.base_waiting.val() | self.req_warp_bit.val();
            }
        }
        // (the lane word is written only when the request joins: no `joins` select in front of
        // the lane RAM's write data)
        self.n_lanes.next = (bit_cast::<LANES_BITS, 32>(self.new_waiting_lanes.val()) << 32u64)
            | bit_cast::<LANES_BITS, 32>(self.had_lanes.val() | self.req_active.val());
        self.apply.next = self.joins.val();
        self.n_meta.next = (bit_cast::<META_BITS, POPC_BITS>(self.n_popc.val()) << 16u64)
            | (bit_cast::<META_BITS, WARP_COUNT_BITS>(self.left.val()) << 10u64)
            | (bit_cast::<META_BITS, WARP_COUNT_BITS>(self.count.val()) << 4u64)
            | (bit_cast::<META_BITS, KIND_BITS>(self.kind.val()) << 1u64)
            | bit_cast::<META_BITS, 1>(self.n_all.val());
    }
}
