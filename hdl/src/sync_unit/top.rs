//! The `sync_unit` top: one warp-level request port, the unit blocks behind it, shared memory as
//! block RAM, and one response port. This is the RTL counterpart of `smsync_sim::units::GoldenUnits`.
//!
//! # Request port (ready/valid, held until consumed)
//!
//! The sender raises `req_valid` with a whole warp request and **holds every field stable until
//! `req_ready` is high** (ready is the "consumed" strobe: it is raised in the cycle the top has
//! finished the request, i.e. has loaded its response or handed it to a unit that answers later).
//! Holding the request saves a 6.5 kbit request latch; the lane sequencer reads the lane buses
//! directly. One request is in flight at a time (see "Not built" below).
//!
//! | port | width | carries (`units::request::Request`) |
//! |---|---|---|
//! | `req_tag` | 64 | `tag` |
//! | `req_cta`, `req_warp` | 5, 5 | CTA slot, warp in the CTA |
//! | `req_op` | 6 | `Op` code (the unit is decoded from the encoding table's op ranges) |
//! | `req_sub` | 3 | `sub` (VoteMode / ReduxOp / ShflMode) |
//! | `req_dtype` | 4 | `DataType` code |
//! | `req_flags` | 8 | `encoding::flags` |
//! | `req_vec` | 4 | `vec` (ld/st.shared vector count) |
//! | `req_imm`, `req_imm2` | 32, 32 | `imm` (barrier id, ld/st element bytes), `imm2` (barrier count) |
//! | `req_member`, `req_active`, `req_live` | 32 each | member / active / live masks |
//! | `req_space` | 2 | `space` (`encoding::Space`) |
//! | `lane_addr[i]`, `lane_src[i]`, `lane_mbar[i]` | 64 each | lane `addr`, `src`, `mbar` (global addresses are >= 2^32) |
//! | `lane_a[i]`, `lane_b[i]`, `lane_c[i]` | 128 each | lane `a`, `b`, `c` (b128 atomics / cas, tensor coordinates) |
//!
//! Every `Request` field has a port. Operand bits that no unit built in this top reads yet (lane
//! `src`, `mbar`, bits 127:64 of `a`/`b`, `c` outside the shfl fields 4:0 and 12:8) are zero in
//! legal requests of the built ops; an active lane with any of them set is answered `NotBuilt`
//! (`stray`), so nothing is silently truncated. mbarrier ops on a space other than shared::cta
//! are answered `NotBuilt` (cluster addresses are not resolved here yet).
//!
//! `busy` (out): a request is being processed, a release walked or a response leaving.
//! `fault_inject` (in, **test only**, tie to 0): when high, bit 0 of lane 0's value in every
//! warp-network response is flipped, so that the cosim can show its comparator catches a broken
//! RTL.
//!
//! # Response port (a one-cycle pulse, no back-pressure)
//!
//! `resp_valid`, `resp_tag`, `resp_cta`, `resp_warp`, `resp_lanes`, `resp_values[i]` (128 bits per
//! lane), `resp_preds`, `resp_error`, `resp_error_lane`: the fields of `units::request::Response`.
//! Sources, in fixed priority: a barrier release (one response per released warp, the warp's
//! tag/lanes/op from the blocked-warp table, a RAM indexed by {cta, warp}), then the response of
//! the request being processed (which simply waits while a release walks).
//!
//! # Units
//!
//! * barrier_file: warp-level, converged arrivals only (its own documented rule).
//! * mbarrier_alu: fed by the lane sequencer: the active lanes in ascending order, one per cycle;
//!   per-lane tokens / predicates are collected and answered as one warp response.
//! * warp_network: warp-level; the response is the unit's, tagged with the request's tag.
//! * LSU (ld/st.shared): the lane sequencer again, one lane per cycle against the shared RAM.
//! * Shared memory: `cta_slots` x `shared_bytes` as 8 byte-wide `RAM` widgets (a 64-bit word
//!   with byte enables), address = {slot, word} (`A` = slot bits + word bits address bits).
//!   Port arbiter: the mbarrier ALU's read/write port has priority over the LSU; both are never
//!   active together because requests are processed one at a time.
//!
//! # Not built in this top yet (answered `ErrorCode::NotBuilt`, never silently dropped)
//!
//! * atomic ops (`atomic_alu` is not wired into the top), copy-engine ops and cp.async.mbarrier.arrive (the
//!   copy engine, its global-memory port and its complete_tx / arrive-on events into the
//!   mbarrier ALU are not wired yet);
//! * divergent warp-level rendezvous: a barrier arrival whose `active` does not cover `live`, a
//!   warp-network rendezvous op whose `active` does not cover `member & live`;
//! * ld/st.shared wider than 8 bytes per lane or crossing an 8-byte word, and the "plain access
//!   to a live mbarrier" check of the golden LSU.
//!
//! Also not built yet: shared memory is still 8-byte rows (not rows of `max(16,
//! copy_port_bytes)` bytes) with a two-way port mux (mbarrier ALU, LSU) instead of the four-way
//! arbiter (+ atomic ALU, copy engine); there is no global-memory port (`gm_*`) and no
//! `global_port_bytes`; the suspended try_wait's later answer is not a tagged response.
//!
//! Other differences from the golden model, all documented in `docs/ARCHITECTURE.md`: a
//! suspended `mbarrier.try_wait` lane is left out of `resp_lanes` and its later answer leaves on
//! the raw `wake_*` port (untagged, per lane); `exit` (WarpExit) reaches the barrier file only;
//! the lanes after an mbarrier lane in error are still executed (the golden model stops).

use rust_hdl::prelude::*;
use smsync_sim::config::Config;
use smsync_sim::encoding::{ErrorCode, Op, Space, Unit};

use crate::barrier_file::BarrierFile;
use crate::common::{error_code, op_code, unit_op_range, ERROR_BITS, FLAG_BITS, OP_BITS};
use crate::mbarrier_alu::MbarrierAlu;
use crate::warp_network::WarpNetwork;

pub const LANES: usize = 32;
/// Blocked-warp table entry: {op (6), active mask (32), tag (64)}.
pub const TABLE_BITS: usize = 102;

// FSM states.
const S_IDLE: u64 = 0;
const S_BAR_WAIT: u64 = 1;
const S_BAR_REL: u64 = 2;
const S_SEQ: u64 = 3;
const S_SEQ_DRAIN: u64 = 4;
const S_WN_WAIT: u64 = 5;

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

/// Address bits of the shared RAM for `config`: slot bits + 8-byte word bits.
pub fn shared_word_bits(config: &Config) -> usize {
    let words = (config.shared_bytes as usize).div_ceil(8);
    words.next_power_of_two().trailing_zeros() as usize
}
pub fn shared_addr_bits(config: &Config) -> usize {
    (config.cta_slots as usize).next_power_of_two().trailing_zeros() as usize + shared_word_bits(config)
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

#[derive(LogicBlock)]
pub struct SyncUnitTop<const A: usize> {
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
    /// Something is in flight: a request being processed, a release walk, a response leaving.
    pub busy: Signal<Out, Bit>,

    // ---- request ----
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_tag: Signal<In, Bits<64>>,
    pub req_cta: Signal<In, Bits<5>>,
    pub req_warp: Signal<In, Bits<5>>,
    pub req_op: Signal<In, Bits<OP_BITS>>,
    pub req_sub: Signal<In, Bits<3>>,
    pub req_dtype: Signal<In, Bits<4>>,
    pub req_space: Signal<In, Bits<2>>,
    pub req_flags: Signal<In, Bits<FLAG_BITS>>,
    pub req_vec: Signal<In, Bits<4>>,
    pub req_imm: Signal<In, Bits<32>>,
    pub req_imm2: Signal<In, Bits<32>>,
    pub req_member: Signal<In, Bits<32>>,
    pub req_active: Signal<In, Bits<32>>,
    pub req_live: Signal<In, Bits<32>>,
    pub lane_addr: Vec<Signal<In, Bits<64>>>,
    pub lane_src: Vec<Signal<In, Bits<64>>>,
    pub lane_mbar: Vec<Signal<In, Bits<64>>>,
    pub lane_a: Vec<Signal<In, Bits<128>>>,
    pub lane_b: Vec<Signal<In, Bits<128>>>,
    pub lane_c: Vec<Signal<In, Bits<128>>>,

    // ---- response ----
    pub resp_valid: Signal<Out, Bit>,
    pub resp_tag: Signal<Out, Bits<64>>,
    pub resp_cta: Signal<Out, Bits<5>>,
    pub resp_warp: Signal<Out, Bits<5>>,
    pub resp_lanes: Signal<Out, Bits<32>>,
    pub resp_values: Vec<Signal<Out, Bits<128>>>,
    pub resp_preds: Signal<Out, Bits<32>>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,
    pub resp_error_lane: Signal<Out, Bits<5>>,

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
    /// The warp network's 32-bit lane values, zero-extended to the response's 128 bits.
    wn_value: Vec<ZeroExtend<32, 128>>,
    /// Shared memory: byte lane j of every 64-bit word.
    smem: Vec<RAM<Bits<8>, A>>,
    /// Blocked barrier warps: {op, active, tag} at {cta, warp}.
    blocked: RAM<Bits<TABLE_BITS>, 10>,

    // ---- constants ----
    lane_id: Vec<Constant<Bits<5>>>,
    k_word_bits: Constant<Bits<8>>,
    k_shared_bytes: Constant<Bits<40>>,
    k_bar_first: Constant<Bits<OP_BITS>>,
    k_bar_span: Constant<Bits<OP_BITS>>,
    k_mb_first: Constant<Bits<OP_BITS>>,
    k_mb_span: Constant<Bits<OP_BITS>>,
    k_wn_first: Constant<Bits<OP_BITS>>,
    k_wn_span: Constant<Bits<OP_BITS>>,
    k_op_ld: Constant<Bits<OP_BITS>>,
    k_op_st: Constant<Bits<OP_BITS>>,
    k_op_cp_arrive: Constant<Bits<OP_BITS>>,
    k_op_exit: Constant<Bits<OP_BITS>>,
    k_op_bar_arrive: Constant<Bits<OP_BITS>>,
    k_op_red_popc: Constant<Bits<OP_BITS>>,
    k_op_red_and: Constant<Bits<OP_BITS>>,
    k_op_red_or: Constant<Bits<OP_BITS>>,
    k_op_activemask: Constant<Bits<OP_BITS>>,
    k_err_none: Constant<Bits<ERROR_BITS>>,
    k_space_cta: Constant<Bits<2>>,
    k_one128: Constant<Bits<128>>,
    k_err_not_built: Constant<Bits<ERROR_BITS>>,
    k_err_range: Constant<Bits<ERROR_BITS>>,
    k_s_idle: Constant<Bits<3>>,
    k_s_bar_wait: Constant<Bits<3>>,
    k_s_bar_rel: Constant<Bits<3>>,
    k_s_seq: Constant<Bits<3>>,
    k_s_seq_drain: Constant<Bits<3>>,
    k_s_wn_wait: Constant<Bits<3>>,

    // ---- state ----
    state: DFF<Bits<3>>,
    /// Lanes not yet issued by the lane sequencer.
    rem: DFF<Bits<32>>,
    /// Cycles since the sequencer's last issue (the mbarrier answers 2 cycles after a lane).
    drain: DFF<Bits<2>>,
    /// LSU load in flight: lane, byte offset, bytes.
    ld_valid: DFF<Bit>,
    ld_lane: DFF<Bits<5>>,
    ld_shift: DFF<Bits<6>>,
    ld_mask: DFF<Bits<64>>,
    /// Collected per-lane results of the sequenced request.
    acc_values: Vec<DFF<Bits<128>>>,
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
    /// Output registers of the response port.
    o_valid: DFF<Bit>,
    o_tag: DFF<Bits<64>>,
    o_cta: DFF<Bits<5>>,
    o_warp: DFF<Bits<5>>,
    o_lanes: DFF<Bits<32>>,
    o_values: Vec<DFF<Bits<128>>>,
    o_preds: DFF<Bits<32>>,
    o_error: DFF<Bits<ERROR_BITS>>,
    o_error_lane: DFF<Bits<5>>,

    // ---- combinational ----
    is_bar: Signal<Local, Bit>,
    is_mb: Signal<Local, Bit>,
    is_wn: Signal<Local, Bit>,
    is_lsu: Signal<Local, Bit>,
    not_built: Signal<Local, Bit>,
    first_active: Signal<Local, Bits<5>>,
    active_low: Signal<Local, Bits<32>>,
    pick: Signal<Local, Bits<32>>,
    pick_id: Signal<Local, Bits<5>>,
    pick_addr: Signal<Local, Bits<64>>,
    /// Low 64 bits of the picked lane's `a` / `b` (all that the sequenced units read).
    pick_a: Signal<Local, Bits<64>>,
    pick_b: Signal<Local, Bits<64>>,
    /// An active lane carries operand bits that no unit built in this top reads (lane `src`,
    /// `mbar`, the upper halves of `a`/`b`, `c` outside the shfl fields): answered `NotBuilt`
    /// instead of silently truncated. Legal requests of the built ops leave them zero.
    stray: Signal<Local, Bit>,
    /// mbarrier op on a space other than shared::cta (cluster addresses are not resolved yet).
    mb_remote: Signal<Local, Bit>,
    /// The mbarrier ALU's and the LSU's lane results, 128 bits wide for the collector.
    mb_value_wide: Signal<Local, Bits<128>>,
    ld_value: Signal<Local, Bits<64>>,
    ld_value_wide: Signal<Local, Bits<128>>,
    rel_pick: Signal<Local, Bits<32>>,
    rel_pick_id: Signal<Local, Bits<5>>,
    lsu_size: Signal<Local, Bits<32>>,
    lsu_ok: Signal<Local, Bit>,
    lsu_be: Signal<Local, Bits<8>>,
    lsu_vmask: Signal<Local, Bits<64>>,
    lsu_off: Signal<Local, Bits<6>>,
    lsu_out_of_range: Signal<Local, Bit>,
    lsu_span: Signal<Local, Bit>,
    lsu_word_addr: Signal<Local, Bits<A>>,
    mem_rdata: Signal<Local, Bits<64>>,
    mem_raddr: Signal<Local, Bits<A>>,
    mem_waddr: Signal<Local, Bits<A>>,
    mem_wdata: Signal<Local, Bits<64>>,
    mem_be: Signal<Local, Bits<8>>,
    mem_we: Signal<Local, Bit>,
    lsu_we: Signal<Local, Bit>,
    lsu_wdata: Signal<Local, Bits<64>>,
    lsu_wbe: Signal<Local, Bits<8>>,
    table_op: Signal<Local, Bits<OP_BITS>>,
    table_active: Signal<Local, Bits<32>>,
    table_tag: Signal<Local, Bits<64>>,
}

impl<const A: usize> SyncUnitTop<A> {
    pub fn new(config: &Config) -> Self {
        assert_eq!(A, shared_addr_bits(config), "SyncUnitTop<A>: A must be shared_addr_bits(config)");
        let range = |u: Unit| unit_op_range(u).expect("every unit has ops in the encoding table");
        let (bar_first, bar_last) = range(Unit::BarrierFile);
        let (mb_first, mb_last) = range(Unit::Mbarrier);
        let (wn_first, wn_last) = range(Unit::WarpNetwork);
        let op = |o: Op| Constant::new(op_code(o));
        let err = |e: ErrorCode| Constant::new(error_code(e));
        let ram_bytes = || (0..8).map(|_| RAM::<Bits<8>, A>::default()).collect();
        SyncUnitTop {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            launch_warps: Default::default(),
            timeout: Default::default(),
            fault_inject: Default::default(),
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
            lane_addr: (0..LANES).map(|_| Default::default()).collect(),
            lane_a: (0..LANES).map(|_| Default::default()).collect(),
            lane_b: (0..LANES).map(|_| Default::default()).collect(),
            lane_src: (0..LANES).map(|_| Default::default()).collect(),
            lane_mbar: (0..LANES).map(|_| Default::default()).collect(),
            lane_c: (0..LANES).map(|_| Default::default()).collect(),
            resp_valid: Default::default(),
            resp_tag: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_lanes: Default::default(),
            resp_values: (0..LANES).map(|_| Default::default()).collect(),
            resp_preds: Default::default(),
            resp_error: Default::default(),
            resp_error_lane: Default::default(),
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
            wn_value: (0..LANES).map(|_| ZeroExtend::default()).collect(),
            smem: ram_bytes(),
            blocked: Default::default(),
            lane_id: (0..LANES as u64).map(k::<5>).collect(),
            k_word_bits: k(shared_word_bits(config) as u64),
            k_shared_bytes: k(config.shared_bytes as u64),
            k_bar_first: k(bar_first as u64),
            k_bar_span: k((bar_last - bar_first) as u64),
            k_mb_first: k(mb_first as u64),
            k_mb_span: k((mb_last - mb_first) as u64),
            k_wn_first: k(wn_first as u64),
            k_wn_span: k((wn_last - wn_first) as u64),
            k_op_ld: op(Op::LdShared),
            k_op_st: op(Op::StShared),
            k_op_cp_arrive: op(Op::MbCpAsyncArrive),
            k_op_exit: op(Op::WarpExit),
            k_op_bar_arrive: op(Op::BarArrive),
            k_op_red_popc: op(Op::BarRedPopc),
            k_op_red_and: op(Op::BarRedAnd),
            k_op_red_or: op(Op::BarRedOr),
            k_op_activemask: op(Op::Activemask),
            k_err_none: err(ErrorCode::None),
            k_space_cta: k(Space::SharedCta.code() as u64),
            k_one128: k(1),
            k_err_not_built: err(ErrorCode::NotBuilt),
            k_err_range: err(ErrorCode::SharedOutOfRange),
            k_s_idle: k(S_IDLE),
            k_s_bar_wait: k(S_BAR_WAIT),
            k_s_bar_rel: k(S_BAR_REL),
            k_s_seq: k(S_SEQ),
            k_s_seq_drain: k(S_SEQ_DRAIN),
            k_s_wn_wait: k(S_WN_WAIT),
            state: Default::default(),
            rem: Default::default(),
            drain: Default::default(),
            ld_valid: Default::default(),
            ld_lane: Default::default(),
            ld_shift: Default::default(),
            ld_mask: Default::default(),
            acc_values: (0..LANES).map(|_| Default::default()).collect(),
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
            o_values: (0..LANES).map(|_| Default::default()).collect(),
            o_preds: Default::default(),
            o_error: Default::default(),
            o_error_lane: Default::default(),
            is_bar: Default::default(),
            is_mb: Default::default(),
            is_wn: Default::default(),
            is_lsu: Default::default(),
            not_built: Default::default(),
            first_active: Default::default(),
            active_low: Default::default(),
            pick: Default::default(),
            pick_id: Default::default(),
            pick_addr: Default::default(),
            pick_a: Default::default(),
            pick_b: Default::default(),
            stray: Default::default(),
            mb_remote: Default::default(),
            mb_value_wide: Default::default(),
            ld_value: Default::default(),
            ld_value_wide: Default::default(),
            rel_pick: Default::default(),
            rel_pick_id: Default::default(),
            lsu_size: Default::default(),
            lsu_ok: Default::default(),
            lsu_be: Default::default(),
            lsu_vmask: Default::default(),
            lsu_off: Default::default(),
            lsu_out_of_range: Default::default(),
            lsu_span: Default::default(),
            lsu_word_addr: Default::default(),
            mem_rdata: Default::default(),
            mem_raddr: Default::default(),
            mem_waddr: Default::default(),
            mem_wdata: Default::default(),
            mem_be: Default::default(),
            mem_we: Default::default(),
            lsu_we: Default::default(),
            lsu_wdata: Default::default(),
            lsu_wbe: Default::default(),
            table_op: Default::default(),
            table_active: Default::default(),
            table_tag: Default::default(),
        }
    }
}

impl<const A: usize> Logic for SyncUnitTop<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, rem, drain, ld_valid, ld_lane, ld_shift, ld_mask, acc_preds, acc_suspended,
            acc_error, acc_error_lane, rel_rem, rel_cta, rel_popc, rel_and, rel_or, rel_rd_valid, rel_rd_warp,
            o_valid, o_tag, o_cta, o_warp, o_lanes, o_preds, o_error, o_error_lane
        );
        for i in 0..32 {
            self.acc_values[i].clock.next = self.clock.val();
            self.acc_values[i].d.next = self.acc_values[i].q.val();
            self.o_values[i].clock.next = self.clock.val();
            self.o_values[i].d.next = self.o_values[i].q.val();
            self.resp_values[i].next = self.o_values[i].q.val();
        }
        self.o_valid.d.next = false;
        self.ld_valid.d.next = false;
        self.req_ready.next = false;

        // ---------------- response port ----------------
        self.resp_valid.next = self.o_valid.q.val();
        self.resp_tag.next = self.o_tag.q.val();
        self.resp_cta.next = self.o_cta.q.val();
        self.resp_warp.next = self.o_warp.q.val();
        self.resp_lanes.next = self.o_lanes.q.val();
        self.resp_preds.next = self.o_preds.q.val();
        self.resp_error.next = self.o_error.q.val();
        self.resp_error_lane.next = self.o_error_lane.q.val();
        self.busy.next = (self.state.q.val() != self.k_s_idle.val()) || self.o_valid.q.val();

        // ---------------- decode: op -> unit by the encoding table's ranges ----------------
        // `op - first <= last - first` (wrapping) is the range check without a constant compare
        // when a range starts at 0.
        self.is_bar.next = (self.req_op.val() - self.k_bar_first.val()) <= self.k_bar_span.val();
        self.is_mb.next = (self.req_op.val() - self.k_mb_first.val()) <= self.k_mb_span.val();
        self.is_wn.next = (self.req_op.val() - self.k_wn_first.val()) <= self.k_wn_span.val();
        self.is_lsu.next = (self.req_op.val() == self.k_op_ld.val()) || (self.req_op.val() == self.k_op_st.val());

        // ld/st.shared size: imm bytes x vec elements; one naturally sized access within a word.
        self.lsu_size.next = 0.into();
        if self.req_vec.val() == 1 {
            self.lsu_size.next = self.req_imm.val();
        }
        if self.req_vec.val() == 2 {
            self.lsu_size.next = self.req_imm.val() << 1u64;
        }
        if self.req_vec.val() == 4 {
            self.lsu_size.next = self.req_imm.val() << 2u64;
        }
        self.lsu_ok.next = true;
        self.lsu_be.next = 0xff.into();
        self.lsu_vmask.next = 0xffff_ffff_ffff_ffff_u64.into();
        if self.lsu_size.val() == 1 {
            self.lsu_be.next = 0x1.into();
            self.lsu_vmask.next = 0xff.into();
        } else if self.lsu_size.val() == 2 {
            self.lsu_be.next = 0x3.into();
            self.lsu_vmask.next = 0xffff.into();
        } else if self.lsu_size.val() == 4 {
            self.lsu_be.next = 0xf.into();
            self.lsu_vmask.next = 0xffff_ffff_u64.into();
        } else if self.lsu_size.val() != 8 {
            self.lsu_ok.next = false;
        }

        // Operand bits no built unit reads (see `stray`), over the active lanes.
        self.stray.next = false;
        for i in 0..32 {
            if self.req_active.val().get_bit(i)
                && ((self.lane_src[i].val() != 0)
                    || (self.lane_mbar[i].val() != 0)
                    || (self.lane_a[i].val().get_bits::<64>(64) != 0)
                    || (self.lane_b[i].val().get_bits::<64>(64) != 0)
                    || ((self.lane_c[i].val() >> 13u64) != 0)
                    || (self.lane_c[i].val().get_bits::<3>(5) != 0))
            {
                self.stray.next = true;
            }
        }
        self.mb_remote.next = self.is_mb.val() && (self.req_space.val() != self.k_space_cta.val());

        self.not_built.next = self.stray.val()
            || self.mb_remote.val()
            || !(self.is_bar.val() || self.is_mb.val() || self.is_wn.val() || self.is_lsu.val())
            || (self.req_op.val() == self.k_op_cp_arrive.val())
            || (self.is_bar.val()
                && (self.req_op.val() != self.k_op_exit.val())
                && ((self.req_live.val() & !self.req_active.val()) != 0))
            || (self.is_wn.val()
                && (self.req_op.val() != self.k_op_activemask.val())
                && ((self.req_member.val() & self.req_live.val() & !self.req_active.val()) != 0)
                && ((self.req_active.val() & !self.req_member.val()) == 0))
            || (self.is_lsu.val() && !self.lsu_ok.val());

        // ---------------- lane pickers ----------------
        self.active_low.next = self.req_active.val() & (!self.req_active.val() + 1u64);
        self.pick.next = self.rem.q.val() & (!self.rem.q.val() + 1u64);
        self.rel_pick.next = self.rel_rem.q.val() & (!self.rel_rem.q.val() + 1u64);
        self.first_active.next = 0.into();
        self.pick_id.next = 0.into();
        self.pick_addr.next = 0.into();
        self.pick_a.next = 0.into();
        self.pick_b.next = 0.into();
        self.rel_pick_id.next = 0.into();
        self.barrier.req_pred.next = 0.into();
        for i in 0..32 {
            if self.active_low.val().get_bit(i) {
                self.first_active.next = self.lane_id[i].val();
            }
            if self.pick.val().get_bit(i) {
                self.pick_id.next = self.lane_id[i].val();
                self.pick_addr.next = self.lane_addr[i].val();
                self.pick_a.next = self.lane_a[i].val().get_bits::<64>(0);
                self.pick_b.next = self.lane_b[i].val().get_bits::<64>(0);
            }
            if self.rel_pick.val().get_bit(i) {
                self.rel_pick_id.next = self.lane_id[i].val();
            }
            if self.lane_a[i].val().get_bit(0) {
                self.barrier.req_pred.next = self.barrier.req_pred.val() | (bit_cast::<32, 5>(1.into()) << self.lane_id[i].val());
            }
        }

        // ---------------- LSU address path ----------------
        self.lsu_off.next = bit_cast::<6, 64>((self.pick_addr.val() & 7u64) << 3u64);
        self.lsu_span.next = ((self.pick_addr.val() & 7u64) + bit_cast::<64, 32>(self.lsu_size.val())) > 8u64;
        self.lsu_out_of_range.next = ((self.pick_addr.val() >> 32u64) != 0)
            || ((bit_cast::<40, 64>(self.pick_addr.val()) + bit_cast::<40, 32>(self.lsu_size.val()))
                > self.k_shared_bytes.val());
        self.lsu_word_addr.next = (bit_cast::<A, 5>(self.req_cta.val()) << self.k_word_bits.val())
            | bit_cast::<A, 64>(self.pick_addr.val() >> 3u64);
        self.lsu_we.next = false;
        self.lsu_wdata.next = self.pick_a.val() << self.lsu_off.val();
        self.lsu_wbe.next = bit_cast::<8, 16>(bit_cast::<16, 8>(self.lsu_be.val()) << bit_cast::<3, 64>(self.pick_addr.val()));

        // Shared RAM read data: byte lane j of the word.
        self.mem_rdata.next = bit_cast::<64, 8>(self.smem[0].read_data.val())
            | (bit_cast::<64, 8>(self.smem[1].read_data.val()) << 8u64)
            | (bit_cast::<64, 8>(self.smem[2].read_data.val()) << 16u64)
            | (bit_cast::<64, 8>(self.smem[3].read_data.val()) << 24u64)
            | (bit_cast::<64, 8>(self.smem[4].read_data.val()) << 32u64)
            | (bit_cast::<64, 8>(self.smem[5].read_data.val()) << 40u64)
            | (bit_cast::<64, 8>(self.smem[6].read_data.val()) << 48u64)
            | (bit_cast::<64, 8>(self.smem[7].read_data.val()) << 56u64);

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
        self.release_valid.next = self.barrier.rel_valid.val();
        self.release_cta.next = self.barrier.rel_cta.val();
        self.release_id.next = self.barrier.rel_id.val();
        self.release_warps.next = self.barrier.rel_arrived.val();

        // ---------------- blocked-warp table ----------------
        self.blocked.read_clock.next = self.clock.val();
        self.blocked.write_clock.next = self.clock.val();
        self.blocked.read_address.next =
            (bit_cast::<10, 5>(self.rel_cta.q.val()) << 5u64) | bit_cast::<10, 5>(self.rel_pick_id.val());
        self.blocked.write_address.next = (bit_cast::<10, 5>(self.barrier.resp_cta.val()) << 5u64)
            | bit_cast::<10, 5>(self.barrier.resp_warp.val());
        self.blocked.write_data.next = (bit_cast::<TABLE_BITS, 6>(self.req_op.val()) << 96u64)
            | (bit_cast::<TABLE_BITS, 32>(self.req_active.val()) << 64u64)
            | bit_cast::<TABLE_BITS, 64>(self.req_tag.val());
        self.blocked.write_enable.next = false;
        self.table_tag.next = bit_cast::<64, TABLE_BITS>(self.blocked.read_data.val());
        self.table_active.next = bit_cast::<32, TABLE_BITS>(self.blocked.read_data.val() >> 64u64);
        self.table_op.next = bit_cast::<6, TABLE_BITS>(self.blocked.read_data.val() >> 96u64);

        // ---------------- mbarrier ALU (fed by the lane sequencer) ----------------
        self.mbar.clock.next = self.clock.val();
        self.mbar.reset.next = self.reset.val();
        self.mbar.req_valid.next = false;
        self.mbar.req_op.next = self.req_op.val();
        self.mbar.req_flags.next = self.req_flags.val();
        self.mbar.req_cta.next = self.req_cta.val();
        self.mbar.req_warp.next = self.req_warp.val();
        self.mbar.req_lane.next = self.pick_id.val();
        self.mbar.req_slot.next = self.req_cta.val();
        self.mbar.req_addr.next = self.pick_addr.val();
        self.mbar.req_a.next = self.pick_a.val();
        self.mbar.req_b.next = self.pick_b.val();
        self.mbar.mem_rdata.next = self.mem_rdata.val();
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

        // ---------------- warp network ----------------
        self.wnet.clock.next = self.clock.val();
        self.wnet.reset.next = self.reset.val();
        self.wnet.req_valid.next = false;
        self.wnet.req_op.next = self.req_op.val();
        self.wnet.req_sub.next = self.req_sub.val();
        self.wnet.req_dtype.next = self.req_dtype.val();
        self.wnet.req_flags.next = self.req_flags.val();
        self.wnet.req_cta.next = self.req_cta.val();
        self.wnet.req_warp.next = self.req_warp.val();
        self.wnet.req_member.next = self.req_member.val();
        self.wnet.req_active.next = self.req_active.val();
        self.wnet.req_live.next = self.req_live.val();
        for i in 0..32 {
            self.wn_value[i].narrow.next = self.wnet.resp_value[i].val();
            self.wnet.lane_a[i].next = self.lane_a[i].val().get_bits::<64>(0);
            self.wnet.lane_b[i].next = self.lane_b[i].val().get_bits::<5>(0);
            self.wnet.lane_clamp[i].next = self.lane_c[i].val().get_bits::<5>(0);
            self.wnet.lane_segmask[i].next = self.lane_c[i].val().get_bits::<5>(8);
        }

        // ---------------- collect per-lane results of the sequenced request ----------------
        self.mb_value_wide.next = bit_cast::<128, 64>(self.mbar.resp_value.val());
        self.ld_value.next = (self.mem_rdata.val() >> self.ld_shift.q.val()) & self.ld_mask.q.val();
        self.ld_value_wide.next = bit_cast::<128, 64>(self.ld_value.val());
        for i in 0..32 {
            if self.mbar.resp_valid.val()
                && (self.mbar.resp_cta.val() == self.req_cta.val())
                && (self.mbar.resp_warp.val() == self.req_warp.val())
                && (self.mbar.resp_lane.val() == self.lane_id[i].val())
            {
                self.acc_values[i].d.next = self.mb_value_wide.val();
            }
            if self.ld_valid.q.val() && (self.ld_lane.q.val() == self.lane_id[i].val()) {
                self.acc_values[i].d.next = self.ld_value_wide.val();
            }
        }
        if self.mbar.resp_valid.val() {
            if self.mbar.resp_pred.val() {
                self.acc_preds.d.next = self.acc_preds.q.val() | (bit_cast::<32, 5>(1.into()) << self.mbar.resp_lane.val());
            }
            if self.mbar.resp_suspended.val() {
                self.acc_suspended.d.next =
                    self.acc_suspended.q.val() | (bit_cast::<32, 5>(1.into()) << self.mbar.resp_lane.val());
            }
            if (self.mbar.resp_error.val() != self.k_err_none.val()) && (self.acc_error.q.val() == self.k_err_none.val()) {
                self.acc_error.d.next = self.mbar.resp_error.val();
                self.acc_error_lane.d.next = self.mbar.resp_lane.val();
            }
        }

        // ---------------- the request FSM ----------------
        if self.state.q.val() == self.k_s_idle.val() {
            if self.req_valid.val() {
                if self.not_built.val() {
                    self.o_valid.d.next = true;
                    self.o_tag.d.next = self.req_tag.val();
                    self.o_cta.d.next = self.req_cta.val();
                    self.o_warp.d.next = self.req_warp.val();
                    self.o_lanes.d.next = self.req_active.val();
                    self.o_preds.d.next = 0.into();
                    self.o_error.d.next = self.k_err_not_built.val();
                    self.o_error_lane.d.next = self.first_active.val();
                    for i in 0..32 {
                        self.o_values[i].d.next = 0.into();
                    }
                    self.req_ready.next = true;
                } else if self.is_bar.val() {
                    self.barrier.req_valid.next = true;
                    if self.barrier.req_ready.val() {
                        self.state.d.next = self.k_s_bar_wait.val();
                    }
                } else if self.is_wn.val() {
                    self.wnet.req_valid.next = true;
                    if self.wnet.req_ready.val() {
                        self.state.d.next = self.k_s_wn_wait.val();
                    }
                } else {
                    // mbarrier or LSU: the lane sequencer walks the active lanes.
                    self.rem.d.next = self.req_active.val();
                    self.drain.d.next = 0.into();
                    self.acc_preds.d.next = 0.into();
                    self.acc_suspended.d.next = 0.into();
                    self.acc_error.d.next = self.k_err_none.val();
                    self.acc_error_lane.d.next = 0.into();
                    for i in 0..32 {
                        self.acc_values[i].d.next = 0.into();
                    }
                    self.state.d.next = self.k_s_seq.val();
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
                self.o_error_lane.d.next = self.first_active.val();
                for i in 0..32 {
                    self.o_values[i].d.next = 0.into();
                }
                if self.barrier.resp_error.val() != self.k_err_none.val() {
                    self.o_valid.d.next = true;
                } else if self.barrier.resp_blocked.val() {
                    self.blocked.write_enable.next = true;
                } else if self.req_op.val() == self.k_op_bar_arrive.val() {
                    self.o_valid.d.next = true;
                }
                self.req_ready.next = true;
                self.state.d.next = self.k_s_idle.val();
                if self.barrier.rel_valid.val() {
                    self.rel_rem.d.next = self.barrier.rel_waiting.val();
                    self.rel_cta.d.next = self.barrier.rel_cta.val();
                    self.rel_popc.d.next = self.barrier.rel_popc.val();
                    self.rel_and.d.next = self.barrier.rel_and.val();
                    self.rel_or.d.next = self.barrier.rel_or.val();
                    self.state.d.next = self.k_s_bar_rel.val();
                }
            }
        } else if self.state.q.val() == self.k_s_bar_rel.val() {
            // One table read per released warp; its response leaves the cycle after.
            self.rel_rd_valid.d.next = false;
            if self.rel_rem.q.val() != 0 {
                self.rel_rem.d.next = self.rel_rem.q.val() & !self.rel_pick.val();
                self.rel_rd_valid.d.next = true;
                self.rel_rd_warp.d.next = self.rel_pick_id.val();
            } else if !self.rel_rd_valid.q.val() {
                self.state.d.next = self.k_s_idle.val();
            }
            if self.rel_rd_valid.q.val() {
                self.o_valid.d.next = true;
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
                for i in 0..32 {
                    self.o_values[i].d.next = 0.into();
                    if (self.table_op.val() == self.k_op_red_popc.val()) && self.table_active.val().get_bit(i) {
                        self.o_values[i].d.next = bit_cast::<128, 11>(self.rel_popc.q.val());
                    }
                }
            }
        } else if self.state.q.val() == self.k_s_seq.val() {
            if self.rem.q.val() != 0 {
                self.rem.d.next = self.rem.q.val() & !self.pick.val();
                if self.is_mb.val() {
                    self.mbar.req_valid.next = true;
                } else if self.lsu_out_of_range.val() || self.lsu_span.val() {
                    // The golden LSU stops at the first lane at fault.
                    self.rem.d.next = 0.into();
                    self.acc_error.d.next = self.k_err_range.val();
                    if !self.lsu_out_of_range.val() {
                        self.acc_error.d.next = self.k_err_not_built.val();
                    }
                    self.acc_error_lane.d.next = self.pick_id.val();
                } else if self.req_op.val() == self.k_op_st.val() {
                    self.lsu_we.next = true;
                } else {
                    self.ld_valid.d.next = true;
                    self.ld_lane.d.next = self.pick_id.val();
                    self.ld_shift.d.next = self.lsu_off.val();
                    self.ld_mask.d.next = self.lsu_vmask.val();
                }
            } else {
                self.state.d.next = self.k_s_seq_drain.val();
            }
        } else if self.state.q.val() == self.k_s_seq_drain.val() {
            self.drain.d.next = self.drain.q.val() + 1u64;
            if self.drain.q.val() == 1 {
                self.o_valid.d.next = true;
                self.o_tag.d.next = self.req_tag.val();
                self.o_cta.d.next = self.req_cta.val();
                self.o_warp.d.next = self.req_warp.val();
                self.o_error.d.next = self.acc_error.q.val();
                self.o_error_lane.d.next = self.acc_error_lane.q.val();
                if self.acc_error.q.val() != self.k_err_none.val() {
                    self.o_lanes.d.next = self.req_active.val();
                    self.o_preds.d.next = 0.into();
                    for i in 0..32 {
                        self.o_values[i].d.next = 0.into();
                    }
                } else {
                    self.o_lanes.d.next = self.req_active.val() & !self.acc_suspended.q.val();
                    self.o_preds.d.next = self.acc_preds.q.val();
                    for i in 0..32 {
                        self.o_values[i].d.next = self.acc_values[i].q.val();
                    }
                }
                self.req_ready.next = true;
                self.state.d.next = self.k_s_idle.val();
            }
        } else if self.state.q.val() == self.k_s_wn_wait.val() {
            if self.wnet.resp_valid.val() {
                self.o_valid.d.next = true;
                self.o_tag.d.next = self.req_tag.val();
                self.o_cta.d.next = self.wnet.resp_cta.val();
                self.o_warp.d.next = self.wnet.resp_warp.val();
                self.o_lanes.d.next = self.wnet.resp_lanes.val();
                self.o_preds.d.next = self.wnet.resp_preds.val();
                self.o_error.d.next = self.wnet.resp_error.val();
                self.o_error_lane.d.next = self.wnet.resp_error_lane.val();
                for i in 0..32 {
                    self.o_values[i].d.next = self.wn_value[i].wide.val();
                }
                if self.fault_inject.val() {
                    // TEST ONLY (see the port): a deliberately wrong answer.
                    self.o_values[0].d.next = self.wn_value[0].wide.val() ^ self.k_one128.val();
                }
                self.req_ready.next = true;
                self.state.d.next = self.k_s_idle.val();
            }
        }

        // ---------------- shared memory: mbarrier port first, then the LSU ----------------
        // After the FSM: it decides `lsu_we` (rust-hdl emits one combinational block, in order).
        self.mem_raddr.next = self.lsu_word_addr.val();
        if self.mbar.mem_rd.val() {
            self.mem_raddr.next = (bit_cast::<A, 5>(self.mbar.mem_rd_slot.val()) << self.k_word_bits.val())
                | bit_cast::<A, 15>(self.mbar.mem_rd_word.val());
        }
        self.mem_waddr.next = self.lsu_word_addr.val();
        self.mem_wdata.next = self.lsu_wdata.val();
        self.mem_be.next = self.lsu_wbe.val();
        self.mem_we.next = self.lsu_we.val();
        if self.mbar.mem_we.val() {
            self.mem_waddr.next = (bit_cast::<A, 5>(self.mbar.mem_wr_slot.val()) << self.k_word_bits.val())
                | bit_cast::<A, 15>(self.mbar.mem_wr_word.val());
            self.mem_wdata.next = self.mbar.mem_wdata.val();
            self.mem_be.next = 0xff.into();
            self.mem_we.next = true;
        }
        self.smem[0].read_clock.next = self.clock.val();
        self.smem[0].write_clock.next = self.clock.val();
        self.smem[0].read_address.next = self.mem_raddr.val();
        self.smem[0].write_address.next = self.mem_waddr.val();
        self.smem[0].write_data.next = bit_cast::<8, 64>(self.mem_wdata.val());
        self.smem[0].write_enable.next = self.mem_we.val() && self.mem_be.val().get_bit(0);
        self.smem[1].read_clock.next = self.clock.val();
        self.smem[1].write_clock.next = self.clock.val();
        self.smem[1].read_address.next = self.mem_raddr.val();
        self.smem[1].write_address.next = self.mem_waddr.val();
        self.smem[1].write_data.next = bit_cast::<8, 64>(self.mem_wdata.val() >> 8u64);
        self.smem[1].write_enable.next = self.mem_we.val() && self.mem_be.val().get_bit(1);
        self.smem[2].read_clock.next = self.clock.val();
        self.smem[2].write_clock.next = self.clock.val();
        self.smem[2].read_address.next = self.mem_raddr.val();
        self.smem[2].write_address.next = self.mem_waddr.val();
        self.smem[2].write_data.next = bit_cast::<8, 64>(self.mem_wdata.val() >> 16u64);
        self.smem[2].write_enable.next = self.mem_we.val() && self.mem_be.val().get_bit(2);
        self.smem[3].read_clock.next = self.clock.val();
        self.smem[3].write_clock.next = self.clock.val();
        self.smem[3].read_address.next = self.mem_raddr.val();
        self.smem[3].write_address.next = self.mem_waddr.val();
        self.smem[3].write_data.next = bit_cast::<8, 64>(self.mem_wdata.val() >> 24u64);
        self.smem[3].write_enable.next = self.mem_we.val() && self.mem_be.val().get_bit(3);
        self.smem[4].read_clock.next = self.clock.val();
        self.smem[4].write_clock.next = self.clock.val();
        self.smem[4].read_address.next = self.mem_raddr.val();
        self.smem[4].write_address.next = self.mem_waddr.val();
        self.smem[4].write_data.next = bit_cast::<8, 64>(self.mem_wdata.val() >> 32u64);
        self.smem[4].write_enable.next = self.mem_we.val() && self.mem_be.val().get_bit(4);
        self.smem[5].read_clock.next = self.clock.val();
        self.smem[5].write_clock.next = self.clock.val();
        self.smem[5].read_address.next = self.mem_raddr.val();
        self.smem[5].write_address.next = self.mem_waddr.val();
        self.smem[5].write_data.next = bit_cast::<8, 64>(self.mem_wdata.val() >> 40u64);
        self.smem[5].write_enable.next = self.mem_we.val() && self.mem_be.val().get_bit(5);
        self.smem[6].read_clock.next = self.clock.val();
        self.smem[6].write_clock.next = self.clock.val();
        self.smem[6].read_address.next = self.mem_raddr.val();
        self.smem[6].write_address.next = self.mem_waddr.val();
        self.smem[6].write_data.next = bit_cast::<8, 64>(self.mem_wdata.val() >> 48u64);
        self.smem[6].write_enable.next = self.mem_we.val() && self.mem_be.val().get_bit(6);
        self.smem[7].read_clock.next = self.clock.val();
        self.smem[7].write_clock.next = self.clock.val();
        self.smem[7].read_address.next = self.mem_raddr.val();
        self.smem[7].write_address.next = self.mem_waddr.val();
        self.smem[7].write_data.next = bit_cast::<8, 64>(self.mem_wdata.val() >> 56u64);
        self.smem[7].write_enable.next = self.mem_we.val() && self.mem_be.val().get_bit(7);
        if self.reset.val() {
            self.state.d.next = self.k_s_idle.val();
            self.o_valid.d.next = false;
            self.rel_rd_valid.d.next = false;
            self.ld_valid.d.next = false;
            self.rem.d.next = 0.into();
            self.rel_rem.d.next = 0.into();
        }
    }
}

/// Verilog of the top for `config`, top module `module`. The shared RAM's address width is a
/// const generic, so this picks the instance for the config's slots and shared size.
pub fn sync_unit_verilog(config: &Config, module: &str) -> Result<String, crate::common::VerilogError> {
    use crate::common::try_verilog_named;
    macro_rules! inst {
        ($($a:literal),*) => {
            match shared_addr_bits(config) {
                $($a => try_verilog_named(&mut SyncUnitTop::<$a>::new(config), module),)*
                other => Err(crate::common::VerilogError {
                    module: module.into(),
                    message: format!("shared RAM needs {other} address bits (supported 8..=22)"),
                }),
            }
        };
    }
    inst!(8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22)
}
