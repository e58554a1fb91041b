//! The `sync_unit` top: one warp-level request port (a header, then the lane operands in beats),
//! the five unit blocks behind it, shared memory as block RAM, two global-memory ports and one
//! response port. This is the RTL
//! counterpart of `smsync_sim::units::GoldenUnits`.
//!
//! # Request port: a header, then the lane operands in beats
//!
//! The port list is the table `smsync_contract::port::SYNC_UNIT_PORTS` (one definition for the
//! top, the manifest, `--rtl DIR`'s check and the Verilator driver).
//!
//! * **Header** (`req_*`): taken in a cycle where `req_valid` and `req_ready` are both high.
//!   `req_ready` is high while the request queue (`requests_in_flight` entries) has a free entry
//!   and no taken header's beats are still to come; an entry is freed the cycle after the core
//!   has finished its request (loaded its response, or handed it to a unit that answers later).
//!   The core takes the queue's requests in order, one at a time; the next ones stream in
//!   meanwhile. A CTA launch reaches the core after the requests queued before it.
//! * **Beats** (`beat_*`): after the header, the lane operands in `32 / L` beats in lane order
//!   (`L = lanes_per_beat`: 4 on fpga-small, 32 on the default config); beat `k` carries lanes
//!   `k*L .. k*L+L-1` on `beat_*$j`, `j < L`, and is taken in a cycle where `beat_valid` and
//!   `beat_ready` are both high. Every beat is sent, also for ops that read no operand.
//!
//! Both go into registers first ([`RequestIngress`](super::ingress::RequestIngress)): the header
//! register, the beat register, and from it the operand store (distributed RAM, rows of
//! `B = operand_row_lanes` lanes, read a row per cycle per field group) written one beat per
//! cycle, with the stray-bit flags below computed per beat over its `L` lanes. Nothing in the
//! core is combinational from the request port; the core starts on the request the cycle after
//! its last beat was written.
//!
//! | port | width | carries (`units::request::Request`) |
//! |---|---|---|
//! | `req_valid` / `req_ready` | 1 / 1 | header handshake |
//! | `req_tag` | 64 | `tag` |
//! | `req_cta`, `req_warp` | 5, 5 | CTA slot, warp in the CTA |
//! | `req_op` | 6 | `Op` code (the unit is decoded from the encoding table's op ranges) |
//! | `req_sub` | 4 | `sub` (AtomOp / VoteMode / ReduxOp / ShflMode / BulkDir) |
//! | `req_dtype` | 4 | `DataType` code |
//! | `req_flags` | 8 | `encoding::flags` |
//! | `req_vec` | 4 | `vec` (ld/st.shared and atomic vector count) |
//! | `req_imm`, `req_imm2` | 32, 32 | `imm`, `imm2` |
//! | `req_member`, `req_active`, `req_live` | 32 each | member / active / live masks |
//! | `req_space` | 2 | `space` (`encoding::Space`) |
//! | `beat_valid` / `beat_ready` | 1 / 1 | beat handshake |
//! | `beat_addr$j`, `beat_src$j`, `beat_mbar$j` | 64 each | lane `addr`, `src`, `mbar` (global addresses are >= 2^32) |
//! | `beat_a$j`, `beat_b$j`, `beat_c$j` | 128 each | lane `a`, `b`, `c` |
//!
//! Operand bits that the op's unit does not read are zero in legal requests; an active lane with
//! any of them set is answered `NotBuilt` (`stray`), so nothing is silently truncated. mbarrier
//! ops on a space other than shared::cta are answered `NotBuilt` (cluster addresses are not
//! resolved here yet).
//!
//! `busy` (out): a request is being received or processed, a release walked, a response
//! leaving (in the response register or the egress), a copy not yet complete, or a barrier
//! release still to come (a warp exit's sweep in the barrier file). `global_end` (in): the first
//! address after global memory (the atomic ALU's range check). `fault_inject` (in, **test only**, tie to 0): when high, bit 0 of lane 0's value
//! in every warp-network response is flipped, so that the cosim can show its comparator catches
//! a broken RTL.
//!
//! # Response port: a header, then the lane values in beats
//!
//! The response leaves the core's response register through the egress
//! ([`ResponseEgress`](super::egress::ResponseEgress)), the mirror of the request side:
//!
//! * **Header** (`resp_*`): `resp_valid`, `resp_tag`, `resp_cta`, `resp_warp`, `resp_lanes`,
//!   `resp_preds`, `resp_error`, `resp_error_lane` (the fields of `units::request::Response`)
//!   and `resp_has_values`; taken in a cycle where `resp_valid` and `resp_ready` are both high.
//! * **Values** (`resp_beat_*`): when `resp_has_values` is high, `32 / L` beats in lane order,
//!   beat `k` carrying lanes `k*L .. k*L+L-1` on `resp_beat_values$j` (128 bits each), each taken
//!   in a cycle where `resp_beat_valid` and `resp_beat_ready` are both high; beat 0 is offered
//!   with the header. Each channel keeps the responses' order; the k-th run of beats belongs to
//!   the k-th header with values. When `resp_has_values` is low, every lane's value is 0 and no beat follows
//!   (barrier answers, copies, stores, errors: one cycle per response).
//!
//! Sources of the response register, in fixed priority: a barrier release (one response per
//! released warp, the warp's tag/lanes/op from the blocked-warp table, a RAM indexed by {cta,
//! barrier, warp}: a divergent warp's lanes may wait at two barriers at once, and its partial
//! arrivals at one barrier are answered together, with the lanes the barrier file accumulated
//! and the last request's tag), then the response of the request being processed. The register is loaded only while
//! empty: a request starts only when it is, and the release walk reads the table only then, so
//! no unit's answer ever waits for the egress (the units answer with one-cycle pulses). A
//! consumer that holds both readies high takes a response in one cycle, or `32 / L` with values.
//!
//! The response register holds the header and `o_source`, not the values: they stay in the
//! result register that produced them (the lane sequencer's result store, the atomic ALU's
//! results, the warp network's, or the released barrier's popc), which nothing changes while the
//! response is held, and the egress reads them a row of `L` lanes at a time (`resp_row`).
//!
//! # Global-memory ports
//!
//! * `gm_*` (the copy engine's, `copy_port_bytes` wide): `gm_req`/`gm_grant` (a request is taken
//!   in a cycle where both are high), `gm_we`, port-aligned `gm_addr`, `gm_wdata`, `gm_be`; read
//!   data in request order on `gm_rvalid`/`gm_rdata`, taken when `gm_rready` is also high (the
//!   memory holds it otherwise) into a skid register at the boundary.
//! * `ag_*` (the atomic ALU's, 16-byte lines, one access at a time): `ag_req`/`ag_grant`,
//!   `ag_we`, `ag_addr`, `ag_wdata`, `ag_be`; read data on `ag_rvalid`/`ag_rdata` at least one
//!   cycle after the grant, registered at the boundary.
//!
//! # Units
//!
//! * barrier_file: a divergent warp's partial arrivals accumulated per warp (its own doc).
//! * mbarrier_alu: fed by the lane sequencer (the active lanes in ascending order, one per
//!   cycle; per-lane tokens / predicates are collected and answered as one warp response), and,
//!   when the sequencer does not use it, by the copy engine's complete_tx / arrive-on / +1 events.
//! * warp_network: warp-level; the response is the unit's, tagged with the request's tag.
//! * atomic_alu: warp-level; its memory port goes to the shared RAM or to `ag_*`.
//! * copy_engine: fed one lane op per cycle by the lane sequencer; the warp is answered when
//!   every active lane is (a wait_group lane answers once its groups are complete). The first
//!   lane in error gives the response's error; unlike the golden model, the lanes after it are
//!   still issued (the run stops at the error anyway). Its mbarrier events (complete_tx,
//!   arrive-on, the +1 of cp.async.mbarrier.arrive) are answered back to it in order
//!   (`mb_resp_*`, the ALU's answer to each); an error of a complete_tx or arrive-on is a late
//!   error (the golden `late_error`): a response with the op's tag, CTA and warp, no lanes and
//!   the op's lane as its error lane, loaded into the free response register while the top is
//!   idle or waits for the engine's answers (`late_load`).
//! * LSU (ld/st.shared): the lane sequencer again, one lane per cycle, up to 16 bytes per lane.
//! * Shared memory ([`SharedMemory`]): `cta_slots` x `shared_bytes` as rows of
//!   `R = max(16, copy_port_bytes)` bytes, one read and one write port, byte enables.
//!
//! # Shared-memory arbitration
//!
//! Read port: mbarrier ALU, then the copy engine (its `sm_rgrant`), then the LSU / atomic ALU.
//! Write port: the mbarrier ALU's write-back, then the copy engine, then the LSU / atomic ALU,
//! which wait for a free cycle. The mbarrier ALU's write follows its read by **two** cycles (its
//! read-modify-write is two stages, S1a/S1b); it announces it one cycle ahead on `mem_we_next`
//! (an op in S1a that may write). The copy engine's writes cannot wait, and they reach the RAM
//! one cycle after the engine makes them (`ce_w_*`, a register), so a write made in cycle t
//! must not meet an mbarrier write in t+1: a shared-source beat's write follows its read by one
//! cycle, and that read is granted only when the mbarrier ALU does not read (every mbarrier
//! write follows its read by two cycles); a global-source beat follows `gm_rvalid`, and the
//! reducer's write `sm_wgrant`, both held off while `mem_we_next` is up. The mbarrier ALU never
//! waits.
//!
//! Every grant is decided from flip-flops of the unit ahead, never from the end of its logic:
//! the mbarrier ALU's write is arbitrated on `mem_we_hold` (its `mem_we_next` registered: the
//! port held for the op in S1b, which writes unless it fails), the copy engine's write on
//! `ce_w_valid` (its write registered), and the copy engine's mbarrier events reach the ALU
//! through a one-entry register (`ce_ev_*`, one cycle later, one per cycle); the LSU / atomic
//! ALU's read grant waits on the copy engine's `sm_rwant` (its read before its grant, from its
//! registers), not on its granted `sm_re`. Before, the ALU's S1b checks and the copy engine's
//! beat logic ran into the atomic ALU's stalls and on to the operand store's read address: the
//! deepest path of the board top (docs/FPGA.md, "Logic depth").
//!
//! # Not built in this top
//!
//! Every op of the golden units is built for `cluster_size` 1 (the configs'); with larger
//! clusters, shared::cluster mbarrier ops and atomics answer `ErrorCode::NotBuilt` (never
//! silently dropped). A divergent `barrier.cluster.wait` blocks each of its requests, their
//! lanes gathered in the blocked-warp table's cluster entry, answered by one response at the
//! release (as a divergent bar.sync's).
//!
//! Other differences from the golden model, all documented in `docs/ARCHITECTURE.md`: a
//! suspended `mbarrier.try_wait` lane is left out of `resp_lanes` and its later answer leaves on
//! the raw `wake_*` port (untagged, per lane); a warp-network rendezvous reached by part of its
//! lanes (divergence, or lanes that have not exited yet) is taken without an answer, and the
//! request or `exit` that completes it gets one response covering every arrived lane (the SM —
//! in the cosim, `RtlSyncUnit` — hands each waiting instruction its lanes); one pending
//! rendezvous per warp (a different op or mask from the same warp meanwhile is
//! `MemberMaskMismatch`, where the golden model may let both wait);
//! the lanes after an mbarrier lane in error are still executed (the golden model stops).

use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::encoding::{mbarrier_word, ErrorCode, Op, Space};

use super::egress::ResponseEgress;
use super::ingress::RequestIngress;
use super::live_map::{LiveMap, WORD_BITS};
use super::result_store::ResultStore;
use super::shared_mem::SharedMemory;
use crate::atomic_alu::{operand_row_lanes, AtomicAlu};
use crate::barrier_file::{lane_ram_bits, warp_index_bits, BarrierFile, LANE_ADDR_BITS};
use crate::common::{error_code, op_code, ERROR_BITS, FLAG_BITS, OP_BITS};
use crate::copy_engine::{thread_bits, CopyEngine};
use crate::depth_ram::DepthRam;
use crate::mbarrier_alu::MbarrierAlu;
use crate::pack_lanes::{LaneNumber, PackLanes};
use crate::warp_network::{beats_per_request, WarpNetwork, BEAT_OPS};

pub const LANES: usize = 32;
/// Blocked-warp table entry: {op (6), active mask (32), tag (64)}.
pub const TABLE_BITS: usize = 102;
/// Width of the `sub` field: the port table's.
pub use smsync_contract::port::SUB_BITS;
/// Bit offsets inside a shared-memory row (a row is at most 128 bytes = 1024 bits).
pub const OFF_BITS: usize = 16;
/// Address width of the core's shared-memory port (the RAM itself has `shared_addr_bits`).
pub const RAM_ADDR_BITS: usize = 24;

// FSM states.
const S_IDLE: u64 = 0;
const S_BAR_WAIT: u64 = 1;
const S_BAR_REL: u64 = 2;
const S_SEQ: u64 = 3;
const S_SEQ_DRAIN: u64 = 4;
const S_WN_WAIT: u64 = 5;
const S_ATOM: u64 = 6;
const S_COPY: u64 = 7;

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

/// Bytes per shared-memory row for `config`: the widest client, at least an atomic's 16-byte line.
pub fn shared_row_bytes(config: &Config) -> usize {
    (config.copy_port_bytes as usize).max(16)
}
/// Row-index bits of one CTA slot's shared memory.
pub fn shared_row_bits(config: &Config) -> usize {
    let rows = (config.shared_bytes as usize).div_ceil(shared_row_bytes(config));
    rows.next_power_of_two().trailing_zeros() as usize
}
/// Address bits of the shared RAM for `config`: slot bits + row bits.
pub fn shared_addr_bits(config: &Config) -> usize {
    (config.cta_slots as usize).next_power_of_two().trailing_zeros() as usize + shared_row_bits(config)
}

/// An `N`-bit value zero-extended to `W` bits. (rust-hdl's `bit_cast` cannot take a loop-indexed
/// operand inside `hdl_gen`: it evaluates the call in Rust to learn the width.)
#[derive(LogicBlock, Default)]
pub struct ZeroExtend<const N: usize, const W: usize> {
    pub narrow: Signal<In, Bits<N>>,
    pub wide: Signal<Out, Bits<W>>,
}

impl<const N: usize, const W: usize> Logic for ZeroExtend<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.wide.next = bit_cast::<W, N>(self.narrow.val());
    }
}

/// The top. `A`: shared RAM address bits; `D`/`B`: the copy engine's port width in bits/bytes
/// (`copy_port_bytes`); `RD`/`R`: a shared-memory row in bits/bytes (`shared_row_bytes`).
#[derive(LogicBlock)]
pub struct SyncUnitCore<const D: usize, const B: usize, const RD: usize, const R: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A CTA with `launch_warps` warps starts in `launch_slot`.
    pub launch: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<5>>,
    pub launch_warps: Signal<In, Bits<32>>,
    /// The launch takes its slot's shared-memory generation round: the slot's rows are
    /// written with zeros before its requests go on (`SharedMemory`'s row generations).
    pub launch_clears: Signal<In, Bit>,
    /// No warp can run: suspended try_waits answer False (on `wake_*`).
    pub timeout: Signal<In, Bit>,
    /// TEST ONLY: when high, bit 0 of lane 0's value in every warp-network response is flipped
    /// (the cosim uses it to show that its comparator catches a broken RTL). Tie to 0.
    pub fault_inject: Signal<In, Bit>,
    /// First address after global memory (the atomic ALU's range check; set per launch).
    pub global_end: Signal<In, Bits<64>>,
    /// Something is in flight: a request being processed, a release walk, a response leaving,
    /// a copy not yet complete.
    pub busy: Signal<Out, Bit>,

    // ---- request ----
    /// A whole request (header and operands) is in the ingress registers, held until `req_done`.
    pub req_valid: Signal<In, Bit>,
    /// The request is finished (its response loaded, or handed to a unit that answers later).
    pub req_done: Signal<Out, Bit>,
    pub req_tag: Signal<In, Bits<64>>,
    pub req_cta: Signal<In, Bits<5>>,
    pub req_warp: Signal<In, Bits<5>>,
    pub req_op: Signal<In, Bits<OP_BITS>>,
    pub req_sub: Signal<In, Bits<SUB_BITS>>,
    pub req_dtype: Signal<In, Bits<4>>,
    pub req_space: Signal<In, Bits<2>>,
    pub req_flags: Signal<In, Bits<FLAG_BITS>>,
    pub req_vec: Signal<In, Bits<4>>,
    pub req_imm: Signal<In, Bits<32>>,
    pub req_imm2: Signal<In, Bits<32>>,
    pub req_member: Signal<In, Bits<32>>,
    pub req_active: Signal<In, Bits<32>>,
    pub req_live: Signal<In, Bits<32>>,
    /// Bit i: lane i's `a` bit 0 (vote predicate of bar.red), from the ingress.
    pub req_pred: Signal<In, Bits<32>>,
    /// The ingress's operand store, read a row of `B = operand_row_lanes` lanes at a time in the
    /// same cycle (`hdl/src/sync_unit/ingress.rs`): rows out, lanes `B row + i` in on
    /// `row_*[i]`. `rd_row_am` reads addr, src and mbar; `rd_row_a` reads a; `rd_row_bc` b and c.
    pub rd_row_am: Signal<Out, Bits<5>>,
    pub rd_row_a: Signal<Out, Bits<5>>,
    pub rd_row_bc: Signal<Out, Bits<5>>,
    pub row_addr: Vec<Signal<In, Bits<64>>>,
    pub row_src: Vec<Signal<In, Bits<64>>>,
    pub row_mbar: Vec<Signal<In, Bits<64>>>,
    pub row_a: Vec<Signal<In, Bits<128>>>,
    pub row_b: Vec<Signal<In, Bits<128>>>,
    pub row_c: Vec<Signal<In, Bits<128>>>,
    /// The request's decode, registered by the ingress with its header (`RequestDecode`,
    /// `decode.rs`): the unit that takes it, the ld/st.shared access size (1..16 bytes) and
    /// whether the top answers it `NotBuilt` (stray operand bits, a divergent barrier arrival,
    /// an mbarrier op on shared::cluster, an LSU size not built).
    pub req_is_bar: Signal<In, Bit>,
    pub req_is_mb: Signal<In, Bit>,
    pub req_is_wn: Signal<In, Bit>,
    pub req_is_atom: Signal<In, Bit>,
    pub req_is_copy: Signal<In, Bit>,
    pub req_lsu_size: Signal<In, Bits<5>>,
    /// Bit i: lane i's address faults the ld/st.shared (misaligned / outside the CTA's window),
    /// from the ingress (checked as the beats came in).
    pub req_lsu_misaligned: Signal<In, Bits<32>>,
    pub req_lsu_out_of_range: Signal<In, Bits<32>>,
    pub req_not_built: Signal<In, Bit>,

    // ---- response ----
    pub resp_valid: Signal<Out, Bit>,
    pub resp_tag: Signal<Out, Bits<64>>,
    pub resp_cta: Signal<Out, Bits<5>>,
    pub resp_warp: Signal<Out, Bits<5>>,
    pub resp_lanes: Signal<Out, Bits<32>>,
    pub resp_preds: Signal<Out, Bits<32>>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,
    pub resp_error_lane: Signal<Out, Bits<5>>,
    /// The response's lane values may be nonzero (the egress sends them in beats).
    pub resp_has_values: Signal<Out, Bit>,
    /// The row of values the egress reads (lanes `row*L .. row*L+L-1`), and those lanes' values,
    /// from the unit result register the response names (`o_source`).
    pub resp_row: Signal<In, Bits<5>>,
    pub resp_row_values: Vec<Signal<Out, Bits<128>>>,
    /// The egress has copied the response out: the response register is free from the next cycle.
    pub resp_taken: Signal<In, Bit>,

    // ---- global memory: the copy engine's port (`copy_port_bytes` wide) ----
    pub gm_req: Signal<Out, Bit>,
    pub gm_grant: Signal<In, Bit>,
    pub gm_we: Signal<Out, Bit>,
    pub gm_addr: Signal<Out, Bits<64>>,
    pub gm_wdata: Signal<Out, Bits<D>>,
    pub gm_be: Signal<Out, Bits<B>>,
    pub gm_rvalid: Signal<In, Bit>,
    /// Read data on `gm_rdata` is taken in a cycle where `gm_rvalid` and `gm_rready` are both
    /// high; otherwise the memory holds it (the shared-memory write port may be busy).
    pub gm_rready: Signal<Out, Bit>,
    pub gm_rdata: Signal<In, Bits<D>>,

    // ---- global memory: the atomic ALU's port (16-byte lines, one access at a time) ----
    pub ag_req: Signal<Out, Bit>,
    pub ag_grant: Signal<In, Bit>,
    pub ag_we: Signal<Out, Bit>,
    pub ag_addr: Signal<Out, Bits<64>>,
    pub ag_wdata: Signal<Out, Bits<128>>,
    pub ag_be: Signal<Out, Bits<16>>,
    pub ag_rvalid: Signal<In, Bit>,
    pub ag_rdata: Signal<In, Bits<128>>,

    // ---- shared memory (the `SharedMemory` RAM of the top; rows of `R` bytes at {slot, row}) ----
    pub mem_raddr: Signal<Out, Bits<RAM_ADDR_BITS>>,
    /// The row read at `mem_raddr` in the previous cycle.
    pub mem_rdata: Signal<In, Bits<RD>>,
    pub mem_we: Signal<Out, Bit>,
    pub mem_waddr: Signal<Out, Bits<RAM_ADDR_BITS>>,
    pub mem_wdata: Signal<Out, Bits<RD>>,
    pub mem_wbytes: Signal<Out, Bits<R>>,
    /// The write sets its words' live bits from their valid bits (the mbarrier ALU's write, the
    /// clearing walker's zeros); a plain st.shared lane's write (checked against live words);
    /// the bytes a plain ld.shared lane reads (checked). See `SharedMemory`, "Live mbarrier words".
    pub mem_wlive: Signal<Out, Bit>,
    pub mem_wchecked: Signal<Out, Bit>,
    pub mem_rchecked: Signal<Out, Bits<R>>,
    /// The checked write of last cycle / the checked read of last cycle touched a live mbarrier.
    pub mem_wfault: Signal<In, Bit>,
    pub mem_rfault: Signal<In, Bit>,
    /// The live words of the row read last cycle (`SharedMemory::read_live`).
    pub mem_rlive: Signal<In, Bits<16>>,
    /// `mem_rdata` is the current CTA's row (else it reads as zeros: `SharedMemory::read_fresh`).
    pub mem_rfresh: Signal<In, Bit>,
    /// The copy engine's destination probe into the live map and the map's answer
    /// (`live_map.rs`; the engine's `live_*` ports).
    pub live_lo: Signal<Out, Bits<WORD_BITS>>,
    pub live_hi: Signal<Out, Bits<WORD_BITS>>,
    pub live_xh: Signal<Out, Bits<16>>,
    pub live_xt: Signal<Out, Bits<16>>,
    pub live_empty: Signal<Out, Bit>,
    pub live_hits: Signal<In, Bits<32>>,
    pub live_mb: Signal<Out, Bits<WORD_BITS>>,
    pub live_mb_hits: Signal<In, Bits<32>>,

    // ---- raw event ports (trace; try_wait answers not yet folded into responses) ----
    pub wake_valid: Signal<Out, Bit>,
    pub wake_cta: Signal<Out, Bits<5>>,
    pub wake_warp: Signal<Out, Bits<5>>,
    pub wake_lane: Signal<Out, Bits<5>>,
    pub wake_pred: Signal<Out, Bit>,
    /// An mbarrier phase completed (trace `PhaseComplete`).
    pub phase_valid: Signal<Out, Bit>,
    pub phase_slot: Signal<Out, Bits<5>>,
    pub phase_word: Signal<Out, Bits<15>>,
    pub phase_parity: Signal<Out, Bit>,
    /// A named barrier released (trace `BarrierRelease`).
    pub release_valid: Signal<Out, Bit>,
    pub release_cta: Signal<Out, Bits<5>>,
    pub release_id: Signal<Out, Bits<4>>,
    pub release_warps: Signal<Out, Bits<32>>,

    // ---- units ----
    barrier: BarrierFile,
    mbar: MbarrierAlu,
    wnet: WarpNetwork,
    atom: AtomicAlu,
    copy: CopyEngine<D, B, 15>,
    /// The warp network's 32-bit values of the row the egress reads, zero-extended to 128 bits.
    wn_value: Vec<ZeroExtend<32, 128>>,
    /// The warp network's operand beats: the next beat of the request on the port, and whether
    /// the last one has been taken (`warp_network::carries_beats` ops send `32 / L` beats).
    wn_beat: DFF<Bits<5>>,
    wn_beats_sent: DFF<Bit>,
    wn_beat_op: Signal<Local, Bit>,
    k_wn_last_beat: Constant<Bits<5>>,
    k_wn_beat_ops: Vec<Constant<Bits<OP_BITS>>>,
    /// The next cycle's beat's operand-store row, the beat's part of the row (`B / L` parts of
    /// L lanes): `log2(B / L)`, `B / L - 1`, the part numbers.
    wn_row: Signal<Local, Bits<5>>,
    wn_part: Signal<Local, Bits<5>>,
    k_wn_log_parts: Constant<Bits<5>>,
    k_wn_part_mask: Constant<Bits<5>>,
    wn_parts: Vec<Constant<Bits<5>>>,
    /// `lanes_per_beat`, + 1 and the parts of a store row (loop bounds;
    /// see `WarpNetwork`).
    _wn_lanes: usize,
    _wn_lanes_end: usize,
    _wn_parts: usize,
    /// Blocked barrier warps: {op, waiting lanes, tag} at {cta, barrier id, warp}; the cluster
    /// barrier's waits at id 16 (`k_tbl_cluster`), where a divergent warp's waits gather their
    /// lanes: each blocked wait writes its lanes OR the entry's (read at the request's address
    /// whenever the release walker does not read), and the walker zeroes the entry as it
    /// answers it.
    blocked: DepthRam<Bits<TABLE_BITS>, LANE_ADDR_BITS>,
    tbl_wr_id: Signal<Local, Bits<5>>,
    tbl_wr_lanes: Signal<Local, Bits<32>>,
    k_tbl_cluster: Constant<Bits<5>>,
    /// The table's address: `{cta, id, warp}` with the warp index's and the id's bits from the config.
    k_tbl_id_shift: Constant<Bits<LANE_ADDR_BITS>>,
    k_tbl_cta_shift: Constant<Bits<LANE_ADDR_BITS>>,
    k_op_cl_wait: Constant<Bits<OP_BITS>>,
    /// The barrier of the release being walked (its table id: 16 for the cluster barrier).
    rel_bar: DFF<Bits<5>>,

    // ---- constants ----
    lane_id: Vec<Constant<Bits<5>>>,
    /// Row-index bits of a slot (the slot's shift in a RAM address).
    k_row_bits: Constant<Bits<8>>,
    /// log2(R): byte offset -> row.
    k_log_row: Constant<Bits<8>>,
    /// log2(R / 8): mbarrier word -> row.
    k_log_words: Constant<Bits<8>>,
    /// R - 1 and R / 8 - 1: byte / word position inside a row.
    k_row_mask: Constant<Bits<64>>,
    /// The atomic ALU's 16-byte line within a row: the row mask without a line's own bits (its
    /// addresses are line-aligned), so its read and write shifts are by whole lines (none when a
    /// row is one line, R = 16): the LSU's byte shifters stay off the atomic's paths.
    k_line_mask: Constant<Bits<64>>,
    /// The copy port's beat offset within a row: the row mask without the beat's own bits (the
    /// engine's shared addresses are beat-aligned), so the write's shift into the row is a
    /// `R / B`-way select, not a byte shifter.
    k_ce_off_mask: Constant<Bits<24>>,
    k_word_mask: Constant<Bits<15>>,
    /// Rows of one slot's shared memory, minus one (the clearing walker's last row).
    k_rows_last: Constant<Bits<RAM_ADDR_BITS>>,
    k_all_bytes: Constant<Bits<R>>,
    k_op_st: Constant<Bits<OP_BITS>>,
    k_op_exit: Constant<Bits<OP_BITS>>,
    k_op_red_popc: Constant<Bits<OP_BITS>>,
    k_op_red_and: Constant<Bits<OP_BITS>>,
    k_op_red_or: Constant<Bits<OP_BITS>>,
    k_err_none: Constant<Bits<ERROR_BITS>>,
    k_space_cluster: Constant<Bits<2>>,
    k_one128: Constant<Bits<128>>,
    k_ones128: Constant<Bits<128>>,
    k_err_not_built: Constant<Bits<ERROR_BITS>>,
    k_err_retry: Constant<Bits<ERROR_BITS>>,
    k_err_range: Constant<Bits<ERROR_BITS>>,
    k_err_shared_align: Constant<Bits<ERROR_BITS>>,
    k_err_plain: Constant<Bits<ERROR_BITS>>,
    /// `mbarrier_word::VALID_BIT` as a mask: the mbarrier ALU's word takes it from the live bits.
    k_valid_bit: Constant<Bits<64>>,
    mb_word_raw: Signal<Local, Bits<64>>,
    /// The lane of the LSU's last access (its live-word check answers a cycle later), and the
    /// sequencer stops after a faulting one.
    chk_lane: DFF<Bits<5>>,
    plain_stop: DFF<Bit>,
    k_s_idle: Constant<Bits<3>>,
    k_s_bar_wait: Constant<Bits<3>>,
    k_s_bar_rel: Constant<Bits<3>>,
    k_s_seq: Constant<Bits<3>>,
    k_s_seq_drain: Constant<Bits<3>>,
    k_s_wn_wait: Constant<Bits<3>>,
    k_s_atom: Constant<Bits<3>>,
    k_s_copy: Constant<Bits<3>>,

    // ---- state ----
    state: DFF<Bits<3>>,
    /// Lanes not yet issued by the lane sequencer (mbarrier, LSU, copy engine).
    rem: DFF<Bits<32>>,
    /// Cycles in the drain state (the mbarrier ALU answers 3 cycles after a lane, the LSU 1).
    drain: DFF<Bits<2>>,
    /// LSU load in flight: lane and the mask of its bytes.
    ld_valid: DFF<Bit>,
    ld_lane: DFF<Bits<5>>,
    ld_mask: DFF<Bits<128>>,
    /// Bit offset in the row of last cycle's read, per client.
    mb_rd_off: DFF<Bits<OFF_BITS>>,
    ce_rd_off: DFF<Bits<OFF_BITS>>,
    seq_rd_off: DFF<Bits<OFF_BITS>>,
    at_rd_off: DFF<Bits<OFF_BITS>>,
    /// The atomic ALU's shared-memory read of last cycle (its data is on the RAM now).
    at_rd_valid: DFF<Bit>,
    /// mbarrier ops issued for the copy engine (complete_tx, arrive-on, cp.async.mbarrier.arrive
    /// +1), one, two and three cycles ago: their responses are not the sequenced request's.
    ce_ev1: DFF<Bit>,
    /// The copy engine's next mbarrier event, held one cycle (`ce_ev_valid` and the op's
    /// fields): the engine's controller decode ends at these flip-flops instead of running on
    /// into the mbarrier ALU's read port and every shared-memory grant behind it.
    ce_ev_valid: DFF<Bit>,
    /// The copy engine's shared write, registered (`ce_w_valid` and the RAM row, data and byte
    /// enables): it reaches the RAM one cycle after the engine makes it, so that the write-port
    /// grants of the clearing and of the LSU / atomic ALU are decided from flip-flops.
    ce_w_valid: DFF<Bit>,
    ce_w_row: DFF<Bits<RAM_ADDR_BITS>>,
    ce_w_data: DFF<Bits<RD>>,
    ce_w_bytes: DFF<Bits<R>>,
    ce_ev_op: DFF<Bits<OP_BITS>>,
    ce_ev_flags: DFF<Bits<FLAG_BITS>>,
    ce_ev_slot: DFF<Bits<5>>,
    ce_ev_addr: DFF<Bits<64>>,
    ce_ev_a: DFF<Bits<64>>,
    ce_ev2: DFF<Bit>,
    ce_ev3: DFF<Bit>,
    /// Lanes of the copy request that the copy engine has answered.
    cp_answered: DFF<Bits<32>>,
    /// The exit being offered has been through the warp network (its re-check of the warp's
    /// pending rendezvous); it goes to the barrier file next.
    exit_wn_done: DFF<Bit>,
    /// A header offered to the warp network and not yet taken: it is offered again, before
    /// anything else (valid/ready: an offer is never withdrawn), so that the network takes it
    /// on its `looked` register without re-reading this FSM's `req_valid` decision.
    wn_offered: DFF<Bit>,
    /// Shared-memory clearing at CTA launch (the golden model starts every CTA with zeroed
    /// shared memory, which also kills every mbarrier of the slot's previous CTA): slots
    /// waiting, the slot being cleared and its next row.
    clr_pending: DFF<Bits<32>>,
    clr_active: DFF<Bit>,
    clr_slot: DFF<Bits<5>>,
    clr_row: DFF<Bits<RAM_ADDR_BITS>>,
    /// The slots not cleared yet (pending or being cleared), and whether the request at the
    /// port must wait for them: its own slot is among them, or it may reach another slot's
    /// shared memory (a copy-engine op, a shared::cluster access) while any is.
    clr_mask: Signal<Local, Bits<32>>,
    clr_wait: Signal<Local, Bit>,
    /// Collected per-lane results of the sequenced request: the values in the result store
    /// (one lane written per cycle, read a row at a time by the egress).
    results: ResultStore<128>,
    /// The lane the sequencer answers this cycle (at most one), and its value; `k_bank_mask`,
    /// `k_log_lanes5`: its bank `lane % L` and word `lane / L` in `results`.
    res_write: Signal<Local, Bit>,
    res_lane: Signal<Local, Bits<5>>,
    res_data: Signal<Local, Bits<128>>,
    k_bank_mask: Constant<Bits<5>>,
    k_log_lanes5: Constant<Bits<5>>,
    acc_preds: DFF<Bits<32>>,
    acc_suspended: DFF<Bits<32>>,
    acc_error: DFF<Bits<ERROR_BITS>>,
    acc_error_lane: DFF<Bits<5>>,
    /// The release being walked.
    rel_rem: DFF<Bits<32>>,
    rel_cta: DFF<Bits<5>>,
    rel_popc: DFF<Bits<11>>,
    rel_and: DFF<Bit>,
    rel_or: DFF<Bit>,
    rel_rd_valid: DFF<Bit>,
    rel_rd_warp: DFF<Bits<5>>,
    /// The response register: loaded only while empty (`o_valid` low), held until the egress
    /// has copied it out (`resp_taken`).
    o_valid: DFF<Bit>,
    o_has_values: DFF<Bit>,
    o_tag: DFF<Bits<64>>,
    o_cta: DFF<Bits<5>>,
    o_warp: DFF<Bits<5>>,
    o_lanes: DFF<Bits<32>>,
    /// Where the response's values are (no copy is made): `SRC_*`. The register named stays
    /// unchanged while the response is held, since no request starts meanwhile.
    o_source: DFF<Bits<2>>,
    o_preds: DFF<Bits<32>>,
    /// The response row's lanes in the atomic ALU's and the warp network's result registers
    /// (the result store's row is its own output), the row's lanes of `o_lanes`, and the
    /// bar.red.popc count (see "the row of values" in `update`).
    row_atom: Vec<Signal<Local, Bits<128>>>,
    row_wn: Vec<Signal<Local, Bits<128>>>,
    row_lanes: Signal<Local, Bits<32>>,
    popc_wide: Signal<Local, Bits<128>>,
    /// `o_source` codes: the sequencer's result store, the atomic ALU's results, the warp
    /// network's, the released barrier's popc.
    k_src_acc: Constant<Bits<2>>,
    k_src_atom: Constant<Bits<2>>,
    k_src_wn: Constant<Bits<2>>,
    k_src_popc: Constant<Bits<2>>,
    /// log2(lanes_per_beat): a row's first lane; `1 << i` for lane i of a row.
    k_log_lanes: Constant<Bits<8>>,
    k_lane_bit: Vec<Constant<Bits<32>>>,
    o_error: DFF<Bits<ERROR_BITS>>,
    o_error_lane: DFF<Bits<5>>,

    // ---- combinational ----
    is_bar: Signal<Local, Bit>,
    is_mb: Signal<Local, Bit>,
    is_wn: Signal<Local, Bit>,
    is_atom: Signal<Local, Bit>,
    is_copy: Signal<Local, Bit>,
    not_built: Signal<Local, Bit>,
    first_active: Signal<Local, Bits<5>>,
    active_low: Signal<Local, Bits<32>>,
    pick: Signal<Local, Bits<32>>,
    pick_id: Signal<Local, Bits<5>>,
    /// `rem`'s lowest lane (one-hot) and its number, registered: kept equal to `rem`'s lowest
    /// set bit (loaded, advanced to the lane after it and cleared with `rem`), so the
    /// sequencer's lane, its operand-store bank and its address start at flip-flops, not behind
    /// `rem`'s carry chain (the routed critical path of 971b895 ran `rem` -> its lowest lane ->
    /// that lane's address -> the LSU's range check -> the error accumulator).
    pick_q: DFF<Bits<32>>,
    pick_id_q: DFF<Bits<5>>,
    /// What the FSM does to `rem` this cycle (`k_step_*`): keep it, drop the picked lane,
    /// load the request's active lanes, or clear it (`rem`'s next value follows from it). The
    /// operand store's next row is a mux of rows computed from registers (the lane after
    /// `pick`, the first active lane, `pick`'s own), not a priority pick over `rem`'s next
    /// value at the end of the FSM's decision.
    rem_step: Signal<Local, Bits<2>>,
    k_step_hold: Constant<Bits<2>>,
    k_step_advance: Constant<Bits<2>>,
    k_step_load: Constant<Bits<2>>,
    k_step_clear: Constant<Bits<2>>,
    /// `rem` without the picked lane, its lowest lane (the next pick when the sequencer
    /// advances) and that lane's number; the operand-store row of the next cycle's pick.
    rem_after: Signal<Local, Bits<32>>,
    /// The lane sequencer waits for a grant this cycle (it names `pick`'s row again).
    row_hold: Signal<Local, Bit>,
    pick_next: Signal<Local, Bits<32>>,
    pick_next_number: LaneNumber,
    pick_row: Signal<Local, Bits<5>>,
    pick_bank: Signal<Local, Bits<5>>,
    /// log2 B and B - 1 on a lane number (`B = operand_row_lanes`), and B as a loop bound.
    k_op_row_log: Constant<Bits<5>>,
    k_op_row_mask: Constant<Bits<5>>,
    _row_lanes: usize,
    /// The row's fields that the sequencer reads, packed (bank j at `W * j`; the lanes past B
    /// are zero), and the picked bank's offset in each width.
    pack_addr: PackLanes<64, 2048>,
    pack_src: PackLanes<64, 2048>,
    pack_mbar: PackLanes<64, 2048>,
    pack_a: PackLanes<128, 4096>,
    pack_b: PackLanes<64, 2048>,
    pack_c: PackLanes<32, 1024>,
    pick_off32: Signal<Local, Bits<10>>,
    pick_off64: Signal<Local, Bits<11>>,
    pick_off128: Signal<Local, Bits<12>>,
    pick_addr: Signal<Local, Bits<64>>,
    pick_src: Signal<Local, Bits<64>>,
    pick_mbar: Signal<Local, Bits<64>>,
    pick_a: Signal<Local, Bits<128>>,
    /// Low 64 bits of the picked lane's `b`, low 32 of its `c` (all that a sequenced unit reads).
    pick_b: Signal<Local, Bits<64>>,
    pick_c: Signal<Local, Bits<32>>,
    /// The mbarrier ALU's and the LSU's lane results, 128 bits wide for the collector.
    mb_value_wide: Signal<Local, Bits<128>>,
    ld_value: Signal<Local, Bits<128>>,
    /// The row read last cycle, zeros when it is an older CTA's (`mem_rfresh`).
    mem_rz: Signal<Local, Bits<RD>>,
    rel_pick: Signal<Local, Bits<32>>,
    rel_pick_id: Signal<Local, Bits<5>>,
    lsu_size: Signal<Local, Bits<5>>,
    lsu_be: Signal<Local, Bits<16>>,
    lsu_vmask: Signal<Local, Bits<128>>,
    lsu_out_of_range: Signal<Local, Bit>,
    /// The picked lane's address is not aligned to the access size (PTX ISA §6.4.1). Aligned
    /// accesses of at most 16 bytes never cross a row (rows are at least 16 bytes).
    lsu_misaligned: Signal<Local, Bit>,
    /// The mbarrier ALU takes an op of the sequenced request this cycle (it has priority over
    /// the copy engine's events).
    seq_mb_issue: Signal<Local, Bit>,
    /// The copy engine's oldest late error is loaded into the response register this cycle.
    late_load: Signal<Local, Bit>,
    ce_mb_go: Signal<Local, Bit>,
    ce_ev_take: Signal<Local, Bit>,
    /// Shared-memory arbitration (see the module doc): may the sequenced client (LSU or atomic
    /// ALU) read / write this cycle?
    seq_rgrant: Signal<Local, Bit>,
    seq_wgrant: Signal<Local, Bit>,
    /// The clearing walker writes a row this cycle; the lowest pending slot.
    clr_we: Signal<Local, Bit>,
    clr_pick: Signal<Local, Bits<32>>,
    clr_pick_id: Signal<Local, Bits<5>>,
    /// The sequenced client's access: row address, byte offset in the row, write data and byte
    /// enables positioned in the row, and whether it reads / writes this cycle.
    /// The sequenced client's write and read addresses (the LSU's are one; the atomic ALU
    /// writes one line while it reads the next), slot, write row and offset, read row.
    seq_addr: Signal<Local, Bits<64>>,
    seq_raddr: Signal<Local, Bits<64>>,
    seq_slot: Signal<Local, Bits<5>>,
    seq_row: Signal<Local, Bits<RAM_ADDR_BITS>>,
    seq_off: Signal<Local, Bits<OFF_BITS>>,
    seq_rrow: Signal<Local, Bits<RAM_ADDR_BITS>>,
    seq_wdata: Signal<Local, Bits<RD>>,
    seq_be: Signal<Local, Bits<R>>,
    seq_wbytes: Signal<Local, Bits<R>>,
    seq_re: Signal<Local, Bit>,
    seq_we: Signal<Local, Bit>,
    lsu_re: Signal<Local, Bit>,
    lsu_we: Signal<Local, Bit>,
    at_shared_r: Signal<Local, Bit>,
    at_shared_w: Signal<Local, Bit>,
    /// Last cycle's row read data, aligned for each client.
    seq_rdata: Signal<Local, Bits<128>>,
    /// The mbarrier ALU's and the copy engine's accesses as row addresses.
    mb_rd_row: Signal<Local, Bits<RAM_ADDR_BITS>>,
    mb_wr_row: Signal<Local, Bits<RAM_ADDR_BITS>>,
    mb_wr_off: Signal<Local, Bits<OFF_BITS>>,
    ce_rd_row: Signal<Local, Bits<RAM_ADDR_BITS>>,
    ce_wr_row: Signal<Local, Bits<RAM_ADDR_BITS>>,
    ce_wr_off: Signal<Local, Bits<OFF_BITS>>,
    table_op: Signal<Local, Bits<OP_BITS>>,
    table_active: Signal<Local, Bits<32>>,
    table_tag: Signal<Local, Bits<64>>,
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> SyncUnitCore<D, B, RD, R> {
    pub fn new(config: &Config) -> Self {
        assert!(shared_addr_bits(config) <= RAM_ADDR_BITS, "SyncUnitCore: shared RAM address too wide");
        assert_eq!(B, config.copy_port_bytes as usize, "SyncUnitCore: B must be copy_port_bytes");
        assert_eq!(R, shared_row_bytes(config), "SyncUnitCore: R must be shared_row_bytes(config)");
        assert!(D == 8 * B && RD == 8 * R, "SyncUnitCore: D = 8 B and RD = 8 R");
        let row_lanes = operand_row_lanes(config);
        let op = |o: Op| Constant::new(op_code(o));
        let err = |e: ErrorCode| Constant::new(error_code(e));
        let log2 = |v: usize| v.trailing_zeros() as u64;
        SyncUnitCore {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            launch_warps: Default::default(),
            launch_clears: Default::default(),
            timeout: Default::default(),
            fault_inject: Default::default(),
            global_end: Default::default(),
            busy: Default::default(),
            req_valid: Default::default(),
            req_done: Default::default(),
            req_tag: Default::default(),
            req_cta: Default::default(),
            req_warp: Default::default(),
            req_op: Default::default(),
            req_sub: Default::default(),
            req_dtype: Default::default(),
            req_space: Default::default(),
            req_flags: Default::default(),
            req_vec: Default::default(),
            req_imm: Default::default(),
            req_imm2: Default::default(),
            req_member: Default::default(),
            req_active: Default::default(),
            req_live: Default::default(),
            req_pred: Default::default(),
            req_is_bar: Default::default(),
            req_is_mb: Default::default(),
            req_is_wn: Default::default(),
            req_is_atom: Default::default(),
            req_is_copy: Default::default(),
            req_lsu_size: Default::default(),
            req_lsu_misaligned: Default::default(),
            req_lsu_out_of_range: Default::default(),
            req_not_built: Default::default(),
            rd_row_am: Default::default(),
            rd_row_a: Default::default(),
            rd_row_bc: Default::default(),
            row_addr: (0..row_lanes).map(|_| Default::default()).collect(),
            row_src: (0..row_lanes).map(|_| Default::default()).collect(),
            row_mbar: (0..row_lanes).map(|_| Default::default()).collect(),
            row_a: (0..row_lanes).map(|_| Default::default()).collect(),
            row_b: (0..row_lanes).map(|_| Default::default()).collect(),
            row_c: (0..row_lanes).map(|_| Default::default()).collect(),
            resp_valid: Default::default(),
            resp_tag: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_lanes: Default::default(),
            resp_preds: Default::default(),
            resp_error: Default::default(),
            resp_error_lane: Default::default(),
            resp_has_values: Default::default(),
            resp_row: Default::default(),
            resp_row_values: (0..config.lanes_per_beat as usize).map(|_| Default::default()).collect(),
            resp_taken: Default::default(),
            gm_req: Default::default(),
            gm_grant: Default::default(),
            gm_we: Default::default(),
            gm_addr: Default::default(),
            gm_wdata: Default::default(),
            gm_be: Default::default(),
            gm_rvalid: Default::default(),
            gm_rready: Default::default(),
            gm_rdata: Default::default(),
            ag_req: Default::default(),
            ag_grant: Default::default(),
            ag_we: Default::default(),
            ag_addr: Default::default(),
            ag_wdata: Default::default(),
            ag_be: Default::default(),
            ag_rvalid: Default::default(),
            ag_rdata: Default::default(),
            mem_raddr: Default::default(),
            mem_rdata: Default::default(),
            mem_we: Default::default(),
            mem_waddr: Default::default(),
            mem_wdata: Default::default(),
            mem_wbytes: Default::default(),
            mem_wlive: Default::default(),
            mem_wchecked: Default::default(),
            mem_rchecked: Default::default(),
            mem_wfault: Default::default(),
            mem_rfault: Default::default(),
            mem_rlive: Default::default(),
            mem_rfresh: Default::default(),
            live_lo: Default::default(),
            live_hi: Default::default(),
            live_xh: Default::default(),
            live_xt: Default::default(),
            live_empty: Default::default(),
            live_hits: Default::default(),
            live_mb: Default::default(),
            live_mb_hits: Default::default(),
            k_valid_bit: Constant::new((1u64 << mbarrier_word::VALID_BIT).to_bits()),
            mb_word_raw: Default::default(),
            wake_valid: Default::default(),
            wake_cta: Default::default(),
            wake_warp: Default::default(),
            wake_lane: Default::default(),
            wake_pred: Default::default(),
            phase_valid: Default::default(),
            phase_slot: Default::default(),
            phase_word: Default::default(),
            phase_parity: Default::default(),
            release_valid: Default::default(),
            release_cta: Default::default(),
            release_id: Default::default(),
            release_warps: Default::default(),
            barrier: BarrierFile::new(config),
            mbar: MbarrierAlu::new(config),
            wnet: WarpNetwork::new(config),
            atom: AtomicAlu::new(config),
            copy: CopyEngine::new(config),
            wn_value: (0..config.lanes_per_beat).map(|_| ZeroExtend::default()).collect(),
            wn_beat: Default::default(),
            wn_beats_sent: Default::default(),
            wn_beat_op: Default::default(),
            k_wn_last_beat: k(beats_per_request(config) as u64 - 1),
            k_wn_beat_ops: BEAT_OPS.iter().map(|&o| Constant::new(op_code(o))).collect(),
            _wn_lanes: config.lanes_per_beat as usize,
            _wn_lanes_end: config.lanes_per_beat as usize + 1,
            wn_row: Default::default(),
            wn_part: Default::default(),
            k_wn_log_parts: k((row_lanes / config.lanes_per_beat as usize).trailing_zeros() as u64),
            k_wn_part_mask: k((row_lanes / config.lanes_per_beat as usize) as u64 - 1),
            wn_parts: (0..(row_lanes / config.lanes_per_beat as usize) as u64).map(k).collect(),
            _wn_parts: row_lanes / config.lanes_per_beat as usize,
            rem_step: Default::default(),
            k_step_hold: k(0),
            k_step_advance: k(1),
            k_step_load: k(2),
            k_step_clear: k(3),
            rem_after: Default::default(),
            row_hold: Default::default(),
            pick_next: Default::default(),
            pick_next_number: Default::default(),
            pick_row: Default::default(),
            pick_bank: Default::default(),
            k_op_row_log: k(row_lanes.trailing_zeros() as u64),
            k_op_row_mask: k(row_lanes as u64 - 1),
            _row_lanes: row_lanes,
            blocked: DepthRam::block(lane_ram_bits(config) + 1),
            tbl_wr_id: Default::default(),
            tbl_wr_lanes: Default::default(),
            k_tbl_cluster: Constant::new(16u64.to_bits()),
            k_tbl_id_shift: Constant::new((warp_index_bits(config) as u64).to_bits()),
            k_tbl_cta_shift: Constant::new((warp_index_bits(config) as u64 + 5).to_bits()),
            k_op_cl_wait: op(Op::BarClusterWait),
            rel_bar: Default::default(),
            lane_id: (0..LANES as u64).map(k::<5>).collect(),
            k_row_bits: k(shared_row_bits(config) as u64),
            k_log_row: k(log2(R)),
            k_log_words: k(log2(R / 8)),
            k_row_mask: k(R as u64 - 1),
            k_line_mask: k((R as u64 - 1) & !15),
            k_ce_off_mask: Constant::new(((R as u64 - 1) & !(B as u64 - 1)).to_bits()),
            k_word_mask: k(R as u64 / 8 - 1),
            k_rows_last: k((config.shared_bytes as u64).div_ceil(R as u64) - 1),
            k_all_bytes: Constant::new(Bits::<R>::mask()),
            k_op_st: op(Op::StShared),
            k_op_exit: op(Op::WarpExit),
            k_op_red_popc: op(Op::BarRedPopc),
            k_op_red_and: op(Op::BarRedAnd),
            k_op_red_or: op(Op::BarRedOr),
            k_err_none: err(ErrorCode::None),
            k_space_cluster: k(Space::SharedCluster.code() as u64),
            k_one128: k(1),
            k_ones128: Constant::new(Bits::<128>::mask()),
            k_err_not_built: err(ErrorCode::NotBuilt),
            k_err_retry: err(ErrorCode::Retry),
            k_err_range: err(ErrorCode::SharedOutOfRange),
            k_err_shared_align: err(ErrorCode::SharedAlign),
            k_err_plain: err(ErrorCode::MbarrierPlainAccess),
            chk_lane: Default::default(),
            plain_stop: Default::default(),
            k_s_idle: k(S_IDLE),
            k_s_bar_wait: k(S_BAR_WAIT),
            k_s_bar_rel: k(S_BAR_REL),
            k_s_seq: k(S_SEQ),
            k_s_seq_drain: k(S_SEQ_DRAIN),
            k_s_wn_wait: k(S_WN_WAIT),
            k_s_atom: k(S_ATOM),
            k_s_copy: k(S_COPY),
            state: Default::default(),
            rem: Default::default(),
            drain: Default::default(),
            ld_valid: Default::default(),
            ld_lane: Default::default(),
            ld_mask: Default::default(),
            mb_rd_off: Default::default(),
            ce_rd_off: Default::default(),
            seq_rd_off: Default::default(),
            at_rd_off: Default::default(),
            at_rd_valid: Default::default(),
            ce_ev1: Default::default(),
            ce_ev_valid: Default::default(),
            ce_w_valid: Default::default(),
            ce_w_row: Default::default(),
            ce_w_data: Default::default(),
            ce_w_bytes: Default::default(),
            ce_ev_op: Default::default(),
            ce_ev_flags: Default::default(),
            ce_ev_slot: Default::default(),
            ce_ev_addr: Default::default(),
            ce_ev_a: Default::default(),
            ce_ev2: Default::default(),
            ce_ev3: Default::default(),
            cp_answered: Default::default(),
            exit_wn_done: Default::default(),
            wn_offered: Default::default(),
            clr_pending: Default::default(),
            clr_active: Default::default(),
            clr_slot: Default::default(),
            clr_row: Default::default(),
            clr_mask: Default::default(),
            clr_wait: Default::default(),
            results: ResultStore::new(config),
            res_write: Default::default(),
            res_lane: Default::default(),
            res_data: Default::default(),
            k_bank_mask: k(config.lanes_per_beat as u64 - 1),
            k_log_lanes5: k(config.lanes_per_beat.trailing_zeros() as u64),
            acc_preds: Default::default(),
            acc_suspended: Default::default(),
            acc_error: Default::default(),
            acc_error_lane: Default::default(),
            rel_rem: Default::default(),
            rel_cta: Default::default(),
            rel_popc: Default::default(),
            rel_and: Default::default(),
            rel_or: Default::default(),
            rel_rd_valid: Default::default(),
            rel_rd_warp: Default::default(),
            o_valid: Default::default(),
            o_tag: Default::default(),
            o_cta: Default::default(),
            o_warp: Default::default(),
            o_lanes: Default::default(),
            o_source: Default::default(),
            row_atom: (0..config.lanes_per_beat as usize).map(|_| Default::default()).collect(),
            row_wn: (0..config.lanes_per_beat as usize).map(|_| Default::default()).collect(),
            row_lanes: Default::default(),
            popc_wide: Default::default(),
            k_src_acc: k(0),
            k_src_atom: k(1),
            k_src_wn: k(2),
            k_src_popc: k(3),
            k_log_lanes: k(config.lanes_per_beat.trailing_zeros() as u64),
            k_lane_bit: (0..config.lanes_per_beat as usize).map(|i| k(1 << i)).collect(),
            o_preds: Default::default(),
            o_error: Default::default(),
            o_error_lane: Default::default(),
            o_has_values: Default::default(),
            is_bar: Default::default(),
            is_mb: Default::default(),
            is_wn: Default::default(),
            is_atom: Default::default(),
            is_copy: Default::default(),
            not_built: Default::default(),
            first_active: Default::default(),
            active_low: Default::default(),
            pick: Default::default(),
            pick_id: Default::default(),
            pick_q: Default::default(),
            pick_id_q: Default::default(),
            pack_addr: PackLanes::new(),
            pack_src: PackLanes::new(),
            pack_mbar: PackLanes::new(),
            pack_a: PackLanes::new(),
            pack_b: PackLanes::new(),
            pack_c: PackLanes::new(),
            pick_off32: Default::default(),
            pick_off64: Default::default(),
            pick_off128: Default::default(),
            pick_addr: Default::default(),
            pick_src: Default::default(),
            pick_mbar: Default::default(),
            pick_a: Default::default(),
            pick_b: Default::default(),
            pick_c: Default::default(),
            mb_value_wide: Default::default(),
            ld_value: Default::default(),
            mem_rz: Default::default(),
            rel_pick: Default::default(),
            rel_pick_id: Default::default(),
            lsu_size: Default::default(),
            lsu_be: Default::default(),
            lsu_vmask: Default::default(),
            lsu_out_of_range: Default::default(),
            lsu_misaligned: Default::default(),
            seq_mb_issue: Default::default(),
            late_load: Default::default(),
            ce_mb_go: Default::default(),
            ce_ev_take: Default::default(),
            seq_rgrant: Default::default(),
            seq_wgrant: Default::default(),
            clr_we: Default::default(),
            clr_pick: Default::default(),
            clr_pick_id: Default::default(),
            seq_addr: Default::default(),
            seq_raddr: Default::default(),
            seq_slot: Default::default(),
            seq_row: Default::default(),
            seq_off: Default::default(),
            seq_rrow: Default::default(),
            seq_wdata: Default::default(),
            seq_be: Default::default(),
            seq_wbytes: Default::default(),
            seq_re: Default::default(),
            seq_we: Default::default(),
            lsu_re: Default::default(),
            lsu_we: Default::default(),
            at_shared_r: Default::default(),
            at_shared_w: Default::default(),
            seq_rdata: Default::default(),
            mb_rd_row: Default::default(),
            mb_wr_row: Default::default(),
            mb_wr_off: Default::default(),
            ce_rd_row: Default::default(),
            ce_wr_row: Default::default(),
            ce_wr_off: Default::default(),
            table_op: Default::default(),
            table_active: Default::default(),
            table_tag: Default::default(),
        }
    }
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> Logic for SyncUnitCore<D, B, RD, R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            rem,
            pick_q,
            pick_id_q,
            drain,
            ld_valid,
            ld_lane,
            ld_mask,
            mb_rd_off,
            ce_rd_off,
            seq_rd_off,
            at_rd_off,
            at_rd_valid,
            ce_ev1,
            ce_ev_valid,
            ce_w_valid,
            ce_w_row,
            ce_w_data,
            ce_w_bytes,
            ce_ev_op,
            ce_ev_flags,
            ce_ev_slot,
            ce_ev_addr,
            ce_ev_a,
            ce_ev2,
            ce_ev3,
            cp_answered,
            exit_wn_done,
            wn_offered,
            wn_beat,
            wn_beats_sent,
            clr_pending,
            clr_active,
            clr_slot,
            clr_row,
            acc_preds,
            acc_suspended,
            acc_error,
            chk_lane,
            plain_stop,
            acc_error_lane,
            rel_rem,
            rel_cta,
            rel_bar,
            rel_popc,
            rel_and,
            rel_or,
            rel_rd_valid,
            rel_rd_warp,
            o_valid,
            o_tag,
            o_cta,
            o_warp,
            o_lanes,
            o_preds,
            o_error,
            o_error_lane,
            o_has_values,
            o_source
        );
        self.o_valid.d.next = self.o_valid.q.val() && !self.resp_taken.val();
        self.ld_valid.d.next = false;
        self.at_rd_valid.d.next = false;
        self.req_done.next = false;

        // ---------------- response port ----------------
        self.resp_valid.next = self.o_valid.q.val();
        self.resp_tag.next = self.o_tag.q.val();
        self.resp_cta.next = self.o_cta.q.val();
        self.resp_warp.next = self.o_warp.q.val();
        self.resp_lanes.next = self.o_lanes.q.val();
        self.resp_preds.next = self.o_preds.q.val();
        self.resp_error.next = self.o_error.q.val();
        self.resp_error_lane.next = self.o_error_lane.q.val();
        self.resp_has_values.next = self.o_has_values.q.val();
        // The row of values the egress reads, from the result register the response names.
        self.atom.resp_row.next = self.resp_row.val();
        self.wnet.resp_row.next = self.resp_row.val();
        for i in 0..self._wn_lanes {
            self.row_atom[i].next = self.atom.resp_row_values[i].val();
            self.row_wn[i].next = self.wn_value[i].wide.val();
        }
        if self.fault_inject.val() && (self.resp_row.val() == 0) {
            // TEST ONLY (see the port): a deliberately wrong warp-network answer in lane 0.
            self.row_wn[0].next = self.wn_value[0].wide.val() ^ self.k_one128.val();
        }
        // bar.red.popc: every released lane gets the count.
        self.row_lanes.next =
            self.o_lanes.q.val() >> (bit_cast::<32, 5>(self.resp_row.val()) << self.k_log_lanes.val());
        self.popc_wide.next = bit_cast::<128, 11>(self.rel_popc.q.val());
        self.results.row.next = self.resp_row.val();
        for i in 0..self._wn_lanes {
            self.resp_row_values[i].next = self.results.row_values[i].val();
            if self.o_source.q.val() == self.k_src_atom.val() {
                self.resp_row_values[i].next = self.row_atom[i].val();
            }
            if self.o_source.q.val() == self.k_src_wn.val() {
                self.resp_row_values[i].next = self.row_wn[i].val();
            }
            if self.o_source.q.val() == self.k_src_popc.val() {
                self.resp_row_values[i].next = 0.into();
                // A whole-mask AND (not a bit select): every bit of `row_lanes` is used, so lint
                // has no unused bits to report on a narrow row.
                if (self.row_lanes.val() & self.k_lane_bit[i].val()) != 0 {
                    self.resp_row_values[i].next = self.popc_wide.val();
                }
            }
        }
        self.busy.next = (self.state.q.val() != self.k_s_idle.val())
            || self.o_valid.q.val()
            || self.copy.busy.val()
            || self.barrier.busy.val()
            || self.ce_ev_valid.q.val()
            || self.ce_w_valid.q.val()
            || self.ce_ev1.q.val()
            || self.ce_ev2.q.val()
            || self.ce_ev3.q.val()
            || self.clr_active.q.val()
            || (self.clr_pending.q.val() != 0);

        // ---------------- the request's decode, registered by the ingress ----------------
        self.is_bar.next = self.req_is_bar.val();
        self.is_mb.next = self.req_is_mb.val();
        self.is_wn.next = self.req_is_wn.val();
        self.is_atom.next = self.req_is_atom.val();
        self.is_copy.next = self.req_is_copy.val();
        self.not_built.next = self.req_not_built.val();
        // ld/st.shared byte enables and value mask from the access size (1..16 bytes; another
        // size is `not_built`).
        self.lsu_size.next = self.req_lsu_size.val();
        self.lsu_be.next = 0xffff.into();
        self.lsu_vmask.next = self.k_ones128.val();
        if self.lsu_size.val() == 1 {
            self.lsu_be.next = 0x1.into();
            self.lsu_vmask.next = 0xff.into();
        } else if self.lsu_size.val() == 2 {
            self.lsu_be.next = 0x3.into();
            self.lsu_vmask.next = 0xffff.into();
        } else if self.lsu_size.val() == 4 {
            self.lsu_be.next = 0xf.into();
            self.lsu_vmask.next = 0xffff_ffff_u64.into();
        } else if self.lsu_size.val() == 8 {
            self.lsu_be.next = 0xff.into();
            self.lsu_vmask.next = 0xffff_ffff_ffff_ffff_u64.into();
        }

        // ---------------- lane pickers ----------------
        self.active_low.next = self.req_active.val() & (!self.req_active.val() + 1u64);
        self.pick.next = self.pick_q.q.val();
        self.rel_pick.next = self.rel_rem.q.val() & (!self.rel_rem.q.val() + 1u64);
        self.first_active.next = 0.into();
        self.rel_pick_id.next = 0.into();
        self.barrier.req_pred.next = self.req_pred.val();
        // The picked lane's number (`pick_id_q`), its operand-store row (`rd_row_*` below) and its
        // operands as part-selects of that row packed (a B:1 mux per bit; see `PackLanes`).
        self.pick_id.next = self.pick_id_q.q.val();
        self.pick_bank.next = self.pick_id.val() & self.k_op_row_mask.val();
        for i in 0..self._row_lanes {
            self.pack_addr.lane[i].next = self.row_addr[i].val();
            self.pack_src.lane[i].next = self.row_src[i].val();
            self.pack_mbar.lane[i].next = self.row_mbar[i].val();
            self.pack_a.lane[i].next = self.row_a[i].val();
            self.pack_b.lane[i].next = self.row_b[i].val().get_bits::<64>(0);
            self.pack_c.lane[i].next = self.row_c[i].val().get_bits::<32>(0);
        }
        for i in self._row_lanes..32 {
            self.pack_addr.lane[i].next = 0.into();
            self.pack_src.lane[i].next = 0.into();
            self.pack_mbar.lane[i].next = 0.into();
            self.pack_a.lane[i].next = 0.into();
            self.pack_b.lane[i].next = 0.into();
            self.pack_c.lane[i].next = 0.into();
        }
        self.pick_off32.next = bit_cast::<10, 5>(self.pick_bank.val()) << 5u64;
        self.pick_off64.next = bit_cast::<11, 5>(self.pick_bank.val()) << 6u64;
        self.pick_off128.next = bit_cast::<12, 5>(self.pick_bank.val()) << 7u64;
        self.pick_addr.next = self.pack_addr.word.val().get_bits::<64>(self.pick_off64.val().index());
        self.pick_src.next = self.pack_src.word.val().get_bits::<64>(self.pick_off64.val().index());
        self.pick_mbar.next = self.pack_mbar.word.val().get_bits::<64>(self.pick_off64.val().index());
        self.pick_a.next = self.pack_a.word.val().get_bits::<128>(self.pick_off128.val().index());
        self.pick_b.next = self.pack_b.word.val().get_bits::<64>(self.pick_off64.val().index());
        self.pick_c.next = self.pack_c.word.val().get_bits::<32>(self.pick_off32.val().index());
        for i in 0..32 {
            if self.active_low.val().get_bit(i) {
                self.first_active.next = self.lane_id[i].val();
            }
            if self.rel_pick.val().get_bit(i) {
                self.rel_pick_id.next = self.lane_id[i].val();
            }
        }

        // ---------------- LSU address checks ----------------
        // The ingress checked every lane's address as its beat came in (`RequestIngress`,
        // `h_lsu_misaligned`): the picked lane's faults are a register AND a register, so the
        // operand store's row, an adder and a compare are not in front of the sequencer's step.
        self.lsu_misaligned.next = (self.pick.val() & self.req_lsu_misaligned.val()) != 0;
        self.lsu_out_of_range.next = (self.pick.val() & self.req_lsu_out_of_range.val()) != 0;

        // ---------------- barrier file ----------------
        self.barrier.clock.next = self.clock.val();
        self.barrier.reset.next = self.reset.val();
        self.barrier.launch.next = self.launch.val();
        self.barrier.launch_slot.next = self.launch_slot.val();
        self.barrier.launch_warps.next = self.launch_warps.val();
        self.barrier.req_valid.next = false;
        self.barrier.req_op.next = self.req_op.val();
        self.barrier.req_flags.next = self.req_flags.val();
        self.barrier.req_cta.next = self.req_cta.val();
        self.barrier.req_warp.next = self.req_warp.val();
        self.barrier.req_id.next = self.req_imm.val();
        self.barrier.req_count.next = self.req_imm2.val();
        self.barrier.req_active.next = self.req_active.val();
        self.barrier.req_live.next = self.req_live.val();
        // A release is taken when the FSM is idle (before any new request) or with the answer to
        // the request that completed it; the cluster barrier's releases are not trace events.
        self.barrier.rel_ready.next = (self.state.q.val() == self.k_s_idle.val())
            || ((self.state.q.val() == self.k_s_bar_wait.val()) && self.barrier.resp_valid.val());
        self.release_valid.next = self.barrier.rel_valid.val() && !self.barrier.rel_cluster.val();
        self.release_cta.next = self.barrier.rel_cta.val();
        self.release_id.next = self.barrier.rel_id.val();
        self.release_warps.next = self.barrier.rel_arrived.val();

        // ---------------- blocked-warp table ----------------
        self.blocked.read_clock.next = self.clock.val();
        self.blocked.write_clock.next = self.clock.val();
        // (read: the walker's warp while it walks a release, else the request's cluster entry)
        self.blocked.read_address.next = (bit_cast::<LANE_ADDR_BITS, 5>(self.req_cta.val())
            << self.k_tbl_cta_shift.val())
            | (bit_cast::<LANE_ADDR_BITS, 5>(self.k_tbl_cluster.val()) << self.k_tbl_id_shift.val())
            | bit_cast::<LANE_ADDR_BITS, 5>(self.req_warp.val());
        if self.state.q.val() == self.k_s_bar_rel.val() {
            self.blocked.read_address.next = (bit_cast::<LANE_ADDR_BITS, 5>(self.rel_cta.q.val())
                << self.k_tbl_cta_shift.val())
                | (bit_cast::<LANE_ADDR_BITS, 5>(self.rel_bar.q.val()) << self.k_tbl_id_shift.val())
                | bit_cast::<LANE_ADDR_BITS, 5>(self.rel_pick_id.val());
        }
        self.table_tag.next = bit_cast::<64, TABLE_BITS>(self.blocked.read_data.val());
        self.table_active.next = bit_cast::<32, TABLE_BITS>(self.blocked.read_data.val() >> 64u64);
        self.table_op.next = bit_cast::<6, TABLE_BITS>(self.blocked.read_data.val() >> 96u64);
        self.tbl_wr_id.next = bit_cast::<5, 4>(self.req_imm.val().get_bits::<4>(0));
        self.tbl_wr_lanes.next = self.barrier.resp_lanes.val();
        if self.req_op.val() == self.k_op_cl_wait.val() {
            self.tbl_wr_id.next = self.k_tbl_cluster.val();
            self.tbl_wr_lanes.next = self.barrier.resp_lanes.val() | self.table_active.val();
        }
        self.blocked.write_address.next = (bit_cast::<LANE_ADDR_BITS, 5>(self.barrier.resp_cta.val())
            << self.k_tbl_cta_shift.val())
            | (bit_cast::<LANE_ADDR_BITS, 5>(self.tbl_wr_id.val()) << self.k_tbl_id_shift.val())
            | bit_cast::<LANE_ADDR_BITS, 5>(self.barrier.resp_warp.val());
        self.blocked.write_data.next = (bit_cast::<TABLE_BITS, 6>(self.req_op.val()) << 96u64)
            | (bit_cast::<TABLE_BITS, 32>(self.tbl_wr_lanes.val()) << 64u64)
            | bit_cast::<TABLE_BITS, 64>(self.req_tag.val());
        // (the walker's zeroing of an answered cluster entry: the cluster's lanes gather anew)
        if self.state.q.val() == self.k_s_bar_rel.val() {
            self.blocked.write_address.next = (bit_cast::<LANE_ADDR_BITS, 5>(self.rel_cta.q.val())
                << self.k_tbl_cta_shift.val())
                | (bit_cast::<LANE_ADDR_BITS, 5>(self.rel_bar.q.val()) << self.k_tbl_id_shift.val())
                | bit_cast::<LANE_ADDR_BITS, 5>(self.rel_rd_warp.q.val());
            self.blocked.write_data.next = 0.into();
        }
        self.blocked.write_enable.next = false;

        // ---------------- mbarrier ALU: the sequenced request's lanes, else copy-engine events ----------------
        // Decided from registered state before anything reads the memory grants (one
        // combinational block, in order).
        self.seq_mb_issue.next =
            (self.state.q.val() == self.k_s_seq.val()) && self.is_mb.val() && (self.rem.q.val() != 0);
        // The held copy-engine event goes when the sequencer does not issue; the engine's next
        // event is taken into the register as it empties (one event per cycle, one cycle later).
        self.ce_mb_go.next = self.ce_ev_valid.q.val() && !self.seq_mb_issue.val();
        self.ce_ev_take.next = self.copy.mb_valid.val() && (!self.ce_ev_valid.q.val() || !self.seq_mb_issue.val());
        self.copy.mb_ready.next = !self.ce_ev_valid.q.val() || !self.seq_mb_issue.val();
        if self.ce_mb_go.val() {
            self.ce_ev_valid.d.next = false;
        }
        if self.ce_ev_take.val() {
            self.ce_ev_valid.d.next = true;
            self.ce_ev_op.d.next = self.copy.mb_op.val();
            self.ce_ev_flags.d.next = self.copy.mb_flags.val();
            self.ce_ev_slot.d.next = self.copy.mb_slot.val();
            self.ce_ev_addr.d.next = self.copy.mb_addr.val();
            self.ce_ev_a.d.next = self.copy.mb_a.val();
        }
        self.mbar.clock.next = self.clock.val();
        self.mbar.reset.next = self.reset.val();
        self.mbar.req_valid.next = self.seq_mb_issue.val() || self.ce_mb_go.val();
        self.mbar.req_op.next = self.req_op.val();
        self.mbar.req_flags.next = self.req_flags.val();
        self.mbar.req_cta.next = self.req_cta.val();
        self.mbar.req_warp.next = self.req_warp.val();
        self.mbar.req_lane.next = self.pick_id.val();
        self.mbar.req_slot.next = self.req_cta.val();
        self.mbar.req_addr.next = self.pick_addr.val();
        self.mbar.req_a.next = self.pick_a.val().get_bits::<64>(0);
        self.mbar.req_b.next = self.pick_b.val();
        if !self.seq_mb_issue.val() {
            self.mbar.req_op.next = self.ce_ev_op.q.val();
            self.mbar.req_flags.next = self.ce_ev_flags.q.val();
            self.mbar.req_cta.next = self.ce_ev_slot.q.val();
            self.mbar.req_warp.next = 0.into();
            self.mbar.req_lane.next = 0.into();
            self.mbar.req_slot.next = self.ce_ev_slot.q.val();
            self.mbar.req_addr.next = self.ce_ev_addr.q.val();
            self.mbar.req_a.next = self.ce_ev_a.q.val();
            self.mbar.req_b.next = 0.into();
        }
        self.ce_ev1.d.next = self.ce_mb_go.val();
        self.ce_ev2.d.next = self.ce_ev1.q.val();
        self.ce_ev3.d.next = self.ce_ev2.q.val();
        // The ALU's answer to a copy-engine event goes back to the engine (in order, one each).
        self.copy.mb_resp_valid.next = self.mbar.resp_valid.val() && self.ce_ev3.q.val();
        self.copy.mb_resp_error.next = self.mbar.resp_error.val();
        self.mbar.timeout.next = self.timeout.val();
        self.mbar.launch.next = self.launch.val();
        self.mbar.launch_slot.next = self.launch_slot.val();
        self.wake_valid.next = self.mbar.wake_valid.val();
        self.wake_cta.next = self.mbar.wake_cta.val();
        self.wake_warp.next = self.mbar.wake_warp.val();
        self.wake_lane.next = self.mbar.wake_lane.val();
        self.wake_pred.next = self.mbar.wake_pred.val();
        self.phase_valid.next = self.mbar.done_valid.val();
        self.phase_slot.next = self.mbar.done_slot.val();
        self.phase_word.next = self.mbar.done_word.val();
        self.phase_parity.next = self.mbar.done_parity.val();

        // ---------------- shared-memory arbitration ----------------
        // Read port: mbarrier ALU > copy engine (`sm_rgrant`) > LSU / atomic ALU.
        // Write port: mbarrier ALU (its write-back in S1b, two cycles after a read it was
        // granted, announced by `mem_we_next`) > copy engine (its write registered, `ce_w_*`)
        // > clearing > LSU / atomic ALU.
        // Granted from registers and the request's decode, not from `mem_rd` (which the
        // sequencer's `rem` decides): a superset of the cycles the mbarrier ALU reads (the
        // sequencer's mbarrier request, its last lanes' drain included, or a held event).
        self.copy.sm_rgrant.next =
            !(((self.state.q.val() == self.k_s_seq.val()) && self.is_mb.val()) || self.ce_ev_valid.q.val());
        // The copy engine's bulk reducer borrows the atomic ALU's lead element (one element
        // datapath for both; lent while the ALU is idle).
        self.atom.lend_req.next = self.copy.elem_req.val();
        self.atom.lend_op.next = self.copy.elem_op.val();
        self.atom.lend_dtype.next = self.copy.elem_dtype.val();
        self.atom.lend_r.next = self.copy.elem_r.val();
        self.atom.lend_s.next = self.copy.elem_s.val();
        self.copy.elem_grant.next = self.atom.lend_grant.val();
        self.copy.elem_value.next = self.atom.lend_value.val();
        self.live_lo.next = self.copy.live_lo.val();
        self.live_hi.next = self.copy.live_hi.val();
        self.live_xh.next = self.copy.live_xh.val();
        self.live_xt.next = self.copy.live_xt.val();
        self.live_empty.next = self.copy.live_empty.val();
        self.copy.live_hits.next = self.live_hits.val();
        self.live_mb.next = self.copy.live_mb.val();
        self.copy.live_mb_hits.next = self.live_mb_hits.val();
        // The mbarrier ALU's write is arbitrated on `mem_we_hold` (a flip-flop: the port held
        // for the op in S1b), so that S1b's checks do not chain into the other units' stalls;
        // an op that fails leaves that cycle's write port unused.
        // The copy engine's writes reach the RAM a cycle late (`ce_w_*`), so a beat made now must
        // not meet the mbarrier ALU's write next cycle: `mem_we_next` (S1a's decode) keeps
        // global beats and the reducer's write back; a shared-source beat's read was granted
        // only with no mbarrier read, and every mbarrier write follows its read by two cycles.
        self.copy.gm_rvalid.next = self.gm_rvalid.val() && !self.mbar.mem_we_next.val();
        self.gm_rready.next = self.copy.gm_rready.val() && !self.mbar.mem_we_next.val();
        self.copy.sm_wgrant.next = !self.mbar.mem_we_next.val();
        // On the copy engine's read want, not its granted read: its grant logic stays out of the
        // LSU's and the atomic ALU's (a cycle is lost when it wants a read it is not granted).
        // The mbarrier ALU's read in a cycle the LSU or the atomic ALU may read is the held
        // copy-engine event's: the sequencer's own mbarrier lanes (`seq_mb_issue`) are never in
        // the same cycle as its LSU lanes or the atomic state. So the grant is one of registers,
        // not of `mem_rd` (which the sequencer's `rem` decides).
        self.seq_rgrant.next = !self.ce_ev_valid.q.val() && !self.copy.sm_rwant.val();
        self.seq_wgrant.next = !self.mbar.mem_we_hold.val() && !self.ce_w_valid.q.val() && !self.clr_active.q.val();

        // ---------------- shared-memory clearing at CTA launch ----------------
        // A launch clears its slot at once through the shared RAM's row generations
        // (`SharedMemory`); only a launch that takes the slot's generation round (one in 16)
        // writes zeros into every row here. One row per free write cycle, slot after slot. A request waits while its own slot is
        // not cleared yet (its CTA's accesses must not meet the walker's zeros), and while any
        // slot is not, a request that may reach another slot's shared memory (a copy-engine
        // op: multicast and shared::cluster destinations; a shared::cluster access); the other
        // slots' requests go on (in a timed run a CTA starts while the others run: before, every
        // request waited the whole clear, 1,024 cycles per launch on fpga-small).
        self.clr_mask.next = self.clr_pending.q.val();
        if self.clr_active.q.val() {
            self.clr_mask.next = self.clr_pending.q.val() | (bit_cast::<32, 5>(1.into()) << self.clr_slot.q.val());
        }
        self.clr_wait.next = (((self.clr_mask.val() >> self.req_cta.val()) & 1u64) != 0)
            || ((self.clr_mask.val() != 0)
                && (self.is_copy.val() || (self.req_space.val() == self.k_space_cluster.val())));
        self.clr_pick.next = self.clr_pending.q.val() & (!self.clr_pending.q.val() + 1u64);
        self.clr_pick_id.next = 0.into();
        for i in 0..32 {
            if self.clr_pick.val().get_bit(i) {
                self.clr_pick_id.next = self.lane_id[i].val();
            }
        }
        self.clr_we.next = self.clr_active.q.val() && !self.mbar.mem_we_hold.val() && !self.ce_w_valid.q.val();
        if self.clr_we.val() {
            self.clr_row.d.next = self.clr_row.q.val() + 1u64;
            if self.clr_row.q.val() == self.k_rows_last.val() {
                self.clr_active.d.next = false;
            }
        }
        if !self.clr_active.q.val() && (self.clr_pending.q.val() != 0) {
            self.clr_active.d.next = true;
            self.clr_slot.d.next = self.clr_pick_id.val();
            self.clr_row.d.next = 0.into();
            self.clr_pending.d.next = self.clr_pending.q.val() & !self.clr_pick.val();
        }
        if self.launch.val() && self.launch_clears.val() {
            self.clr_pending.d.next =
                self.clr_pending.d.val() | (bit_cast::<32, 5>(1.into()) << self.launch_slot.val());
        }

        // Row addresses of the mbarrier ALU's word and the copy engine's beats.
        self.mb_rd_row.next = (bit_cast::<RAM_ADDR_BITS, 5>(self.mbar.mem_rd_slot.val()) << self.k_row_bits.val())
            | bit_cast::<RAM_ADDR_BITS, 15>(self.mbar.mem_rd_word.val() >> self.k_log_words.val());
        self.mb_wr_row.next = (bit_cast::<RAM_ADDR_BITS, 5>(self.mbar.mem_wr_slot.val()) << self.k_row_bits.val())
            | bit_cast::<RAM_ADDR_BITS, 15>(self.mbar.mem_wr_word.val() >> self.k_log_words.val());
        self.mb_wr_off.next = bit_cast::<OFF_BITS, 15>(self.mbar.mem_wr_word.val() & self.k_word_mask.val()) << 6u64;
        self.ce_rd_row.next = (bit_cast::<RAM_ADDR_BITS, 5>(self.copy.sm_rslot.val()) << self.k_row_bits.val())
            | bit_cast::<RAM_ADDR_BITS, 24>(self.copy.sm_raddr.val() >> self.k_log_row.val());
        self.ce_wr_row.next = (bit_cast::<RAM_ADDR_BITS, 5>(self.copy.sm_wslot.val()) << self.k_row_bits.val())
            | bit_cast::<RAM_ADDR_BITS, 24>(self.copy.sm_waddr.val() >> self.k_log_row.val());
        self.ce_wr_off.next = bit_cast::<OFF_BITS, 24>(self.copy.sm_waddr.val() & self.k_ce_off_mask.val());
        if self.mbar.mem_rd.val() {
            self.mb_rd_off.d.next =
                bit_cast::<OFF_BITS, 15>(self.mbar.mem_rd_word.val() & self.k_word_mask.val()) << 6u64;
        }
        if self.copy.sm_re.val() {
            self.ce_rd_off.d.next =
                bit_cast::<OFF_BITS, 24>(self.copy.sm_raddr.val() & self.k_ce_off_mask.val()) << 3u64;
        }
        // Last cycle's row, aligned for each reader.
        // The object's valid bit is the row's live bit of the word (`SharedMemory`, "Live
        // mbarrier words"), as the golden unit's live table decides, not the stored bit 62.
        // The row read, zeros for an older CTA's row (the LSU's load applies it after its shift).
        self.mem_rz.next = 0.into();
        if self.mem_rfresh.val() {
            self.mem_rz.next = self.mem_rdata.val();
        }
        self.mb_word_raw.next = bit_cast::<64, RD>(self.mem_rz.val() >> self.mb_rd_off.q.val());
        self.mbar.mem_rdata.next = self.mb_word_raw.val() & !self.k_valid_bit.val();
        if ((self.mem_rlive.val() >> (self.mb_rd_off.q.val() >> 6u64)) & 1u64) != 0 {
            self.mbar.mem_rdata.next = self.mb_word_raw.val() | self.k_valid_bit.val();
        }
        self.copy.sm_rdata.next = bit_cast::<D, RD>(self.mem_rz.val() >> self.ce_rd_off.q.val());
        self.seq_rdata.next = bit_cast::<128, RD>(self.mem_rdata.val() >> self.seq_rd_off.q.val());

        // ---------------- warp network ----------------
        self.wnet.clock.next = self.clock.val();
        self.wnet.reset.next = self.reset.val();
        self.wnet.req_valid.next = false;
        self.wnet.req_op.next = self.req_op.val();
        self.wnet.req_sub.next = bit_cast::<3, SUB_BITS>(self.req_sub.val());
        self.wnet.req_dtype.next = self.req_dtype.val();
        self.wnet.req_flags.next = self.req_flags.val();
        self.wnet.req_cta.next = self.req_cta.val();
        self.wnet.req_warp.next = self.req_warp.val();
        self.wnet.req_member.next = self.req_member.val();
        self.wnet.req_active.next = self.req_active.val();
        self.wnet.req_live.next = self.req_live.val();
        self.wnet.req_pred.next = self.barrier.req_pred.val();
        for i in 0..self._wn_lanes {
            self.wn_value[i].narrow.next = self.wnet.resp_row_values[i].val();
        }
        // Operand beats: lanes `L*g .. L*g+L-1` of the held request for beat g, offered while the
        // request is the network's (before and after its header is taken) until the last is taken.
        self.wn_beat_op.next = false;
        for b in 0..4 {
            if self.req_op.val() == self.k_wn_beat_ops[b].val() {
                self.wn_beat_op.next = true;
            }
        }
        self.wnet.beat_valid.next = self.req_valid.val()
            && self.wn_beat_op.val()
            && !self.wn_beats_sent.q.val()
            && (((self.state.q.val() == self.k_s_idle.val()) && !self.o_valid.q.val())
                || (self.state.q.val() == self.k_s_wn_wait.val()));
        for i in 0..self._wn_lanes {
            self.wnet.beat_a[i].next = 0.into();
            self.wnet.beat_b[i].next = 0.into();
            self.wnet.beat_clamp[i].next = 0.into();
            self.wnet.beat_segmask[i].next = 0.into();
        }
        // Beat g is part `g % (B / L)` of store row `g / (B / L)` (`rd_row_a`, `rd_row_bc`).
        self.wn_part.next = self.wn_beat.q.val() & self.k_wn_part_mask.val();
        for l in self._wn_lanes..self._wn_lanes_end {
            for p in 0..self._wn_parts {
                if self.wn_part.val() == self.wn_parts[p].val() {
                    for i in 0..self._wn_lanes {
                        self.wnet.beat_a[i].next = self.row_a[l * p + i].val().get_bits::<64>(0);
                        self.wnet.beat_b[i].next = self.row_b[l * p + i].val().get_bits::<5>(0);
                        self.wnet.beat_clamp[i].next = self.row_c[l * p + i].val().get_bits::<5>(0);
                        self.wnet.beat_segmask[i].next = self.row_c[l * p + i].val().get_bits::<5>(8);
                    }
                }
            }
        }
        if self.wnet.beat_valid.val() && self.wnet.beat_ready.val() {
            self.wn_beat.d.next = self.wn_beat.q.val() + 1;
            if self.wn_beat.q.val() == self.k_wn_last_beat.val() {
                self.wn_beats_sent.d.next = true;
            }
        }

        // ---------------- atomic ALU (whole warp request; its memory port below) ----------------
        self.atom.clock.next = self.clock.val();
        self.atom.reset.next = self.reset.val();
        self.atom.req_valid.next = false;
        self.atom.req_op.next = self.req_op.val();
        self.atom.req_sub.next = self.req_sub.val();
        self.atom.req_dtype.next = self.req_dtype.val();
        self.atom.req_flags.next = self.req_flags.val();
        self.atom.req_space.next = self.req_space.val();
        self.atom.req_vec.next = self.req_vec.val();
        self.atom.req_cta.next = self.req_cta.val();
        self.atom.req_active.next = self.req_active.val();
        self.atom.global_end.next = self.global_end.val();
        for i in 0..self._row_lanes {
            self.atom.row_addr[i].next = self.row_addr[i].val();
            self.atom.row_mbar[i].next = self.row_mbar[i].val();
            self.atom.row_b[i].next = self.row_b[i].val();
            self.atom.row_c[i].next = self.row_c[i].val();
        }
        // The ALU's read and write channels: shared lines to the shared RAM's read and write
        // ports (granted like the LSU's, independently, so a step's write and the next step's
        // read share a cycle); global lines to the one ag_* port (a write first; the ALU
        // itself never asks for both there).
        self.at_shared_r.next =
            (self.state.q.val() == self.k_s_atom.val()) && self.atom.m_rreq.val() && !self.atom.m_global.val();
        self.at_shared_w.next =
            (self.state.q.val() == self.k_s_atom.val()) && self.atom.m_wreq.val() && !self.atom.m_global.val();
        self.ag_req.next = (self.state.q.val() == self.k_s_atom.val())
            && (self.atom.m_rreq.val() || self.atom.m_wreq.val())
            && self.atom.m_global.val();
        self.ag_we.next = self.atom.m_wreq.val();
        self.ag_addr.next = self.atom.m_raddr.val();
        if self.atom.m_wreq.val() {
            self.ag_addr.next = self.atom.m_waddr.val();
        }
        self.ag_wdata.next = self.atom.m_wdata.val();
        self.ag_be.next = self.atom.m_be.val();
        self.atom.m_wgrant.next = self.ag_grant.val();
        self.atom.m_rgrant.next = self.ag_grant.val() && !self.atom.m_wreq.val();
        if !self.atom.m_global.val() {
            self.atom.m_rgrant.next = self.seq_rgrant.val();
            self.atom.m_wgrant.next = self.seq_wgrant.val();
        }
        self.atom.m_rvalid.next = self.at_rd_valid.q.val() || self.ag_rvalid.val();
        self.atom.m_rdata.next = self.ag_rdata.val();
        self.atom.m_rlive.next = 0.into();
        if self.at_rd_valid.q.val() {
            self.atom.m_rdata.next = bit_cast::<128, RD>(self.mem_rz.val() >> self.at_rd_off.q.val());
            // the line's two 8-byte words' live bits (the ALU's plain-access check)
            self.atom.m_rlive.next = bit_cast::<2, 16>(self.mem_rlive.val() >> (self.at_rd_off.q.val() >> 6u64));
        }

        // ---------------- copy engine (one lane op per cycle from the sequencer) ----------------
        self.copy.clock.next = self.clock.val();
        self.copy.reset.next = self.reset.val();
        self.copy.req_valid.next = false;
        self.copy.req_op.next = self.req_op.val();
        self.copy.req_sub.next = self.req_sub.val();
        self.copy.req_dtype.next = self.req_dtype.val();
        self.copy.req_flags.next = self.req_flags.val();
        self.copy.req_space.next = self.req_space.val();
        self.copy.req_imm.next = self.req_imm.val().get_bits::<16>(0);
        self.copy.req_imm2.next = self.req_imm2.val().get_bits::<8>(0);
        self.copy.req_cta.next = self.req_cta.val();
        self.copy.req_warp.next = self.req_warp.val();
        self.copy.req_lane.next = self.pick_id.val();
        self.copy.req_addr.next = self.pick_addr.val();
        self.copy.req_src.next = self.pick_src.val();
        self.copy.req_mbar.next = self.pick_mbar.val();
        self.copy.req_a.next = self.pick_a.val();
        self.copy.req_b.next = self.pick_b.val();
        self.copy.req_c.next = self.pick_c.val();
        self.copy.req_tag.next = self.req_tag.val();
        self.gm_req.next = self.copy.gm_req.val();
        self.gm_we.next = self.copy.gm_we.val();
        self.gm_addr.next = self.copy.gm_addr.val();
        self.gm_wdata.next = self.copy.gm_wdata.val();
        self.gm_be.next = self.copy.gm_be.val();
        self.copy.gm_grant.next = self.gm_grant.val();
        self.copy.gm_rdata.next = self.gm_rdata.val();
        self.copy.global_end.next = self.global_end.val();

        // ---------------- collect per-lane results of the sequenced request ----------------
        self.mb_value_wide.next = bit_cast::<128, 64>(self.mbar.resp_value.val());
        self.ld_value.next = 0.into();
        if self.mem_rfresh.val() {
            self.ld_value.next = self.seq_rdata.val() & self.ld_mask.q.val();
        }
        self.results.clock.next = self.clock.val();
        self.results.clear.next = false;
        self.res_write.next = false;
        self.res_lane.next = self.mbar.resp_lane.val();
        self.res_data.next = self.mb_value_wide.val();
        if self.mbar.resp_valid.val()
            && !self.ce_ev3.q.val()
            && (self.mbar.resp_cta.val() == self.req_cta.val())
            && (self.mbar.resp_warp.val() == self.req_warp.val())
        {
            self.res_write.next = true;
        }
        if self.ld_valid.q.val() {
            self.res_write.next = true;
            self.res_lane.next = self.ld_lane.q.val();
            self.res_data.next = self.ld_value.val();
        }
        // One lane per cycle: lane k is bank k % L, word k / L of the store.
        for i in 0..self._wn_lanes {
            self.results.write[i].next =
                self.res_write.val() && ((self.res_lane.val() & self.k_bank_mask.val()) == self.lane_id[i].val());
            self.results.word[i].next = self.res_lane.val() >> self.k_log_lanes5.val();
            self.results.data[i].next = self.res_data.val();
        }
        if self.mbar.resp_valid.val() && !self.ce_ev3.q.val() {
            if self.mbar.resp_pred.val() {
                self.acc_preds.d.next =
                    self.acc_preds.q.val() | (bit_cast::<32, 5>(1.into()) << self.mbar.resp_lane.val());
            }
            if self.mbar.resp_suspended.val() {
                self.acc_suspended.d.next =
                    self.acc_suspended.q.val() | (bit_cast::<32, 5>(1.into()) << self.mbar.resp_lane.val());
            }
            if (self.mbar.resp_error.val() != self.k_err_none.val())
                && (self.acc_error.q.val() == self.k_err_none.val())
            {
                self.acc_error.d.next = self.mbar.resp_error.val();
                self.acc_error_lane.d.next = self.mbar.resp_lane.val();
            }
        }
        if (self.state.q.val() == self.k_s_copy.val())
            && self.copy.resp_valid.val()
            && (self.copy.resp_cta.val() == self.req_cta.val())
            && (self.copy.resp_warp.val() == self.req_warp.val())
        {
            self.cp_answered.d.next =
                self.cp_answered.q.val() | (bit_cast::<32, 5>(1.into()) << self.copy.resp_lane.val());
            if (self.copy.resp_error.val() != self.k_err_none.val())
                && (self.acc_error.q.val() == self.k_err_none.val())
            {
                self.acc_error.d.next = self.copy.resp_error.val();
                self.acc_error_lane.d.next = self.copy.resp_lane.val();
            }
        }

        // ---------------- late errors of the copy engine's mbarrier events ----------------
        // Loaded into the free response register while the top waits: idle with no release or
        // warp-network offer pending, or waiting for the copy engine's answers (a wait_group
        // may wait for copies whose events are queued behind the late error).
        self.late_load.next = self.copy.late_valid.val()
            && !self.o_valid.q.val()
            && (((self.state.q.val() == self.k_s_idle.val())
                && !self.wn_offered.q.val()
                && !self.barrier.rel_valid.val())
                || ((self.state.q.val() == self.k_s_copy.val())
                    && (self.rem.q.val() == 0)
                    && (self.cp_answered.q.val() != self.req_active.val())));
        self.copy.late_ready.next = self.late_load.val();

        // ---------------- the request FSM ----------------
        self.lsu_re.next = false;
        self.lsu_we.next = false;
        self.rem_step.next = self.k_step_hold.val();
        if (self.state.q.val() == self.k_s_idle.val()) && self.wn_offered.q.val() {
            if self.wnet.req_refused.val() {
                // Refused until a record of its warp is dropped: answered `Retry` (its lanes
                // none, nothing executed), so that it leaves the queue and the sender offers it
                // again after the next answer to its warp. Kept in the queue, refused requests
                // of several warps filled it and the requests that complete their warps'
                // rendezvous could not enter (a deadlock). With the response register busy the
                // offer is dropped and made again.
                if !self.o_valid.q.val() {
                    self.o_valid.d.next = true;
                    self.o_has_values.d.next = false;
                    self.o_tag.d.next = self.req_tag.val();
                    self.o_cta.d.next = self.req_cta.val();
                    self.o_warp.d.next = self.req_warp.val();
                    self.o_lanes.d.next = 0.into();
                    self.o_preds.d.next = 0.into();
                    self.o_error.d.next = self.k_err_retry.val();
                    self.o_error_lane.d.next = 0.into();
                    self.req_done.next = true;
                }
            } else {
                self.wnet.req_valid.next = true;
                if self.wnet.req_ready.val() {
                    self.state.d.next = self.k_s_wn_wait.val();
                }
            }
        } else if self.state.q.val() == self.k_s_idle.val() {
            // A release still offered (a warp exit or a cluster round released warps of several
            // barriers or slots) is taken before a new request. A request starts only while the
            // response register is free, so that its answer (the only response it loads, at its
            // end) never waits for the egress.
            if self.barrier.rel_valid.val() {
                self.rel_rem.d.next = self.barrier.rel_waiting.val();
                self.rel_cta.d.next = self.barrier.rel_cta.val();
                self.rel_bar.d.next = bit_cast::<5, 4>(self.barrier.rel_id.val());
                if self.barrier.rel_cluster.val() {
                    self.rel_bar.d.next = self.k_tbl_cluster.val();
                }
                self.rel_popc.d.next = self.barrier.rel_popc.val();
                self.rel_and.d.next = self.barrier.rel_and.val();
                self.rel_or.d.next = self.barrier.rel_or.val();
                self.state.d.next = self.k_s_bar_rel.val();
            } else if self.req_valid.val() && !self.clr_wait.val() && !self.o_valid.q.val() && !self.late_load.val() {
                if self.not_built.val() {
                    self.o_valid.d.next = true;
                    self.o_has_values.d.next = false;
                    self.o_tag.d.next = self.req_tag.val();
                    self.o_cta.d.next = self.req_cta.val();
                    self.o_warp.d.next = self.req_warp.val();
                    self.o_lanes.d.next = self.req_active.val();
                    self.o_preds.d.next = 0.into();
                    self.o_error.d.next = self.k_err_not_built.val();
                    self.o_error_lane.d.next = self.first_active.val();
                    self.req_done.next = true;
                } else if (self.req_op.val() == self.k_op_exit.val()) && !self.exit_wn_done.q.val() {
                    // exit, first step: the warp network re-checks the warp's pending
                    // rendezvous with the smaller live mask (it may fire one).
                    self.wnet.req_valid.next = true;
                    if self.wnet.req_ready.val() {
                        self.state.d.next = self.k_s_wn_wait.val();
                    }
                } else if self.is_bar.val() {
                    self.barrier.req_valid.next = true;
                    if self.barrier.req_ready.val() {
                        self.state.d.next = self.k_s_bar_wait.val();
                        self.exit_wn_done.d.next = false;
                    }
                } else if self.is_wn.val() {
                    self.wnet.req_valid.next = true;
                    if self.wnet.req_ready.val() {
                        self.state.d.next = self.k_s_wn_wait.val();
                    }
                } else if self.is_atom.val() {
                    self.state.d.next = self.k_s_atom.val();
                } else {
                    // mbarrier, LSU or copy engine: the lane sequencer walks the active lanes.
                    self.rem_step.next = self.k_step_load.val();
                    self.drain.d.next = 0.into();
                    self.cp_answered.d.next = 0.into();
                    self.acc_preds.d.next = 0.into();
                    self.acc_suspended.d.next = 0.into();
                    self.acc_error.d.next = self.k_err_none.val();
                    self.acc_error_lane.d.next = 0.into();
                    self.results.clear.next = true;
                    self.state.d.next = self.k_s_seq.val();
                    if self.is_copy.val() {
                        self.state.d.next = self.k_s_copy.val();
                    }
                }
            }
        } else if self.state.q.val() == self.k_s_bar_wait.val() {
            if self.barrier.resp_valid.val() {
                self.o_tag.d.next = self.req_tag.val();
                self.o_cta.d.next = self.req_cta.val();
                self.o_warp.d.next = self.req_warp.val();
                self.o_lanes.d.next = self.req_active.val();
                self.o_preds.d.next = 0.into();
                self.o_error.d.next = self.barrier.resp_error.val();
                self.o_error_lane.d.next = 0.into();
                self.o_has_values.d.next = false;
                if self.barrier.resp_error.val() != self.k_err_none.val() {
                    self.o_error_lane.d.next = self.first_active.val();
                    self.o_valid.d.next = true;
                } else if self.barrier.resp_blocked.val() {
                    self.blocked.write_enable.next = true;
                } else if self.req_op.val() != self.k_op_exit.val() {
                    // bar.arrive, barrier.cluster.arrive, a cluster wait whose round is over
                    self.o_valid.d.next = true;
                }
                self.req_done.next = true;
                self.state.d.next = self.k_s_idle.val();
                if self.barrier.rel_valid.val() {
                    self.rel_rem.d.next = self.barrier.rel_waiting.val();
                    self.rel_cta.d.next = self.barrier.rel_cta.val();
                    self.rel_bar.d.next = bit_cast::<5, 4>(self.barrier.rel_id.val());
                    if self.barrier.rel_cluster.val() {
                        self.rel_bar.d.next = self.k_tbl_cluster.val();
                    }
                    self.rel_popc.d.next = self.barrier.rel_popc.val();
                    self.rel_and.d.next = self.barrier.rel_and.val();
                    self.rel_or.d.next = self.barrier.rel_or.val();
                    self.state.d.next = self.k_s_bar_rel.val();
                }
            }
        } else if self.state.q.val() == self.k_s_bar_rel.val() {
            // One table read per released warp, issued while the response register is free and
            // no read is outstanding; its response is loaded the cycle after.
            self.rel_rd_valid.d.next = false;
            if (self.rel_rem.q.val() != 0) && !self.o_valid.q.val() && !self.rel_rd_valid.q.val() {
                self.rel_rem.d.next = self.rel_rem.q.val() & !self.rel_pick.val();
                self.rel_rd_valid.d.next = true;
                self.rel_rd_warp.d.next = self.rel_pick_id.val();
            } else if (self.rel_rem.q.val() == 0) && !self.rel_rd_valid.q.val() {
                self.state.d.next = self.k_s_idle.val();
            }
            if self.rel_rd_valid.q.val() {
                self.blocked.write_enable.next = self.rel_bar.q.val() == self.k_tbl_cluster.val();
                self.o_valid.d.next = true;
                self.o_has_values.d.next = self.table_op.val() == self.k_op_red_popc.val();
                self.o_tag.d.next = self.table_tag.val();
                self.o_cta.d.next = self.rel_cta.q.val();
                self.o_warp.d.next = self.rel_rd_warp.q.val();
                self.o_lanes.d.next = self.table_active.val();
                self.o_error.d.next = self.k_err_none.val();
                self.o_error_lane.d.next = 0.into();
                self.o_preds.d.next = 0.into();
                if ((self.table_op.val() == self.k_op_red_and.val()) && self.rel_and.q.val())
                    || ((self.table_op.val() == self.k_op_red_or.val()) && self.rel_or.q.val())
                {
                    self.o_preds.d.next = self.table_active.val();
                }
                self.o_source.d.next = self.k_src_popc.val();
            }
        } else if self.state.q.val() == self.k_s_seq.val() {
            if (self.rem.q.val() != 0) && self.plain_stop.q.val() {
                // A lane touched a live mbarrier (answered a cycle after its access, below).
                self.rem_step.next = self.k_step_clear.val();
            } else if self.rem.q.val() != 0 {
                if self.is_mb.val() {
                    // Issued above (`seq_mb_issue`): the mbarrier ALU never waits.
                    self.rem_step.next = self.k_step_advance.val();
                } else if self.lsu_out_of_range.val() || self.lsu_misaligned.val() {
                    // The golden LSU stops at the first lane at fault; alignment is checked first.
                    self.rem_step.next = self.k_step_clear.val();
                    self.acc_error.d.next = self.k_err_range.val();
                    if self.lsu_misaligned.val() {
                        self.acc_error.d.next = self.k_err_shared_align.val();
                    }
                    self.acc_error_lane.d.next = self.pick_id.val();
                } else if self.req_op.val() == self.k_op_st.val() {
                    if self.seq_wgrant.val() {
                        self.lsu_we.next = true;
                        self.rem_step.next = self.k_step_advance.val();
                    }
                } else if self.seq_rgrant.val() {
                    self.lsu_re.next = true;
                    self.rem_step.next = self.k_step_advance.val();
                    self.ld_valid.d.next = true;
                    self.ld_lane.d.next = self.pick_id.val();
                    self.ld_mask.d.next = self.lsu_vmask.val();
                }
            } else {
                self.state.d.next = self.k_s_seq_drain.val();
            }
        } else if self.state.q.val() == self.k_s_seq_drain.val() {
            self.drain.d.next = self.drain.q.val() + 1u64;
            // The last lane's result is in the result store 2 cycles after the sequencer went
            // idle for an LSU load (1-cycle read), 3 cycles for an mbarrier op (3-cycle ALU).
            if (self.drain.q.val() == 2) || ((self.drain.q.val() == 1) && !self.is_mb.val()) {
                self.o_valid.d.next = true;
                self.o_tag.d.next = self.req_tag.val();
                self.o_cta.d.next = self.req_cta.val();
                self.o_warp.d.next = self.req_warp.val();
                self.o_error.d.next = self.acc_error.q.val();
                self.o_error_lane.d.next = self.acc_error_lane.q.val();
                if self.acc_error.q.val() != self.k_err_none.val() {
                    self.o_lanes.d.next = self.req_active.val();
                    self.o_preds.d.next = 0.into();
                    self.o_has_values.d.next = false;
                } else {
                    self.o_has_values.d.next = true;
                    self.o_lanes.d.next = self.req_active.val() & !self.acc_suspended.q.val();
                    self.o_preds.d.next = self.acc_preds.q.val();
                    self.o_source.d.next = self.k_src_acc.val();
                }
                self.req_done.next = true;
                self.state.d.next = self.k_s_idle.val();
            }
        } else if self.state.q.val() == self.k_s_wn_wait.val() {
            if self.wnet.resp_valid.val() {
                // An answer of no lanes and no error: a partial arrival was recorded (its lanes
                // are answered when the rendezvous fires), or an exit fired nothing. Nothing
                // leaves on the response port then.
                self.o_valid.d.next =
                    (self.wnet.resp_lanes.val() != 0) || (self.wnet.resp_error.val() != self.k_err_none.val());
                self.o_tag.d.next = self.req_tag.val();
                self.o_cta.d.next = self.wnet.resp_cta.val();
                self.o_warp.d.next = self.wnet.resp_warp.val();
                self.o_lanes.d.next = self.wnet.resp_lanes.val();
                self.o_preds.d.next = self.wnet.resp_preds.val();
                self.o_error.d.next = self.wnet.resp_error.val();
                self.o_error_lane.d.next = self.wnet.resp_error_lane.val();
                self.o_has_values.d.next = true;
                self.o_source.d.next = self.k_src_wn.val();
                self.state.d.next = self.k_s_idle.val();
                self.wn_beat.d.next = 0.into();
                self.wn_beats_sent.d.next = false;
                if self.req_op.val() == self.k_op_exit.val() {
                    // The exit stays on the port: the barrier file takes it next, or the warp
                    // network again when it completed one of several rendezvous.
                    self.exit_wn_done.d.next = !self.wnet.resp_again.val();
                } else {
                    self.req_done.next = true;
                }
            }
        } else if self.state.q.val() == self.k_s_atom.val() {
            // The atomic ALU holds the request until it answers (req_ready with resp_*).
            self.atom.req_valid.next = true;
            if self.atom.req_ready.val() && self.atom.resp_valid.val() {
                self.o_valid.d.next = true;
                self.o_tag.d.next = self.req_tag.val();
                self.o_cta.d.next = self.req_cta.val();
                self.o_warp.d.next = self.req_warp.val();
                self.o_lanes.d.next = self.req_active.val();
                self.o_preds.d.next = 0.into();
                self.o_error.d.next = self.atom.resp_error.val();
                self.o_error_lane.d.next = self.atom.resp_error_lane.val();
                self.o_has_values.d.next = true;
                self.o_source.d.next = self.k_src_atom.val();
                self.req_done.next = true;
                self.state.d.next = self.k_s_idle.val();
            }
        } else if self.state.q.val() == self.k_s_copy.val() {
            // One lane op per cycle into the copy engine's queue; the warp answers when every
            // active lane has (a wait_group lane answers once its groups are complete).
            if self.rem.q.val() != 0 {
                self.copy.req_valid.next = true;
                if self.copy.req_ready.val() {
                    self.rem_step.next = self.k_step_advance.val();
                }
            } else if (self.cp_answered.q.val() == self.req_active.val()) && !self.o_valid.q.val() {
                self.o_valid.d.next = true;
                self.o_tag.d.next = self.req_tag.val();
                self.o_cta.d.next = self.req_cta.val();
                self.o_warp.d.next = self.req_warp.val();
                self.o_lanes.d.next = self.req_active.val();
                self.o_preds.d.next = 0.into();
                self.o_error.d.next = self.acc_error.q.val();
                self.o_error_lane.d.next = self.acc_error_lane.q.val();
                self.o_has_values.d.next = false;
                self.req_done.next = true;
                self.state.d.next = self.k_s_idle.val();
            }
        }

        // A late error (golden `copy_engine::late_error`): the op's tag, CTA and warp, no lanes,
        // the error at the op's lane.
        if self.late_load.val() {
            self.o_valid.d.next = true;
            self.o_has_values.d.next = false;
            self.o_tag.d.next = self.copy.late_tag.val();
            self.o_cta.d.next = self.copy.late_cta.val();
            self.o_warp.d.next = self.copy.late_warp.val();
            self.o_lanes.d.next = 0.into();
            self.o_preds.d.next = 0.into();
            self.o_error.d.next = self.copy.late_error.val();
            self.o_error_lane.d.next = self.copy.late_lane.val();
        }

        // ---------------- the sequenced client's shared-memory access (LSU or atomic ALU) ----------------
        // After the FSM: it decides `lsu_re` / `lsu_we` (rust-hdl emits one combinational block,
        // in order).
        self.seq_addr.next = self.pick_addr.val();
        self.seq_raddr.next = self.pick_addr.val();
        self.seq_slot.next = self.req_cta.val();
        self.seq_off.next = bit_cast::<OFF_BITS, 64>(self.pick_addr.val() & self.k_row_mask.val());
        self.seq_be.next = bit_cast::<R, 16>(self.lsu_be.val());
        // The write's data and bytes at their place in the row (shifted before the client mux).
        self.seq_wdata.next = bit_cast::<RD, 128>(self.pick_a.val()) << (self.seq_off.val() << 3u64);
        self.seq_wbytes.next = self.seq_be.val() << self.seq_off.val();
        self.seq_re.next = self.lsu_re.val();
        self.seq_we.next = self.lsu_we.val();
        if self.state.q.val() == self.k_s_atom.val() {
            self.seq_addr.next = self.atom.m_waddr.val();
            self.seq_raddr.next = self.atom.m_raddr.val();
            self.seq_slot.next = self.atom.m_slot.val();
            self.seq_wdata.next = bit_cast::<RD, 128>(self.atom.m_wdata.val())
                << (bit_cast::<OFF_BITS, 64>(self.atom.m_waddr.val() & self.k_line_mask.val()) << 3u64);
            self.seq_wbytes.next = bit_cast::<R, 16>(self.atom.m_be.val())
                << bit_cast::<OFF_BITS, 64>(self.atom.m_waddr.val() & self.k_line_mask.val());
            self.seq_re.next = self.at_shared_r.val() && self.seq_rgrant.val();
            self.seq_we.next = self.at_shared_w.val() && self.seq_wgrant.val();
            self.at_rd_valid.d.next = self.seq_re.val();
            if self.seq_re.val() {
                self.at_rd_off.d.next =
                    bit_cast::<OFF_BITS, 64>(self.atom.m_raddr.val() & self.k_line_mask.val()) << 3u64;
            }
        }
        self.seq_row.next = (bit_cast::<RAM_ADDR_BITS, 5>(self.seq_slot.val()) << self.k_row_bits.val())
            | bit_cast::<RAM_ADDR_BITS, 64>(self.seq_addr.val() >> self.k_log_row.val());
        self.seq_rrow.next = (bit_cast::<RAM_ADDR_BITS, 5>(self.seq_slot.val()) << self.k_row_bits.val())
            | bit_cast::<RAM_ADDR_BITS, 64>(self.seq_raddr.val() >> self.k_log_row.val());
        if self.seq_re.val() {
            self.seq_rd_off.d.next = bit_cast::<OFF_BITS, 64>(self.seq_raddr.val() & self.k_row_mask.val()) << 3u64;
        }

        // ---------------- the LSU's live-mbarrier check (PTX ISA §9.7.13.15) ----------------
        // A plain access to a live mbarrier object is refused at the first such lane, as the
        // golden LSU does; the shared RAM answers a cycle after the access, with priority over a
        // later lane's range or alignment error found in that cycle. The lanes before it are done,
        // the faulting store and the next lane's (dropped by the RAM) are not, and the sequencer
        // stops. (`mem_raddr` / the write port carry the LSU's access whenever `lsu_re` /
        // `lsu_we` is set: their grants exclude every other client.)
        self.mem_wchecked.next = self.lsu_we.val();
        self.mem_rchecked.next = 0.into();
        if self.lsu_re.val() {
            self.mem_rchecked.next = self.seq_be.val() << self.seq_off.val();
        }
        if self.lsu_re.val() || self.lsu_we.val() {
            self.chk_lane.d.next = self.pick_id.val();
        }
        self.plain_stop.d.next = self.plain_stop.q.val() && (self.state.q.val() != self.k_s_idle.val());
        if (self.mem_wfault.val() || self.mem_rfault.val()) && !self.plain_stop.q.val() {
            self.acc_error.d.next = self.k_err_plain.val();
            self.acc_error_lane.d.next = self.chk_lane.q.val();
            self.plain_stop.d.next = true;
        }

        // ---------------- shared RAM ports ----------------
        self.mem_raddr.next = self.seq_rrow.val();
        if self.copy.sm_re.val() {
            self.mem_raddr.next = self.ce_rd_row.val();
        }
        if self.mbar.mem_rd.val() {
            self.mem_raddr.next = self.mb_rd_row.val();
        }
        self.mem_we.next = self.seq_we.val();
        self.mem_wlive.next = false;
        self.mem_waddr.next = self.seq_row.val();
        self.mem_wdata.next = self.seq_wdata.val();
        self.mem_wbytes.next = self.seq_wbytes.val();
        if self.clr_we.val() {
            self.mem_we.next = true;
            self.mem_waddr.next =
                (bit_cast::<RAM_ADDR_BITS, 5>(self.clr_slot.q.val()) << self.k_row_bits.val()) | self.clr_row.q.val();
            self.mem_wdata.next = 0.into();
            self.mem_wbytes.next = self.k_all_bytes.val();
            self.mem_wlive.next = true;
        }
        self.ce_w_valid.d.next = self.copy.sm_we.val() && !self.reset.val();
        self.ce_w_row.d.next = self.ce_wr_row.val();
        self.ce_w_data.d.next = bit_cast::<RD, D>(self.copy.sm_wdata.val()) << (self.ce_wr_off.val() << 3u64);
        self.ce_w_bytes.d.next = bit_cast::<R, B>(self.copy.sm_be.val()) << self.ce_wr_off.val();
        if self.ce_w_valid.q.val() {
            self.mem_we.next = true;
            self.mem_waddr.next = self.ce_w_row.q.val();
            self.mem_wdata.next = self.ce_w_data.q.val();
            self.mem_wbytes.next = self.ce_w_bytes.q.val();
            self.mem_wlive.next = false;
        }
        // Selected by the held port (a flip-flop), not by the write itself: S1b's checks
        // (`fail`) reach only the write enable, not the address, data and byte-enable muxes
        // (no other writer writes while the port is held).
        if self.mbar.mem_we_hold.val() {
            self.mem_we.next = self.mbar.mem_we.val();
            self.mem_waddr.next = self.mb_wr_row.val();
            self.mem_wdata.next = bit_cast::<RD, 64>(self.mbar.mem_wdata.val()) << self.mb_wr_off.val();
            self.mem_wbytes.next = bit_cast::<R, 8>(0xff.into()) << (self.mb_wr_off.val() >> 3u64);
            self.mem_wlive.next = true;
        }
        self.wn_offered.d.next = self.wnet.req_valid.val() && !self.wnet.req_ready.val() && !self.reset.val();
        if self.reset.val() {
            self.plain_stop.d.next = false;
            self.state.d.next = self.k_s_idle.val();
            self.o_valid.d.next = false;
            self.rel_rd_valid.d.next = false;
            self.ld_valid.d.next = false;
            self.at_rd_valid.d.next = false;
            self.ce_ev1.d.next = false;
            self.ce_ev_valid.d.next = false;
            self.ce_ev2.d.next = false;
            self.ce_ev3.d.next = false;
            self.exit_wn_done.d.next = false;
            self.wn_beat.d.next = 0.into();
            self.wn_beats_sent.d.next = false;
            self.rem_step.next = self.k_step_clear.val();
            self.rel_rem.d.next = 0.into();
            // A shared-memory clear in progress goes on: a reset keeps the slots' generations
            // and rows, and the wrapped slot's rows may hold its new generation's tag.
        }

        // ---- the lane sequencer's next `rem` ----
        self.rem_after.next = self.rem.q.val() & !self.pick.val();
        if self.rem_step.val() == self.k_step_advance.val() {
            self.rem.d.next = self.rem_after.val();
        } else if self.rem_step.val() == self.k_step_load.val() {
            self.rem.d.next = self.req_active.val();
        } else if self.rem_step.val() == self.k_step_clear.val() {
            self.rem.d.next = 0.into();
        }

        // ---- the operand store's rows of the next cycle ----
        // Its read port is registered (block RAM), so each reader names its row a cycle ahead,
        // from its registers' next values (read here, after every write of them): the request's
        // unit reads (one request at a time) the atomic ALU's plan and execute stages, the warp
        // network's beat, else the lane picker's next lane: the request's first active lane
        // while idle (a load names it; nothing reads a row otherwise), `pick` itself when the
        // sequencer waits for a grant (`row_hold`), else the lane after `pick` (it advances, or
        // clears and no lane is read). Each row comes from registers, and the choice leaves out
        // the LSU's range and alignment checks (an error clears `rem`: the row is not read), so
        // the FSM's decision is not in front of the RAM's address.
        self.row_hold.next = ((self.state.q.val() == self.k_s_seq.val())
            && !self.is_mb.val()
            && (((self.req_op.val() == self.k_op_st.val()) && !self.seq_wgrant.val())
                || ((self.req_op.val() != self.k_op_st.val()) && !self.seq_rgrant.val())))
            || ((self.state.q.val() == self.k_s_copy.val()) && !self.copy.req_ready.val());
        self.pick_next.next = self.rem_after.val() & (!self.rem_after.val() + 1u64);
        self.pick_next_number.onehot.next = self.pick_next.val();
        // `pick` follows `rem` (`pick_q`): the lane after it, the request's first active lane, or none.
        if self.rem_step.val() == self.k_step_advance.val() {
            self.pick_q.d.next = self.pick_next.val();
            self.pick_id_q.d.next = self.pick_next_number.number.val();
        } else if self.rem_step.val() == self.k_step_load.val() {
            self.pick_q.d.next = self.active_low.val();
            self.pick_id_q.d.next = self.first_active.val();
        } else if self.rem_step.val() == self.k_step_clear.val() {
            self.pick_q.d.next = 0.into();
            self.pick_id_q.d.next = 0.into();
        }
        self.pick_row.next = self.pick_next_number.number.val() >> self.k_op_row_log.val();
        if self.state.q.val() == self.k_s_idle.val() {
            self.pick_row.next = self.first_active.val() >> self.k_op_row_log.val();
        } else if self.row_hold.val() {
            self.pick_row.next = self.pick_id.val() >> self.k_op_row_log.val();
        }
        self.wn_row.next = self.wn_beat.d.val() >> self.k_wn_log_parts.val();
        self.rd_row_am.next = self.pick_row.val();
        self.rd_row_a.next = self.pick_row.val();
        self.rd_row_bc.next = self.pick_row.val();
        if self.is_atom.val() {
            self.rd_row_am.next = self.atom.plan_row.val();
            self.rd_row_bc.next = self.atom.ex_row.val();
        }
        if self.is_wn.val() {
            self.rd_row_a.next = self.wn_row.val();
            self.rd_row_bc.next = self.wn_row.val();
        }
    }
}

/// The top: the request ingress ([`RequestIngress`]: header and beat registers, the operand
/// register), [`SyncUnitCore`] (all the logic) and its shared memory ([`SharedMemory`], whose
/// depth comes from the config at build time). Its ports are the port table's
/// (`smsync_contract::port`).
#[derive(LogicBlock)]
pub struct SyncUnitTop<const D: usize, const B: usize, const RD: usize, const R: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// A CTA with `launch_warps` warps starts in `launch_slot`.
    pub launch: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<5>>,
    pub launch_warps: Signal<In, Bits<32>>,
    /// No warp can run: suspended try_waits answer False (on `wake_*`).
    pub timeout: Signal<In, Bit>,
    /// TEST ONLY: when high, bit 0 of lane 0's value in every warp-network response is flipped
    /// (the cosim uses it to show that its comparator catches a broken RTL). Tie to 0.
    pub fault_inject: Signal<In, Bit>,
    /// First address after global memory (the atomic ALU's range check; set per launch).
    pub global_end: Signal<In, Bits<64>>,
    /// Something is in flight: a request being processed, a release walk, a response leaving,
    /// a copy not yet complete.
    pub busy: Signal<Out, Bit>,
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_tag: Signal<In, Bits<64>>,
    pub req_cta: Signal<In, Bits<5>>,
    pub req_warp: Signal<In, Bits<5>>,
    pub req_op: Signal<In, Bits<OP_BITS>>,
    pub req_sub: Signal<In, Bits<SUB_BITS>>,
    pub req_dtype: Signal<In, Bits<4>>,
    pub req_space: Signal<In, Bits<2>>,
    pub req_flags: Signal<In, Bits<FLAG_BITS>>,
    pub req_vec: Signal<In, Bits<4>>,
    pub req_imm: Signal<In, Bits<32>>,
    pub req_imm2: Signal<In, Bits<32>>,
    pub req_member: Signal<In, Bits<32>>,
    pub req_active: Signal<In, Bits<32>>,
    pub req_live: Signal<In, Bits<32>>,
    /// Lane operands, `lanes_per_beat` lanes per beat, `32 / lanes_per_beat` beats in lane order
    /// after the header (see `RequestIngress`).
    pub beat_valid: Signal<In, Bit>,
    pub beat_ready: Signal<Out, Bit>,
    pub beat_addr: Vec<Signal<In, Bits<64>>>,
    pub beat_src: Vec<Signal<In, Bits<64>>>,
    pub beat_mbar: Vec<Signal<In, Bits<64>>>,
    pub beat_a: Vec<Signal<In, Bits<128>>>,
    pub beat_b: Vec<Signal<In, Bits<128>>>,
    pub beat_c: Vec<Signal<In, Bits<128>>>,
    /// The response: a header, then (when `resp_has_values`) the lane values in
    /// `32 / lanes_per_beat` beats (see `ResponseEgress`).
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_tag: Signal<Out, Bits<64>>,
    pub resp_cta: Signal<Out, Bits<5>>,
    pub resp_warp: Signal<Out, Bits<5>>,
    pub resp_lanes: Signal<Out, Bits<32>>,
    pub resp_preds: Signal<Out, Bits<32>>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,
    pub resp_error_lane: Signal<Out, Bits<5>>,
    pub resp_has_values: Signal<Out, Bit>,
    pub resp_beat_valid: Signal<Out, Bit>,
    pub resp_beat_ready: Signal<In, Bit>,
    pub resp_beat_values: Vec<Signal<Out, Bits<128>>>,
    pub gm_req: Signal<Out, Bit>,
    pub gm_grant: Signal<In, Bit>,
    pub gm_we: Signal<Out, Bit>,
    pub gm_addr: Signal<Out, Bits<64>>,
    pub gm_wdata: Signal<Out, Bits<D>>,
    pub gm_be: Signal<Out, Bits<B>>,
    pub gm_rvalid: Signal<In, Bit>,
    /// Read data on `gm_rdata` is taken in a cycle where `gm_rvalid` and `gm_rready` are both
    /// high; otherwise the memory holds it (the shared-memory write port may be busy).
    pub gm_rready: Signal<Out, Bit>,
    pub gm_rdata: Signal<In, Bits<D>>,
    pub ag_req: Signal<Out, Bit>,
    pub ag_grant: Signal<In, Bit>,
    pub ag_we: Signal<Out, Bit>,
    pub ag_addr: Signal<Out, Bits<64>>,
    pub ag_wdata: Signal<Out, Bits<128>>,
    pub ag_be: Signal<Out, Bits<16>>,
    pub ag_rvalid: Signal<In, Bit>,
    pub ag_rdata: Signal<In, Bits<128>>,
    pub wake_valid: Signal<Out, Bit>,
    pub wake_cta: Signal<Out, Bits<5>>,
    pub wake_warp: Signal<Out, Bits<5>>,
    pub wake_lane: Signal<Out, Bits<5>>,
    pub wake_pred: Signal<Out, Bit>,
    /// An mbarrier phase completed (trace `PhaseComplete`).
    pub phase_valid: Signal<Out, Bit>,
    pub phase_slot: Signal<Out, Bits<5>>,
    pub phase_word: Signal<Out, Bits<15>>,
    pub phase_parity: Signal<Out, Bit>,
    /// A named barrier released (trace `BarrierRelease`).
    pub release_valid: Signal<Out, Bit>,
    pub release_cta: Signal<Out, Bits<5>>,
    pub release_id: Signal<Out, Bits<4>>,
    pub release_warps: Signal<Out, Bits<32>>,
    ingress: RequestIngress,
    egress: ResponseEgress,
    core: SyncUnitCore<D, B, RD, R>,
    smem: SharedMemory<RD, R>,
    /// Live mbarrier words by range, for the copy engine's destination check.
    live: LiveMap,
    /// The control inputs, registered at the boundary (one cycle late, all alike: a request
    /// reaches the core through the ingress registers after its launch, and no logic is
    /// combinational from these ports; in a Verilated model that logic would be re-evaluated at
    /// every `eval`, not only at clock edges).
    reset_q: DFF<Bit>,
    launch_q: DFF<Bit>,
    launch_slot_q: DFF<Bits<5>>,
    launch_warps_q: DFF<Bits<32>>,
    timeout_q: DFF<Bit>,
    fault_inject_q: DFF<Bit>,
    global_end_q: DFF<Bits<64>>,
    /// The global read data, registered at the boundary as well: the atomic ALU's (`ag_*`, no
    /// back-pressure: one cycle later) and the copy engine's (`gm_*`: a one-entry skid register,
    /// filled while it is empty or being emptied, so `gm_rready` to the memory is
    /// `!full || taken` and reads still stream one per cycle, one cycle later).
    ag_q_valid: DFF<Bit>,
    ag_q_data: DFF<Bits<128>>,
    gm_q_valid: DFF<Bit>,
    gm_q_data: DFF<Bits<D>>,
    gm_q_free: Signal<Local, Bit>,
    /// `lanes_per_beat` and the operand store's row lanes (loop bounds).
    _beat_lanes: usize,
    _row_lanes: usize,
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> SyncUnitTop<D, B, RD, R> {
    pub fn new(config: &Config) -> Self {
        let l = config.lanes_per_beat as usize;
        SyncUnitTop {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            launch_warps: Default::default(),
            timeout: Default::default(),
            fault_inject: Default::default(),
            global_end: Default::default(),
            busy: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_tag: Default::default(),
            req_cta: Default::default(),
            req_warp: Default::default(),
            req_op: Default::default(),
            req_sub: Default::default(),
            req_dtype: Default::default(),
            req_space: Default::default(),
            req_flags: Default::default(),
            req_vec: Default::default(),
            req_imm: Default::default(),
            req_imm2: Default::default(),
            req_member: Default::default(),
            req_active: Default::default(),
            req_live: Default::default(),
            beat_valid: Default::default(),
            beat_ready: Default::default(),
            beat_addr: (0..l).map(|_| Default::default()).collect(),
            beat_src: (0..l).map(|_| Default::default()).collect(),
            beat_mbar: (0..l).map(|_| Default::default()).collect(),
            beat_a: (0..l).map(|_| Default::default()).collect(),
            beat_b: (0..l).map(|_| Default::default()).collect(),
            beat_c: (0..l).map(|_| Default::default()).collect(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_tag: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_lanes: Default::default(),
            resp_preds: Default::default(),
            resp_error: Default::default(),
            resp_error_lane: Default::default(),
            resp_has_values: Default::default(),
            resp_beat_valid: Default::default(),
            resp_beat_ready: Default::default(),
            resp_beat_values: (0..l).map(|_| Default::default()).collect(),
            gm_req: Default::default(),
            gm_grant: Default::default(),
            gm_we: Default::default(),
            gm_addr: Default::default(),
            gm_wdata: Default::default(),
            gm_be: Default::default(),
            gm_rvalid: Default::default(),
            gm_rready: Default::default(),
            gm_rdata: Default::default(),
            ag_req: Default::default(),
            ag_grant: Default::default(),
            ag_we: Default::default(),
            ag_addr: Default::default(),
            ag_wdata: Default::default(),
            ag_be: Default::default(),
            ag_rvalid: Default::default(),
            ag_rdata: Default::default(),
            wake_valid: Default::default(),
            wake_cta: Default::default(),
            wake_warp: Default::default(),
            wake_lane: Default::default(),
            wake_pred: Default::default(),
            phase_valid: Default::default(),
            phase_slot: Default::default(),
            phase_word: Default::default(),
            phase_parity: Default::default(),
            release_valid: Default::default(),
            release_cta: Default::default(),
            release_id: Default::default(),
            release_warps: Default::default(),
            ingress: RequestIngress::new(config),
            egress: ResponseEgress::new(config),
            core: SyncUnitCore::new(config),
            smem: SharedMemory::new(shared_addr_bits(config), shared_row_bits(config), config.cta_slots as usize),
            live: LiveMap::new(config),
            reset_q: Default::default(),
            launch_q: Default::default(),
            launch_slot_q: Default::default(),
            launch_warps_q: Default::default(),
            timeout_q: Default::default(),
            fault_inject_q: Default::default(),
            global_end_q: Default::default(),
            ag_q_valid: Default::default(),
            ag_q_data: Default::default(),
            gm_q_valid: Default::default(),
            gm_q_data: Default::default(),
            gm_q_free: Default::default(),
            _beat_lanes: l,
            _row_lanes: operand_row_lanes(config),
        }
    }
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> Logic for SyncUnitTop<D, B, RD, R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            reset_q,
            launch_q,
            launch_slot_q,
            launch_warps_q,
            timeout_q,
            fault_inject_q,
            global_end_q,
            ag_q_valid,
            ag_q_data,
            gm_q_valid,
            gm_q_data
        );
        self.reset_q.d.next = self.reset.val();
        self.launch_q.d.next = self.launch.val();
        self.launch_slot_q.d.next = self.launch_slot.val();
        self.launch_warps_q.d.next = self.launch_warps.val();
        self.timeout_q.d.next = self.timeout.val();
        self.fault_inject_q.d.next = self.fault_inject.val();
        self.global_end_q.d.next = self.global_end.val();
        self.core.clock.next = self.clock.val();
        self.core.reset.next = self.reset_q.q.val();
        // A launch reaches the core through the ingress, in order with the requests it holds.
        self.ingress.launch_in.next = self.launch_q.q.val();
        self.ingress.launch_slot_in.next = self.launch_slot_q.q.val();
        self.ingress.launch_warps_in.next = self.launch_warps_q.q.val();
        self.core.launch.next = self.ingress.launch.val();
        self.core.launch_slot.next = self.ingress.launch_slot.val();
        self.core.launch_warps.next = self.ingress.launch_warps.val();
        self.core.timeout.next = self.timeout_q.q.val();
        self.core.fault_inject.next = self.fault_inject_q.q.val();
        self.core.global_end.next = self.global_end_q.q.val();
        self.busy.next = self.core.busy.val() || self.ingress.busy.val() || self.egress.busy.val();
        // ---- request: the ports go into the ingress registers only ----
        self.ingress.clock.next = self.clock.val();
        self.ingress.reset.next = self.reset_q.q.val();
        self.ingress.req_valid.next = self.req_valid.val();
        self.req_ready.next = self.ingress.req_ready.val();
        self.ingress.req_tag.next = self.req_tag.val();
        self.ingress.req_cta.next = self.req_cta.val();
        self.ingress.req_warp.next = self.req_warp.val();
        self.ingress.req_op.next = self.req_op.val();
        self.ingress.req_sub.next = self.req_sub.val();
        self.ingress.req_dtype.next = self.req_dtype.val();
        self.ingress.req_space.next = self.req_space.val();
        self.ingress.req_flags.next = self.req_flags.val();
        self.ingress.req_vec.next = self.req_vec.val();
        self.ingress.req_imm.next = self.req_imm.val();
        self.ingress.req_imm2.next = self.req_imm2.val();
        self.ingress.req_member.next = self.req_member.val();
        self.ingress.req_active.next = self.req_active.val();
        self.ingress.req_live.next = self.req_live.val();
        self.ingress.beat_valid.next = self.beat_valid.val();
        self.beat_ready.next = self.ingress.beat_ready.val();
        for i in 0..self._beat_lanes {
            self.ingress.beat_addr[i].next = self.beat_addr[i].val();
            self.ingress.beat_src[i].next = self.beat_src[i].val();
            self.ingress.beat_mbar[i].next = self.beat_mbar[i].val();
            self.ingress.beat_a[i].next = self.beat_a[i].val();
            self.ingress.beat_b[i].next = self.beat_b[i].val();
            self.ingress.beat_c[i].next = self.beat_c[i].val();
        }
        // ---- ingress -> core ----
        self.core.req_valid.next = self.ingress.valid.val();
        self.ingress.done.next = self.core.req_done.val();
        self.core.req_tag.next = self.ingress.h_tag.val();
        self.core.req_cta.next = self.ingress.h_cta.val();
        self.core.req_warp.next = self.ingress.h_warp.val();
        self.core.req_op.next = self.ingress.h_op.val();
        self.core.req_sub.next = self.ingress.h_sub.val();
        self.core.req_dtype.next = self.ingress.h_dtype.val();
        self.core.req_space.next = self.ingress.h_space.val();
        self.core.req_flags.next = self.ingress.h_flags.val();
        self.core.req_vec.next = self.ingress.h_vec.val();
        self.core.req_imm.next = self.ingress.h_imm.val();
        self.core.req_imm2.next = self.ingress.h_imm2.val();
        self.core.req_member.next = self.ingress.h_member.val();
        self.core.req_active.next = self.ingress.h_active.val();
        self.core.req_live.next = self.ingress.h_live.val();
        self.core.req_is_bar.next = self.ingress.h_is_bar.val();
        self.core.req_is_mb.next = self.ingress.h_is_mb.val();
        self.core.req_is_wn.next = self.ingress.h_is_wn.val();
        self.core.req_is_atom.next = self.ingress.h_is_atom.val();
        self.core.req_is_copy.next = self.ingress.h_is_copy.val();
        self.core.req_lsu_size.next = self.ingress.h_lsu_size.val();
        self.core.req_lsu_misaligned.next = self.ingress.h_lsu_misaligned.val();
        self.core.req_lsu_out_of_range.next = self.ingress.h_lsu_out_of_range.val();
        self.core.req_not_built.next = self.ingress.h_not_built.val();
        // ---- core -> egress -> the response port ----
        self.egress.clock.next = self.clock.val();
        self.egress.reset.next = self.reset_q.q.val();
        self.egress.valid.next = self.core.resp_valid.val();
        self.core.resp_taken.next = self.egress.taken.val();
        self.egress.o_tag.next = self.core.resp_tag.val();
        self.egress.o_cta.next = self.core.resp_cta.val();
        self.egress.o_warp.next = self.core.resp_warp.val();
        self.egress.o_lanes.next = self.core.resp_lanes.val();
        self.egress.o_preds.next = self.core.resp_preds.val();
        self.egress.o_error.next = self.core.resp_error.val();
        self.egress.o_error_lane.next = self.core.resp_error_lane.val();
        self.egress.o_has_values.next = self.core.resp_has_values.val();
        self.resp_valid.next = self.egress.resp_valid.val();
        self.egress.resp_ready.next = self.resp_ready.val();
        self.resp_tag.next = self.egress.resp_tag.val();
        self.resp_cta.next = self.egress.resp_cta.val();
        self.resp_warp.next = self.egress.resp_warp.val();
        self.resp_lanes.next = self.egress.resp_lanes.val();
        self.resp_preds.next = self.egress.resp_preds.val();
        self.resp_error.next = self.egress.resp_error.val();
        self.resp_error_lane.next = self.egress.resp_error_lane.val();
        self.resp_has_values.next = self.egress.resp_has_values.val();
        self.resp_beat_valid.next = self.egress.resp_beat_valid.val();
        self.egress.resp_beat_ready.next = self.resp_beat_ready.val();
        for i in 0..self._beat_lanes {
            self.resp_beat_values[i].next = self.egress.resp_beat_values[i].val();
        }
        self.gm_req.next = self.core.gm_req.val();
        self.core.gm_grant.next = self.gm_grant.val();
        self.gm_we.next = self.core.gm_we.val();
        self.gm_addr.next = self.core.gm_addr.val();
        self.gm_wdata.next = self.core.gm_wdata.val();
        self.gm_be.next = self.core.gm_be.val();
        // The copy engine's read data through the skid register (see `gm_q_valid`).
        self.core.gm_rvalid.next = self.gm_q_valid.q.val();
        self.core.gm_rdata.next = self.gm_q_data.q.val();
        self.gm_q_free.next = !self.gm_q_valid.q.val() || self.core.gm_rready.val();
        self.gm_rready.next = self.gm_q_free.val();
        if self.gm_q_valid.q.val() && self.core.gm_rready.val() {
            self.gm_q_valid.d.next = false;
        }
        if self.gm_rvalid.val() && self.gm_q_free.val() {
            self.gm_q_valid.d.next = true;
            self.gm_q_data.d.next = self.gm_rdata.val();
        }
        if self.reset_q.q.val() {
            self.gm_q_valid.d.next = false;
        }
        self.ag_req.next = self.core.ag_req.val();
        self.core.ag_grant.next = self.ag_grant.val();
        self.ag_we.next = self.core.ag_we.val();
        self.ag_addr.next = self.core.ag_addr.val();
        self.ag_wdata.next = self.core.ag_wdata.val();
        self.ag_be.next = self.core.ag_be.val();
        self.ag_q_valid.d.next = self.ag_rvalid.val() && !self.reset_q.q.val();
        self.ag_q_data.d.next = self.ag_rdata.val();
        self.core.ag_rvalid.next = self.ag_q_valid.q.val();
        self.core.ag_rdata.next = self.ag_q_data.q.val();
        self.wake_valid.next = self.core.wake_valid.val();
        self.wake_cta.next = self.core.wake_cta.val();
        self.wake_warp.next = self.core.wake_warp.val();
        self.wake_lane.next = self.core.wake_lane.val();
        self.wake_pred.next = self.core.wake_pred.val();
        self.phase_valid.next = self.core.phase_valid.val();
        self.phase_slot.next = self.core.phase_slot.val();
        self.phase_word.next = self.core.phase_word.val();
        self.phase_parity.next = self.core.phase_parity.val();
        self.release_valid.next = self.core.release_valid.val();
        self.release_cta.next = self.core.release_cta.val();
        self.release_id.next = self.core.release_id.val();
        self.release_warps.next = self.core.release_warps.val();
        self.core.resp_row.next = self.egress.row.val();
        for i in 0..self._beat_lanes {
            self.egress.row_values[i].next = self.core.resp_row_values[i].val();
        }
        self.core.req_pred.next = self.ingress.h_pred.val();
        self.ingress.rd_row_am.next = self.core.rd_row_am.val();
        self.ingress.rd_row_a.next = self.core.rd_row_a.val();
        self.ingress.rd_row_bc.next = self.core.rd_row_bc.val();
        for i in 0..self._row_lanes {
            self.core.row_addr[i].next = self.ingress.row_addr[i].val();
            self.core.row_src[i].next = self.ingress.row_src[i].val();
            self.core.row_mbar[i].next = self.ingress.row_mbar[i].val();
            self.core.row_a[i].next = self.ingress.row_a[i].val();
            self.core.row_b[i].next = self.ingress.row_b[i].val();
            self.core.row_c[i].next = self.ingress.row_c[i].val();
        }
        self.smem.clock.next = self.clock.val();
        self.smem.read_address.next = self.core.mem_raddr.val();
        self.core.mem_rdata.next = self.smem.read_data.val();
        self.smem.write_enable.next = self.core.mem_we.val();
        self.smem.write_address.next = self.core.mem_waddr.val();
        self.smem.write_data.next = self.core.mem_wdata.val();
        self.smem.write_bytes.next = self.core.mem_wbytes.val();
        self.smem.write_live_from_data.next = self.core.mem_wlive.val();
        self.smem.write_checked.next = self.core.mem_wchecked.val();
        self.smem.read_checked.next = self.core.mem_rchecked.val();
        self.core.mem_wfault.next = self.smem.write_fault.val();
        self.core.mem_rfault.next = self.smem.read_fault.val();
        self.core.mem_rlive.next = self.smem.read_live.val();
        self.core.mem_rfresh.next = self.smem.read_fresh.val();
        self.smem.launch.next = self.ingress.launch.val();
        self.smem.launch_slot.next = self.ingress.launch_slot.val();
        self.core.launch_clears.next = self.smem.launch_wraps.val();
        self.live.clock.next = self.clock.val();
        self.live.upd_valid.next = self.smem.changed.val();
        self.live.upd_row.next = self.smem.changed_row.val();
        self.live.upd_live.next = self.smem.changed_live.val();
        self.live.launch.next = self.ingress.launch.val();
        self.live.launch_slot.next = self.ingress.launch_slot.val();
        self.live.probe_lo.next = self.core.live_lo.val();
        self.live.probe_hi.next = self.core.live_hi.val();
        self.live.probe_xh.next = self.core.live_xh.val();
        self.live.probe_xt.next = self.core.live_xt.val();
        self.live.probe_empty.next = self.core.live_empty.val();
        self.core.live_hits.next = self.live.hits.val();
        self.live.probe_mb.next = self.core.live_mb.val();
        self.core.live_mb_hits.next = self.live.mb_live.val();
    }
}

/// Verilog of the top for `config`, top module `module`. The copy port's and the row's widths
/// are const generics, so this picks the instance for the config (the shared RAM's depth is not:
/// `SharedMemory::new` takes it).
pub fn sync_unit_verilog(config: &Config, module: &str) -> Result<String, crate::common::VerilogError> {
    use crate::common::try_verilog_named;
    let bad = |message: String| crate::common::VerilogError { module: module.into(), message };
    if thread_bits(config) > 15 {
        return Err(bad(format!("the copy engine's thread table needs {} address bits (max 15)", thread_bits(config))));
    }
    let a = shared_addr_bits(config);
    if !(1..RAM_ADDR_BITS).contains(&a) {
        return Err(bad(format!("shared RAM needs {a} address bits (supported: 1..{RAM_ADDR_BITS})")));
    }
    macro_rules! inst {
        ($d:literal, $b:literal, $rd:literal, $r:literal) => {
            try_verilog_named(&mut SyncUnitTop::<$d, $b, $rd, $r>::new(config), module)
        };
    }
    crate::common::on_generator_stack(|| match config.copy_port_bytes {
        4 => inst!(32, 4, 128, 16),
        8 => inst!(64, 8, 128, 16),
        16 => inst!(128, 16, 128, 16),
        32 => inst!(256, 32, 256, 32),
        64 => inst!(512, 64, 512, 64),
        128 => inst!(1024, 128, 1024, 128),
        other => Err(bad(format!("copy_port_bytes = {other} is not one of 4, 8, 16, 32, 64, 128"))),
    })
}
