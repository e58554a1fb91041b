//! The warp network's datapath blocks: the match comparator row, the redux combiner, the shfl
//! source-lane computation and a 32-bit pack. The network instantiates `lanes_per_beat` of the
//! per-lane ones (one per lane of a beat), not 32.

use rust_hdl::prelude::*;
use smsync_contract::encoding::{ReduxOp, ShflMode};

use super::{c32, c_code, one_hots, CANONICAL_NAN, LANES};

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
            one_hot: one_hots(),
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
#[derive(LogicBlock)]
pub struct ReduxNode {
    pub x: Signal<In, Bits<32>>,
    pub y: Signal<In, Bits<32>>,
    pub op: Signal<In, Bits<3>>,
    pub is_signed: Signal<In, Bit>,
    pub float: Signal<In, Bit>,
    /// `.NaN`: any NaN input makes the result the canonical NaN.
    pub nan_mode: Signal<In, Bit>,
    pub z: Signal<Out, Bits<32>>,
    x_key: Signal<Local, Bits<32>>,
    y_key: Signal<Local, Bits<32>>,
    x_nan: Signal<Local, Bit>,
    y_nan: Signal<Local, Bit>,
    x_less: Signal<Local, Bit>,
    op_add: Constant<Bits<3>>,
    op_min: Constant<Bits<3>>,
    op_max: Constant<Bits<3>>,
    op_and: Constant<Bits<3>>,
    op_or: Constant<Bits<3>>,
    sign_bit: Constant<Bits<32>>,
    exp_mask: Constant<Bits<32>>,
    mant_mask: Constant<Bits<32>>,
    canonical_nan: Constant<Bits<32>>,
    zero: Constant<Bits<32>>,
}

impl Default for ReduxNode {
    fn default() -> Self {
        ReduxNode {
            x: Default::default(),
            y: Default::default(),
            op: Default::default(),
            is_signed: Default::default(),
            float: Default::default(),
            nan_mode: Default::default(),
            z: Default::default(),
            x_key: Default::default(),
            y_key: Default::default(),
            x_nan: Default::default(),
            y_nan: Default::default(),
            x_less: Default::default(),
            op_add: c_code(ReduxOp::Add.code()),
            op_min: c_code(ReduxOp::Min.code()),
            op_max: c_code(ReduxOp::Max.code()),
            op_and: c_code(ReduxOp::And.code()),
            op_or: c_code(ReduxOp::Or.code()),
            sign_bit: c32(0x8000_0000),
            exp_mask: c32(0x7F80_0000),
            mant_mask: c32(0x007F_FFFF),
            canonical_nan: c32(CANONICAL_NAN),
            zero: c32(0),
        }
    }
}

impl Logic for ReduxNode {
    #[hdl_gen]
    fn update(&mut self) {
        // Order keys: unsigned compare of the key gives the value order. Signed ints flip the sign
        // bit; floats map negative numbers to their complement so that -0 < +0 (PTX ISA §9.7.13.12).
        self.x_key.next = self.x.val();
        self.y_key.next = self.y.val();
        if self.is_signed.val() {
            self.x_key.next = self.x.val() ^ self.sign_bit.val();
            self.y_key.next = self.y.val() ^ self.sign_bit.val();
        }
        if self.float.val() {
            if self.x.val().get_bit(31) {
                self.x_key.next = !self.x.val();
            } else {
                self.x_key.next = self.x.val() | self.sign_bit.val();
            }
            if self.y.val().get_bit(31) {
                self.y_key.next = !self.y.val();
            } else {
                self.y_key.next = self.y.val() | self.sign_bit.val();
            }
        }
        self.x_less.next = self.x_key.val() < self.y_key.val();
        self.x_nan.next = self.float.val()
            && ((self.x.val() & self.exp_mask.val()) == self.exp_mask.val())
            && ((self.x.val() & self.mant_mask.val()) != self.zero.val());
        self.y_nan.next = self.float.val()
            && ((self.y.val() & self.exp_mask.val()) == self.exp_mask.val())
            && ((self.y.val() & self.mant_mask.val()) != self.zero.val());
        self.z.next = self.x.val() ^ self.y.val();
        if self.op.val() == self.op_add.val() {
            self.z.next = self.x.val() + self.y.val();
        }
        if self.op.val() == self.op_and.val() {
            self.z.next = self.x.val() & self.y.val();
        }
        if self.op.val() == self.op_or.val() {
            self.z.next = self.x.val() | self.y.val();
        }
        if self.op.val() == self.op_min.val() {
            if self.x_less.val() {
                self.z.next = self.x.val();
            } else {
                self.z.next = self.y.val();
            }
        }
        if self.op.val() == self.op_max.val() {
            if self.x_less.val() {
                self.z.next = self.y.val();
            } else {
                self.z.next = self.x.val();
            }
        }
        // NaN rules: with .NaN any NaN wins; without, a NaN operand is ignored and two NaNs give
        // the canonical NaN (so the tree answers NaN only when every input is NaN).
        if self.x_nan.val() && self.y_nan.val() {
            self.z.next = self.canonical_nan.val();
        } else if self.x_nan.val() || self.y_nan.val() {
            if self.nan_mode.val() {
                self.z.next = self.canonical_nan.val();
            } else if self.x_nan.val() {
                self.z.next = self.y.val();
            } else {
                self.z.next = self.x.val();
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
