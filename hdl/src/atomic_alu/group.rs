//! A coalesced step's extra lanes in the atomic ALU's execute stages (see "Pipeline" in
//! `atomic_alu.rs`): [`GroupLane`] (X1, X2, X3), from the line read and the lane's operands, its
//! old value and word (X1), its new element with its own `AtomicElement` (X2), and that element
//! placed in the written line (X3: `put_value`). Whether a lane joins the lead's step is decided
//! in the plan stage from the lanes' registered checks (`lane_check::LaneCheck`).
//!
//! The sequencer (`AtomicAlu`) always steps the lowest remaining lane (the lead) through its own
//! element datapath. With `config.atomic_lanes` > 1 it also offers the next remaining lanes of
//! the lead's window, in ascending order, to `atomic_lanes - 1` (at most 7) slots. The sequencer
//! decides who joins (a prefix of the ascending lane order, no two lanes on the same bytes), so
//! the results equal the golden model's one-lane-at-a-time order: a lane that does not join ends
//! the group and becomes the next lead (its error, if any, is then reported exactly as before).
//!
//! Only scalar (`vec` = 1) 4- and 8-byte accesses of a type the group's elements are built for
//! ([`group_kinds`]: the 32- and 64-bit integer types and f32) are grouped; the lead alone
//! handles vectors, 16-byte (b128) and 2-byte (cas.b16, the 16-bit floats) accesses and f64, so
//! that only the lead's element carries the f64 and half-precision adders, and a slot's line
//! shifts move whole 4-byte words (a 4:1 mux per bit, not the 16:1 of a byte shift).

use rust_hdl::prelude::*;

use super::element::{AtomicElement, ElementKinds, ATOM_OP_BITS, DTYPE_BITS, ELEM_BITS};
use super::width::{Truncate, ZeroExtend};

/// The types a group lane's element computes: the integer types up to 64 bits and f32 (the
/// common `atomicAdd(float*)`), about a third of a full element's area (docs/FPGA.md).
pub fn group_kinds(float_atomics: bool) -> ElementKinds {
    ElementKinds { b128: false, f32: float_atomics, f64: false, half: false }
}

/// Execute stages of a group slot (see "Pipeline" in `atomic_alu.rs`): its operand (X1), its
/// element (X2 and the element's stages) and its put into the written line (X3). Its stage
/// registers move on `en` with the sequencer's.
#[derive(LogicBlock)]
pub struct GroupLane {
    pub clock: Signal<In, Clock>,
    /// The pipeline moves one stage at this clock edge (not stalled by a write not granted).
    pub en: Signal<In, Bit>,
    // ---- X1 (combinational, registered into X2 on `en`) ----
    /// The lane joined X1's step (its element is written at X3).
    pub joined: Signal<In, Bit>,
    /// The lane's 4-byte word in the line (its `LaneCheck`'s byte offset, registered through the plan and issue stages).
    pub word_off: Signal<In, Bits<2>>,
    /// Operands b and c (a grouped access is at most 8 bytes wide).
    pub b: Signal<In, Bits<64>>,
    pub c: Signal<In, Bits<64>>,
    /// The line the step read.
    pub src_line: Signal<In, Bits<ELEM_BITS>>,
    /// Ones over the element's width, at bit 0 (a request constant).
    pub elem_mask: Signal<In, Bits<ELEM_BITS>>,
    /// The lane's old value (atom's result), from its X2 register (a cycle after X1, when the
    /// unit saves it): at most 8 bytes, so the upper
    /// 64 bits are constant 0 (synthesis drops their shifter and their store write muxes).
    pub old_value: Signal<Out, Bits<ELEM_BITS>>,
    // ---- request constants ----
    pub op: Signal<In, Bits<ATOM_OP_BITS>>,
    pub dtype: Signal<In, Bits<DTYPE_BITS>>,
    pub ftz_f32: Signal<In, Bit>,
    // ---- X3 ----
    /// The lane's new element placed in the line.
    pub put_value: Signal<Out, Bits<ELEM_BITS>>,

    element: AtomicElement,
    /// X2: the old element, b, c; the word and the joined flag in X2 and the element's stages.
    x2_r: DFF<Bits<64>>,
    x2_b: DFF<Bits<64>>,
    x2_c: DFF<Bits<64>>,
    xe_off: Vec<DFF<Bits<2>>>,
    xe_in: Vec<DFF<Bit>>,
    /// X3: the new element, the word, joined.
    x3_value: DFF<Bits<64>>,
    x3_off: DFF<Bits<2>>,
    x3_in: DFF<Bit>,
    cut_r: Truncate<ELEM_BITS, 64>,
    cut_mask: Truncate<ELEM_BITS, 64>,
    widen_old: ZeroExtend<64, ELEM_BITS>,
    cut_value: Truncate<ELEM_BITS, 64>,
    widen_r: ZeroExtend<64, ELEM_BITS>,
    widen_b: ZeroExtend<64, ELEM_BITS>,
    widen_c: ZeroExtend<64, ELEM_BITS>,
    widen_value: ZeroExtend<64, ELEM_BITS>,
    widen_word: ZeroExtend<2, 8>,
    widen_put_word: ZeroExtend<2, 8>,
    /// The word's bit offset in X1 and in X3: a multiple of 32.
    shift: Signal<Local, Bits<8>>,
    put_shift: Signal<Local, Bits<8>>,
    /// Ones over the widest element the slot can hold: 8 bytes for the first slot after the
    /// lead, 4 for the others (a step's lanes share the lead's 16-byte line on distinct bytes,
    /// so an 8-byte step has at most one member after the lead). Applied to the slot's X2
    /// operands and its result, it ties the element's upper 32 bits to zero in the slots that
    /// never see an 8-byte lane, and synthesis drops that half of their integer datapath.
    k_value_mask: Constant<Bits<64>>,
}

impl GroupLane {
    /// The execute stages of a slot whose element computes `kinds` in `latency` stages (0 or
    /// `ELEMENT_LATENCY`), on elements of up to 8 bytes if `wide`, else 4.
    pub fn new(kinds: ElementKinds, latency: usize, wide: bool) -> Self {
        GroupLane {
            clock: Default::default(),
            en: Default::default(),
            joined: Default::default(),
            word_off: Default::default(),
            b: Default::default(),
            c: Default::default(),
            src_line: Default::default(),
            elem_mask: Default::default(),
            old_value: Default::default(),
            op: Default::default(),
            dtype: Default::default(),
            ftz_f32: Default::default(),
            put_value: Default::default(),
            element: AtomicElement::build(kinds, latency > 0),
            x2_r: Default::default(),
            x2_b: Default::default(),
            x2_c: Default::default(),
            xe_off: (0..=latency).map(|_| Default::default()).collect(),
            xe_in: (0..=latency).map(|_| Default::default()).collect(),
            x3_value: Default::default(),
            x3_off: Default::default(),
            x3_in: Default::default(),
            cut_r: Default::default(),
            cut_mask: Default::default(),
            widen_old: Default::default(),
            cut_value: Default::default(),
            widen_r: Default::default(),
            widen_b: Default::default(),
            widen_c: Default::default(),
            widen_value: Default::default(),
            widen_word: Default::default(),
            widen_put_word: Default::default(),
            shift: Default::default(),
            put_shift: Default::default(),
            k_value_mask: Constant::new(if wide { u64::MAX } else { u32::MAX as u64 }.to_bits()),
        }
    }
}

impl Logic for GroupLane {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, x2_r, x2_b, x2_c, x3_value, x3_off, x3_in);
        for k in 0..self.xe_off.len() {
            self.xe_off[k].clock.next = self.clock.val();
            self.xe_off[k].d.next = self.xe_off[k].q.val();
            self.xe_in[k].clock.next = self.clock.val();
            self.xe_in[k].d.next = self.xe_in[k].q.val();
        }
        // X1: the lane's word of the line, and its old value.
        self.widen_word.narrow.next = self.word_off.val();
        self.shift.next = self.widen_word.wide.val() << 5;
        self.cut_r.wide.next = self.src_line.val() >> self.shift.val();
        self.cut_mask.wide.next = self.elem_mask.val();
        // Its old value a cycle later (the unit saves old values from the X2 registers).
        self.widen_old.narrow.next = self.x2_r.q.val() & self.cut_mask.narrow.val();
        self.old_value.next = self.widen_old.wide.val();
        // X2: the element.
        self.widen_r.narrow.next = self.x2_r.q.val();
        self.widen_b.narrow.next = self.x2_b.q.val();
        self.widen_c.narrow.next = self.x2_c.q.val();
        self.element.clock.next = self.clock.val();
        self.element.en.next = self.en.val();
        self.element.op.next = self.op.val();
        self.element.dtype.next = self.dtype.val();
        self.element.r.next = self.widen_r.wide.val();
        self.element.s.next = self.widen_b.wide.val();
        self.element.t.next = self.widen_c.wide.val();
        self.element.ftz_f32.next = self.ftz_f32.val();
        self.cut_value.wide.next = self.element.value.val();
        // X3: the new element into its word.
        self.widen_value.narrow.next = self.x3_value.q.val();
        self.widen_put_word.narrow.next = self.x3_off.q.val();
        self.put_shift.next = self.widen_put_word.wide.val() << 5;
        self.put_value.next = 0.into();
        if self.x3_in.q.val() {
            self.put_value.next = (self.widen_value.wide.val() & self.elem_mask.val()) << self.put_shift.val();
        }
        if self.en.val() {
            self.x2_r.d.next = self.cut_r.narrow.val() & self.k_value_mask.val();
            self.x2_b.d.next = self.b.val() & self.k_value_mask.val();
            self.x2_c.d.next = self.c.val() & self.k_value_mask.val();
            self.x3_value.d.next = self.cut_value.narrow.val() & self.k_value_mask.val();
            for k in 0..self.xe_off.len().min(1) {
                self.xe_off[k].d.next = self.word_off.val();
                self.xe_in[k].d.next = self.joined.val();
            }
            for k in 1..self.xe_off.len() {
                self.xe_off[k].d.next = self.xe_off[k - 1].q.val();
                self.xe_in[k].d.next = self.xe_in[k - 1].q.val();
            }
            for k in 0..self.xe_off.len() {
                self.x3_off.d.next = self.xe_off[k].q.val();
                self.x3_in.d.next = self.xe_in[k].q.val();
            }
        }
    }
}
