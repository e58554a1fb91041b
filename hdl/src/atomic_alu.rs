//! atomic_alu: the RTL of the atomic ALU (atom, red, red.async), compared against the golden
//! `smsync_sim::units::atomic_alu::AtomicAlu` (PTX ISA §9.7.13.5 atom, §9.7.13.6 red, §9.7.13.7 red.async).
//!
//! * [`element`]: `AtomicElement`, the new-value function of one element (pipelined or combinational)
//!   (`smsync_sim::units::atomic_alu::element`), shared with the copy engine's bulk reductions.
//! * [`float_add`]: `FloatAdder<W>`, the IEEE add (round-to-nearest-even) used by the element.
//! * [`lane_check`]: `LaneCheck`, one lane of the next window checked from its address (error,
//!   line, byte enables, the later lanes in its line), registered for the plan stage.
//! * [`group`]: `GroupLane`, one extra lane of a coalesced step in the execute stages (its own
//!   element datapath).
//! * [`AtomicAlu`] (this file): the warp-request sequencer, a pipeline (check, plan, issue;
//!   execute: operands, the element's stages, write)
//!   around the element datapaths and a memory port with a read and a write channel; its lanes'
//!   operands are picked as part-selects of packed words
//!   (`crate::pack_lanes`) and their old values kept in a banked `ResultStore` read a row at a
//!   time; [`atomic_alu_verilog`] generates it for a config.
//!
//! # Ports of `AtomicAlu`
//!
//! Request (the sender holds every `req_*` input stable from `req_valid` until the cycle in which
//! `req_ready` is high; the request is consumed at that clock edge, and the response is on
//! `resp_*` in that same cycle; the lane operands come from the top's operand store, a row of
//! `B = operand_row_lanes` lanes at a time, in the same cycle as the row is asked for):
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `req_valid`, `req_ready` | in, out | 1 | handshake (`req_ready` is a one-cycle strobe) |
//! | `req_op` | in | 6 | `Op::Atom`, `Op::Red` or `Op::RedAsync` (other codes answer `NotBuilt`) |
//! | `req_sub` | in | 4 | `AtomOp` code |
//! | `req_dtype` | in | 4 | `DataType` code |
//! | `req_flags` | in | 8 | `flags::MOD_A` = `.noftz` |
//! | `req_space` | in | 2 | `Space` code |
//! | `req_vec` | in | 4 | vector length 1, 2, 4, 8 |
//! | `req_cta` | in | 5 | executing CTA slot (its shared memory for `.shared::cta`) |
//! | `req_active` | in | 32 | active lanes, executed in ascending order |
//! | `plan_row`, `ex_row` | out | 5 | the operand store's rows the plan and the execute stage read in the next cycle (see below) |
//! | `row_addr[i]`, `row_mbar[i]` | in | 64 | lane `B plan_row + i`'s address (global, or shared / shared::cluster) and red.async mbarrier address |
//! | `row_b[i]`, `row_c[i]` | in | 128 | lane `B ex_row + i`'s operands b and c (vector elements packed little-endian in b) |
//! | `global_end` | in | 64 | first address after global memory (the launch's size; not in the config) |
//! | `m_global` | out | 1 | 1 = the addresses are global, 0 = offsets in shared memory of `m_slot` (both channels; fixed for a request) |
//! | `m_slot` | out | 5 | CTA slot of a shared access |
//! | `m_rreq`, `m_rgrant` | out, in | 1 | read channel: read the line at `m_raddr`; taken in a cycle where both are high |
//! | `m_raddr` | out | 64 | 16-byte aligned line address |
//! | `m_rvalid`, `m_rdata` | in | 1, 128 | read data, answered in order, at least one cycle after the grant |
//! | `m_rlive` | in | 2 | with `m_rdata`: the line's live mbarrier words (bit w: bytes 8w..8w+7; 0 for global lines) |
//! | `m_wreq`, `m_wgrant` | out, in | 1 | write channel: write the line at `m_waddr`; taken in a cycle where both are high |
//! | `m_waddr` | out | 64 | 16-byte aligned line address |
//! | `m_wdata`, `m_be` | out | 128, 16 | write data and byte enables (byte i = bits 8i+7..8i) |
//! | `resp_valid` | out | 1 | one-cycle answer (with `req_ready`) |
//! | `resp_row` | in | 5 | row of the old values to read (lanes `L row .. L row + L - 1`, `L = lanes_per_beat`) |
//! | `resp_row_values[i]` | out | 128 | same cycle: lane `L row + i`'s old value (atom; vector forms packed as read); red / error: 0; valid until the next request is taken |
//! | `resp_error`, `resp_error_lane` | out | 6, 5 | `ErrorCode` and the first lane at fault |
//! | `lend_req` | in | 1 | the copy engine's bulk reducer asks for the lead's element |
//! | `lend_op`, `lend_dtype`, `lend_r`, `lend_s` | in | 4, 4, 128, 128 | its operands (t = 0, f32 adds flush subnormals), held while it asks |
//! | `lend_grant` | out | 1 | the element takes `lend_*` this cycle (combinational from `lend_req`, the state and `req_valid`) |
//! | `lend_value` | out | 128 | the element's value: that of the lent operands `element_latency` granted cycles before |
//!
//! Lending: the lead's element is the only full element of the unit and of the copy engine. It is
//! lent while the ALU is idle (its pipeline drained) and no request waits, from the cycle the
//! borrower asks, and stays lent for as long as it asks (moving every cycle); a request that
//! arrives meanwhile starts the cycle after the borrower lets go (the reducer asks for one
//! element's latency at a time, so a request waits at most `element_latency` + 1 cycles).
//!
//! Memory order: a read granted in a cycle after a write's grant sees the write; a read granted
//! in the same cycle as a write may see the line before it (a block RAM's read-during-write),
//! which the ALU never depends on (below). The top maps the channels to the shared RAM's read
//! and write ports, and both to its one global port `ag_*` (where the ALU never asks for both
//! in one cycle).
//!
//! # Pipeline (a plan stage, an issue stage and the execute stages, one step per cycle)
//!
//! ```text
//!  IDLE     request checks (the golden `check`); error -> RESP; else RUN with the first window
//!           of the active lanes in the check stage (red.async: RUN for two cycles, the
//!           first registers its first lane's addresses, the second's checks answer it)
//!  RUN      C  check: the next window's n lanes (the lowest pending lane's n-aligned run),
//!              each checked from its address (`LaneCheck`: alignment and range, its 16-byte
//!              line, byte offset and enables, the later lanes in its line); loaded with its
//!              results into P's registers when P's window empties (or P has none), and C
//!              takes the next window of the pending lanes at the same edge
//!           P  plan: the lowest lane left in P's window leads the next step; the lanes of the
//!              window that join it (below), from the registered checks only. From addresses
//!              alone, so it runs ahead: the step goes to I (to I's skid register when I is
//!              full and does not issue at this edge) while the skid register is empty, and
//!              its lanes leave the window. No lane left, or the lead in error ->
//!              RESP once I, R and X1..X3 are empty (the lanes before the error have written, as
//!              in the golden model)
//!           I  issue: the planned step, registered; it reads its line and moves to R at the
//!              edge where R's step leaves, unless a step in R..X3 has one of its bytes;
//!              the skid register's step moves into I at that edge. The plan's take waits
//!              on the skid register only, not on the read grant (which ran from the copy
//!              engine's read request through the top's arbiter into the plan, the check
//!              stage's load and the operand store's row: the routed board top's limit)
//!           R  read: the step whose read was granted; its line is registered as it arrives
//!              (into X1's `line` when the step moves on at that edge, else into R's own
//!              register); it moves to X1 at the edge where X1's step leaves
//!           X1 operands: the line, from `line` (registered); per element (a vector's in
//!              turn, one per cycle) the old element, b and c into X2
//!           X2 element: the step's old values (its first element's X2 registers) into the
//!              result store; AtomicElement (and the slots' GroupLanes), pipelined over
//!              ELEMENT_LATENCY = 3 more stages (the float adders' align/add, normalise,
//!              round; the integer results ride beside them); the new element into X3
//!           X3 write: the elements placed in the line; the last element writes the step's
//!              bytes (byte enables: the lead's and the joined lanes')
//!  RESP     resp_valid + req_ready
//! ```
//!
//! All stages move together on `en`, which is low only while X3 writes and the one-line write
//! buffer is full: a write the port does not take in X3's cycle moves into the buffer (the port
//! shows the buffer's write ahead of X3's), so `en` comes from flip-flops and the write grant
//! (from the top's shared-memory arbiter) ends at the buffer instead of running through every
//! stage's advance into the next read request (the routed board top's limiting path at
//! c8fb031). With the grant at once no write is buffered and the cycles are as without it.
//! A write carries only the step's bytes, so steps on different bytes of one line overlap
//! freely (each reads the line and writes its own bytes). A planned step that shares a byte
//! with a step in R..X3 or the write buffer (`hazard`: same-address lanes, a vector's line) waits until that step
//! has written, and reads after it: so same-address lanes see the previous lane's result, and
//! a read that shares a cycle with a write (the RAM may return the line before it) is never of
//! a byte being written. A same-address lane costs 8 cycles (read, R, X1, X2, the element's 3
//! stages, X3); lanes on distinct bytes one cycle per step.
//!
//! Why R: X1 takes its line from flip-flops. Without R the line went from the port (the
//! shared RAM's block RAM, its stale-row and write-forward select, the core's read-data mux)
//! through X1's element select into X2 in one cycle: the routed ULX3S top's limiting path at
//! 20910eb (23.19 ns, 43.13 MHz). R costs one cycle per request and per step that waits for
//! another's bytes, none per step otherwise (the next step's line is read while X1 works on
//! the step before it, and waits in R's register if X1 is not done). On global memory one
//! read is in flight at a time (the top's `ag_*` port).
//!
//! # Coalesced steps (`config.atomic_lanes`)
//!
//! The lowest remaining lane is the step's lead. With `atomic_lanes` = n > 1 (capped at
//! [`MAX_GROUP`] = 8: eight 2-byte elements fill a line), the step's **window** is the n-aligned
//! run of n lanes that holds the lead; the remaining lanes of the window after the lead are
//! offered in ascending order to n - 1 `GroupLane`s. They join the lead's step while each is
//! aligned, in the lead's 16-byte line, in range and on bytes no earlier member of the step
//! touches. The first lane that cannot join ends the group (so the lanes served are always a
//! prefix of the ascending order, and results, errors and the lanes written before an error are
//! exactly the golden model's). Joined lanes are computed in parallel, each with its own
//! `AtomicElement`, and written with the lead's line in one write (the byte enables of all).
//! Only scalar 4- and 8-byte accesses of the types a group lane's element computes
//! (`group::group_kinds`: the 32- and 64-bit integer types and f32) are grouped; the lead alone
//! steps vectors, b128, cas.b16, f64 and the 16-bit float types, so only its element has those
//! adders, and a slot's shifts move 4-byte words.
//! Same-address lanes never share a step: the second one leads a later step, which waits for
//! the first one's write (`hazard`, above).
//!
//! Why a window: the lead and each slot pick their operands from the window's n lanes (an n:1
//! mux) after one (32 / n):1 mux per window bit, instead of a 32:1 mux per slot and operand bit
//! (those were 31k of the unit's LUTs on fpga-small). The window's lanes are n consecutive
//! lanes, so they are in distinct banks of the old-value store (lane k in bank k % B, B =
//! max(`lanes_per_beat`, n), n divides B).
//!
//! Cycle cost (read latency 1, grants at once): one cycle per step on distinct bytes (`vec`
//! cycles for vector forms), plus 11 per request (IDLE, which loads the first window into C;
//! its checks; the first step's plan and issue; the last step's R, X2, 3 element stages and
//! X3; RESP); eight per step that waits for the previous one's bytes. 32 consecutive u32 or
//! f32 lanes (4 per line): 19 cycles with `atomic_lanes` >= 4, 43 with 1; 32 lanes on 32
//! lines: 43; 32 lanes on one address: 8 x 32 + 4. Why three stages before the read: the plan was
//! one cycle from the 32-lane pool through the lead pick, its 64-bit range checks, the joins
//! and the hazard check to the read (the unit's limit on the ECP5, docs/FPGA.md). The window
//! register starts it from n lanes, the check stage takes every 64-bit compare off it (the
//! plan is left with n-bit picks, n:1 muxes of registered checks and 16-bit byte-enable
//! overlaps), and the issue stage takes the hazard check and the read: three cycles of
//! latency per request, none per step. Global memory has one port for reads and writes, where
//! a read waits for a cycle without a write. One 16-byte line per step
//! (docs/units/atomic_alu.md).
//!
//! # Errors (golden order)
//!
//! Request: `sub` not an `AtomOp` -> `AtomBadType`; a float type without
//! `features.float_atomics` or b128 without `features.atomic_b128` -> `NotBuilt`; not `legal()`,
//! red.cas / red.exch, a vector outside global -> `AtomBadType` (error lane: the first active).
//! Lane: address not aligned to the access size -> `AtomAlign`; shared::cluster outside the
//! executing CTA's window -> `SharedOutOfRange` (cluster_size 1; with larger clusters a
//! shared::cluster atom answers `NotBuilt`); beyond shared memory -> `SharedOutOfRange`; global
//! outside `[GLOBAL_BASE, global_end)` -> `GlobalOutOfRange`; a shared lane on a byte of a
//! live mbarrier object -> `MbarrierPlainAccess` (PTX ISA §9.7.13.15). The last is found in X1,
//! from the line's live words (`m_rlive`, the shared RAM's row tags): the step keeps its lanes
//! before the first one on a live word (they write; a step's lanes are a prefix of the lanes
//! left), the later steps in I, its skid register, R or entering R or X1 are dropped (a line
//! read for a dropped step finds no step waiting for it and is not taken), the plan stops,
//! and the request answers once the earlier steps have written, at that lane (earlier than
//! any lane error the plan has found since, as the steps go in lane order).
//! red.async: `AtomBadType` (op/type/vec), then with cluster_size 1 the first active lane's
//! address / mbarrier resolution (`SharedOutOfRange`, `MbAlign`) and else `RedAsyncTarget`
//! (the target is always the executing CTA); with cluster_size > 1, `NotBuilt`.

pub mod element;
pub mod float_add;
pub mod group;
pub mod hazard;
pub mod lane_check;
pub mod width;

use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, AtomOp, DataType, ErrorCode, Op, Space};
use smsync_contract::memory_map::{CLUSTER_BASE, WINDOW};

use crate::common::{
    dtype_log2_bytes_table, error_code, op_code, try_verilog_named, VerilogError, ERROR_BITS, FLAG_BITS, OP_BITS,
    WARP_LANES,
};
use crate::pack_lanes::{LaneNumber, LanePart, PackLanes};
use crate::sync_unit::result_store::ResultStore;
use element::{AtomicElement, ElementKinds, ATOM_OP_BITS, DTYPE_BITS, ELEMENT_LATENCY, ELEM_BITS};
use group::{group_kinds, GroupLane};
use hazard::StepHazards;
use lane_check::LaneCheck;
use width::{Truncate, ZeroExtend};

// The shared::cluster window base is line (16-byte) aligned: the red.async and lane checks
// take an offset's alignment from the raw address.
const _: () = assert!(CLUSTER_BASE & 15 == 0);

/// CTA slot index width.
pub const SLOT_BITS: usize = 5;
/// Lane index width.
pub const LANE_BITS: usize = 5;
/// Width of the `Space` code.
pub const SPACE_BITS: usize = Space::BITS as usize;
/// Width of the vector-length field.
pub const VEC_BITS: usize = 4;
/// Sequencer state width.
const STATE_BITS: usize = 2;

const S_IDLE: u64 = 0;
const S_RUN: u64 = 1;
const S_RESP: u64 = 2;

/// The most lanes one step can serve: eight 2-byte elements fill a 16-byte line.
pub const MAX_GROUP: usize = 8;

/// Lanes stepped together for `config` (the lead plus its `GroupLane`s): `atomic_lanes`, capped
/// at [`MAX_GROUP`] because a step works on one 16-byte line.
pub fn group_size(config: &Config) -> usize {
    (config.atomic_lanes as usize).clamp(1, MAX_GROUP)
}

/// Clock edges the element datapath takes for `config` (`atomic_element_stages`: 0, or
/// [`ELEMENT_LATENCY`] with the float adders pipelined).
pub fn element_latency(config: &Config) -> usize {
    if config.atomic_element_stages > 0 {
        ELEMENT_LATENCY
    } else {
        0
    }
}

/// Lanes per row of the top's operand store and of the ALU's result store for `config`:
/// `max(lanes_per_beat, group_size)`, so that a beat fills part of a row (or one) and a step's
/// window lies in one row.
pub fn operand_row_lanes(config: &Config) -> usize {
    (config.lanes_per_beat as usize).max(group_size(config))
}

/// The types the lead lane's element computes: every type the config builds (a type it does not
/// is refused with `NotBuilt` before any lane steps), and the float types whatever the config,
/// because the copy engine's bulk reductions borrow this element (`lend_*` ports).
pub fn lead_kinds(config: &Config) -> ElementKinds {
    ElementKinds { b128: config.features.atomic_b128, f32: true, f64: true, half: true }
}

/// Verilog of the atomic ALU for `config`, top module named `module`.
pub fn atomic_alu_verilog(config: &Config, module: &str) -> Result<String, VerilogError> {
    let mut alu = AtomicAlu::new(config);
    try_verilog_named(&mut alu, module)
}

#[derive(LogicBlock)]
pub struct AtomicAlu {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,

    // ---- request ----
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<OP_BITS>>,
    pub req_sub: Signal<In, Bits<ATOM_OP_BITS>>,
    pub req_dtype: Signal<In, Bits<DTYPE_BITS>>,
    pub req_flags: Signal<In, Bits<FLAG_BITS>>,
    pub req_space: Signal<In, Bits<SPACE_BITS>>,
    pub req_vec: Signal<In, Bits<VEC_BITS>>,
    pub req_cta: Signal<In, Bits<SLOT_BITS>>,
    pub req_active: Signal<In, Bits<WARP_LANES>>,
    /// The lane operands, read from the top's operand store a row of `B` = [`operand_row_lanes`]
    /// lanes at a time through its registered read port: `plan_row` and `ex_row` name the rows
    /// of the next cycle (the check stage's next window, the execute stage's next lane), and in
    /// that cycle `row_addr`, `row_mbar` are lanes `B plan_row ..` and `row_b`, `row_c` lanes
    /// `B ex_row ..`. A step's window (n-aligned, n <= B) lies in one row.
    pub plan_row: Signal<Out, Bits<LANE_BITS>>,
    pub row_addr: Vec<Signal<In, Bits<64>>>,
    pub row_mbar: Vec<Signal<In, Bits<64>>>,
    pub ex_row: Signal<Out, Bits<LANE_BITS>>,
    pub row_b: Vec<Signal<In, Bits<ELEM_BITS>>>,
    pub row_c: Vec<Signal<In, Bits<ELEM_BITS>>>,
    pub global_end: Signal<In, Bits<64>>,

    // ---- memory port: a read channel and a write channel ----
    pub m_global: Signal<Out, Bit>,
    pub m_slot: Signal<Out, Bits<SLOT_BITS>>,
    pub m_rreq: Signal<Out, Bit>,
    pub m_rgrant: Signal<In, Bit>,
    pub m_raddr: Signal<Out, Bits<64>>,
    pub m_rvalid: Signal<In, Bit>,
    pub m_rdata: Signal<In, Bits<ELEM_BITS>>,
    /// With `m_rdata`: the line's live mbarrier words (bit w: bytes 8w..8w+7; 0 for global).
    pub m_rlive: Signal<In, Bits<2>>,
    pub m_wreq: Signal<Out, Bit>,
    pub m_wgrant: Signal<In, Bit>,
    pub m_waddr: Signal<Out, Bits<64>>,
    pub m_wdata: Signal<Out, Bits<ELEM_BITS>>,
    pub m_be: Signal<Out, Bits<16>>,

    // ---- response ----
    pub resp_valid: Signal<Out, Bit>,
    /// Row `resp_row` of the old values (lanes `row*L .. row*L+L-1`), read in the same cycle;
    /// valid from `resp_valid` until the next request is taken.
    pub resp_row: Signal<In, Bits<LANE_BITS>>,
    pub resp_row_values: Vec<Signal<Out, Bits<ELEM_BITS>>>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,
    pub resp_error_lane: Signal<Out, Bits<LANE_BITS>>,

    // ---- the lead's element, lent to the copy engine's bulk reducer ----
    /// The borrower wants the element; its operands (`lend_op` .. `lend_s`; t = 0, f32 adds
    /// flushing subnormals as bulk reductions do) hold still while it does.
    pub lend_req: Signal<In, Bit>,
    pub lend_op: Signal<In, Bits<ATOM_OP_BITS>>,
    pub lend_dtype: Signal<In, Bits<DTYPE_BITS>>,
    pub lend_r: Signal<In, Bits<ELEM_BITS>>,
    pub lend_s: Signal<In, Bits<ELEM_BITS>>,
    /// The element takes the borrower's operands this cycle (and moves every cycle while lent).
    /// Lent only while the ALU is idle; a request waits while it is lent.
    pub lend_grant: Signal<Out, Bit>,
    pub lend_value: Signal<Out, Bits<ELEM_BITS>>,

    element: AtomicElement,
    /// The element is lent (this cycle: `lend_now`; registered: it stays lent while asked).
    lent: DFF<Bit>,
    lend_now: Signal<Local, Bit>,
    /// The ALU has left IDLE (`state != IDLE`), a flip-flop of its own: the element's operand
    /// select (borrower or pipeline) is this register alone, not a decode of `state`.
    active: DFF<Bit>,
    /// The extra lanes of a coalesced step (`group_size - 1` slots; see "Coalesced steps"):
    /// each slot's execute stage (its element).
    group: Vec<GroupLane>,
    /// Width changes between the address (64), byte-offset (8) and index (4) datapaths.
    widen_access: ZeroExtend<8, 64>,
    widen_elem_index: ZeroExtend<4, 8>,
    widen_dtype: ZeroExtend<DTYPE_BITS, 64>,
    cut_elem_lg: Truncate<64, 8>,

    // ---- state ----
    state: DFF<Bits<STATE_BITS>>,
    /// The plan stage's lanes: the window it plans from (its first lane; its lanes not yet
    /// planned, bit i = lane `win_first + i`) and the request's other lanes not yet planned
    /// (`pending`, outside the window). Registers, so that the plan starts from the window
    /// and not from a 32-lane priority pick; when a step empties the window the next one is
    /// loaded from `pending` at the same edge.
    win_pool: DFF<Bits<MAX_GROUP>>,
    win_first: DFF<Bits<LANE_BITS>>,
    pending: DFF<Bits<WARP_LANES>>,
    /// The check stage (ahead of the plan): the next window (valid, its first lane, its
    /// lanes), whose lanes `check` examines; the plan stage loads it, with the checks'
    /// results, at the edge where its own window empties (or it has none).
    nw_valid: DFF<Bit>,
    nw_first: DFF<Bits<LANE_BITS>>,
    nw_pool: DFF<Bits<MAX_GROUP>>,
    /// The operand store's row of the check stage's window, held: the store reads the row of
    /// the window *after* `nw` every cycle (`plan_row` from `pending`'s registers, not from
    /// the plan's load decision), so its output is `nw`'s row only in the cycle after `nw`
    /// loads (`nw_fresh`); that cycle's row is kept here for the cycles the window waits.
    nw_fresh: DFF<Bit>,
    held_addr: Vec<DFF<Bits<64>>>,
    held_mbar: Vec<DFF<Bits<64>>>,
    /// The plan window's lanes' checks (window lane a, registered from `check[a]`): error and
    /// no error, line, byte offset, byte enables, the later lanes in the same line. (`wl_ok`
    /// only with group slots; `wl_same` for lanes 0..n-1, the last lane has none after it.)
    wl_err: Vec<DFF<Bits<ERROR_BITS>>>,
    wl_ok: Vec<DFF<Bit>>,
    wl_line: Vec<DFF<Bits<64>>>,
    wl_off: Vec<DFF<Bits<8>>>,
    wl_be: Vec<DFF<Bits<16>>>,
    wl_same: Vec<DFF<Bits<MAX_GROUP>>>,
    /// The later lanes of lane a's line that share a byte with it (`check[a].overlap`; lanes
    /// 0..n-1), so that the join decision is registered pairwise bits, not a chain of 16-bit
    /// overlap checks against the bytes claimed so far.
    wl_ov: Vec<DFF<Bits<MAX_GROUP>>>,
    /// The request may coalesce (scalar, 4- or 8-byte access of a type the slots compute),
    /// registered at IDLE (only with group slots: one entry).
    q_group_ok: Vec<DFF<Bit>>,
    /// The issue stage (between the plan and X1): the planned step, registered, waiting for its
    /// line read (no hazard with R..X3, R open, the grant). The same fields as X1's below.
    iss_valid: DFF<Bit>,
    iss_lane: DFF<Bits<LANE_BITS>>,
    iss_line: DFF<Bits<64>>,
    iss_byte_off: DFF<Bits<8>>,
    iss_be: DFF<Bits<16>>,
    iss_lanes: DFF<Bits<WARP_LANES>>,
    iss_x_in: Vec<DFF<Bit>>,
    iss_x_lane: Vec<DFF<Bits<LANE_BITS>>>,
    iss_x_off: Vec<DFF<Bits<2>>>,
    /// The issue stage's skid register: a planned step taken while I is full and does not
    /// issue; it moves into I when I issues (so it is valid only while I is).
    skid_valid: DFF<Bit>,
    skid_lane: DFF<Bits<LANE_BITS>>,
    skid_line: DFF<Bits<64>>,
    skid_byte_off: DFF<Bits<8>>,
    skid_be: DFF<Bits<16>>,
    skid_lanes: DFF<Bits<WARP_LANES>>,
    skid_x_in: Vec<DFF<Bit>>,
    skid_x_lane: Vec<DFF<Bits<LANE_BITS>>>,
    skid_x_off: Vec<DFF<Bits<2>>>,
    elem_index: DFF<Bits<4>>,
    /// `elem_index` is the request's last element (`elem_index + 1 == req_vec`), registered
    /// with it: X1's last-element test then starts no path (it ran from `elem_index` through
    /// X1's advance, R's hand-over and the read request into the issue stage's load, the
    /// unit's limiting path at c114bbb, 16.3 ns).
    ex_last: DFF<Bit>,
    /// X1's line, held while its step has more elements or cannot move on.
    line: DFF<Bits<ELEM_BITS>>,
    /// The request's element and access sizes, registered at IDLE for the stages (the request
    /// is held stable until its response, so these equal the decode).
    q_elem_bytes: DFF<Bits<8>>,
    /// The element's bit mask (`elem_bytes` of ones), registered with the sizes: X3's write data
    /// and the group slots start at a flip-flop, not at a shift of the size.
    q_elem_mask: DFF<Bits<ELEM_BITS>>,
    /// The request is red.async, registered with the sizes: RUN's plan and end tests start at
    /// a flip-flop, not at the request's op code (the routed board top's limit at abb7fcd ran
    /// from the core's op register through this compare into the issue stage's load).
    q_red_async: DFF<Bit>,
    q_elem_log: DFF<Bits<8>>,
    q_access_bytes: DFF<Bits<8>>,
    /// X1's step (see "Pipeline"): valid; its line is held in `line` (a vector's later
    /// elements, or an element that cannot move on); the lead's lane, the line address, the
    /// lead's byte offset, the step's byte enables and lanes; per slot: joined, its lane, its
    /// 4-byte word.
    ex_valid: DFF<Bit>,
    ex_have: DFF<Bit>,
    ex_lane: DFF<Bits<LANE_BITS>>,
    ex_line: DFF<Bits<64>>,
    ex_byte_off: DFF<Bits<8>>,
    ex_be: DFF<Bits<16>>,
    ex_lanes: DFF<Bits<WARP_LANES>>,
    ex_x_in: Vec<DFF<Bit>>,
    ex_x_lane: Vec<DFF<Bits<LANE_BITS>>>,
    ex_x_off: Vec<DFF<Bits<2>>>,
    /// X1's line's live mbarrier words, loaded with the line and cleared after X1's first cycle
    /// with it (when its live-word check runs).
    ex_live: DFF<Bits<2>>,
    /// The read stage R (between I and X1, see "Pipeline"): the step whose line read was
    /// granted, its line and live words once they arrive (`rs_have`) while X1 still holds the
    /// step before it. X1 takes its line from flip-flops only (`line`, loaded from the port
    /// or from here), so the shared RAM's read, its stale-row select and the core's read-data
    /// mux end at a register instead of running on into X1's element select (the routed board
    /// top's limiting path at 20910eb). The same fields as X1's.
    rs_valid: DFF<Bit>,
    rs_have: DFF<Bit>,
    rs_data: DFF<Bits<ELEM_BITS>>,
    rs_live: DFF<Bits<2>>,
    rs_lane: DFF<Bits<LANE_BITS>>,
    rs_line: DFF<Bits<64>>,
    rs_byte_off: DFF<Bits<8>>,
    rs_be: DFF<Bits<16>>,
    rs_lanes: DFF<Bits<WARP_LANES>>,
    rs_x_in: Vec<DFF<Bit>>,
    rs_x_lane: Vec<DFF<Bits<LANE_BITS>>>,
    rs_x_off: Vec<DFF<Bits<2>>>,
    /// The step that moved from X1 to X2 at the last edge, for the old-value save one cycle
    /// after X1 (its old values are then in the X2 registers, `x2_r` and the slots'): it saves
    /// (atom, its first element); its lanes, lead lane and, per slot, joined and lane.
    sv_valid: DFF<Bit>,
    sv_lanes: DFF<Bits<WARP_LANES>>,
    sv_lane: DFF<Bits<LANE_BITS>>,
    sv_x_in: Vec<DFF<Bit>>,
    sv_x_lane: Vec<DFF<Bits<LANE_BITS>>>,
    /// X2 (the element's input registers): the lead's element operands (the old element, b, c).
    x2_r: DFF<Bits<ELEM_BITS>>,
    x2_s: DFF<Bits<ELEM_BITS>>,
    x2_t: DFF<Bits<ELEM_BITS>>,
    /// X2 and the element's `ELEMENT_LATENCY` stages (index 0 is X2, the last feeds X3): valid,
    /// first / last element, bit offset, line, byte enables of the element there.
    xe_valid: Vec<DFF<Bit>>,
    xe_first: Vec<DFF<Bit>>,
    xe_last: Vec<DFF<Bit>>,
    xe_shift: Vec<DFF<Bits<8>>>,
    xe_line: Vec<DFF<Bits<64>>>,
    xe_be: Vec<DFF<Bits<16>>>,

    /// X3 (the write stage): as X2, with the lead's new element, and a vector's earlier
    /// elements placed in the line (`x3_acc`). (The slots' join flags move in their
    /// `GroupLane`s.)
    x3_valid: DFF<Bit>,
    x3_first: DFF<Bit>,
    x3_last: DFF<Bit>,
    x3_value: DFF<Bits<ELEM_BITS>>,
    x3_shift: DFF<Bits<8>>,
    x3_line: DFF<Bits<64>>,
    x3_be: DFF<Bits<16>>,
    x3_acc: DFF<Bits<ELEM_BITS>>,
    /// The write buffer: X3's write when the port did not take it in X3's cycle. The port
    /// shows it ahead of X3; X3 waits only while it is full (`en`, from flip-flops: the
    /// write grant, which runs through the top's shared-memory arbiter, stops here instead
    /// of running through `en` into every stage's advance and the next read).
    wb_valid: DFF<Bit>,
    wb_line: DFF<Bits<64>>,
    wb_data: DFF<Bits<ELEM_BITS>>,
    wb_be: DFF<Bits<16>>,
    err: DFF<Bits<ERROR_BITS>>,
    err_lane: DFF<Bits<LANE_BITS>>,
    /// A step's line had a live mbarrier word under one of its lanes (X1, "Errors"): the
    /// plan stops, the later steps are dropped, and the request answers `MbarrierPlainAccess`
    /// at that lane once the earlier steps have written.
    x_fault: DFF<Bit>,
    x_fault_lane: DFF<Bits<LANE_BITS>>,
    /// The old values of the lanes served so far (atom), in `B = max(lanes_per_beat, group)`
    /// banks (lane k in bank k % B): a step writes each of its lanes into that lane's bank.
    results: ResultStore<ELEM_BITS>,
    /// log2 B: a lane's word in its bank is `lane >> log2 B`.
    k_log_banks: Constant<Bits<LANE_BITS>>,
    /// A response row of `L` lanes is part `resp_row % (B / L)` of store row `resp_row / (B / L)`:
    /// log2 (B / L), `B / L - 1`, the numbers of parts 1.. (part 0 is the default).
    k_log_parts: Constant<Bits<LANE_BITS>>,
    k_part_mask: Vec<Constant<Bits<LANE_BITS>>>,
    k_part: Vec<Constant<Bits<LANE_BITS>>>,
    /// (Only when B > L.)
    resp_part: Vec<Signal<Local, Bits<LANE_BITS>>>,
    _beat_lanes: usize,
    _beat_lanes_end: usize,
    /// The lanes of bank b (b, b + B, ...).
    k_bank_lanes: Vec<Constant<Bits<WARP_LANES>>>,
    /// (Only with group slots.) `B - 1`, and each bank's number: a slot's lane is in bank
    /// `lane & (B - 1)`.
    k_bank_mask: Vec<Constant<Bits<LANE_BITS>>>,
    k_bank_index: Vec<Constant<Bits<LANE_BITS>>>,
    /// X1's step moves to X2 at this edge with its old values (atom, its first element); they
    /// are written into the result store at the next edge (`sv_*`).
    save_values: Signal<Local, Bit>,

    // ---- request decode ----
    sub_known: Signal<Local, Bit>,
    is_and_or_xor: Signal<Local, Bit>,
    is_cas: Signal<Local, Bit>,
    is_exch: Signal<Local, Bit>,
    is_add: Signal<Local, Bit>,
    is_inc_dec: Signal<Local, Bit>,
    is_min_max: Signal<Local, Bit>,
    t_b16: Signal<Local, Bit>,
    t_b32: Signal<Local, Bit>,
    t_b64: Signal<Local, Bit>,
    t_b128: Signal<Local, Bit>,
    t_u32: Signal<Local, Bit>,
    t_s32: Signal<Local, Bit>,
    t_u64: Signal<Local, Bit>,
    t_s64: Signal<Local, Bit>,
    t_f32: Signal<Local, Bit>,
    t_f64: Signal<Local, Bit>,
    t_half: Signal<Local, Bit>,
    t_half_scalar: Signal<Local, Bit>,
    t_float: Signal<Local, Bit>,
    noftz: Signal<Local, Bit>,
    scalar_ok: Signal<Local, Bit>,
    legal: Signal<Local, Bit>,
    red_async_ok: Signal<Local, Bit>,
    is_global: Signal<Local, Bit>,
    is_cluster: Signal<Local, Bit>,
    /// log2 of the element size in bytes, then bytes, then log2 of its width in bits.
    elem_lg: Signal<Local, Bits<8>>,
    elem_bytes: Signal<Local, Bits<8>>,
    elem_log: Signal<Local, Bits<8>>,
    access_bytes: Signal<Local, Bits<8>>,
    /// The access size the plan stage uses (`q_access_bytes`: the plan runs in RUN only).
    step_access_bytes: Signal<Local, Bits<8>>,
    req_error: Signal<Local, Bits<ERROR_BITS>>,
    /// The request may coalesce (registered in `q_group_ok`; only with group slots).
    group_ok: Vec<Signal<Local, Bit>>,
    k_four8: Vec<Constant<Bits<8>>>,
    k_eight8: Vec<Constant<Bits<8>>>,

    // ---- plan stage: the next step, from the lane addresses alone ----
    any_lane: Signal<Local, Bit>,
    /// The window's lowest unplanned lane (the lead), one-hot in window bits, and widened.
    w_lowest: Signal<Local, Bits<MAX_GROUP>>,
    widen_lowest: ZeroExtend<MAX_GROUP, WARP_LANES>,
    /// The next window, from `pending` (or, in IDLE, the request's active lanes): its first
    /// lane, its lanes in window bits, and the lanes left outside it.
    next_src: Signal<Local, Bits<WARP_LANES>>,
    next_lowest: Signal<Local, Bits<WARP_LANES>>,
    next_number: LaneNumber,
    next_first: Signal<Local, Bits<LANE_BITS>>,
    cut_next_pool: Truncate<WARP_LANES, MAX_GROUP>,
    next_pool: Signal<Local, Bits<MAX_GROUP>>,
    next_rest: Signal<Local, Bits<WARP_LANES>>,
    /// The window's lanes after the planned step.
    win_left: Signal<Local, Bits<MAX_GROUP>>,
    /// The plan stage hands its step to the issue stage at this edge.
    p_take: Signal<Local, Bit>,
    k_win_ones: Constant<Bits<MAX_GROUP>>,
    k_win_ones32: Constant<Bits<WARP_LANES>>,
    k_zero_w: Constant<Bits<MAX_GROUP>>,
    /// The lane operands packed (lane j at `W * j`): a picked lane's operands are part-selects at
    /// its number times `W` (see `PackLanes`).
    pack_addr: PackLanes<64, 2048>,
    pack_mbar: PackLanes<64, 2048>,
    pack_b: PackLanes<ELEM_BITS, 4096>,
    pack_c: PackLanes<ELEM_BITS, 4096>,
    lead_number: LaneNumber,
    /// The check stage's window (`nw_first`, a register): its lanes' checks (each picks its
    /// lanes from `win_addr`); `cta_bad` = the
    /// request's CTA slot is past the config's.
    check: Vec<LaneCheck>,
    cta_bad: Signal<Local, Bit>,
    /// The plan stage loads the check stage's window at this edge.
    p_load: Signal<Local, Bit>,
    /// Window bit a (a < n).
    k_win_bit: Vec<Constant<Bits<MAX_GROUP>>>,
    /// The lead's registered checks: line, byte offset, the later lanes in its line.
    lead_line: Signal<Local, Bits<64>>,
    lead_off: Signal<Local, Bits<8>>,
    /// (Only with group slots.)
    lead_same: Vec<Signal<Local, Bits<MAX_GROUP>>>,
    /// red.async's lane: the check stage window's lowest lane (the request's first active lane
    /// in RUN's first cycle, where red.async answers), one-hot, widened, its place.
    ra_lowest: Signal<Local, Bits<MAX_GROUP>>,
    widen_ra: ZeroExtend<MAX_GROUP, WARP_LANES>,
    ra_number: LaneNumber,
    /// The step's window: the `n = group_size` lanes (n-aligned) around the lead; the lead and
    /// the lanes that join it are all in it. Its first lane, its lanes, and its addresses
    /// ([`MAX_GROUP`] lanes wide, the lanes past `n` unused): part-selects of the packed words
    /// at n-lane steps (a (32 / n):1 mux per bit), from which the lead and each slot pick one of
    /// n lanes. Two small muxes instead of a 32:1 mux per slot and operand bit. (The execute
    /// stage picks the operands b and c the same way, at its registered lanes.)
    /// (Addressed by the check stage's `nw_first`.) `k_zero8`: only with group slots.
    win_addr: LanePart<{ 64 * MAX_GROUP }, 2048, 11>,
    win_mbar: LanePart<{ 64 * MAX_GROUP }, 2048, 11>,
    /// The lead's place in the plan window; red.async's lane's address and mbarrier address.
    lead_slot: Signal<Local, Bits<LANE_BITS>>,
    lead_addr: LanePart<64, { 64 * MAX_GROUP }, 9>,
    lead_mbar: LanePart<64, { 64 * MAX_GROUP }, 9>,
    /// `!(n - 1)` and `n - 1` on a lane number; n ones.
    k_window_mask: Constant<Bits<LANE_BITS>>,
    /// log2 B and B - 1 on a lane number (its operand-store row, its place in the row).
    k_row_log: Constant<Bits<LANE_BITS>>,
    k_row_mask: Constant<Bits<LANE_BITS>>,
    /// The operand rows' lanes (B) as a loop bound.
    _row_lanes: usize,
    k_slot_mask: Constant<Bits<LANE_BITS>>,
    k_zero8: Vec<Constant<Bits<MAX_GROUP>>>,
    cur_lane: Signal<Local, Bits<LANE_BITS>>,
    /// red.async's lane (the first active): its address and mbarrier address, registered in
    /// RUN's first cycle and checked in its second (`ra_checked`), so that the lane pick from
    /// the check stage's pool and the 64-bit window compares are two cycles, not one (they
    /// were the unit's limiting path at 20910eb, 16.6 ns).
    ra_addr: DFF<Bits<64>>,
    ra_mbar: DFF<Bits<64>>,
    ra_checked: DFF<Bit>,
    /// The plan lead's error (registered check).
    lane_error: Signal<Local, Bits<ERROR_BITS>>,
    red_async_error: Signal<Local, Bits<ERROR_BITS>>,
    /// Byte enables of one access at byte 0; `access_bytes - 1`; `global_end - access_bytes`.
    access_be: Signal<Local, Bits<16>>,
    align_mask: Signal<Local, Bits<64>>,
    /// The range checks' bound for the request's space (see `LaneCheck::limit`), from the
    /// decoded access size, and registered at IDLE (a request constant): `q_limit`.
    limit: Signal<Local, Bits<64>>,
    widen_req_access: ZeroExtend<8, 64>,
    q_limit: DFF<Bits<64>>,
    k_cluster_limit: Constant<Bits<64>>,
    /// The lead's byte enables.
    lead_be: Signal<Local, Bits<16>>,
    /// Window lanes after the lead not yet offered to a slot (bit i: the window's lane i):
    /// `x_pool[j]` is offered to slot j.
    x_pool: Vec<Signal<Local, Bits<MAX_GROUP>>>,
    /// The lowest lane of `x_pool[j]` (one-hot; zero when the pool is empty), as a window bit
    /// and as a lane bit.
    x_pick: Vec<Signal<Local, Bits<MAX_GROUP>>>,
    widen_pick: Vec<ZeroExtend<MAX_GROUP, WARP_LANES>>,
    /// `x_pick[j]`'s place in the window, and its address from the window.
    x_number: Vec<LaneNumber>,
    x_slot: Vec<Signal<Local, Bits<LANE_BITS>>>,
    /// Slot j's lane's registered checks: its byte enables, its 4-byte word in the line.
    x_be: Vec<Signal<Local, Bits<16>>>,
    x_word: Vec<Signal<Local, Bits<2>>>,
    /// The join decision per window lane b (only with group slots): b leads; b is a
    /// candidate (in the pool, not the lead); b fits the lead's step (no error, the lead's
    /// line); b overlaps the lead or an earlier candidate that fits; b is a candidate that
    /// cannot join (does not fit or overlaps); b joins (no candidate before it failed).
    j_lead: Vec<Signal<Local, Bit>>,
    j_cand: Vec<Signal<Local, Bit>>,
    j_fits: Vec<Signal<Local, Bit>>,
    j_conf: Vec<Signal<Local, Bit>>,
    j_fail: Vec<Signal<Local, Bit>>,
    j_in: Vec<Signal<Local, Bit>>,
    /// A candidate before lane b cannot join (so b does not: the joins are a prefix).
    j_fb: Vec<Signal<Local, Bit>>,
    /// A lane of the window is left after the planned step (= `win_left` is not empty): some
    /// candidate cannot join. Flat, for `p_load`.
    win_left_any: Signal<Local, Bit>,
    /// Slot j's lane joins the step (so did every slot before it).
    x_in: Vec<Signal<Local, Bit>>,
    /// Accumulated up to slot j over the lead and the slots that joined: bytes claimed, lanes.
    acc_be: Vec<Signal<Local, Bits<16>>>,
    acc_w: Vec<Signal<Local, Bits<MAX_GROUP>>>,
    /// The planned step: byte enables and lanes.
    plan_be: Signal<Local, Bits<16>>,
    plan_lanes: Signal<Local, Bits<WARP_LANES>>,
    /// The planned step's lanes in window bits, and widened.
    plan_w: Signal<Local, Bits<MAX_GROUP>>,
    widen_plan: ZeroExtend<MAX_GROUP, WARP_LANES>,
    /// Which steps in R..X3 and the write buffer share a byte with the issue stage's step
    /// (`hazard.rs`: flip-flops moved with the steps, the compares done at the plan).
    hazards: StepHazards,
    /// The plan stage has a lane without error; it hands its step over this cycle.
    /// X3 holds a step's last element: the step writes its line (to the port or the buffer).
    x3_write: Signal<Local, Bit>,
    plan_ok: Signal<Local, Bit>,
    plan_go: Signal<Local, Bit>,

    // ---- execute stage: one element of the step's lead (and its slots) per cycle ----
    /// The execute stage can take a step at this clock edge (empty, or its step ends now).
    ex_open: Signal<Local, Bit>,
    /// R's step moves to X1 at this edge; R can take a step at this edge; the line arriving
    /// now is X1's step's, R's step's; a read is granted and not yet answered (one at a time
    /// on global memory).
    rs_move: Signal<Local, Bit>,
    rs_open: Signal<Local, Bit>,
    arrive_x1: Signal<Local, Bit>,
    arrive_rs: Signal<Local, Bit>,
    read_out: Signal<Local, Bit>,
    /// The execute stage's window (first lane), the lead's place in it, each slot's place.
    ex_window: Signal<Local, Bits<LANE_BITS>>,
    ex_slot: Signal<Local, Bits<LANE_BITS>>,
    ex_x_slot: Vec<Signal<Local, Bits<LANE_BITS>>>,
    win_b: LanePart<{ ELEM_BITS * MAX_GROUP }, 4096, 12>,
    win_c: LanePart<{ ELEM_BITS * MAX_GROUP }, 4096, 12>,
    lead_b: LanePart<ELEM_BITS, { ELEM_BITS * MAX_GROUP }, 10>,
    lead_c: LanePart<ELEM_BITS, { ELEM_BITS * MAX_GROUP }, 10>,
    x_b: Vec<LanePart<64, { ELEM_BITS * MAX_GROUP }, 10>>,
    x_c: Vec<LanePart<64, { ELEM_BITS * MAX_GROUP }, 10>>,
    src_line: Signal<Local, Bits<ELEM_BITS>>,
    stepping: Signal<Local, Bit>,
    /// The pipeline moves at this edge (X3 does not wait behind the write buffer); X1 hands an element to
    /// X2; it is the step's first; X1..X3 are empty after this edge.
    en: Signal<Local, Bit>,
    x1_adv: Signal<Local, Bit>,
    first_elem: Signal<Local, Bit>,
    drained: Signal<Local, Bit>,
    /// X1's live-word check: the live words of the line arriving now (else 0); the lead's
    /// access, slot j's lane touch one; a live word is under the lead or a slot up to j; slot
    /// j stays in the step; the bytes of the slots cut up to j; the step's bytes left; a
    /// plain access to a live mbarrier found now.
    x1_live: Signal<Local, Bits<2>>,
    lead_hit: Signal<Local, Bit>,
    x_hit: Vec<Signal<Local, Bit>>,
    x_cut: Vec<Signal<Local, Bit>>,
    x1_in: Vec<Signal<Local, Bit>>,
    x_cut_be: Vec<Signal<Local, Bits<16>>>,
    widen_x_off: Vec<ZeroExtend<2, 8>>,
    x1_be: Signal<Local, Bits<16>>,
    x1_fault: Signal<Local, Bit>,
    elem_shift: Signal<Local, Bits<8>>,
    elem_mask: Signal<Local, Bits<ELEM_BITS>>,
    last_elem: Signal<Local, Bit>,
    old_value: Signal<Local, Bits<ELEM_BITS>>,
    /// X3: the lead's element (and a vector's earlier ones) placed in the line; accumulated up
    /// to slot j with the joined slots' elements; the write data.
    lead_put: Signal<Local, Bits<ELEM_BITS>>,
    acc_value: Vec<Signal<Local, Bits<ELEM_BITS>>>,
    step_value: Signal<Local, Bits<ELEM_BITS>>,

    // ---- constants ----
    st_idle: Constant<Bits<STATE_BITS>>,
    st_run: Constant<Bits<STATE_BITS>>,
    st_resp: Constant<Bits<STATE_BITS>>,
    op_atom: Constant<Bits<OP_BITS>>,
    op_red: Constant<Bits<OP_BITS>>,
    op_red_async: Constant<Bits<OP_BITS>>,
    a_and: Constant<Bits<ATOM_OP_BITS>>,
    a_or: Constant<Bits<ATOM_OP_BITS>>,
    a_xor: Constant<Bits<ATOM_OP_BITS>>,
    a_cas: Constant<Bits<ATOM_OP_BITS>>,
    a_exch: Constant<Bits<ATOM_OP_BITS>>,
    a_add: Constant<Bits<ATOM_OP_BITS>>,
    a_inc: Constant<Bits<ATOM_OP_BITS>>,
    a_dec: Constant<Bits<ATOM_OP_BITS>>,
    a_min: Constant<Bits<ATOM_OP_BITS>>,
    a_max: Constant<Bits<ATOM_OP_BITS>>,
    d_b16: Constant<Bits<DTYPE_BITS>>,
    d_b32: Constant<Bits<DTYPE_BITS>>,
    d_b64: Constant<Bits<DTYPE_BITS>>,
    d_b128: Constant<Bits<DTYPE_BITS>>,
    d_u32: Constant<Bits<DTYPE_BITS>>,
    d_u64: Constant<Bits<DTYPE_BITS>>,
    d_s32: Constant<Bits<DTYPE_BITS>>,
    d_s64: Constant<Bits<DTYPE_BITS>>,
    d_f32: Constant<Bits<DTYPE_BITS>>,
    d_f64: Constant<Bits<DTYPE_BITS>>,
    d_f16: Constant<Bits<DTYPE_BITS>>,
    d_bf16: Constant<Bits<DTYPE_BITS>>,
    d_f16x2: Constant<Bits<DTYPE_BITS>>,
    d_bf16x2: Constant<Bits<DTYPE_BITS>>,
    sp_global: Constant<Bits<SPACE_BITS>>,
    sp_cluster: Constant<Bits<SPACE_BITS>>,
    v1: Constant<Bits<VEC_BITS>>,
    v2: Constant<Bits<VEC_BITS>>,
    v4: Constant<Bits<VEC_BITS>>,
    v8: Constant<Bits<VEC_BITS>>,
    flag_noftz: Constant<Bits<FLAG_BITS>>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_plain: Constant<Bits<ERROR_BITS>>,
    e_bad_type: Constant<Bits<ERROR_BITS>>,
    e_not_built: Constant<Bits<ERROR_BITS>>,
    e_shared_range: Constant<Bits<ERROR_BITS>>,
    e_mb_align: Constant<Bits<ERROR_BITS>>,
    e_red_async_target: Constant<Bits<ERROR_BITS>>,
    /// features.float_atomics / features.atomic_b128 / cluster_size == 1.
    k_float_atomics: Constant<Bit>,
    k_atomic_b128: Constant<Bit>,
    k_single_cta_cluster: Constant<Bit>,
    k_last_slot: Constant<Bits<SLOT_BITS>>,
    k_shared_bytes: Constant<Bits<64>>,
    k_cluster_base: Constant<Bits<64>>,
    /// `CLUSTER_BASE + WINDOW`: the first address past the executing CTA's shared::cluster window.
    k_window_end: Constant<Bits<64>>,
    k_mbar_align: Constant<Bits<64>>,
    k_one64: Constant<Bits<64>>,
    k_ones128: Constant<Bits<ELEM_BITS>>,
    k_zero32: Constant<Bits<WARP_LANES>>,
    k_zero_lane: Constant<Bits<LANE_BITS>>,
    k_zero_idx: Constant<Bits<4>>,
    k_one_idx: Constant<Bits<4>>,
    k_line_bytes: Constant<Bits<8>>,
    k_one8: Constant<Bits<8>>,
    k_three8: Constant<Bits<8>>,
    /// The bit offsets of an element in its 16-byte line are multiples of 16 below 128 (every
    /// atomic element is 2, 4, 8 or 16 bytes and aligned to its size, PTX ISA §9.7.13.5; a
    /// misaligned lane faults in the check stage and is never executed). Masking a shift amount
    /// with this makes that visible to synthesis: a 3-level shifter instead of an 8-level one.
    k_half_word_shift: Constant<Bits<8>>,
    k_ones16: Constant<Bits<16>>,
    /// `common::dtype_log2_bytes_table`, and the mask of one of its 4-bit entries.
    k_dtype_lg: Constant<Bits<64>>,
    k_nibble: Constant<Bits<64>>,
}

impl AtomicAlu {
    pub fn new(config: &Config) -> AtomicAlu {
        let op = |o: Op| Constant::new(op_code(o));
        let aop = |o: AtomOp| Constant::new((o.code() as u64).to_bits());
        let ty = |t: DataType| Constant::new((t.code() as u64).to_bits());
        let sp = |s: Space| Constant::new((s.code() as u64).to_bits());
        let err = |e: ErrorCode| Constant::new(error_code(e));
        let k64 = |v: u64| Constant::new(v.to_bits());
        let vecc = |v: u64| Constant::new(v.to_bits());
        let beat = config.lanes_per_beat as usize;
        let group = group_size(config);
        let banks = operand_row_lanes(config);
        let latency = element_latency(config);
        let bank_lanes = |b: usize| (b..WARP_LANES).step_by(banks).fold(0u64, |m, k| m | 1 << k);
        AtomicAlu {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_sub: Default::default(),
            req_dtype: Default::default(),
            req_flags: Default::default(),
            req_space: Default::default(),
            req_vec: Default::default(),
            req_cta: Default::default(),
            req_active: Default::default(),
            plan_row: Default::default(),
            row_addr: (0..banks).map(|_| Default::default()).collect(),
            row_mbar: (0..banks).map(|_| Default::default()).collect(),
            ex_row: Default::default(),
            row_b: (0..banks).map(|_| Default::default()).collect(),
            row_c: (0..banks).map(|_| Default::default()).collect(),
            global_end: Default::default(),
            m_global: Default::default(),
            m_slot: Default::default(),
            m_rreq: Default::default(),
            m_rgrant: Default::default(),
            m_raddr: Default::default(),
            m_rvalid: Default::default(),
            m_rdata: Default::default(),
            m_rlive: Default::default(),
            m_wreq: Default::default(),
            m_wgrant: Default::default(),
            m_waddr: Default::default(),
            m_wdata: Default::default(),
            m_be: Default::default(),
            resp_valid: Default::default(),
            resp_row: Default::default(),
            resp_row_values: (0..config.lanes_per_beat).map(|_| Default::default()).collect(),
            resp_error: Default::default(),
            resp_error_lane: Default::default(),
            lend_req: Default::default(),
            lend_op: Default::default(),
            lend_dtype: Default::default(),
            lend_r: Default::default(),
            lend_s: Default::default(),
            lend_grant: Default::default(),
            lend_value: Default::default(),
            element: AtomicElement::build(lead_kinds(config), latency > 0),
            lent: Default::default(),
            active: Default::default(),
            lend_now: Default::default(),
            group: (1..group)
                .map(|slot| GroupLane::new(group_kinds(config.features.float_atomics), latency, slot * 8 < 16))
                .collect(),
            widen_access: Default::default(),
            widen_elem_index: Default::default(),
            widen_dtype: Default::default(),
            cut_elem_lg: Default::default(),
            state: Default::default(),
            win_pool: Default::default(),
            nw_valid: Default::default(),
            nw_first: Default::default(),
            nw_pool: Default::default(),
            nw_fresh: Default::default(),
            held_addr: (0..banks).map(|_| Default::default()).collect(),
            held_mbar: (0..banks).map(|_| Default::default()).collect(),
            wl_err: (0..group).map(|_| Default::default()).collect(),
            wl_ok: (0..group).filter(|_| group > 1).map(|_| Default::default()).collect(),
            wl_line: (0..group).map(|_| Default::default()).collect(),
            wl_off: (0..group).map(|_| Default::default()).collect(),
            wl_be: (0..group).map(|_| Default::default()).collect(),
            wl_same: (1..group).map(|_| Default::default()).collect(),
            wl_ov: (1..group).map(|_| Default::default()).collect(),
            q_group_ok: (1..group.min(2)).map(|_| Default::default()).collect(),
            group_ok: (1..group.min(2)).map(|_| Default::default()).collect(),
            k_four8: (1..group.min(2)).map(|_| Constant::new(4u64.to_bits())).collect(),
            k_eight8: (1..group.min(2)).map(|_| Constant::new(8u64.to_bits())).collect(),
            check: (0..group).map(|a| LaneCheck::new(a, group)).collect(),
            cta_bad: Default::default(),
            p_load: Default::default(),
            k_win_bit: (0..group).map(|a| Constant::new((1u64 << a).to_bits())).collect(),
            lead_line: Default::default(),
            lead_off: Default::default(),
            lead_same: (1..group.min(2)).map(|_| Default::default()).collect(),
            ra_lowest: Default::default(),
            widen_ra: Default::default(),
            ra_number: Default::default(),
            win_first: Default::default(),
            pending: Default::default(),
            iss_valid: Default::default(),
            iss_lane: Default::default(),
            iss_line: Default::default(),
            iss_byte_off: Default::default(),
            iss_be: Default::default(),
            iss_lanes: Default::default(),
            iss_x_in: (1..group).map(|_| Default::default()).collect(),
            iss_x_lane: (1..group).map(|_| Default::default()).collect(),
            iss_x_off: (1..group).map(|_| Default::default()).collect(),
            skid_valid: Default::default(),
            skid_lane: Default::default(),
            skid_line: Default::default(),
            skid_byte_off: Default::default(),
            skid_be: Default::default(),
            skid_lanes: Default::default(),
            skid_x_in: (1..group).map(|_| Default::default()).collect(),
            skid_x_lane: (1..group).map(|_| Default::default()).collect(),
            skid_x_off: (1..group).map(|_| Default::default()).collect(),
            elem_index: Default::default(),
            ex_last: Default::default(),
            line: Default::default(),
            q_elem_bytes: Default::default(),
            q_elem_mask: Default::default(),
            q_red_async: Default::default(),
            q_elem_log: Default::default(),
            q_access_bytes: Default::default(),
            ex_valid: Default::default(),
            ex_have: Default::default(),
            ex_lane: Default::default(),
            ex_line: Default::default(),
            ex_byte_off: Default::default(),
            ex_be: Default::default(),
            ex_lanes: Default::default(),
            ex_x_in: (1..group).map(|_| Default::default()).collect(),
            ex_x_lane: (1..group).map(|_| Default::default()).collect(),
            ex_x_off: (1..group).map(|_| Default::default()).collect(),
            ex_live: Default::default(),
            rs_valid: Default::default(),
            rs_have: Default::default(),
            rs_data: Default::default(),
            rs_live: Default::default(),
            rs_lane: Default::default(),
            rs_line: Default::default(),
            rs_byte_off: Default::default(),
            rs_be: Default::default(),
            rs_lanes: Default::default(),
            rs_x_in: (1..group).map(|_| Default::default()).collect(),
            rs_x_lane: (1..group).map(|_| Default::default()).collect(),
            rs_x_off: (1..group).map(|_| Default::default()).collect(),
            sv_valid: Default::default(),
            sv_lanes: Default::default(),
            sv_lane: Default::default(),
            sv_x_in: (1..group).map(|_| Default::default()).collect(),
            sv_x_lane: (1..group).map(|_| Default::default()).collect(),
            x2_r: Default::default(),
            x2_s: Default::default(),
            x2_t: Default::default(),
            xe_valid: (0..=latency).map(|_| Default::default()).collect(),
            xe_first: (0..=latency).map(|_| Default::default()).collect(),
            xe_last: (0..=latency).map(|_| Default::default()).collect(),
            xe_shift: (0..=latency).map(|_| Default::default()).collect(),
            xe_line: (0..=latency).map(|_| Default::default()).collect(),
            xe_be: (0..=latency).map(|_| Default::default()).collect(),

            x3_valid: Default::default(),
            x3_first: Default::default(),
            x3_last: Default::default(),
            x3_value: Default::default(),
            x3_shift: Default::default(),
            x3_line: Default::default(),
            x3_be: Default::default(),
            x3_acc: Default::default(),
            wb_valid: Default::default(),
            wb_line: Default::default(),
            wb_data: Default::default(),
            wb_be: Default::default(),
            x3_write: Default::default(),
            err: Default::default(),
            err_lane: Default::default(),
            x_fault: Default::default(),
            x_fault_lane: Default::default(),
            results: ResultStore::with_banks(banks),
            k_log_banks: Constant::new((banks.trailing_zeros() as u64).to_bits()),
            k_log_parts: Constant::new(((banks / beat).trailing_zeros() as u64).to_bits()),
            k_part_mask: (0..((banks > beat) as usize))
                .map(|_| Constant::new((banks as u64 / beat as u64 - 1).to_bits()))
                .collect(),
            k_part: (1..(banks / beat) as u64).map(|s| Constant::new(s.to_bits())).collect(),
            resp_part: (0..((banks > beat) as usize)).map(|_| Default::default()).collect(),
            _beat_lanes: beat,
            _beat_lanes_end: beat + 1,
            k_bank_lanes: (0..banks).map(|b| Constant::new(bank_lanes(b).to_bits())).collect(),
            k_bank_mask: (1..group.min(2)).map(|_| Constant::new((banks as u64 - 1).to_bits())).collect(),
            k_bank_index: (0..if group > 1 { banks } else { 0 }).map(|b| Constant::new((b as u64).to_bits())).collect(),
            save_values: Default::default(),
            sub_known: Default::default(),
            is_and_or_xor: Default::default(),
            is_cas: Default::default(),
            is_exch: Default::default(),
            is_add: Default::default(),
            is_inc_dec: Default::default(),
            is_min_max: Default::default(),
            t_b16: Default::default(),
            t_b32: Default::default(),
            t_b64: Default::default(),
            t_b128: Default::default(),
            t_u32: Default::default(),
            t_s32: Default::default(),
            t_u64: Default::default(),
            t_s64: Default::default(),
            t_f32: Default::default(),
            t_f64: Default::default(),
            t_half: Default::default(),
            t_half_scalar: Default::default(),
            t_float: Default::default(),
            noftz: Default::default(),
            scalar_ok: Default::default(),
            legal: Default::default(),
            red_async_ok: Default::default(),
            is_global: Default::default(),
            is_cluster: Default::default(),
            elem_lg: Default::default(),
            elem_bytes: Default::default(),
            elem_log: Default::default(),
            access_bytes: Default::default(),
            step_access_bytes: Default::default(),
            req_error: Default::default(),
            any_lane: Default::default(),
            w_lowest: Default::default(),
            widen_lowest: Default::default(),
            next_src: Default::default(),
            next_lowest: Default::default(),
            next_number: Default::default(),
            next_first: Default::default(),
            cut_next_pool: Default::default(),
            next_pool: Default::default(),
            next_rest: Default::default(),
            win_left: Default::default(),
            p_take: Default::default(),
            k_win_ones: Constant::new(((1u64 << group) - 1).to_bits()),
            k_win_ones32: Constant::new(((1u64 << group) - 1).to_bits()),
            k_zero_w: Constant::new(0u64.to_bits()),
            pack_addr: PackLanes::new(),
            pack_mbar: PackLanes::new(),
            pack_b: PackLanes::new(),
            pack_c: PackLanes::new(),
            lead_number: Default::default(),
            win_addr: Default::default(),
            win_mbar: Default::default(),
            lead_slot: Default::default(),
            lead_addr: LanePart::with_stride(64),
            lead_mbar: LanePart::with_stride(64),
            k_window_mask: Constant::new((!(group as u64 - 1) & 31).to_bits()),
            k_row_log: Constant::new((banks.trailing_zeros() as u64).to_bits()),
            k_row_mask: Constant::new((banks as u64 - 1).to_bits()),
            _row_lanes: banks,
            k_slot_mask: Constant::new((group as u64 - 1).to_bits()),
            k_zero8: (1..group.min(2)).map(|_| Constant::new(0u64.to_bits())).collect(),
            cur_lane: Default::default(),
            ra_addr: Default::default(),
            ra_mbar: Default::default(),
            ra_checked: Default::default(),
            lane_error: Default::default(),
            red_async_error: Default::default(),
            access_be: Default::default(),
            align_mask: Default::default(),
            limit: Default::default(),
            widen_req_access: Default::default(),
            q_limit: Default::default(),
            k_cluster_limit: k64(config.shared_bytes as u64 + CLUSTER_BASE),
            lead_be: Default::default(),
            x_pool: (1..group).map(|_| Default::default()).collect(),
            x_pick: (1..group).map(|_| Default::default()).collect(),
            widen_pick: (1..group).map(|_| Default::default()).collect(),
            x_number: (1..group).map(|_| Default::default()).collect(),
            x_slot: (1..group).map(|_| Default::default()).collect(),
            j_lead: (0..group).filter(|_| group > 1).map(|_| Default::default()).collect(),
            j_cand: (0..group).filter(|_| group > 1).map(|_| Default::default()).collect(),
            j_fits: (0..group).filter(|_| group > 1).map(|_| Default::default()).collect(),
            j_conf: (0..group).filter(|_| group > 1).map(|_| Default::default()).collect(),
            j_fail: (0..group).filter(|_| group > 1).map(|_| Default::default()).collect(),
            j_in: (0..group).filter(|_| group > 1).map(|_| Default::default()).collect(),
            j_fb: (0..group).filter(|_| group > 1).map(|_| Default::default()).collect(),
            win_left_any: Default::default(),
            x_be: (1..group).map(|_| Default::default()).collect(),
            x_word: (1..group).map(|_| Default::default()).collect(),
            x_in: (1..group).map(|_| Default::default()).collect(),
            acc_be: (1..group).map(|_| Default::default()).collect(),
            acc_w: (1..group).map(|_| Default::default()).collect(),
            plan_be: Default::default(),
            plan_lanes: Default::default(),
            plan_w: Default::default(),
            widen_plan: Default::default(),
            hazards: StepHazards::new(latency + 1),
            plan_ok: Default::default(),
            plan_go: Default::default(),
            ex_open: Default::default(),
            rs_move: Default::default(),
            rs_open: Default::default(),
            arrive_x1: Default::default(),
            arrive_rs: Default::default(),
            read_out: Default::default(),
            ex_window: Default::default(),
            ex_slot: Default::default(),
            ex_x_slot: (1..group).map(|_| Default::default()).collect(),
            win_b: Default::default(),
            win_c: Default::default(),
            lead_b: LanePart::with_stride(ELEM_BITS),
            lead_c: LanePart::with_stride(ELEM_BITS),
            x_b: (1..group).map(|_| LanePart::with_stride(ELEM_BITS)).collect(),
            x_c: (1..group).map(|_| LanePart::with_stride(ELEM_BITS)).collect(),
            src_line: Default::default(),
            stepping: Default::default(),
            en: Default::default(),
            x1_adv: Default::default(),
            first_elem: Default::default(),
            drained: Default::default(),
            x1_live: Default::default(),
            lead_hit: Default::default(),
            x_hit: (1..group).map(|_| Default::default()).collect(),
            x_cut: (1..group).map(|_| Default::default()).collect(),
            x1_in: (1..group).map(|_| Default::default()).collect(),
            x_cut_be: (1..group).map(|_| Default::default()).collect(),
            widen_x_off: (1..group).map(|_| Default::default()).collect(),
            x1_be: Default::default(),
            x1_fault: Default::default(),
            elem_shift: Default::default(),
            elem_mask: Default::default(),
            last_elem: Default::default(),
            old_value: Default::default(),
            lead_put: Default::default(),
            acc_value: (1..group).map(|_| Default::default()).collect(),
            step_value: Default::default(),
            st_idle: Constant::new(S_IDLE.to_bits()),
            st_run: Constant::new(S_RUN.to_bits()),
            st_resp: Constant::new(S_RESP.to_bits()),
            op_atom: op(Op::Atom),
            op_red: op(Op::Red),
            op_red_async: op(Op::RedAsync),
            a_and: aop(AtomOp::And),
            a_or: aop(AtomOp::Or),
            a_xor: aop(AtomOp::Xor),
            a_cas: aop(AtomOp::Cas),
            a_exch: aop(AtomOp::Exch),
            a_add: aop(AtomOp::Add),
            a_inc: aop(AtomOp::Inc),
            a_dec: aop(AtomOp::Dec),
            a_min: aop(AtomOp::Min),
            a_max: aop(AtomOp::Max),
            d_b16: ty(DataType::B16),
            d_b32: ty(DataType::B32),
            d_b64: ty(DataType::B64),
            d_b128: ty(DataType::B128),
            d_u32: ty(DataType::U32),
            d_u64: ty(DataType::U64),
            d_s32: ty(DataType::S32),
            d_s64: ty(DataType::S64),
            d_f32: ty(DataType::F32),
            d_f64: ty(DataType::F64),
            d_f16: ty(DataType::F16),
            d_bf16: ty(DataType::Bf16),
            d_f16x2: ty(DataType::F16x2),
            d_bf16x2: ty(DataType::Bf16x2),
            sp_global: sp(Space::Global),
            sp_cluster: sp(Space::SharedCluster),
            v1: vecc(1),
            v2: vecc(2),
            v4: vecc(4),
            v8: vecc(8),
            flag_noftz: Constant::new((flags::MOD_A as u64).to_bits()),
            e_none: err(ErrorCode::None),
            e_plain: err(ErrorCode::MbarrierPlainAccess),
            e_bad_type: err(ErrorCode::AtomBadType),
            e_not_built: err(ErrorCode::NotBuilt),
            e_shared_range: err(ErrorCode::SharedOutOfRange),
            e_mb_align: err(ErrorCode::MbAlign),
            e_red_async_target: err(ErrorCode::RedAsyncTarget),
            k_float_atomics: Constant::new(config.features.float_atomics),
            k_atomic_b128: Constant::new(config.features.atomic_b128),
            k_single_cta_cluster: Constant::new(config.cluster_size == 1),
            k_last_slot: Constant::new(((config.cta_slots - 1) as u64).to_bits()),
            k_shared_bytes: k64(config.shared_bytes as u64),
            k_cluster_base: k64(CLUSTER_BASE),
            k_window_end: k64(CLUSTER_BASE + WINDOW),
            k_mbar_align: k64(7),
            k_one64: k64(1),
            k_ones128: Constant::new(u128::MAX.to_bits()),
            k_zero32: Constant::new(0u64.to_bits()),
            k_zero_lane: Constant::new(0u64.to_bits()),
            k_zero_idx: Constant::new(0u64.to_bits()),
            k_one_idx: Constant::new(1u64.to_bits()),
            k_line_bytes: Constant::new(16u64.to_bits()),
            k_one8: Constant::new(1u64.to_bits()),
            k_three8: Constant::new(3u64.to_bits()),
            k_half_word_shift: Constant::new(0x70u64.to_bits()),
            k_ones16: Constant::new(0xFFFFu64.to_bits()),
            k_dtype_lg: Constant::new(dtype_log2_bytes_table()),
            k_nibble: k64(0xF),
        }
    }
}

impl Logic for AtomicAlu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            lent,
            active,
            win_pool,
            win_first,
            pending,
            nw_valid,
            nw_first,
            nw_pool,
            nw_fresh,
            ra_addr,
            ra_mbar,
            ra_checked,
            iss_valid,
            iss_lane,
            iss_line,
            iss_byte_off,
            iss_be,
            iss_lanes,
            skid_valid,
            skid_lane,
            skid_line,
            skid_byte_off,
            skid_be,
            skid_lanes,
            elem_index,
            ex_last,
            line,
            err,
            err_lane,
            x_fault,
            x_fault_lane,
            ex_valid,
            ex_have,
            ex_lane,
            ex_line,
            ex_byte_off,
            ex_be,
            ex_lanes,
            ex_live,
            rs_valid,
            rs_have,
            rs_data,
            rs_live,
            rs_lane,
            rs_line,
            rs_byte_off,
            rs_be,
            rs_lanes,
            q_elem_bytes,
            q_elem_mask,
            q_red_async,
            q_elem_log,
            q_access_bytes,
            q_limit,
            sv_valid,
            sv_lanes,
            sv_lane,
            x2_r,
            x2_s,
            x2_t,
            x3_valid,
            x3_first,
            x3_last,
            x3_value,
            x3_shift,
            x3_line,
            x3_be,
            x3_acc,
            wb_valid,
            wb_line,
            wb_data,
            wb_be
        );
        self.results.clock.next = self.clock.val();
        self.results.clear.next = false;
        for g in 0..self.q_group_ok.len() {
            self.q_group_ok[g].clock.next = self.clock.val();
            self.q_group_ok[g].d.next = self.q_group_ok[g].q.val();
        }
        for i in 0..self.held_addr.len() {
            self.held_addr[i].clock.next = self.clock.val();
            self.held_mbar[i].clock.next = self.clock.val();
        }

        // ================= request decode (the golden `check` / `legal`) =================
        self.is_and_or_xor.next = (self.req_sub.val() == self.a_and.val())
            | (self.req_sub.val() == self.a_or.val())
            | (self.req_sub.val() == self.a_xor.val());
        self.is_cas.next = self.req_sub.val() == self.a_cas.val();
        self.is_exch.next = self.req_sub.val() == self.a_exch.val();
        self.is_add.next = self.req_sub.val() == self.a_add.val();
        self.is_inc_dec.next = (self.req_sub.val() == self.a_inc.val()) | (self.req_sub.val() == self.a_dec.val());
        self.is_min_max.next = (self.req_sub.val() == self.a_min.val()) | (self.req_sub.val() == self.a_max.val());
        self.sub_known.next = self.is_and_or_xor.val()
            | self.is_cas.val()
            | self.is_exch.val()
            | self.is_add.val()
            | self.is_inc_dec.val()
            | self.is_min_max.val();
        self.t_b16.next = self.req_dtype.val() == self.d_b16.val();
        self.t_b32.next = self.req_dtype.val() == self.d_b32.val();
        self.t_b64.next = self.req_dtype.val() == self.d_b64.val();
        self.t_b128.next = self.req_dtype.val() == self.d_b128.val();
        self.t_u32.next = self.req_dtype.val() == self.d_u32.val();
        self.t_s32.next = self.req_dtype.val() == self.d_s32.val();
        self.t_u64.next = self.req_dtype.val() == self.d_u64.val();
        self.t_s64.next = self.req_dtype.val() == self.d_s64.val();
        self.t_f32.next = self.req_dtype.val() == self.d_f32.val();
        self.t_f64.next = self.req_dtype.val() == self.d_f64.val();
        self.t_half_scalar.next =
            (self.req_dtype.val() == self.d_f16.val()) | (self.req_dtype.val() == self.d_bf16.val());
        self.t_half.next = self.t_half_scalar.val()
            | (self.req_dtype.val() == self.d_f16x2.val())
            | (self.req_dtype.val() == self.d_bf16x2.val());
        self.t_float.next = self.t_f32.val() | self.t_f64.val() | self.t_half.val();
        self.noftz.next = (self.req_flags.val() & self.flag_noftz.val()).any();
        self.scalar_ok.next = (self.is_and_or_xor.val() & (self.t_b32.val() | self.t_b64.val()))
            | (self.is_cas.val() & (self.t_b16.val() | self.t_b32.val() | self.t_b64.val() | self.t_b128.val()))
            | (self.is_exch.val() & (self.t_b32.val() | self.t_b64.val() | self.t_b128.val()))
            | (self.is_add.val()
                & (self.t_u32.val()
                    | self.t_s32.val()
                    | self.t_u64.val()
                    | self.t_f32.val()
                    | self.t_f64.val()
                    | self.t_half.val()))
            | (self.is_inc_dec.val() & self.t_u32.val())
            | (self.is_min_max.val()
                & (self.t_u32.val() | self.t_s32.val() | self.t_u64.val() | self.t_s64.val() | self.t_half.val()));
        self.legal.next = false;
        if self.t_half.val() == self.noftz.val() {
            if self.req_vec.val() == self.v1.val() {
                self.legal.next = self.scalar_ok.val() & !(self.t_half.val() & self.is_min_max.val());
            }
            if (self.req_vec.val() == self.v2.val()) | (self.req_vec.val() == self.v4.val()) {
                self.legal.next = self.scalar_ok.val() & (self.t_half.val() | (self.t_f32.val() & self.is_add.val()));
            }
            if self.req_vec.val() == self.v8.val() {
                self.legal.next = self.scalar_ok.val() & self.t_half_scalar.val();
            }
        }
        self.red_async_ok.next = (self.is_inc_dec.val() & self.t_u32.val())
            | (self.is_min_max.val() & (self.t_u32.val() | self.t_s32.val()))
            | (self.is_and_or_xor.val() & self.t_b32.val())
            | (self.is_add.val() & (self.t_u32.val() | self.t_s32.val() | self.t_u64.val()));
        self.is_global.next = self.req_space.val() == self.sp_global.val();
        self.is_cluster.next = self.req_space.val() == self.sp_cluster.val();

        // Element and access sizes in bytes, looked up in the encoding table's sizes
        // (`common::dtype_log2_bytes_table`). elem_log: log2 of the element width in bits.
        self.widen_dtype.narrow.next = self.req_dtype.val();
        self.cut_elem_lg.wide.next =
            (self.k_dtype_lg.val() >> (self.widen_dtype.wide.val() << 2)) & self.k_nibble.val();
        self.elem_lg.next = self.cut_elem_lg.narrow.val();
        self.elem_bytes.next = self.k_one8.val() << self.elem_lg.val();
        self.elem_log.next = self.elem_lg.val() + self.k_three8.val();
        self.access_bytes.next = self.elem_bytes.val();
        if self.req_vec.val() == self.v2.val() {
            self.access_bytes.next = self.elem_bytes.val() << 1;
        }
        if self.req_vec.val() == self.v4.val() {
            self.access_bytes.next = self.elem_bytes.val() << 2;
        }
        if self.req_vec.val() == self.v8.val() {
            self.access_bytes.next = self.elem_bytes.val() << 3;
        }
        // Coalescing (see "Coalesced steps"): scalar 4- and 8-byte accesses of the types a
        // group slot's element computes (`group::group_kinds`: no f64, no 16-bit floats, f32
        // with float atomics).
        for g in 0..self.group_ok.len() {
            self.group_ok[g].next = (self.req_vec.val() == self.v1.val())
                & ((self.access_bytes.val() == self.k_four8[g].val())
                    | (self.access_bytes.val() == self.k_eight8[g].val()))
                & !self.t_f64.val()
                & !self.t_half.val()
                & (!self.t_f32.val() | self.k_float_atomics.val());
        }

        // The access size for the plan stage (which runs in RUN only): the registered decode.
        self.step_access_bytes.next = self.q_access_bytes.q.val();

        // The lead's element is lent to the copy engine's bulk reducer only while the ALU is
        // idle (pipeline drained) and no request waits; once lent, until the borrower lets go.
        self.lend_now.next = self.lend_req.val()
            & (self.lent.q.val() | ((self.state.q.val() == self.st_idle.val()) & !self.req_valid.val()));
        self.lent.d.next = self.lend_now.val();

        // Request-level error (golden `check`, and `red_async`'s op check).
        self.req_error.next = self.e_none.val();
        if self.req_op.val() == self.op_red_async.val() {
            if !(self.sub_known.val() & self.red_async_ok.val() & (self.req_vec.val() == self.v1.val())) {
                self.req_error.next = self.e_bad_type.val();
            } else if !self.k_single_cta_cluster.val() {
                self.req_error.next = self.e_not_built.val();
            }
        } else if (self.req_op.val() == self.op_atom.val()) | (self.req_op.val() == self.op_red.val()) {
            if !self.sub_known.val() {
                self.req_error.next = self.e_bad_type.val();
            } else if (self.t_float.val() & !self.k_float_atomics.val())
                | (self.t_b128.val() & !self.k_atomic_b128.val())
            {
                self.req_error.next = self.e_not_built.val();
            } else if !self.legal.val()
                | ((self.req_op.val() == self.op_red.val()) & (self.is_cas.val() | self.is_exch.val()))
                | ((self.req_vec.val() != self.v1.val()) & !self.is_global.val())
            {
                self.req_error.next = self.e_bad_type.val();
            } else if self.is_cluster.val() & !self.k_single_cta_cluster.val() {
                // shared::cluster atomics need the cluster slot map: not built (see module doc).
                self.req_error.next = self.e_not_built.val();
            }
        } else {
            self.req_error.next = self.e_not_built.val();
        }

        // ================= check stage and plan stage =================
        // Everything here depends on the lane addresses alone (never on memory), so the next
        // step is planned, and its line read, while the execute stage writes the current one.
        // Three registered steps, each a cycle's work: `pending` -> the next window (`nw_*`,
        // the lowest pending lane's n-aligned run) -> its lanes checked (`check`) into the plan
        // window (`win_*`, `wl_*`) -> the plan (a lead and the lanes that join it, from the
        // registered checks: bits, byte enables and n:1 muxes only). The plan window loads the
        // next one at the edge where its last lanes are planned, so windows follow each other
        // without a bubble.
        //
        // The next window: the lowest lane of `pending` (of the request's lanes, in IDLE) and
        // the rest of its n-aligned run of lanes. From registers (or the held request) alone.
        self.next_src.next = self.pending.q.val();
        if self.state.q.val() == self.st_idle.val() {
            self.next_src.next = self.req_active.val();
        }
        self.next_lowest.next = self.next_src.val() & (self.k_zero32.val() - self.next_src.val());
        self.next_number.onehot.next = self.next_lowest.val();
        self.next_first.next = self.next_number.number.val() & self.k_window_mask.val();
        self.cut_next_pool.wide.next = self.next_src.val() >> self.next_first.val();
        self.next_pool.next = self.cut_next_pool.narrow.val() & self.k_win_ones.val();
        self.next_rest.next = self.next_src.val() & !(self.k_win_ones32.val() << self.next_first.val());
        // The packed words hold one operand-store row (B lanes; the lanes past B are zero, so
        // synthesis drops them), the window's place in it is its first lane mod B. The check
        // stage reads its window's row: the store's output in the cycle after the window loads,
        // its held copy after that.
        for i in 0..self._row_lanes {
            self.held_addr[i].d.next = self.held_addr[i].q.val();
            self.held_mbar[i].d.next = self.held_mbar[i].q.val();
            if self.nw_fresh.q.val() {
                self.held_addr[i].d.next = self.row_addr[i].val();
                self.held_mbar[i].d.next = self.row_mbar[i].val();
            }
            self.pack_addr.lane[i].next = self.held_addr[i].d.val();
            self.pack_mbar.lane[i].next = self.held_mbar[i].d.val();
            self.pack_b.lane[i].next = self.row_b[i].val();
            self.pack_c.lane[i].next = self.row_c[i].val();
        }
        for i in self._row_lanes..32 {
            self.pack_addr.lane[i].next = 0.into();
            self.pack_mbar.lane[i].next = 0.into();
            self.pack_b.lane[i].next = 0.into();
            self.pack_c.lane[i].next = 0.into();
        }
        self.win_addr.word.next = self.pack_addr.word.val();
        self.win_addr.number.next = self.nw_first.q.val() & self.k_row_mask.val();
        self.win_mbar.word.next = self.pack_mbar.word.val();
        self.win_mbar.number.next = self.nw_first.q.val() & self.k_row_mask.val();

        // Check stage: every lane of the next window (golden `lane`, cluster_size 1).
        self.widen_access.narrow.next = self.step_access_bytes.val();
        self.align_mask.next = self.widen_access.wide.val() - self.k_one64.val();
        // The highest address an access may start at (golden `lane`: `addr + size <= end`),
        // for the decoded request; registered at IDLE, so the checks compare addresses only.
        self.widen_req_access.narrow.next = self.access_bytes.val();
        self.limit.next = self.k_shared_bytes.val() - self.widen_req_access.wide.val();
        if self.is_cluster.val() {
            self.limit.next = self.k_cluster_limit.val() - self.widen_req_access.wide.val();
        }
        if self.is_global.val() {
            self.limit.next = self.global_end.val() - self.widen_req_access.wide.val();
        }
        self.cta_bad.next = self.req_cta.val() > self.k_last_slot.val();
        self.access_be.next = self.k_ones16.val() >> (self.k_line_bytes.val() - self.step_access_bytes.val());
        for a in 0..self.check.len() {
            self.check[a].window.next = self.win_addr.part.val();
            self.check[a].is_global.next = self.is_global.val();
            self.check[a].is_cluster.next = self.is_cluster.val();
            self.check[a].cta_bad.next = self.cta_bad.val();
            self.check[a].align_mask.next = self.align_mask.val();
            self.check[a].limit.next = self.q_limit.q.val();
            self.check[a].access_be.next = self.access_be.val();
        }

        // red.async's lane: the first active lane, the lowest of the next window in RUN's first
        // cycle (golden `red_async_lane`, cluster_size 1).
        self.ra_lowest.next = self.nw_pool.q.val() & (self.k_zero_w.val() - self.nw_pool.q.val());
        self.widen_ra.narrow.next = self.ra_lowest.val();
        self.ra_number.onehot.next = self.widen_ra.wide.val();
        self.lead_addr.word.next = self.win_addr.part.val();
        self.lead_addr.number.next = self.ra_number.number.val();
        self.lead_mbar.word.next = self.win_mbar.part.val();
        self.lead_mbar.number.next = self.ra_number.number.val();
        self.ra_checked.d.next = false;
        if !self.ra_checked.q.val() {
            self.ra_addr.d.next = self.lead_addr.part.val();
            self.ra_mbar.d.next = self.lead_mbar.part.val();
        }
        // The window checks compare the raw addresses with constants, no offset subtracted
        // first: for an address at or past CLUSTER_BASE, its offset is at or past WINDOW
        // exactly when the address is at or past CLUSTER_BASE + WINDOW; and CLUSTER_BASE is a
        // multiple of 8, so the mbarrier offset's alignment is the address's.
        self.red_async_error.next = self.e_red_async_target.val();
        if self.is_global.val()
            | (self.is_cluster.val()
                & ((self.ra_addr.q.val() < self.k_cluster_base.val())
                    | (self.ra_addr.q.val() >= self.k_window_end.val())))
        {
            self.red_async_error.next = self.e_shared_range.val();
        } else if self.is_cluster.val()
            & ((self.ra_mbar.q.val() < self.k_cluster_base.val()) | (self.ra_mbar.q.val() >= self.k_window_end.val()))
        {
            self.red_async_error.next = self.e_shared_range.val();
        } else if (self.ra_mbar.q.val() & self.k_mbar_align.val()).any() {
            self.red_async_error.next = self.e_mb_align.val();
        }

        // Plan stage: the lowest unplanned lane of the window leads the next step; its
        // registered checks (the window is never empty while lanes remain, but in RUN's first
        // cycle, before the first window is loaded).
        self.any_lane.next = self.win_pool.q.val().any();
        self.w_lowest.next = self.win_pool.q.val() & (self.k_zero_w.val() - self.win_pool.q.val());
        self.widen_lowest.narrow.next = self.w_lowest.val();
        self.lead_number.onehot.next = self.widen_lowest.wide.val();
        self.lead_slot.next = self.lead_number.number.val();
        self.cur_lane.next = self.win_first.q.val() | self.lead_slot.val();
        self.lane_error.next = self.e_none.val();
        self.lead_line.next = 0.into();
        self.lead_off.next = 0.into();
        self.lead_be.next = 0.into();
        for a in 0..self.wl_err.len() {
            if (self.w_lowest.val() & self.k_win_bit[a].val()).any() {
                self.lane_error.next = self.wl_err[a].q.val();
                self.lead_line.next = self.wl_line[a].q.val();
                self.lead_off.next = self.wl_off[a].q.val();
                self.lead_be.next = self.wl_be[a].q.val();
            }
        }
        // (The window's last lane has no later lane in its line.)
        for s in 0..self.lead_same.len() {
            self.lead_same[s].next = self.k_zero8[s].val();
            for a in 0..self.wl_same.len() {
                if (self.w_lowest.val() & self.k_win_bit[a].val()).any() {
                    self.lead_same[s].next = self.wl_same[a].q.val();
                }
            }
        }

        // The lanes that join the lead (see "Coalesced steps" in the module doc), decided per
        // window lane from registered bits: a candidate joins if it fits (no error, the lead's
        // line), shares no byte with the lead or an earlier candidate that fits (pairwise
        // bits `wl_ov`), and no candidate before it failed. Checking the overlap against every
        // earlier candidate that fits, not against the joined ones, gives the same answer: the
        // joins are a prefix, so when lane b's predecessors all joined the two sets are equal.
        for b in 0..self.j_lead.len() {
            self.j_lead[b].next = (self.w_lowest.val() & self.k_win_bit[b].val()).any();
            self.j_cand[b].next = (self.win_pool.q.val() & self.k_win_bit[b].val()).any() & !self.j_lead[b].val();
            self.j_fits[b].next = self.q_group_ok[0].q.val()
                & self.wl_ok[b].q.val()
                & (self.lead_same[0].val() & self.k_win_bit[b].val()).any();
        }
        for b in 0..self.j_conf.len() {
            self.j_conf[b].next = false;
            for c in 0..self.wl_ov.len() {
                if (self.j_lead[c].val() | (self.j_cand[c].val() & self.j_fits[c].val()))
                    & (self.wl_ov[c].q.val() & self.k_win_bit[b].val()).any()
                {
                    self.j_conf[b].next = true;
                }
            }
            self.j_fail[b].next = self.j_cand[b].val() & (!self.j_fits[b].val() | self.j_conf[b].val());
        }
        for b in 0..self.j_fb.len().min(1) {
            self.j_fb[b].next = false;
        }
        for b in 1..self.j_fb.len() {
            self.j_fb[b].next = self.j_fb[b - 1].val() | self.j_fail[b - 1].val();
        }
        self.win_left_any.next = false;
        for b in 0..self.j_in.len() {
            self.j_in[b].next = self.j_cand[b].val() & !self.j_fail[b].val() & !self.j_fb[b].val();
            if self.j_fail[b].val() {
                self.win_left_any.next = true;
            }
        }
        // Slots: slot j takes the j-th candidate in window order (x_pool / x_pick chain), its
        // operands' place in the window and its registered checks.
        for j in 0..self.x_pool.len().min(1) {
            self.x_pool[j].next = self.win_pool.q.val() & !self.w_lowest.val();
            self.x_pick[j].next = self.x_pool[j].val() & (self.k_zero8[j].val() - self.x_pool[j].val());
        }
        for j in 1..self.x_pool.len() {
            self.x_pool[j].next = self.x_pool[j - 1].val() & !self.x_pick[j - 1].val();
            self.x_pick[j].next = self.x_pool[j].val() & (self.k_zero8[0].val() - self.x_pool[j].val());
        }
        for j in 0..self.x_pool.len() {
            self.widen_pick[j].narrow.next = self.x_pick[j].val();
            self.x_number[j].onehot.next = self.widen_pick[j].wide.val();
            self.x_slot[j].next = self.x_number[j].number.val() & self.k_slot_mask.val();
            self.x_in[j].next = false;
            self.x_be[j].next = 0.into();
            self.x_word[j].next = 0.into();
            for a in 0..self.wl_err.len() {
                if (self.x_pick[j].val() & self.k_win_bit[a].val()).any() {
                    self.x_in[j].next = self.j_in[a].val();
                    self.x_be[j].next = self.wl_be[a].q.val();
                    self.x_word[j].next = self.wl_off[a].q.val().get_bits::<2>(2);
                }
            }
        }
        for j in 0..self.x_pool.len().min(1) {
            self.acc_be[j].next = self.lead_be.val();
            self.acc_w[j].next = self.w_lowest.val();
            if self.x_in[j].val() {
                self.acc_be[j].next = self.lead_be.val() | self.x_be[j].val();
                self.acc_w[j].next = self.w_lowest.val() | self.x_pick[j].val();
            }
        }
        for j in 1..self.x_pool.len() {
            self.acc_be[j].next = self.acc_be[j - 1].val();
            self.acc_w[j].next = self.acc_w[j - 1].val();
            if self.x_in[j].val() {
                self.acc_be[j].next = self.acc_be[j - 1].val() | self.x_be[j].val();
                self.acc_w[j].next = self.acc_w[j - 1].val() | self.x_pick[j].val();
            }
        }
        // The planned step's bytes and lanes (window bits, then lanes).
        self.plan_be.next = self.lead_be.val();
        self.plan_w.next = self.w_lowest.val();
        for j in 0..self.x_pool.len() {
            self.plan_be.next = self.acc_be[j].val();
            self.plan_w.next = self.acc_w[j].val();
        }
        self.widen_plan.narrow.next = self.plan_w.val();
        self.plan_lanes.next = self.widen_plan.wide.val() << self.win_first.q.val();
        self.win_left.next = self.win_pool.q.val() & !self.plan_w.val();

        // ================= execute stages X1 (operands), X2 (element), X3 (write) =================
        // The pipeline moves on `en`: low only while X3 writes and the write buffer is full (a
        // write the port did not take waits there; a global write may wait for the port).
        self.x3_write.next = self.x3_valid.q.val() & self.x3_last.q.val();
        self.m_wreq.next = self.wb_valid.q.val() | self.x3_write.val();
        self.en.next = !(self.wb_valid.q.val() & self.x3_write.val());
        // X1: the step's line, registered in `line` (from the port, or from R); one element
        // per cycle.
        self.src_line.next = self.line.q.val();
        self.stepping.next = self.ex_valid.q.val() & self.ex_have.q.val();
        self.x1_adv.next = self.stepping.val() & self.en.val();
        // X1's live-word check (PTX ISA §9.7.13.15: a live mbarrier object is accessed only by
        // mbarrier instructions; the golden ALU refuses the lane, `MbarrierPlainAccess`), in
        // X1's first cycle with its line (`ex_live` is cleared after it). The step's lanes are
        // a prefix of the lanes left, in order: the lanes before the first one on a live word
        // stay in the step, it and the later ones leave (their bytes are not written; a step
        // cut at its lead writes none), and the request ends there (see "Errors").
        self.x1_live.next = 0.into();
        if self.stepping.val() {
            self.x1_live.next = self.ex_live.q.val();
        }
        // (The lead's access is 16 bytes at offset 0, or within one 8-byte word.)
        self.lead_hit.next = (self.x1_live.val().get_bit(0) & !self.ex_byte_off.q.val().get_bit(3))
            | (self.x1_live.val().get_bit(1)
                & (self.ex_byte_off.q.val().get_bit(3) | (self.q_access_bytes.q.val() == self.k_line_bytes.val())));
        for j in 0..self.x_hit.len() {
            self.x_hit[j].next = self.ex_x_in[j].q.val() & self.x1_live.val().get_bit(0);
            if self.ex_x_off[j].q.val().get_bit(1) {
                self.x_hit[j].next = self.ex_x_in[j].q.val() & self.x1_live.val().get_bit(1);
            }
        }
        for j in 0..self.x_cut.len().min(1) {
            self.x_cut[j].next = self.lead_hit.val() | self.x_hit[j].val();
        }
        for j in 1..self.x_cut.len() {
            self.x_cut[j].next = self.x_cut[j - 1].val() | self.x_hit[j].val();
        }
        // A slot's bytes: one access (4 or 8 bytes, aligned) at its 4-byte word.
        for j in 0..self.widen_x_off.len() {
            self.widen_x_off[j].narrow.next = self.ex_x_off[j].q.val();
        }
        for j in 0..self.x_cut_be.len().min(1) {
            self.x_cut_be[j].next = 0.into();
            if self.ex_x_in[j].q.val() & self.x_cut[j].val() {
                self.x_cut_be[j].next = self.access_be.val() << (self.widen_x_off[j].wide.val() << 2u64);
            }
        }
        for j in 1..self.x_cut_be.len() {
            self.x_cut_be[j].next = self.x_cut_be[j - 1].val();
            if self.ex_x_in[j].q.val() & self.x_cut[j].val() {
                self.x_cut_be[j].next =
                    self.x_cut_be[j - 1].val() | (self.access_be.val() << (self.widen_x_off[j].wide.val() << 2u64));
            }
        }
        for j in 0..self.x1_in.len() {
            self.x1_in[j].next = self.ex_x_in[j].q.val() & !self.x_cut[j].val();
        }
        self.x1_fault.next = self.lead_hit.val();
        self.x1_be.next = self.ex_be.q.val();
        for j in 0..self.x_cut.len() {
            self.x1_fault.next = self.x_cut[j].val();
            self.x1_be.next = self.ex_be.q.val() & !self.x_cut_be[j].val();
        }
        if self.lead_hit.val() {
            self.x1_be.next = 0.into();
        }
        // (A step held in X1 keeps what is left of it.)
        self.ex_be.d.next = self.x1_be.val();
        if self.x1_fault.val() {
            self.x_fault.d.next = true;
            // (the lead, or the one slot on a live word with none before it)
            self.x_fault_lane.d.next = self.ex_lane.q.val();
            for j in 0..self.x_hit.len().min(1) {
                if self.x_hit[j].val() & !self.lead_hit.val() {
                    self.x_fault_lane.d.next = self.ex_x_lane[j].q.val();
                }
            }
            for j in 1..self.x_hit.len() {
                if self.x_hit[j].val() & !self.x_cut[j - 1].val() {
                    self.x_fault_lane.d.next = self.ex_x_lane[j].q.val();
                }
            }
        }
        self.first_elem.next = self.elem_index.q.val() == self.k_zero_idx.val();
        self.last_elem.next = self.ex_last.q.val();
        // Operands b and c: from the window of the step's lanes, as the plan stage picked the
        // addresses.
        self.ex_window.next = self.ex_lane.q.val() & self.k_window_mask.val();
        self.ex_slot.next = self.ex_lane.q.val() & self.k_slot_mask.val();
        self.win_b.word.next = self.pack_b.word.val();
        self.win_b.number.next = self.ex_window.val() & self.k_row_mask.val();
        self.win_c.word.next = self.pack_c.word.val();
        self.win_c.number.next = self.ex_window.val() & self.k_row_mask.val();
        self.lead_b.word.next = self.win_b.part.val();
        self.lead_b.number.next = self.ex_slot.val();
        self.lead_c.word.next = self.win_c.part.val();
        self.lead_c.number.next = self.ex_slot.val();
        self.widen_elem_index.narrow.next = self.elem_index.q.val();
        self.elem_shift.next = ((self.ex_byte_off.q.val() << 3)
            + (self.widen_elem_index.wide.val() << self.q_elem_log.q.val()))
            & self.k_half_word_shift.val();
        self.elem_mask.next = self.q_elem_mask.q.val();
        // The lead's old value (the whole access, a vector's elements packed as read), a cycle
        // after X1: its first element's `x2_r` is the line shifted to the lead's byte offset.
        self.old_value.next = self.x2_r.q.val();
        if self.q_access_bytes.q.val() != self.k_line_bytes.val() {
            self.old_value.next = self.x2_r.q.val() & !(self.k_ones128.val() << (self.q_access_bytes.q.val() << 3));
        }
        // X2: the lead's element (the slots' are in their `GroupLane`s). While the ALU is idle
        // (its pipeline drained) the copy engine's bulk reducer may borrow it, an element at a
        // time; a request that arrives meanwhile starts once the borrower lets go.
        self.lend_grant.next = self.lend_now.val();
        self.lend_value.next = self.element.value.val();
        self.element.op.next = self.req_sub.val();
        self.element.dtype.next = self.req_dtype.val();
        self.element.clock.next = self.clock.val();
        self.element.en.next = self.en.val();
        self.element.r.next = self.x2_r.q.val();
        self.element.s.next = self.x2_s.q.val();
        self.element.t.next = self.x2_t.q.val();
        self.element.ftz_f32.next = self.is_global.val();
        // While the ALU is idle its pipeline is empty and the element serves nobody else, so
        // it takes the borrower's operands whether or not they are granted this cycle: the
        // operand select is one flip-flop (`active`, not a decode of `state`: the select fans
        // out to ~270 operand bits ahead of the f64 adder's first stage, the unit's limiting
        // path), not the loan decision (which adds the borrower's ask and `req_valid`). The borrower holds its operands and counts only
        // granted cycles, every one of them with the ALU idle.
        if !self.active.q.val() {
            self.element.op.next = self.lend_op.val();
            self.element.dtype.next = self.lend_dtype.val();
            self.element.r.next = self.lend_r.val();
            self.element.s.next = self.lend_s.val();
            self.element.t.next = 0.into();
            self.element.ftz_f32.next = true;
        }
        if self.lend_now.val() {
            self.element.en.next = true;
        }
        for j in 0..self.group.len() {
            self.group[j].clock.next = self.clock.val();
            self.group[j].en.next = self.en.val();
            self.ex_x_slot[j].next = self.ex_x_lane[j].q.val() & self.k_slot_mask.val();
            self.x_b[j].word.next = self.win_b.part.val();
            self.x_b[j].number.next = self.ex_x_slot[j].val();
            self.x_c[j].word.next = self.win_c.part.val();
            self.x_c[j].number.next = self.ex_x_slot[j].val();
            self.group[j].joined.next = self.x1_in[j].val();
            self.group[j].word_off.next = self.ex_x_off[j].q.val();
            self.group[j].b.next = self.x_b[j].part.val();
            self.group[j].c.next = self.x_c[j].part.val();
            self.group[j].src_line.next = self.src_line.val();
            self.group[j].elem_mask.next = self.elem_mask.val();
            self.group[j].op.next = self.req_sub.val();
            self.group[j].dtype.next = self.req_dtype.val();
            self.group[j].ftz_f32.next = self.is_global.val();
        }
        // X3: the write data holds only the step's bytes (the write's byte enables keep the
        // rest of the line): the lead's element, a vector's earlier elements (`x3_acc`) and
        // the joined slots' elements.
        self.lead_put.next = (self.x3_value.q.val() & self.elem_mask.val()) << self.x3_shift.q.val();
        if !self.x3_first.q.val() {
            self.lead_put.next =
                ((self.x3_value.q.val() & self.elem_mask.val()) << self.x3_shift.q.val()) | self.x3_acc.q.val();
        }
        // (A slot that did not join puts zero.)
        for j in 0..self.group.len().min(1) {
            self.acc_value[j].next = self.lead_put.val() | self.group[j].put_value.val();
        }
        for j in 1..self.group.len() {
            self.acc_value[j].next = self.acc_value[j - 1].val() | self.group[j].put_value.val();
        }
        self.step_value.next = self.lead_put.val();
        for j in 0..self.group.len() {
            self.step_value.next = self.acc_value[j].val();
        }

        // ================= memory port =================
        // Write: the step's last element (X3). Read: the issue stage's line, when R takes it
        // at this edge. An issued step waits while a step in R..X3 has a byte of its line
        // (`hazard`): then its read is granted after that write, and sees it. Steps on other
        // bytes of a line overlap freely (each writes its own bytes). A global read waits for
        // a cycle without a write (the top has one global port for both).
        self.m_global.next = self.is_global.val();
        self.m_slot.next = self.req_cta.val();
        // The buffered write goes first (X3 waits behind it); else X3's own.
        self.m_waddr.next = self.x3_line.q.val();
        self.m_wdata.next = self.step_value.val();
        self.m_be.next = self.x3_be.q.val();
        if self.wb_valid.q.val() {
            self.m_waddr.next = self.wb_line.q.val();
            self.m_wdata.next = self.wb_data.q.val();
            self.m_be.next = self.wb_be.q.val();
        }
        // The buffer empties at its grant; it takes X3's write when the port does not (X3
        // moves on at this edge: `en` is high while the buffer is empty).
        if self.wb_valid.q.val() {
            if self.m_wgrant.val() {
                self.wb_valid.d.next = false;
            }
        } else if self.x3_write.val() & !self.m_wgrant.val() {
            self.wb_valid.d.next = true;
            self.wb_line.d.next = self.x3_line.q.val();
            self.wb_data.d.next = self.step_value.val();
            self.wb_be.d.next = self.x3_be.q.val();
        }
        self.ex_open.next = !self.ex_valid.q.val() | (self.x1_adv.val() & self.last_elem.val());
        // R hands its step to X1 when X1 can take it, and takes the issue stage's then. Reads
        // are answered in order: a line arriving is X1's step's while that waits for its line,
        // else R's step's (a line for a step dropped by a fault finds neither waiting).
        self.rs_move.next = self.rs_valid.q.val() & self.ex_open.val();
        self.rs_open.next = !self.rs_valid.q.val() | self.rs_move.val();
        self.arrive_x1.next = self.m_rvalid.val() & self.ex_valid.q.val() & !self.ex_have.q.val();
        self.arrive_rs.next = self.m_rvalid.val()
            & !(self.ex_valid.q.val() & !self.ex_have.q.val())
            & self.rs_valid.q.val()
            & !self.rs_have.q.val();
        self.read_out.next =
            (self.ex_valid.q.val() & !self.ex_have.q.val()) | (self.rs_valid.q.val() & !self.rs_have.q.val());
        // The plan stage has a step (RUN, a lane left, no lane error; red.async plans none);
        // it hands it to the issue stage (or its skid register) while the skid register is
        // empty: the take does not wait on the read grant.
        self.plan_ok.next = (self.state.q.val() == self.st_run.val())
            & !self.q_red_async.q.val()
            & self.any_lane.val()
            & (self.lane_error.val() == self.e_none.val())
            & !self.x_fault.q.val();
        self.m_rreq.next = self.iss_valid.q.val()
            & !self.hazards.hazard.val()
            & self.rs_open.val()
            & !(self.is_global.val() & (self.m_wreq.val() | self.read_out.val()));
        self.m_raddr.next = self.iss_line.q.val();
        self.plan_go.next = self.m_rreq.val() & self.m_rgrant.val();
        self.p_take.next = self.plan_ok.val() & !self.skid_valid.q.val();
        // The hazard answers move as the steps do (the moves below and in X1..X3).
        self.hazards.clock.next = self.clock.val();
        self.hazards.plan_line.next = self.lead_line.val();
        self.hazards.plan_be.next = self.plan_be.val();
        self.hazards.iss_line.next = self.iss_line.q.val();
        self.hazards.iss_be.next = self.iss_be.q.val();
        self.hazards.rs_line.next = self.rs_line.q.val();
        self.hazards.rs_be.next = self.rs_be.q.val();
        self.hazards.rs_valid.next = self.rs_valid.q.val();
        self.hazards.ex_line.next = self.ex_line.q.val();
        self.hazards.ex_be.next = self.ex_be.q.val();
        self.hazards.ex_valid.next = self.ex_valid.q.val();
        for k in 0..self.xe_valid.len() {
            self.hazards.xe_line[k].next = self.xe_line[k].q.val();
            self.hazards.xe_be[k].next = self.xe_be[k].q.val();
            self.hazards.xe_valid[k].next = self.xe_valid[k].q.val();
        }
        self.hazards.x3_line.next = self.x3_line.q.val();
        self.hazards.x3_be.next = self.x3_be.q.val();
        self.hazards.x3_valid.next = self.x3_valid.q.val();
        self.hazards.wb_line.next = self.wb_line.q.val();
        self.hazards.wb_be.next = self.wb_be.q.val();
        self.hazards.wb_valid.next = self.wb_valid.q.val();
        self.hazards.plan_to_iss.next = self.p_take.val() & (!self.iss_valid.q.val() | self.plan_go.val());
        self.hazards.plan_to_skid.next = self.p_take.val() & self.iss_valid.q.val() & !self.plan_go.val();
        self.hazards.skid_to_iss.next = self.plan_go.val() & self.skid_valid.q.val();
        self.hazards.iss_to_rs.next = self.plan_go.val();
        self.hazards.rs_to_ex.next = self.rs_move.val();
        self.hazards.advance.next = self.en.val();
        self.hazards.x3_to_wb.next = !self.wb_valid.q.val() & self.x3_write.val() & !self.m_wgrant.val();
        self.p_load.next = (self.state.q.val() == self.st_run.val())
            & self.nw_valid.q.val()
            & (!self.any_lane.val() | (self.p_take.val() & !self.win_left_any.val()));

        // ================= old values: each member of the step into its lane's bank (X2) =================
        // A cycle after X1, from the X2 registers: the line read is then off the path into the
        // store (the result store's rows are read at the response, cycles after the last step's
        // X2).
        self.save_values.next = self.x1_adv.val() & self.first_elem.val() & (self.req_op.val() == self.op_atom.val());
        self.sv_valid.d.next = self.save_values.val();
        self.sv_lanes.d.next = self.ex_lanes.q.val();
        self.sv_lane.d.next = self.ex_lane.q.val();
        for j in 0..self.sv_x_in.len() {
            self.sv_x_in[j].clock.next = self.clock.val();
            self.sv_x_in[j].d.next = self.x1_in[j].val();
            self.sv_x_lane[j].clock.next = self.clock.val();
            self.sv_x_lane[j].d.next = self.ex_x_lane[j].q.val();
        }
        for b in 0..self.k_bank_lanes.len() {
            // The step's lanes are in distinct banks; the bank's lane is the lead or a joined slot.
            self.results.write[b].next =
                self.sv_valid.q.val() & (self.sv_lanes.q.val() & self.k_bank_lanes[b].val()).any();
            self.results.word[b].next = self.sv_lane.q.val() >> self.k_log_banks.val();
            self.results.data[b].next = self.old_value.val();
            for j in 0..self.group.len() {
                if self.sv_x_in[j].q.val()
                    & ((self.sv_x_lane[j].q.val() & self.k_bank_mask[0].val()) == self.k_bank_index[b].val())
                {
                    self.results.word[b].next = self.sv_x_lane[j].q.val() >> self.k_log_banks.val();
                    self.results.data[b].next = self.group[j].old_value.val();
                }
            }
        }

        // ================= sequencer =================
        self.req_ready.next = false;
        self.resp_valid.next = false;
        self.nw_fresh.d.next = false;
        // The request's sizes, registered for the execute stages (the request is held stable
        // until its response).
        if self.state.q.val() == self.st_idle.val() {
            self.q_elem_bytes.d.next = self.elem_bytes.val();
            self.q_red_async.d.next = self.req_op.val() == self.op_red_async.val();
            self.q_elem_mask.d.next = self.k_ones128.val();
            if self.elem_bytes.val() != self.k_line_bytes.val() {
                self.q_elem_mask.d.next = !(self.k_ones128.val() << (self.elem_bytes.val() << 3));
            }
            self.q_elem_log.d.next = self.elem_log.val();
            self.q_access_bytes.d.next = self.access_bytes.val();
            self.q_limit.d.next = self.limit.val();
            for g in 0..self.q_group_ok.len() {
                self.q_group_ok[g].d.next = self.group_ok[g].val();
            }
        }
        if self.state.q.val() == self.st_idle.val() && self.req_valid.val() && !self.lend_now.val() {
            // The first window (of the active lanes: `next_*` reads them in IDLE) into the
            // check stage; the plan stage starts empty and loads it in RUN's first cycle.
            self.win_pool.d.next = self.k_zero_w.val();
            self.nw_valid.d.next = true;
            self.nw_fresh.d.next = true;
            self.nw_pool.d.next = self.next_pool.val();
            self.nw_first.d.next = self.next_first.val();
            self.pending.d.next = self.next_rest.val();
            self.elem_index.d.next = self.k_zero_idx.val();
            self.err.d.next = self.e_none.val();
            self.err_lane.d.next = self.next_number.number.val();
            self.x_fault.d.next = false;
            self.results.clear.next = true;
            self.active.d.next = true;
            if self.req_error.val() != self.e_none.val() {
                self.err.d.next = self.req_error.val();
                self.state.d.next = self.st_resp.val();
            } else if !self.req_active.val().any() {
                self.state.d.next = self.st_resp.val();
            } else {
                self.state.d.next = self.st_run.val();
            }
        }
        // red.async (cluster_size 1): every lane's target is the executing CTA; the first
        // active lane (the lowest of the check stage's first window, registered in RUN's first
        // cycle) reports its first error in RUN's second.
        if (self.state.q.val() == self.st_run.val()) & self.q_red_async.q.val() {
            if self.ra_checked.q.val() {
                self.err.d.next = self.red_async_error.val();
                self.state.d.next = self.st_resp.val();
            } else {
                self.ra_checked.d.next = true;
            }
        }
        // Plan stage done (no lane left in it or the check stage, or the lead in error): answer once I, R and X1..X3 are empty
        // after this edge (X3's step, if any, writes now). The lanes before an erring lane have
        // written (golden order); an error answers no values, so the old values are dropped.
        // (the skid register holds a step only while the issue stage does)
        // Every write is done after this edge: X3's is granted now with the buffer empty, and
        // the buffer's (without a write from X3 behind it) is granted now.
        self.drained.next = !self.iss_valid.q.val() & !self.rs_valid.q.val() & !self.ex_valid.q.val();
        if self.x3_write.val() {
            if self.wb_valid.q.val() | !self.m_wgrant.val() {
                self.drained.next = false;
            }
        } else if self.wb_valid.q.val() & !self.m_wgrant.val() {
            self.drained.next = false;
        }
        for k in 0..self.xe_valid.len() {
            if self.xe_valid[k].q.val() {
                self.drained.next = false;
            }
        }
        if (self.state.q.val() == self.st_run.val())
            & !self.q_red_async.q.val()
            & ((!self.any_lane.val() & !self.nw_valid.q.val())
                | (self.lane_error.val() != self.e_none.val())
                | self.x_fault.q.val())
            & self.drained.val()
        {
            // (A live word found in X1 is at an earlier lane than the plan's lead.)
            if self.x_fault.q.val() {
                self.err.d.next = self.e_plain.val();
                self.err_lane.d.next = self.x_fault_lane.q.val();
                self.results.clear.next = true;
            } else if self.any_lane.val() {
                self.err.d.next = self.lane_error.val();
                self.err_lane.d.next = self.cur_lane.val();
                self.results.clear.next = true;
            }
            self.state.d.next = self.st_resp.val();
        }
        for a in 0..self.wl_err.len() {
            self.wl_err[a].clock.next = self.clock.val();
            self.wl_err[a].d.next = self.wl_err[a].q.val();
            self.wl_line[a].clock.next = self.clock.val();
            self.wl_line[a].d.next = self.wl_line[a].q.val();
            self.wl_off[a].clock.next = self.clock.val();
            self.wl_off[a].d.next = self.wl_off[a].q.val();
            self.wl_be[a].clock.next = self.clock.val();
            self.wl_be[a].d.next = self.wl_be[a].q.val();
        }
        for a in 0..self.wl_ok.len() {
            self.wl_ok[a].clock.next = self.clock.val();
            self.wl_ok[a].d.next = self.wl_ok[a].q.val();
        }
        for a in 0..self.wl_same.len() {
            self.wl_same[a].clock.next = self.clock.val();
            self.wl_same[a].d.next = self.wl_same[a].q.val();
        }
        for p in 0..self.wl_ov.len() {
            self.wl_ov[p].clock.next = self.clock.val();
            self.wl_ov[p].d.next = self.wl_ov[p].q.val();
        }
        for j in 0..self.iss_x_in.len() {
            self.iss_x_in[j].clock.next = self.clock.val();
            self.iss_x_in[j].d.next = self.iss_x_in[j].q.val();
            self.iss_x_lane[j].clock.next = self.clock.val();
            self.iss_x_lane[j].d.next = self.iss_x_lane[j].q.val();
            self.iss_x_off[j].clock.next = self.clock.val();
            self.iss_x_off[j].d.next = self.iss_x_off[j].q.val();
            self.skid_x_in[j].clock.next = self.clock.val();
            self.skid_x_in[j].d.next = self.skid_x_in[j].q.val();
            self.skid_x_lane[j].clock.next = self.clock.val();
            self.skid_x_lane[j].d.next = self.skid_x_lane[j].q.val();
            self.skid_x_off[j].clock.next = self.clock.val();
            self.skid_x_off[j].d.next = self.skid_x_off[j].q.val();
        }
        for j in 0..self.rs_x_in.len() {
            self.rs_x_in[j].clock.next = self.clock.val();
            self.rs_x_in[j].d.next = self.rs_x_in[j].q.val();
            self.rs_x_lane[j].clock.next = self.clock.val();
            self.rs_x_lane[j].d.next = self.rs_x_lane[j].q.val();
            self.rs_x_off[j].clock.next = self.clock.val();
            self.rs_x_off[j].d.next = self.rs_x_off[j].q.val();
        }
        for j in 0..self.ex_x_in.len() {
            self.ex_x_in[j].clock.next = self.clock.val();
            self.ex_x_in[j].d.next = self.x1_in[j].val();
            self.ex_x_lane[j].clock.next = self.clock.val();
            self.ex_x_lane[j].d.next = self.ex_x_lane[j].q.val();
            self.ex_x_off[j].clock.next = self.clock.val();
            self.ex_x_off[j].d.next = self.ex_x_off[j].q.val();
        }
        for k in 0..self.xe_valid.len() {
            self.xe_valid[k].clock.next = self.clock.val();
            self.xe_valid[k].d.next = self.xe_valid[k].q.val();
            self.xe_first[k].clock.next = self.clock.val();
            self.xe_first[k].d.next = self.xe_first[k].q.val();
            self.xe_last[k].clock.next = self.clock.val();
            self.xe_last[k].d.next = self.xe_last[k].q.val();
            self.xe_shift[k].clock.next = self.clock.val();
            self.xe_shift[k].d.next = self.xe_shift[k].q.val();
            self.xe_line[k].clock.next = self.clock.val();
            self.xe_line[k].d.next = self.xe_line[k].q.val();
            self.xe_be[k].clock.next = self.clock.val();
            self.xe_be[k].d.next = self.xe_be[k].q.val();
        }
        // X1 -> X2 -> X3 on `en`: one element moves on (a bubble when X1 has none).
        if self.en.val() {
            self.x2_r.d.next = self.src_line.val() >> self.elem_shift.val();
            self.x2_s.d.next = self.lead_b.part.val()
                >> ((self.widen_elem_index.wide.val() << self.q_elem_log.q.val()) & self.k_half_word_shift.val());
            self.x2_t.d.next = self.lead_c.part.val();
            for k in 0..self.xe_valid.len().min(1) {
                self.xe_valid[k].d.next = self.x1_adv.val();
                self.xe_first[k].d.next = self.first_elem.val();
                self.xe_last[k].d.next = self.last_elem.val();
                self.xe_shift[k].d.next = self.elem_shift.val();
                self.xe_line[k].d.next = self.ex_line.q.val();
                self.xe_be[k].d.next = self.x1_be.val();
            }
            for k in 1..self.xe_valid.len() {
                self.xe_valid[k].d.next = self.xe_valid[k - 1].q.val();
                self.xe_first[k].d.next = self.xe_first[k - 1].q.val();
                self.xe_last[k].d.next = self.xe_last[k - 1].q.val();
                self.xe_shift[k].d.next = self.xe_shift[k - 1].q.val();
                self.xe_line[k].d.next = self.xe_line[k - 1].q.val();
                self.xe_be[k].d.next = self.xe_be[k - 1].q.val();
            }
            // (The last of them feeds X3.)
            for k in 0..self.xe_valid.len() {
                self.x3_valid.d.next = self.xe_valid[k].q.val();
                self.x3_first.d.next = self.xe_first[k].q.val();
                self.x3_last.d.next = self.xe_last[k].q.val();
                self.x3_shift.d.next = self.xe_shift[k].q.val();
                self.x3_line.d.next = self.xe_line[k].q.val();
                self.x3_be.d.next = self.xe_be[k].q.val();
            }
            self.x3_value.d.next = self.element.value.val();
            // A vector's elements so far (its last element writes them all).
            self.x3_acc.d.next = self.lead_put.val();
        }
        // Lines arriving: into X1's `line` for its waiting step, else into R's registers. X1
        // keeps its line while its step has more elements or cannot move on.
        self.ex_live.d.next = 0.into();
        if self.arrive_x1.val() {
            self.line.d.next = self.m_rdata.val();
            self.ex_live.d.next = self.m_rlive.val();
            self.ex_have.d.next = true;
        }
        if self.arrive_rs.val() {
            self.rs_data.d.next = self.m_rdata.val();
            self.rs_live.d.next = self.m_rlive.val();
            self.rs_have.d.next = true;
        }
        if self.x1_adv.val() {
            self.elem_index.d.next = self.elem_index.q.val() + self.k_one_idx.val();
            if self.last_elem.val() {
                self.elem_index.d.next = self.k_zero_idx.val();
                self.ex_valid.d.next = false;
                self.ex_have.d.next = false;
            }
        }
        // R's step moves to X1, with its line if it has it (or it arrives now).
        if self.rs_move.val() {
            self.rs_valid.d.next = false;
            self.rs_have.d.next = false;
            self.ex_valid.d.next = true;
            self.ex_have.d.next = self.rs_have.q.val() | self.arrive_rs.val();
            self.line.d.next = self.rs_data.q.val();
            self.ex_live.d.next = self.rs_live.q.val();
            if self.arrive_rs.val() {
                self.line.d.next = self.m_rdata.val();
                self.ex_live.d.next = self.m_rlive.val();
            }
            self.ex_lane.d.next = self.rs_lane.q.val();
            self.ex_line.d.next = self.rs_line.q.val();
            self.ex_byte_off.d.next = self.rs_byte_off.q.val();
            self.ex_be.d.next = self.rs_be.q.val();
            self.ex_lanes.d.next = self.rs_lanes.q.val();
            for j in 0..self.ex_x_in.len() {
                self.ex_x_in[j].d.next = self.rs_x_in[j].q.val();
                self.ex_x_lane[j].d.next = self.rs_x_lane[j].q.val();
                self.ex_x_off[j].d.next = self.rs_x_off[j].q.val();
            }
        }
        // The issued step (its read granted now) moves to R.
        if self.plan_go.val() {
            self.iss_valid.d.next = false;
            self.rs_valid.d.next = true;
            self.rs_have.d.next = false;
            self.rs_lane.d.next = self.iss_lane.q.val();
            self.rs_line.d.next = self.iss_line.q.val();
            self.rs_byte_off.d.next = self.iss_byte_off.q.val();
            self.rs_be.d.next = self.iss_be.q.val();
            self.rs_lanes.d.next = self.iss_lanes.q.val();
            for j in 0..self.rs_x_in.len() {
                self.rs_x_in[j].d.next = self.iss_x_in[j].q.val();
                self.rs_x_lane[j].d.next = self.iss_x_lane[j].q.val();
                self.rs_x_off[j].d.next = self.iss_x_off[j].q.val();
            }
        }
        // The skid register's step moves into the issue stage as that issues.
        if self.plan_go.val() & self.skid_valid.q.val() {
            self.iss_valid.d.next = true;
            self.skid_valid.d.next = false;
            self.iss_lane.d.next = self.skid_lane.q.val();
            self.iss_line.d.next = self.skid_line.q.val();
            self.iss_byte_off.d.next = self.skid_byte_off.q.val();
            self.iss_be.d.next = self.skid_be.q.val();
            self.iss_lanes.d.next = self.skid_lanes.q.val();
            for j in 0..self.x_pool.len() {
                self.iss_x_in[j].d.next = self.skid_x_in[j].q.val();
                self.iss_x_lane[j].d.next = self.skid_x_lane[j].q.val();
                self.iss_x_off[j].d.next = self.skid_x_off[j].q.val();
            }
        }
        // The planned step moves to the issue stage, or to its skid register while the issue
        // stage is full and does not issue (the grant only picks which register loads); its
        // lanes leave the window, and a window left empty is followed by the next one.
        if self.p_take.val() {
            if !self.iss_valid.q.val() | self.plan_go.val() {
                self.iss_valid.d.next = true;
                self.iss_lane.d.next = self.cur_lane.val();
                self.iss_line.d.next = self.lead_line.val();
                self.iss_byte_off.d.next = self.lead_off.val();
                self.iss_be.d.next = self.plan_be.val();
                self.iss_lanes.d.next = self.plan_lanes.val();
                for j in 0..self.x_pool.len() {
                    self.iss_x_in[j].d.next = self.x_in[j].val();
                    self.iss_x_lane[j].d.next = self.win_first.q.val() | self.x_slot[j].val();
                    self.iss_x_off[j].d.next = self.x_word[j].val();
                }
            } else {
                self.skid_valid.d.next = true;
                self.skid_lane.d.next = self.cur_lane.val();
                self.skid_line.d.next = self.lead_line.val();
                self.skid_byte_off.d.next = self.lead_off.val();
                self.skid_be.d.next = self.plan_be.val();
                self.skid_lanes.d.next = self.plan_lanes.val();
                for j in 0..self.x_pool.len() {
                    self.skid_x_in[j].d.next = self.x_in[j].val();
                    self.skid_x_lane[j].d.next = self.win_first.q.val() | self.x_slot[j].val();
                    self.skid_x_off[j].d.next = self.x_word[j].val();
                }
            }
            self.win_pool.d.next = self.win_left.val();
        }
        // A live word under the step in X1: the later steps (in the issue stage, its skid
        // register, R, or entering R or X1 now) are dropped; the plan stops on `x_fault`.
        if self.x1_fault.val() {
            self.iss_valid.d.next = false;
            self.skid_valid.d.next = false;
            self.rs_valid.d.next = false;
            self.rs_have.d.next = false;
            if self.rs_move.val() {
                self.ex_valid.d.next = false;
                self.ex_have.d.next = false;
                self.ex_live.d.next = 0.into();
            }
        }
        // The plan window, empty or emptied now, loads the check stage's window and its
        // checks; the check stage takes the next window of the pending lanes.
        if self.p_load.val() {
            self.win_pool.d.next = self.nw_pool.q.val();
            self.win_first.d.next = self.nw_first.q.val();
            for a in 0..self.wl_err.len() {
                self.wl_err[a].d.next = self.check[a].error.val();
                self.wl_line[a].d.next = self.check[a].line.val();
                self.wl_off[a].d.next = self.check[a].byte_off.val();
                self.wl_be[a].d.next = self.check[a].be.val();
            }
            for a in 0..self.wl_ok.len() {
                self.wl_ok[a].d.next = self.check[a].error.val() == self.e_none.val();
            }
            for a in 0..self.wl_same.len() {
                self.wl_same[a].d.next = self.check[a].same[0].val();
            }
            for a in 0..self.wl_ov.len() {
                self.wl_ov[a].d.next = self.check[a].overlap[0].val();
            }
            self.nw_valid.d.next = self.pending.q.val().any();
            self.nw_fresh.d.next = true;
            self.nw_pool.d.next = self.next_pool.val();
            self.nw_first.d.next = self.next_first.val();
            self.pending.d.next = self.next_rest.val();
        }
        if self.state.q.val() == self.st_resp.val() {
            self.req_ready.next = true;
            self.resp_valid.next = true;
            self.state.d.next = self.st_idle.val();
            self.active.d.next = false;
        }
        if self.reset.val() {
            self.state.d.next = self.st_idle.val();
            self.active.d.next = false;
            self.lent.d.next = false;
            self.iss_valid.d.next = false;
            self.skid_valid.d.next = false;
            self.x_fault.d.next = false;
            self.ex_valid.d.next = false;
            self.ex_have.d.next = false;
            self.ex_live.d.next = 0.into();
            self.ra_checked.d.next = false;
            self.rs_valid.d.next = false;
            self.rs_have.d.next = false;
            for k in 0..self.xe_valid.len() {
                self.xe_valid[k].d.next = false;
            }
            self.x3_valid.d.next = false;
            self.wb_valid.d.next = false;
        }
        // The operand store's rows of the next cycle (its read port is registered). The plan
        // row is the window that `nw` loads next (from `pending`'s registers, or the request's
        // lanes in IDLE), whether or not it loads: the plan's load decision stays off the store's
        // address (`held_*` keep a waiting window's row). The execute stage's row from its
        // register's next value (after every write).
        self.plan_row.next = self.next_first.val() >> self.k_row_log.val();
        self.ex_row.next = (self.ex_lane.d.val() & self.k_window_mask.val()) >> self.k_row_log.val();
        // (After every write of `elem_index`; the request's `req_vec` is held from IDLE on.)
        self.ex_last.d.next = (self.elem_index.d.val() + self.v1.val()) == self.req_vec.val();

        // ================= response =================
        self.resp_error.next = self.err.q.val();
        // A successful response names lane 0 (as the golden `Response::to`).
        self.resp_error_lane.next = self.k_zero_lane.val();
        if self.err.q.val() != self.e_none.val() {
            self.resp_error_lane.next = self.err_lane.q.val();
        }
        // (Zero after an error: the values were cleared when it was found.)
        self.results.row.next = self.resp_row.val() >> self.k_log_parts.val();
        // (Rows wider than L only when B > L: the part number and its mask exist then.)
        for m in 0..self.k_part_mask.len() {
            self.resp_part[m].next = self.resp_row.val() & self.k_part_mask[m].val();
        }
        // (`l` is L as a loop variable: hdl_gen evaluates an index from loop variables only.)
        for l in self._beat_lanes..self._beat_lanes_end {
            for i in 0..self._beat_lanes {
                self.resp_row_values[i].next = self.results.row_values[i].val();
                for s in 0..self.k_part.len() {
                    if self.resp_part[0].val() == self.k_part[s].val() {
                        self.resp_row_values[i].next = self.results.row_values[(s + 1) * l + i].val();
                    }
                }
            }
        }
    }
}
