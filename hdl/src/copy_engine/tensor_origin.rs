//! The tensor sequencer's set-up arithmetic: where a tile's box starts in global memory and how
//! many bytes it holds, from the tensor map and the instruction's coordinates.
//!
//! For a tiled cp.async.bulk.tensor (PTX ISA §5.5, "Tensors"; §9.7.9.25.5.1) the box's first row
//! starts at `base + sum_{d=1..4} x_d * stride_d` (mod 2^64; `x_d` the s32 coordinate of
//! dimension d, `stride_d` the map's byte stride; dimension 0's coordinate is added per row by the
//! row sequencer) and holds `prod_{d=0..4} box_d` elements of `2^lg` bytes. smsync refuses a box of
//! more than [`MAX_BOX_ELEMENTS`] elements (the golden `tmap::parse` and `TensorMap` check), so
//! the element count is kept saturated at `MAX_BOX_ELEMENTS + 1`, which keeps every product within
//! 32 x 32 bits; a zero factor still gives zero, so "more than the limit" is decided exactly.
//!
//! Why a pipeline: a 64-bit multiply-add from 16 x 16 DSP products and its accumulation in one
//! cycle was the copy engine's longest path (20 ns on the ECP5). Here every DSP product is
//! registered, the seven partial products of a dimension are summed in two adder levels the next
//! cycle, and the running address takes that sum the cycle after. The box's five sizes are
//! multiplied as a tree (two products, then their product, then the last size), each product
//! registered before its sum and saturation, so that no multiply and add share a cycle:
//!
//! ```text
//!  start        dimension 1's x_1, stride_1 (from the map being registered)  -> x_q, s_q
//!  step   1..3  dimension step+1's operands                                   -> x_q, s_q
//!  step   1..4  16 x 16 products of the dimension in x_q, s_q (7 DSPs)        -> pa, pb, pc, pd_hi, pe_hi
//!  step   2..5  two adder levels                                              -> q1, q2
//!  step   3..6  addr += q1 + q2
//!  box  step 1  box_0 x box_1 (M1), box_2 x box_3 (M2)        step 2  sums, saturated -> pa_box, pb_box
//!       step 3  pa_box x pb_box (M1)                          step 4  sum, saturated  -> pa_box
//!       step 5  pa_box x box_4 (M1)                           step 6  sum -> bytes, too_big
//!  step   6     `last`: the engine leaves state MUL; results valid from the next cycle
//! ```
//!
//! Saturating each product at `MAX_BOX_ELEMENTS + 1` keeps every operand within 32 bits and does
//! not change "more than the limit": sat(sat(a) * sat(b)) = sat(a * b) for naturals a, b.
//! Partial products are zero outside their steps (and cleared at `start`), so the address adds
//! zeros before its first and after its last product and needs no valid bits.

use rust_hdl::prelude::*;
use smsync_contract::tensor_map_layout::MAX_BOX_ELEMENTS;

/// The step at which the results are registered; `last` is high from then until the next start.
const LAST_STEP: u64 = 6;

#[derive(LogicBlock)]
pub struct TensorOrigin {
    pub clock: Signal<In, Clock>,
    /// The map is being registered: take `base`, `box0`, `x1` and `s1`; `coords`, `strides`,
    /// `boxes` and `lg` hold from the next cycle until `last`.
    pub start: Signal<In, Bit>,
    /// The map's global address (bytes 16..24 of the tensor map).
    pub base: Signal<In, Bits<64>>,
    /// Box size of dimension 0, in elements.
    pub box0: Signal<In, Bits<32>>,
    /// Dimension 1's coordinate (s32; 0 when unused) and byte stride.
    pub x1: Signal<In, Bits<32>>,
    pub s1: Signal<In, Bits<64>>,
    /// Coordinates of dimensions 2..4 (s32 each, dimension 2 at bit 0; unused dimensions 0).
    pub coords: Signal<In, Bits<96>>,
    /// Byte strides of dimensions 2..4 (64 bits each, dimension 2 at bit 0).
    pub strides: Signal<In, Bits<192>>,
    /// Box sizes of dimensions 1..4 (32 bits each, dimension 1 at bit 0; unused dimensions 1).
    pub boxes: Signal<In, Bits<128>>,
    /// log2 of the element size in bytes.
    pub lg: Signal<In, Bits<3>>,
    /// The results below are valid from the next cycle (and stay until the next `start`).
    pub last: Signal<Out, Bit>,
    /// The box's first row's global address.
    pub addr: Signal<Out, Bits<64>>,
    /// The box holds more than `MAX_BOX_ELEMENTS` elements.
    pub too_big: Signal<Out, Bit>,
    /// The box's bytes (exact when not `too_big`).
    pub box_bytes: Signal<Out, Bits<32>>,
    step: DFF<Bits<3>>,
    x_q: DFF<Bits<32>>,
    s_q: DFF<Bits<64>>,
    pa: DFF<Bits<64>>,
    pb: DFF<Bits<64>>,
    pc: DFF<Bits<64>>,
    pd_hi: DFF<Bits<32>>,
    pe_hi: DFF<Bits<32>>,
    q1: DFF<Bits<64>>,
    q2: DFF<Bits<64>>,
    acc: DFF<Bits<64>>,
    /// Box products: M1's running operand and partial products, M2's product.
    pa_box: DFF<Bits<32>>,
    pb_box: DFF<Bits<32>>,
    m1_b: Signal<Local, Bits<32>>,
    m1_0: DFF<Bits<32>>,
    m1_1: DFF<Bits<32>>,
    m1_2: DFF<Bits<32>>,
    m1_3: DFF<Bits<32>>,
    m2_0: DFF<Bits<32>>,
    m2_1: DFF<Bits<32>>,
    m2_2: DFF<Bits<32>>,
    m2_3: DFF<Bits<32>>,
    m1_sum: Signal<Local, Bits<64>>,
    m2_sum: Signal<Local, Bits<64>>,
    bytes_q: DFF<Bits<32>>,
    big_q: DFF<Bit>,
    k_limit: Constant<Bits<64>>,
    k_last: Constant<Bits<3>>,
}
impl Default for TensorOrigin {
    fn default() -> Self {
        TensorOrigin {
            clock: Default::default(),
            start: Default::default(),
            base: Default::default(),
            box0: Default::default(),
            x1: Default::default(),
            s1: Default::default(),
            coords: Default::default(),
            strides: Default::default(),
            boxes: Default::default(),
            lg: Default::default(),
            last: Default::default(),
            addr: Default::default(),
            too_big: Default::default(),
            box_bytes: Default::default(),
            step: Default::default(),
            x_q: Default::default(),
            s_q: Default::default(),
            pa: Default::default(),
            pb: Default::default(),
            pc: Default::default(),
            pd_hi: Default::default(),
            pe_hi: Default::default(),
            q1: Default::default(),
            q2: Default::default(),
            acc: Default::default(),
            pa_box: Default::default(),
            pb_box: Default::default(),
            m1_b: Default::default(),
            m1_0: Default::default(),
            m1_1: Default::default(),
            m1_2: Default::default(),
            m1_3: Default::default(),
            m2_0: Default::default(),
            m2_1: Default::default(),
            m2_2: Default::default(),
            m2_3: Default::default(),
            m1_sum: Default::default(),
            m2_sum: Default::default(),
            bytes_q: Default::default(),
            big_q: Default::default(),
            k_limit: Constant::new(MAX_BOX_ELEMENTS.to_bits()),
            k_last: Constant::new(LAST_STEP.to_bits()),
        }
    }
}

impl Logic for TensorOrigin {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, step, x_q, s_q, pa, pb, pc, pd_hi, pe_hi, q1, q2, acc, pa_box, pb_box, m1_0, m1_1, m1_2, m1_3,
            m2_0, m2_1, m2_2, m2_3, bytes_q, big_q
        );
        self.last.next = self.step.q.val() == self.k_last.val();
        self.addr.next = self.acc.q.val();
        self.too_big.next = self.big_q.q.val();
        self.box_bytes.next = self.bytes_q.q.val();
        if (self.step.q.val() != 0) & (self.step.q.val() != self.k_last.val()) {
            self.step.d.next = self.step.q.val() + 1;
        }

        // Address, stage 1: dimension step + 1's operands (dimension 1's at start).
        // (A select of three, not a shift by (step - 1) * 32: no subtractor or shifter before it.)
        if self.step.q.val() == 1 {
            self.x_q.d.next = self.coords.val().get_bits::<32>(0);
            self.s_q.d.next = self.strides.val().get_bits::<64>(0);
        } else if self.step.q.val() == 2 {
            self.x_q.d.next = self.coords.val().get_bits::<32>(32);
            self.s_q.d.next = self.strides.val().get_bits::<64>(64);
        } else if self.step.q.val() == 3 {
            self.x_q.d.next = self.coords.val().get_bits::<32>(64);
            self.s_q.d.next = self.strides.val().get_bits::<64>(128);
        }
        // Stage 2: x (s32) * stride mod 2^64 as seven 16 x 16 products placed side by side where
        // they do not overlap; a negative x subtracts stride << 32 (only its low 32 bits count).
        self.pa.d.next = 0.into();
        self.pb.d.next = 0.into();
        self.pc.d.next = 0.into();
        self.pd_hi.d.next = 0.into();
        self.pe_hi.d.next = 0.into();
        if (self.step.q.val() >= 1) & (self.step.q.val() <= 4) {
            self.pa.d.next =
                bit_cast::<64, 32>(self.x_q.q.val().get_bits::<16>(0) * self.s_q.q.val().get_bits::<16>(0))
                    | (bit_cast::<64, 32>(self.x_q.q.val().get_bits::<16>(0) * self.s_q.q.val().get_bits::<16>(32))
                        << 32);
            self.pb.d.next =
                (bit_cast::<64, 32>(self.x_q.q.val().get_bits::<16>(0) * self.s_q.q.val().get_bits::<16>(16)) << 16)
                    | (bit_cast::<64, 32>(self.x_q.q.val().get_bits::<16>(16) * self.s_q.q.val().get_bits::<16>(32))
                        << 48);
            self.pc.d.next =
                (bit_cast::<64, 32>(self.x_q.q.val().get_bits::<16>(16) * self.s_q.q.val().get_bits::<16>(0)) << 16)
                    | (bit_cast::<64, 32>(self.x_q.q.val().get_bits::<16>(0) * self.s_q.q.val().get_bits::<16>(48))
                        << 48);
            self.pd_hi.d.next = self.x_q.q.val().get_bits::<16>(16) * self.s_q.q.val().get_bits::<16>(16);
            if self.x_q.q.val().get_bit(31) {
                self.pe_hi.d.next = !self.s_q.q.val().get_bits::<32>(0) + 1;
            }
        }
        // Stages 3 and 4: two adder levels, then the running address.
        self.q1.d.next = self.pa.q.val() + self.pb.q.val();
        self.q2.d.next = self.pc.q.val() + (bit_cast::<64, 32>(self.pd_hi.q.val() + self.pe_hi.q.val()) << 32);
        if self.step.q.val() != 0 {
            self.acc.d.next = self.acc.q.val() + self.q1.q.val() + self.q2.q.val();
        }

        // Box elements: M1 multiplies pa_box by box_1 (step 1), by M2's product (step 3), by
        // box_4 (step 5); M2 multiplies box_2 by box_3 (step 1); the even steps add and saturate.
        self.m1_b.next = self.boxes.val().get_bits::<32>(0);
        if self.step.q.val() == 3 {
            self.m1_b.next = self.pb_box.q.val();
        } else if self.step.q.val() == 5 {
            self.m1_b.next = self.boxes.val().get_bits::<32>(96);
        }
        if self.step.q.val().get_bit(0) {
            self.m1_0.d.next = self.pa_box.q.val().get_bits::<16>(0) * self.m1_b.val().get_bits::<16>(0);
            self.m1_1.d.next = self.pa_box.q.val().get_bits::<16>(0) * self.m1_b.val().get_bits::<16>(16);
            self.m1_2.d.next = self.pa_box.q.val().get_bits::<16>(16) * self.m1_b.val().get_bits::<16>(0);
            self.m1_3.d.next = self.pa_box.q.val().get_bits::<16>(16) * self.m1_b.val().get_bits::<16>(16);
        }
        if self.step.q.val() == 1 {
            self.m2_0.d.next = self.boxes.val().get_bits::<16>(32) * self.boxes.val().get_bits::<16>(64);
            self.m2_1.d.next = self.boxes.val().get_bits::<16>(32) * self.boxes.val().get_bits::<16>(80);
            self.m2_2.d.next = self.boxes.val().get_bits::<16>(48) * self.boxes.val().get_bits::<16>(64);
            self.m2_3.d.next = self.boxes.val().get_bits::<16>(48) * self.boxes.val().get_bits::<16>(80);
        }
        self.m1_sum.next = (bit_cast::<64, 32>(self.m1_0.q.val()) | (bit_cast::<64, 32>(self.m1_3.q.val()) << 32))
            + (bit_cast::<64, 32>(self.m1_1.q.val()) << 16)
            + (bit_cast::<64, 32>(self.m1_2.q.val()) << 16);
        self.m2_sum.next = (bit_cast::<64, 32>(self.m2_0.q.val()) | (bit_cast::<64, 32>(self.m2_3.q.val()) << 32))
            + (bit_cast::<64, 32>(self.m2_1.q.val()) << 16)
            + (bit_cast::<64, 32>(self.m2_2.q.val()) << 16);
        if (self.step.q.val() == 2) | (self.step.q.val() == 4) {
            self.pa_box.d.next = bit_cast::<32, 64>(self.m1_sum.val());
            if self.m1_sum.val() > self.k_limit.val() {
                self.pa_box.d.next = bit_cast::<32, 64>(self.k_limit.val() + 1);
            }
        }
        if self.step.q.val() == 2 {
            self.pb_box.d.next = bit_cast::<32, 64>(self.m2_sum.val());
            if self.m2_sum.val() > self.k_limit.val() {
                self.pb_box.d.next = bit_cast::<32, 64>(self.k_limit.val() + 1);
            }
        }
        // The last sum is exact when within the limit, so the bytes need not wait for a saturation.
        if self.step.q.val() == self.k_last.val() {
            self.bytes_q.d.next = bit_cast::<32, 64>(self.m1_sum.val()) << self.lg.val();
            self.big_q.d.next = self.m1_sum.val() > self.k_limit.val();
        }

        if self.start.val() {
            self.step.d.next = 1.into();
            self.acc.d.next = self.base.val();
            self.pa_box.d.next = self.box0.val();
            self.x_q.d.next = self.x1.val();
            self.s_q.d.next = self.s1.val();
            self.pa.d.next = 0.into();
            self.pb.d.next = 0.into();
            self.pc.d.next = 0.into();
            self.pd_hi.d.next = 0.into();
            self.pe_hi.d.next = 0.into();
            self.q1.d.next = 0.into();
            self.q2.d.next = 0.into();
        }
    }
}
