//! The warp network's datapath blocks: the match comparator row, the redux combiner, the shfl
//! source-lane computation and a 32-bit pack. The network instantiates `lanes_per_beat` of the
//! per-lane ones (one per lane of a beat), not 32.

use rust_hdl::prelude::*;
use smsync_contract::encoding::{ReduxOp, ShflMode};

use super::{c32, c_code, one_hots, CANONICAL_NAN, LANES};

// The NaN result is all ones with the sign cleared (`ReduxNode`).
const _: () = assert!(CANONICAL_NAN == !0x8000_0000);

/// Packs 32 one-bit signals into a 32-bit word (bit i = `bit[i]`).
#[derive(LogicBlock)]
pub struct Pack32 {
    pub bit: Vec<Signal<In, Bit>>,
    pub word: Signal<Out, Bits<32>>,
    sh: Vec<Signal<Local, Bits<32>>>,
    one_hot: Vec<Constant<Bits<32>>>,
    zero: Constant<Bits<32>>,
}

impl Default for Pack32 {
    fn default() -> Self {
        Pack32 {
            bit: (0..LANES).map(|_| Default::default()).collect(),
            word: Default::default(),
            sh: (0..LANES).map(|_| Default::default()).collect(),
            one_hot: one_hots(LANES),
            zero: c32(0),
        }
    }
}

impl Logic for Pack32 {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..32 {
            self.sh[i].next = self.zero.val();
            if self.bit[i].val() {
                self.sh[i].next = self.one_hot[i].val();
            }
        }
        self.word.next = self.sh[0].val()
            | self.sh[1].val()
            | self.sh[2].val()
            | self.sh[3].val()
            | self.sh[4].val()
            | self.sh[5].val()
            | self.sh[6].val()
            | self.sh[7].val()
            | self.sh[8].val()
            | self.sh[9].val()
            | self.sh[10].val()
            | self.sh[11].val()
            | self.sh[12].val()
            | self.sh[13].val()
            | self.sh[14].val()
            | self.sh[15].val()
            | self.sh[16].val()
            | self.sh[17].val()
            | self.sh[18].val()
            | self.sh[19].val()
            | self.sh[20].val()
            | self.sh[21].val()
            | self.sh[22].val()
            | self.sh[23].val()
            | self.sh[24].val()
            | self.sh[25].val()
            | self.sh[26].val()
            | self.sh[27].val()
            | self.sh[28].val()
            | self.sh[29].val()
            | self.sh[30].val()
            | self.sh[31].val();
    }
}

/// One row of the match comparator matrix: which lanes of `part` hold a value equal to `key`
/// (64-bit compare when `wide`, else the low 32 bits).
#[derive(LogicBlock, Default)]
pub struct MatchRow {
    pub key: Signal<In, Bits<64>>,
    pub wide: Signal<In, Bit>,
    pub part: Signal<In, Bits<32>>,
    /// The 32 lane values, lane j in bits [64j+63:64j].
    pub vals: Signal<In, Bits<2048>>,
    pub row: Signal<Out, Bits<32>>,
    pack: Pack32,
}

impl Logic for MatchRow {
    #[hdl_gen]
    fn update(&mut self) {
        // One 32-bit compare per half, the high one ignored for b32 (a separate 64-bit compare
        // beside the 32-bit one cost half as much again).
        for j in 0..32 {
            self.pack.bit[j].next = (self.vals.val().get_bits::<32>(j * 64) == self.key.val().get_bits::<32>(0))
                & ((self.vals.val().get_bits::<32>(j * 64 + 32) == self.key.val().get_bits::<32>(32))
                    | !self.wide.val());
        }
        self.row.next = self.pack.word.val() & self.part.val();
    }
}

/// One combiner of the redux.sync tree.
///
/// Why the output is a truth table: every result bit but the sum's is a function of its own
/// `x` and `y` bits alone (x, y, and, or, xor, all ones for the canonical NaN), so the node
/// computes, once, the 4-entry truth table of that function (`t3` .. `t0`: for (x, y) = 11, 10,
/// 01, 00) from the op, the min/max compare and the NaN rules, and each bit is a 4:1 pick of the
/// table by its (x, y), then the sum or that. Written as an if-chain over the ops with the NaN
/// override after it, each bit was a function of its x, y and sum bits and of every select: 604
/// LUT4 + 240 PFUMX + 138 L6MUX21 per node on the ECP5, 391 + 156 + 90 this way (yosys
/// `synth_ecp5` of the node alone, 2026-11-29; the two forms proven equal by `sat -prove` on a
/// miter). Four nodes on fpga-small, 32 on the default config.
///
/// The min/max compare is of the operands' order keys (`x_k`, `y_k`: [`ReduxKey`] of `x`, `y`),
/// which the tree keeps beside the values in its registers, so that the key transform is not in
/// front of the compare (that path, the registered decode `rx_float` -> the key select -> the
/// compare -> `redux_q`, limited the warp network to 81.5 MHz); `z_k` is the key of `z` where a
/// later compare reads it (min/max of non-NaN values: `z` is `x` or `y`).
#[derive(LogicBlock)]
pub struct ReduxNode {
    pub x: Signal<In, Bits<32>>,
    pub y: Signal<In, Bits<32>>,
    pub x_k: Signal<In, Bits<32>>,
    pub y_k: Signal<In, Bits<32>>,
    pub op: Signal<In, Bits<3>>,
    pub float: Signal<In, Bit>,
    /// `.NaN`: any NaN input makes the result the canonical NaN.
    pub nan_mode: Signal<In, Bit>,
    pub z: Signal<Out, Bits<32>>,
    pub z_k: Signal<Out, Bits<32>>,
    x_nan: Signal<Local, Bit>,
    y_nan: Signal<Local, Bit>,
    x_less: Signal<Local, Bit>,
    /// The op decoded; either input a NaN; the result is the canonical NaN.
    is_add: Signal<Local, Bit>,
    is_and: Signal<Local, Bit>,
    is_or: Signal<Local, Bit>,
    is_min: Signal<Local, Bit>,
    is_max: Signal<Local, Bit>,
    any_nan: Signal<Local, Bit>,
    to_nan: Signal<Local, Bit>,
    /// The result is x, y, x & y, x | y, x ^ y (each bit from its own x and y bits), or the sum.
    sel_x: Signal<Local, Bit>,
    sel_y: Signal<Local, Bit>,
    sel_and: Signal<Local, Bit>,
    sel_or: Signal<Local, Bit>,
    sel_xor: Signal<Local, Bit>,
    use_sum: Signal<Local, Bit>,
    /// The truth table, each entry as a 32-bit mask, and the bitwise result.
    m3: Signal<Local, Bits<32>>,
    m2: Signal<Local, Bits<32>>,
    m1: Signal<Local, Bits<32>>,
    m0: Signal<Local, Bits<32>>,
    bitwise: Signal<Local, Bits<32>>,
    sum: Signal<Local, Bits<32>>,
    /// The canonical NaN's sign bit (clear) when the result is it; all ones for the sum.
    nan_sign: Signal<Local, Bits<32>>,
    sum_mask: Signal<Local, Bits<32>>,
    op_add: Constant<Bits<3>>,
    op_min: Constant<Bits<3>>,
    op_max: Constant<Bits<3>>,
    op_and: Constant<Bits<3>>,
    op_or: Constant<Bits<3>>,
    sign_bit: Constant<Bits<32>>,
    exp_mask: Constant<Bits<32>>,
    mant_mask: Constant<Bits<32>>,
    ones: Constant<Bits<32>>,
    zero: Constant<Bits<32>>,
}

impl Default for ReduxNode {
    fn default() -> Self {
        ReduxNode {
            x: Default::default(),
            y: Default::default(),
            x_k: Default::default(),
            y_k: Default::default(),
            op: Default::default(),
            float: Default::default(),
            nan_mode: Default::default(),
            z: Default::default(),
            z_k: Default::default(),
            x_nan: Default::default(),
            y_nan: Default::default(),
            x_less: Default::default(),
            is_add: Default::default(),
            is_and: Default::default(),
            is_or: Default::default(),
            is_min: Default::default(),
            is_max: Default::default(),
            any_nan: Default::default(),
            to_nan: Default::default(),
            sel_x: Default::default(),
            sel_y: Default::default(),
            sel_and: Default::default(),
            sel_or: Default::default(),
            sel_xor: Default::default(),
            use_sum: Default::default(),
            m3: Default::default(),
            m2: Default::default(),
            m1: Default::default(),
            m0: Default::default(),
            bitwise: Default::default(),
            sum: Default::default(),
            nan_sign: Default::default(),
            sum_mask: Default::default(),
            op_add: c_code(ReduxOp::Add.code()),
            op_min: c_code(ReduxOp::Min.code()),
            op_max: c_code(ReduxOp::Max.code()),
            op_and: c_code(ReduxOp::And.code()),
            op_or: c_code(ReduxOp::Or.code()),
            sign_bit: c32(0x8000_0000),
            exp_mask: c32(0x7F80_0000),
            mant_mask: c32(0x007F_FFFF),
            ones: c32(u32::MAX),
            zero: c32(0),
        }
    }
}

impl Logic for ReduxNode {
    #[hdl_gen]
    fn update(&mut self) {
        // The keys' unsigned order is the values' order (`ReduxKey`).
        self.x_less.next = self.x_k.val() < self.y_k.val();
        self.x_nan.next = self.float.val()
            && ((self.x.val() & self.exp_mask.val()) == self.exp_mask.val())
            && ((self.x.val() & self.mant_mask.val()) != self.zero.val());
        self.y_nan.next = self.float.val()
            && ((self.y.val() & self.exp_mask.val()) == self.exp_mask.val())
            && ((self.y.val() & self.mant_mask.val()) != self.zero.val());
        self.is_add.next = self.op.val() == self.op_add.val();
        self.is_and.next = self.op.val() == self.op_and.val();
        self.is_or.next = self.op.val() == self.op_or.val();
        self.is_min.next = self.op.val() == self.op_min.val();
        self.is_max.next = self.op.val() == self.op_max.val();
        // NaN rules: with .NaN any NaN wins; without, a NaN operand is ignored and two NaNs give
        // the canonical NaN (so the tree answers NaN only when every input is NaN).
        self.any_nan.next = self.x_nan.val() || self.y_nan.val();
        self.to_nan.next = (self.x_nan.val() && self.y_nan.val()) || (self.any_nan.val() && self.nan_mode.val());
        // min keeps the lesser, max the greater; xor for the codes of no other op.
        self.sel_x.next = (!self.any_nan.val()
            && ((self.is_min.val() && self.x_less.val()) || (self.is_max.val() && !self.x_less.val())))
            || (self.y_nan.val() && !self.x_nan.val() && !self.to_nan.val());
        self.sel_y.next = (!self.any_nan.val()
            && ((self.is_min.val() && !self.x_less.val()) || (self.is_max.val() && self.x_less.val())))
            || (self.x_nan.val() && !self.y_nan.val() && !self.to_nan.val());
        self.sel_and.next = !self.any_nan.val() && self.is_and.val();
        self.sel_or.next = !self.any_nan.val() && self.is_or.val();
        self.sel_xor.next = !(self.any_nan.val()
            || self.is_add.val()
            || self.is_and.val()
            || self.is_or.val()
            || self.is_min.val()
            || self.is_max.val());
        self.use_sum.next = !self.any_nan.val() && self.is_add.val();
        // The truth table: entry (x, y) = 11 is set by x, y, and, or and NaN; 10 by x, or, xor,
        // NaN; 01 by y, or, xor, NaN; 00 by NaN (all ones, its sign cleared below).
        self.m3.next = self.zero.val();
        if self.sel_x.val() || self.sel_y.val() || self.sel_and.val() || self.sel_or.val() || self.to_nan.val() {
            self.m3.next = self.ones.val();
        }
        self.m2.next = self.zero.val();
        if self.sel_x.val() || self.sel_or.val() || self.sel_xor.val() || self.to_nan.val() {
            self.m2.next = self.ones.val();
        }
        self.m1.next = self.zero.val();
        if self.sel_y.val() || self.sel_or.val() || self.sel_xor.val() || self.to_nan.val() {
            self.m1.next = self.ones.val();
        }
        self.m0.next = self.zero.val();
        if self.to_nan.val() {
            self.m0.next = self.ones.val();
        }
        self.bitwise.next = (self.m3.val() & self.x.val() & self.y.val())
            | (self.m2.val() & self.x.val() & !self.y.val())
            | (self.m1.val() & !self.x.val() & self.y.val())
            | (self.m0.val() & !self.x.val() & !self.y.val());
        self.sum.next = self.x.val() + self.y.val();
        self.nan_sign.next = self.zero.val();
        if self.to_nan.val() {
            self.nan_sign.next = self.sign_bit.val();
        }
        self.sum_mask.next = self.zero.val();
        if self.use_sum.val() {
            self.sum_mask.next = self.ones.val();
        }
        // The result's key: x's or y's, as min/max picks; for the canonical NaN and the other
        // ops no compare reads it (a NaN operand never decides a compare: `any_nan` overrides it).
        self.z_k.next = self.y_k.val();
        if self.sel_x.val() {
            self.z_k.next = self.x_k.val();
        }
        // (An AND-OR rather than an if: 48 LUT4 fewer per node after ABC.)
        self.z.next =
            (self.bitwise.val() & !self.nan_sign.val() & !self.sum_mask.val()) | (self.sum.val() & self.sum_mask.val());
    }
}

/// The order key of a redux.sync min/max operand: an unsigned compare of two keys gives the order
/// of their values (PTX ISA §9.7.13.12, redux.sync: min/max over .u32, .s32 and .f32). Signed
/// integers flip the sign bit; floats map a negative number to its complement and set a positive
/// one's sign bit, so that -0 < +0 and the order of the magnitudes is kept on both sides. A NaN's
/// key is never compared (the node's NaN rules decide). Computed once where a value enters the
/// tree (the leaves, the identity); the nodes carry it beside the value.
#[derive(LogicBlock)]
pub struct ReduxKey {
    pub x: Signal<In, Bits<32>>,
    pub is_signed: Signal<In, Bit>,
    pub float: Signal<In, Bit>,
    pub key: Signal<Out, Bits<32>>,
    sign_bit: Constant<Bits<32>>,
}

impl Default for ReduxKey {
    fn default() -> Self {
        ReduxKey {
            x: Default::default(),
            is_signed: Default::default(),
            float: Default::default(),
            key: Default::default(),
            sign_bit: c32(0x8000_0000),
        }
    }
}

impl Logic for ReduxKey {
    #[hdl_gen]
    fn update(&mut self) {
        self.key.next = self.x.val();
        if self.is_signed.val() {
            self.key.next = self.x.val() ^ self.sign_bit.val();
        }
        if self.float.val() {
            if self.x.val().get_bit(31) {
                self.key.next = !self.x.val();
            } else {
                self.key.next = self.x.val() | self.sign_bit.val();
            }
        }
    }
}

/// Source-lane computation of shfl.sync for one lane (PTX shfl.sync pseudo-code).
#[derive(LogicBlock)]
pub struct ShflLane {
    pub mode: Signal<In, Bits<2>>,
    /// b[4:0]
    pub b: Signal<In, Bits<5>>,
    /// c[4:0]: the clamp value
    pub clamp: Signal<In, Bits<5>>,
    /// c[12:8]: the segment mask
    pub segmask: Signal<In, Bits<5>>,
    pub src: Signal<Out, Bits<5>>,
    pub pval: Signal<Out, Bit>,
    /// The lane this computation is for (lane `i` of the beat being taken).
    pub lane: Signal<In, Bits<5>>,
    seg: Signal<Local, Bits<5>>,
    max_lane: Signal<Local, Bits<5>>,
    j: Signal<Local, Bits<5>>,
    up_sum: Signal<Local, Bits<7>>,
    down_sum: Signal<Local, Bits<7>>,
    mode_up: Constant<Bits<2>>,
    mode_down: Constant<Bits<2>>,
    mode_bfly: Constant<Bits<2>>,
}

impl Default for ShflLane {
    fn default() -> Self {
        ShflLane {
            mode: Default::default(),
            b: Default::default(),
            clamp: Default::default(),
            segmask: Default::default(),
            src: Default::default(),
            pval: Default::default(),
            lane: Default::default(),
            seg: Default::default(),
            max_lane: Default::default(),
            j: Default::default(),
            up_sum: Default::default(),
            down_sum: Default::default(),
            mode_up: c_code(ShflMode::Up.code()),
            mode_down: c_code(ShflMode::Down.code()),
            mode_bfly: c_code(ShflMode::Bfly.code()),
        }
    }
}

impl Logic for ShflLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.seg.next = self.segmask.val();
        self.max_lane.next = (self.lane.val() & self.seg.val()) | (self.clamp.val() & !self.seg.val());
        // up: j = lane - b is valid when j >= maxLane, i.e. lane >= b + maxLane (7-bit, no wrap).
        self.up_sum.next = bit_cast::<7, 5>(self.b.val()) + bit_cast::<7, 5>(self.max_lane.val());
        self.down_sum.next = bit_cast::<7, 5>(self.lane.val()) + bit_cast::<7, 5>(self.b.val());
        // idx
        self.j.next = (self.lane.val() & self.seg.val()) | (self.b.val() & !self.seg.val());
        self.pval.next = self.j.val() <= self.max_lane.val();
        if self.mode.val() == self.mode_up.val() {
            self.j.next = self.lane.val() - self.b.val();
            self.pval.next = bit_cast::<7, 5>(self.lane.val()) >= self.up_sum.val();
        }
        if self.mode.val() == self.mode_down.val() {
            self.j.next = self.lane.val() + self.b.val();
            self.pval.next = self.down_sum.val() <= bit_cast::<7, 5>(self.max_lane.val());
        }
        if self.mode.val() == self.mode_bfly.val() {
            self.j.next = self.lane.val() ^ self.b.val();
            self.pval.next = (self.lane.val() ^ self.b.val()) <= self.max_lane.val();
        }
        self.src.next = self.lane.val();
        if self.pval.val() {
            self.src.next = self.j.val();
        }
    }
}
