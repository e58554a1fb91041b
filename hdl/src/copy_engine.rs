//! Async copy engine (PTX ISA §9.7.9.25): cp.async with per-thread groups, cp.async.mbarrier.arrive,
//! cp.async.bulk in its three directions (multicast, `.cp_mask`), the bulk groups and
//! cp.async.bulk.tensor in tile mode (1d-5d, load with out-of-bounds fill and multicast, store
//! clipped to the tensor), cp.reduce.async.bulk (to global with bulk groups, to shared::cluster
//! with complete_tx) and the tensor reduce (`imm2` = AtomOp + 1). Behaviour and error codes follow
//! the golden unit `smsync_sim::units::copy_engine`; numbers come from `smsync_sim::encoding`, and the
//! reduce op x type tables are built from the golden `bulk_reduce_legal` / `tensor_reduce_legal`.
//!
//! # Structure
//!
//! ```text
//!  req_* (one lane op per cycle, ready/valid)
//!    -> request queue (copy_queue_depth entries, BlockFifo)        -- req_ready = 0 when full
//!    -> controller FSM: IDLE -> FETCH (thread-table RAM read, 2 cycles: the record registered) -> DECIDE
//!         commit / wait / checks / responses (resp_*), mbarrier +1 events (mb_*)
//!         starts one "move" at a time in the mover
//!       tensor ops continue: 3 MAP (128-byte map read through gm_*, beats land in map_buf,
//!         decoded) -> 4 MUL (10 cycles in [`TensorOrigin`]: the box's first row address and its
//!         element count from registered 16x16 products) -> 5 CHECK (golden order) -> 6 ROWS (one move
//!         per box row; the row walk is [`TensorRows`], `copy_engine/tensor_rows.rs`)
//!    -> mover ([`Mover`], its own block in `copy_engine/mover.rs`): takes a started move into
//!         its staging register, splits it into port beats (<= copy_port_bytes, never crossing a
//!         port-aligned boundary of source or destination), reads them from global memory (gm_*,
//!         up to PEND_DEPTH reads outstanding) or shared memory (sm_r*, 1-cycle read), rotates the
//!         bytes into destination position, writes shared memory (sm_w*) or, through a 4-beat
//!         write queue, global memory (gm_* with gm_we); it also reads the tensor map's beats for
//!         state MAP through its read queue
//!    -> completion (the move's last beat written, reported by the mover): completed_seq
//!         advances; a move with an mbarrier queues complete_tx(len) for the mb_* port
//!  reductions: controller state 7, the reducer ([`Reducer`], its own block), on a drained mover
//!    (below)
//! ```
//!
//! The controller decides which move starts and when (`start` and the move's fields, the
//! staging register's `nx_*` being the boundary register that was there before the split, so
//! no cycle is added); the mover reports what the decision needs (a move staged, a move being
//! issued, moves in flight, the kind of the last move) and each completion. The engine keeps
//! the sequence numbers, the op identity of each move in flight (`move_ident`) and the
//! complete_tx queue (the reducer's complete_tx shares it), and puts the reducer's requests on
//! the memory ports instead of the mover's in state 7. The mover's port contract is at the top
//! of `copy_engine/mover.rs`.
//!
//! # Reductions (state 7)
//!
//! cp.reduce.async.bulk and each in-bounds row of a tensor reduce go through the reducer
//! ([`Reducer`] in `copy_engine/reducer.rs`; the controller enters state 7 and hands it the
//! operands), one element per step: read the source element from shared memory (one port word,
//! or two when the element straddles a port boundary), read the destination element (global or shared), combine
//! them in the atomic ALU's lead element, borrowed through the `elem_*` ports (the golden
//! `element()`, f32 adds flushing subnormals as the golden bulk reduce does; lent while the ALU is
//! idle, so a reduction waits while the ALU runs a request), write the element back with byte
//! enables.
//! It starts only when every earlier move has been written (so it owns both memory ports and sees
//! their data), and the request is answered when it is done: the reduction is complete before
//! its bulk group can be committed, and the shared::cluster form queues its complete_tx(len)
//! then. About 6 cycles per element plus the element's latency (3 with `atomic_element_stages`
//! 3) and the global read latency: correct first, not fast (a
//! wide reducer is future work). A reduction is atomic per element only with respect to this
//! engine: an atom from another unit to the same bytes in the same cycles is not ordered with it.
//!
//! # Tensor tile mode
//!
//! A box row (dimension 0) is one or two moves. Load: a row outside the tensor in a higher
//! dimension is one move without source bytes (every byte is fill); otherwise an optional fill
//! prefix (elements before coordinate 0) and then a move whose source bytes are the in-bounds run
//! and whose tail is fill. Fill bytes are never read from global memory; they are zero or, with
//! the map's oob_fill = 1, all-ones (descriptor bit 189). The last move of the box carries the
//! complete_tx of the full box bytes; a multicast load repeats the rows for every CTA of the mask
//! (each with its own complete_tx, in rank order). Store: one shared -> global move per row with
//! an in-bounds run (rows without one are skipped), the bulk group ending at the last move.
//! The row walk is [`tensor_rows::TensorRows`]: row bases are kept per dimension (add the stride when the index advances), so
//! the only multiplications are the start address and the box size (state MUL).
//! The map is read into `map_buf` as port beats through the descriptor FIFO (bit 190 marks a
//! map beat), so it follows the reads of earlier moves in order; reads of the map wait while the
//! mover issues a move. Moves of the same kind (global source after global source, shared ->
//! global after shared -> global) follow each other without draining, and a move may start on
//! the cycle of the previous move's last beat: rows stream at port width.
//!
//! Ports: unchanged by the tensor mode (no port added).
//!
//! # Ordering and groups
//!
//! Every move gets a sequence number at issue (`issued_seq`) and moves complete in issue order
//! (`completed_seq`). A move is complete iff its number is not in the window
//! `(completed_seq, issued_seq]`. The thread table (a RAM indexed by CTA slot, warp and lane)
//! keeps per thread and per group kind (cp.async / bulk) the number of the thread's newest move
//! and the end numbers of its `GROUP_RING` newest committed groups (newest first). Commit shifts
//! the newest move number in (an empty group gets the number of the thread's last move, so it is
//! pending exactly while an older group is, as in the golden model). `wait_group N` is satisfied
//! when at most N ring entries are incomplete. A commit that would push out an incomplete group
//! waits until it completes (documented limit: `GROUP_RING` groups in flight per thread).
//!
//! cp.async.mbarrier.arrive: the +1 (or the liveness check of `.noinc`) goes to the mbarrier unit
//! at issue as `MbCpAsyncArrive`, and the lane is answered with the unit's answer to it; if that
//! is no error, an arrive-on entry carrying the current `issued_seq` is queued
//! and sent (as `MbArrive`, a = 1) once every move issued before it has completed - all earlier
//! moves, not only the thread's (a later but legal trigger that keeps the queue in order).
//!
//! # Ports
//!
//! `mb_*`: one event per cycle towards the mbarrier unit's request port (`mb_op` is
//! `MbCompleteTx` with `mb_a` = bytes, `MbArrive` with `mb_a` = 1 or `MbCpAsyncArrive` with
//! `mb_flags`); priority complete_tx > arrive-on > issue +1. The mbarrier unit answers each
//! event in order on `mb_resp_*` ([`MbAnswers`]): the issue +1's answer is the
//! cp.async.mbarrier.arrive lane's (the controller waits for it; a refused +1 queues no
//! arrive-on), and an error of a complete_tx or arrive-on (a dead mbarrier, a tx-count or pending
//! count out of range) leaves on `late_*` as a late error of the op that made it: its tag, CTA,
//! warp and lane, as the golden unit's `late_error`. `req_tag` carries the tag with the op.
//! `gm_*`: one request per cycle (`gm_req`, accepted when `gm_grant`), reads answered in order
//! with `gm_rvalid`/`gm_rdata` after any latency >= 1 cycle; `gm_addr` is port-aligned, writes
//! carry `gm_be`. `sm_*`: a 1R1W port into the CTA slots' shared memory, read data the cycle
//! after `sm_re`, writes always accepted.

pub mod fifo;
pub mod formal;
pub mod issue_checks;
pub mod live_probe;
pub mod mb_answers;
pub mod mover;
pub mod reducer;
pub mod tensor_origin;
pub mod tensor_rows;

use fifo::{BlockFifo, RamFifo};
use issue_checks::IssueChecks;
use live_probe::LiveProbe;
use mb_answers::{MbAnswers, IDENT_BITS};
use mover::Mover;
use reducer::Reducer;
use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, AtomOp, BulkDir, DataType, ErrorCode, Op, Space};
use smsync_contract::legality::{bulk_reduce_legal, tensor_reduce_legal};
use smsync_contract::memory_map::{CLUSTER_BASE, GLOBAL_BASE};
use tensor_origin::TensorOrigin;
use tensor_rows::TensorRows;

use crate::atomic_alu::element::{ATOM_OP_BITS, DTYPE_BITS, ELEM_BITS};
use crate::atomic_alu::element_latency;
use crate::common::{error_code, op_code, ERROR_BITS, FLAG_BITS, OP_BITS};
use crate::depth_ram::DepthRam;
use crate::sync_unit::live_map::WORD_BITS;

/// CTA slot index bits (cta_slots <= 32).
pub const SLOT_BITS: usize = 5;
pub const WARP_BITS: usize = 5;
pub const LANE_BITS: usize = 5;
/// Shared-memory byte offset bits (one 16 MiB cluster window; shared_bytes <= 232448).
pub const SADDR_BITS: usize = 24;
/// Width of the shared-memory range checks' sums: a shared offset or length below 2^18
/// (shared_bytes <= 232448 < 2^18, checked by the config) plus one carry bit.
const SH_SUM_BITS: usize = 19;
/// Move sequence numbers.
pub const SEQ_BITS: usize = 32;
/// Bytes of one beat or one of its limits: at most `copy_port_bytes` (<= 128), so 8 bits.
const BEAT_BITS: usize = 8;
/// Committed groups tracked per thread and group kind.
pub const GROUP_RING: usize = 4;
/// Thread-table word: [async last | async ring (4) | bulk last | bulk ring (4)], 32 bits each.
pub const REC_BITS: usize = 2 * (1 + GROUP_RING) * SEQ_BITS;
/// The tensor map's 128 bytes, as `map_buf` holds them.
const MAP_BITS: usize = 1024;
/// Address width of the thread-table RAM (one more than the largest `T`, as `DepthRam` wants).
const TREC_ADDR_BITS: usize = 16;
/// Global reads in flight (descriptors waiting for their data).
pub const PEND_DEPTH: usize = 32;
/// Moves started and not yet completed (bounded by the complete_tx queue).
pub const COMP_DEPTH: usize = 16;
// `move_ident` has COMP_DEPTH words (4 address bits).
const _: () = assert!(COMP_DEPTH == 16);
/// Beats waiting for the global-memory write port (8: room for the two shared-source beats in
/// flight in the mover besides the queue's own; a 16x4 distributed-RAM cell holds 16 anyway).
pub const WQ_DEPTH: usize = 8;

// Controller states (literals in the logic): 0 IDLE, 1 FETCH (two cycles), 2 DECIDE.

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

/// The copy engine with a `D`-bit global/shared data port of `B` bytes (`D = 8 * B`, `B` =
/// `config.copy_port_bytes`) and a thread table of `2^T` entries (`T` >= slot, warp and lane bits
/// of the config). Use [`copy_engine_verilog`] to pick the instance that fits a config.
#[derive(LogicBlock)]
pub struct CopyEngine<const D: usize, const B: usize, const T: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // ---- request port: one lane op ----
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<OP_BITS>>,
    pub req_sub: Signal<In, Bits<4>>,
    pub req_dtype: Signal<In, Bits<4>>,
    pub req_flags: Signal<In, Bits<FLAG_BITS>>,
    pub req_space: Signal<In, Bits<2>>,
    pub req_imm: Signal<In, Bits<16>>,
    pub req_imm2: Signal<In, Bits<8>>,
    pub req_cta: Signal<In, Bits<SLOT_BITS>>,
    pub req_warp: Signal<In, Bits<WARP_BITS>>,
    pub req_lane: Signal<In, Bits<LANE_BITS>>,
    pub req_addr: Signal<In, Bits<64>>,
    pub req_src: Signal<In, Bits<64>>,
    pub req_mbar: Signal<In, Bits<64>>,
    pub req_a: Signal<In, Bits<128>>,
    pub req_b: Signal<In, Bits<64>>,
    pub req_c: Signal<In, Bits<32>>,
    /// The request's tag: a late error of the op's mbarrier events answers with it.
    pub req_tag: Signal<In, Bits<64>>,
    // ---- response port: one answer per lane op ----
    pub resp_valid: Signal<Out, Bit>,
    pub resp_cta: Signal<Out, Bits<SLOT_BITS>>,
    pub resp_warp: Signal<Out, Bits<WARP_BITS>>,
    pub resp_lane: Signal<Out, Bits<LANE_BITS>>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,
    // ---- events towards the mbarrier unit ----
    pub mb_valid: Signal<Out, Bit>,
    pub mb_ready: Signal<In, Bit>,
    pub mb_op: Signal<Out, Bits<OP_BITS>>,
    pub mb_flags: Signal<Out, Bits<FLAG_BITS>>,
    pub mb_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub mb_addr: Signal<Out, Bits<64>>,
    pub mb_a: Signal<Out, Bits<64>>,
    /// The mbarrier unit's answer to each event taken, in the order taken (see [`MbAnswers`]).
    pub mb_resp_valid: Signal<In, Bit>,
    pub mb_resp_error: Signal<In, Bits<ERROR_BITS>>,
    // ---- late errors: a complete_tx / arrive-on of an op refused by the mbarrier unit ----
    /// Held until taken (`late_valid & late_ready`): answer tag `late_tag` for CTA slot
    /// `late_cta`, warp `late_warp`, no lanes, error `late_error` at lane `late_lane`.
    pub late_valid: Signal<Out, Bit>,
    pub late_ready: Signal<In, Bit>,
    pub late_tag: Signal<Out, Bits<64>>,
    pub late_cta: Signal<Out, Bits<SLOT_BITS>>,
    pub late_warp: Signal<Out, Bits<WARP_BITS>>,
    pub late_lane: Signal<Out, Bits<LANE_BITS>>,
    pub late_error: Signal<Out, Bits<ERROR_BITS>>,
    // ---- global-memory port ----
    pub gm_req: Signal<Out, Bit>,
    pub gm_grant: Signal<In, Bit>,
    pub gm_we: Signal<Out, Bit>,
    pub gm_addr: Signal<Out, Bits<64>>,
    pub gm_wdata: Signal<Out, Bits<D>>,
    pub gm_be: Signal<Out, Bits<B>>,
    pub gm_rvalid: Signal<In, Bit>,
    /// Read data would be taken this cycle (the descriptor at the head of the read queue waits
    /// for data and no shared-source beat lands): a memory that sees `gm_rvalid` without
    /// `gm_rready` holds the data (the top also holds it off while its mbarrier ALU writes).
    pub gm_rready: Signal<Out, Bit>,
    pub gm_rdata: Signal<In, Bits<D>>,
    // ---- shared-memory port (1R1W) ----
    pub sm_re: Signal<Out, Bit>,
    /// The shared read the engine makes this cycle if `sm_rgrant` is high (a superset of
    /// `sm_re`): a flip-flop (`rwant_q`, loaded with the mover's and the reducer's want of the
    /// next cycle), so the top's LSU / atomic read grant starts at a register beside the top,
    /// not at the engine's state (the routed board top's limit at b99b9f8 ran from the
    /// reducer's `rem` through this want into the operand store's read address).
    pub sm_rwant: Signal<Out, Bit>,
    /// The shared read port is free this cycle (the top's mbarrier ALU has priority); a
    /// shared-source beat is issued only when granted.
    pub sm_rgrant: Signal<In, Bit>,
    /// The reducer, and the mover's fill-only beats, may write shared memory now (the top's
    /// mbarrier ALU will not write next cycle, when this write reaches the RAM); a global-source
    /// beat needs no grant (the top holds `gm_rvalid` back instead), nor a shared-source one (its
    /// read was granted only when the mbarrier ALU did not read).
    pub sm_wgrant: Signal<In, Bit>,
    /// First address after global memory (set per launch): a global operand outside
    /// [GLOBAL_BASE, global_end) is answered `GlobalOutOfRange`, as the golden unit does.
    pub global_end: Signal<In, Bits<64>>,
    pub sm_rslot: Signal<Out, Bits<SLOT_BITS>>,
    pub sm_raddr: Signal<Out, Bits<SADDR_BITS>>,
    pub sm_rdata: Signal<In, Bits<D>>,
    pub sm_we: Signal<Out, Bit>,
    pub sm_wslot: Signal<Out, Bits<SLOT_BITS>>,
    pub sm_waddr: Signal<Out, Bits<SADDR_BITS>>,
    pub sm_wdata: Signal<Out, Bits<D>>,
    pub sm_be: Signal<Out, Bits<B>>,
    /// Something is queued, moving or waiting (for testbenches and the top's idle detection).
    pub busy: Signal<Out, Bit>,
    // ---- the element datapath, borrowed from the atomic ALU (its `AtomicElement`) ----
    /// COMBINE wants the element; `elem_op` .. `elem_s` hold still while it does.
    pub elem_req: Signal<Out, Bit>,
    pub elem_op: Signal<Out, Bits<ATOM_OP_BITS>>,
    pub elem_dtype: Signal<Out, Bits<DTYPE_BITS>>,
    pub elem_r: Signal<Out, Bits<ELEM_BITS>>,
    pub elem_s: Signal<Out, Bits<ELEM_BITS>>,
    /// The element takes this cycle's operands (it is lent for as long as `elem_req` stays
    /// high); `elem_value` is their new element `element_latency` granted cycles later.
    pub elem_grant: Signal<In, Bit>,
    pub elem_value: Signal<In, Bits<ELEM_BITS>>,
    // ---- the live map's probe: the plain-access check of a copy's destination ----
    /// The destination words of the op being checked (registered; `sync_unit/live_map.rs`'s
    /// probe ports, `live_probe.rs` computes them).
    pub live_lo: Signal<Out, Bits<WORD_BITS>>,
    pub live_hi: Signal<Out, Bits<WORD_BITS>>,
    pub live_xh: Signal<Out, Bits<16>>,
    pub live_xt: Signal<Out, Bits<16>>,
    pub live_empty: Signal<Out, Bit>,
    /// Bit s: CTA slot s has a live mbarrier word in the probe presented two cycles before.
    pub live_hits: Signal<In, Bits<32>>,
    /// The op's mbarrier operand's word (registered with `live_lo`), and per slot whether that
    /// word is a live mbarrier (the golden unit checks a copy's mbarrier at issue).
    pub live_mb: Signal<Out, Bits<WORD_BITS>>,
    pub live_mb_hits: Signal<In, Bits<32>>,

    // ---- request queue: [ctl 64 | addr 64 | src 64 | mbar 64 | a 128 | b 64 | c 32] ----
    q: BlockFifo<544>,
    ctl_in: Signal<Local, Bits<64>>,
    q_full: Signal<Local, Bit>,
    k_qdepth: Constant<Bits<9>>,
    // ---- controller ----
    state: DFF<Bits<4>>,
    cur_ctl: DFF<Bits<64>>,
    cur_addr: DFF<Bits<64>>,
    cur_src: DFF<Bits<64>>,
    cur_mbar: DFF<Bits<64>>,
    cur_a: DFF<Bits<128>>,
    cur_b: DFF<Bits<64>>,
    cur_c: DFF<Bits<32>>,
    cur_tag: DFF<Bits<64>>,
    /// Remaining multicast destinations (bit r = cluster rank r) of the current bulk load.
    mc_left: DFF<Bits<16>>,
    mc_started: DFF<Bit>,
    issued_seq: DFF<Bits<SEQ_BITS>>,
    completed_seq: DFF<Bits<SEQ_BITS>>,
    r_valid: DFF<Bit>,
    r_cta: DFF<Bits<SLOT_BITS>>,
    r_warp: DFF<Bits<WARP_BITS>>,
    r_lane: DFF<Bits<LANE_BITS>>,
    r_error: DFF<Bits<ERROR_BITS>>,
    /// The issue-time mbarrier event of the current cp.async.mbarrier.arrive has been sent.
    ctl_mb_sent: DFF<Bit>,
    /// The thread table: one record per thread of the config (block RAM, one read and one write
    /// port); addressed by [`thread_bits`] bits of `thread_index`.
    trec: DepthRam<Bits<REC_BITS>, TREC_ADDR_BITS>,
    /// The record read, registered: the controller decides from a register, not from the
    /// block RAM's read port (5.6 ns clock-to-out on the ECP5, the start of the copy engine's
    /// longest path before). FETCH (state 1) therefore lasts two cycles (`fetch_wait`).
    rec_q: DFF<Bits<REC_BITS>>,
    fetch_wait: DFF<Bit>,
    /// `sm_rwant` (see the port).
    rwant_q: DFF<Bit>,
    /// The request taken into `cur_*` this cycle leaves the queue the next (Fmax: the queue's
    /// occupancy counter then starts at registers; IDLE comes back no sooner than 3 cycles later).
    q_taken: DFF<Bit>,
    /// Room for one more move in flight, registered (Fmax): `moves` + the complete_tx queue's
    /// count + 1 < COMP_DEPTH a cycle ago. That sum grows by at most one a cycle (a start), so
    /// the room it shows is still there; it is one entry short of exact, of sixteen.
    room_q: DFF<Bit>,
    /// [slot 5 | offset 24 | seq 32 | identity 79] per deferred arrive-on. Distributed RAM: in
    /// block RAM (commit 2e79f33) its clock-to-out headed the sequence compare `arr_ready` (49.7
    /// MHz placed alone).
    arrive_q: RamFifo<140>,
    // decoded fields of cur_*
    c_op: Signal<Local, Bits<OP_BITS>>,
    c_sub: Signal<Local, Bits<4>>,
    c_flags: Signal<Local, Bits<FLAG_BITS>>,
    c_space: Signal<Local, Bits<2>>,
    c_imm: Signal<Local, Bits<16>>,
    c_imm2: Signal<Local, Bits<8>>,
    c_cta: Signal<Local, Bits<SLOT_BITS>>,
    c_warp: Signal<Local, Bits<WARP_BITS>>,
    c_lane: Signal<Local, Bits<LANE_BITS>>,
    /// The current op's identity for late errors ([`mb_answers::IDENT_BITS`] layout).
    ident: Signal<Local, Bits<IDENT_BITS>>,
    /// The mbarrier's CTA slot of the current cp.async.mbarrier.arrive.
    cpa_slot: Signal<Local, Bits<SLOT_BITS>>,
    thread_index: Signal<Local, Bits<T>>,
    // thread record fields
    rec: Signal<Local, Bits<REC_BITS>>,
    a_last: Signal<Local, Bits<SEQ_BITS>>,
    a_ring: Signal<Local, Bits<128>>,
    b_last: Signal<Local, Bits<SEQ_BITS>>,
    b_ring: Signal<Local, Bits<128>>,
    new_a_last: Signal<Local, Bits<SEQ_BITS>>,
    new_a_ring: Signal<Local, Bits<128>>,
    new_b_last: Signal<Local, Bits<SEQ_BITS>>,
    new_b_ring: Signal<Local, Bits<128>>,
    rec_write: Signal<Local, Bit>,
    // group arithmetic
    in_flight: Signal<Local, Bits<SEQ_BITS>>,
    ring_sel: Signal<Local, Bits<128>>,
    inc0: Signal<Local, Bit>,
    inc1: Signal<Local, Bit>,
    inc2: Signal<Local, Bit>,
    inc3: Signal<Local, Bit>,
    /// The ring's incomplete flags, registered: DECIDE's group decisions start at a register.
    inc0_q: DFF<Bit>,
    inc1_q: DFF<Bit>,
    inc2_q: DFF<Bit>,
    inc3_q: DFF<Bit>,
    /// A cycle in DECIDE has passed, so `inc0_q..inc3_q` are of this record.
    ring_ok: DFF<Bit>,
    pending: Signal<Local, Bits<16>>,
    p0: Signal<Local, Bits<16>>,
    p1: Signal<Local, Bits<16>>,
    p2: Signal<Local, Bits<16>>,
    p3: Signal<Local, Bits<16>>,
    mb_raw: Signal<Local, Bits<64>>,
    k_comp_depth: Constant<Bits<9>>,
    k_u32_mask: Constant<Bits<64>>,
    /// Clears imm and imm2 of a queued op word (wait_all -> wait_group 0).
    k_ctl_no_imm: Constant<Bits<64>>,
    k_rank_limit: Constant<Bits<64>>,
    oldest_incomplete: Signal<Local, Bit>,
    // op decode
    is_cp: Signal<Local, Bit>,
    is_commit: Signal<Local, Bit>,
    is_bcommit: Signal<Local, Bit>,
    is_wait: Signal<Local, Bit>,
    is_bwait: Signal<Local, Bit>,
    is_bulk: Signal<Local, Bit>,
    is_cparrive: Signal<Local, Bit>,
    err: Signal<Local, Bits<ERROR_BITS>>,
    done: Signal<Local, Bit>,
    // address resolution
    first_slot: Signal<Local, Bits<SLOT_BITS>>,
    dst_off: Signal<Local, Bits<64>>,
    dst_rank: Signal<Local, Bits<64>>,
    dst_bad: Signal<Local, Bit>,
    mb_off_r: Signal<Local, Bits<64>>,
    mb_rank: Signal<Local, Bits<64>>,
    mb_bad: Signal<Local, Bit>,
    dst_cluster: Signal<Local, Bit>,
    mb_cluster: Signal<Local, Bit>,
    cp_size: Signal<Local, Bits<64>>,
    blen: Signal<Local, Bits<64>>,
    dir: Signal<Local, Bits<4>>,
    mc_rank: Signal<Local, Bits<5>>,
    mc_bit: Signal<Local, Bits<16>>,
    // move start (controller -> mover)
    start: Signal<Local, Bit>,
    can_start: Signal<Local, Bit>,
    st_src_gm: Signal<Local, Bit>,
    st_dst_gm: Signal<Local, Bit>,
    st_src_slot: Signal<Local, Bits<SLOT_BITS>>,
    st_dst_slot: Signal<Local, Bits<SLOT_BITS>>,
    st_src: Signal<Local, Bits<64>>,
    st_dst: Signal<Local, Bits<64>>,
    st_len: Signal<Local, Bits<32>>,
    st_srem: Signal<Local, Bits<32>>,
    st_mask_en: Signal<Local, Bit>,
    st_has_mb: Signal<Local, Bit>,
    st_mb_slot: Signal<Local, Bits<SLOT_BITS>>,
    st_mb_off: Signal<Local, Bits<SADDR_BITS>>,
    // controller's mbarrier event
    ctl_mb_want: Signal<Local, Bit>,
    /// The request's issue checks (`issue_checks.rs`): its error code in the golden order,
    /// registered in two stages, both done when DECIDE first reads it; `live`: the checks
    /// before the destination's live check passed (the live map's answer decides, and beats
    /// the errors the golden unit checks after it); `mbl`: a shared::cluster copy's checks up
    /// to its mbarrier's liveness passed (golden order: the mbarrier before the destination).
    checks: IssueChecks,
    chk_failed: Signal<Local, Bit>,
    /// The destination probes: of the request leaving the queue (linear, swizzle tied off, so
    /// the queue's block-RAM output meets only the end-word adder) and of the tensor box in
    /// CHECK (with the swizzled lines' chunks),
    /// registered, and the cycles since it was loaded (the live map answers at 2).
    probe: LiveProbe,
    box_probe: LiveProbe,
    lp_load: Signal<Local, Bit>,
    lp_lo: DFF<Bits<WORD_BITS>>,
    lp_hi: DFF<Bits<WORD_BITS>>,
    lp_xh: DFF<Bits<16>>,
    lp_xt: DFF<Bits<16>>,
    lp_empty: DFF<Bit>,
    lp_mb: DFF<Bits<WORD_BITS>>,
    lp_age: DFF<Bits<2>>,
    /// The CTA slots the op writes (its destination's, or a multicast's).
    lv_tslot: Signal<Local, Bits<SLOT_BITS>>,
    lv_mc: Signal<Local, Bits<64>>,
    lv_targets: Signal<Local, Bits<32>>,
    /// The slots of the op's mbarriers (its operand's, or a multicast's), the targets whose
    /// destination has a live word or whose mbarrier is dead, the lowest of them, and the
    /// verdict in the golden order (per target: destination, then mbarrier).
    lv_mslot: Signal<Local, Bits<SLOT_BITS>>,
    lv_mtargets: Signal<Local, Bits<32>>,
    lv_multi: Signal<Local, Bit>,
    /// The slot masks registered (from the op's registers, which are loaded as FETCH starts:
    /// valid from FETCH's second cycle, so DECIDE and CHECK meet only the map's answer and
    /// the masks), and whether the op is a load (bulk or tensor into shared memory) and a
    /// multicast one.
    lv_targets_q: DFF<Bits<32>>,
    lv_mtargets_q: DFF<Bits<32>>,
    lv_load_q: DFF<Bit>,
    lv_mcast_q: DFF<Bit>,
    lv_bad_dst: Signal<Local, Bits<32>>,
    lv_bad_mb: Signal<Local, Bits<32>>,
    lv_bad_any: Signal<Local, Bits<32>>,
    lv_first: Signal<Local, Bits<32>>,
    lv_bad: Signal<Local, Bit>,
    lv_err: Signal<Local, Bits<ERROR_BITS>>,
    /// A shared::cluster copy's mbarrier is dead.
    lv_mb_dead: Signal<Local, Bit>,
    /// DECIDE's error and failure: the checks', or `MbarrierPlainAccess` where the golden
    /// order puts it.
    d_err: Signal<Local, Bits<ERROR_BITS>>,
    d_failed: Signal<Local, Bit>,
    /// Tensor CHECK: the box's probe is loaded (its first cycle loads it); CHECK waits for the
    /// answer when the live check is next in the golden order.
    t_probe: DFF<Bit>,
    t_wait: Signal<Local, Bit>,
    ctl_mb_go: Signal<Local, Bit>,
    arr_go: Signal<Local, Bit>,
    comp_go: Signal<Local, Bit>,
    arr_seq: Signal<Local, Bits<SEQ_BITS>>,
    arr_ready: Signal<Local, Bit>,
    // ---- mover: the move being split into beats ----
    st_swz: Signal<Local, Bits<3>>,
    /// Swizzled chunks past the end of shared memory (only when `shared_bytes` is not a multiple
    /// of 128): byte m (= lines - 1) holds the chunks j of the last, partial 128-byte line that
    /// are in range unswizzled but land out of range swizzled.
    k_swz_bad: Constant<Bits<64>>,
    /// First address of the last, partial 128-byte line of shared memory.
    k_tail_line: Constant<Bits<64>>,
    sw_a: Signal<Local, Bits<64>>,
    sw_end: Signal<Local, Bits<64>>,
    sw_lo_i: Signal<Local, Bits<4>>,
    sw_hi_i: Signal<Local, Bits<4>>,
    sw_cov: Signal<Local, Bits<9>>,
    sw_badm: Signal<Local, Bits<8>>,
    k_one9: Constant<Bits<9>>,
    k_one32: Constant<Bits<32>>,
    /// `cluster_size` > 1: a multicast may have several targets (else its per-target logic is
    /// constant and synthesis drops it).
    k_mc_built: Constant<Bit>,
    sw_bad: Signal<Local, Bit>,
    // beat arithmetic
    // global reads in flight: descriptor FIFO
    // shared read in flight (1 cycle)
    // beat formation (arrival)
    // global write queue (S -> G)
    // completion
    /// [slot 5 | offset 24 | bytes 32 | identity 79] per complete_tx. In block RAM (16 x 140
    /// bits were 35 distributed-RAM cells): a complete_tx into the empty queue goes a cycle
    /// after its push (`ready`), and nothing else goes on the mbarrier port meanwhile.
    comp_q: BlockFifo<140>,
    /// The op identity of each move in flight, at its sequence number mod COMP_DEPTH: moves
    /// complete in order and fewer than COMP_DEPTH are in flight (`can_start`), so the numbers
    /// in flight are consecutive and their words distinct. Read at completion into `comp_q`.
    move_ident: DepthRam<Bits<IDENT_BITS>, 5>,
    /// The mover (see [`Mover`]): splits each started move into beats, reads and writes them,
    /// and reports each move's completion.
    mover: Mover<D, B>,
    /// The mbarrier unit's answers to the events (see [`MbAnswers`]).
    answers: MbAnswers,
    /// An event is taken this cycle (`mb_ready` and room for its answer).
    mb_take: Signal<Local, Bit>,
    // ---- tensor tile mode (cp.async.bulk.tensor): map fetch, decode, row sequencer ----
    is_tensor: Signal<Local, Bit>,
    /// Tensor-map beats to read, issued, arrived; next aligned map address; the beats (beat i at
    /// bits [i*D, (i+1)*D)).
    tm_beats: DFF<Bits<8>>,
    tm_issued: DFF<Bits<8>>,
    tm_got: DFF<Bits<8>>,
    tm_addr: DFF<Bits<64>>,
    map_buf: DFF<Bits<MAP_BITS>>,
    /// The previous map beat, and whether the next arrival only fills it: a map at port offset
    /// `off` != 0 spans one beat more than 128 / B, and each beat after the first is realigned
    /// with the one before it (bytes off..off+B of the pair) as it arrives, so that `map_buf`
    /// holds the map from bit 0 without a wide shifter.
    tm_carry: DFF<Bits<D>>,
    tm_prime: DFF<Bit>,
    tm_off: Signal<Local, Bits<16>>,
    tm_aligned: Signal<Local, Bits<D>>,
    /// The port is the map's width (B = 128): one realigned beat is the whole map.
    k_map_one_beat: Constant<Bit>,
    /// Where a realigned beat enters `map_buf` (MAP_BITS - D) when B < 128.
    k_map_top: Constant<Bits<16>>,
    /// The map's first 120 bytes (the reserved tail is not read).
    m_raw: Signal<Local, Bits<960>>,
    /// Swizzle code (off 100: 0 none, 1 32B, 2 64B, 3 128B; PTX ISA §5.5.7) and mode (off 104:
    /// 0 tiled, 1 im2col; PTX ISA §5.5.4) words of the map.
    md_swz: Signal<Local, Bits<32>>,
    md_mode: Signal<Local, Bits<32>>,
    /// An im2col map's own fields break the golden `TensorMap::read_im2col` rules.
    md_imbad: Signal<Local, Bit>,
    md_dims: Signal<Local, Bits<32>>,
    md_eb: Signal<Local, Bits<32>>,
    md_type: Signal<Local, Bits<32>>,
    md_lg: Signal<Local, Bits<3>>,
    md_err: Signal<Local, Bit>,
    md_tbytes: Signal<Local, Bits<32>>,
    /// Decoded map (latched when the last beat arrived). Unused dimensions read as coordinate 0,
    /// box 1, size 1, so that the row sequencer needs no dims test.
    m_err: DFF<Bit>,
    /// The map is an im2col map (mode 1): the RTL does not build im2col (answers `NotBuilt`).
    m_im2col: DFF<Bit>,
    /// The im2col fields break the golden `read_im2col` rules (an error if the map is im2col).
    m_imbad: DFF<Bit>,
    /// The map checks that need the decoded element size or swizzle span, made in MUL from the
    /// registered decode (`m_lg`, `m_swz`, `m_box`) and ORed into `m_err` before CHECK reads it.
    m_late_err: Signal<Local, Bit>,
    /// The map's swizzle pattern as (lines per pattern - 1): 0 none, 1 32B, 3 64B, 7 128B.
    m_swz: DFF<Bits<3>>,
    /// The instruction is an im2col load (`imm2` = 1, not a store).
    t_im2col_op: Signal<Local, Bit>,
    /// The first failing check of state 5 (golden order).
    t_err: Signal<Local, Bits<ERROR_BITS>>,
    /// CHECK's operands that do not depend on MUL's results, registered while MUL runs (they
    /// come from `cur_*` and the decoded map, fixed since FETCH and MAP), so that CHECK's chain
    /// starts at registers and not at the request's address decode: the map's direction and mode
    /// checks, the shared address's 16-byte alignment, the destination and mbarrier ranks, the
    /// mbarrier's 8-byte alignment, the multicast mask, the reduce op x type, and the shared
    /// offset (`dst_off` or the store's source) the box-range and swizzle checks add the box to.
    ck_map_bad: DFF<Bit>,
    ck_align: DFF<Bit>,
    ck_rank: DFF<Bit>,
    ck_mb_align: DFF<Bit>,
    ck_mc: DFF<Bit>,
    ck_red: DFF<Bit>,
    ck_dst_hi: DFF<Bit>,
    ck_dst_lo: DFF<Bits<18>>,
    ck_sw_a: DFF<Bits<64>>,
    m_neg: DFF<Bit>,
    m_lg: DFF<Bits<3>>,
    m_fill: DFF<Bit>,
    m_c: DFF<Bits<160>>,
    m_box: DFF<Bits<160>>,
    m_size: DFF<Bits<160>>,
    m_stride: DFF<Bits<256>>,
    /// The box's first row address, its element count check and its bytes (state MUL).
    origin: TensorOrigin,
    t_dir_ok: Signal<Local, Bit>,
    mc_mask: Signal<Local, Bits<64>>,
    /// The row walk (`TensorRows`): the current box row, its base and its dimension-0 run.
    rows: TensorRows,
    /// The current row's shared-memory offset (load destination, store source).
    t_sdst: DFF<Bits<64>>,
    /// The fill prefix of the current row has been started.
    t_part: DFF<Bit>,
    /// The op's decode for the move decisions, registered from `cur_ctl` (Fmax): valid from
    /// FETCH's second cycle, as `cur_ctl` changes only on entering FETCH. `dq_src_gm` /
    /// `dq_dst_gm`: the op's moves read / write global memory; `dq_store`: tensor direction
    /// shared -> global; `dq_red_row`: a tensor reduce (`imm2` != 0).
    dq_src_gm: DFF<Bit>,
    dq_dst_gm: DFF<Bit>,
    dq_store: DFF<Bit>,
    dq_red_row: DFF<Bit>,
    /// A row's moves are all started: the walk goes to the next row at this edge.
    r_adv: Signal<Local, Bit>,
    t_slot: Signal<Local, Bits<SLOT_BITS>>,
    t_mbslot: Signal<Local, Bits<SLOT_BITS>>,
    st_fill: Signal<Local, Bit>,
    st_tx_en: Signal<Local, Bit>,
    st_tx: Signal<Local, Bits<32>>,
    k_tensor_built: Constant<Bit>,
    k_magic: Constant<Bits<32>>,
    k_ones160: Constant<Bits<160>>,
    k_one_pat: Constant<Bits<160>>,
    k_sign_pat: Constant<Bits<160>>,
    k_b64: Constant<Bits<64>>,
    k_log_b: Constant<Bits<8>>,
    op_tensor: Constant<Bits<OP_BITS>>,
    e_tensor_map: Constant<Bits<ERROR_BITS>>,
    e_tensor_neg: Constant<Bits<ERROR_BITS>>,
    // ---- constants ----
    k_bmask: Constant<Bits<64>>,
    k_d16: Constant<Bits<16>>,
    k_shared_end: Constant<Bits<SH_SUM_BITS>>,
    /// Shared-memory range checks `x + n > shared_bytes` at their true width (`sh_sum_*` the
    /// low 18 bits' sum, `sh_over_*` the check): x's or n's bits from 18 up put the end past
    /// shared memory whatever the rest (and cannot wrap round 2^64 as a 64-bit sum would;
    /// the golden `Region::range` adds without wrapping).
    sh_sum_mb: Signal<Local, Bits<SH_SUM_BITS>>,
    sh_over_mb: Signal<Local, Bit>,
    sh_sum_cp: Signal<Local, Bits<SH_SUM_BITS>>,
    sh_over_cp: Signal<Local, Bit>,
    sh_sum_dst: Signal<Local, Bits<SH_SUM_BITS>>,
    sh_over_dst: Signal<Local, Bit>,
    sh_sum_src: Signal<Local, Bits<SH_SUM_BITS>>,
    sh_over_src: Signal<Local, Bit>,
    sh_sum_addr_box: Signal<Local, Bits<SH_SUM_BITS>>,
    sh_over_addr_box: Signal<Local, Bit>,
    sh_sum_dst_box: Signal<Local, Bits<SH_SUM_BITS>>,
    sh_over_dst_box: Signal<Local, Bit>,
    k_cluster_size: Constant<Bits<64>>,
    k_cluster_base: Constant<Bits<64>>,
    k_global_base: Constant<Bits<64>>,
    /// Bytes a cp.async reads from global memory (0 with ignore-src).
    cp_src_bytes: Signal<Local, Bits<64>>,
    k_first_slots: Constant<Bits<160>>,
    k_warp_shift: Constant<Bits<8>>,
    k_slot_shift: Constant<Bits<8>>,
    k_bulk_built: Constant<Bit>,
    op_cp: Constant<Bits<OP_BITS>>,
    op_commit: Constant<Bits<OP_BITS>>,
    op_wait: Constant<Bits<OP_BITS>>,
    op_bulk: Constant<Bits<OP_BITS>>,
    op_bcommit: Constant<Bits<OP_BITS>>,
    op_bwait: Constant<Bits<OP_BITS>>,
    op_cparrive: Constant<Bits<OP_BITS>>,
    op_mb_arrive: Constant<Bits<OP_BITS>>,
    op_mb_complete_tx: Constant<Bits<OP_BITS>>,
    f_multicast: Constant<Bits<FLAG_BITS>>,
    sp_cluster: Constant<Bits<2>>,
    dir_g2s: Constant<Bits<4>>,
    dir_s2g: Constant<Bits<4>>,
    dir_s2c: Constant<Bits<4>>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_bulk_align: Constant<Bits<ERROR_BITS>>,
    e_shared_range: Constant<Bits<ERROR_BITS>>,
    e_mb_align: Constant<Bits<ERROR_BITS>>,
    e_not_built: Constant<Bits<ERROR_BITS>>,
    e_plain: Constant<Bits<ERROR_BITS>>,
    e_mb_dead: Constant<Bits<ERROR_BITS>>,
    // ---- reducer (cp.reduce.async.bulk and the tensor reduce; controller state 7) ----
    c_dtype: Signal<Local, Bits<4>>,
    is_reduce: Signal<Local, Bit>,
    /// The op x type x direction table of cp.reduce.async.bulk, from the golden
    /// `bulk_reduce_legal`: bit `to_global << 9 | noftz << 8 | op << 4 | dtype`.
    k_bulk_red_legal: Constant<Bits<1024>>,
    /// The golden `tensor_reduce_legal`: bit `op << 4 | dtype`.
    k_tensor_red_legal: Constant<Bits<256>>,
    /// log2 of `DataType::bytes()`, 4 bits per type code.
    k_dtype_lg: Constant<Bits<64>>,
    red_idx: Signal<Local, Bits<16>>,
    red_ok: Signal<Local, Bit>,
    red_sh: Signal<Local, Bits<1>>,
    t_red_sh: Signal<Local, Bits<1>>,
    t_bitwise_sh: Signal<Local, Bits<1>>,
    /// Reduction element type of the tensor map (its type, or u32/u64/b32/b64 by size and op).
    m_rtype: DFF<Bits<4>>,
    m_rtype_ok: DFF<Bit>,
    t_red_op: Signal<Local, Bits<8>>,
    t_red_ok: Signal<Local, Bit>,
    k_bitwise_ops: Constant<Bits<16>>,
    dt_u32: Constant<Bits<4>>,
    dt_u64: Constant<Bits<4>>,
    dt_b32: Constant<Bits<4>>,
    dt_b64: Constant<Bits<4>>,
    /// The reducer (state 7), in its own block.
    reducer: Reducer<D, B>,
    rd_drained: Signal<Local, Bit>,
    rd_enter: Signal<Local, Bit>,
    rd_enter_row: Signal<Local, Bit>,
    op_reduce: Constant<Bits<OP_BITS>>,
    e_atom_type: Constant<Bits<ERROR_BITS>>,
    f_noftz: Constant<Bits<FLAG_BITS>>,
    k_dir_bad: Constant<Bits<4>>,
}

/// Why a config cannot be built as a copy engine of the given widths.
pub fn check_widths(config: &Config, d: usize, b: usize, t: usize) -> Result<(), String> {
    if b != config.copy_port_bytes as usize || d != 8 * b {
        return Err(format!(
            "copy_port_bytes = {} needs the CopyEngine<{}, {}, _> instance",
            config.copy_port_bytes,
            8 * config.copy_port_bytes,
            config.copy_port_bytes
        ));
    }
    let need = thread_bits(config);
    if t < need {
        return Err(format!(
            "thread table of 2^{t} entries is too small for {} slots x {} warps x 32 lanes",
            config.cta_slots, config.max_warps_per_cta
        ));
    }
    if config.cta_slots > 32 || config.max_warps_per_cta > 32 || config.shared_bytes as u64 >= 1 << (SH_SUM_BITS - 1) {
        return Err("cta_slots and max_warps_per_cta must be <= 32 and shared_bytes < 256 KiB".into());
    }
    Ok(())
}

/// `word` in each of the five 32-bit lanes of a 160-bit value.
fn pattern160(word: u64) -> Bits<160> {
    let mut b: Bits<160> = Bits::default();
    for d in 0..5 {
        b.set_bits::<32>(32 * d, word.to_bits());
    }
    b
}

fn bits_for(n: u32) -> usize {
    (32 - n.saturating_sub(1).leading_zeros()) as usize
}

/// Thread-table address bits needed by `config`: slot, warp and lane fields.
pub fn thread_bits(config: &Config) -> usize {
    bits_for(config.cta_slots) + bits_for(config.max_warps_per_cta) + LANE_BITS
}

impl<const D: usize, const B: usize, const T: usize> CopyEngine<D, B, T> {
    /// The controller and mover registers, for a testbench's hang report.
    pub fn debug_state(&self) -> String {
        format!(
            "state {} op {:#x} queue {} | issued {} completed {} | {} | comp {} arrive {}",
            self.state.q.val().to_u64(),
            self.cur_ctl.q.val().get_bits::<6>(0).to_u64(),
            self.q.count.val().to_u64(),
            self.issued_seq.q.val().to_u64(),
            self.completed_seq.q.val().to_u64(),
            self.mover.debug_state(),
            self.comp_q.count.val().to_u64(),
            self.arrive_q.count.val().to_u64(),
        )
    }

    pub fn new(config: &Config) -> Self {
        check_widths(config, D, B, T).unwrap_or_else(|e| panic!("{e}"));
        let depth = config.copy_queue_depth as usize;
        let cs = config.cluster_size as u64;
        let mut packed = [0u64; 3];
        for cta in 0..32u64 {
            let first = cta / cs * cs;
            let bit = 5 * cta as usize;
            packed[bit / 64] |= (first & 31) << (bit % 64);
            if bit % 64 > 59 {
                packed[bit / 64 + 1] |= (first & 31) >> (64 - bit % 64);
            }
        }
        let mut fs: Bits<160> = Bits::default();
        fs.set_bits::<64>(0, packed[0].to_bits());
        fs.set_bits::<64>(64, packed[1].to_bits());
        fs.set_bits::<32>(128, packed[2].to_bits());
        let warp_bits = bits_for(config.max_warps_per_cta);
        let op = |o: Op| Constant::new(op_code(o));
        let err = |e: ErrorCode| Constant::new(error_code(e));
        CopyEngine {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_sub: Default::default(),
            req_dtype: Default::default(),
            req_flags: Default::default(),
            req_space: Default::default(),
            req_imm: Default::default(),
            req_imm2: Default::default(),
            req_cta: Default::default(),
            req_warp: Default::default(),
            req_lane: Default::default(),
            req_addr: Default::default(),
            req_src: Default::default(),
            req_mbar: Default::default(),
            req_a: Default::default(),
            req_b: Default::default(),
            req_c: Default::default(),
            req_tag: Default::default(),
            resp_valid: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_lane: Default::default(),
            resp_error: Default::default(),
            mb_valid: Default::default(),
            mb_ready: Default::default(),
            mb_op: Default::default(),
            mb_flags: Default::default(),
            mb_slot: Default::default(),
            mb_addr: Default::default(),
            mb_a: Default::default(),
            mb_resp_valid: Default::default(),
            mb_resp_error: Default::default(),
            late_valid: Default::default(),
            late_ready: Default::default(),
            late_tag: Default::default(),
            late_cta: Default::default(),
            late_warp: Default::default(),
            late_lane: Default::default(),
            late_error: Default::default(),
            gm_req: Default::default(),
            gm_grant: Default::default(),
            gm_we: Default::default(),
            gm_addr: Default::default(),
            gm_wdata: Default::default(),
            gm_be: Default::default(),
            gm_rvalid: Default::default(),
            gm_rdata: Default::default(),
            sm_re: Default::default(),
            sm_rwant: Default::default(),
            sm_rgrant: Default::default(),
            sm_wgrant: Default::default(),
            global_end: Default::default(),
            gm_rready: Default::default(),
            sm_rslot: Default::default(),
            sm_raddr: Default::default(),
            sm_rdata: Default::default(),
            sm_we: Default::default(),
            sm_wslot: Default::default(),
            sm_waddr: Default::default(),
            sm_wdata: Default::default(),
            sm_be: Default::default(),
            busy: Default::default(),
            elem_req: Default::default(),
            elem_op: Default::default(),
            elem_dtype: Default::default(),
            elem_r: Default::default(),
            elem_s: Default::default(),
            elem_grant: Default::default(),
            elem_value: Default::default(),
            live_lo: Default::default(),
            live_hi: Default::default(),
            live_xh: Default::default(),
            live_xt: Default::default(),
            live_empty: Default::default(),
            live_hits: Default::default(),
            live_mb: Default::default(),
            live_mb_hits: Default::default(),
            q: BlockFifo::new(depth),
            ctl_in: Default::default(),
            q_full: Default::default(),
            k_qdepth: k(depth as u64),
            state: Default::default(),
            cur_ctl: Default::default(),
            cur_addr: Default::default(),
            cur_src: Default::default(),
            cur_mbar: Default::default(),
            cur_a: Default::default(),
            cur_b: Default::default(),
            cur_c: Default::default(),
            cur_tag: Default::default(),
            mc_left: Default::default(),
            mc_started: Default::default(),
            issued_seq: Default::default(),
            completed_seq: Default::default(),
            r_valid: Default::default(),
            r_cta: Default::default(),
            r_warp: Default::default(),
            r_lane: Default::default(),
            r_error: Default::default(),
            ctl_mb_sent: Default::default(),
            trec: DepthRam::new(thread_bits(config)),
            rec_q: Default::default(),
            fetch_wait: Default::default(),
            rwant_q: Default::default(),
            q_taken: Default::default(),
            room_q: Default::default(),
            arrive_q: RamFifo::new(depth),
            c_op: Default::default(),
            c_sub: Default::default(),
            c_flags: Default::default(),
            c_space: Default::default(),
            c_imm: Default::default(),
            c_imm2: Default::default(),
            c_cta: Default::default(),
            c_warp: Default::default(),
            c_lane: Default::default(),
            ident: Default::default(),
            cpa_slot: Default::default(),
            thread_index: Default::default(),
            rec: Default::default(),
            a_last: Default::default(),
            a_ring: Default::default(),
            b_last: Default::default(),
            b_ring: Default::default(),
            new_a_last: Default::default(),
            new_a_ring: Default::default(),
            new_b_last: Default::default(),
            new_b_ring: Default::default(),
            rec_write: Default::default(),
            in_flight: Default::default(),
            ring_sel: Default::default(),
            inc0: Default::default(),
            inc1: Default::default(),
            inc2: Default::default(),
            inc3: Default::default(),
            inc0_q: Default::default(),
            inc1_q: Default::default(),
            inc2_q: Default::default(),
            inc3_q: Default::default(),
            ring_ok: Default::default(),
            pending: Default::default(),
            p0: Default::default(),
            p1: Default::default(),
            p2: Default::default(),
            p3: Default::default(),
            mb_raw: Default::default(),
            k_comp_depth: k(COMP_DEPTH as u64),
            k_u32_mask: k(0xFFFF_FFFF),
            k_ctl_no_imm: k(0xFFFF_0000_00FF_FFFF),
            k_rank_limit: k(1u64 << cs.min(16)),
            oldest_incomplete: Default::default(),
            is_cp: Default::default(),
            is_commit: Default::default(),
            is_bcommit: Default::default(),
            is_wait: Default::default(),
            is_bwait: Default::default(),
            is_bulk: Default::default(),
            is_cparrive: Default::default(),
            err: Default::default(),
            done: Default::default(),
            first_slot: Default::default(),
            dst_off: Default::default(),
            dst_rank: Default::default(),
            dst_bad: Default::default(),
            mb_off_r: Default::default(),
            mb_rank: Default::default(),
            mb_bad: Default::default(),
            dst_cluster: Default::default(),
            mb_cluster: Default::default(),
            cp_size: Default::default(),
            blen: Default::default(),
            dir: Default::default(),
            mc_rank: Default::default(),
            mc_bit: Default::default(),
            start: Default::default(),
            can_start: Default::default(),
            st_src_gm: Default::default(),
            st_dst_gm: Default::default(),
            st_src_slot: Default::default(),
            st_dst_slot: Default::default(),
            st_src: Default::default(),
            st_dst: Default::default(),
            st_len: Default::default(),
            st_srem: Default::default(),
            st_mask_en: Default::default(),
            st_has_mb: Default::default(),
            st_mb_slot: Default::default(),
            st_mb_off: Default::default(),
            ctl_mb_want: Default::default(),
            chk_failed: Default::default(),
            probe: Default::default(),
            box_probe: Default::default(),
            lp_load: Default::default(),
            lp_lo: Default::default(),
            lp_hi: Default::default(),
            lp_xh: Default::default(),
            lp_xt: Default::default(),
            lp_empty: Default::default(),
            lp_mb: Default::default(),
            lp_age: Default::default(),
            lv_tslot: Default::default(),
            lv_mc: Default::default(),
            lv_targets: Default::default(),
            lv_mslot: Default::default(),
            lv_mtargets: Default::default(),
            lv_multi: Default::default(),
            lv_targets_q: Default::default(),
            lv_mtargets_q: Default::default(),
            lv_load_q: Default::default(),
            lv_mcast_q: Default::default(),
            lv_bad_dst: Default::default(),
            lv_bad_mb: Default::default(),
            lv_bad_any: Default::default(),
            lv_first: Default::default(),
            lv_bad: Default::default(),
            lv_err: Default::default(),
            lv_mb_dead: Default::default(),
            d_err: Default::default(),
            d_failed: Default::default(),
            t_probe: Default::default(),
            t_wait: Default::default(),
            ctl_mb_go: Default::default(),
            arr_go: Default::default(),
            comp_go: Default::default(),
            arr_seq: Default::default(),
            arr_ready: Default::default(),
            st_swz: Default::default(),
            k_swz_bad: k(swizzle_tail_table(config.shared_bytes as u64)),
            k_tail_line: k(config.shared_bytes as u64 & !127),
            sw_a: Default::default(),
            sw_end: Default::default(),
            sw_lo_i: Default::default(),
            sw_hi_i: Default::default(),
            sw_cov: Default::default(),
            sw_badm: Default::default(),
            sw_bad: Default::default(),
            k_one9: k(1),
            k_one32: k(1),
            k_mc_built: Constant::new(config.cluster_size > 1),
            comp_q: BlockFifo::new(COMP_DEPTH),
            move_ident: DepthRam::asynchronous(4),
            mover: Mover::default(),
            answers: MbAnswers::default(),
            mb_take: Default::default(),
            is_tensor: Default::default(),
            tm_beats: Default::default(),
            tm_issued: Default::default(),
            tm_got: Default::default(),
            tm_addr: Default::default(),
            map_buf: Default::default(),
            tm_carry: Default::default(),
            tm_prime: Default::default(),
            tm_off: Default::default(),
            tm_aligned: Default::default(),
            k_map_one_beat: Constant::new(D == MAP_BITS),
            k_map_top: k((MAP_BITS - D.min(MAP_BITS)) as u64),
            m_raw: Default::default(),
            md_swz: Default::default(),
            md_mode: Default::default(),
            md_imbad: Default::default(),
            md_dims: Default::default(),
            md_eb: Default::default(),
            md_type: Default::default(),
            md_lg: Default::default(),
            md_err: Default::default(),
            md_tbytes: Default::default(),
            m_err: Default::default(),
            m_im2col: Default::default(),
            m_imbad: Default::default(),
            ck_map_bad: Default::default(),
            ck_align: Default::default(),
            ck_rank: Default::default(),
            ck_mb_align: Default::default(),
            ck_mc: Default::default(),
            ck_red: Default::default(),
            ck_dst_hi: Default::default(),
            ck_dst_lo: Default::default(),
            ck_sw_a: Default::default(),
            m_late_err: Default::default(),
            m_swz: Default::default(),
            t_im2col_op: Default::default(),
            t_err: Default::default(),
            m_neg: Default::default(),
            m_lg: Default::default(),
            m_fill: Default::default(),
            m_c: Default::default(),
            m_box: Default::default(),
            m_size: Default::default(),
            m_stride: Default::default(),
            origin: TensorOrigin::default(),
            checks: IssueChecks::default(),
            rows: TensorRows::default(),
            t_dir_ok: Default::default(),
            mc_mask: Default::default(),
            t_sdst: Default::default(),
            t_part: Default::default(),
            dq_src_gm: Default::default(),
            dq_dst_gm: Default::default(),
            dq_store: Default::default(),
            dq_red_row: Default::default(),
            r_adv: Default::default(),
            t_slot: Default::default(),
            t_mbslot: Default::default(),
            st_fill: Default::default(),
            st_tx_en: Default::default(),
            st_tx: Default::default(),
            k_tensor_built: Constant::new(config.features.tensor_copy),
            k_magic: k(smsync_contract::tensor_map_layout::MAGIC as u64),
            k_ones160: Constant::new(Bits::<160>::mask()),
            k_one_pat: Constant::new(pattern160(1)),
            k_sign_pat: Constant::new(pattern160(0x8000_0000)),
            k_b64: k(B as u64),
            k_log_b: k(B.trailing_zeros() as u64),
            op_tensor: op(Op::CpBulkTensor),
            e_tensor_map: err(ErrorCode::TensorMap),
            e_tensor_neg: err(ErrorCode::TensorNegativeStore),
            k_bmask: k((B - 1) as u64),
            k_d16: k(D as u64),
            k_shared_end: k(config.shared_bytes as u64),
            sh_sum_mb: Default::default(),
            sh_over_mb: Default::default(),
            sh_sum_cp: Default::default(),
            sh_over_cp: Default::default(),
            sh_sum_dst: Default::default(),
            sh_over_dst: Default::default(),
            sh_sum_src: Default::default(),
            sh_over_src: Default::default(),
            sh_sum_addr_box: Default::default(),
            sh_over_addr_box: Default::default(),
            sh_sum_dst_box: Default::default(),
            sh_over_dst_box: Default::default(),
            k_cluster_size: k(cs),
            k_cluster_base: k(CLUSTER_BASE),
            k_global_base: k(GLOBAL_BASE),
            cp_src_bytes: Default::default(),
            k_first_slots: Constant::new(fs),
            k_warp_shift: k(LANE_BITS as u64),
            k_slot_shift: k((LANE_BITS + warp_bits) as u64),
            k_bulk_built: Constant::new(config.features.bulk_copy),
            op_cp: op(Op::CpAsync),
            op_commit: op(Op::CpAsyncCommit),
            op_wait: op(Op::CpAsyncWait),
            op_bulk: op(Op::CpBulk),
            op_bcommit: op(Op::BulkCommit),
            op_bwait: op(Op::BulkWait),
            op_cparrive: op(Op::MbCpAsyncArrive),
            op_mb_arrive: op(Op::MbArrive),
            op_mb_complete_tx: op(Op::MbCompleteTx),
            f_multicast: k(flags::MOD_B as u64),
            sp_cluster: k(Space::SharedCluster.code() as u64),
            dir_g2s: k(BulkDir::GlobalToShared.code() as u64),
            dir_s2g: k(BulkDir::SharedToGlobal.code() as u64),
            dir_s2c: k(BulkDir::SharedToCluster.code() as u64),
            e_none: err(ErrorCode::None),
            e_bulk_align: err(ErrorCode::BulkSizeAlign),
            e_shared_range: err(ErrorCode::SharedOutOfRange),
            e_mb_align: err(ErrorCode::MbAlign),
            e_not_built: err(ErrorCode::NotBuilt),
            e_plain: err(ErrorCode::MbarrierPlainAccess),
            e_mb_dead: err(ErrorCode::MbNotInitialized),
            c_dtype: Default::default(),
            is_reduce: Default::default(),
            k_bulk_red_legal: Constant::new(bulk_reduce_table()),
            k_tensor_red_legal: Constant::new(tensor_reduce_table()),
            k_dtype_lg: Constant::new(crate::common::dtype_log2_bytes_table()),
            red_idx: Default::default(),
            red_ok: Default::default(),
            red_sh: Default::default(),
            t_red_sh: Default::default(),
            t_bitwise_sh: Default::default(),
            m_rtype: Default::default(),
            m_rtype_ok: Default::default(),
            t_red_op: Default::default(),
            t_red_ok: Default::default(),
            k_bitwise_ops: k((1u64 << AtomOp::And.code()) | (1u64 << AtomOp::Or.code()) | (1u64 << AtomOp::Xor.code())),
            dt_u32: k(DataType::U32.code() as u64),
            dt_u64: k(DataType::U64.code() as u64),
            dt_b32: k(DataType::B32.code() as u64),
            dt_b64: k(DataType::B64.code() as u64),
            reducer: Reducer::new(element_latency(config) as u64),
            rd_drained: Default::default(),
            rd_enter: Default::default(),
            rd_enter_row: Default::default(),
            op_reduce: op(Op::CpReduceBulk),
            e_atom_type: err(ErrorCode::AtomBadType),
            f_noftz: k(flags::MOD_A as u64),
            k_dir_bad: k(0xF),
        }
    }
}

/// The golden `bulk_reduce_legal` as a lookup constant (bit `to_global << 9 | noftz << 8 | op << 4
/// | dtype`), so that the RTL's table cannot drift from the golden one.
fn bulk_reduce_table() -> Bits<1024> {
    let mut t: Bits<1024> = Bits::default();
    for op in AtomOp::ALL {
        for dt in DataType::ALL {
            for to_global in [false, true] {
                for noftz in [false, true] {
                    if bulk_reduce_legal(*op, *dt, to_global, noftz) {
                        let i = (to_global as usize) << 9
                            | (noftz as usize) << 8
                            | (op.code() as usize) << 4
                            | dt.code() as usize;
                        t.set_bits::<1>(i, 1u64.to_bits());
                    }
                }
            }
        }
    }
    t
}

/// For each swizzle pattern (byte `lines - 1` of the result: 1 for 32B, 3 for 64B, 7 for 128B),
/// the 16-byte chunks j of shared memory's last, partial 128-byte line that are in range but
/// whose swizzled position `j ^ ((line / 128) % lines)` (PTX ISA §5.5.7) is not: bit j. Zero
/// when `shared_bytes` is a multiple of 128 (every preset).
pub fn swizzle_tail_table(shared_bytes: u64) -> u64 {
    let line = shared_bytes & !127;
    let chunks_in = (shared_bytes & 127) / 16;
    let mut t = 0u64;
    for lines in [2u64, 4, 8] {
        let x = (line >> 7) % lines;
        for j in 0..chunks_in {
            if (j ^ x) >= chunks_in {
                t |= 1 << (8 * (lines - 1) + j);
            }
        }
    }
    t
}

/// The golden `tensor_reduce_legal` as a lookup constant (bit `op << 4 | dtype`).
fn tensor_reduce_table() -> Bits<256> {
    let mut t: Bits<256> = Bits::default();
    for op in AtomOp::ALL {
        for dt in DataType::ALL {
            if tensor_reduce_legal(*op, *dt) {
                t.set_bits::<1>((op.code() as usize) << 4 | dt.code() as usize, 1u64.to_bits());
            }
        }
    }
    t
}

// (The descriptor layout of a beat in flight is the mover's: copy_engine/mover.rs.)

impl<const D: usize, const B: usize, const T: usize> Logic for CopyEngine<D, B, T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            rwant_q,
            state,
            cur_ctl,
            cur_addr,
            cur_src,
            cur_mbar,
            cur_a,
            cur_b,
            cur_c,
            cur_tag,
            mc_left,
            mc_started,
            issued_seq,
            completed_seq,
            r_valid,
            r_cta,
            r_warp,
            r_lane,
            r_error,
            ctl_mb_sent,
            rec_q,
            fetch_wait,
            q_taken,
            room_q,
            tm_beats,
            tm_issued,
            tm_got,
            tm_addr,
            map_buf,
            tm_carry,
            tm_prime,
            m_err,
            m_im2col,
            m_imbad,
            ck_map_bad,
            ck_align,
            ck_rank,
            ck_mb_align,
            ck_mc,
            ck_red,
            ck_dst_hi,
            ck_dst_lo,
            ck_sw_a,
            m_swz,
            m_neg,
            m_lg,
            m_fill,
            m_c,
            m_box,
            m_size,
            m_stride,
            t_sdst,
            t_part,
            dq_src_gm,
            dq_dst_gm,
            dq_store,
            dq_red_row,
            m_rtype,
            m_rtype_ok,
            lp_mb,
            lp_lo,
            lp_hi,
            lp_xh,
            lp_xt,
            lp_empty,
            lp_age,
            lv_targets_q,
            lv_mtargets_q,
            lv_load_q,
            lv_mcast_q,
            t_probe,
            inc0_q,
            inc1_q,
            inc2_q,
            inc3_q,
            ring_ok
        );
        clock!(self, clock, q, arrive_q, comp_q, answers, origin, reducer, mover, checks);
        self.trec.read_clock.next = self.clock.val();
        self.trec.write_clock.next = self.clock.val();

        // ================= request queue =================
        self.ctl_in.next = bit_cast::<64, OP_BITS>(self.req_op.val())
            | (bit_cast::<64, 4>(self.req_sub.val()) << 6)
            | (bit_cast::<64, 4>(self.req_dtype.val()) << 10)
            | (bit_cast::<64, FLAG_BITS>(self.req_flags.val()) << 14)
            | (bit_cast::<64, 2>(self.req_space.val()) << 22)
            | (bit_cast::<64, 16>(self.req_imm.val()) << 24)
            | (bit_cast::<64, 8>(self.req_imm2.val()) << 40)
            | (bit_cast::<64, SLOT_BITS>(self.req_cta.val()) << 48)
            | (bit_cast::<64, WARP_BITS>(self.req_warp.val()) << 53)
            | (bit_cast::<64, LANE_BITS>(self.req_lane.val()) << 58);
        self.q_full.next = self.q.count.val() == self.k_qdepth.val();
        self.req_ready.next = !self.q_full.val() & !self.reset.val();
        self.q.din.next = bit_cast::<544, 64>(self.ctl_in.val())
            | (bit_cast::<544, 64>(self.req_addr.val()) << 64)
            | (bit_cast::<544, 64>(self.req_src.val()) << 128)
            | (bit_cast::<544, 64>(self.req_mbar.val()) << 192)
            | (bit_cast::<544, 128>(self.req_a.val()) << 256)
            | (bit_cast::<544, 64>(self.req_b.val()) << 384)
            | (bit_cast::<544, 32>(self.req_c.val()) << 448)
            | (bit_cast::<544, 64>(self.req_tag.val()) << 480);
        self.q.push.next = self.req_valid.val() & !self.reset.val();
        self.q.reset.next = self.reset.val();
        self.arrive_q.reset.next = self.reset.val();
        self.comp_q.reset.next = self.reset.val();
        self.answers.reset.next = self.reset.val();
        // Pop the request the idle controller took, a cycle later (`q_taken`).
        self.q_taken.d.next = (self.state.q.val() == 0) & self.q.ready.val() & !self.reset.val();
        self.q.pop.next = self.q_taken.q.val();

        // ================= controller: decode =================
        self.c_op.next = self.cur_ctl.q.val().get_bits::<OP_BITS>(0);
        self.c_sub.next = self.cur_ctl.q.val().get_bits::<4>(6);
        self.c_flags.next = self.cur_ctl.q.val().get_bits::<FLAG_BITS>(14);
        self.c_space.next = self.cur_ctl.q.val().get_bits::<2>(22);
        self.c_imm.next = self.cur_ctl.q.val().get_bits::<16>(24);
        self.c_imm2.next = self.cur_ctl.q.val().get_bits::<8>(40);
        self.c_cta.next = self.cur_ctl.q.val().get_bits::<SLOT_BITS>(48);
        self.c_warp.next = self.cur_ctl.q.val().get_bits::<WARP_BITS>(53);
        self.c_lane.next = self.cur_ctl.q.val().get_bits::<LANE_BITS>(58);
        self.ident.next = bit_cast::<IDENT_BITS, 64>(self.cur_tag.q.val())
            | (bit_cast::<IDENT_BITS, SLOT_BITS>(self.c_cta.val()) << 64)
            | (bit_cast::<IDENT_BITS, WARP_BITS>(self.c_warp.val()) << 69)
            | (bit_cast::<IDENT_BITS, LANE_BITS>(self.c_lane.val()) << 74);
        self.thread_index.next = (bit_cast::<T, SLOT_BITS>(self.c_cta.val()) << self.k_slot_shift.val())
            | (bit_cast::<T, WARP_BITS>(self.c_warp.val()) << self.k_warp_shift.val())
            | bit_cast::<T, LANE_BITS>(self.c_lane.val());
        self.trec.read_address.next = bit_cast::<TREC_ADDR_BITS, T>(self.thread_index.val());
        self.trec.write_address.next = bit_cast::<TREC_ADDR_BITS, T>(self.thread_index.val());
        self.is_cp.next = self.c_op.val() == self.op_cp.val();
        self.is_commit.next = self.c_op.val() == self.op_commit.val();
        self.is_bcommit.next = self.c_op.val() == self.op_bcommit.val();
        self.is_wait.next = self.c_op.val() == self.op_wait.val();
        self.is_bwait.next = self.c_op.val() == self.op_bwait.val();
        self.is_bulk.next = self.c_op.val() == self.op_bulk.val();
        self.is_cparrive.next = self.c_op.val() == self.op_cparrive.val();
        self.is_tensor.next = self.c_op.val() == self.op_tensor.val();
        self.is_reduce.next = self.c_op.val() == self.op_reduce.val();
        self.c_dtype.next = self.cur_ctl.q.val().get_bits::<4>(10);
        // The reducer starts on a drained mover (every earlier move written) with room for its
        // complete_tx.
        self.rd_drained.next = !self.mover.active.val()
            & (self.mover.count.val() == 0)
            & (self.comp_q.count.val() < self.k_comp_depth.val());

        // Thread record.
        self.rec_q.d.next = self.trec.read_data.val();
        self.rec.next = self.rec_q.q.val();
        self.a_last.next = self.rec.val().get_bits::<SEQ_BITS>(0);
        self.a_ring.next = self.rec.val().get_bits::<128>(32);
        self.b_last.next = self.rec.val().get_bits::<SEQ_BITS>(160);
        self.b_ring.next = self.rec.val().get_bits::<128>(192);
        self.new_a_last.next = self.a_last.val();
        self.new_a_ring.next = self.a_ring.val();
        self.new_b_last.next = self.b_last.val();
        self.new_b_ring.next = self.b_ring.val();
        self.rec_write.next = false;

        // Group arithmetic on the ring of the op's kind: an entry is incomplete iff its move
        // number lies in (completed_seq, issued_seq].
        self.in_flight.next = self.issued_seq.q.val() - self.completed_seq.q.val();
        self.ring_sel.next = self.a_ring.val();
        if self.is_bcommit.val() | self.is_bwait.val() {
            self.ring_sel.next = self.b_ring.val();
        }
        self.inc0.next = (self.issued_seq.q.val() - self.ring_sel.val().get_bits::<SEQ_BITS>(0)) < self.in_flight.val();
        self.inc1.next =
            (self.issued_seq.q.val() - self.ring_sel.val().get_bits::<SEQ_BITS>(32)) < self.in_flight.val();
        self.inc2.next =
            (self.issued_seq.q.val() - self.ring_sel.val().get_bits::<SEQ_BITS>(64)) < self.in_flight.val();
        self.inc3.next =
            (self.issued_seq.q.val() - self.ring_sel.val().get_bits::<SEQ_BITS>(96)) < self.in_flight.val();
        // The flags are registered (a subtract and a compare per entry, behind the op's ring
        // select) and used from DECIDE's second cycle: a completion is seen a cycle later, so a
        // commit or wait answers at most a cycle later, never early (`issued_seq` does not move
        // while a commit or wait is in DECIDE).
        self.inc0_q.d.next = self.inc0.val();
        self.inc1_q.d.next = self.inc1.val();
        self.inc2_q.d.next = self.inc2.val();
        self.inc3_q.d.next = self.inc3.val();
        self.ring_ok.d.next = self.state.q.val() == 2;
        self.oldest_incomplete.next = self.inc3_q.q.val() | !self.ring_ok.q.val();
        self.p0.next = 0.into();
        self.p1.next = 0.into();
        self.p2.next = 0.into();
        self.p3.next = 0.into();
        if self.inc0_q.q.val() {
            self.p0.next = 1.into();
        }
        if self.inc1_q.q.val() {
            self.p1.next = 1.into();
        }
        if self.inc2_q.q.val() {
            self.p2.next = 1.into();
        }
        if self.inc3_q.q.val() {
            self.p3.next = 1.into();
        }
        self.pending.next = self.p0.val() + self.p1.val() + self.p2.val() + self.p3.val();

        // Address resolution (golden `space::resolve_shared`).
        self.first_slot.next = bit_cast::<SLOT_BITS, 160>(
            self.k_first_slots.val()
                >> ((bit_cast::<16, SLOT_BITS>(self.c_cta.val()) << 2) + bit_cast::<16, SLOT_BITS>(self.c_cta.val())),
        );
        self.dst_cluster.next = self.c_space.val() == self.sp_cluster.val();
        self.mb_cluster.next = self.c_space.val() == self.sp_cluster.val();
        self.dir.next = self.c_sub.val();
        if self.is_reduce.val() {
            // cp.reduce.async.bulk carries the direction in imm (as u8, like the golden decoder).
            self.dir.next = self.c_imm.val().get_bits::<4>(0);
            if self.c_imm.val().get_bits::<4>(4) != 0 {
                self.dir.next = self.k_dir_bad.val();
            }
        }
        // The golden op x type table of the reduce (bit to_global | noftz | op | dtype).
        self.red_idx.next = (bit_cast::<16, 4>(self.c_sub.val()) << 4) | bit_cast::<16, 4>(self.c_dtype.val());
        if self.dir.val() == self.dir_s2g.val() {
            self.red_idx.next = self.red_idx.val() | 512;
        }
        if (self.c_flags.val() & self.f_noftz.val()).any() {
            self.red_idx.next = self.red_idx.val() | 256;
        }
        // (Through a 1-bit signal: rust-hdl cannot index an expression in Verilog.)
        self.red_sh.next = bit_cast::<1, 1024>(self.k_bulk_red_legal.val() >> self.red_idx.val());
        self.red_ok.next = self.red_sh.val() != 0;
        if (self.is_bulk.val() | self.is_reduce.val()) & (self.dir.val() == self.dir_s2c.val()) {
            self.dst_cluster.next = true;
            self.mb_cluster.next = true;
        }
        if self.is_cparrive.val() {
            self.dst_cluster.next = false;
        }
        self.dst_off.next = self.cur_addr.q.val();
        self.dst_rank.next = 0.into();
        self.dst_bad.next = false;
        if self.dst_cluster.val() {
            self.dst_off.next = (self.cur_addr.q.val() - self.k_cluster_base.val()) & 0xFF_FFFF;
            self.dst_rank.next = (self.cur_addr.q.val() - self.k_cluster_base.val()) >> 24;
            self.dst_bad.next = (self.cur_addr.q.val() < self.k_cluster_base.val())
                | (((self.cur_addr.q.val() - self.k_cluster_base.val()) >> 24) >= self.k_cluster_size.val());
        }
        // The mbarrier operand: `mbar` for bulk copies, `addr` for cp.async.mbarrier.arrive.
        self.mb_raw.next = self.cur_mbar.q.val();
        if self.is_cparrive.val() {
            self.mb_raw.next = self.cur_addr.q.val();
        }
        self.mb_off_r.next = self.mb_raw.val();
        self.mb_rank.next = 0.into();
        self.mb_bad.next = false;
        if self.mb_cluster.val() {
            self.mb_rank.next = (self.mb_raw.val() - self.k_cluster_base.val()) >> 24;
            self.mb_bad.next = (self.mb_raw.val() < self.k_cluster_base.val())
                | (((self.mb_raw.val() - self.k_cluster_base.val()) >> 24) >= self.k_cluster_size.val());
            self.mb_off_r.next = (self.mb_raw.val() - self.k_cluster_base.val()) & 0xFF_FFFF;
        }
        self.cp_size.next = bit_cast::<64, 16>(self.c_imm.val());
        self.cp_src_bytes.next = bit_cast::<64, 128>(self.cur_a.q.val());
        if self.cur_b.q.val().get_bit(0) {
            self.cp_src_bytes.next = 0.into();
        }
        self.blen.next = bit_cast::<64, 128>(self.cur_a.q.val()) & self.k_u32_mask.val();

        // Shared-memory range checks (`SH_SUM_BITS`): x + n > shared_bytes.
        self.sh_sum_mb.next = bit_cast::<SH_SUM_BITS, 64>(self.mb_off_r.val() & 0x3_FFFF) + 8;
        self.sh_over_mb.next = ((self.mb_off_r.val() >> 18) != 0) | (self.sh_sum_mb.val() > self.k_shared_end.val());
        self.sh_sum_cp.next = bit_cast::<SH_SUM_BITS, 64>(self.cur_addr.q.val() & 0x3_FFFF)
            + bit_cast::<SH_SUM_BITS, 16>(self.c_imm.val());
        self.sh_over_cp.next = ((self.cur_addr.q.val() >> 18) != 0) | (self.sh_sum_cp.val() > self.k_shared_end.val());
        self.sh_sum_dst.next = bit_cast::<SH_SUM_BITS, 64>(self.dst_off.val() & 0x3_FFFF)
            + bit_cast::<SH_SUM_BITS, 64>(self.blen.val() & 0x3_FFFF);
        self.sh_over_dst.next = ((self.dst_off.val() >> 18) != 0)
            | ((self.blen.val() >> 18) != 0)
            | (self.sh_sum_dst.val() > self.k_shared_end.val());
        self.sh_sum_src.next = bit_cast::<SH_SUM_BITS, 64>(self.cur_src.q.val() & 0x3_FFFF)
            + bit_cast::<SH_SUM_BITS, 64>(self.blen.val() & 0x3_FFFF);
        self.sh_over_src.next = ((self.cur_src.q.val() >> 18) != 0)
            | ((self.blen.val() >> 18) != 0)
            | (self.sh_sum_src.val() > self.k_shared_end.val());
        self.sh_sum_addr_box.next = bit_cast::<SH_SUM_BITS, 64>(self.cur_addr.q.val() & 0x3_FFFF)
            + bit_cast::<SH_SUM_BITS, 32>(self.origin.box_bytes.val() & 0x3_FFFF);
        self.sh_over_addr_box.next = ((self.cur_addr.q.val() >> 18) != 0)
            | ((self.origin.box_bytes.val() >> 18) != 0)
            | (self.sh_sum_addr_box.val() > self.k_shared_end.val());
        self.sh_sum_dst_box.next = bit_cast::<SH_SUM_BITS, 18>(self.ck_dst_lo.q.val())
            + bit_cast::<SH_SUM_BITS, 32>(self.origin.box_bytes.val() & 0x3_FFFF);
        self.sh_over_dst_box.next = self.ck_dst_hi.q.val()
            | ((self.origin.box_bytes.val() >> 18) != 0)
            | (self.sh_sum_dst_box.val() > self.k_shared_end.val());

        // Lowest remaining multicast rank.
        self.mc_bit.next = self.mc_left.q.val() & ((!self.mc_left.q.val()) + 1);
        self.mc_rank.next = 0.into();
        for r in 0..16 {
            if self.mc_bit.val().get_bit(r) {
                self.mc_rank.next = r.to_bits();
            }
        }

        // ================= controller: issue checks, a cycle ahead =================
        // Each op's checks in the golden order (PTX ISA §9.7.9.25.3.1 cp.async, §9.7.9.25.4.1-2 bulk
        // copy and reduce, §9.7.9.25.5.2 the tensor map's own bytes, §9.7.13.15.15 the mbarrier of
        // cp.async.mbarrier.arrive), from the request's registers only. `cur_*` are loaded as the
        // controller leaves IDLE (and `cur_ctl` again for wait_all) and FETCH lasts two cycles, so
        // the registered code is the request's when DECIDE reads it: DECIDE's path to the state
        // and the record write starts at a register, not at the 64-bit range compares.
        // Conditions here, from registers; their order (the golden model's) and the error in
        // `IssueChecks`, two registered stages.
        self.checks.is_cp.next = self.is_cp.val();
        self.checks.is_cparrive.next = self.is_cparrive.val();
        self.checks.is_bulk_red.next = (self.is_bulk.val() | self.is_reduce.val()) & self.k_bulk_built.val();
        self.checks.is_tensor.next = self.is_tensor.val() & self.k_tensor_built.val();
        self.checks.is_sync.next =
            self.is_commit.val() | self.is_bcommit.val() | self.is_wait.val() | self.is_bwait.val();
        self.checks.cp_align.next =
            ((self.cp_size.val() != 4) & (self.cp_size.val() != 8) & (self.cp_size.val() != 16))
                | ((self.cur_addr.q.val() & (self.cp_size.val() - 1)) != 0)
                | ((self.cur_src.q.val() & (self.cp_size.val() - 1)) != 0);
        self.checks.cp_srcsize.next = ((bit_cast::<64, 128>(self.cur_a.q.val()) >> 16) != 0)
            | (bit_cast::<16, 128>(self.cur_a.q.val()) > self.c_imm.val());
        self.checks.cp_shared.next = self.sh_over_cp.val();
        self.checks.cp_global.next = (self.cp_src_bytes.val() != 0)
            & ((self.cur_src.q.val() < self.k_global_base.val())
                | ((self.cur_src.q.val() + self.cp_src_bytes.val()) > self.global_end.val()));
        self.checks.mb_range.next = self.mb_bad.val() | self.sh_over_mb.val();
        self.checks.mb_align.next = (self.mb_off_r.val() & 7) != 0;
        self.checks.bulk_align.next = ((self.blen.val() & 15) != 0)
            | ((self.cur_addr.q.val() & 15) != 0)
            | ((self.cur_src.q.val() & 15) != 0)
            | ((self.dir.val() != self.dir_g2s.val())
                & (self.dir.val() != self.dir_s2g.val())
                & (self.dir.val() != self.dir_s2c.val()));
        self.checks.red_type.next =
            self.is_reduce.val() & ((self.dir.val() == self.dir_g2s.val()) | !self.red_ok.val());
        self.checks.g2s.next = self.dir.val() == self.dir_g2s.val();
        self.checks.s2c.next = self.dir.val() == self.dir_s2c.val();
        self.checks.rank_bad.next = self.dst_bad.val() | self.mb_bad.val();
        self.checks.mc_rank.next = (self.c_flags.val() & self.f_multicast.val()).any()
            & ((self.cur_b.q.val() & 0xFFFF) >= self.k_rank_limit.val());
        self.checks.dst_shared.next = self.sh_over_dst.val();
        self.checks.src_global.next = (self.cur_src.q.val() < self.k_global_base.val())
            | ((self.cur_src.q.val() + self.blen.val()) > self.global_end.val());
        self.checks.src_shared.next = self.sh_over_src.val();
        self.checks.dst_global.next = (self.cur_addr.q.val() < self.k_global_base.val())
            | ((self.cur_addr.q.val() + self.blen.val()) > self.global_end.val());
        self.checks.map_global.next =
            (self.cur_src.q.val() < self.k_global_base.val()) | ((self.cur_src.q.val() + 128) > self.global_end.val());
        self.chk_failed.next = self.checks.err.val() != self.e_none.val();

        // ================= the destination's live check (PTX ISA §9.7.13.15) =================
        // A copy into a live mbarrier object is refused before any byte moves, as the golden
        // unit refuses it (`MbarrierPlainAccess`). The probe of the op's destination range is
        // loaded as the request leaves the queue (its answer is due in DECIDE's first cycle:
        // FETCH takes two) or, for a tensor box, in CHECK's first cycle (CHECK then waits two);
        // the live map answers for every slot, and the op's slots are masked here.
        self.probe.off.next = bit_cast::<18, 64>(self.q.dout.val().get_bits::<64>(64));
        self.probe.len.next = bit_cast::<32, 128>(self.q.dout.val().get_bits::<128>(256));
        if self.q.dout.val().get_bits::<OP_BITS>(0) == self.op_cp.val() {
            self.probe.len.next = bit_cast::<32, 16>(self.q.dout.val().get_bits::<16>(24));
        }
        self.probe.swz.next = 0.into();
        self.box_probe.off.next = bit_cast::<18, 64>(self.dst_off.val());
        self.box_probe.len.next = self.origin.box_bytes.val();
        self.box_probe.swz.next = self.m_swz.q.val();
        self.lp_load.next = (self.state.q.val() == 0) & self.q.ready.val();
        self.t_probe.d.next = self.state.q.val() == 5;
        if (self.state.q.val() == 5) & !self.t_probe.q.val() {
            self.lp_mb.d.next = bit_cast::<WORD_BITS, 64>((self.cur_mbar.q.val() & 0x3_FFFF) >> 3);
            self.lp_lo.d.next = self.box_probe.lo.val();
            self.lp_hi.d.next = self.box_probe.hi.val();
            self.lp_xh.d.next = self.box_probe.xh.val();
            self.lp_xt.d.next = self.box_probe.xt.val();
            self.lp_empty.d.next = self.box_probe.empty.val();
            self.lp_age.d.next = 0.into();
        } else if self.lp_load.val() {
            self.lp_mb.d.next = bit_cast::<WORD_BITS, 64>((self.q.dout.val().get_bits::<64>(192) & 0x3_FFFF) >> 3);
            self.lp_lo.d.next = self.probe.lo.val();
            self.lp_hi.d.next = self.probe.hi.val();
            // 0: the queue's probe has its swizzle tied off (constant, so no path from the queue).
            self.lp_xh.d.next = self.probe.xh.val();
            self.lp_xt.d.next = self.probe.xt.val();
            self.lp_empty.d.next = self.probe.empty.val();
            self.lp_age.d.next = 0.into();
        } else if self.lp_age.q.val() != 2 {
            self.lp_age.d.next = self.lp_age.q.val() + 1u64;
        }
        self.live_lo.next = self.lp_lo.q.val();
        self.live_hi.next = self.lp_hi.q.val();
        self.live_xh.next = self.lp_xh.q.val();
        self.live_xt.next = self.lp_xt.q.val();
        self.live_empty.next = self.lp_empty.q.val();
        self.live_mb.next = self.lp_mb.q.val();
        // The slots the op writes: its destination's (shared::cta or a cluster rank), or a
        // multicast load's ranks.
        self.lv_tslot.next = self.c_cta.val();
        if self.dst_cluster.val() & !self.is_cp.val() {
            self.lv_tslot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.dst_rank.val());
        }
        self.lv_targets.next = self.k_one32.val() << self.lv_tslot.val();
        self.lv_mc.next = self.cur_b.q.val() & 0xFFFF;
        if self.is_tensor.val() {
            self.lv_mc.next = bit_cast::<64, 32>(self.cur_c.q.val()) & 0xFFFF;
        }
        self.lv_mslot.next = self.c_cta.val();
        if self.mb_cluster.val() {
            self.lv_mslot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.mb_rank.val());
        }
        self.lv_mtargets.next = self.k_one32.val() << self.lv_mslot.val();
        self.lv_multi.next = (self.c_flags.val() & self.f_multicast.val()).any()
            & (self.dir.val() == self.dir_g2s.val())
            & (self.is_bulk.val() | self.is_tensor.val());
        if self.lv_multi.val() {
            if self.k_mc_built.val() {
                // each destination CTA's mbarrier at the same offset
                self.lv_targets.next = bit_cast::<32, 64>(self.lv_mc.val()) << self.first_slot.val();
                self.lv_mtargets.next = bit_cast::<32, 64>(self.lv_mc.val()) << self.first_slot.val();
            } else if (self.lv_mc.val() & 1) == 0 {
                // a cluster of one: rank 0 or no CTA (a larger mask is refused before)
                self.lv_targets.next = 0.into();
                self.lv_mtargets.next = 0.into();
            }
        }
        self.lv_targets_q.d.next = self.lv_targets.val();
        self.lv_mtargets_q.d.next = self.lv_mtargets.val();
        self.lv_load_q.d.next = (self.dir.val() == self.dir_g2s.val()) & (self.is_bulk.val() | self.is_tensor.val());
        self.lv_mcast_q.d.next = self.lv_multi.val() & self.k_mc_built.val();
        self.lv_mb_dead.next = (!self.live_mb_hits.val() & self.lv_mtargets_q.q.val()) != 0;
        // A load's targets (bulk or tensor, global -> shared::cta/cluster): per target in rank
        // order, its destination's live words, then its mbarrier's liveness (the golden
        // `load_targets`). Other ops check the destination only here.
        self.lv_bad_dst.next = self.live_hits.val() & self.lv_targets_q.q.val();
        self.lv_bad_mb.next = 0.into();
        if self.lv_load_q.q.val() {
            self.lv_bad_mb.next = !self.live_mb_hits.val() & self.lv_mtargets_q.q.val();
        }
        self.lv_bad_any.next = self.lv_bad_dst.val() | self.lv_bad_mb.val();
        self.lv_first.next = self.lv_bad_any.val() & ((!self.lv_bad_any.val()) + 1);
        self.lv_bad.next = self.lv_bad_any.val() != 0;
        self.lv_err.next = self.e_mb_dead.val();
        if self.lv_mcast_q.q.val() {
            if (self.lv_first.val() & self.lv_bad_dst.val()) != 0 {
                self.lv_err.next = self.e_plain.val();
            }
        } else if self.lv_bad_dst.val() != 0 {
            self.lv_err.next = self.e_plain.val();
        }
        self.d_err.next = self.checks.err.val();
        self.d_failed.next = self.chk_failed.val();
        if self.checks.mbl.val() & self.lv_mb_dead.val() {
            self.d_err.next = self.e_mb_dead.val();
            self.d_failed.next = true;
        } else if self.checks.live.val() & self.lv_bad.val() {
            self.d_err.next = self.lv_err.val();
            self.d_failed.next = true;
        }

        // cp.async.mbarrier.arrive: its issue-time event (+1 / liveness check) once its operand
        // checks passed, while the arrive-on queue has room.
        self.ctl_mb_want.next = (self.state.q.val() == 2)
            & self.is_cparrive.val()
            & !self.chk_failed.val()
            & (self.arrive_q.count.val() != self.k_qdepth.val())
            & !self.ctl_mb_sent.q.val();
        // mbarrier port arbitration: complete_tx > arrive-on > issue event.
        self.arr_seq.next = self.arrive_q.dout.val().get_bits::<SEQ_BITS>(29);
        self.arr_ready.next =
            !self.arrive_q.empty.val() & ((self.issued_seq.q.val() - self.arr_seq.val()) >= self.in_flight.val());
        // An event goes only while its answer has a place (`MbAnswers::room`). A complete_tx
        // queued but not yet readable (a push into the word being read) holds back the others.
        self.mb_take.next = self.mb_ready.val() & self.answers.room.val();
        self.comp_go.next = self.comp_q.ready.val() & self.mb_take.val();
        self.arr_go.next = self.arr_ready.val() & self.comp_q.empty.val() & self.mb_take.val();
        self.ctl_mb_go.next =
            self.ctl_mb_want.val() & self.comp_q.empty.val() & !self.arr_ready.val() & self.mb_take.val();

        // ================= controller: decide =================
        self.err.next = self.e_none.val();
        self.done.next = false;
        self.start.next = false;
        self.rd_enter.next = false;
        self.rd_enter_row.next = false;
        // Shared-source moves: bulk shared::cta -> global and -> shared::cluster, tensor stores.
        self.dq_src_gm.d.next = !((self.is_bulk.val()
            & ((self.dir.val() == self.dir_s2g.val()) | (self.dir.val() == self.dir_s2c.val())))
            | (self.is_tensor.val() & (self.dir.val() == self.dir_s2g.val())));
        self.dq_dst_gm.d.next = (self.is_bulk.val() | self.is_tensor.val()) & (self.dir.val() == self.dir_s2g.val());
        self.dq_store.d.next = self.dir.val() == self.dir_s2g.val();
        self.dq_red_row.d.next = self.c_imm2.val() != 0;
        self.st_src_gm.next = self.dq_src_gm.q.val();
        self.st_dst_gm.next = self.dq_dst_gm.q.val();
        self.st_fill.next = false;
        self.st_tx_en.next = false;
        self.st_tx.next = 0.into();
        self.st_src_slot.next = self.c_cta.val();
        self.st_dst_slot.next = self.c_cta.val();
        self.st_src.next = self.cur_src.q.val();
        self.st_dst.next = self.dst_off.val();
        self.st_len.next = bit_cast::<32, 64>(self.blen.val());
        self.st_srem.next = bit_cast::<32, 64>(self.blen.val());
        self.st_mask_en.next = false;
        self.st_swz.next = 0.into();
        self.st_has_mb.next = false;
        self.st_mb_slot.next = self.c_cta.val();
        self.st_mb_off.next = bit_cast::<SADDR_BITS, 64>(self.mb_off_r.val());
        // A move may start when the staging register is empty (the mover takes it at the last
        // beat of its move), the complete_tx queue has room for every move in flight (`moves`
        // counts the staged one), and the mover is drained unless the move is of the same kind
        // as the previous one (global source after global source, shared -> global after
        // shared -> global: those complete in issue order).
        self.room_q.d.next = (self.mover.count.val() + self.comp_q.count.val() + 1) < self.k_comp_depth.val();
        self.can_start.next = !self.mover.staged.val()
            & self.room_q.q.val()
            & ((self.mover.count.val() == 0)
                | (self.st_src_gm.val() & self.mover.prev_src_gm.val())
                | (!self.st_src_gm.val()
                    & !self.mover.prev_src_gm.val()
                    & self.st_dst_gm.val()
                    & self.mover.prev_dst_gm.val()));
        if self.state.q.val() == 2 {
            if self.is_commit.val() | self.is_bcommit.val() {
                // Shift the thread's newest move number into the ring, unless the oldest entry
                // is still incomplete (then wait: GROUP_RING groups in flight per thread).
                if !self.oldest_incomplete.val() {
                    self.rec_write.next = true;
                    self.done.next = true;
                    if self.is_commit.val() {
                        self.new_a_ring.next = (self.a_ring.val() << 32) | bit_cast::<128, SEQ_BITS>(self.a_last.val());
                    } else {
                        self.new_b_ring.next = (self.b_ring.val() << 32) | bit_cast::<128, SEQ_BITS>(self.b_last.val());
                    }
                }
            } else if self.is_wait.val() & (self.c_imm2.val() == 1) {
                // wait_all: commit first, then wait for 0 pending (the op turns into wait_group 0).
                if !self.oldest_incomplete.val() {
                    self.rec_write.next = true;
                    self.new_a_ring.next = (self.a_ring.val() << 32) | bit_cast::<128, SEQ_BITS>(self.a_last.val());
                }
            } else if self.is_wait.val() | self.is_bwait.val() {
                if self.ring_ok.q.val() & (self.pending.val() <= self.c_imm.val()) {
                    self.done.next = true;
                }
            } else if self.is_cp.val() {
                self.err.next = self.d_err.val();
                self.st_dst.next = self.cur_addr.q.val();
                self.st_len.next = bit_cast::<32, 64>(self.cp_size.val());
                self.st_srem.next = bit_cast::<32, 128>(self.cur_a.q.val());
                if self.cur_b.q.val().get_bit(0) {
                    self.st_srem.next = 0.into();
                }
                if self.d_failed.val() {
                    self.done.next = true;
                } else if self.can_start.val() {
                    self.start.next = true;
                    self.done.next = true;
                    self.rec_write.next = true;
                    self.new_a_last.next = self.issued_seq.q.val() + 1;
                }
            } else if self.is_cparrive.val() {
                self.err.next = self.checks.err.val();
                if self.chk_failed.val() {
                    self.done.next = true;
                } else if self.answers.issue_answer.val() {
                    // The mbarrier unit's answer to the issue-time event (sent earlier, the only
                    // one in flight): its error is the lane's, as the golden unit answers at issue.
                    self.err.next = self.answers.issue_error.val();
                    self.done.next = true;
                }
            } else if (self.is_bulk.val() | self.is_reduce.val()) & self.k_bulk_built.val() {
                self.err.next = self.d_err.val();
                if self.dir.val() == self.dir_g2s.val() {
                    // dst shared::cta/cluster, mbarrier complete_tx; multicast over ctaMask (b).
                    self.st_has_mb.next = true;
                    self.st_dst_slot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.dst_rank.val());
                    self.st_mb_slot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.mb_rank.val());
                    if !self.dst_cluster.val() {
                        self.st_dst_slot.next = self.c_cta.val();
                    }
                    if !self.mb_cluster.val() {
                        self.st_mb_slot.next = self.c_cta.val();
                    }
                    if (self.c_flags.val() & self.f_multicast.val()).any() {
                        // Each destination CTA gets its own move (data and complete_tx at the same
                        // offsets); mc_left holds the ranks still to start.
                        self.st_dst_slot.next = self.first_slot.val() + self.mc_rank.val();
                        self.st_mb_slot.next = self.first_slot.val() + self.mc_rank.val();
                    }
                } else if self.dir.val() == self.dir_s2c.val() {
                    self.st_has_mb.next = true;
                    self.st_src.next = self.cur_src.q.val();
                    self.st_dst_slot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.dst_rank.val());
                    self.st_mb_slot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.mb_rank.val());
                } else {
                    // shared::cta -> global, bulk group, optional .cp_mask (imm2 bit 0, mask in c).
                    self.st_dst.next = self.cur_addr.q.val();
                    self.st_mask_en.next = self.c_imm2.val().get_bit(0);
                }
                if self.d_failed.val() {
                    self.done.next = true;
                } else if self.is_reduce.val() {
                    // The reducer (state 7) works alone on a drained mover; the answer follows it.
                    self.rd_enter.next = self.rd_drained.val();
                } else if self.can_start.val() {
                    if (self.c_flags.val() & self.f_multicast.val()).any() & (self.dir.val() == self.dir_g2s.val()) {
                        // Start one move per remaining rank; answer after the last.
                        if !self.mc_started.q.val() {
                            self.mc_left.d.next = bit_cast::<16, 64>(self.cur_b.q.val());
                            self.mc_started.d.next = true;
                            if (self.cur_b.q.val() & 0xFFFF) == 0 {
                                self.done.next = true;
                            }
                        } else {
                            self.start.next = true;
                            self.mc_left.d.next = self.mc_left.q.val() & !self.mc_bit.val();
                            if (self.mc_left.q.val() & !self.mc_bit.val()) == 0 {
                                self.done.next = true;
                            }
                        }
                    } else {
                        self.start.next = true;
                        self.done.next = true;
                    }
                    if self.dir.val() == self.dir_s2g.val() {
                        self.rec_write.next = true;
                        self.new_b_last.next = self.issued_seq.q.val() + 1;
                    }
                }
            } else if self.is_tensor.val() & self.k_tensor_built.val() {
                // cp.async.bulk.tensor: continues in states 3..6 (map fetch, products, checks,
                // rows), unless the map's own 128 bytes are outside global memory.
                self.err.next = self.checks.err.val();
                self.done.next = self.chk_failed.val();
            } else {
                // Not built (`NotBuilt` from the checks).
                self.err.next = self.checks.err.val();
                self.done.next = true;
            }
        }

        // ================= tensor tile mode (states 3..6) =================
        // 3: read the 128-byte map through the global port (beats land in map_buf) and decode it.
        // 4: the box's first row address (base + sum x_d * stride_d) and box elements (TensorOrigin).
        // 5: the golden checks in the golden order; 6: one move per box row (load: an optional
        // fill prefix, then data with fill suffix; store: the in-bounds run only), complete_tx of
        // the full box bytes with the last move of each destination CTA.
        // The map's bits, in every cycle (read only in MAP's last cycle and by the origin).
        self.m_raw.next = bit_cast::<960, MAP_BITS>(self.map_buf.q.val());
        self.md_dims.next = 0.into();
        self.md_eb.next = 0.into();
        self.md_type.next = 0.into();
        self.md_lg.next = 0.into();
        self.md_err.next = false;
        self.md_tbytes.next = 0.into();
        self.md_swz.next = 0.into();
        self.md_mode.next = 0.into();
        self.md_imbad.next = false;
        self.mc_mask.next = bit_cast::<64, 32>(self.cur_c.q.val()) & 0xFFFF;
        // Tensor reduce: imm2 = AtomOp + 1; the golden op x type table.
        self.t_red_op.next = self.c_imm2.val() - 1;
        self.t_red_sh.next = bit_cast::<1, 256>(
            self.k_tensor_red_legal.val()
                >> ((bit_cast::<16, 8>(self.t_red_op.val()) << 4) | bit_cast::<16, 4>(self.m_rtype.q.val())),
        );
        self.t_bitwise_sh.next = bit_cast::<1, 16>(self.k_bitwise_ops.val() >> self.t_red_op.val());
        self.t_red_ok.next = self.m_rtype_ok.q.val() & (self.t_red_op.val() < 16) & (self.t_red_sh.val() != 0);
        self.t_dir_ok.next = (self.dir.val() == self.dir_g2s.val())
            | (self.dir.val() == self.dir_s2g.val())
            | (self.dir.val() == self.dir_s2c.val());
        if (self.state.q.val() == 3) & (self.tm_got.q.val() == self.tm_beats.q.val()) {
            self.md_dims.next = self.m_raw.val().get_bits::<32>(32);
            self.md_eb.next = self.m_raw.val().get_bits::<32>(64);
            self.md_type.next = self.m_raw.val().get_bits::<32>(768);
            if (self.m_raw.val().get_bits::<32>(0) != self.k_magic.val())
                | (self.md_dims.val() != bit_cast::<32, 16>(self.c_imm.val()))
                | (self.md_dims.val() == 0)
                | (self.md_dims.val() > 5)
                | (self.m_raw.val().get_bits::<32>(96) > 1)
            {
                self.md_err.next = true;
            }
            if self.md_eb.val() == 1 {
                self.md_lg.next = 0.into();
            } else if self.md_eb.val() == 2 {
                self.md_lg.next = 1.into();
            } else if self.md_eb.val() == 4 {
                self.md_lg.next = 2.into();
            } else if self.md_eb.val() == 8 {
                self.md_lg.next = 3.into();
            } else if self.md_eb.val() == 16 {
                self.md_lg.next = 4.into();
            } else {
                self.md_err.next = true;
            }
            if (self.md_dims.val() > 0)
                & ((self.m_raw.val().get_bits::<32>(192) == 0) | (self.m_raw.val().get_bits::<32>(352) == 0))
            {
                self.md_err.next = true;
            }
            if (self.md_dims.val() > 1)
                & ((self.m_raw.val().get_bits::<32>(224) == 0) | (self.m_raw.val().get_bits::<32>(384) == 0))
            {
                self.md_err.next = true;
            }
            if (self.md_dims.val() > 2)
                & ((self.m_raw.val().get_bits::<32>(256) == 0) | (self.m_raw.val().get_bits::<32>(416) == 0))
            {
                self.md_err.next = true;
            }
            if (self.md_dims.val() > 3)
                & ((self.m_raw.val().get_bits::<32>(288) == 0) | (self.m_raw.val().get_bits::<32>(448) == 0))
            {
                self.md_err.next = true;
            }
            if (self.md_dims.val() > 4)
                & ((self.m_raw.val().get_bits::<32>(320) == 0) | (self.m_raw.val().get_bits::<32>(480) == 0))
            {
                self.md_err.next = true;
            }
            // elem_type (off 96): 0 untyped, else DataType code + 1 of the element's size.
            if (self.md_type.val() == 1) | (self.md_type.val() == 11) | (self.md_type.val() == 12) {
                self.md_tbytes.next = 2.into();
            } else if (self.md_type.val() == 2)
                | (self.md_type.val() == 5)
                | (self.md_type.val() == 7)
                | (self.md_type.val() == 9)
                | (self.md_type.val() == 13)
                | (self.md_type.val() == 14)
            {
                self.md_tbytes.next = 4.into();
            } else if (self.md_type.val() == 3)
                | (self.md_type.val() == 6)
                | (self.md_type.val() == 8)
                | (self.md_type.val() == 10)
            {
                self.md_tbytes.next = 8.into();
            } else if self.md_type.val() == 4 {
                self.md_tbytes.next = 16.into();
            }
            if (self.md_type.val() != 0) & (self.md_tbytes.val() != self.md_eb.val()) {
                self.md_err.next = true;
            }
            // Swizzle (off 100, PTX ISA §5.5.7): a known code here; the box's inner dimension
            // against the span is checked in MUL (`m_late_err`).
            self.md_swz.next = self.m_raw.val().get_bits::<32>(800);
            if self.md_swz.val() > 3 {
                self.md_err.next = true;
            }
            // Mode (off 104): 0 tiled, 1 im2col (PTX ISA §5.5.4), else malformed. An im2col map is
            // validated as the golden `read_im2col` does (3d..5d, box sizes 2..4 all 1, corners in
            // the range of PTX ISA §5.5.4.1: any i16 for 3d, [-128, 127] for 4d, [-16, 15] for 5d)
            // so that a malformed one answers TensorMap like the golden unit; a valid one is
            // answered NotBuilt in state 5.
            self.md_mode.next = self.m_raw.val().get_bits::<32>(832);
            if (self.md_dims.val() < 3)
                | (self.m_raw.val().get_bits::<32>(416) != 1)
                | (self.m_raw.val().get_bits::<32>(448) != 1)
                | (self.m_raw.val().get_bits::<32>(480) != 1)
            {
                self.md_imbad.next = true;
            }
            // lower (off 108) and upper (off 114) corners, W, H, D: v in [-r, r) iff
            // (v + r) mod 2^16 < 2r, r = 128 for 4d (W, H), 16 for 5d (W, H, D)
            for s in 0..2 {
                if (self.md_dims.val() == 4)
                    & (((self.m_raw.val().get_bits::<16>(864 + 16 * s) + 128) >= 256)
                        | ((self.m_raw.val().get_bits::<16>(912 + 16 * s) + 128) >= 256))
                {
                    self.md_imbad.next = true;
                }
            }
            for s in 0..3 {
                if (self.md_dims.val() == 5)
                    & (((self.m_raw.val().get_bits::<16>(864 + 16 * s) + 16) >= 32)
                        | ((self.m_raw.val().get_bits::<16>(912 + 16 * s) + 16) >= 32))
                {
                    self.md_imbad.next = true;
                }
            }
            if self.md_mode.val() > 1 {
                self.md_err.next = true;
            }
            self.m_im2col.d.next = self.md_mode.val() == 1;
            self.m_imbad.d.next = self.md_imbad.val();
            self.m_swz.d.next = 0.into();
            if self.md_swz.val() == 1 {
                self.m_swz.d.next = 1.into();
            } else if self.md_swz.val() == 2 {
                self.m_swz.d.next = 3.into();
            } else if self.md_swz.val() == 3 {
                self.m_swz.d.next = 7.into();
            }
            self.m_err.d.next = self.md_err.val();
            self.m_lg.d.next = self.md_lg.val();
            // Reduction type (golden `TensorMap::reduce_type`): the map's type, else the
            // unsigned (bitwise op: bit) type of a 4- or 8-byte element.
            self.m_rtype.d.next = bit_cast::<4, 32>(self.md_type.val() - 1);
            self.m_rtype_ok.d.next = true;
            if self.md_type.val() == 0 {
                if self.md_eb.val() == 4 {
                    self.m_rtype.d.next = self.dt_u32.val();
                    if self.t_bitwise_sh.val() != 0 {
                        self.m_rtype.d.next = self.dt_b32.val();
                    }
                } else if self.md_eb.val() == 8 {
                    self.m_rtype.d.next = self.dt_u64.val();
                    if self.t_bitwise_sh.val() != 0 {
                        self.m_rtype.d.next = self.dt_b64.val();
                    }
                } else {
                    self.m_rtype_ok.d.next = false;
                }
            }
            self.m_fill.d.next = self.m_raw.val().get_bit(96);
            // Unused dimensions: coordinate 0, box 1, size 1.
            self.m_c.d.next = (bit_cast::<160, 128>(self.cur_a.q.val())
                | (bit_cast::<160, 64>(self.cur_b.q.val() & self.k_u32_mask.val()) << 128))
                & !(self.k_ones160.val() << (bit_cast::<16, 32>(self.md_dims.val()) << 5));
            self.m_box.d.next = (self.m_raw.val().get_bits::<160>(352)
                & !(self.k_ones160.val() << (bit_cast::<16, 32>(self.md_dims.val()) << 5)))
                | (self.k_one_pat.val() & (self.k_ones160.val() << (bit_cast::<16, 32>(self.md_dims.val()) << 5)));
            self.m_size.d.next = (self.m_raw.val().get_bits::<160>(192)
                & !(self.k_ones160.val() << (bit_cast::<16, 32>(self.md_dims.val()) << 5)))
                | (self.k_one_pat.val() & (self.k_ones160.val() << (bit_cast::<16, 32>(self.md_dims.val()) << 5)));
            self.m_stride.d.next = self.m_raw.val().get_bits::<256>(512);
            self.state.d.next = 4.into();
        }
        // State MUL's arithmetic (see [`TensorOrigin`]): started as the map's decode is registered
        // (dimension 1's operands from the map itself, the rest from the registers it fills).
        self.origin.start.next = (self.state.q.val() == 3) & (self.tm_got.q.val() == self.tm_beats.q.val());
        // Its operands straight from the map's registers (the origin takes them only with
        // `start`), not gated by MAP's last cycle as the decode is: the data then waited for
        // `start`'s decode and met it again at the origin's registers (the unit's limiting path).
        self.origin.base.next = self.m_raw.val().get_bits::<64>(128);
        self.origin.box0.next = self.m_raw.val().get_bits::<32>(352);
        self.origin.s1.next = self.m_raw.val().get_bits::<64>(512);
        self.origin.x1.next = 0.into();
        if self.m_raw.val().get_bits::<32>(32) >= 2 {
            self.origin.x1.next = self.cur_a.q.val().get_bits::<32>(32);
        }
        self.origin.coords.next = self.m_c.q.val().get_bits::<96>(64);
        self.origin.strides.next = self.m_stride.q.val().get_bits::<192>(64);
        self.origin.boxes.next = self.m_box.q.val().get_bits::<128>(32);
        self.origin.lg.next = self.m_lg.q.val();
        if self.mover.map_issued.val() {
            self.tm_issued.d.next = self.tm_issued.q.val() + 1;
            self.tm_addr.d.next = self.tm_addr.q.val() + self.k_b64.val();
        }
        // The map checks left out of MAP's last cycle (its limiting path), from the registered
        // decode: box0's bytes a multiple of 16 (PTX ISA §5.5.1), box0 within the swizzle span
        // (32 / 64 / 128 bytes = (m_swz + 1) * 16, compared in elements so nothing overflows;
        // PTX ISA §5.5.7), and an im2col map's own fields. MUL lasts 6 cycles, so m_err is whole
        // before CHECK reads it.
        self.m_late_err.next = (((self.m_box.q.val().get_bits::<32>(0) << self.m_lg.q.val()) & 15) != 0)
            | ((self.m_swz.q.val() != 0)
                & (self.m_box.q.val().get_bits::<32>(0)
                    > (((bit_cast::<32, 3>(self.m_swz.q.val()) + 1) << 4) >> self.m_lg.q.val())))
            | (self.m_im2col.q.val() & self.m_imbad.q.val());
        if self.state.q.val() == 4 {
            self.m_err.d.next = self.m_err.q.val() | self.m_late_err.val();
            self.m_neg.d.next = (self.m_c.q.val() & self.k_sign_pat.val()).any();
            if self.origin.last.val() {
                self.state.d.next = 5.into();
            }
        }
        // An im2col load (PTX ISA §5.5.4): `imm2` = 1 on a load; a store is always tiled.
        self.t_err.next = self.e_none.val();
        self.t_wait.next = false;
        // Swizzled chunks of the box's last partial 128-byte line of shared memory (the golden
        // unit range-checks every swizzled chunk): chunks [lo, hi) of that line are covered by the
        // box [sw_a, sw_end), which the linear range check has already placed below shared_bytes.
        self.sw_a.next = self.dst_off.val();
        if self.dir.val() == self.dir_s2g.val() {
            self.sw_a.next = self.cur_addr.q.val();
        }
        self.ck_sw_a.d.next = self.sw_a.val();
        self.sw_end.next = self.ck_sw_a.q.val() + bit_cast::<64, 32>(self.origin.box_bytes.val());
        self.sw_lo_i.next = 0.into();
        if self.ck_sw_a.q.val() > self.k_tail_line.val() {
            self.sw_lo_i.next = bit_cast::<4, 64>((self.ck_sw_a.q.val() - self.k_tail_line.val()) >> 4);
        }
        self.sw_hi_i.next = 0.into();
        if self.sw_end.val() > self.k_tail_line.val() {
            self.sw_hi_i.next = bit_cast::<4, 64>((self.sw_end.val() - self.k_tail_line.val()) >> 4);
        }
        self.sw_cov.next = (self.k_one9.val() << self.sw_hi_i.val()) - (self.k_one9.val() << self.sw_lo_i.val());
        self.sw_badm.next = bit_cast::<8, 64>(self.k_swz_bad.val() >> (bit_cast::<16, 3>(self.m_swz.q.val()) << 3));
        self.sw_bad.next = (bit_cast::<8, 9>(self.sw_cov.val()) & self.sw_badm.val()).any();
        self.t_im2col_op.next = (self.dir.val() != self.dir_s2g.val()) & (self.c_imm2.val() == 1);
        self.ck_map_bad.d.next = !self.t_dir_ok.val() | (self.t_im2col_op.val() != self.m_im2col.q.val());
        self.ck_align.d.next = (self.cur_addr.q.val() & 15) != 0;
        self.ck_rank.d.next = self.dst_bad.val() | self.mb_bad.val();
        self.ck_mb_align.d.next = (self.mb_off_r.val() & 7) != 0;
        self.ck_mc.d.next =
            (self.c_flags.val() & self.f_multicast.val()).any() & (self.mc_mask.val() >= self.k_rank_limit.val());
        self.ck_red.d.next = (self.c_imm2.val() != 0) & !self.t_red_ok.val();
        self.ck_dst_hi.d.next = (self.dst_off.val() >> 18) != 0;
        self.ck_dst_lo.d.next = bit_cast::<18, 64>(self.dst_off.val() & 0x3_FFFF);
        if self.state.q.val() == 5 {
            // Golden order: the map's own checks and the direction, then the instruction's mode
            // against the map's (TensorMap); the RTL builds tile mode only, so an im2col load of
            // a valid im2col map is NotBuilt after the checks it shares with the golden unit,
            // never moved as a tile.
            if self.m_err.q.val() | self.origin.too_big.val() | self.ck_map_bad.q.val() {
                self.t_err.next = self.e_tensor_map.val();
            } else if self.t_im2col_op.val() {
                // The golden im2col load checks the shared address's alignment first, then the
                // filter base and offsets (TensorIm2col), which need the im2col walk.
                if self.ck_align.q.val() {
                    self.t_err.next = self.e_bulk_align.val();
                } else {
                    self.t_err.next = self.e_not_built.val();
                }
            } else if self.dir.val() == self.dir_s2g.val() {
                if self.m_neg.q.val() {
                    self.t_err.next = self.e_tensor_neg.val();
                } else if self.ck_align.q.val() {
                    self.t_err.next = self.e_bulk_align.val();
                } else if self.sh_over_addr_box.val() {
                    self.t_err.next = self.e_shared_range.val();
                } else if self.sw_bad.val() {
                    // a swizzled chunk of the source lands past the end of shared memory
                    self.t_err.next = self.e_shared_range.val();
                } else if self.ck_red.q.val() {
                    self.t_err.next = self.e_atom_type.val();
                }
            } else if self.ck_align.q.val() {
                self.t_err.next = self.e_bulk_align.val();
            } else if self.ck_rank.q.val() {
                self.t_err.next = self.e_shared_range.val();
            } else if self.ck_mb_align.q.val() {
                self.t_err.next = self.e_mb_align.val();
            } else if self.ck_mc.q.val() {
                self.t_err.next = self.e_shared_range.val();
            } else if self.sh_over_dst_box.val() {
                self.t_err.next = self.e_shared_range.val();
            } else if !(self.t_probe.q.val() & (self.lp_age.q.val() == 2)) {
                // The box's probe (loaded in CHECK's first cycle) is answered two cycles later.
                self.t_wait.next = true;
            } else if self.lv_bad.val() {
                self.t_err.next = self.lv_err.val();
            } else if self.sw_bad.val() {
                // a swizzled chunk of the destination lands past the end of shared memory
                self.t_err.next = self.e_shared_range.val();
            }
            self.err.next = self.t_err.val();
            if self.t_wait.val() {
                self.done.next = false;
            } else if self.err.val() != self.e_none.val() {
                self.done.next = true;
            } else if (self.dir.val() != self.dir_s2g.val())
                & (self.c_flags.val() & self.f_multicast.val()).any()
                & (self.mc_mask.val() == 0)
            {
                // Multicast to no CTA: nothing to move.
                self.done.next = true;
            } else {
                self.state.d.next = 6.into();
            }
            self.mc_left.d.next = bit_cast::<16, 64>(self.mc_mask.val());
            self.t_sdst.d.next = self.dst_off.val();
            if self.dir.val() == self.dir_s2g.val() {
                self.t_sdst.d.next = self.cur_addr.q.val();
            }
        }
        self.r_adv.next = false;
        self.t_slot.next = self.c_cta.val();
        if self.dst_cluster.val() {
            self.t_slot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.dst_rank.val());
        }
        self.t_mbslot.next = self.c_cta.val();
        if self.mb_cluster.val() {
            self.t_mbslot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.mb_rank.val());
        }
        if (self.c_flags.val() & self.f_multicast.val()).any() {
            self.t_slot.next = self.first_slot.val() + self.mc_rank.val();
            self.t_mbslot.next = self.first_slot.val() + self.mc_rank.val();
        }
        if self.state.q.val() == 6 {
            self.st_src_slot.next = self.c_cta.val();
            self.st_dst_slot.next = self.t_slot.val();
            self.st_mb_slot.next = self.t_mbslot.val();
            self.st_fill.next = self.m_fill.q.val();
            // The shared side (load destination, store source) of every row is swizzled.
            self.st_swz.next = self.m_swz.q.val();
            if self.dq_store.q.val() {
                // Store: the in-bounds run of the row, shared -> global; skip rows with none.
                self.st_src.next = self.t_sdst.q.val() + self.rows.pre.val();
                self.st_dst.next = self.rows.row_base.val() + self.rows.lo_bytes.val();
                self.st_len.next = bit_cast::<32, 64>(self.rows.dat.val());
                self.st_srem.next = bit_cast::<32, 64>(self.rows.dat.val());
                if self.rows.empty.val() {
                    self.r_adv.next = true;
                } else if self.dq_red_row.q.val() {
                    // Tensor reduce: the row goes through the reducer (state 7), which returns here.
                    if self.rd_drained.val() {
                        self.rd_enter_row.next = true;
                        self.r_adv.next = true;
                    }
                } else if self.can_start.val() {
                    self.start.next = true;
                    self.r_adv.next = true;
                }
            } else {
                // Load: whole row of fill, or fill prefix then data (+ fill suffix).
                self.st_src.next = self.rows.row_base.val() + self.rows.lo_bytes.val();
                self.st_dst.next = self.t_sdst.q.val();
                self.st_len.next = bit_cast::<32, 64>(self.rows.bytes.val());
                self.st_srem.next = 0.into();
                if !self.rows.empty.val() {
                    if !self.t_part.q.val() & !self.rows.pre_zero.val() {
                        self.st_len.next = bit_cast::<32, 64>(self.rows.pre.val());
                    } else {
                        self.st_dst.next = self.t_sdst.q.val() + self.rows.pre.val();
                        self.st_len.next = bit_cast::<32, 64>(self.rows.bytes.val() - self.rows.pre.val());
                        self.st_srem.next = bit_cast::<32, 64>(self.rows.dat.val());
                    }
                }
                self.st_tx_en.next = true;
                self.st_tx.next = self.origin.box_bytes.val();
                if self.rows.empty.val() | self.t_part.q.val() | self.rows.pre_zero.val() {
                    // This move ends the row; the box's last row carries the complete_tx.
                    self.st_has_mb.next = self.rows.last.val();
                    if self.can_start.val() {
                        self.start.next = true;
                        self.r_adv.next = true;
                    }
                } else if self.can_start.val() {
                    self.start.next = true;
                    self.t_part.d.next = true;
                }
            }
            if self.r_adv.val() {
                self.t_part.d.next = false;
                self.t_sdst.d.next = self.t_sdst.q.val() + self.rows.bytes.val();
                if self.rows.last.val() {
                    // Last row of the box: this destination is done (`rows` goes back to the
                    // box's first row for a multicast's next CTA).
                    self.t_sdst.d.next = self.dst_off.val();
                    self.mc_left.d.next = self.mc_left.q.val() & !self.mc_bit.val();
                    if self.dq_store.q.val()
                        | !(self.c_flags.val() & self.f_multicast.val()).any()
                        | ((self.mc_left.q.val() & !self.mc_bit.val()) == 0)
                    {
                        self.done.next = true;
                    }
                    if self.dq_store.q.val() {
                        // The store's bulk group ends at its last move.
                        self.rec_write.next = true;
                        self.new_b_last.next = self.issued_seq.q.val();
                        if self.start.val() {
                            self.new_b_last.next = self.issued_seq.q.val() + 1;
                        }
                    }
                }
            }
        }
        // The row walk's inputs: its first row in state 5, the next at each row's end (state 6).
        self.rows.clock.next = self.clock.val();
        self.rows.m_c.next = self.m_c.q.val();
        self.rows.m_box.next = self.m_box.q.val();
        self.rows.m_size.next = self.m_size.q.val();
        self.rows.m_stride.next = self.m_stride.q.val();
        self.rows.m_lg.next = self.m_lg.q.val();
        self.rows.origin.next = self.origin.addr.val();
        self.rows.init.next = self.state.q.val() == 5;
        self.rows.advance.next = self.r_adv.val();
        if self.state.q.val() == 5 {
            self.t_part.d.next = false;
        }
        // ================= reducer (state 7): cp.reduce.async.bulk and tensor-reduce rows =================
        // The `Reducer` block (reducer.rs) reduces one element at a time on a drained mover, so it
        // owns both memory ports while the controller is in state 7, and it finishes before the
        // request is answered. It latches its operands on entry: a bulk reduce's from DECIDE, or a
        // tensor-reduce row's in-bounds run from ROWS.
        self.reducer.reset.next = self.reset.val();
        self.reducer.active.next = self.state.q.val() == 7;
        self.reducer.enter.next = self.rd_enter.val() | self.rd_enter_row.val();
        self.reducer.in_src.next = self.cur_src.q.val();
        self.reducer.in_src_slot.next = self.c_cta.val();
        self.reducer.in_swz.next = 0.into();
        self.reducer.in_dst_gm.next = self.dir.val() == self.dir_s2g.val();
        self.reducer.in_dst.next = self.cur_addr.q.val();
        if self.dir.val() != self.dir_s2g.val() {
            self.reducer.in_dst.next = self.dst_off.val();
        }
        self.reducer.in_dst_slot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.dst_rank.val());
        self.reducer.in_bytes.next = bit_cast::<32, 64>(self.blen.val());
        self.reducer.in_lg.next =
            bit_cast::<3, 64>(self.k_dtype_lg.val() >> (bit_cast::<16, 4>(self.c_dtype.val()) << 2));
        self.reducer.in_op.next = self.c_sub.val();
        self.reducer.in_dtype.next = self.c_dtype.val();
        self.reducer.in_has_mb.next = self.dir.val() == self.dir_s2c.val();
        self.reducer.in_mb_slot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.mb_rank.val());
        self.reducer.in_mb_off.next = bit_cast::<SADDR_BITS, 64>(self.mb_off_r.val());
        self.reducer.in_row.next = false;
        self.reducer.in_last_row.next = false;
        if self.rd_enter.val() {
            self.state.d.next = 7.into();
        }
        if self.rd_enter_row.val() {
            // A tensor-store row's in-bounds run; the box's last row answers the request when
            // the reducer is done (its bulk-group record needs no update: nothing stays in flight).
            self.state.d.next = 7.into();
            self.reducer.in_src.next = self.t_sdst.q.val() + self.rows.pre.val();
            self.reducer.in_dst_gm.next = true;
            self.reducer.in_dst.next = self.rows.row_base.val() + self.rows.lo_bytes.val();
            self.reducer.in_dst_slot.next = self.c_cta.val();
            self.reducer.in_bytes.next = bit_cast::<32, 64>(self.rows.dat.val());
            self.reducer.in_lg.next = self.m_lg.q.val();
            self.reducer.in_op.next = bit_cast::<4, 8>(self.t_red_op.val());
            self.reducer.in_dtype.next = self.m_rtype.q.val();
            self.reducer.in_has_mb.next = false;
            self.reducer.in_row.next = true;
            self.reducer.in_last_row.next = self.done.val();
            // The row's source is read through the map's swizzle (PTX ISA §5.5.7).
            self.reducer.in_swz.next = self.m_swz.q.val();
            self.done.next = false;
            self.rec_write.next = false;
        }
        self.reducer.sm_rgrant.next = self.sm_rgrant.val();
        self.reducer.sm_wgrant.next = self.sm_wgrant.val();
        self.reducer.gm_grant.next = self.gm_grant.val();
        self.reducer.gm_rvalid.next = self.gm_rvalid.val();
        self.reducer.sm_rdata.next = self.sm_rdata.val();
        self.reducer.gm_rdata.next = self.gm_rdata.val();
        // The element is the atomic ALU's, lent while the reducer's COMBINE asks for it.
        self.elem_req.next = self.reducer.elem_req.val();
        self.elem_op.next = self.reducer.elem_op.val();
        self.elem_dtype.next = self.reducer.elem_dtype.val();
        self.elem_r.next = self.reducer.elem_r.val();
        self.elem_s.next = self.reducer.elem_s.val();
        self.reducer.elem_grant.next = self.elem_grant.val();
        self.reducer.elem_value.next = bit_cast::<64, ELEM_BITS>(self.elem_value.val());
        if self.reducer.done.val() {
            if self.reducer.answer.val() {
                self.done.next = true;
            } else {
                self.state.d.next = 6.into();
            }
        }
        if self.done.val() & (self.state.q.val() > 2) {
            self.state.d.next = 0.into();
        }

        // Thread-table write-back.
        self.trec.write_enable.next = self.rec_write.val() & !self.reset.val();
        self.trec.write_data.next = bit_cast::<REC_BITS, SEQ_BITS>(self.new_a_last.val())
            | (bit_cast::<REC_BITS, 128>(self.new_a_ring.val()) << 32)
            | (bit_cast::<REC_BITS, SEQ_BITS>(self.new_b_last.val()) << 160)
            | (bit_cast::<REC_BITS, 128>(self.new_b_ring.val()) << 192);

        // State transitions.
        if self.state.q.val() == 0 {
            if self.q.ready.val() {
                self.cur_ctl.d.next = self.q.dout.val().get_bits::<64>(0);
                self.cur_addr.d.next = self.q.dout.val().get_bits::<64>(64);
                self.cur_src.d.next = self.q.dout.val().get_bits::<64>(128);
                self.cur_mbar.d.next = self.q.dout.val().get_bits::<64>(192);
                self.cur_a.d.next = self.q.dout.val().get_bits::<128>(256);
                self.cur_b.d.next = self.q.dout.val().get_bits::<64>(384);
                self.cur_c.d.next = self.q.dout.val().get_bits::<32>(448);
                self.cur_tag.d.next = self.q.dout.val().get_bits::<64>(480);
                self.state.d.next = 1.into();
            }
        } else if self.state.q.val() == 1 {
            // The address is on the RAM in the first cycle, its data in `rec_q` after the second.
            self.fetch_wait.d.next = !self.fetch_wait.q.val();
            if self.fetch_wait.q.val() {
                self.state.d.next = 2.into();
            }
        } else if self.state.q.val() == 2 {
            if self.is_tensor.val() & self.k_tensor_built.val() {
                // Tensor: fetch the map (the port-aligned beats covering its 128 bytes).
                self.state.d.next = 3.into();
                self.tm_addr.d.next = self.cur_src.q.val() & !self.k_bmask.val();
                self.tm_beats.d.next =
                    bit_cast::<8, 64>(((self.cur_src.q.val() & self.k_bmask.val()) + 127) >> self.k_log_b.val()) + 1;
                self.tm_issued.d.next = 0.into();
                self.tm_got.d.next = 0.into();
                self.tm_prime.d.next = (self.cur_src.q.val() & self.k_bmask.val()) != 0;
            }
            if self.is_wait.val() & (self.c_imm2.val() == 1) & !self.oldest_incomplete.val() {
                // The commit of wait_all is written; re-read the record as wait_group 0.
                self.cur_ctl.d.next = self.cur_ctl.q.val() & self.k_ctl_no_imm.val();
                self.state.d.next = 1.into();
            }
            // `sent` is set before `done` clears it: a lane that sends its issue event and
            // finishes in the same cycle must leave `sent` low for the next lane (otherwise
            // that lane finishes without its event and its arrive-on is lost).
            if self.ctl_mb_go.val() {
                self.ctl_mb_sent.d.next = true;
            }
            if self.done.val() {
                self.state.d.next = 0.into();
                self.mc_started.d.next = false;
                self.ctl_mb_sent.d.next = false;
            } else if self.rec_write.val() {
                // A started cp.async/bulk store has updated the record: re-read it.
                self.state.d.next = 1.into();
            }
        }

        // Responses (registered).
        self.r_valid.d.next = self.done.val() & (self.state.q.val() > 1) & !self.reset.val();
        self.r_cta.d.next = self.c_cta.val();
        self.r_warp.d.next = self.c_warp.val();
        self.r_lane.d.next = self.c_lane.val();
        self.r_error.d.next = self.err.val();
        self.resp_valid.next = self.r_valid.q.val();
        self.resp_cta.next = self.r_cta.q.val();
        self.resp_warp.next = self.r_warp.q.val();
        self.resp_lane.next = self.r_lane.q.val();
        self.resp_error.next = self.r_error.q.val();

        // ================= mbarrier event port =================
        self.mb_valid.next = self.answers.room.val()
            & (self.comp_q.ready.val() | (self.comp_q.empty.val() & (self.arr_ready.val() | self.ctl_mb_want.val())));
        self.mb_op.next = self.op_cparrive.val();
        self.mb_flags.next = self.c_flags.val();
        self.cpa_slot.next = self.c_cta.val();
        if self.mb_cluster.val() {
            self.cpa_slot.next = self.first_slot.val() + bit_cast::<SLOT_BITS, 64>(self.mb_rank.val());
        }
        self.mb_slot.next = self.cpa_slot.val();
        self.mb_addr.next = self.mb_off_r.val();
        self.mb_a.next = 0.into();
        if self.comp_q.ready.val() {
            self.mb_op.next = self.op_mb_complete_tx.val();
            self.mb_flags.next = 0.into();
            self.mb_slot.next = self.comp_q.dout.val().get_bits::<SLOT_BITS>(0);
            self.mb_addr.next = bit_cast::<64, SADDR_BITS>(self.comp_q.dout.val().get_bits::<SADDR_BITS>(5));
            self.mb_a.next = bit_cast::<64, 32>(self.comp_q.dout.val().get_bits::<32>(29));
        } else if self.arr_ready.val() {
            self.mb_op.next = self.op_mb_arrive.val();
            self.mb_flags.next = 0.into();
            self.mb_slot.next = self.arrive_q.dout.val().get_bits::<SLOT_BITS>(0);
            self.mb_addr.next = bit_cast::<64, SADDR_BITS>(self.arrive_q.dout.val().get_bits::<SADDR_BITS>(5));
            self.mb_a.next = 1.into();
        }
        self.comp_q.pop.next = self.comp_go.val();
        self.arrive_q.pop.next = self.arr_go.val();
        // Whose each event is, for its answer (complete_tx and arrive-on: the op's identity).
        self.answers.take.next = self.comp_go.val() | self.arr_go.val() | self.ctl_mb_go.val();
        self.answers.take_late.next = self.comp_go.val() | self.arr_go.val();
        self.answers.take_ident.next = self.arrive_q.dout.val().get_bits::<IDENT_BITS>(61);
        if self.comp_go.val() {
            self.answers.take_ident.next = self.comp_q.dout.val().get_bits::<IDENT_BITS>(61);
        }
        self.answers.mb_resp_valid.next = self.mb_resp_valid.val();
        self.answers.mb_resp_error.next = self.mb_resp_error.val();
        self.answers.late_ready.next = self.late_ready.val();
        self.late_valid.next = self.answers.late_valid.val();
        self.late_tag.next = self.answers.late_ident.val().get_bits::<64>(0);
        self.late_cta.next = self.answers.late_ident.val().get_bits::<SLOT_BITS>(64);
        self.late_warp.next = self.answers.late_ident.val().get_bits::<WARP_BITS>(69);
        self.late_lane.next = self.answers.late_ident.val().get_bits::<LANE_BITS>(74);
        self.late_error.next = self.answers.late_error.val();
        // The arrive-on is queued once the issue-time event is answered without error; it waits
        // for every move issued so far (including a cp.async started now: the controller has
        // started nothing since the event, it was waiting for the answer).
        self.arrive_q.push.next =
            self.answers.issue_answer.val() & (self.answers.issue_error.val() == self.e_none.val());
        self.arrive_q.din.next = bit_cast::<140, SLOT_BITS>(self.cpa_slot.val())
            | (bit_cast::<140, SADDR_BITS>(bit_cast::<SADDR_BITS, 64>(self.mb_off_r.val())) << 5)
            | (bit_cast::<140, SEQ_BITS>(self.issued_seq.q.val()) << 29)
            | (bit_cast::<140, IDENT_BITS>(self.ident.val()) << 61);

        // ================= mover (its own block, `Mover` in copy_engine/mover.rs) =================
        // The op identity of the move starting now (for its complete_tx's late error).
        self.move_ident.write_clock.next = self.clock.val();
        self.move_ident.read_clock.next = self.clock.val();
        self.move_ident.write_enable.next = self.start.val();
        self.move_ident.write_address.next = bit_cast::<5, SEQ_BITS>(self.issued_seq.q.val() + 1);
        self.move_ident.write_data.next = self.ident.val();
        // Moves complete in order: the next to complete is number completed_seq + 1 (an address
        // from a register, so the RAM's read is not behind the completion logic).
        self.move_ident.read_address.next = bit_cast::<5, SEQ_BITS>(self.completed_seq.q.val() + 1);
        // The controller's move goes into the mover's staging register.
        self.mover.reset.next = self.reset.val();
        self.mover.start.next = self.start.val();
        self.mover.st_src_gm.next = self.st_src_gm.val();
        self.mover.st_dst_gm.next = self.st_dst_gm.val();
        self.mover.st_src_slot.next = self.st_src_slot.val();
        self.mover.st_dst_slot.next = self.st_dst_slot.val();
        self.mover.st_src.next = self.st_src.val();
        self.mover.st_dst.next = self.st_dst.val();
        self.mover.st_len.next = self.st_len.val();
        self.mover.st_srem.next = self.st_srem.val();
        self.mover.st_mask_en.next = self.st_mask_en.val();
        self.mover.st_mask.next = bit_cast::<16, 32>(self.cur_c.q.val());
        self.mover.st_seq.next = self.issued_seq.q.val() + 1;
        self.mover.st_has_mb.next = self.st_has_mb.val();
        self.mover.st_mb_slot.next = self.st_mb_slot.val();
        self.mover.st_mb_off.next = self.st_mb_off.val();
        self.mover.st_tx.next = self.st_len.val();
        if self.st_tx_en.val() {
            self.mover.st_tx.next = self.st_tx.val();
        }
        self.mover.st_swz.next = self.st_swz.val();
        self.mover.st_fill.next = self.st_fill.val();
        if self.start.val() {
            self.issued_seq.d.next = self.issued_seq.q.val() + 1;
        }
        // Tensor-map reads go through the mover's read queue (state 3, beats left to read).
        self.mover.map_rd.next = (self.state.q.val() == 3) & (self.tm_issued.q.val() != self.tm_beats.q.val());
        self.mover.map_addr.next = self.tm_addr.q.val();
        // The memory ports are the mover's unless the reducer's (below).
        self.mover.gm_grant.next = self.gm_grant.val();
        self.mover.gm_rvalid.next = self.gm_rvalid.val();
        self.mover.gm_rdata.next = self.gm_rdata.val();
        self.mover.sm_rgrant.next = self.sm_rgrant.val();
        self.mover.sm_wgrant.next = self.sm_wgrant.val();
        self.mover.sm_rdata.next = self.sm_rdata.val();
        self.gm_req.next = self.mover.gm_req.val();
        self.gm_we.next = self.mover.gm_we.val();
        self.gm_addr.next = self.mover.gm_addr.val();
        self.gm_wdata.next = self.mover.gm_wdata.val();
        self.gm_be.next = self.mover.gm_be.val();
        self.gm_rready.next = self.mover.gm_rready.val();
        self.sm_re.next = self.mover.sm_re.val();
        self.sm_rwant.next = self.rwant_q.q.val();
        self.sm_rslot.next = self.mover.sm_rslot.val();
        self.sm_raddr.next = self.mover.sm_raddr.val();
        self.sm_we.next = self.mover.sm_we.val();
        self.sm_wslot.next = self.mover.sm_wslot.val();
        self.sm_waddr.next = self.mover.sm_waddr.val();
        self.sm_wdata.next = self.mover.sm_wdata.val();
        self.sm_be.next = self.mover.sm_be.val();
        // A map beat: bytes off..off+B of (this beat, the previous one) enter map_buf at the top.
        self.tm_off.next = bit_cast::<16, 64>(self.cur_src.q.val() & self.k_bmask.val());
        self.tm_aligned.next = self.mover.map_data.val();
        if self.tm_off.val() != 0 {
            self.tm_aligned.next = (self.tm_carry.q.val() >> (self.tm_off.val() << 3))
                | (self.mover.map_data.val() << (self.k_d16.val() - (self.tm_off.val() << 3)));
        }
        if self.mover.map_valid.val() {
            self.tm_carry.d.next = self.mover.map_data.val();
            self.tm_prime.d.next = false;
            if !self.tm_prime.q.val() {
                if self.k_map_one_beat.val() {
                    self.map_buf.d.next = bit_cast::<MAP_BITS, D>(self.tm_aligned.val());
                } else {
                    self.map_buf.d.next = (self.map_buf.q.val() >> self.k_d16.val())
                        | (bit_cast::<MAP_BITS, D>(self.tm_aligned.val()) << self.k_map_top.val());
                }
            }
            self.tm_got.d.next = self.tm_got.q.val() + 1;
        }

        // ================= completion =================
        // A move completes when its last beat is written (in issue order); a move with an
        // mbarrier queues its complete_tx(bytes) with the op's identity.
        if self.mover.done_valid.val() {
            self.completed_seq.d.next = self.mover.done_seq.val();
        }
        self.comp_q.push.next = self.mover.tx_valid.val();
        self.comp_q.din.next = bit_cast::<140, SLOT_BITS>(self.mover.tx_slot.val())
            | (bit_cast::<140, SADDR_BITS>(self.mover.tx_off.val()) << 5)
            | (bit_cast::<140, 32>(self.mover.tx_bytes.val()) << 29)
            | (bit_cast::<140, IDENT_BITS>(self.move_ident.read_data.val()) << 61);

        // ================= reducer ports (state 7 owns both memory ports) =================
        if self.reducer.sm_read.val() {
            self.sm_re.next = true;
            self.sm_rslot.next = self.reducer.rslot.val();
            self.sm_raddr.next = bit_cast::<SADDR_BITS, 64>(self.reducer.addr.val());
        }
        if self.reducer.gm_read.val() {
            self.gm_req.next = true;
            self.gm_we.next = false;
            self.gm_addr.next = self.reducer.addr.val();
        }
        if self.reducer.gm_wait.val() {
            self.gm_rready.next = true;
        }
        if self.reducer.gm_write.val() {
            self.gm_req.next = true;
            self.gm_we.next = true;
            self.gm_addr.next = self.reducer.addr.val();
            self.gm_wdata.next = self.reducer.wdata.val();
            self.gm_be.next = self.reducer.wbe.val();
        }
        if self.reducer.sm_write.val() {
            self.sm_we.next = self.sm_wgrant.val() & !self.reset.val();
            self.sm_wslot.next = self.reducer.wslot.val();
            self.sm_waddr.next = bit_cast::<SADDR_BITS, 64>(self.reducer.addr.val());
            self.sm_wdata.next = self.reducer.wdata.val();
            self.sm_be.next = self.reducer.wbe.val();
        }
        // The shared::cluster reduce completes into its mbarrier like a bulk copy.
        if self.reducer.mb_event.val() {
            self.comp_q.push.next = true;
            self.comp_q.din.next = bit_cast::<140, SLOT_BITS>(self.reducer.mb_slot.val())
                | (bit_cast::<140, SADDR_BITS>(self.reducer.mb_off.val()) << 5)
                | (bit_cast::<140, 32>(self.reducer.mb_bytes.val()) << 29)
                | (bit_cast::<140, IDENT_BITS>(self.ident.val()) << 61);
        }

        self.busy.next = !self.q.empty.val()
            | (self.state.q.val() != 0)
            | (self.mover.count.val() != 0)
            | !self.comp_q.empty.val()
            | !self.arrive_q.empty.val()
            | self.answers.busy.val();

        if self.reset.val() {
            self.state.d.next = 0.into();
            self.fetch_wait.d.next = false;
            self.issued_seq.d.next = 0.into();
            self.completed_seq.d.next = 0.into();
            self.mc_started.d.next = false;
            self.ctl_mb_sent.d.next = false;
        }
        // The read want of the next cycle (after every assignment of the state's next value).
        self.reducer.active_next.next = self.state.d.val() == 7;
        self.rwant_q.d.next = self.mover.sm_rwant_next.val() | self.reducer.sm_read_next.val();
    }
}

/// Verilog of the copy engine for `config` (top module `module`): picks the instance whose port
/// width is `config.copy_port_bytes` and whose thread table fits.
pub fn copy_engine_verilog(config: &Config, module: &str) -> Result<String, crate::common::VerilogError> {
    use crate::common::try_verilog_named;
    let bad = |m: String| crate::common::VerilogError { module: module.into(), message: m };
    if thread_bits(config) > 15 {
        return Err(bad(format!("thread table needs {} address bits (max 15)", thread_bits(config))));
    }
    macro_rules! inst {
        ($d:expr, $b:expr) => {{
            let mut e = CopyEngine::<$d, $b, 15>::new(config);
            try_verilog_named(&mut e, module)
        }};
    }
    match config.copy_port_bytes {
        4 => inst!(32, 4),
        8 => inst!(64, 8),
        16 => inst!(128, 16),
        32 => inst!(256, 32),
        64 => inst!(512, 64),
        128 => inst!(1024, 128),
        other => Err(bad(format!("copy_port_bytes = {other} is not one of 4, 8, 16, 32, 64, 128"))),
    }
}
