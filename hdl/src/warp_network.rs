//! warp_network: the warp-level vote / match / redux / elect / activemask / bar.warp.sync /
//! shfl.sync network, in rust-hdl. Mirrors `smsync_sim::units::warp_network`.
//!
//! ## Ports (one warp-level request in, one response out)
//!
//! * request: `req_valid`/`req_ready`, `req_op` (6-bit `encoding::Op` code), `req_sub` (VoteMode /
//!   ReduxOp / ShflMode code), `req_dtype` (`DataType` code), `req_flags` (`encoding::flags`),
//!   `req_cta`, `req_warp`, `req_member` (membermask), `req_active` (lanes executing this request),
//!   `req_live` (non-exited lanes), and per lane `lane_a` (64-bit operand a), `lane_b` (shfl b[4:0])
//!   `lane_clamp` (shfl c[4:0]) and `lane_segmask` (shfl c[12:8]).
//! * response: `resp_valid` (one-cycle pulse), `resp_cta`, `resp_warp`, `resp_lanes` (the lanes
//!   completed: every lane that arrived at the rendezvous), per-lane `resp_value` (32-bit d),
//!   `resp_preds` (bit i = p of lane i), `resp_error` (`ErrorCode`), `resp_error_lane`.
//!
//! ## Rendezvous
//!
//! Lanes of a diverged warp may reach a `.sync` op in several requests. Each (CTA slot, warp) has an
//! arrival record {arrived lanes, membermask, op, predicate bits}, held in a 32-entry RAM per CTA
//! slot (rust-hdl's `RAM` widget: LUT or block RAM on an FPGA) with a flip-flop valid bit per warp,
//! so that completion and reset clear a record at once. A request merges its active
//! lanes into the record; the op fires when every live lane of the membermask has arrived
//! (exited lanes count as arrived: PTX ISA §9.7.13.9-§9.7.13.12 for vote/match/redux, and the
//! project reads bar.warp.sync, §9.7.13.2, the same way). The 1-bit vote predicates live in the record.
//! The 64-bit operands of match/redux/shfl lanes that arrived early are held in ONE staging buffer
//! shared by the unit: while it holds a partial data op of warp W, a partial or completing data op
//! of another warp is back-pressured (`req_ready` low) until W completes.
//!
//! ## Timing
//!
//! The sender holds a request on the port until `req_ready` (the top does). The first cycle of a
//! request reads its warp's record from the RAM (`req_ready` low); in the second the request is
//! accepted and everything but iterative match.any is computed and registered: the response is
//! valid one clock after acceptance, two after the request appeared (vote, redux, elect,
//! match.all, parallel match.any, shfl, activemask). One request per two cycles. With
//! `match_impl: iterative`, match.any computes one lane's row per cycle over all 32 lanes:
//! response 33 cycles after acceptance, `req_ready` low meanwhile.
//!
//! ## Errors
//!
//! `NotInMemberMask` (an active lane outside membermask; first such lane), `MemberMaskMismatch`
//! (a later request of the same warp uses another membermask or another op; the record is dropped),
//! `NotBuilt` (match with `features.match_sync` off, redux.f32 with `features.redux_f32` off).

use rust_hdl::prelude::*;
use smsync_contract::config::{Config, MatchImpl};
use smsync_contract::encoding::{flags, DataType, ErrorCode, Op, ReduxOp, ShflMode, VoteMode};

pub const LANES: usize = 32;
/// The canonical NaN redux.sync.f32 returns (PTX ISA §9.7.13.12 gives no bit pattern; project constant).
pub const CANONICAL_NAN: u32 = 0x7FFF_FFFF;

/// Arrival-record word: arrived lanes [31:0], membermask [63:32], kind [84:64] ({flags, dtype,
/// sub, op}), vote predicates [116:85] (the offsets are literals in `update`, which `hdl_gen`
/// turns into Verilog).
const REC_BITS: usize = 117;

fn c32(v: u32) -> Constant<Bits<32>> {
    Constant::new(bits(v as u64))
}
fn c_code<const N: usize>(v: u8) -> Constant<Bits<N>> {
    Constant::new(bits(v as u64))
}
fn vec_of<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}
fn one_hots() -> Vec<Constant<Bits<32>>> {
    (0..LANES).map(|i| c32(1 << i)).collect()
}
fn lane_ids() -> Vec<Constant<Bits<5>>> {
    (0..LANES).map(|i| Constant::new(bits(i as u64))).collect()
}

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
        for j in 0..32 {
            self.pack.bit[j].next = self.vals.val().get_bits::<32>(j * 64) == self.key.val().get_bits::<32>(0);
            if self.wide.val() {
                self.pack.bit[j].next = self.vals.val().get_bits::<64>(j * 64) == self.key.val();
            }
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
    lane: Constant<Bits<5>>,
    seg: Signal<Local, Bits<5>>,
    max_lane: Signal<Local, Bits<5>>,
    j: Signal<Local, Bits<5>>,
    up_sum: Signal<Local, Bits<7>>,
    down_sum: Signal<Local, Bits<7>>,
    mode_up: Constant<Bits<2>>,
    mode_down: Constant<Bits<2>>,
    mode_bfly: Constant<Bits<2>>,
}

impl ShflLane {
    fn new(lane: usize) -> Self {
        ShflLane {
            mode: Default::default(),
            b: Default::default(),
            clamp: Default::default(),
            segmask: Default::default(),
            src: Default::default(),
            pval: Default::default(),
            lane: Constant::new(bits(lane as u64)),
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

/// The warp network. Build it with [`WarpNetwork::new`] from a [`Config`].
#[derive(LogicBlock)]
pub struct WarpNetwork {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: drops every arrival record and the staging buffer.
    pub reset: Signal<In, Bit>,
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<6>>,
    pub req_sub: Signal<In, Bits<3>>,
    pub req_dtype: Signal<In, Bits<4>>,
    pub req_flags: Signal<In, Bits<8>>,
    pub req_cta: Signal<In, Bits<5>>,
    pub req_warp: Signal<In, Bits<5>>,
    pub req_member: Signal<In, Bits<32>>,
    pub req_active: Signal<In, Bits<32>>,
    pub req_live: Signal<In, Bits<32>>,
    pub lane_a: Vec<Signal<In, Bits<64>>>,
    pub lane_b: Vec<Signal<In, Bits<5>>>,
    pub lane_clamp: Vec<Signal<In, Bits<5>>>,
    pub lane_segmask: Vec<Signal<In, Bits<5>>>,

    pub resp_valid: Signal<Out, Bit>,
    pub resp_cta: Signal<Out, Bits<5>>,
    pub resp_warp: Signal<Out, Bits<5>>,
    pub resp_lanes: Signal<Out, Bits<32>>,
    pub resp_value: Vec<Signal<Out, Bits<32>>>,
    pub resp_preds: Signal<Out, Bits<32>>,
    pub resp_error: Signal<Out, Bits<6>>,
    pub resp_error_lane: Signal<Out, Bits<5>>,

    // --- arrival records, one per (CTA slot, warp): a RAM per CTA slot, addressed by warp ---
    /// Record layout (see `REC_BITS`): {pred, kind, member, arrived}. kind = {flags, dtype,
    /// sub, op}: lanes must arrive with the same op and qualifiers.
    rec_ram: Vec<RAM<Bits<REC_BITS>, 5>>,
    /// Per CTA slot, bit w: warp w has a pending record (the RAM word is meaningful). Flip-flops,
    /// so that reset and completion clear a record in one cycle.
    rec_valid: Vec<DFF<Bits<32>>>,
    cta_id: Vec<Constant<Bits<5>>>,
    /// The request on the port has been looked up: the RAMs' read data is its warp's record.
    looked: DFF<Bit>,

    // --- staging buffer for early lanes of match/redux/shfl (also the iterative match source) ---
    stage_busy: DFF<Bit>,
    stage_cta: DFF<Bits<5>>,
    stage_warp: DFF<Bits<5>>,
    stage_a: Vec<DFF<Bits<64>>>,
    stage_b: Vec<DFF<Bits<5>>>,
    stage_clamp: Vec<DFF<Bits<5>>>,
    stage_segmask: Vec<DFF<Bits<5>>>,

    // --- iterative match.any state ---
    iter_busy: DFF<Bit>,
    iter_lane: DFF<Bits<5>>,
    iter_part: DFF<Bits<32>>,
    iter_lanes: DFF<Bits<32>>,
    iter_wide: DFF<Bit>,

    // --- output registers ---
    out_valid: DFF<Bit>,
    out_cta: DFF<Bits<5>>,
    out_warp: DFF<Bits<5>>,
    out_lanes: DFF<Bits<32>>,
    out_value: Vec<DFF<Bits<32>>>,
    out_preds: DFF<Bits<32>>,
    out_error: DFF<Bits<6>>,
    out_error_lane: DFF<Bits<5>>,

    // --- datapath ---
    match_rows: Vec<MatchRow>,
    match_all_row: MatchRow,
    redux_nodes: Vec<ReduxNode>,
    shfl: Vec<ShflLane>,
    pred_pack: Pack32,
    shfl_pred_pack: Pack32,

    // --- request-cycle combinational signals ---
    fire: Signal<Local, Bit>,
    warp_onehot: Signal<Local, Bits<32>>,
    hit_valid_bits: Signal<Local, Bits<32>>,
    hit_raw: Signal<Local, Bits<REC_BITS>>,
    /// Record update decided in the accept logic, applied to the RAM / valid bits of `req_cta`.
    rec_write: Signal<Local, Bit>,
    rec_clear: Signal<Local, Bit>,
    rec_wdata: Signal<Local, Bits<REC_BITS>>,
    hit_valid: Signal<Local, Bit>,
    hit_arrived: Signal<Local, Bits<32>>,
    hit_member: Signal<Local, Bits<32>>,
    hit_kind: Signal<Local, Bits<21>>,
    req_kind: Signal<Local, Bits<21>>,
    /// `exit` (WarpExit): a re-check of the warp's pending rendezvous with its new live mask.
    is_exit: Signal<Local, Bit>,
    /// The op the request acts as: its own, or for an exit the pending record's (eff_* below).
    eff_op: Signal<Local, Bits<6>>,
    eff_sub: Signal<Local, Bits<3>>,
    eff_dtype: Signal<Local, Bits<4>>,
    eff_flags: Signal<Local, Bits<8>>,
    eff_member: Signal<Local, Bits<32>>,
    eff_active: Signal<Local, Bits<32>>,
    eff_kind: Signal<Local, Bits<21>>,
    hit_pred: Signal<Local, Bits<32>>,
    is_rendezvous: Signal<Local, Bit>,
    is_data: Signal<Local, Bit>,
    stage_blocked: Signal<Local, Bit>,
    mismatch: Signal<Local, Bit>,
    outside: Signal<Local, Bits<32>>,
    outside_low: Signal<Local, Bits<32>>,
    arrived: Signal<Local, Bits<32>>,
    part: Signal<Local, Bits<32>>,
    complete: Signal<Local, Bit>,
    leader: Signal<Local, Bits<32>>,
    leader_id: Signal<Local, Bits<5>>,
    outside_id: Signal<Local, Bits<5>>,
    first_active_id: Signal<Local, Bits<5>>,
    active_low: Signal<Local, Bits<32>>,
    pv: Signal<Local, Bits<32>>,
    vote_pred: Signal<Local, Bit>,
    merged_a: Vec<Signal<Local, Bits<64>>>,
    merged_packed: Signal<Local, Bits<2048>>,
    row_src: Vec<Signal<Local, Bits<64>>>,
    row_packed: Signal<Local, Bits<2048>>,
    leaf: Vec<Signal<Local, Bits<32>>>,
    redux_identity: Signal<Local, Bits<32>>,
    redux_float: Signal<Local, Bit>,
    redux_abs: Signal<Local, Bit>,
    shfl_value: Vec<Signal<Local, Bits<32>>>,
    iter_key: Signal<Local, Bits<64>>,
    not_built: Signal<Local, Bit>,

    // --- constants from smsync_sim::encoding and the config ---
    lane_id: Vec<Constant<Bits<5>>>,
    one_hot: Vec<Constant<Bits<32>>>,
    k_zero_rec: Constant<Bits<REC_BITS>>,
    k_zero32: Constant<Bits<32>>,
    k_ones32: Constant<Bits<32>>,
    k_one32: Constant<Bits<32>>,
    k_abs_mask: Constant<Bits<32>>,
    k_zero64: Constant<Bits<64>>,
    k_last_lane: Constant<Bits<5>>,
    k_one5: Constant<Bits<5>>,
    k_op_vote: Constant<Bits<6>>,
    k_op_match_any: Constant<Bits<6>>,
    k_op_match_all: Constant<Bits<6>>,
    k_op_redux: Constant<Bits<6>>,
    k_op_elect: Constant<Bits<6>>,
    k_op_activemask: Constant<Bits<6>>,
    k_op_exit: Constant<Bits<6>>,
    k_op_warpsync: Constant<Bits<6>>,
    k_op_shfl: Constant<Bits<6>>,
    k_vote_ballot: Constant<Bits<3>>,
    k_vote_any: Constant<Bits<3>>,
    k_vote_uni: Constant<Bits<3>>,
    k_redux_min: Constant<Bits<3>>,
    k_redux_max: Constant<Bits<3>>,
    k_redux_and: Constant<Bits<3>>,
    k_dt_b64: Constant<Bits<4>>,
    k_dt_s32: Constant<Bits<4>>,
    k_dt_f32: Constant<Bits<4>>,
    k_flag_negate: Constant<Bits<8>>,
    k_flag_abs: Constant<Bits<8>>,
    k_flag_nan: Constant<Bits<8>>,
    k_zero8: Constant<Bits<8>>,
    k_err_none: Constant<Bits<6>>,
    k_err_not_in_mask: Constant<Bits<6>>,
    k_err_mismatch: Constant<Bits<6>>,
    k_err_not_built: Constant<Bits<6>>,
    k_id_int_min: Constant<Bits<32>>,
    k_id_int_max: Constant<Bits<32>>,
    k_pos_inf: Constant<Bits<32>>,
    k_neg_inf: Constant<Bits<32>>,
    k_canonical_nan: Constant<Bits<32>>,
    k_iterative: Constant<Bit>,
    k_match_built: Constant<Bit>,
    k_redux_f32_built: Constant<Bit>,
}

impl WarpNetwork {
    pub fn new(config: &Config) -> WarpNetwork {
        let slots = config.cta_slots as usize;
        let op = |o: Op| c_code::<6>(o.code());
        WarpNetwork {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_sub: Default::default(),
            req_dtype: Default::default(),
            req_flags: Default::default(),
            req_cta: Default::default(),
            req_warp: Default::default(),
            req_member: Default::default(),
            req_active: Default::default(),
            req_live: Default::default(),
            lane_a: vec_of(LANES),
            lane_b: vec_of(LANES),
            lane_clamp: vec_of(LANES),
            lane_segmask: vec_of(LANES),
            resp_valid: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_lanes: Default::default(),
            resp_value: vec_of(LANES),
            resp_preds: Default::default(),
            resp_error: Default::default(),
            resp_error_lane: Default::default(),
            rec_ram: vec_of(slots),
            rec_valid: vec_of(slots),
            cta_id: (0..slots).map(|c| Constant::new(bits(c as u64))).collect(),
            looked: Default::default(),
            stage_busy: Default::default(),
            stage_cta: Default::default(),
            stage_warp: Default::default(),
            stage_a: vec_of(LANES),
            stage_b: vec_of(LANES),
            stage_clamp: vec_of(LANES),
            stage_segmask: vec_of(LANES),
            iter_busy: Default::default(),
            iter_lane: Default::default(),
            iter_part: Default::default(),
            iter_lanes: Default::default(),
            iter_wide: Default::default(),
            out_valid: Default::default(),
            out_cta: Default::default(),
            out_warp: Default::default(),
            out_lanes: Default::default(),
            out_value: vec_of(LANES),
            out_preds: Default::default(),
            out_error: Default::default(),
            out_error_lane: Default::default(),
            // parallel: one comparator row per lane (32x32 comparators); iterative: one row
            // reused for a lane per cycle.
            match_rows: vec_of(match config.match_impl {
                MatchImpl::Parallel => LANES,
                MatchImpl::Iterative => 1,
            }),
            match_all_row: Default::default(),
            redux_nodes: vec_of(LANES - 1),
            shfl: (0..LANES).map(ShflLane::new).collect(),
            pred_pack: Default::default(),
            shfl_pred_pack: Default::default(),
            fire: Default::default(),
            warp_onehot: Default::default(),
            hit_valid_bits: Default::default(),
            hit_raw: Default::default(),
            rec_write: Default::default(),
            rec_clear: Default::default(),
            rec_wdata: Default::default(),
            hit_valid: Default::default(),
            hit_arrived: Default::default(),
            hit_member: Default::default(),
            hit_kind: Default::default(),
            req_kind: Default::default(),
            is_exit: Default::default(),
            eff_op: Default::default(),
            eff_sub: Default::default(),
            eff_dtype: Default::default(),
            eff_flags: Default::default(),
            eff_member: Default::default(),
            eff_active: Default::default(),
            eff_kind: Default::default(),
            hit_pred: Default::default(),
            is_rendezvous: Default::default(),
            is_data: Default::default(),
            stage_blocked: Default::default(),
            mismatch: Default::default(),
            outside: Default::default(),
            outside_low: Default::default(),
            arrived: Default::default(),
            part: Default::default(),
            complete: Default::default(),
            leader: Default::default(),
            leader_id: Default::default(),
            outside_id: Default::default(),
            first_active_id: Default::default(),
            active_low: Default::default(),
            pv: Default::default(),
            vote_pred: Default::default(),
            merged_a: vec_of(LANES),
            merged_packed: Default::default(),
            row_src: vec_of(LANES),
            row_packed: Default::default(),
            leaf: vec_of(LANES),
            redux_identity: Default::default(),
            redux_float: Default::default(),
            redux_abs: Default::default(),
            shfl_value: vec_of(LANES),
            iter_key: Default::default(),
            not_built: Default::default(),
            lane_id: lane_ids(),
            one_hot: one_hots(),
            k_zero_rec: Constant::new(bits(0)),
            k_zero32: c32(0),
            k_ones32: c32(u32::MAX),
            k_one32: c32(1),
            k_abs_mask: c32(0x7FFF_FFFF),
            k_zero64: Constant::new(bits(0)),
            k_last_lane: Constant::new(bits(31)),
            k_one5: Constant::new(bits(1)),
            k_op_vote: op(Op::VoteSync),
            k_op_match_any: op(Op::MatchAny),
            k_op_match_all: op(Op::MatchAll),
            k_op_redux: op(Op::ReduxSync),
            k_op_elect: op(Op::ElectSync),
            k_op_activemask: op(Op::Activemask),
            k_op_exit: op(Op::WarpExit),
            k_op_warpsync: op(Op::WarpSync),
            k_op_shfl: op(Op::ShflSync),
            k_vote_ballot: c_code(VoteMode::Ballot.code()),
            k_vote_any: c_code(VoteMode::Any.code()),
            k_vote_uni: c_code(VoteMode::Uni.code()),
            k_redux_min: c_code(ReduxOp::Min.code()),
            k_redux_max: c_code(ReduxOp::Max.code()),
            k_redux_and: c_code(ReduxOp::And.code()),
            k_dt_b64: c_code(DataType::B64.code()),
            k_dt_s32: c_code(DataType::S32.code()),
            k_dt_f32: c_code(DataType::F32.code()),
            k_flag_negate: c_code(flags::NEGATE),
            k_flag_abs: c_code(flags::MOD_A),
            k_flag_nan: c_code(flags::MOD_B),
            k_zero8: c_code(0),
            k_err_none: c_code(ErrorCode::None.code()),
            k_err_not_in_mask: c_code(ErrorCode::NotInMemberMask.code()),
            k_err_mismatch: c_code(ErrorCode::MemberMaskMismatch.code()),
            k_err_not_built: c_code(ErrorCode::NotBuilt.code()),
            k_id_int_min: c32(0x8000_0000),
            k_id_int_max: c32(0x7FFF_FFFF),
            k_pos_inf: c32(0x7F80_0000),
            k_neg_inf: c32(0xFF80_0000),
            k_canonical_nan: c32(CANONICAL_NAN),
            k_iterative: Constant::new(config.match_impl == MatchImpl::Iterative),
            k_match_built: Constant::new(config.features.match_sync),
            k_redux_f32_built: Constant::new(config.features.redux_f32),
        }
    }

    /// Number of (CTA slot, warp) arrival records (a 32-entry RAM per CTA slot).
    pub fn records(&self) -> usize {
        self.rec_ram.len() * LANES
    }
}

impl Logic for WarpNetwork {
    #[hdl_gen]
    fn update(&mut self) {
        // ---------------- clocks and register defaults (hold) ----------------
        for c in 0..self.rec_ram.len() {
            self.rec_ram[c].read_clock.next = self.clock.val();
            self.rec_ram[c].write_clock.next = self.clock.val();
            self.rec_valid[c].clock.next = self.clock.val();
            self.rec_valid[c].d.next = self.rec_valid[c].q.val();
        }
        for i in 0..32 {
            self.stage_a[i].clock.next = self.clock.val();
            self.stage_b[i].clock.next = self.clock.val();
            self.stage_clamp[i].clock.next = self.clock.val();
            self.stage_segmask[i].clock.next = self.clock.val();
            self.out_value[i].clock.next = self.clock.val();
            self.stage_a[i].d.next = self.stage_a[i].q.val();
            self.stage_b[i].d.next = self.stage_b[i].q.val();
            self.stage_clamp[i].d.next = self.stage_clamp[i].q.val();
            self.stage_segmask[i].d.next = self.stage_segmask[i].q.val();
            self.out_value[i].d.next = self.out_value[i].q.val();
        }
        dff_setup!(
            self,
            clock,
            looked,
            stage_busy,
            stage_cta,
            stage_warp,
            iter_busy,
            iter_lane,
            iter_part,
            iter_lanes,
            iter_wide,
            out_valid,
            out_cta,
            out_warp,
            out_lanes,
            out_preds,
            out_error,
            out_error_lane
        );
        self.out_valid.d.next = false;

        // ---------------- look up the warp's arrival record ----------------
        // The record RAMs read the port's warp every cycle; their data is the record one clock
        // later. A request is therefore taken no earlier than its second cycle on the port (the
        // sender holds it until `req_ready`): `looked` says the first cycle has passed. Records
        // change only when a request is taken, so the data read is never stale.
        self.warp_onehot.next = self.k_zero32.val();
        for w in 0..32 {
            if self.req_warp.val() == self.lane_id[w].val() {
                self.warp_onehot.next = self.one_hot[w].val();
            }
        }
        self.hit_valid_bits.next = self.k_zero32.val();
        self.hit_raw.next = self.k_zero_rec.val();
        for c in 0..self.rec_ram.len() {
            self.rec_ram[c].read_address.next = self.req_warp.val();
            if self.req_cta.val() == self.cta_id[c].val() {
                self.hit_valid_bits.next = self.rec_valid[c].q.val();
                self.hit_raw.next = self.rec_ram[c].read_data.val();
            }
        }
        self.hit_valid.next = (self.hit_valid_bits.val() & self.warp_onehot.val()).any();
        self.hit_arrived.next = self.k_zero32.val();
        if self.hit_valid.val() {
            self.hit_arrived.next = bit_cast::<32, REC_BITS>(self.hit_raw.val());
        }
        self.hit_member.next = self.hit_raw.val().get_bits::<32>(32);
        self.hit_pred.next = self.hit_raw.val().get_bits::<32>(85);
        self.req_kind.next = bit_cast::<21, 6>(self.req_op.val())
            | (bit_cast::<21, 3>(self.req_sub.val()) << 6u64)
            | (bit_cast::<21, 4>(self.req_dtype.val()) << 9u64)
            | (bit_cast::<21, 8>(self.req_flags.val()) << 13u64);
        self.hit_kind.next = self.hit_raw.val().get_bits::<21>(64);

        // ---------------- the op the request acts as ----------------
        // An exit (WarpExit) acts as an arrival of no lanes at the warp's pending rendezvous,
        // with the exit's (smaller) live mask: it fires the rendezvous if the exited lanes were
        // the last ones it waited for (exited lanes count as arrived, PTX ISA §9.7.13.2 / §9.7.13.9).
        self.is_exit.next = self.req_op.val() == self.k_op_exit.val();
        self.eff_op.next = self.req_op.val();
        self.eff_sub.next = self.req_sub.val();
        self.eff_dtype.next = self.req_dtype.val();
        self.eff_flags.next = self.req_flags.val();
        self.eff_member.next = self.req_member.val();
        self.eff_active.next = self.req_active.val();
        self.eff_kind.next = self.req_kind.val();
        if self.is_exit.val() {
            self.eff_active.next = self.k_zero32.val();
            if self.hit_valid.val() {
                self.eff_op.next = bit_cast::<6, 21>(self.hit_kind.val());
                self.eff_sub.next = bit_cast::<3, 21>(self.hit_kind.val() >> 6u64);
                self.eff_dtype.next = bit_cast::<4, 21>(self.hit_kind.val() >> 9u64);
                self.eff_flags.next = bit_cast::<8, 21>(self.hit_kind.val() >> 13u64);
                self.eff_member.next = self.hit_member.val();
                self.eff_kind.next = self.hit_kind.val();
            }
        }

        // ---------------- classify the request ----------------
        self.is_data.next = (self.eff_op.val() == self.k_op_match_any.val())
            || (self.eff_op.val() == self.k_op_match_all.val())
            || (self.eff_op.val() == self.k_op_redux.val())
            || (self.eff_op.val() == self.k_op_shfl.val());
        self.is_rendezvous.next = self.is_data.val()
            || (self.eff_op.val() == self.k_op_vote.val())
            || (self.eff_op.val() == self.k_op_elect.val())
            || (self.eff_op.val() == self.k_op_warpsync.val());
        self.stage_blocked.next = self.is_data.val()
            && self.stage_busy.q.val()
            && ((self.stage_cta.q.val() != self.req_cta.val()) || (self.stage_warp.q.val() != self.req_warp.val()));
        self.req_ready.next = self.looked.q.val() && !self.iter_busy.q.val() && !self.stage_blocked.val();
        self.fire.next =
            self.req_valid.val() && self.looked.q.val() && !self.iter_busy.q.val() && !self.stage_blocked.val();
        self.looked.d.next = self.req_valid.val() && !self.fire.val();

        self.mismatch.next = self.hit_valid.val()
            && !self.is_exit.val()
            && ((self.hit_member.val() != self.eff_member.val())
                || (self.hit_kind.val() != self.req_kind.val())
                || (self.hit_arrived.val() & self.eff_active.val()).any());
        self.outside.next = self.eff_active.val() & !self.eff_member.val();
        self.outside_low.next = self.outside.val() & (!self.outside.val() + self.k_one32.val());
        self.active_low.next = self.eff_active.val() & (!self.eff_active.val() + self.k_one32.val());
        self.arrived.next = self.eff_active.val();
        if self.hit_valid.val() {
            self.arrived.next = self.hit_arrived.val() | self.eff_active.val();
        }
        self.part.next = self.eff_member.val() & self.req_live.val();
        self.complete.next = (self.part.val() & !self.arrived.val()) == self.k_zero32.val();
        self.leader.next = self.part.val() & (!self.part.val() + self.k_one32.val());
        self.outside_id.next = self.lane_id[0].val();
        self.leader_id.next = self.lane_id[0].val();
        self.first_active_id.next = self.lane_id[0].val();
        for i in 0..32 {
            if self.outside_low.val().get_bit(i) {
                self.outside_id.next = self.lane_id[i].val();
            }
            if self.leader.val().get_bit(i) {
                self.leader_id.next = self.lane_id[i].val();
            }
            if self.active_low.val().get_bit(i) {
                self.first_active_id.next = self.lane_id[i].val();
            }
        }
        self.not_built.next = (!self.k_match_built.val()
            && ((self.eff_op.val() == self.k_op_match_any.val()) || (self.eff_op.val() == self.k_op_match_all.val())))
            || (!self.k_redux_f32_built.val()
                && (self.eff_op.val() == self.k_op_redux.val())
                && (self.eff_dtype.val() == self.k_dt_f32.val()));

        // ---------------- operands of every arrived lane ----------------
        for i in 0..32 {
            self.merged_a[i].next = self.k_zero64.val();
            if self.hit_arrived.val().get_bit(i) {
                self.merged_a[i].next = self.stage_a[i].q.val();
            }
            if self.eff_active.val().get_bit(i) {
                self.merged_a[i].next = self.lane_a[i].val();
            }
            self.pred_pack.bit[i].next = self.lane_a[i].val().get_bit(0);
        }

        // ---------------- vote ----------------
        self.pv.next =
            (self.hit_pred.val() & self.hit_arrived.val()) | (self.pred_pack.word.val() & self.eff_active.val());
        if (self.eff_flags.val() & self.k_flag_negate.val()) != self.k_zero8.val() {
            self.pv.next =
                !((self.hit_pred.val() & self.hit_arrived.val()) | (self.pred_pack.word.val() & self.eff_active.val()));
        }
        self.vote_pred.next = (self.part.val() & self.pv.val()) == self.part.val();
        if self.eff_sub.val() == self.k_vote_any.val() {
            self.vote_pred.next = (self.part.val() & self.pv.val()).any();
        }
        if self.eff_sub.val() == self.k_vote_uni.val() {
            self.vote_pred.next = ((self.part.val() & self.pv.val()) == self.part.val())
                || ((self.part.val() & self.pv.val()) == self.k_zero32.val());
        }

        // ---------------- match ----------------
        for r in 0..self.match_rows.len() {
            self.match_rows[r].wide.next = self.eff_dtype.val() == self.k_dt_b64.val();
            self.match_rows[r].part.next = self.part.val();
            self.match_rows[r].key.next = self.merged_a[r].val();
        }
        self.match_all_row.wide.next = self.eff_dtype.val() == self.k_dt_b64.val();
        self.match_all_row.part.next = self.part.val();
        self.match_all_row.key.next = self.k_zero64.val();
        for j in 0..32 {
            if self.leader.val().get_bit(j) {
                self.match_all_row.key.next = self.merged_a[j].val();
            }
        }
        self.merged_packed.next = (bit_cast::<2048, 64>(self.merged_a[0].val()) << 0u64)
            | (bit_cast::<2048, 64>(self.merged_a[1].val()) << 64u64)
            | (bit_cast::<2048, 64>(self.merged_a[2].val()) << 128u64)
            | (bit_cast::<2048, 64>(self.merged_a[3].val()) << 192u64)
            | (bit_cast::<2048, 64>(self.merged_a[4].val()) << 256u64)
            | (bit_cast::<2048, 64>(self.merged_a[5].val()) << 320u64)
            | (bit_cast::<2048, 64>(self.merged_a[6].val()) << 384u64)
            | (bit_cast::<2048, 64>(self.merged_a[7].val()) << 448u64)
            | (bit_cast::<2048, 64>(self.merged_a[8].val()) << 512u64)
            | (bit_cast::<2048, 64>(self.merged_a[9].val()) << 576u64)
            | (bit_cast::<2048, 64>(self.merged_a[10].val()) << 640u64)
            | (bit_cast::<2048, 64>(self.merged_a[11].val()) << 704u64)
            | (bit_cast::<2048, 64>(self.merged_a[12].val()) << 768u64)
            | (bit_cast::<2048, 64>(self.merged_a[13].val()) << 832u64)
            | (bit_cast::<2048, 64>(self.merged_a[14].val()) << 896u64)
            | (bit_cast::<2048, 64>(self.merged_a[15].val()) << 960u64)
            | (bit_cast::<2048, 64>(self.merged_a[16].val()) << 1024u64)
            | (bit_cast::<2048, 64>(self.merged_a[17].val()) << 1088u64)
            | (bit_cast::<2048, 64>(self.merged_a[18].val()) << 1152u64)
            | (bit_cast::<2048, 64>(self.merged_a[19].val()) << 1216u64)
            | (bit_cast::<2048, 64>(self.merged_a[20].val()) << 1280u64)
            | (bit_cast::<2048, 64>(self.merged_a[21].val()) << 1344u64)
            | (bit_cast::<2048, 64>(self.merged_a[22].val()) << 1408u64)
            | (bit_cast::<2048, 64>(self.merged_a[23].val()) << 1472u64)
            | (bit_cast::<2048, 64>(self.merged_a[24].val()) << 1536u64)
            | (bit_cast::<2048, 64>(self.merged_a[25].val()) << 1600u64)
            | (bit_cast::<2048, 64>(self.merged_a[26].val()) << 1664u64)
            | (bit_cast::<2048, 64>(self.merged_a[27].val()) << 1728u64)
            | (bit_cast::<2048, 64>(self.merged_a[28].val()) << 1792u64)
            | (bit_cast::<2048, 64>(self.merged_a[29].val()) << 1856u64)
            | (bit_cast::<2048, 64>(self.merged_a[30].val()) << 1920u64)
            | (bit_cast::<2048, 64>(self.merged_a[31].val()) << 1984u64);
        self.match_all_row.vals.next = self.merged_packed.val();
        // The iterative row compares the staged operands, one lane per cycle.
        self.iter_key.next = self.k_zero64.val();
        for j in 0..32 {
            self.row_src[j].next = self.merged_a[j].val();
            if self.k_iterative.val() {
                self.row_src[j].next = self.stage_a[j].q.val();
            }
            if self.iter_lane.q.val() == self.lane_id[j].val() {
                self.iter_key.next = self.stage_a[j].q.val();
            }
        }
        self.row_packed.next = (bit_cast::<2048, 64>(self.row_src[0].val()) << 0u64)
            | (bit_cast::<2048, 64>(self.row_src[1].val()) << 64u64)
            | (bit_cast::<2048, 64>(self.row_src[2].val()) << 128u64)
            | (bit_cast::<2048, 64>(self.row_src[3].val()) << 192u64)
            | (bit_cast::<2048, 64>(self.row_src[4].val()) << 256u64)
            | (bit_cast::<2048, 64>(self.row_src[5].val()) << 320u64)
            | (bit_cast::<2048, 64>(self.row_src[6].val()) << 384u64)
            | (bit_cast::<2048, 64>(self.row_src[7].val()) << 448u64)
            | (bit_cast::<2048, 64>(self.row_src[8].val()) << 512u64)
            | (bit_cast::<2048, 64>(self.row_src[9].val()) << 576u64)
            | (bit_cast::<2048, 64>(self.row_src[10].val()) << 640u64)
            | (bit_cast::<2048, 64>(self.row_src[11].val()) << 704u64)
            | (bit_cast::<2048, 64>(self.row_src[12].val()) << 768u64)
            | (bit_cast::<2048, 64>(self.row_src[13].val()) << 832u64)
            | (bit_cast::<2048, 64>(self.row_src[14].val()) << 896u64)
            | (bit_cast::<2048, 64>(self.row_src[15].val()) << 960u64)
            | (bit_cast::<2048, 64>(self.row_src[16].val()) << 1024u64)
            | (bit_cast::<2048, 64>(self.row_src[17].val()) << 1088u64)
            | (bit_cast::<2048, 64>(self.row_src[18].val()) << 1152u64)
            | (bit_cast::<2048, 64>(self.row_src[19].val()) << 1216u64)
            | (bit_cast::<2048, 64>(self.row_src[20].val()) << 1280u64)
            | (bit_cast::<2048, 64>(self.row_src[21].val()) << 1344u64)
            | (bit_cast::<2048, 64>(self.row_src[22].val()) << 1408u64)
            | (bit_cast::<2048, 64>(self.row_src[23].val()) << 1472u64)
            | (bit_cast::<2048, 64>(self.row_src[24].val()) << 1536u64)
            | (bit_cast::<2048, 64>(self.row_src[25].val()) << 1600u64)
            | (bit_cast::<2048, 64>(self.row_src[26].val()) << 1664u64)
            | (bit_cast::<2048, 64>(self.row_src[27].val()) << 1728u64)
            | (bit_cast::<2048, 64>(self.row_src[28].val()) << 1792u64)
            | (bit_cast::<2048, 64>(self.row_src[29].val()) << 1856u64)
            | (bit_cast::<2048, 64>(self.row_src[30].val()) << 1920u64)
            | (bit_cast::<2048, 64>(self.row_src[31].val()) << 1984u64);
        if self.k_iterative.val() {
            self.match_rows[0].key.next = self.iter_key.val();
            self.match_rows[0].part.next = self.iter_part.q.val();
            self.match_rows[0].wide.next = self.iter_wide.q.val();
        }
        for r in 0..self.match_rows.len() {
            self.match_rows[r].vals.next = self.row_packed.val();
        }

        // ---------------- redux: 31 combiners, 5 levels ----------------
        self.redux_float.next = self.eff_dtype.val() == self.k_dt_f32.val();
        self.redux_abs.next =
            self.redux_float.val() && ((self.eff_flags.val() & self.k_flag_abs.val()) != self.k_zero8.val());
        self.redux_identity.next = self.k_zero32.val();
        if self.eff_sub.val() == self.k_redux_and.val() {
            self.redux_identity.next = self.k_ones32.val();
        }
        if self.eff_sub.val() == self.k_redux_min.val() {
            self.redux_identity.next = self.k_ones32.val();
            if self.eff_dtype.val() == self.k_dt_s32.val() {
                self.redux_identity.next = self.k_id_int_max.val();
            }
        }
        if self.eff_sub.val() == self.k_redux_max.val() && self.eff_dtype.val() == self.k_dt_s32.val() {
            self.redux_identity.next = self.k_id_int_min.val();
        }
        if self.redux_float.val() {
            // Without .NaN a NaN operand is ignored: the canonical NaN is the identity.
            self.redux_identity.next = self.k_canonical_nan.val();
            if (self.eff_flags.val() & self.k_flag_nan.val()) != self.k_zero8.val() {
                self.redux_identity.next = self.k_neg_inf.val();
                if self.eff_sub.val() == self.k_redux_min.val() {
                    self.redux_identity.next = self.k_pos_inf.val();
                }
            }
        }
        for i in 0..32 {
            self.leaf[i].next = self.redux_identity.val();
            if self.part.val().get_bit(i) {
                self.leaf[i].next = self.merged_a[i].val().get_bits::<32>(0);
                if self.redux_abs.val() {
                    self.leaf[i].next = self.merged_a[i].val().get_bits::<32>(0) & self.k_abs_mask.val();
                }
            }
        }
        for n in 0..31 {
            self.redux_nodes[n].op.next = self.eff_sub.val();
            self.redux_nodes[n].is_signed.next = self.eff_dtype.val() == self.k_dt_s32.val();
            self.redux_nodes[n].float.next = self.redux_float.val();
            self.redux_nodes[n].nan_mode.next = (self.eff_flags.val() & self.k_flag_nan.val()) != self.k_zero8.val();
        }
        // Heap layout: node n (0-based) has children 2n+1, 2n+2; nodes 15..30 read the leaves.
        for n in 0..15 {
            self.redux_nodes[n].x.next = self.redux_nodes[2 * n + 1].z.val();
            self.redux_nodes[n].y.next = self.redux_nodes[2 * n + 2].z.val();
        }
        for n in 15..31 {
            self.redux_nodes[n].x.next = self.leaf[2 * n - 30].val();
            self.redux_nodes[n].y.next = self.leaf[2 * n - 29].val();
        }

        // ---------------- shfl ----------------
        for i in 0..32 {
            self.shfl[i].mode.next = bit_cast::<2, 3>(self.eff_sub.val());
            self.shfl[i].b.next = self.stage_b[i].q.val();
            self.shfl[i].clamp.next = self.stage_clamp[i].q.val();
            self.shfl[i].segmask.next = self.stage_segmask[i].q.val();
            if self.eff_active.val().get_bit(i) {
                self.shfl[i].b.next = self.lane_b[i].val();
                self.shfl[i].clamp.next = self.lane_clamp[i].val();
                self.shfl[i].segmask.next = self.lane_segmask[i].val();
            }
            self.shfl_pred_pack.bit[i].next = self.shfl[i].pval.val();
        }
        for i in 0..32 {
            self.shfl_value[i].next = self.k_zero32.val();
            for j in 0..32 {
                if (self.shfl[i].src.val() == self.lane_id[j].val()) && self.arrived.val().get_bit(j) {
                    self.shfl_value[i].next = self.merged_a[j].val().get_bits::<32>(0);
                }
            }
            // a source lane outside the mask or exited (PTX: undefined) gives the lane's own a
            if !self.arrived.val().get_bit(self.shfl[i].src.val().index()) {
                self.shfl_value[i].next = self.merged_a[i].val().get_bits::<32>(0);
            }
        }

        // ---------------- iterative match.any progress ----------------
        if self.iter_busy.q.val() {
            for i in 0..32 {
                if self.iter_lane.q.val() == self.lane_id[i].val() {
                    self.out_value[i].d.next = self.k_zero32.val();
                    if self.iter_part.q.val().get_bit(i) {
                        self.out_value[i].d.next = self.match_rows[0].row.val();
                    }
                }
            }
            self.iter_lane.d.next = self.iter_lane.q.val() + self.k_one5.val();
            if self.iter_lane.q.val() == self.k_last_lane.val() {
                self.iter_busy.d.next = false;
                self.stage_busy.d.next = false;
                self.out_valid.d.next = true;
                self.out_lanes.d.next = self.iter_lanes.q.val();
                self.out_preds.d.next = self.k_zero32.val();
                self.out_error.d.next = self.k_err_none.val();
                self.out_error_lane.d.next = self.lane_id[0].val();
            }
        }

        // ---------------- accept a request ----------------
        // The record a partial arrival leaves (written only when `rec_write` is raised below).
        self.rec_write.next = false;
        self.rec_clear.next = false;
        self.rec_wdata.next = bit_cast::<REC_BITS, 32>(self.arrived.val())
            | (bit_cast::<REC_BITS, 32>(self.eff_member.val()) << 32u64)
            | (bit_cast::<REC_BITS, 21>(self.eff_kind.val()) << 64u64)
            | (bit_cast::<REC_BITS, 32>(
                (self.hit_pred.val() & self.hit_arrived.val()) | (self.pred_pack.word.val() & self.eff_active.val()),
            ) << 85u64);
        if self.fire.val() {
            self.out_cta.d.next = self.req_cta.val();
            self.out_warp.d.next = self.req_warp.val();
            self.out_error.d.next = self.k_err_none.val();
            self.out_error_lane.d.next = self.lane_id[0].val();
            self.out_preds.d.next = self.k_zero32.val();
            for i in 0..32 {
                self.out_value[i].d.next = self.k_zero32.val();
            }
            if self.eff_op.val() == self.k_op_activemask.val() {
                self.out_valid.d.next = true;
                self.out_lanes.d.next = self.eff_active.val();
                for i in 0..32 {
                    if self.eff_active.val().get_bit(i) {
                        self.out_value[i].d.next = self.eff_active.val();
                    }
                }
            } else if self.is_rendezvous.val() {
                if self.not_built.val() {
                    self.out_valid.d.next = true;
                    self.out_lanes.d.next = self.eff_active.val();
                    self.out_error.d.next = self.k_err_not_built.val();
                    self.out_error_lane.d.next = self.first_active_id.val();
                } else if self.outside.val().any() {
                    self.out_valid.d.next = true;
                    self.out_lanes.d.next = self.eff_active.val();
                    self.out_error.d.next = self.k_err_not_in_mask.val();
                    self.out_error_lane.d.next = self.outside_id.val();
                } else if self.mismatch.val() {
                    self.out_valid.d.next = true;
                    // the pending lanes fail with the new request, so nothing hangs
                    self.out_lanes.d.next = self.eff_active.val() | self.hit_arrived.val();
                    self.out_error.d.next = self.k_err_mismatch.val();
                    self.out_error_lane.d.next = self.first_active_id.val();
                    // drop the record (and the staged operands) of the mismatching warp
                    self.rec_clear.next = true;
                    if (self.stage_cta.q.val() == self.req_cta.val())
                        && (self.stage_warp.q.val() == self.req_warp.val())
                    {
                        self.stage_busy.d.next = false;
                    }
                } else if !self.complete.val() {
                    // partial arrival: remember the lanes (and their operands). The request is
                    // taken with an answer of no lanes; its lanes are answered when the
                    // rendezvous fires (by the request or exit that completes it).
                    self.out_valid.d.next = true;
                    self.out_lanes.d.next = self.k_zero32.val();
                    self.rec_write.next = true;
                    if self.is_data.val() {
                        self.stage_busy.d.next = true;
                        self.stage_cta.d.next = self.req_cta.val();
                        self.stage_warp.d.next = self.req_warp.val();
                        for i in 0..32 {
                            if self.eff_active.val().get_bit(i) {
                                self.stage_a[i].d.next = self.lane_a[i].val();
                                self.stage_b[i].d.next = self.lane_b[i].val();
                                self.stage_clamp[i].d.next = self.lane_clamp[i].val();
                                self.stage_segmask[i].d.next = self.lane_segmask[i].val();
                            }
                        }
                    }
                } else {
                    // every live lane of the mask has arrived: the op fires
                    self.rec_clear.next = true;
                    if self.is_data.val() {
                        self.stage_busy.d.next = false;
                    }
                    self.out_valid.d.next = true;
                    self.out_lanes.d.next = self.arrived.val();
                    for i in 0..32 {
                        self.out_value[i].d.next = self.k_zero32.val();
                    }
                    if self.eff_op.val() == self.k_op_vote.val() {
                        if self.vote_pred.val() && (self.eff_sub.val() != self.k_vote_ballot.val()) {
                            self.out_preds.d.next = self.arrived.val();
                        }
                        for i in 0..32 {
                            if self.arrived.val().get_bit(i) {
                                self.out_value[i].d.next = self.pv.val() & self.part.val();
                            }
                        }
                    }
                    if self.eff_op.val() == self.k_op_elect.val() {
                        self.out_preds.d.next = self.leader.val();
                        for i in 0..32 {
                            if self.arrived.val().get_bit(i) {
                                self.out_value[i].d.next = bit_cast::<32, 5>(self.leader_id.val());
                            }
                        }
                    }
                    if self.eff_op.val() == self.k_op_match_all.val() && self.match_all_row.row.val() == self.part.val()
                    {
                        self.out_preds.d.next = self.arrived.val();
                        for i in 0..32 {
                            if self.arrived.val().get_bit(i) {
                                self.out_value[i].d.next = self.part.val();
                            }
                        }
                    }
                    if self.eff_op.val() == self.k_op_match_any.val() {
                        if self.k_iterative.val() {
                            // hand over to the one-row-per-cycle engine
                            self.out_valid.d.next = false;
                            self.iter_busy.d.next = true;
                            self.iter_lane.d.next = self.lane_id[0].val();
                            self.iter_part.d.next = self.part.val();
                            self.iter_lanes.d.next = self.arrived.val();
                            self.iter_wide.d.next = self.eff_dtype.val() == self.k_dt_b64.val();
                            self.stage_busy.d.next = true;
                            self.stage_cta.d.next = self.req_cta.val();
                            self.stage_warp.d.next = self.req_warp.val();
                            for i in 0..32 {
                                self.stage_a[i].d.next = self.merged_a[i].val();
                            }
                        } else {
                            for r in 0..self.match_rows.len() {
                                if self.part.val().get_bit(r) {
                                    self.out_value[r].d.next = self.match_rows[r].row.val();
                                }
                            }
                        }
                    }
                    if self.eff_op.val() == self.k_op_redux.val() {
                        for i in 0..32 {
                            if self.arrived.val().get_bit(i) {
                                self.out_value[i].d.next = self.redux_nodes[0].z.val();
                            }
                        }
                    }
                    if self.eff_op.val() == self.k_op_shfl.val() {
                        self.out_preds.d.next = self.shfl_pred_pack.word.val() & self.arrived.val();
                        for i in 0..32 {
                            if self.arrived.val().get_bit(i) {
                                self.out_value[i].d.next = self.shfl_value[i].val();
                            }
                        }
                    }
                }
            } else {
                // not a warp-network op: answer with no lanes so the request is not lost
                self.out_valid.d.next = true;
                self.out_lanes.d.next = self.k_zero32.val();
            }
        }

        // ---------------- record RAMs and valid bits of the request's CTA slot ----------------
        for c in 0..self.rec_ram.len() {
            self.rec_ram[c].write_address.next = self.req_warp.val();
            self.rec_ram[c].write_data.next = self.rec_wdata.val();
            self.rec_ram[c].write_enable.next = false;
            if self.req_cta.val() == self.cta_id[c].val() {
                if self.rec_write.val() {
                    // a record of no lanes is no record (as an arrival of no lanes is none)
                    self.rec_ram[c].write_enable.next = !self.reset.val();
                    if self.arrived.val().any() {
                        self.rec_valid[c].d.next = self.rec_valid[c].q.val() | self.warp_onehot.val();
                    } else {
                        self.rec_valid[c].d.next = self.rec_valid[c].q.val() & !self.warp_onehot.val();
                    }
                }
                if self.rec_clear.val() {
                    self.rec_valid[c].d.next = self.rec_valid[c].q.val() & !self.warp_onehot.val();
                }
            }
        }

        if self.reset.val() {
            for c in 0..self.rec_ram.len() {
                self.rec_valid[c].d.next = self.k_zero32.val();
            }
            self.looked.d.next = false;
            self.stage_busy.d.next = false;
            self.iter_busy.d.next = false;
            self.out_valid.d.next = false;
        }

        // ---------------- outputs ----------------
        self.resp_valid.next = self.out_valid.q.val();
        self.resp_cta.next = self.out_cta.q.val();
        self.resp_warp.next = self.out_warp.q.val();
        self.resp_lanes.next = self.out_lanes.q.val();
        self.resp_preds.next = self.out_preds.q.val();
        self.resp_error.next = self.out_error.q.val();
        self.resp_error_lane.next = self.out_error_lane.q.val();
        for i in 0..32 {
            self.resp_value[i].next = self.out_value[i].q.val();
        }
    }
}
