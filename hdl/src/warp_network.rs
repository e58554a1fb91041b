//! warp_network: the warp-level vote / match / redux / elect / activemask / bar.warp.sync /
//! shfl.sync network, in rust-hdl. Mirrors `smsync_sim::units::warp_network`.
//!
//! ## Ports: a request header, its operand beats, one response
//!
//! * header (`req_valid`/`req_ready`, held by the sender until ready or refused (`req_refused`:
//!   the sender withdraws it and offers it again later; the top answers it `Retry`);
//!   the unit takes it in its fourth cycle without re-reading `req_valid`): `req_op` (6-bit
//!   `encoding::Op` code), `req_sub` (VoteMode / ReduxOp / ShflMode code), `req_dtype`
//!   (`DataType` code), `req_flags` (`encoding::flags`), `req_cta`, `req_warp`, `req_member`
//!   (membermask), `req_active` (lanes executing this request), `req_live` (non-exited lanes),
//!   `req_pred` (bit i = lane i's vote predicate).
//! * operand beats (`beat_valid`/`beat_ready`): a data op (match.any, match.all, redux, shfl;
//!   [`carries_beats`]) is followed by `32 / lanes_per_beat` beats in lane order, beat k carrying
//!   lanes `k*L .. k*L+L-1` (`L = lanes_per_beat`): per lane `beat_a` (64-bit operand a),
//!   `beat_b` (shfl b[4:0]), `beat_clamp` (shfl c[4:0]) and `beat_segmask` (shfl c[12:8]). Beat
//!   0 may come with the header (it is taken in the same cycle). Other ops have no beats.
//! * response: `resp_valid` (one-cycle pulse), `resp_cta`, `resp_warp`, `resp_lanes` (the lanes
//!   completed: every lane that arrived at the rendezvous), per-lane `resp_value` (32-bit d),
//!   `resp_preds` (bit i = p of lane i), `resp_error` (`ErrorCode`), `resp_error_lane`. A request
//!   with beats is answered after its last beat.
//!
//! ## Rendezvous
//!
//! Lanes of a diverged warp may reach a `.sync` op in several requests, and its lane groups may
//! wait at different collectives at once. Each (CTA slot, warp) has `rendezvous_per_warp` arrival
//! records {arrived lanes, membermask, op, predicate bits} (records.rs: block RAM with a
//! flip-flop valid bit per warp, so that completion and reset clear a record at once). A request
//! joins the record of its membermask and op, or opens a free one; the op fires when every live
//! lane of the membermask has arrived (exited lanes count as arrived: PTX ISA §9.7.13.9-§9.7.13.12
//! for vote/match/redux, and the project reads bar.warp.sync, §9.7.13.2, the same way). The 1-bit
//! vote predicates live in the record. A partial arrival at a new rendezvous while every record
//! of its warp is pending is refused for now (`req_refused`; taken once a record of its warp is
//! dropped, which only a later request of the warp does: its completion, failure or exit).
//! The 64-bit operands of a partial data op's lanes (match/redux/shfl) are parked in block RAM, a
//! word per (CTA slot, warp, lane); the request that completes the rendezvous brings them back
//! into the unit's one operand store (32 lanes) beside its own lanes, beat by beat.
//!
//! ## Datapath and timing (`L = lanes_per_beat`, `NB = 32 / L` beats)
//!
//! The header's first cycle on the port reads its warp's records into registers, the second
//! matches them with the header, the third decides the rendezvous into registers (`req_ready`
//! low in all three); the fourth takes it (and
//! beat 0 if present), acts on the decision (record write, store lanes, state) and answers ops
//! without operands (vote, elect, bar.warp.sync, activemask, exit) one clock later. A data op
//! then takes its remaining beats (one per cycle; each registered and stored a cycle later)
//! into the store and, when it fires, computes its answer from
//! the store `L` lanes per cycle: redux registers `L` leaves per cycle and sends them into an
//! `L`-leaf tree with a register per level, whose root folds into an accumulator (NB + 1 + log2 L
//! cycles: the tree is pipelined for the clock, a combiner per stage), then every data op emits
//! `L` lanes per cycle (NB cycles): `L`
//! shfl source computations with `L` 32:1 source muxes, and `L` match rows of 32 comparators
//! (`match_impl: parallel`; `iterative`: one row, one lane per cycle, 32 cycles). A row keyed by
//! one lane (match.all's leader; the iterative match.any's lane) compares against a registered
//! key (`key_q`), read in one extra first EMIT cycle (and one lane ahead after it), so the key's
//! 32:1 select and the row's comparators are not one path. The datapath is `L` lanes wide, not
//! 32: that is what makes fpga-small's network small.
//!
//! ## Errors
//!
//! `NotInMemberMask` (an active lane outside membermask; first such lane), `MemberMaskMismatch`
//! when a hang is certain, as the golden model: a lane arrives while it waits at a pending
//! rendezvous, or the request's rendezvous stays partial on a wait-for cycle of the warp's
//! rendezvous (each waits for lanes blocked at the next); the lanes of the failed rendezvous are
//! answered with the request, and their records dropped. `NotBuilt` (match with
//! `features.match_sync` off, redux.f32 with `features.redux_f32` off).

mod datapath;
pub mod formal;
mod records;

use rust_hdl::prelude::*;
use smsync_contract::config::{Config, MatchImpl};
use smsync_contract::encoding::{flags, DataType, ErrorCode, Op, ReduxOp, VoteMode};

use crate::atomic_alu::width::ZeroExtend;
use crate::depth_ram::DepthRam;
use crate::pack_lanes::PackLanes;
use crate::sync_unit::result_store::ResultStore;
pub use datapath::{MatchRow, Pack32, ReduxKey, ReduxNode, ShflLane};
pub use records::{RendezvousRecords, MAX_RECORDS};

pub const LANES: usize = 32;
/// The canonical NaN redux.sync.f32 returns (PTX ISA §9.7.13.12 gives no bit pattern; project constant).
pub const CANONICAL_NAN: u32 = 0x7FFF_FFFF;

/// Arrival-record word: arrived lanes [31:0], membermask [63:32], kind [84:64] ({flags, dtype,
/// sub, op}), vote predicates [116:85] (the offsets are literals in `update`, which `hdl_gen`
/// turns into Verilog).
const REC_BITS: usize = 117;

/// Ops whose header is followed by operand beats (the others carry everything in the header).
pub const BEAT_OPS: [Op; 4] = [Op::MatchAny, Op::MatchAll, Op::ReduxSync, Op::ShflSync];

/// Does a request of `op` send operand beats to the warp network?
pub fn carries_beats(op: Op) -> bool {
    BEAT_OPS.contains(&op)
}

/// Register levels of the redux pipeline over `lanes` leaves: the leaves' own register, then one
/// per tree level (`log2 lanes`).
fn tree_levels(lanes: usize) -> usize {
    1 + lanes.trailing_zeros() as usize
}

/// Operand beats of a data op for `config`: `32 / lanes_per_beat`.
pub fn beats_per_request(config: &Config) -> usize {
    LANES / config.lanes_per_beat as usize
}

// Work states of the unit.
const ST_IDLE: u64 = 0;
const ST_BEATS: u64 = 1;
const ST_REDUCE: u64 = 2;
const ST_EMIT: u64 = 3;

fn c32(v: u32) -> Constant<Bits<32>> {
    Constant::new(bits(v as u64))
}
fn c_code<const N: usize>(v: u8) -> Constant<Bits<N>> {
    Constant::new(bits(v as u64))
}
/// Up to this many lanes per beat, the reads of the operand store at a run-time lane (the match
/// key and each shfl slot's source) come from copies of the store in RAM instead of
/// 32:1 multiplexers over its registers (on fpga-small the five multiplexers were 5.7k of the
/// unit's 13.5k LUT4). A copy is `L` banks (one write port per lane of a beat), so `L` slots need
/// `L * L` banks: above 8 lanes the multiplexers are smaller.
pub const RAM_READS_MAX_LANES: usize = 8;

fn vec_of<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}
/// Bit i set, for i below `n` (the lanes of a row the egress reads).
fn one_hots(n: usize) -> Vec<Constant<Bits<32>>> {
    (0..n).map(|i| c32(1 << i)).collect()
}
fn small_ids(n: usize) -> Vec<Constant<Bits<5>>> {
    (0..n).map(|i| Constant::new(bits(i as u64))).collect()
}

/// The warp network. Build it with [`WarpNetwork::new`] from a [`Config`].
#[derive(LogicBlock)]
pub struct WarpNetwork {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: drops every arrival record and the operand store.
    pub reset: Signal<In, Bit>,
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    /// The offered header is refused for now: a partial arrival at a new rendezvous while
    /// every record of its warp is pending (the top answers it `Retry`, and its sender offers
    /// it again after the next answer to the warp).
    pub req_refused: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<6>>,
    pub req_sub: Signal<In, Bits<3>>,
    pub req_dtype: Signal<In, Bits<4>>,
    pub req_flags: Signal<In, Bits<8>>,
    pub req_cta: Signal<In, Bits<5>>,
    pub req_warp: Signal<In, Bits<5>>,
    pub req_member: Signal<In, Bits<32>>,
    pub req_active: Signal<In, Bits<32>>,
    pub req_live: Signal<In, Bits<32>>,
    pub req_pred: Signal<In, Bits<32>>,
    pub beat_valid: Signal<In, Bit>,
    pub beat_ready: Signal<Out, Bit>,
    pub beat_a: Vec<Signal<In, Bits<64>>>,
    pub beat_b: Vec<Signal<In, Bits<5>>>,
    pub beat_clamp: Vec<Signal<In, Bits<5>>>,
    pub beat_segmask: Vec<Signal<In, Bits<5>>>,

    pub resp_valid: Signal<Out, Bit>,
    pub resp_cta: Signal<Out, Bits<5>>,
    pub resp_warp: Signal<Out, Bits<5>>,
    pub resp_lanes: Signal<Out, Bits<32>>,
    /// Row `resp_row` of the last answer's values (lanes `L*row .. L*row+L-1`) on
    /// `resp_row_values`, in the same cycle; valid from `resp_valid` until the next header is
    /// taken.
    pub resp_row: Signal<In, Bits<5>>,
    pub resp_row_values: Vec<Signal<Out, Bits<32>>>,
    pub resp_preds: Signal<Out, Bits<32>>,
    pub resp_error: Signal<Out, Bits<6>>,
    pub resp_error_lane: Signal<Out, Bits<5>>,
    /// With `resp_valid`, for an exit: it completed one of its warp's rendezvous and another
    /// one is complete too; the sender offers the exit again (one answer per rendezvous).
    pub resp_again: Signal<Out, Bit>,

    // --- arrival records: `rendezvous_per_warp` per (CTA slot, warp) (records.rs) ---
    /// Record layout (see `REC_BITS`): {pred, kind, member, arrived}. kind = {flags, dtype,
    /// sub, op}: lanes must arrive with the same op and qualifiers.
    records: RendezvousRecords,
    /// The header on the port has had its warp's records read (`read_once`), compared with it
    /// (`matched`: the records' choice is registered) and has been looked up (`looked`: the
    /// `lk_*` registers hold its decision). The read is a cycle of its own (the port's warp
    /// through the record RAMs and the CTA-slot select) so that the decision's masks and
    /// compares do not follow the RAM read in one path (port -> record -> vote predicate was the
    /// unit's limit at 62.3 MHz), and so is the match (records.rs).
    read_once: DFF<Bit>,
    matched: DFF<Bit>,
    looked: DFF<Bit>,
    /// The look cycle's decision, registered for the take cycle (the port holds the header and
    /// the records do not change in between): a header's first cycle reads its warp's records
    /// (block RAM), its second compares them, its third chooses one and decides the
    /// rendezvous, its fourth acts on it.
    lk_rec_wdata: DFF<Bits<REC_BITS>>,
    lk_eff_op: DFF<Bits<6>>,
    lk_eff_sub: DFF<Bits<3>>,
    lk_eff_dtype: DFF<Bits<4>>,
    lk_eff_flags: DFF<Bits<8>>,
    lk_is_data: DFF<Bit>,
    lk_is_rendezvous: DFF<Bit>,
    lk_mismatch: DFF<Bit>,
    lk_outside_any: DFF<Bit>,
    lk_arrived: DFF<Bits<32>>,
    lk_part: DFF<Bits<32>>,
    lk_complete: DFF<Bit>,
    /// The active lanes outside the member mask, and the active lanes: the take cycle finds
    /// their lowest lanes (and `lk_part`'s, the leader) from these registers, so that no
    /// priority encoder follows the record read in the look cycle (that path, port -> record
    /// RAM -> the exit's member mask -> leader -> its id, was the unit's limit at 58.8 MHz).
    lk_outside: DFF<Bits<32>>,
    lk_active: DFF<Bits<32>>,
    lk_not_built: DFF<Bit>,
    lk_vote_value: DFF<Bits<32>>,
    lk_vote_pred: DFF<Bit>,
    /// A partial arrival at a new rendezvous while every record of its warp is pending: refused.
    lk_no_record: DFF<Bit>,
    /// An exit that completes a rendezvous and leaves another complete one (`resp_again`).
    w_again: DFF<Bit>,

    // --- parked operands: the data-op lanes of partial arrivals, in block RAM ---
    /// Per lane of a beat (`L` RAMs), a word per (CTA slot, warp, beat group): {pval, src, a}
    /// of the lane. A partial arrival's beats are parked here instead of staying in the operand
    /// store, so every warp may have partial data rendezvous pending (a lane waits at one
    /// rendezvous at a time, so one word per lane and warp is enough) and the store serves the
    /// op at work only. The request that completes the rendezvous reads the parked lanes back
    /// with its own beats (each beat group's words are read in the cycle its beat is taken and
    /// written into the store with it); an exit that completes one reads them in `NB` cycles
    /// of beats of its own (`w_internal`).
    park: Vec<DepthRam<Bits<70>, 16>>,
    park_rd_addr: Signal<Local, Bits<16>>,
    park_wr_addr: Signal<Local, Bits<16>>,
    park_word: Vec<Signal<Local, Bits<70>>>,
    /// A lane's operand and shfl source lane, widened to the park's word.
    park_a_wide: Vec<ZeroExtend<64, 70>>,
    park_src_wide: Vec<ZeroExtend<5, 70>>,
    k_park_warp_shift: Constant<Bits<16>>,
    k_park_cta_shift: Constant<Bits<16>>,
    k_one70: Constant<Bits<70>>,
    /// The lanes the op at work parks (a partial arrival) / reads back from the park (the
    /// lanes that arrived before it, when it completes the rendezvous).
    w_park: DFF<Bits<32>>,
    w_unpark: DFF<Bits<32>>,
    h_park: Signal<Local, Bits<32>>,
    h_unpark: Signal<Local, Bits<32>>,
    beat_park: Signal<Local, Bits<32>>,
    beat_unpark: Signal<Local, Bits<32>>,
    /// Per lane of the taken beat, registered with it: stored from the beat / read back from
    /// the park / parked (the group's bits of the op's lane masks, selected in the take cycle,
    /// so that no group decode sits in front of the store's data select).
    bq_st: Vec<DFF<Bit>>,
    bq_un: Vec<DFF<Bit>>,
    bq_pk: Vec<DFF<Bit>>,
    /// The beats of the op at work are the unit's own (an exit that completes a data op).
    w_internal: DFF<Bit>,
    /// Per lane of the registered beat: it is stored from the beat / from the park / parked,
    /// and the word the store and its copies are written with.
    un_now: Vec<Signal<Local, Bit>>,
    st_now: Vec<Signal<Local, Bit>>,
    pk_now: Vec<Signal<Local, Bit>>,
    mg_a: Vec<Signal<Local, Bits<64>>>,
    mg_src: Vec<Signal<Local, Bits<5>>>,
    mg_pval: Vec<Signal<Local, Bit>>,

    // --- operand store: the data-op lanes of the request at work ---
    stage_a: Vec<DFF<Bits<64>>>,
    /// shfl: each stored lane's source lane and predicate, computed as its beat arrives (so
    /// that the emit's 32:1 source read is selected by registers, not by the source
    /// arithmetic: ABC spread that arithmetic into every mux tree, 5.6k LUT4 on fpga-small).
    stage_src: Vec<DFF<Bits<5>>>,
    stage_pval: Vec<DFF<Bit>>,

    // --- the data op at work (registered when its header is taken) ---
    state: DFF<Bits<2>>,
    /// BEATS: the next beat; REDUCE / EMIT: the lane group (or, iterative match.any, the lane).
    step: DFF<Bits<5>>,
    w_op: DFF<Bits<6>>,
    w_sub: DFF<Bits<3>>,
    w_dtype: DFF<Bits<4>>,
    w_flags: DFF<Bits<8>>,
    /// Lanes whose beats are stored (the request's active lanes; none when it failed).
    w_store_lanes: DFF<Bits<32>>,
    /// The op fires after its beats (else the registered answer leaves after them).
    w_fire: DFF<Bit>,
    w_arrived: DFF<Bits<32>>,
    w_part: DFF<Bits<32>>,
    /// The lowest lane of `w_part` (match.all's key lane).
    w_leader_id: DFF<Bits<5>>,
    redux_acc: DFF<Bits<32>>,
    /// The accumulator's order key (`ReduxKey`), for the fold's compare.
    redux_acc_k: DFF<Bits<32>>,

    // --- output registers ---
    out_valid: DFF<Bit>,
    out_cta: DFF<Bits<5>>,
    out_warp: DFF<Bits<5>>,
    out_lanes: DFF<Bits<32>>,
    /// The last answer's values. A header-cycle answer (activemask, vote, elect) is one value
    /// for the lanes it covers: `out_hdr_value` on `out_hdr_lanes`. A data op's lanes go into
    /// `results`, a row per emit cycle (one lane per cycle for the iterative match.any). A row
    /// read is the OR of the two: the store reads 0 for lanes not written since the header was
    /// decided, and a data op's header answers no lanes.
    out_hdr_lanes: DFF<Bits<32>>,
    out_hdr_value: DFF<Bits<32>>,
    results: ResultStore<32>,
    row_hdr_lanes: Signal<Local, Bits<32>>,
    k_log_lanes: Constant<Bits<5>>,
    k_lane_mask: Constant<Bits<5>>,
    out_preds: DFF<Bits<32>>,
    out_error: DFF<Bits<6>>,
    out_error_lane: DFF<Bits<5>>,

    // --- datapath, `lanes_per_beat` lanes wide ---
    match_rows: Vec<MatchRow>,
    /// The redux tree as a heap, pipelined a register per level: node n < L-1 combines
    /// `redux_v[2n+1]` and `redux_v[2n+2]` into `redux_q[n]`, and `redux_v[n]` is that register;
    /// leaf i is `redux_v[L-1+i]`, the register `redux_leaf[i]` (the group's lane i, or the op's
    /// identity): the store's L:1 lane select and the identity pick are a cycle of their own, not
    /// in front of the first level's compare (that path limited the unit to 48.7 MHz). The root
    /// register (`redux_v[0]`, or the leaf when L = 1) reaches the fold `1 + log2 L` cycles after
    /// its group left the store. Each register has its value's order key beside it (`_k`: the
    /// min/max compare key, `ReduxKey`), computed once in front of the leaves (`leaf_key`) and
    /// carried by the nodes, so no node computes a key in front of its compare.
    redux_nodes: Vec<ReduxNode>,
    redux_q: Vec<DFF<Bits<32>>>,
    redux_q_k: Vec<DFF<Bits<32>>>,
    redux_leaf: Vec<DFF<Bits<32>>>,
    redux_leaf_k: Vec<DFF<Bits<32>>>,
    redux_v: Vec<Signal<Local, Bits<32>>>,
    redux_v_k: Vec<Signal<Local, Bits<32>>>,
    /// A leaf's value (its register's input) and its key.
    leaf_val: Vec<Signal<Local, Bits<32>>>,
    leaf_key: Vec<ReduxKey>,
    /// The group in each tree level is real / the request's first / its last (a bit per level).
    redux_p_valid: Vec<DFF<Bit>>,
    redux_p_first: Vec<DFF<Bit>>,
    redux_p_last: Vec<DFF<Bit>>,
    /// Every group has entered the tree; REDUCE waits for the last one to reach the fold.
    reduce_issued: DFF<Bit>,
    /// The group entering the tree this cycle, and the one at the fold (the root register's).
    tree_in_valid: Signal<Local, Bit>,
    fold_valid: Signal<Local, Bit>,
    fold_first: Signal<Local, Bit>,
    fold_last: Signal<Local, Bit>,
    redux_fold: ReduxNode,
    shfl: Vec<ShflLane>,
    shfl_pred_pack: Pack32,
    store_pack: PackLanes<64, 2048>,

    // --- header-cycle signals ---
    fire: Signal<Local, Bit>,
    /// The record a partial arrival leaves (the records write it in the take cycle).
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
    /// The request's own op sends beats (an exit never does).
    req_beats: Signal<Local, Bit>,
    stage_blocked: Signal<Local, Bit>,
    /// The take cycle fails the request with `MemberMaskMismatch`: its lanes already wait at a
    /// record, or it stays partial on a wait-for cycle of the warp's rendezvous.
    take_fail: Signal<Local, Bit>,
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
    not_built: Signal<Local, Bit>,
    /// The header cycle's outcome for a request with beats: stored lanes, and whether it fires.
    h_store_lanes: Signal<Local, Bits<32>>,
    h_fire: Signal<Local, Bit>,
    /// The header cycle's answer: the lanes it covers and their (common) value.
    hdr_lanes: Signal<Local, Bits<32>>,
    hdr_value: Signal<Local, Bits<32>>,

    // --- beat / store-read signals ---
    take_beat: Signal<Local, Bit>,
    beat_group: Signal<Local, Bits<5>>,
    beat_store_lanes: Signal<Local, Bits<32>>,
    /// The last beat is taken this cycle.
    beats_done: Signal<Local, Bit>,
    /// A taken beat, registered (`bq_*`: taken, group, shfl mode, the lanes to store, the
    /// lanes' operands; per lane `bq_st` / `bq_un` / `bq_pk`), and stored a cycle later: the shfl source computation and the store's
    /// write enables start from these registers, not from the state and the port (that path,
    /// `state` -> the beat's mode -> `ShflLane` -> `stage_src`, was the unit's limit at
    /// 70.2 MHz). The last beat's cycle in the store is `landing` (state BEATS, no beat taken),
    /// after which the op goes on as `land_fire` / `land_op` say.
    bq_take: DFF<Bit>,
    bq_group: DFF<Bits<5>>,
    bq_mode: DFF<Bits<2>>,
    bq_a: Vec<DFF<Bits<64>>>,
    bq_b: Vec<DFF<Bits<5>>>,
    bq_clamp: Vec<DFF<Bits<5>>>,
    bq_segmask: Vec<DFF<Bits<5>>>,
    landing: DFF<Bit>,
    land_fire: DFF<Bit>,
    land_op: DFF<Bits<6>>,
    /// The op goes on this cycle (its last beat has landed, or it took no beats): fire as
    /// `go_op` (`go_fire`) or answer.
    go: Signal<Local, Bit>,
    go_fire: Signal<Local, Bit>,
    go_op: Signal<Local, Bits<6>>,
    /// Where the unit goes after its last beat: fire (`done_fire`, as `done_op`) or answer.
    done_fire: Signal<Local, Bit>,
    done_op: Signal<Local, Bits<6>>,
    /// Low 32 bits of the group's operands (shfl, redux) and, `parallel` match only, their
    /// full 64-bit keys.
    slot_a: Vec<Signal<Local, Bits<32>>>,
    slot_key: Vec<Signal<Local, Bits<64>>>,
    slot_src: Vec<Signal<Local, Bits<5>>>,
    slot_pval: Vec<Signal<Local, Bit>>,
    /// The shfl mode of the beats being taken (the header's with beat 0, else the op's).
    beat_mode: Signal<Local, Bits<2>>,
    slot_part: Vec<Signal<Local, Bit>>,
    slot_arrived: Vec<Signal<Local, Bit>>,
    slot_value: Vec<Signal<Local, Bits<32>>>,
    last_group: Signal<Local, Bit>,
    /// The key of the iterative match.any row (lane `step`) or of match.all (the leader),
    /// registered (`key_q`) a cycle before its row compares: the store read and the row's 32
    /// comparators were one cycle, the unit's limit on the ECP5. The key is read in EMIT's
    /// first cycle (`emit_prep`: the last beat has reached the store, nothing is emitted) and,
    /// for the iterative match.any, one lane ahead in the cycles after it.
    row_key: Signal<Local, Bits<64>>,
    key_q: DFF<Bits<64>>,
    emit_prep: DFF<Bit>,
    /// match.all's second and third EMIT preparation cycles: row 0 compares the store with
    /// `key_q` into `all_row_q`, then `all_eq_q` registers whether every member lane matched,
    /// so that no cycle holds the 32 comparators and the 32-bit compare with the member lanes
    /// in one path (with the compare in the row's cycle it was the unit's limit at 74.3 MHz).
    emit_prep2: DFF<Bit>,
    emit_prep3: DFF<Bit>,
    all_row_q: DFF<Bits<32>>,
    all_eq_q: DFF<Bit>,
    /// The emit's answers are written into `results` a cycle after they are computed (`em_*`,
    /// per bank: write, word, value), and the answer leaves after one more cycle (`emit_drain`,
    /// the last write): the comparators, shfl source reads and the lane selects end at these
    /// registers, not at the distributed RAM's write port (that path, from `key_q` through
    /// match.all's compare to the bank's write data, was the unit's limit at 53.0 MHz).
    em_write: Vec<DFF<Bit>>,
    em_word: Vec<DFF<Bits<5>>>,
    em_data: Vec<DFF<Bits<32>>>,
    emit_drain: DFF<Bit>,
    emit_drain2: DFF<Bit>,
    /// The emitted lane group, registered (`g_*`: the `slot_*` of `step`, every cycle; the
    /// iterative row; `g_valid` / `g_step`: an emit cycle and its `step`): the answers are
    /// computed a cycle after the group's select, from these registers, so that the group
    /// select by `step` and the shfl source read (or a match row's compares) behind it are not
    /// one path (that path, `step` -> the group's source lanes -> the shfl RAM copies -> the
    /// answer, limited the unit to 50.2 MHz).
    g_valid: DFF<Bit>,
    g_step: DFF<Bits<5>>,
    g_a: Vec<DFF<Bits<32>>>,
    g_key: Vec<DFF<Bits<64>>>,
    g_src: Vec<DFF<Bits<5>>>,
    g_pval: Vec<DFF<Bit>>,
    /// (One per match row: only the parallel match.any reads it.)
    g_part: Vec<DFF<Bit>>,
    g_arrived: Vec<DFF<Bit>>,
    /// shfl, per slot (RAM reads): its source lane's bank is bank i (`g_bank[L * t + i]`),
    /// computed in the slot cycle: in the emit cycle the bank compare followed the RAM read.
    /// (The source lane's arrival bit, selected there too, became the slot cycle's limit:
    /// 13.6 ns; it stays in the emit cycle.)
    g_bank: Vec<DFF<Bit>>,
    g_row: DFF<Bits<32>>,
    /// The iterative match.any's key lane (`step`, or `step + 1` after the first EMIT cycle),
    /// and (multiplexer reads only) the key lane's bit offset in `store_pack.word`.
    key_lane: Signal<Local, Bits<5>>,
    key_off: Vec<Signal<Local, Bits<11>>>,
    iter_match: Signal<Local, Bit>,
    redux_identity: Signal<Local, Bits<32>>,
    /// The op's redux decode, registered (`rx_*`: float, `.NaN`, the identity) for the
    /// tree's nodes and the fold, which run from the cycle after the leaves at the earliest:
    /// the decode from `w_dtype` / `w_flags` is not in front of the fold's compare (that path,
    /// `w_dtype` -> the fold's key compare -> `redux_acc`, was the unit's limit at 72.9 MHz).
    rx_float: DFF<Bit>,
    rx_nan: DFF<Bit>,
    rx_identity: DFF<Bits<32>>,
    /// The identity's order key (`identity_key`), registered beside it.
    rx_identity_k: DFF<Bits<32>>,
    identity_key: ReduxKey,
    redux_signed: Signal<Local, Bit>,
    redux_float: Signal<Local, Bit>,
    redux_abs: Signal<Local, Bit>,
    shfl_src_a: Vec<Signal<Local, Bits<32>>>,
    /// A slot's source lane's a (before the arrived test), and the match key's lane's operand:
    /// from the RAM copies (`key_ram`, `shfl_ram`) or from the register store's multiplexers.
    shfl_read: Vec<Signal<Local, Bits<32>>>,
    key_src: Signal<Local, Bits<5>>,
    /// RAM copies of the store (empty above `RAM_READS_MAX_LANES`): bank `i` holds lanes `i`,
    /// `L + i`, ... (word `g` from beat group `g`), written with `stage_a`; slot `s`'s banks are
    /// `shfl_ram[s L .. s L + L]`. The key's in distributed RAM (read at an address known in the
    /// same cycle), the shfl slots' in block RAM (addressed in the slot cycle; 16 x 8 16x4
    /// cells, 768 LUT4 positions, on fpga-small in distributed RAM).
    key_ram: Vec<DepthRam<Bits<64>, 5>>,
    shfl_ram: Vec<DepthRam<Bits<32>, 5>>,
    /// Slots read through RAM copies (`L` or 0) and through multiplexers (0 or `L`); the key
    /// through multiplexers (0 or 1).
    _ram_slots: usize,
    _mux_slots: usize,
    _mux_key: usize,
    /// The source lane widened to an offset in the packed operand store (`64 * lane`).
    shfl_src_wide: Vec<ZeroExtend<5, 11>>,

    // --- constants from smsync_sim::encoding and the config ---
    lane_id: Vec<Constant<Bits<5>>>,
    group_id: Vec<Constant<Bits<5>>>,
    one_hot: Vec<Constant<Bits<32>>>,
    k_last_group: Constant<Bits<5>>,
    k_zero32: Constant<Bits<32>>,
    k_ones32: Constant<Bits<32>>,
    k_one32: Constant<Bits<32>>,
    k_abs_mask: Constant<Bits<32>>,
    k_last_lane: Constant<Bits<5>>,
    k_one5: Constant<Bits<5>>,
    k_zero5: Constant<Bits<5>>,
    k_st_idle: Constant<Bits<2>>,
    k_st_beats: Constant<Bits<2>>,
    k_st_reduce: Constant<Bits<2>>,
    k_st_emit: Constant<Bits<2>>,
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
    /// `lanes_per_beat` (L), L + 1 and the beats per request, as loop bounds. `hdl_gen` index
    /// expressions may use loop variables and literals only, so a one-iteration loop binds L to
    /// a loop variable: `for l in L..L + 1 { ... x[l * g + i] ... }`.
    _lanes: usize,
    _lanes_end: usize,
    _beats: usize,
    /// The redux tree's levels (`log2 L`, its registers) and the last one's index (0 when none:
    /// `_last_level.._levels` is then empty, else the one level the fold reads).
    _levels: usize,
    _last_level: usize,
}

impl WarpNetwork {
    pub fn new(config: &Config) -> WarpNetwork {
        let slots = config.cta_slots as usize;
        let l = config.lanes_per_beat as usize;
        let beats = beats_per_request(config);
        assert!(l.is_power_of_two() && l <= LANES, "lanes_per_beat {l} (the config validates it)");
        let op = |o: Op| c_code::<6>(o.code());
        // RAM copies: L slots of L banks of 32 / L words (DepthRam needs an address bit or more).
        let ram_slots = if l <= RAM_READS_MAX_LANES { l } else { 0 };
        let ram_addr_bits = (LANES / l).trailing_zeros().max(1) as usize;
        // The park's address: {CTA slot, warp, beat group}, each field as wide as the config needs.
        let ceil_log2 = |n: usize| n.next_power_of_two().trailing_zeros() as usize;
        let park_warp_shift = beats.trailing_zeros() as usize;
        let park_cta_shift = park_warp_shift + ceil_log2(config.max_warps_per_cta as usize);
        let park_cta_bits = ceil_log2(slots);
        WarpNetwork {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_refused: Default::default(),
            req_op: Default::default(),
            req_sub: Default::default(),
            req_dtype: Default::default(),
            req_flags: Default::default(),
            req_cta: Default::default(),
            req_warp: Default::default(),
            req_member: Default::default(),
            req_active: Default::default(),
            req_live: Default::default(),
            req_pred: Default::default(),
            beat_valid: Default::default(),
            beat_ready: Default::default(),
            beat_a: vec_of(l),
            beat_b: vec_of(l),
            beat_clamp: vec_of(l),
            beat_segmask: vec_of(l),
            resp_valid: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_lanes: Default::default(),
            resp_row: Default::default(),
            resp_row_values: vec_of(l),
            resp_preds: Default::default(),
            resp_error: Default::default(),
            resp_error_lane: Default::default(),
            resp_again: Default::default(),
            records: RendezvousRecords::new(
                slots,
                config.rendezvous_per_warp as usize,
                config.max_warps_per_cta as usize,
            ),
            read_once: Default::default(),
            matched: Default::default(),
            looked: Default::default(),
            lk_rec_wdata: Default::default(),
            lk_eff_op: Default::default(),
            lk_eff_sub: Default::default(),
            lk_eff_dtype: Default::default(),
            lk_eff_flags: Default::default(),
            lk_is_data: Default::default(),
            lk_is_rendezvous: Default::default(),
            lk_mismatch: Default::default(),
            lk_outside_any: Default::default(),
            lk_arrived: Default::default(),
            lk_part: Default::default(),
            lk_complete: Default::default(),
            lk_outside: Default::default(),
            lk_active: Default::default(),
            lk_not_built: Default::default(),
            lk_vote_value: Default::default(),
            lk_vote_pred: Default::default(),
            lk_no_record: Default::default(),
            w_again: Default::default(),
            park: (0..l).map(|_| DepthRam::block(park_cta_shift + park_cta_bits.max(1))).collect(),
            park_rd_addr: Default::default(),
            park_wr_addr: Default::default(),
            park_word: vec_of(l),
            park_a_wide: vec_of(l),
            park_src_wide: vec_of(l),
            k_park_warp_shift: Constant::new(bits(park_warp_shift as u64)),
            k_park_cta_shift: Constant::new(bits(park_cta_shift as u64)),
            k_one70: Constant::new(bits(1)),
            w_park: Default::default(),
            w_unpark: Default::default(),
            h_park: Default::default(),
            h_unpark: Default::default(),
            beat_park: Default::default(),
            beat_unpark: Default::default(),
            bq_st: vec_of(l),
            bq_un: vec_of(l),
            bq_pk: vec_of(l),
            w_internal: Default::default(),
            un_now: vec_of(l),
            st_now: vec_of(l),
            pk_now: vec_of(l),
            mg_a: vec_of(l),
            mg_src: vec_of(l),
            mg_pval: vec_of(l),
            stage_a: vec_of(LANES),
            stage_src: vec_of(LANES),
            stage_pval: vec_of(LANES),
            state: Default::default(),
            step: Default::default(),
            w_op: Default::default(),
            w_sub: Default::default(),
            w_dtype: Default::default(),
            w_flags: Default::default(),
            w_store_lanes: Default::default(),
            w_fire: Default::default(),
            w_arrived: Default::default(),
            w_part: Default::default(),
            w_leader_id: Default::default(),
            redux_acc: Default::default(),
            redux_acc_k: Default::default(),
            out_valid: Default::default(),
            out_cta: Default::default(),
            out_warp: Default::default(),
            out_lanes: Default::default(),
            out_hdr_lanes: Default::default(),
            out_hdr_value: Default::default(),
            results: ResultStore::with_banks(l),
            row_hdr_lanes: Default::default(),
            k_log_lanes: Constant::new(bits(l.trailing_zeros() as u64)),
            k_lane_mask: Constant::new(bits(l as u64 - 1)),
            out_preds: Default::default(),
            out_error: Default::default(),
            out_error_lane: Default::default(),
            match_rows: vec_of(match config.match_impl {
                MatchImpl::Parallel => l,
                MatchImpl::Iterative => 1,
            }),
            redux_nodes: vec_of(l - 1),
            redux_q: vec_of(l - 1),
            redux_q_k: vec_of(l - 1),
            redux_leaf: vec_of(l),
            redux_leaf_k: vec_of(l),
            redux_v: vec_of(2 * l - 1),
            redux_v_k: vec_of(2 * l - 1),
            leaf_val: vec_of(l),
            leaf_key: vec_of(l),
            redux_p_valid: vec_of(tree_levels(l)),
            redux_p_first: vec_of(tree_levels(l)),
            redux_p_last: vec_of(tree_levels(l)),
            reduce_issued: Default::default(),
            tree_in_valid: Default::default(),
            fold_valid: Default::default(),
            fold_first: Default::default(),
            fold_last: Default::default(),
            redux_fold: Default::default(),
            shfl: vec_of(l),
            shfl_pred_pack: Default::default(),
            store_pack: PackLanes::new(),
            fire: Default::default(),
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
            req_beats: Default::default(),
            stage_blocked: Default::default(),
            take_fail: Default::default(),
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
            not_built: Default::default(),
            h_store_lanes: Default::default(),
            h_fire: Default::default(),
            hdr_lanes: Default::default(),
            hdr_value: Default::default(),
            take_beat: Default::default(),
            beat_group: Default::default(),
            beat_store_lanes: Default::default(),
            beats_done: Default::default(),
            bq_take: Default::default(),
            bq_group: Default::default(),
            bq_mode: Default::default(),
            bq_a: vec_of(l),
            bq_b: vec_of(l),
            bq_clamp: vec_of(l),
            bq_segmask: vec_of(l),
            landing: Default::default(),
            land_fire: Default::default(),
            land_op: Default::default(),
            go: Default::default(),
            go_fire: Default::default(),
            go_op: Default::default(),
            done_fire: Default::default(),
            done_op: Default::default(),
            slot_a: vec_of(l),
            slot_key: vec_of(match config.match_impl {
                MatchImpl::Parallel => l,
                MatchImpl::Iterative => 0,
            }),
            slot_src: vec_of(l),
            slot_pval: vec_of(l),
            beat_mode: Default::default(),
            slot_part: vec_of(l),
            slot_arrived: vec_of(l),
            slot_value: vec_of(l),
            last_group: Default::default(),
            row_key: Default::default(),
            key_q: Default::default(),
            emit_prep: Default::default(),
            emit_prep2: Default::default(),
            emit_prep3: Default::default(),
            all_row_q: Default::default(),
            all_eq_q: Default::default(),
            em_write: vec_of(l),
            em_word: vec_of(l),
            em_data: vec_of(l),
            emit_drain: Default::default(),
            emit_drain2: Default::default(),
            g_valid: Default::default(),
            g_step: Default::default(),
            g_a: vec_of(l),
            g_key: vec_of(match config.match_impl {
                MatchImpl::Parallel => l,
                MatchImpl::Iterative => 0,
            }),
            g_src: vec_of(l),
            g_pval: vec_of(l),
            g_part: vec_of(match config.match_impl {
                MatchImpl::Parallel => l,
                MatchImpl::Iterative => 1,
            }),
            g_arrived: vec_of(l),
            g_bank: vec_of(ram_slots * ram_slots),
            g_row: Default::default(),
            key_lane: Default::default(),
            key_off: vec_of(usize::from(ram_slots == 0)),
            iter_match: Default::default(),
            redux_identity: Default::default(),
            rx_float: Default::default(),
            rx_nan: Default::default(),
            rx_identity: Default::default(),
            rx_identity_k: Default::default(),
            identity_key: Default::default(),
            redux_signed: Default::default(),
            redux_float: Default::default(),
            redux_abs: Default::default(),
            shfl_src_a: vec_of(l),
            shfl_read: vec_of(l),
            key_src: Default::default(),
            key_ram: (0..ram_slots).map(|_| DepthRam::asynchronous(ram_addr_bits)).collect(),
            shfl_ram: (0..ram_slots * ram_slots).map(|_| DepthRam::block(ram_addr_bits)).collect(),
            _ram_slots: ram_slots,
            _mux_slots: l - ram_slots,
            _mux_key: usize::from(ram_slots == 0),
            shfl_src_wide: vec_of(l - ram_slots),
            lane_id: small_ids(LANES),
            group_id: small_ids(beats),
            one_hot: one_hots(l),
            k_last_group: Constant::new(bits(beats as u64 - 1)),
            k_zero32: c32(0),
            k_ones32: c32(u32::MAX),
            k_one32: c32(1),
            k_abs_mask: c32(0x7FFF_FFFF),
            k_last_lane: Constant::new(bits(31)),
            k_one5: Constant::new(bits(1)),
            k_zero5: Constant::new(bits(0)),
            k_st_idle: Constant::new(bits(ST_IDLE)),
            k_st_beats: Constant::new(bits(ST_BEATS)),
            k_st_reduce: Constant::new(bits(ST_REDUCE)),
            k_st_emit: Constant::new(bits(ST_EMIT)),
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
            _lanes: l,
            _lanes_end: l + 1,
            _beats: beats,
            _levels: tree_levels(l),
            _last_level: tree_levels(l).saturating_sub(1),
        }
    }
}

impl Logic for WarpNetwork {
    #[hdl_gen]
    fn update(&mut self) {
        // ---------------- clocks and register defaults (hold) ----------------
        self.records.clock.next = self.clock.val();
        self.records.reset.next = self.reset.val();
        for n in 0..self.redux_q.len() {
            self.redux_q[n].clock.next = self.clock.val();
            self.redux_q[n].d.next = self.redux_q[n].q.val();
            self.redux_q_k[n].clock.next = self.clock.val();
            self.redux_q_k[n].d.next = self.redux_q_k[n].q.val();
        }
        for i in 0..self.redux_leaf.len() {
            self.redux_leaf[i].clock.next = self.clock.val();
            self.redux_leaf_k[i].clock.next = self.clock.val();
        }
        for k in 0..self.redux_p_valid.len() {
            self.redux_p_valid[k].clock.next = self.clock.val();
            self.redux_p_first[k].clock.next = self.clock.val();
            self.redux_p_last[k].clock.next = self.clock.val();
        }
        for i in 0..32 {
            self.stage_a[i].clock.next = self.clock.val();
            self.stage_src[i].clock.next = self.clock.val();
            self.stage_pval[i].clock.next = self.clock.val();
            self.stage_a[i].d.next = self.stage_a[i].q.val();
            self.stage_src[i].d.next = self.stage_src[i].q.val();
            self.stage_pval[i].d.next = self.stage_pval[i].q.val();
            self.store_pack.lane[i].next = self.stage_a[i].q.val();
        }
        dff_setup!(
            self,
            clock,
            read_once,
            matched,
            bq_take,
            bq_group,
            bq_mode,
            landing,
            land_fire,
            land_op,
            looked,
            lk_rec_wdata,
            lk_eff_op,
            lk_eff_sub,
            lk_eff_dtype,
            lk_eff_flags,
            lk_is_data,
            lk_is_rendezvous,
            lk_mismatch,
            lk_outside_any,
            lk_arrived,
            lk_part,
            lk_complete,
            lk_outside,
            lk_active,
            lk_not_built,
            lk_vote_value,
            lk_vote_pred,
            lk_no_record,
            w_again,
            w_park,
            w_unpark,
            w_internal,
            state,
            step,
            w_op,
            w_sub,
            w_dtype,
            w_flags,
            w_store_lanes,
            w_fire,
            w_arrived,
            w_part,
            w_leader_id,
            key_q,
            emit_prep,
            emit_prep2,
            emit_prep3,
            all_row_q,
            all_eq_q,
            emit_drain,
            emit_drain2,
            rx_float,
            rx_nan,
            rx_identity,
            rx_identity_k,
            g_valid,
            g_step,
            g_row,
            redux_acc,
            redux_acc_k,
            reduce_issued,
            out_valid,
            out_cta,
            out_warp,
            out_lanes,
            out_preds,
            out_hdr_lanes,
            out_hdr_value,
            out_error,
            out_error_lane
        );
        self.results.clock.next = self.clock.val();
        self.results.clear.next = false;
        for i in 0..self._lanes {
            self.em_write[i].clock.next = self.clock.val();
            self.em_word[i].clock.next = self.clock.val();
            self.em_data[i].clock.next = self.clock.val();
            self.em_write[i].d.next = false;
            self.em_word[i].d.next = self.k_zero5.val();
            self.em_data[i].d.next = self.k_zero32.val();
            self.results.write[i].next = self.em_write[i].q.val();
            self.results.word[i].next = self.em_word[i].q.val();
            self.results.data[i].next = self.em_data[i].q.val();
            self.g_a[i].clock.next = self.clock.val();
            self.g_src[i].clock.next = self.clock.val();
            self.g_pval[i].clock.next = self.clock.val();
            self.g_arrived[i].clock.next = self.clock.val();
        }
        for r in 0..self.g_key.len() {
            self.g_key[r].clock.next = self.clock.val();
        }
        for r in 0..self.g_part.len() {
            self.g_part[r].clock.next = self.clock.val();
        }
        self.g_valid.d.next = false;
        self.out_valid.d.next = false;

        // ================ header cycle: look up the warp's arrival record ================
        // The record RAMs read the port's warp every cycle (asynchronously) into `rd_*`, the
        // decision below is made from them and registered in `lk_*`. A header is therefore
        // taken no earlier than its fourth cycle on the port (the sender holds it until
        // `req_ready`): `read_once` says the first cycle has passed, `matched` the second,
        // `looked` the third.
        // Records change only when a header is taken, so the decision the take cycle reads is
        // the one for its own header and record.
        self.req_kind.next = bit_cast::<21, 6>(self.req_op.val())
            | (bit_cast::<21, 3>(self.req_sub.val()) << 6u64)
            | (bit_cast::<21, 4>(self.req_dtype.val()) << 9u64)
            | (bit_cast::<21, 8>(self.req_flags.val()) << 13u64);
        self.is_exit.next = self.req_op.val() == self.k_op_exit.val();
        // The records (records.rs) read every record of the port's warp; the look cycle's
        // `hit` / `hit_raw` are the chosen one (joined, or the one an exit completes).
        self.records.cta.next = self.req_cta.val();
        self.records.warp.next = self.req_warp.val();
        self.records.member.next = self.req_member.val();
        self.records.kind.next = self.req_kind.val();
        self.records.active.next = self.req_active.val();
        self.records.live.next = self.req_live.val();
        self.records.is_exit.next = self.is_exit.val();
        self.hit_valid.next = self.records.hit.val();
        self.hit_arrived.next = self.k_zero32.val();
        if self.hit_valid.val() {
            self.hit_arrived.next = bit_cast::<32, REC_BITS>(self.records.hit_raw.val());
        }
        self.hit_member.next = self.records.hit_raw.val().get_bits::<32>(32);
        self.hit_pred.next = self.records.hit_raw.val().get_bits::<32>(85);
        self.hit_kind.next = self.records.hit_raw.val().get_bits::<21>(64);

        // ---------------- the op the request acts as ----------------
        // An exit (WarpExit) acts as an arrival of no lanes at the warp's pending rendezvous,
        // with the exit's (smaller) live mask: it fires the rendezvous if the exited lanes were
        // the last ones it waited for (exited lanes count as arrived, PTX ISA §9.7.13.2 / §9.7.13.9).
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
        self.req_beats.next = (self.req_op.val() == self.k_op_match_any.val())
            || (self.req_op.val() == self.k_op_match_all.val())
            || (self.req_op.val() == self.k_op_redux.val())
            || (self.req_op.val() == self.k_op_shfl.val());
        self.is_rendezvous.next = self.is_data.val()
            || (self.eff_op.val() == self.k_op_vote.val())
            || (self.eff_op.val() == self.k_op_elect.val())
            || (self.eff_op.val() == self.k_op_warpsync.val());
        self.stage_blocked.next = self.lk_no_record.q.val();
        self.req_ready.next =
            (self.state.q.val() == self.k_st_idle.val()) && self.looked.q.val() && !self.stage_blocked.val();
        self.req_refused.next =
            (self.state.q.val() == self.k_st_idle.val()) && self.looked.q.val() && self.stage_blocked.val();
        // `looked` implies the header was offered last cycle, and an offer is held until taken
        // (valid/ready), so the take does not wait on this cycle's `req_valid`: in the top it
        // is the end of the request FSM's decode.
        self.fire.next =
            (self.state.q.val() == self.k_st_idle.val()) && self.looked.q.val() && !self.stage_blocked.val();
        self.read_once.d.next =
            self.req_valid.val() && (self.state.q.val() == self.k_st_idle.val()) && !self.fire.val();
        self.matched.d.next = self.read_once.q.val()
            && self.req_valid.val()
            && (self.state.q.val() == self.k_st_idle.val())
            && !self.fire.val();
        self.looked.d.next = self.matched.q.val()
            && self.req_valid.val()
            && (self.state.q.val() == self.k_st_idle.val())
            && !self.fire.val();

        self.outside.next = self.eff_active.val() & !self.eff_member.val();
        self.arrived.next = self.eff_active.val();
        if self.hit_valid.val() {
            self.arrived.next = self.hit_arrived.val() | self.eff_active.val();
        }
        self.part.next = self.eff_member.val() & self.req_live.val();
        self.complete.next = (self.part.val() & !self.arrived.val()) == self.k_zero32.val();
        self.not_built.next = (!self.k_match_built.val()
            && ((self.eff_op.val() == self.k_op_match_any.val()) || (self.eff_op.val() == self.k_op_match_all.val())))
            || (!self.k_redux_f32_built.val()
                && (self.eff_op.val() == self.k_op_redux.val())
                && (self.eff_dtype.val() == self.k_dt_f32.val()));

        // ---------------- vote (predicates only: no beats) ----------------
        self.pv.next = (self.hit_pred.val() & self.hit_arrived.val()) | (self.req_pred.val() & self.eff_active.val());
        if (self.eff_flags.val() & self.k_flag_negate.val()) != self.k_zero8.val() {
            self.pv.next =
                !((self.hit_pred.val() & self.hit_arrived.val()) | (self.req_pred.val() & self.eff_active.val()));
        }
        self.vote_pred.next = (self.part.val() & self.pv.val()) == self.part.val();
        if self.eff_sub.val() == self.k_vote_any.val() {
            self.vote_pred.next = (self.part.val() & self.pv.val()).any();
        }
        if self.eff_sub.val() == self.k_vote_uni.val() {
            self.vote_pred.next = ((self.part.val() & self.pv.val()) == self.part.val())
                || ((self.part.val() & self.pv.val()) == self.k_zero32.val());
        }
        // The record a partial arrival leaves (written only when `records.write` is raised below).
        self.rec_wdata.next = bit_cast::<REC_BITS, 32>(self.arrived.val())
            | (bit_cast::<REC_BITS, 32>(self.eff_member.val()) << 32u64)
            | (bit_cast::<REC_BITS, 21>(self.eff_kind.val()) << 64u64)
            | (bit_cast::<REC_BITS, 32>(
                (self.hit_pred.val() & self.hit_arrived.val()) | (self.req_pred.val() & self.eff_active.val()),
            ) << 85u64);

        // ---------------- the look cycle's decision, registered ----------------
        // Computed every cycle; the take cycle (`looked`) reads what its look cycle computed.
        self.lk_rec_wdata.d.next = self.rec_wdata.val();
        self.lk_eff_op.d.next = self.eff_op.val();
        self.lk_eff_sub.d.next = self.eff_sub.val();
        self.lk_eff_dtype.d.next = self.eff_dtype.val();
        self.lk_eff_flags.d.next = self.eff_flags.val();
        self.lk_is_data.d.next = self.is_data.val();
        self.lk_is_rendezvous.d.next = self.is_rendezvous.val();
        // A lane arriving while it waits at another rendezvous makes a hang certain.
        self.lk_mismatch.d.next = self.records.twice.val();
        self.lk_outside_any.d.next = self.outside.val().any();
        self.lk_arrived.d.next = self.arrived.val();
        self.lk_part.d.next = self.part.val();
        self.lk_complete.d.next = self.complete.val();
        self.lk_outside.d.next = self.outside.val();
        self.lk_active.d.next = self.eff_active.val();

        // ---------------- the take cycle's lowest lanes, from the registered masks ----------------
        // The leader (lowest lane of the rendezvous' participants: elect's answer, match.all's
        // key lane), the first active lane outside the mask and the first active lane (errors).
        self.leader.next = self.lk_part.q.val() & (!self.lk_part.q.val() + self.k_one32.val());
        self.outside_low.next = self.lk_outside.q.val() & (!self.lk_outside.q.val() + self.k_one32.val());
        self.active_low.next = self.lk_active.q.val() & (!self.lk_active.q.val() + self.k_one32.val());
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
        self.lk_not_built.d.next = self.not_built.val();
        self.lk_vote_value.d.next = self.pv.val() & self.part.val();
        self.lk_vote_pred.d.next = self.vote_pred.val();
        self.lk_no_record.d.next = self.is_rendezvous.val()
            && !self.is_exit.val()
            && !self.complete.val()
            && !self.records.twice.val()
            && !self.outside.val().any()
            && !self.not_built.val()
            && self.records.full.val();

        // ---------------- take a header ----------------
        self.records.write.next = false;
        self.records.clear_sel.next = false;
        self.records.clear_failed.next = false;
        self.records.wdata.next = self.lk_rec_wdata.q.val();
        self.take_fail.next = self.lk_mismatch.q.val() || (!self.lk_complete.q.val() && self.records.cycle.val());
        // For a data op: the lanes its beats store, park or read back, and whether it fires
        // (decided below).
        self.h_store_lanes.next = self.k_zero32.val();
        self.h_park.next = self.k_zero32.val();
        self.h_unpark.next = self.k_zero32.val();
        self.h_fire.next = false;
        self.hdr_lanes.next = self.k_zero32.val();
        self.hdr_value.next = self.k_zero32.val();
        if self.fire.val() {
            self.out_cta.d.next = self.req_cta.val();
            self.out_warp.d.next = self.req_warp.val();
            self.out_error.d.next = self.k_err_none.val();
            self.out_error_lane.d.next = self.lane_id[0].val();
            self.out_preds.d.next = self.k_zero32.val();
            self.out_lanes.d.next = self.k_zero32.val();
            self.w_op.d.next = self.lk_eff_op.q.val();
            self.w_sub.d.next = self.lk_eff_sub.q.val();
            self.w_dtype.d.next = self.lk_eff_dtype.q.val();
            self.w_flags.d.next = self.lk_eff_flags.q.val();
            self.w_arrived.d.next = self.lk_arrived.q.val();
            self.w_part.d.next = self.lk_part.q.val();
            self.w_leader_id.d.next = self.leader_id.val();
            self.w_again.d.next = self.records.again.val();
            if self.lk_eff_op.q.val() == self.k_op_activemask.val() {
                self.out_lanes.d.next = self.eff_active.val();
                self.hdr_lanes.next = self.eff_active.val();
                self.hdr_value.next = self.eff_active.val();
            } else if self.lk_is_rendezvous.q.val() {
                if self.lk_not_built.q.val() {
                    self.out_lanes.d.next = self.eff_active.val();
                    self.out_error.d.next = self.k_err_not_built.val();
                    self.out_error_lane.d.next = self.first_active_id.val();
                } else if self.lk_outside_any.q.val() {
                    self.out_lanes.d.next = self.eff_active.val();
                    self.out_error.d.next = self.k_err_not_in_mask.val();
                    self.out_error_lane.d.next = self.outside_id.val();
                } else if self.take_fail.val() {
                    // the lanes waiting at the failed rendezvous fail with the new request, so
                    // nothing hangs (the golden model answers each of their requests)
                    self.out_lanes.d.next = self.eff_active.val() | self.records.fail_lanes.val();
                    self.out_error.d.next = self.k_err_mismatch.val();
                    self.out_error_lane.d.next = self.first_active_id.val();
                    // drop the failed records (their parked lanes are not read again)
                    self.records.clear_failed.next = true;
                } else if !self.lk_complete.q.val() {
                    // partial arrival: remember the lanes (and, for a data op, their operands,
                    // which the beats bring). The request is answered with no lanes; its lanes
                    // are answered when the rendezvous fires (by the request or exit that
                    // completes it).
                    self.records.write.next = true;
                    if self.lk_is_data.q.val() {
                        self.h_park.next = self.eff_active.val();
                    }
                } else {
                    // every live lane of the mask has arrived: the op fires
                    self.records.clear_sel.next = true;
                    self.out_lanes.d.next = self.lk_arrived.q.val();
                    if self.lk_is_data.q.val() {
                        // computed from the operand store after the beats (see below), which
                        // bring the lanes that arrived earlier back from the park
                        self.h_store_lanes.next = self.eff_active.val();
                        self.h_unpark.next = self.lk_arrived.q.val() & !self.lk_active.q.val();
                        self.h_fire.next = true;
                    }
                    if self.lk_eff_op.q.val() == self.k_op_vote.val() {
                        if self.lk_vote_pred.q.val() && (self.lk_eff_sub.q.val() != self.k_vote_ballot.val()) {
                            self.out_preds.d.next = self.lk_arrived.q.val();
                        }
                        self.hdr_lanes.next = self.lk_arrived.q.val();
                        self.hdr_value.next = self.lk_vote_value.q.val();
                    }
                    if self.lk_eff_op.q.val() == self.k_op_elect.val() {
                        self.out_preds.d.next = self.leader.val();
                        self.hdr_lanes.next = self.lk_arrived.q.val();
                        self.hdr_value.next = bit_cast::<32, 5>(self.leader_id.val());
                    }
                }
            }
            // else: not a warp-network op: answered with no lanes so the request is not lost
            // A header-cycle answer is one value for every lane it covers (activemask, vote,
            // elect); the store's lanes read 0 until a data op's emit writes them.
            self.results.clear.next = true;
            self.out_hdr_lanes.d.next = self.hdr_lanes.val();
            self.out_hdr_value.d.next = self.hdr_value.val();
            self.w_store_lanes.d.next = self.h_store_lanes.val();
            self.w_park.d.next = self.h_park.val();
            self.w_unpark.d.next = self.h_unpark.val();
            self.w_fire.d.next = self.h_fire.val();
            // an exit that completes a data op reads its parked lanes in beats of its own
            self.w_internal.d.next = self.h_fire.val() && !self.req_beats.val();
        }

        // ================ beats: operands into the store ================
        // Beat 0 may be taken with its header; the others in BEATS, one per cycle.
        self.beat_ready.next =
            ((self.state.q.val() == self.k_st_beats.val()) && !self.landing.q.val() && !self.w_internal.q.val())
                || (self.fire.val() && self.req_beats.val());
        self.take_beat.next = (self.beat_valid.val() && self.beat_ready.val())
            || ((self.state.q.val() == self.k_st_beats.val()) && !self.landing.q.val() && self.w_internal.q.val());
        self.beat_store_lanes.next = self.w_store_lanes.q.val();
        self.beat_park.next = self.w_park.q.val();
        self.beat_unpark.next = self.w_unpark.q.val();
        self.done_fire.next = self.w_fire.q.val();
        self.done_op.next = self.w_op.q.val();
        if self.fire.val() {
            self.beat_store_lanes.next = self.h_store_lanes.val();
            self.beat_park.next = self.h_park.val();
            self.beat_unpark.next = self.h_unpark.val();
            self.done_fire.next = self.h_fire.val();
            self.done_op.next = self.lk_eff_op.q.val();
        }
        // The beat's group and shfl mode come from registers: BEATS' own, else the header's
        // (beat 0 taken with it; a request with beats is no exit, so its sub-op is `req_sub`).
        // Selecting them on `fire` put the rendezvous decision in front of the shfl source
        // computation below, the unit's longest path.
        self.beat_group.next = self.k_zero5.val();
        self.beat_mode.next = bit_cast::<2, 3>(self.req_sub.val());
        if self.state.q.val() == self.k_st_beats.val() {
            self.beat_group.next = self.step.q.val();
            self.beat_mode.next = bit_cast::<2, 3>(self.w_sub.q.val());
        }
        // The beat into `bq_*` (every cycle; `bq_take` says whether it was taken).
        self.bq_take.d.next = self.take_beat.val();
        self.bq_group.d.next = self.beat_group.val();
        self.bq_mode.d.next = self.beat_mode.val();
        for i in 0..self._lanes {
            self.bq_st[i].clock.next = self.clock.val();
            self.bq_un[i].clock.next = self.clock.val();
            self.bq_pk[i].clock.next = self.clock.val();
            self.bq_st[i].d.next = false;
            self.bq_un[i].d.next = false;
            self.bq_pk[i].d.next = false;
        }
        for l in self._lanes..self._lanes_end {
            for g in 0..self._beats {
                if self.take_beat.val() && (self.beat_group.val() == self.group_id[g].val()) {
                    for i in 0..self._lanes {
                        self.bq_st[i].d.next = self.beat_store_lanes.val().get_bit(l * g + i);
                        self.bq_un[i].d.next = self.beat_unpark.val().get_bit(l * g + i);
                        self.bq_pk[i].d.next = self.beat_park.val().get_bit(l * g + i);
                    }
                }
            }
        }
        // The park: the words of the beat group being taken are read (for the lanes that come
        // back with it, a cycle later in `bq_*`), the registered beat's parked lanes written.
        self.park_rd_addr.next = (bit_cast::<16, 5>(self.out_cta.q.val()) << self.k_park_cta_shift.val())
            | (bit_cast::<16, 5>(self.out_warp.q.val()) << self.k_park_warp_shift.val())
            | bit_cast::<16, 5>(self.beat_group.val());
        if self.fire.val() {
            self.park_rd_addr.next = (bit_cast::<16, 5>(self.req_cta.val()) << self.k_park_cta_shift.val())
                | (bit_cast::<16, 5>(self.req_warp.val()) << self.k_park_warp_shift.val())
                | bit_cast::<16, 5>(self.beat_group.val());
        }
        self.park_wr_addr.next = (bit_cast::<16, 5>(self.out_cta.q.val()) << self.k_park_cta_shift.val())
            | (bit_cast::<16, 5>(self.out_warp.q.val()) << self.k_park_warp_shift.val())
            | bit_cast::<16, 5>(self.bq_group.q.val());
        for i in 0..self._lanes {
            self.bq_a[i].clock.next = self.clock.val();
            self.bq_b[i].clock.next = self.clock.val();
            self.bq_clamp[i].clock.next = self.clock.val();
            self.bq_segmask[i].clock.next = self.clock.val();
            self.bq_a[i].d.next = self.beat_a[i].val();
            self.bq_b[i].d.next = self.beat_b[i].val();
            self.bq_clamp[i].d.next = self.beat_clamp[i].val();
            self.bq_segmask[i].d.next = self.beat_segmask[i].val();
        }
        // shfl: the registered beat's lanes' source lanes (PTX shfl.sync pseudo-code), stored
        // with a.
        for i in 0..self._lanes {
            self.shfl[i].mode.next = self.bq_mode.q.val();
            self.shfl[i].lane.next = (self.bq_group.q.val() << self.k_log_lanes.val()) | self.lane_id[i].val();
            self.shfl[i].b.next = self.bq_b[i].q.val();
            self.shfl[i].clamp.next = self.bq_clamp[i].q.val();
            self.shfl[i].segmask.next = self.bq_segmask[i].q.val();
        }
        // Per lane of the registered beat: stored from the beat, read back from the park (a
        // lane that arrived earlier), or parked (a partial arrival's lane).
        for i in 0..self._lanes {
            self.un_now[i].next = self.bq_un[i].q.val();
            self.st_now[i].next = self.bq_st[i].q.val();
            self.pk_now[i].next = self.bq_pk[i].q.val();
        }
        for i in 0..self._lanes {
            self.park[i].read_clock.next = self.clock.val();
            self.park[i].write_clock.next = self.clock.val();
            self.park[i].read_address.next = self.park_rd_addr.val();
            self.park[i].write_address.next = self.park_wr_addr.val();
            self.park_a_wide[i].narrow.next = self.bq_a[i].q.val();
            self.park_src_wide[i].narrow.next = self.shfl[i].src.val();
            self.park[i].write_data.next = self.park_a_wide[i].wide.val() | (self.park_src_wide[i].wide.val() << 64u64);
            if self.shfl[i].pval.val() {
                self.park[i].write_data.next = self.park_a_wide[i].wide.val()
                    | (self.park_src_wide[i].wide.val() << 64u64)
                    | (self.k_one70.val() << 69u64);
            }
            self.park[i].write_enable.next = self.pk_now[i].val() && !self.reset.val();
            self.park_word[i].next = self.park[i].read_data.val();
            self.mg_a[i].next = self.bq_a[i].q.val();
            self.mg_src[i].next = self.shfl[i].src.val();
            self.mg_pval[i].next = self.shfl[i].pval.val();
            if self.un_now[i].val() {
                self.mg_a[i].next = self.park_word[i].val().get_bits::<64>(0);
                self.mg_src[i].next = self.park_word[i].val().get_bits::<5>(64);
                self.mg_pval[i].next = self.park_word[i].val().get_bit(69);
            }
        }
        // The store's RAM copies: written with `stage_a` (beat group `bq_group`): defaults.
        for i in 0..self.key_ram.len() {
            self.key_ram[i].write_clock.next = self.clock.val();
            self.key_ram[i].read_clock.next = self.clock.val();
            self.key_ram[i].write_enable.next = false;
            self.key_ram[i].write_address.next = self.bq_group.q.val();
            self.key_ram[i].write_data.next = self.mg_a[i].val();
        }
        for l in self._lanes..self._lanes_end {
            for t in 0..self._ram_slots {
                for i in 0..self._ram_slots {
                    self.shfl_ram[l * t + i].write_clock.next = self.clock.val();
                    self.shfl_ram[l * t + i].read_clock.next = self.clock.val();
                    self.shfl_ram[l * t + i].write_enable.next = false;
                    self.shfl_ram[l * t + i].write_address.next = self.bq_group.q.val();
                    self.shfl_ram[l * t + i].write_data.next = self.mg_a[i].val().get_bits::<32>(0);
                }
            }
        }
        for l in self._lanes..self._lanes_end {
            for g in 0..self._beats {
                if self.bq_take.q.val() && (self.bq_group.q.val() == self.group_id[g].val()) {
                    for i in 0..self._lanes {
                        if self.st_now[i].val() || self.un_now[i].val() {
                            for k in 0..self._ram_slots.min(1) {
                                self.key_ram[i + k].write_enable.next = true;
                            }
                            for t in 0..self._ram_slots {
                                self.shfl_ram[l * t + i].write_enable.next = true;
                            }
                            self.stage_a[l * g + i].d.next = self.mg_a[i].val();
                            self.stage_src[l * g + i].d.next = self.mg_src[i].val();
                            self.stage_pval[l * g + i].d.next = self.mg_pval[i].val();
                        }
                    }
                }
            }
        }
        // The last beat taken: it lands in the store next cycle (`landing`), then the op goes
        // on. A header without beats (for an exit that fires a data op, the operands are in the
        // store already) goes on at once: compute (redux: REDUCE then EMIT; the other data
        // ops: EMIT), or answer.
        self.beats_done.next = self.take_beat.val() && (self.beat_group.val() == self.k_last_group.val());
        self.go.next = (self.fire.val() && !self.req_beats.val() && !self.h_fire.val()) || self.landing.q.val();
        self.go_fire.next = self.done_fire.val();
        self.go_op.next = self.done_op.val();
        if self.landing.q.val() {
            self.go_fire.next = self.land_fire.q.val();
            self.go_op.next = self.land_op.q.val();
        }
        self.landing.d.next = false;
        self.land_fire.d.next = self.done_fire.val();
        self.land_op.d.next = self.done_op.val();
        if self.fire.val() && (self.req_beats.val() || self.h_fire.val()) {
            self.state.d.next = self.k_st_beats.val();
            self.step.d.next = self.k_zero5.val();
            if self.take_beat.val() {
                self.step.d.next = self.k_one5.val();
            }
        }
        if (self.state.q.val() == self.k_st_beats.val()) && self.take_beat.val() {
            self.step.d.next = self.step.q.val() + self.k_one5.val();
        }
        if self.beats_done.val() {
            self.step.d.next = self.k_zero5.val();
            self.landing.d.next = true;
        }
        if self.go.val() {
            self.step.d.next = self.k_zero5.val();
            self.w_internal.d.next = false;
            if self.go_fire.val() {
                self.state.d.next = self.k_st_emit.val();
                if self.go_op.val() == self.k_op_redux.val() {
                    self.state.d.next = self.k_st_reduce.val();
                }
                // (The ops whose row is keyed by `key_q` load it in EMIT's first cycle.)
                self.emit_prep.d.next = (self.go_op.val() == self.k_op_match_all.val())
                    || (self.k_iterative.val() && (self.go_op.val() == self.k_op_match_any.val()));
                self.emit_prep2.d.next = self.go_op.val() == self.k_op_match_all.val();
                self.emit_prep3.d.next = self.go_op.val() == self.k_op_match_all.val();
            } else {
                self.state.d.next = self.k_st_idle.val();
                self.out_valid.d.next = true;
            }
        }

        // ================ store read: the lane group `step` (L lanes) ================
        for i in 0..self._lanes {
            self.slot_a[i].next = self.k_zero32.val();
            self.slot_src[i].next = self.k_zero5.val();
            self.slot_pval[i].next = false;
            self.slot_part[i].next = false;
            self.slot_arrived[i].next = false;
        }
        for l in self._lanes..self._lanes_end {
            for g in 0..self._beats {
                if self.step.q.val() == self.group_id[g].val() {
                    for i in 0..self._lanes {
                        self.slot_a[i].next = self.stage_a[l * g + i].q.val().get_bits::<32>(0);
                        self.slot_src[i].next = self.stage_src[l * g + i].q.val();
                        self.slot_pval[i].next = self.stage_pval[l * g + i].q.val();
                        self.slot_part[i].next = self.w_part.q.val().get_bit(l * g + i);
                        self.slot_arrived[i].next = self.w_arrived.q.val().get_bit(l * g + i);
                    }
                }
            }
        }
        for i in 0..self.slot_key.len() {
            self.slot_key[i].next = self.stage_a[i].q.val();
        }
        for l in self._lanes..self._lanes_end {
            for g in 0..self._beats {
                if self.step.q.val() == self.group_id[g].val() {
                    for r in 0..self.slot_key.len() {
                        self.slot_key[r].next = self.stage_a[l * g + r].q.val();
                    }
                }
            }
        }
        self.last_group.next = self.step.q.val() == self.k_last_group.val();
        // The group, registered for the emit's answer stage (a cycle later).
        for i in 0..self._lanes {
            self.g_a[i].d.next = self.slot_a[i].val();
            self.g_src[i].d.next = self.slot_src[i].val();
            self.g_pval[i].d.next = self.slot_pval[i].val();
            self.g_arrived[i].d.next = self.slot_arrived[i].val();
        }
        for l in self._lanes..self._lanes_end {
            for t in 0..self._ram_slots {
                for i in 0..self._ram_slots {
                    self.g_bank[l * t + i].clock.next = self.clock.val();
                    self.g_bank[l * t + i].d.next =
                        (self.slot_src[t].val() & self.k_lane_mask.val()) == self.lane_id[i].val();
                }
            }
        }
        for r in 0..self.g_key.len() {
            self.g_key[r].d.next = self.slot_key[r].val();
        }
        for r in 0..self.g_part.len() {
            self.g_part[r].d.next = self.slot_part[r].val();
        }
        self.g_step.d.next = self.step.q.val();

        // ================ redux: L leaves per cycle, folded into the accumulator ================
        self.redux_signed.next = self.w_dtype.q.val() == self.k_dt_s32.val();
        self.redux_float.next = self.w_dtype.q.val() == self.k_dt_f32.val();
        self.redux_abs.next =
            self.redux_float.val() && ((self.w_flags.q.val() & self.k_flag_abs.val()) != self.k_zero8.val());
        self.redux_identity.next = self.k_zero32.val();
        if self.w_sub.q.val() == self.k_redux_and.val() {
            self.redux_identity.next = self.k_ones32.val();
        }
        if self.w_sub.q.val() == self.k_redux_min.val() {
            self.redux_identity.next = self.k_ones32.val();
            if self.w_dtype.q.val() == self.k_dt_s32.val() {
                self.redux_identity.next = self.k_id_int_max.val();
            }
        }
        if self.w_sub.q.val() == self.k_redux_max.val() && self.w_dtype.q.val() == self.k_dt_s32.val() {
            self.redux_identity.next = self.k_id_int_min.val();
        }
        if self.redux_float.val() {
            // Without .NaN a NaN operand is ignored: the canonical NaN is the identity.
            self.redux_identity.next = self.k_canonical_nan.val();
            if (self.w_flags.q.val() & self.k_flag_nan.val()) != self.k_zero8.val() {
                self.redux_identity.next = self.k_neg_inf.val();
                if self.w_sub.q.val() == self.k_redux_min.val() {
                    self.redux_identity.next = self.k_pos_inf.val();
                }
            }
        }
        for l in self._lanes..self._lanes_end {
            for i in 0..self._lanes {
                self.leaf_val[i].next = self.redux_identity.val();
                if self.slot_part[i].val() {
                    self.leaf_val[i].next = self.slot_a[i].val();
                    if self.redux_abs.val() {
                        self.leaf_val[i].next = self.slot_a[i].val() & self.k_abs_mask.val();
                    }
                }
                self.leaf_key[i].x.next = self.leaf_val[i].val();
                self.leaf_key[i].is_signed.next = self.redux_signed.val();
                self.leaf_key[i].float.next = self.redux_float.val();
                self.redux_leaf[i].d.next = self.leaf_val[i].val();
                self.redux_leaf_k[i].d.next = self.leaf_key[i].key.val();
                self.redux_v[l - 1 + i].next = self.redux_leaf[i].q.val();
                self.redux_v_k[l - 1 + i].next = self.redux_leaf_k[i].q.val();
            }
        }
        // The tree, a register per level: a group's L leaves enter it in one cycle and reach
        // the fold log2 L cycles later; a group enters every cycle (the levels move together).
        self.rx_float.d.next = self.redux_float.val();
        self.rx_nan.d.next = (self.w_flags.q.val() & self.k_flag_nan.val()) != self.k_zero8.val();
        self.rx_identity.d.next = self.redux_identity.val();
        self.identity_key.x.next = self.redux_identity.val();
        self.identity_key.is_signed.next = self.redux_signed.val();
        self.identity_key.float.next = self.redux_float.val();
        self.rx_identity_k.d.next = self.identity_key.key.val();
        for n in 0..self.redux_nodes.len() {
            self.redux_nodes[n].op.next = self.w_sub.q.val();
            self.redux_nodes[n].float.next = self.rx_float.q.val();
            self.redux_nodes[n].nan_mode.next = self.rx_nan.q.val();
            self.redux_nodes[n].x.next = self.redux_v[2 * n + 1].val();
            self.redux_nodes[n].y.next = self.redux_v[2 * n + 2].val();
            self.redux_nodes[n].x_k.next = self.redux_v_k[2 * n + 1].val();
            self.redux_nodes[n].y_k.next = self.redux_v_k[2 * n + 2].val();
            self.redux_q[n].d.next = self.redux_nodes[n].z.val();
            self.redux_q_k[n].d.next = self.redux_nodes[n].z_k.val();
            self.redux_v[n].next = self.redux_q[n].q.val();
            self.redux_v_k[n].next = self.redux_q_k[n].q.val();
        }
        // REDUCE: group `step` enters the tree until the last one has (`reduce_issued`).
        self.tree_in_valid.next = (self.state.q.val() == self.k_st_reduce.val()) && !self.reduce_issued.q.val();
        for k in 0..self.redux_p_valid.len().min(1) {
            self.redux_p_valid[k].d.next = self.tree_in_valid.val();
            self.redux_p_first[k].d.next = self.step.q.val() == self.k_zero5.val();
            self.redux_p_last[k].d.next = self.last_group.val();
        }
        for k in 1..self.redux_p_valid.len() {
            self.redux_p_valid[k].d.next = self.redux_p_valid[k - 1].q.val();
            self.redux_p_first[k].d.next = self.redux_p_first[k - 1].q.val();
            self.redux_p_last[k].d.next = self.redux_p_last[k - 1].q.val();
        }
        // The group at the fold: the last level's (or, L = 1, the one entering: no tree).
        self.fold_valid.next = self.tree_in_valid.val();
        self.fold_first.next = self.step.q.val() == self.k_zero5.val();
        self.fold_last.next = self.last_group.val();
        for k in self._last_level..self._levels {
            self.fold_valid.next = self.redux_p_valid[k].q.val();
            self.fold_first.next = self.redux_p_first[k].q.val();
            self.fold_last.next = self.redux_p_last[k].q.val();
        }
        self.redux_fold.op.next = self.w_sub.q.val();
        self.redux_fold.float.next = self.rx_float.q.val();
        self.redux_fold.nan_mode.next = self.rx_nan.q.val();
        self.redux_fold.x.next = self.redux_acc.q.val();
        self.redux_fold.x_k.next = self.redux_acc_k.q.val();
        if self.fold_first.val() {
            self.redux_fold.x.next = self.rx_identity.q.val();
            self.redux_fold.x_k.next = self.rx_identity_k.q.val();
        }
        self.redux_fold.y.next = self.redux_v[0].val();
        self.redux_fold.y_k.next = self.redux_v_k[0].val();
        if self.fold_valid.val() {
            self.redux_acc.d.next = self.redux_fold.z.val();
            self.redux_acc_k.d.next = self.redux_fold.z_k.val();
        }
        if self.tree_in_valid.val() {
            self.step.d.next = self.step.q.val() + self.k_one5.val();
            if self.last_group.val() {
                self.step.d.next = self.k_zero5.val();
                self.reduce_issued.d.next = true;
            }
        }
        if self.fold_valid.val() && self.fold_last.val() {
            self.reduce_issued.d.next = false;
            self.step.d.next = self.k_zero5.val();
            self.state.d.next = self.k_st_emit.val();
        }

        // ================ emit: L lanes' answers per cycle ================
        // match.any: L rows (parallel) keyed by the group's lanes, or one row keyed by lane
        // `step` (iterative); match.all: one row keyed by the leader's operand.
        self.iter_match.next = self.k_iterative.val() && (self.w_op.q.val() == self.k_op_match_any.val());
        // A lane's operand is a part-select of the packed store at a variable offset: yosys
        // builds a 32:1 mux tree from it (an if-chain over the 32 lanes would be 32 muxes deep).
        self.key_lane.next = self.step.q.val() + self.k_one5.val();
        if self.emit_prep.q.val() {
            self.key_lane.next = self.step.q.val();
        }
        // One key select: lane `key_lane` (iterative match.any) or the leader (match.all).
        self.key_src.next = self.key_lane.val();
        if self.w_op.q.val() == self.k_op_match_all.val() {
            self.key_src.next = self.w_leader_id.q.val();
        }
        self.row_key.next = 0.into();
        for k in 0..self._mux_key {
            self.key_off[k].next = bit_cast::<11, 5>(self.key_src.val()) << 6u64;
            self.row_key.next = self.store_pack.word.val().get_bits::<64>(self.key_off[k].val().index());
        }
        for i in 0..self.key_ram.len() {
            // The address from registers only (not from `key_src`, which the same statements
            // as the read data use): Verilator orders it apart from the RAM's read (no
            // UNOPTFLAT false loop through this always block).
            self.key_ram[i].read_address.next = (self.step.q.val() + self.k_one5.val()) >> self.k_log_lanes.val();
            if self.emit_prep.q.val() {
                self.key_ram[i].read_address.next = self.step.q.val() >> self.k_log_lanes.val();
            }
            if self.w_op.q.val() == self.k_op_match_all.val() {
                self.key_ram[i].read_address.next = self.w_leader_id.q.val() >> self.k_log_lanes.val();
            }
            if (self.key_src.val() & self.k_lane_mask.val()) == self.lane_id[i].val() {
                self.row_key.next = self.key_ram[i].read_data.val();
            }
        }
        self.key_q.d.next = self.row_key.val();
        for r in 0..self.match_rows.len() {
            self.match_rows[r].wide.next = self.w_dtype.q.val() == self.k_dt_b64.val();
            self.match_rows[r].part.next = self.w_part.q.val();
            self.match_rows[r].key.next = self.key_q.q.val();
            self.match_rows[r].vals.next = self.store_pack.word.val();
        }
        for r in 0..self.g_key.len() {
            self.match_rows[r].key.next = self.g_key[r].q.val();
        }
        // match.all uses row 0, keyed by the leader's operand (the two matches never overlap).
        if self.w_op.q.val() == self.k_op_match_all.val() {
            self.match_rows[0].key.next = self.key_q.q.val();
        }
        // shfl: the source lane of each slot; a source lane that has not arrived (outside the
        // mask or exited: PTX undefined) gives the lane's own a.
        for i in 0..self._mux_slots {
            self.shfl_src_wide[i].narrow.next = self.g_src[i].q.val();
            self.shfl_read[i].next =
                self.store_pack.word.val().get_bits::<32>((self.shfl_src_wide[i].wide.val() << 6u64).index());
        }
        for l in self._lanes..self._lanes_end {
            for t in 0..self._ram_slots {
                self.shfl_read[t].next = 0.into();
                for i in 0..self._ram_slots {
                    // Block RAM: the address in the slot cycle (the source lane as staged), the
                    // word in the emit cycle, beside `g_bank`.
                    self.shfl_ram[l * t + i].read_address.next = self.slot_src[t].val() >> self.k_log_lanes.val();
                    if self.g_bank[l * t + i].q.val() {
                        self.shfl_read[t].next = self.shfl_ram[l * t + i].read_data.val();
                    }
                }
            }
        }
        for i in 0..self._lanes {
            self.shfl_src_a[i].next = self.g_a[i].q.val();
            if self.w_arrived.q.val().get_bit(self.g_src[i].q.val().index()) {
                self.shfl_src_a[i].next = self.shfl_read[i].val();
            }
        }
        for i in 0..self._lanes {
            self.slot_value[i].next = self.k_zero32.val();
            if self.w_op.q.val() == self.k_op_redux.val() {
                self.slot_value[i].next = self.redux_acc.q.val();
            }
            if self.w_op.q.val() == self.k_op_shfl.val() {
                self.slot_value[i].next = self.shfl_src_a[i].val();
            }
            if (self.w_op.q.val() == self.k_op_match_all.val()) && self.all_eq_q.q.val() {
                self.slot_value[i].next = self.w_part.q.val();
            }
        }
        // (one row per slot when parallel; the iterative row is emitted below)
        for r in 0..self.match_rows.len() {
            if (self.w_op.q.val() == self.k_op_match_any.val()) && !self.k_iterative.val() && self.g_part[r].q.val() {
                self.slot_value[r].next = self.match_rows[r].row.val();
            }
        }
        for i in 0..self._lanes {
            if !self.g_arrived[i].q.val() {
                self.slot_value[i].next = self.k_zero32.val();
            }
        }
        for j in 0..32 {
            self.shfl_pred_pack.bit[j].next = false;
        }
        for l in self._lanes..self._lanes_end {
            for g in 0..self._beats {
                if self.g_step.q.val() == self.group_id[g].val() {
                    for i in 0..self._lanes {
                        self.shfl_pred_pack.bit[l * g + i].next = self.g_pval[i].q.val();
                    }
                }
            }
        }
        self.all_row_q.d.next = self.match_rows[0].row.val();
        self.all_eq_q.d.next = self.all_row_q.q.val() == self.w_part.q.val();
        self.g_row.d.next = self.match_rows[0].row.val();
        if (self.state.q.val() == self.k_st_emit.val()) && self.emit_prep.q.val() {
            // EMIT's first cycle for a row keyed by `key_q`: the key is read, nothing emitted
            // (match.all: and a second, in which row 0 compares into `all_row_q`, and a third,
            // in which that row's compare with the member lanes goes into `all_eq_q`).
            self.emit_prep.d.next = self.emit_prep2.q.val();
            self.emit_prep2.d.next = self.emit_prep3.q.val();
            self.emit_prep3.d.next = false;
        }
        // Two cycles after the last emit: its answers are written (`em_*`); the answer leaves
        // next.
        if (self.state.q.val() == self.k_st_emit.val()) && self.emit_drain.q.val() {
            self.emit_drain.d.next = false;
            self.emit_drain2.d.next = true;
        }
        if (self.state.q.val() == self.k_st_emit.val()) && self.emit_drain2.q.val() {
            self.emit_drain2.d.next = false;
            self.state.d.next = self.k_st_idle.val();
            self.out_valid.d.next = true;
        }
        // An emit cycle: the group `step` (or the iterative lane) into the `g_*` registers.
        if (self.state.q.val() == self.k_st_emit.val())
            && !self.emit_prep.q.val()
            && !self.emit_drain.q.val()
            && !self.emit_drain2.q.val()
        {
            self.g_valid.d.next = true;
            self.step.d.next = self.step.q.val() + self.k_one5.val();
            if (self.iter_match.val() && (self.step.q.val() == self.k_last_lane.val()))
                || (!self.iter_match.val() && self.last_group.val())
            {
                self.emit_drain.d.next = true;
            }
        }
        if self.g_valid.q.val() && self.iter_match.val() {
            // iterative match.any: lane `g_step`'s row, one per cycle, into its bank
            for i in 0..self._lanes {
                if (self.g_step.q.val() & self.k_lane_mask.val()) == self.lane_id[i].val() {
                    self.em_write[i].d.next = true;
                    self.em_word[i].d.next = self.g_step.q.val() >> self.k_log_lanes.val();
                    if self.w_part.q.val().get_bit(self.g_step.q.val().index()) {
                        self.em_data[i].d.next = self.g_row.q.val();
                    }
                }
            }
        }
        if self.g_valid.q.val() && !self.iter_match.val() {
            // group `g_step`'s L lanes: one row of the store
            for i in 0..self._lanes {
                self.em_write[i].d.next = true;
                self.em_word[i].d.next = self.g_step.q.val();
                self.em_data[i].d.next = self.slot_value[i].val();
            }
            if self.w_op.q.val() == self.k_op_shfl.val() {
                self.out_preds.d.next =
                    self.out_preds.q.val() | (self.shfl_pred_pack.word.val() & self.w_arrived.q.val());
            }
            if (self.w_op.q.val() == self.k_op_match_all.val()) && self.all_eq_q.q.val() {
                self.out_preds.d.next = self.w_arrived.q.val();
            }
        }

        if self.reset.val() {
            self.read_once.d.next = false;
            self.matched.d.next = false;
            self.looked.d.next = false;
            self.landing.d.next = false;
            self.bq_take.d.next = false;
            self.emit_prep.d.next = false;
            self.emit_prep2.d.next = false;
            self.emit_prep3.d.next = false;
            self.emit_drain.d.next = false;
            self.emit_drain2.d.next = false;
            self.g_valid.d.next = false;
            self.reduce_issued.d.next = false;
            for k in 0..self.redux_p_valid.len() {
                self.redux_p_valid[k].d.next = false;
            }
            self.w_internal.d.next = false;
            self.state.d.next = self.k_st_idle.val();
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
        self.resp_again.next = self.w_again.q.val();
        self.results.row.next = self.resp_row.val();
        self.row_hdr_lanes.next =
            self.out_hdr_lanes.q.val() >> (bit_cast::<32, 5>(self.resp_row.val()) << self.k_log_lanes.val());
        for i in 0..self._lanes {
            self.resp_row_values[i].next = self.results.row_values[i].val();
            if (self.row_hdr_lanes.val() & self.one_hot[i].val()) != self.k_zero32.val() {
                self.resp_row_values[i].next = self.results.row_values[i].val() | self.out_hdr_value.q.val();
            }
        }
    }
}
