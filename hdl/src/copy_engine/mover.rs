//! The copy engine's mover: splits each move into port beats, reads them, forms them and writes
//! them, and reports each move's completion.
//!
//! A "move" is a run of `len` bytes from a source (global memory, or shared memory of CTA slot
//! `src_slot`) to a destination (shared memory of CTA slot `dst_slot`, or global memory), whose
//! first `srem` bytes come from the source and the rest are fill (zero, or all-ones with `fill`):
//! one cp.async (PTX ISA §9.7.9.25.3), one bulk copy or one multicast destination of it (PTX ISA
//! §9.7.9.25.4), or one box row, fill prefix or suffix of a tensor copy (PTX ISA §9.7.9.25.5).
//! The controller (`CopyEngine`) decides what to move and when; this block moves it.
//!
//! ```text
//!  start, st_*  -> staging register nx_* (one move)                            [the boundary register]
//!               -> current move o_* (loaded when idle or on the current move's last beat)
//!  beat arithmetic: b_n = min(bytes left, room to the source's and the destination's port
//!    boundary, the swizzle chunk), the rotation k, last beat
//!  global source: read request on gm_* (<= PEND_DEPTH in flight, descriptor FIFO `pend`);
//!  shared source: sm_r* (data the next cycle, descriptor in s1_*), registered in s2_*
//!  arrival: rotate the bytes into destination position, byte enables (.cp_mask), fill
//!    -> shared destination: sm_w* now;  global destination: write queue (WQ_DEPTH) -> gm_* with gm_we
//!  the move's last beat written -> done_valid / done_seq, and tx_* if it has an mbarrier
//! ```
//!
//! # Port contract
//!
//! * **Start.** `start` takes the move `st_*` into the staging register. The controller raises it
//!   only while `staged` is low (one move staged at a time) and fewer than `COMP_DEPTH` moves are
//!   in flight with their complete_tx events (`count` plus the engine's complete_tx queue). The
//!   staged move becomes the current one at the next edge if the mover is idle, else at the edge
//!   after the current move's last beat is issued, so moves stream back to back. `start` must
//!   not be raised for a move of another kind than the previous one (`prev_src_gm`,
//!   `prev_dst_gm`) before `count` is 0: moves complete in issue order only within a kind
//!   (global-source moves share the read queue; shared -> global moves share the write queue).
//!   `st_seq` is the move's sequence number (one more than the previous move's); `st_tx` its
//!   complete_tx byte count (`st_len` except for a tensor box's last move, which carries the
//!   box's bytes); `st_swz` the swizzle of its shared side as (lines per pattern - 1) (PTX ISA
//!   §5.5.7); `st_mask` the `.cp_mask` bits when `st_mask_en` (byte at global address a written
//!   iff bit a mod 16; PTX ISA §9.7.9.25.4.1). Addresses and ranges are checked by the
//!   controller before the start, not here.
//! * **Completion.** Moves complete in issue order: `done_valid` for one cycle with the move's
//!   number `done_seq` when its last beat is written (to shared memory, or taken by the global
//!   port). With it, `tx_valid` if the move has an mbarrier: complete_tx(`tx_bytes`) on the
//!   mbarrier at shared offset `tx_off` of slot `tx_slot` (PTX ISA §9.7.9.25.4, the mbarrier
//!   completion mechanism). The engine queues the event; the mover does not wait for it.
//! * **Tensor-map reads.** While `map_rd`, one port word at `map_addr` is read when the global
//!   port is free and no move is staged or being issued (`map_issued` this cycle). The read goes
//!   through the descriptor queue, so it follows the reads of earlier moves; its data leaves on
//!   `map_valid` / `map_data` (nothing is written).
//! * **Global port** `gm_*`: one request per cycle (`gm_req`, taken when `gm_grant`); queued
//!   writes before reads; `gm_addr` port-aligned; reads answered in order after >= 1 cycle on
//!   `gm_rvalid`, taken when `gm_rready` (a beat without source bytes needs no read and retires
//!   from the descriptor queue alone).
//! * **Shared port** `sm_*`: a shared-source beat reads when `sm_rgrant` (`sm_rwant` says it
//!   would, from registers), data in `sm_rdata` the next cycle (registered here; the beat is
//!   formed and written the cycle after); shared writes need no grant.
//! * The engine's reducer owns both ports while the controller is in its state 7, which it
//!   enters only with `active` low and `count` 0 (so nothing staged either): the engine
//!   overrides these ports then, and this block issues nothing.
//! * `reset` empties the mover (no move staged, active or counted). `moves` and the queues are
//!   this block's: `count` is the moves started and not completed.

use super::fifo::{FifoCtl, FifoStore, RamFifo};
use super::{BEAT_BITS, PEND_DEPTH, SADDR_BITS, SEQ_BITS, SLOT_BITS, WQ_DEPTH};
use rust_hdl::prelude::*;

// Descriptor layout of a beat in flight (pend / s1 / completion), 191 bits:
//   [0..5) dst slot  [5..29) dst shared offset (port-aligned)  [29..45) rotate k  [45..61) d
//   [61..77) n  [77..93) nsrc  [93] last  [94..126) seq  [126] has_mb  [127..132) mb slot
//   [132..156) mb offset  [156..188) move length (complete_tx bytes)  [188] no data (fill without
//   a read)  [189] fill with all-ones bytes (tensor oob_fill = 1)  [190] tensor-map beat (its data
//   leaves on map_data, nothing written)

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

/// The mover of a copy engine with a `D`-bit global/shared data port of `B` bytes (`D = 8 * B`).
#[derive(LogicBlock)]
pub struct Mover<const D: usize, const B: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // ---- start: the controller's move (see the port contract) ----
    pub start: Signal<In, Bit>,
    /// Source in global memory (else shared memory of `st_src_slot`); destination likewise.
    pub st_src_gm: Signal<In, Bit>,
    pub st_dst_gm: Signal<In, Bit>,
    pub st_src_slot: Signal<In, Bits<SLOT_BITS>>,
    pub st_dst_slot: Signal<In, Bits<SLOT_BITS>>,
    /// First source / destination byte: a global address or a shared offset.
    pub st_src: Signal<In, Bits<64>>,
    pub st_dst: Signal<In, Bits<64>>,
    /// Bytes to write, and of them the first `st_srem` from the source (the rest fill).
    pub st_len: Signal<In, Bits<32>>,
    pub st_srem: Signal<In, Bits<32>>,
    pub st_mask_en: Signal<In, Bit>,
    pub st_mask: Signal<In, Bits<16>>,
    pub st_seq: Signal<In, Bits<SEQ_BITS>>,
    pub st_has_mb: Signal<In, Bit>,
    pub st_mb_slot: Signal<In, Bits<SLOT_BITS>>,
    pub st_mb_off: Signal<In, Bits<SADDR_BITS>>,
    pub st_tx: Signal<In, Bits<32>>,
    pub st_swz: Signal<In, Bits<3>>,
    /// Fill bytes are all-ones (tensor oob_fill = 1), else zero.
    pub st_fill: Signal<In, Bit>,
    // ---- state the controller decides on ----
    /// A move waits in the staging register.
    pub staged: Signal<Out, Bit>,
    /// A move is being issued.
    pub active: Signal<Out, Bit>,
    /// Moves started and not yet completed (the staged one included).
    pub count: Signal<Out, Bits<9>>,
    /// The kind of the last move started: global source, global destination.
    pub prev_src_gm: Signal<Out, Bit>,
    pub prev_dst_gm: Signal<Out, Bit>,
    // ---- completion ----
    pub done_valid: Signal<Out, Bit>,
    pub done_seq: Signal<Out, Bits<SEQ_BITS>>,
    pub tx_valid: Signal<Out, Bit>,
    pub tx_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub tx_off: Signal<Out, Bits<SADDR_BITS>>,
    pub tx_bytes: Signal<Out, Bits<32>>,
    // ---- tensor-map reads ----
    pub map_rd: Signal<In, Bit>,
    pub map_addr: Signal<In, Bits<64>>,
    pub map_issued: Signal<Out, Bit>,
    pub map_valid: Signal<Out, Bit>,
    pub map_data: Signal<Out, Bits<D>>,
    // ---- global-memory port ----
    pub gm_req: Signal<Out, Bit>,
    pub gm_grant: Signal<In, Bit>,
    pub gm_we: Signal<Out, Bit>,
    pub gm_addr: Signal<Out, Bits<64>>,
    pub gm_wdata: Signal<Out, Bits<D>>,
    pub gm_be: Signal<Out, Bits<B>>,
    pub gm_rvalid: Signal<In, Bit>,
    pub gm_rready: Signal<Out, Bit>,
    pub gm_rdata: Signal<In, Bits<D>>,
    // ---- shared-memory port ----
    pub sm_re: Signal<Out, Bit>,
    /// The next cycle's read want (`o_active & !o_src_gm & b_room` from the registers' next
    /// values), for the engine's registered `sm_rwant`.
    pub sm_rwant_next: Signal<Out, Bit>,
    pub sm_rgrant: Signal<In, Bit>,
    pub sm_rslot: Signal<Out, Bits<SLOT_BITS>>,
    pub sm_raddr: Signal<Out, Bits<SADDR_BITS>>,
    pub sm_rdata: Signal<In, Bits<D>>,
    pub sm_we: Signal<Out, Bit>,
    /// A write made now may go to shared memory (its registered write does not meet a write of
    /// higher priority next cycle; the top's mbarrier ALU announces its own a cycle ahead). A
    /// beat without source data (a fill-only beat) waits for it; a global-source beat is held
    /// back the same way through `gm_rvalid`, and a shared-source beat by its read's grant.
    pub sm_wgrant: Signal<In, Bit>,
    pub sm_wslot: Signal<Out, Bits<SLOT_BITS>>,
    pub sm_waddr: Signal<Out, Bits<SADDR_BITS>>,
    pub sm_wdata: Signal<Out, Bits<D>>,
    pub sm_be: Signal<Out, Bits<B>>,
    // ---- the move staged between the controller and the mover ----
    /// The next move (`nx_valid`): the controller starts a move into it while the mover works on
    /// the current one, and the mover takes it at its last beat, so neither side's decision
    /// waits on the other's in one cycle.
    nx_valid: DFF<Bit>,
    nx_src_gm: DFF<Bit>,
    nx_dst_gm: DFF<Bit>,
    nx_src_slot: DFF<Bits<SLOT_BITS>>,
    nx_dst_slot: DFF<Bits<SLOT_BITS>>,
    nx_src: DFF<Bits<64>>,
    nx_dst: DFF<Bits<64>>,
    nx_rem: DFF<Bits<32>>,
    nx_srem: DFF<Bits<32>>,
    nx_mask_en: DFF<Bit>,
    nx_mask: DFF<Bits<16>>,
    nx_seq: DFF<Bits<SEQ_BITS>>,
    nx_has_mb: DFF<Bit>,
    nx_mb_slot: DFF<Bits<SLOT_BITS>>,
    nx_mb_off: DFF<Bits<SADDR_BITS>>,
    nx_len: DFF<Bits<32>>,
    nx_swz: DFF<Bits<3>>,
    nx_fill: DFF<Bit>,
    mv_load: Signal<Local, Bit>,
    // ---- the move being split into beats ----
    o_active: DFF<Bit>,
    o_src_gm: DFF<Bit>,
    o_dst_gm: DFF<Bit>,
    o_src_slot: DFF<Bits<SLOT_BITS>>,
    o_dst_slot: DFF<Bits<SLOT_BITS>>,
    o_src: DFF<Bits<64>>,
    o_dst: DFF<Bits<64>>,
    o_rem: DFF<Bits<32>>,
    o_srem: DFF<Bits<32>>,
    o_mask_en: DFF<Bit>,
    o_mask: DFF<Bits<16>>,
    o_seq: DFF<Bits<SEQ_BITS>>,
    o_has_mb: DFF<Bit>,
    o_mb_slot: DFF<Bits<SLOT_BITS>>,
    o_mb_off: DFF<Bits<SADDR_BITS>>,
    o_len: DFF<Bits<32>>,
    /// Swizzle pattern of the move's shared side, as (lines per pattern - 1): 0 none, 1 32B,
    /// 3 64B, 7 128B (tensor moves only; PTX ISA §5.5.7).
    o_swz: DFF<Bits<3>>,
    o_fill: DFF<Bit>,
    /// The swizzle line mask applied to the source / destination address (0 on the global side).
    sw_src_m: Signal<Local, Bits<3>>,
    sw_dst_m: Signal<Local, Bits<3>>,
    /// The shared addresses after the swizzle permutation (equal to o_src / o_dst unswizzled).
    o_src_p: Signal<Local, Bits<64>>,
    o_dst_p: Signal<Local, Bits<64>>,
    /// Bytes left in the swizzled side's 16-byte chunk (B when not swizzled), and the move's
    /// remaining bytes capped by it: a swizzled beat stays inside one chunk.
    sw_lim: Signal<Local, Bits<BEAT_BITS>>,
    /// The remaining counts as the beat arithmetic sees them: `*_hi` = the count is at least
    /// 2B, else `*_lo` is the count (its low bits). Every limit of a beat is at most B, so
    /// min(count, limit) and count <= limit need only these: 8-bit compares, not 32-bit chains.
    rem_hi: Signal<Local, Bit>,
    rem_lo: Signal<Local, Bits<BEAT_BITS>>,
    srem_hi: Signal<Local, Bit>,
    srem_lo: Signal<Local, Bits<BEAT_BITS>>,
    srem_nz: Signal<Local, Bit>,
    /// Source and destination kind of the last started move (moves of one kind may follow each
    /// other without drain).
    last_src_gm: DFF<Bit>,
    last_dst_gm: DFF<Bit>,
    /// Moves started and not yet completed.
    moves: DFF<Bits<9>>,
    // ---- beat arithmetic ----
    b_s: Signal<Local, Bits<BEAT_BITS>>,
    b_d: Signal<Local, Bits<BEAT_BITS>>,
    b_n: Signal<Local, Bits<BEAT_BITS>>,
    b_nsrc: Signal<Local, Bits<BEAT_BITS>>,
    b_k: Signal<Local, Bits<BEAT_BITS>>,
    /// The beat's candidates (see where `b_n` is formed): bytes left, room to the destination's
    /// port boundary, room to the source's, source bytes left; and "the source runs out first".
    bc_r: Signal<Local, Bits<BEAT_BITS>>,
    bc_d: Signal<Local, Bits<BEAT_BITS>>,
    bc_s: Signal<Local, Bits<BEAT_BITS>>,
    bc_q: Signal<Local, Bits<BEAT_BITS>>,
    b_src_short: Signal<Local, Bit>,
    beat_last: Signal<Local, Bit>,
    b_go: Signal<Local, Bit>,
    /// A shared-source beat has room in the global write queue (or goes to shared memory).
    b_room: Signal<Local, Bit>,
    /// The write queue's count and `b_room` of the next cycle (for `sm_rwant_next`).
    wq_count_next: Signal<Local, Bits<9>>,
    room_next: Signal<Local, Bit>,
    b_read: Signal<Local, Bit>,
    gm_rd_want: Signal<Local, Bit>,
    gm_rd_go: Signal<Local, Bit>,
    gm_wr_go: Signal<Local, Bit>,
    last1: Signal<Local, Bits<1>>,
    nodata1: Signal<Local, Bits<1>>,
    hasmb1: Signal<Local, Bits<1>>,
    fill1: Signal<Local, Bits<1>>,
    map_want: Signal<Local, Bit>,
    map_go: Signal<Local, Bit>,
    // ---- global reads in flight: descriptor FIFO ----
    /// Distributed RAM: in block RAM with a bypass register (commit 2e79f33; 96 16x4 cells
    /// fewer) the RAM's clock-to-out (5.8 ns on the ECP5) headed the beat's rotation into the
    /// memory ports: 49.0 MHz placed alone, against 57.7 with this one.
    pend: RamFifo<191>,
    pend_in: Signal<Local, Bits<191>>,
    // ---- shared read in flight (1 cycle) ----
    s1_valid: DFF<Bit>,
    s1_desc: DFF<Bits<191>>,
    s1_dst_gm: DFF<Bit>,
    s1_mask_en: DFF<Bit>,
    s1_mask: DFF<Bits<16>>,
    s1_gaddr: DFF<Bits<64>>,
    // ---- shared read data registered (the s1 beat a cycle later) ----
    /// The shared RAM's row (its block RAM's clock-to-out, the write forwarding and the stale
    /// row's zeroing) is registered before the rotation, as the global read's is in `pend`:
    /// that path into the top's write register was the placed board top's longest after the
    /// lane sequencer's (26.6 ns by `scripts/logic-depth.py`). One cycle more per
    /// shared-source beat; one beat per cycle still.
    s2_valid: DFF<Bit>,
    s2_desc: DFF<Bits<191>>,
    s2_dst_gm: DFF<Bit>,
    s2_mask_en: DFF<Bit>,
    s2_mask: DFF<Bits<16>>,
    s2_gaddr: DFF<Bits<64>>,
    s2_data: DFF<Bits<D>>,
    // ---- beat formation (arrival) ----
    f_valid: Signal<Local, Bit>,
    f_desc: Signal<Local, Bits<191>>,
    f_data: Signal<Local, Bits<D>>,
    f_rot: Signal<Local, Bits<D>>,
    f_keep: Signal<Local, Bits<D>>,
    f_be: Signal<Local, Bits<B>>,
    f_be_raw: Signal<Local, Bits<B>>,
    f_pat: Signal<Local, Bits<128>>,
    f_pat16: Signal<Local, Bits<128>>,
    f_pat32: Signal<Local, Bits<128>>,
    f_pat64: Signal<Local, Bits<128>>,
    f_k: Signal<Local, Bits<16>>,
    f_d: Signal<Local, Bits<16>>,
    f_n: Signal<Local, Bits<16>>,
    f_nsrc: Signal<Local, Bits<16>>,
    /// The byte ranges' ends (`d + nsrc`, `d + n`), their guards, and the masks accumulated
    /// byte by byte (each Local written once: rust-hdl's simulator keeps a Local read back
    /// after its own assignment stale).
    f_end_src: Signal<Local, Bits<16>>,
    f_end: Signal<Local, Bits<16>>,
    f_keep_ok: Signal<Local, Bit>,
    f_be_ok: Signal<Local, Bit>,
    keep_acc: Vec<Signal<Local, Bits<D>>>,
    be_acc: Vec<Signal<Local, Bits<B>>>,
    /// Per byte j of the port word: j as a count, its bits in a word, its bit in a byte mask.
    byte_idx: Vec<Constant<Bits<16>>>,
    byte_bits: Vec<Constant<Bits<D>>>,
    byte_bit: Vec<Constant<Bits<B>>>,
    /// B and B - 1, as loop bounds (the last byte's accumulator is read from a one-element range).
    _bytes: usize,
    _last_byte: usize,
    f_last: Signal<Local, Bit>,
    flast1: Signal<Local, Bits<1>>,
    f_to_gm: Signal<Local, Bit>,
    f_mask_en: Signal<Local, Bit>,
    f_mask: Signal<Local, Bits<16>>,
    f_gaddr: Signal<Local, Bits<64>>,
    f_map: Signal<Local, Bit>,
    f_fill: Signal<Local, Bit>,
    // ---- global write queue (S -> G) ----
    wq_ctl: FifoCtl,
    wq_data: FifoStore<D>,
    wq_be: FifoStore<B>,
    wq_meta: FifoStore<97>,
    wq_empty: Signal<Local, Bit>,
    // ---- completion ----
    cmp_valid: Signal<Local, Bit>,
    cmp_seq: Signal<Local, Bits<SEQ_BITS>>,
    cmp_has_mb: Signal<Local, Bit>,
    // ---- constants ----
    k_pend_depth: Constant<Bits<9>>,
    k_wq_room: Constant<Bits<9>>,
    /// The room left for one / two shared-source beats already in s1 / s2.
    k_wq_room1: Constant<Bits<9>>,
    k_wq_room2: Constant<Bits<9>>,
    k_map_desc: Constant<Bits<191>>,
    /// 2B - 1: the low bits of a count that `*_lo` keeps.
    k_rem_lo: Constant<Bits<32>>,
    /// B > 16: a beat may span several 16-byte chunks, so swizzled beats are split at chunks.
    k_swz_split: Constant<Bit>,
    k_chunk: Constant<Bits<BEAT_BITS>>,
    k_bmask: Constant<Bits<64>>,
    k_port: Constant<Bits<BEAT_BITS>>,
    k_b16: Constant<Bits<16>>,
    k_d16: Constant<Bits<16>>,
}

impl<const D: usize, const B: usize> Default for Mover<D, B> {
    fn default() -> Self {
        Mover {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            st_src_gm: Default::default(),
            st_dst_gm: Default::default(),
            st_src_slot: Default::default(),
            st_dst_slot: Default::default(),
            st_src: Default::default(),
            st_dst: Default::default(),
            st_len: Default::default(),
            st_srem: Default::default(),
            st_mask_en: Default::default(),
            st_mask: Default::default(),
            st_seq: Default::default(),
            st_has_mb: Default::default(),
            st_mb_slot: Default::default(),
            st_mb_off: Default::default(),
            st_tx: Default::default(),
            st_swz: Default::default(),
            st_fill: Default::default(),
            staged: Default::default(),
            active: Default::default(),
            count: Default::default(),
            prev_src_gm: Default::default(),
            prev_dst_gm: Default::default(),
            done_valid: Default::default(),
            done_seq: Default::default(),
            tx_valid: Default::default(),
            tx_slot: Default::default(),
            tx_off: Default::default(),
            tx_bytes: Default::default(),
            map_rd: Default::default(),
            map_addr: Default::default(),
            map_issued: Default::default(),
            map_valid: Default::default(),
            map_data: Default::default(),
            gm_req: Default::default(),
            gm_grant: Default::default(),
            gm_we: Default::default(),
            gm_addr: Default::default(),
            gm_wdata: Default::default(),
            gm_be: Default::default(),
            gm_rvalid: Default::default(),
            gm_rready: Default::default(),
            gm_rdata: Default::default(),
            sm_re: Default::default(),
            sm_rwant_next: Default::default(),
            sm_rgrant: Default::default(),
            sm_rslot: Default::default(),
            sm_raddr: Default::default(),
            sm_rdata: Default::default(),
            sm_we: Default::default(),
            sm_wgrant: Default::default(),
            sm_wslot: Default::default(),
            sm_waddr: Default::default(),
            sm_wdata: Default::default(),
            sm_be: Default::default(),
            nx_valid: Default::default(),
            nx_src_gm: Default::default(),
            nx_dst_gm: Default::default(),
            nx_src_slot: Default::default(),
            nx_dst_slot: Default::default(),
            nx_src: Default::default(),
            nx_dst: Default::default(),
            nx_rem: Default::default(),
            nx_srem: Default::default(),
            nx_mask_en: Default::default(),
            nx_mask: Default::default(),
            nx_seq: Default::default(),
            nx_has_mb: Default::default(),
            nx_mb_slot: Default::default(),
            nx_mb_off: Default::default(),
            nx_len: Default::default(),
            nx_swz: Default::default(),
            nx_fill: Default::default(),
            mv_load: Default::default(),
            o_active: Default::default(),
            o_src_gm: Default::default(),
            o_dst_gm: Default::default(),
            o_src_slot: Default::default(),
            o_dst_slot: Default::default(),
            o_src: Default::default(),
            o_dst: Default::default(),
            o_rem: Default::default(),
            o_srem: Default::default(),
            o_mask_en: Default::default(),
            o_mask: Default::default(),
            o_seq: Default::default(),
            o_has_mb: Default::default(),
            o_mb_slot: Default::default(),
            o_mb_off: Default::default(),
            o_len: Default::default(),
            o_swz: Default::default(),
            o_fill: Default::default(),
            sw_src_m: Default::default(),
            sw_dst_m: Default::default(),
            o_src_p: Default::default(),
            o_dst_p: Default::default(),
            sw_lim: Default::default(),
            rem_hi: Default::default(),
            rem_lo: Default::default(),
            srem_hi: Default::default(),
            srem_lo: Default::default(),
            srem_nz: Default::default(),
            last_src_gm: Default::default(),
            last_dst_gm: Default::default(),
            moves: Default::default(),
            b_s: Default::default(),
            b_d: Default::default(),
            b_n: Default::default(),
            b_nsrc: Default::default(),
            b_k: Default::default(),
            bc_r: Default::default(),
            bc_d: Default::default(),
            bc_s: Default::default(),
            bc_q: Default::default(),
            b_src_short: Default::default(),
            beat_last: Default::default(),
            b_go: Default::default(),
            b_room: Default::default(),
            wq_count_next: Default::default(),
            room_next: Default::default(),
            b_read: Default::default(),
            gm_rd_want: Default::default(),
            gm_rd_go: Default::default(),
            gm_wr_go: Default::default(),
            last1: Default::default(),
            nodata1: Default::default(),
            hasmb1: Default::default(),
            fill1: Default::default(),
            map_want: Default::default(),
            map_go: Default::default(),
            pend: RamFifo::new(PEND_DEPTH),
            pend_in: Default::default(),
            s1_valid: Default::default(),
            s1_desc: Default::default(),
            s1_dst_gm: Default::default(),
            s1_mask_en: Default::default(),
            s1_mask: Default::default(),
            s1_gaddr: Default::default(),
            s2_valid: Default::default(),
            s2_desc: Default::default(),
            s2_dst_gm: Default::default(),
            s2_mask_en: Default::default(),
            s2_mask: Default::default(),
            s2_gaddr: Default::default(),
            s2_data: Default::default(),
            f_valid: Default::default(),
            f_desc: Default::default(),
            f_data: Default::default(),
            f_rot: Default::default(),
            f_keep: Default::default(),
            f_be: Default::default(),
            f_be_raw: Default::default(),
            f_pat: Default::default(),
            f_pat16: Default::default(),
            f_pat32: Default::default(),
            f_pat64: Default::default(),
            f_k: Default::default(),
            f_d: Default::default(),
            f_n: Default::default(),
            f_nsrc: Default::default(),
            f_end_src: Default::default(),
            f_end: Default::default(),
            f_keep_ok: Default::default(),
            f_be_ok: Default::default(),
            keep_acc: (0..B).map(|_| Default::default()).collect(),
            be_acc: (0..B).map(|_| Default::default()).collect(),
            byte_idx: (0..B).map(|j| Constant::new((j as u64).to_bits())).collect(),
            byte_bits: (0..B).map(|j| Constant::new(Bits::<D>::from(0xffu64) << (8 * j as u64))).collect(),
            byte_bit: (0..B).map(|j| Constant::new(Bits::<B>::from(1u64) << (j as u64))).collect(),
            _bytes: B,
            _last_byte: B - 1,
            f_last: Default::default(),
            flast1: Default::default(),
            f_to_gm: Default::default(),
            f_mask_en: Default::default(),
            f_mask: Default::default(),
            f_gaddr: Default::default(),
            f_map: Default::default(),
            f_fill: Default::default(),
            wq_ctl: FifoCtl::new(WQ_DEPTH),
            wq_data: FifoStore::new(WQ_DEPTH),
            wq_be: FifoStore::new(WQ_DEPTH),
            wq_meta: FifoStore::new(WQ_DEPTH),
            wq_empty: Default::default(),
            cmp_valid: Default::default(),
            cmp_seq: Default::default(),
            cmp_has_mb: Default::default(),
            k_pend_depth: k(PEND_DEPTH as u64),
            k_wq_room: k((WQ_DEPTH - 1) as u64),
            k_wq_room1: k((WQ_DEPTH - 2) as u64),
            k_wq_room2: k((WQ_DEPTH - 3) as u64),
            k_map_desc: Constant::new({
                let mut m: Bits<191> = Bits::default();
                m.set_bits::<1>(190, 1u64.to_bits());
                m
            }),
            k_rem_lo: k(2 * B as u64 - 1),
            k_swz_split: Constant::new(B > 16),
            k_chunk: k(16),
            k_bmask: k((B - 1) as u64),
            k_port: k(B as u64),
            k_b16: k(B as u64),
            k_d16: k(D as u64),
        }
    }
}

impl<const D: usize, const B: usize> Mover<D, B> {
    /// The mover's registers, for a testbench's hang report.
    pub fn debug_state(&self) -> String {
        format!(
            "moves {} | mover active {} staged {} src_gm {} dst_gm {} rem {} srem {} | pend {} s1 {} s2 {} wq {}",
            self.moves.q.val().to_u64(),
            self.o_active.q.val(),
            self.nx_valid.q.val(),
            self.o_src_gm.q.val(),
            self.o_dst_gm.q.val(),
            self.o_rem.q.val().to_u64(),
            self.o_srem.q.val().to_u64(),
            self.pend.count.val().to_u64(),
            self.s1_valid.q.val(),
            self.s2_valid.q.val(),
            self.wq_ctl.count.val().to_u64(),
        )
    }
}

impl<const D: usize, const B: usize> Logic for Mover<D, B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            nx_valid,
            nx_src_gm,
            nx_dst_gm,
            nx_src_slot,
            nx_dst_slot,
            nx_src,
            nx_dst,
            nx_rem,
            nx_srem,
            nx_mask_en,
            nx_mask,
            nx_seq,
            nx_has_mb,
            nx_mb_slot,
            nx_mb_off,
            nx_len,
            nx_swz,
            nx_fill,
            o_active,
            o_src_gm,
            o_dst_gm,
            o_src_slot,
            o_dst_slot,
            o_src,
            o_dst,
            o_rem,
            o_srem,
            o_mask_en,
            o_mask,
            o_seq,
            o_has_mb,
            o_mb_slot,
            o_mb_off,
            o_len,
            o_swz,
            o_fill,
            last_src_gm,
            last_dst_gm,
            moves,
            s1_valid,
            s1_desc,
            s1_dst_gm,
            s1_mask_en,
            s1_mask,
            s1_gaddr,
            s2_valid,
            s2_desc,
            s2_dst_gm,
            s2_mask_en,
            s2_mask,
            s2_gaddr,
            s2_data
        );
        clock!(self, clock, pend, wq_ctl, wq_data, wq_be, wq_meta);
        self.pend.reset.next = self.reset.val();
        self.wq_ctl.reset.next = self.reset.val();
        self.wq_empty.next = self.wq_ctl.empty.val();

        // ================= mover: beat arithmetic =================
        // (ahead of the controller, which may start the next move on the current move's last beat)
        // Swizzle (PTX ISA §5.5.7, golden `tensormap::swizzle`): the shared side's address has its
        // 16-byte chunk index (bits 6:4) XORed with its 128-byte line index within the pattern
        // (bits 9:7, masked to 2, 4 or 8 lines). A swizzled beat stays inside one chunk, so the
        // permutation moves the whole beat and the byte rotation below follows from the
        // permuted address alone.
        self.sw_src_m.next = 0.into();
        if !self.o_src_gm.q.val() {
            self.sw_src_m.next = self.o_swz.q.val();
        }
        self.sw_dst_m.next = 0.into();
        if !self.o_dst_gm.q.val() {
            self.sw_dst_m.next = self.o_swz.q.val();
        }
        self.o_src_p.next = self.o_src.q.val()
            ^ (bit_cast::<64, 3>(bit_cast::<3, 64>(self.o_src.q.val() >> 7) & self.sw_src_m.val()) << 4);
        self.o_dst_p.next = self.o_dst.q.val()
            ^ (bit_cast::<64, 3>(bit_cast::<3, 64>(self.o_dst.q.val() >> 7) & self.sw_dst_m.val()) << 4);
        self.sw_lim.next = self.k_port.val();
        if self.k_swz_split.val() & (self.sw_dst_m.val() != 0) {
            self.sw_lim.next = self.k_chunk.val() - bit_cast::<BEAT_BITS, 64>(self.o_dst.q.val() & 15);
        } else if self.k_swz_split.val() & (self.sw_src_m.val() != 0) {
            self.sw_lim.next = self.k_chunk.val() - bit_cast::<BEAT_BITS, 64>(self.o_src.q.val() & 15);
        }
        // The counts enter as (at least 2B, low bits): an OR of the high bits, no carry chain.
        self.rem_hi.next = (self.o_rem.q.val() & !self.k_rem_lo.val()) != 0;
        self.rem_lo.next = bit_cast::<BEAT_BITS, 32>(self.o_rem.q.val() & self.k_rem_lo.val());
        self.srem_hi.next = (self.o_srem.q.val() & !self.k_rem_lo.val()) != 0;
        self.srem_lo.next = bit_cast::<BEAT_BITS, 32>(self.o_srem.q.val() & self.k_rem_lo.val());
        self.srem_nz.next = self.o_srem.q.val() != 0;
        // The beat: b_n = min(bytes left, swizzle chunk limit, room to the destination's port
        // boundary, room to the source's while it has source bytes), b_nsrc = min(b_n, source
        // bytes left). Every candidate is at most B except a count of 2B or more (`*_hi`), which
        // enters as 255 (> B) and is never the minimum. The minimum is picked from all pairwise
        // compares made side by side (one compare, then a select), not a chain of min stages (the
        // mover's longest path: o_rem -> three compare-and-select stages -> the subtract).
        self.b_s.next = bit_cast::<BEAT_BITS, 64>(self.o_src_p.val() & self.k_bmask.val());
        self.b_d.next = bit_cast::<BEAT_BITS, 64>(self.o_dst_p.val() & self.k_bmask.val());
        self.bc_r.next = self.rem_lo.val();
        if self.rem_hi.val() {
            self.bc_r.next = 255.into();
        }
        self.bc_d.next = self.k_port.val() - self.b_d.val();
        self.bc_s.next = 255.into();
        if self.srem_nz.val() {
            self.bc_s.next = self.k_port.val() - self.b_s.val();
        }
        self.bc_q.next = self.srem_lo.val();
        if self.srem_hi.val() {
            self.bc_q.next = 255.into();
        }
        self.b_n.next = self.bc_s.val();
        if (self.bc_r.val() <= self.sw_lim.val())
            & (self.bc_r.val() <= self.bc_d.val())
            & (self.bc_r.val() <= self.bc_s.val())
        {
            self.b_n.next = self.bc_r.val();
        } else if (self.sw_lim.val() <= self.bc_d.val()) & (self.sw_lim.val() <= self.bc_s.val()) {
            self.b_n.next = self.sw_lim.val();
        } else if self.bc_d.val() <= self.bc_s.val() {
            self.b_n.next = self.bc_d.val();
        }
        self.b_nsrc.next = self.b_n.val();
        self.b_src_short.next = (self.bc_q.val() < self.bc_r.val())
            & (self.bc_q.val() < self.sw_lim.val())
            & (self.bc_q.val() < self.bc_d.val())
            & (self.bc_q.val() < self.bc_s.val());
        if self.b_src_short.val() {
            self.b_nsrc.next = self.srem_lo.val();
        }
        self.hasmb1.next = 0.into();
        if self.o_has_mb.q.val() {
            self.hasmb1.next = 1.into();
        }
        self.b_k.next = (self.b_s.val() - self.b_d.val()) & bit_cast::<BEAT_BITS, 64>(self.k_bmask.val());
        // The beat is the move's last iff the remaining bytes fit under every limit of b_n (the
        // swizzle chunk, the destination's and, with source bytes left, the source's port word):
        // parallel compares against `o_rem`, not the chain of minimums that b_n is, because this
        // decision feeds the next move's start in the same cycle.
        self.beat_last.next = !self.rem_hi.val()
            & (self.rem_lo.val() <= self.sw_lim.val())
            & (self.rem_lo.val() <= (self.k_port.val() - self.b_d.val()))
            & (!self.srem_nz.val() | (self.rem_lo.val() <= (self.k_port.val() - self.b_s.val())));
        // b_nsrc = min(o_srem, b_n) and b_n >= 1 whenever o_rem >= 1 (every limit is >= 1), so
        // the beat reads source bytes iff both counts are non-zero: no wait for b_n's chain.
        self.b_read.next = self.srem_nz.val() & (self.o_rem.q.val() != 0);
        self.last1.next = 0.into();
        if self.beat_last.val() {
            self.last1.next = 1.into();
        }
        self.nodata1.next = 0.into();
        if !self.b_read.val() {
            self.nodata1.next = 1.into();
        }
        self.gm_wr_go.next = !self.wq_empty.val() & self.gm_grant.val();
        self.gm_rd_want.next = self.o_active.q.val()
            & self.o_src_gm.q.val()
            & self.b_read.val()
            & (self.pend.count.val() != self.k_pend_depth.val());
        self.gm_rd_go.next = self.gm_rd_want.val() & self.wq_empty.val() & self.gm_grant.val();
        // Room for this beat beside the beats in s1 and s2 (count + in flight < WQ_DEPTH - 1),
        // as compares of the queue's count with constants: no adder in front of `sm_rwant`,
        // which the top's LSU / atomic read grant waits on (the routed critical path of
        // 1099187's board top ran through that adder's carry chain).
        self.b_room.next = self.wq_ctl.count.val() < self.k_wq_room.val();
        if self.s1_valid.q.val() & self.s2_valid.q.val() {
            self.b_room.next = self.wq_ctl.count.val() < self.k_wq_room2.val();
        } else if self.s1_valid.q.val() | self.s2_valid.q.val() {
            self.b_room.next = self.wq_ctl.count.val() < self.k_wq_room1.val();
        }
        if !self.o_dst_gm.q.val() {
            self.b_room.next = true;
        }
        self.b_go.next = false;
        if self.o_active.q.val() {
            if self.o_src_gm.q.val() {
                if self.b_read.val() {
                    self.b_go.next = self.gm_rd_go.val();
                } else {
                    // A beat without source bytes goes through the descriptor queue alone, so that
                    // it can retire without read data.
                    self.b_go.next = self.pend.empty.val();
                }
            } else {
                // Shared source: one read per cycle when the read port is granted, room reserved
                // in the global write queue.
                self.b_go.next = self.sm_rgrant.val() & self.b_room.val();
            }
        }
        self.fill1.next = 0.into();
        if self.o_fill.q.val() {
            self.fill1.next = 1.into();
        }
        // Tensor-map reads use the global port when the mover does not (no move being issued).
        self.map_want.next = self.map_rd.val()
            & !self.o_active.q.val()
            & !self.nx_valid.q.val()
            & (self.pend.count.val() != self.k_pend_depth.val());
        self.map_go.next = self.map_want.val() & self.wq_empty.val() & self.gm_grant.val();

        self.pend_in.next = bit_cast::<191, SLOT_BITS>(self.o_dst_slot.q.val())
            | (bit_cast::<191, 64>((self.o_dst_p.val() & !self.k_bmask.val()) & 0xFF_FFFF) << 5)
            | (bit_cast::<191, BEAT_BITS>(self.b_k.val()) << 29)
            | (bit_cast::<191, BEAT_BITS>(self.b_d.val()) << 45)
            | (bit_cast::<191, BEAT_BITS>(self.b_n.val()) << 61)
            | (bit_cast::<191, BEAT_BITS>(self.b_nsrc.val()) << 77)
            | (bit_cast::<191, 1>(self.last1.val()) << 93)
            | (bit_cast::<191, SEQ_BITS>(self.o_seq.q.val()) << 94)
            | (bit_cast::<191, 1>(self.hasmb1.val()) << 126)
            | (bit_cast::<191, SLOT_BITS>(self.o_mb_slot.q.val()) << 127)
            | (bit_cast::<191, SADDR_BITS>(self.o_mb_off.q.val()) << 132)
            | (bit_cast::<191, 32>(self.o_len.q.val()) << 156)
            | (bit_cast::<191, 1>(self.nodata1.val()) << 188)
            | (bit_cast::<191, 1>(self.fill1.val()) << 189);
        self.pend.din.next = self.pend_in.val();
        if self.map_go.val() {
            // A tensor-map beat: no destination, captured into map_buf on arrival (bit 190).
            self.pend.din.next = self.k_map_desc.val();
        }
        self.pend.push.next = (self.b_go.val() & self.o_src_gm.q.val()) | self.map_go.val();
        if self.b_go.val() {
            self.o_src.d.next = self.o_src.q.val() + bit_cast::<64, BEAT_BITS>(self.b_n.val());
            self.o_dst.d.next = self.o_dst.q.val() + bit_cast::<64, BEAT_BITS>(self.b_n.val());
            self.o_rem.d.next = self.o_rem.q.val() - bit_cast::<32, BEAT_BITS>(self.b_n.val());
            // The source's bytes left: none if this beat takes them all (b_src_short, the count
            // below 2B), else fewer by b_n; the subtract is not behind b_nsrc's compare.
            self.o_srem.d.next = self.o_srem.q.val() - bit_cast::<32, BEAT_BITS>(self.b_n.val());
            if self.b_src_short.val() {
                self.o_srem.d.next = 0.into();
            }
            if self.beat_last.val() {
                self.o_active.d.next = false;
            }
        }
        // ================= mover: start =================
        // (after the beat-issue updates: a move may start on the last beat of the previous one)
        // The controller's move goes into the staging register; the mover loads it when it is free
        // or issues the last beat of its move now (back-to-back moves keep the port busy).
        if self.start.val() {
            self.nx_src_gm.d.next = self.st_src_gm.val();
            self.nx_dst_gm.d.next = self.st_dst_gm.val();
            self.nx_src_slot.d.next = self.st_src_slot.val();
            self.nx_dst_slot.d.next = self.st_dst_slot.val();
            self.nx_src.d.next = self.st_src.val();
            self.nx_dst.d.next = self.st_dst.val();
            self.nx_rem.d.next = self.st_len.val();
            self.nx_srem.d.next = self.st_srem.val();
            self.nx_mask_en.d.next = self.st_mask_en.val();
            self.nx_mask.d.next = self.st_mask.val();
            self.nx_seq.d.next = self.st_seq.val();
            self.nx_has_mb.d.next = self.st_has_mb.val();
            self.nx_mb_slot.d.next = self.st_mb_slot.val();
            self.nx_mb_off.d.next = self.st_mb_off.val();
            self.nx_len.d.next = self.st_tx.val();
            self.nx_swz.d.next = self.st_swz.val();
            self.nx_fill.d.next = self.st_fill.val();
            self.last_src_gm.d.next = self.st_src_gm.val();
            self.last_dst_gm.d.next = self.st_dst_gm.val();
        }
        self.mv_load.next = self.nx_valid.q.val() & (!self.o_active.q.val() | (self.b_go.val() & self.beat_last.val()));
        // (`start` needs an empty staging register and `mv_load` a full one: never both.)
        self.nx_valid.d.next = self.start.val() | (self.nx_valid.q.val() & !self.mv_load.val());
        if self.mv_load.val() {
            self.o_active.d.next = true;
            self.o_src_gm.d.next = self.nx_src_gm.q.val();
            self.o_dst_gm.d.next = self.nx_dst_gm.q.val();
            self.o_src_slot.d.next = self.nx_src_slot.q.val();
            self.o_dst_slot.d.next = self.nx_dst_slot.q.val();
            self.o_src.d.next = self.nx_src.q.val();
            self.o_dst.d.next = self.nx_dst.q.val();
            self.o_rem.d.next = self.nx_rem.q.val();
            self.o_srem.d.next = self.nx_srem.q.val();
            self.o_mask_en.d.next = self.nx_mask_en.q.val();
            self.o_mask.d.next = self.nx_mask.q.val();
            self.o_seq.d.next = self.nx_seq.q.val();
            self.o_has_mb.d.next = self.nx_has_mb.q.val();
            self.o_mb_slot.d.next = self.nx_mb_slot.q.val();
            self.o_mb_off.d.next = self.nx_mb_off.q.val();
            self.o_len.d.next = self.nx_len.q.val();
            self.o_swz.d.next = self.nx_swz.q.val();
            self.o_fill.d.next = self.nx_fill.q.val();
        }

        // Shared-memory read of a shared-source beat.
        self.sm_re.next = self.b_go.val() & !self.o_src_gm.q.val();
        self.sm_rslot.next = self.o_src_slot.q.val();
        self.sm_raddr.next = bit_cast::<SADDR_BITS, 64>(self.o_src_p.val() & !self.k_bmask.val());
        self.s1_valid.d.next = self.b_go.val() & !self.o_src_gm.q.val() & !self.reset.val();
        self.s1_desc.d.next = self.pend_in.val();
        self.s1_dst_gm.d.next = self.o_dst_gm.q.val();
        self.s1_mask_en.d.next = self.o_mask_en.q.val();
        self.s1_mask.d.next = self.o_mask.q.val();
        self.s1_gaddr.d.next = self.o_dst.q.val() & !self.k_bmask.val();
        self.s2_valid.d.next = self.s1_valid.q.val() & !self.reset.val();
        self.s2_desc.d.next = self.s1_desc.q.val();
        self.s2_dst_gm.d.next = self.s1_dst_gm.q.val();
        self.s2_mask_en.d.next = self.s1_mask_en.q.val();
        self.s2_mask.d.next = self.s1_mask.q.val();
        self.s2_gaddr.d.next = self.s1_gaddr.q.val();
        self.s2_data.d.next = self.sm_rdata.val();

        // ================= mover: arrival and beat formation =================
        self.f_valid.next = false;
        self.f_desc.next = self.pend.dout.val();
        self.f_data.next = self.gm_rdata.val();
        self.f_to_gm.next = false;
        self.f_mask_en.next = false;
        self.f_mask.next = 0.into();
        self.f_gaddr.next = 0.into();
        self.pend.pop.next = false;
        self.gm_rready.next = !self.s2_valid.q.val() & !self.pend.empty.val() & !self.pend.dout.val().get_bit(188);
        if self.s2_valid.q.val() {
            self.f_valid.next = true;
            self.f_desc.next = self.s2_desc.q.val();
            self.f_data.next = self.s2_data.q.val();
            self.f_to_gm.next = self.s2_dst_gm.q.val();
            self.f_mask_en.next = self.s2_mask_en.q.val();
            self.f_mask.next = self.s2_mask.q.val();
            self.f_gaddr.next = self.s2_gaddr.q.val();
        } else if !self.pend.empty.val() {
            if self.f_desc.val().get_bit(188) {
                // A fill-only beat (no read): written now only if no higher-priority write
                // meets it next cycle (it was written unconditionally, and lost when an
                // mbarrier write came a cycle after it: found by the timed cosim).
                self.f_valid.next = self.sm_wgrant.val();
                self.pend.pop.next = self.sm_wgrant.val();
            } else if self.gm_rvalid.val() {
                self.f_valid.next = true;
                self.pend.pop.next = true;
            }
        }
        self.f_k.next = self.f_desc.val().get_bits::<16>(29);
        self.f_d.next = self.f_desc.val().get_bits::<16>(45);
        self.f_n.next = self.f_desc.val().get_bits::<16>(61);
        self.f_nsrc.next = self.f_desc.val().get_bits::<16>(77);
        self.f_last.next = self.f_desc.val().get_bit(93);
        self.f_fill.next = self.f_desc.val().get_bit(189);
        self.f_map.next = self.f_desc.val().get_bit(190);
        // A tensor-map beat goes to the controller's map buffer (nothing is written).
        self.map_valid.next = self.f_valid.val() & self.f_map.val();
        self.map_data.next = self.f_data.val();
        self.flast1.next = self.f_desc.val().get_bits::<1>(93);
        // Byte rotation: destination byte j takes source byte (j + k) mod B.
        self.f_rot.next = self.f_data.val();
        if (self.f_k.val() != 0) & (self.f_k.val() < self.k_b16.val()) {
            self.f_rot.next = (self.f_data.val() >> (self.f_k.val() << 3))
                | (self.f_data.val() << (self.k_d16.val() - (self.f_k.val() << 3)));
        }
        // Bytes [d, d + nsrc) carry data, [d + nsrc, d + n) are zero fill; [d, d + n) written
        // (within the port word). Per byte, two compares of small counts (thermometer codes),
        // not a subtract and two shifts of the word: the mover's longest path ran the pending
        // FIFO head's read through those shifts into the write queue's data RAM.
        self.f_end_src.next = self.f_d.val() + self.f_nsrc.val();
        self.f_end.next = self.f_d.val() + self.f_n.val();
        self.f_keep_ok.next = (self.f_nsrc.val() <= self.k_b16.val()) & (self.f_d.val() < self.k_b16.val());
        self.f_be_ok.next = (self.f_n.val() <= self.k_b16.val()) & (self.f_d.val() < self.k_b16.val());
        self.keep_acc[0].next = 0.into();
        self.be_acc[0].next = 0.into();
        if (self.byte_idx[0].val() >= self.f_d.val()) & (self.byte_idx[0].val() < self.f_end_src.val()) {
            self.keep_acc[0].next = self.byte_bits[0].val();
        }
        if (self.byte_idx[0].val() >= self.f_d.val()) & (self.byte_idx[0].val() < self.f_end.val()) {
            self.be_acc[0].next = self.byte_bit[0].val();
        }
        for j in 1..self._bytes {
            self.keep_acc[j].next = self.keep_acc[j - 1].val();
            self.be_acc[j].next = self.be_acc[j - 1].val();
            if (self.byte_idx[j].val() >= self.f_d.val()) & (self.byte_idx[j].val() < self.f_end_src.val()) {
                self.keep_acc[j].next = self.keep_acc[j - 1].val() | self.byte_bits[j].val();
            }
            if (self.byte_idx[j].val() >= self.f_d.val()) & (self.byte_idx[j].val() < self.f_end.val()) {
                self.be_acc[j].next = self.be_acc[j - 1].val() | self.byte_bit[j].val();
            }
        }
        self.f_keep.next = 0.into();
        self.f_be_raw.next = 0.into();
        for j in self._last_byte..self._bytes {
            if self.f_keep_ok.val() {
                self.f_keep.next = self.keep_acc[j].val();
            }
            if self.f_be_ok.val() {
                self.f_be_raw.next = self.be_acc[j].val();
            }
        }
        // .cp_mask: destination byte at global address a is written iff mask bit (a mod 16).
        self.f_pat16.next = bit_cast::<128, 16>(self.f_mask.val());
        self.f_pat32.next = self.f_pat16.val() | (self.f_pat16.val() << 16);
        self.f_pat64.next = self.f_pat32.val() | (self.f_pat32.val() << 32);
        self.f_pat.next = self.f_pat64.val() | (self.f_pat64.val() << 64);
        self.f_be.next = self.f_be_raw.val();
        if self.f_mask_en.val() {
            self.f_be.next = self.f_be_raw.val() & bit_cast::<B, 128>(self.f_pat.val() >> (self.f_gaddr.val() & 15));
        }
        // Shared destination: write now.
        self.sm_we.next = self.f_valid.val() & !self.f_to_gm.val() & !self.f_map.val() & !self.reset.val();
        self.sm_wslot.next = self.f_desc.val().get_bits::<SLOT_BITS>(0);
        self.sm_waddr.next = self.f_desc.val().get_bits::<SADDR_BITS>(5);
        self.sm_wdata.next = self.f_rot.val() & self.f_keep.val();
        if self.f_fill.val() {
            // Tensor out-of-bounds fill with all-ones bytes (the bytes without source data).
            self.sm_wdata.next = (self.f_rot.val() & self.f_keep.val()) | !self.f_keep.val();
        }
        self.sm_be.next = self.f_be.val();
        // Global destination: queue for the global port.
        self.wq_data.din.next = self.f_rot.val() & self.f_keep.val();
        self.wq_be.din.next = self.f_be.val();
        self.wq_meta.din.next = bit_cast::<97, 64>(self.f_gaddr.val())
            | (bit_cast::<97, 1>(self.flast1.val()) << 64)
            | (bit_cast::<97, SEQ_BITS>(self.f_desc.val().get_bits::<SEQ_BITS>(94)) << 65);
        self.wq_ctl.push.next = self.f_valid.val() & self.f_to_gm.val();
        self.wq_ctl.pop.next = self.gm_wr_go.val();
        self.wq_data.write.next = self.wq_ctl.write.val();
        self.wq_be.write.next = self.wq_ctl.write.val();
        self.wq_meta.write.next = self.wq_ctl.write.val();
        self.wq_data.tail.next = self.wq_ctl.tail.val();
        self.wq_be.tail.next = self.wq_ctl.tail.val();
        self.wq_meta.tail.next = self.wq_ctl.tail.val();
        self.wq_data.head.next = self.wq_ctl.head.val();
        self.wq_be.head.next = self.wq_ctl.head.val();
        self.wq_meta.head.next = self.wq_ctl.head.val();

        // Global port: queued writes first, then reads of the active move.
        self.gm_req.next = !self.wq_empty.val() | self.gm_rd_want.val() | self.map_want.val();
        self.gm_we.next = !self.wq_empty.val();
        self.gm_addr.next = self.o_src.q.val() & !self.k_bmask.val();
        if self.map_want.val() {
            self.gm_addr.next = self.map_addr.val();
        }
        self.gm_wdata.next = self.wq_data.dout.val();
        self.gm_be.next = self.wq_be.dout.val();
        if !self.wq_empty.val() {
            self.gm_addr.next = self.wq_meta.dout.val().get_bits::<64>(0);
        }

        // ================= completion =================
        // A move completes when its last beat is written: shared writes (f path, not to global)
        // or the global write of the last queued beat.
        // (Global-destination moves carry no mbarrier: they complete into bulk groups.)
        self.cmp_valid.next = false;
        self.cmp_seq.next = self.f_desc.val().get_bits::<SEQ_BITS>(94);
        self.cmp_has_mb.next = self.f_desc.val().get_bit(126);
        if self.f_valid.val() & !self.f_to_gm.val() & self.f_last.val() {
            self.cmp_valid.next = true;
        }
        if self.gm_wr_go.val() & self.wq_meta.dout.val().get_bit(64) {
            self.cmp_valid.next = true;
            self.cmp_seq.next = self.wq_meta.dout.val().get_bits::<SEQ_BITS>(65);
            self.cmp_has_mb.next = false;
        }
        self.done_valid.next = self.cmp_valid.val();
        self.done_seq.next = self.cmp_seq.val();
        // Its complete_tx, if the move has an mbarrier (PTX ISA §9.7.9.25.4: the bytes arrived).
        self.tx_valid.next = self.cmp_valid.val() & self.cmp_has_mb.val();
        self.tx_slot.next = self.f_desc.val().get_bits::<SLOT_BITS>(127);
        self.tx_off.next = self.f_desc.val().get_bits::<SADDR_BITS>(132);
        self.tx_bytes.next = self.f_desc.val().get_bits::<32>(156);

        if self.start.val() & !self.cmp_valid.val() {
            self.moves.d.next = self.moves.q.val() + 1;
        }
        if self.cmp_valid.val() & !self.start.val() {
            self.moves.d.next = self.moves.q.val() - 1;
        }

        // ================= state for the controller =================
        self.staged.next = self.nx_valid.q.val();
        self.active.next = self.o_active.q.val();
        self.count.next = self.moves.q.val();
        self.prev_src_gm.next = self.last_src_gm.q.val();
        self.prev_dst_gm.next = self.last_dst_gm.q.val();
        self.map_issued.next = self.map_go.val();

        if self.reset.val() {
            self.o_active.d.next = false;
            self.nx_valid.d.next = false;
            self.moves.d.next = 0.into();
            self.last_src_gm.d.next = false;
        }

        // The read want of the next cycle, from the registers' next values (read after their
        // last assignment, reset included): the engine registers it, so that the top's LSU /
        // atomic read grant starts at a flip-flop, cycle for cycle the same as `o_active &
        // !o_src_gm & b_room` of that cycle. The queue never takes a push when full nor a pop
        // when empty (`b_room`'s credits, `gm_wr_go`), so its next count is count + push - pop.
        self.wq_count_next.next = self.wq_ctl.count.val();
        if self.wq_ctl.push.val() & !self.wq_ctl.pop.val() {
            self.wq_count_next.next = self.wq_ctl.count.val() + 1u64;
        }
        if self.wq_ctl.pop.val() & !self.wq_ctl.push.val() {
            self.wq_count_next.next = self.wq_ctl.count.val() - 1u64;
        }
        self.room_next.next = self.wq_count_next.val() < self.k_wq_room.val();
        if self.s1_valid.d.val() & self.s2_valid.d.val() {
            self.room_next.next = self.wq_count_next.val() < self.k_wq_room2.val();
        } else if self.s1_valid.d.val() | self.s2_valid.d.val() {
            self.room_next.next = self.wq_count_next.val() < self.k_wq_room1.val();
        }
        if !self.o_dst_gm.d.val() {
            self.room_next.next = true;
        }
        self.sm_rwant_next.next = self.o_active.d.val() & !self.o_src_gm.d.val() & self.room_next.val();
    }
}
