//! The board half of the UART host bridge (rust-hdl): host frames in, the `sync_unit` top's
//! request / launch / timeout / global_end inputs out; the top's responses, wakes and
//! global-memory accesses back out as frames. The protocol (codes, layouts, and why integers
//! are big-endian one way and little-endian the other) is in [`crate::protocol`] and
//! docs/FPGA.md.
//!
//! Four small machines share the block, each in its own section of `update`:
//!
//! * **parser** (`rx_state`): collects a command's fixed payload in a shift register (`rxp`,
//!   first byte highest, so every header field is a constant slice), then for a REQUEST fills
//!   the lane operand chains lane by lane: each lane's six fields are assembled from VLQ bytes,
//!   then all chains shift down one lane. The chains are one beat deep (`lanes_per_beat`
//!   stages): after L shifts the beat's lane `i` sits in stage `i` (no lane decoder), and the
//!   parser waits to shift the next lane in until the top has taken that beat. It also takes
//!   GM_DATA / AG_DATA at any time.
//! * **exec** (`exec_state`): runs the command: REQUEST offers the header (`req_valid` until
//!   `req_ready`) as soon as it is parsed, then each beat of `lanes_per_beat` lanes as the
//!   parser completes it (`beat_valid` until `beat_ready`), then waits for `busy` low; RUN holds `timeout` for a number of cycles; RESET pulses the
//!   top's reset. Each ends in `Report`, which the transmitter turns into a STATUS frame.
//! * **capture** (`cap_state`): takes a response header from the top (`resp_ready` while the
//!   header queue has room and the value latch is free), then, when it has values, its beats
//!   (`resp_beat_ready`), writing each beat's `L` lanes into the value latch (`L` banks of
//!   distributed RAM, one word per beat) and, as they pass, which answered lanes are nonzero and
//!   whether they all have the same value; then queues the header (16 deep) with that value if
//!   they do (bar.red, vote, redux: so released barrier warps, which come in bursts, need no
//!   latch). The values of a non-uniform response stay latched until sent; the top waits
//!   meanwhile (back-pressure, no overflow). Wakes are queued too (the wake port has no
//!   back-pressure).
//! * **transmitter** (`tx_state`): in priority order, a global-memory frame, a response (its
//!   fixed part from a frame shift register, then LEB128 values shifted out of the value latch),
//!   a wake, and last the STATUS that ends a command (so it follows everything before it).
//!   Values are read from the latch a lane at a time (the banks' read ports and an L:1 pick).
//!
//! The global-memory ports take one access at a time each: `gm_grant` / `ag_grant` are high
//! only when the port's slot is free; a write is done once its frame is sent, a read when the
//! host's data arrived and was taken (the top accepts any latency).

use crate::protocol::*;
use rust_hdl::prelude::*;
use smsync_hdl::common::{ERROR_BITS, FLAG_BITS, OP_BITS};
use smsync_hdl::copy_engine::fifo::{BlockFifo, RamFifo};
use smsync_hdl::depth_ram::DepthRam;
use smsync_hdl::sync_unit::top::SUB_BITS;

const LANES: usize = 32;
/// Bits of a queued response header: tag 64 @0, cta 5 @64, warp 5 @69, lanes 32 @74,
/// preds 32 @106, error_lane 5 @138, vmask 32 @143, uniform 1 @175, the uniform value 128
/// @176, error @304.
pub const HDR_BITS: usize = 304 + ERROR_BITS;
/// The payload shift register: the longest fixed payload (the REQUEST header).
const RXP_BITS: usize = 8 * REQUEST_HEADER_BYTES;
/// The transmit frame register: the longest fixed frame (AG_WRITE, 27 bytes).
const TXF_BITS: usize = 216;
/// Received bytes the parser may fall behind by. It spends at most 2 cycles per lane and 6 per
/// lane with operands before it takes the next byte; a byte takes 10 bit times (>= 20 cycles).
const RX_QUEUE_DEPTH: usize = 8;
/// Address width of a value-latch bank (a lane number's and a beat number's width).
const VAL_AW: usize = 6;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum ParseState {
    Command,
    Payload,
    Dispatch,
    LaneStart,
    Field,
    Shift,
}

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum ExecState {
    Idle,
    /// The request header is on the top's port until `req_ready`.
    Hold,
    /// The lane operands go out a beat at a time as the parser assembles them.
    Beats,
    Drain,
    Run,
    Reset,
    Report,
}

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum CaptureState {
    /// Waiting for a response header.
    Idle,
    /// Taking the response's value beats into the latch.
    Beats,
    /// Queueing the header (with its uniform value, if any).
    Push,
}

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum TxState {
    Idle,
    Fixed,
    ValueLane,
    ValueBytes,
}

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum MemState {
    Idle,
    /// Captured; the frame to the host is not sent yet.
    Send,
    /// Read frame sent; waiting for the host's data.
    Wait,
    /// Read data on the port until taken.
    Data,
}

/// The bridge for a top whose copy-engine port is `D` bits with `B` byte enables (D <= 128).
#[derive(LogicBlock)]
pub struct HostBridge<const D: usize, const B: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // UART side
    pub rx_valid: Signal<In, Bit>,
    pub rx_data: Signal<In, Bits<8>>,
    pub rx_framing_error: Signal<In, Bit>,
    pub tx_ready: Signal<In, Bit>,
    pub tx_valid: Signal<Out, Bit>,
    pub tx_data: Signal<Out, Bits<8>>,
    // status for LEDs
    pub in_flight: Signal<Out, Bit>,
    pub error_seen: Signal<Out, Bit>,
    // the top's inputs
    pub core_reset: Signal<Out, Bit>,
    pub launch: Signal<Out, Bit>,
    pub launch_slot: Signal<Out, Bits<5>>,
    pub launch_warps: Signal<Out, Bits<32>>,
    pub timeout: Signal<Out, Bit>,
    pub global_end: Signal<Out, Bits<64>>,
    pub busy: Signal<In, Bit>,
    pub req_valid: Signal<Out, Bit>,
    pub req_ready: Signal<In, Bit>,
    pub req_tag: Signal<Out, Bits<64>>,
    pub req_cta: Signal<Out, Bits<5>>,
    pub req_warp: Signal<Out, Bits<5>>,
    pub req_op: Signal<Out, Bits<OP_BITS>>,
    pub req_sub: Signal<Out, Bits<SUB_BITS>>,
    pub req_dtype: Signal<Out, Bits<4>>,
    pub req_space: Signal<Out, Bits<2>>,
    pub req_flags: Signal<Out, Bits<FLAG_BITS>>,
    pub req_vec: Signal<Out, Bits<4>>,
    pub req_imm: Signal<Out, Bits<32>>,
    pub req_imm2: Signal<Out, Bits<32>>,
    pub req_member: Signal<Out, Bits<32>>,
    pub req_active: Signal<Out, Bits<32>>,
    pub req_live: Signal<Out, Bits<32>>,
    /// The lane operands, one beat (`lanes_per_beat` lanes) at a time, after the header.
    pub beat_valid: Signal<Out, Bit>,
    pub beat_ready: Signal<In, Bit>,
    pub beat_addr: Vec<Signal<Out, Bits<64>>>,
    pub beat_src: Vec<Signal<Out, Bits<64>>>,
    pub beat_mbar: Vec<Signal<Out, Bits<64>>>,
    pub beat_a: Vec<Signal<Out, Bits<128>>>,
    pub beat_b: Vec<Signal<Out, Bits<128>>>,
    pub beat_c: Vec<Signal<Out, Bits<128>>>,
    // the top's outputs
    pub resp_valid: Signal<In, Bit>,
    pub resp_ready: Signal<Out, Bit>,
    pub resp_tag: Signal<In, Bits<64>>,
    pub resp_cta: Signal<In, Bits<5>>,
    pub resp_warp: Signal<In, Bits<5>>,
    pub resp_lanes: Signal<In, Bits<32>>,
    pub resp_preds: Signal<In, Bits<32>>,
    pub resp_error: Signal<In, Bits<ERROR_BITS>>,
    pub resp_error_lane: Signal<In, Bits<5>>,
    pub resp_has_values: Signal<In, Bit>,
    pub resp_beat_valid: Signal<In, Bit>,
    pub resp_beat_ready: Signal<Out, Bit>,
    pub resp_beat_values: Vec<Signal<In, Bits<128>>>,
    pub gm_req: Signal<In, Bit>,
    pub gm_grant: Signal<Out, Bit>,
    pub gm_we: Signal<In, Bit>,
    pub gm_addr: Signal<In, Bits<64>>,
    pub gm_wdata: Signal<In, Bits<D>>,
    pub gm_be: Signal<In, Bits<B>>,
    pub gm_rvalid: Signal<Out, Bit>,
    pub gm_rready: Signal<In, Bit>,
    pub gm_rdata: Signal<Out, Bits<D>>,
    pub ag_req: Signal<In, Bit>,
    pub ag_grant: Signal<Out, Bit>,
    pub ag_we: Signal<In, Bit>,
    pub ag_addr: Signal<In, Bits<64>>,
    pub ag_wdata: Signal<In, Bits<128>>,
    pub ag_be: Signal<In, Bits<16>>,
    pub ag_rvalid: Signal<Out, Bit>,
    pub ag_rdata: Signal<Out, Bits<128>>,
    pub wake_valid: Signal<In, Bit>,
    pub wake_cta: Signal<In, Bits<5>>,
    pub wake_warp: Signal<In, Bits<5>>,
    pub wake_lane: Signal<In, Bits<5>>,
    pub wake_pred: Signal<In, Bit>,

    // ---- parser ----
    rx_fifo: RamFifo<8>,
    byte_valid: Signal<Local, Bit>,
    rx_byte: Signal<Local, Bits<8>>,
    k_rx_depth: Constant<Bits<9>>,
    rx_state: DFF<ParseState>,
    cmd: DFF<Bits<8>>,
    need: DFF<Bits<6>>,
    rxp: DFF<Bits<RXP_BITS>>,
    fields: DFF<Bits<6>>,
    field: DFF<Bits<3>>,
    lane_rem: DFF<Bits<32>>,
    lane_n: DFF<Bits<6>>,
    cur_addr: DFF<Bits<64>>,
    cur_src: DFF<Bits<64>>,
    cur_mbar: DFF<Bits<64>>,
    cur_a: DFF<Bits<128>>,
    cur_b: DFF<Bits<128>>,
    cur_c: DFF<Bits<128>>,
    ch_addr: Vec<DFF<Bits<64>>>,
    ch_src: Vec<DFF<Bits<64>>>,
    ch_mbar: Vec<DFF<Bits<64>>>,
    ch_a: Vec<DFF<Bits<128>>>,
    ch_b: Vec<DFF<Bits<128>>>,
    ch_c: Vec<DFF<Bits<128>>>,
    /// The chains hold a whole beat that the top has not taken yet (the parser waits to shift).
    beat_full: DFF<Bit>,
    /// Beats taken by the top for the request being sent.
    beats_sent: DFF<Bits<6>>,
    /// `lanes_per_beat - 1` (a lane number's position in its beat) and the last beat's number.
    k_lane_mask: Constant<Bits<6>>,
    k_last_beat: Constant<Bits<6>>,
    /// `lanes_per_beat` (L) and L - 1, as loop bounds.
    _lanes: usize,
    _lanes_m1: usize,
    r_tag: DFF<Bits<64>>,
    r_cta: DFF<Bits<5>>,
    r_warp: DFF<Bits<5>>,
    r_op: DFF<Bits<OP_BITS>>,
    r_sub: DFF<Bits<SUB_BITS>>,
    r_dtype: DFF<Bits<4>>,
    r_space: DFF<Bits<2>>,
    r_flags: DFF<Bits<FLAG_BITS>>,
    r_vec: DFF<Bits<4>>,
    r_imm: DFF<Bits<32>>,
    r_imm2: DFF<Bits<32>>,
    r_member: DFF<Bits<32>>,
    r_active: DFF<Bits<32>>,
    r_live: DFF<Bits<32>>,
    r_slot: DFF<Bits<5>>,
    r_warps: DFF<Bits<32>>,
    r_global_end: DFF<Bits<64>>,
    launch_pulse: DFF<Bit>,
    // ---- exec ----
    exec_state: DFF<ExecState>,
    run_left: DFF<Bits<32>>,
    run_timeout: DFF<Bit>,
    reset_count: DFF<Bits<4>>,
    cycle: DFF<Bits<32>>,
    f_framing: DFF<Bit>,
    f_overflow: DFF<Bit>,
    f_bad_command: DFF<Bit>,
    /// A response carried an error code (`Retry`, flow control, is not one).
    f_error_response: DFF<Bit>,
    k_err_retry: Constant<Bits<ERROR_BITS>>,
    // ---- global-memory slots ----
    gm_state: DFF<MemState>,
    gm_we_r: DFF<Bit>,
    gm_addr_r: DFF<Bits<64>>,
    gm_wdata_r: DFF<Bits<D>>,
    gm_be_r: DFF<Bits<B>>,
    gm_data_r: DFF<Bits<D>>,
    ag_state: DFF<MemState>,
    ag_we_r: DFF<Bit>,
    ag_addr_r: DFF<Bits<64>>,
    ag_wdata_r: DFF<Bits<128>>,
    ag_be_r: DFF<Bits<16>>,
    ag_data_r: DFF<Bits<128>>,
    waiting_host: Signal<Local, Bit>,
    // ---- capture ----
    /// Block RAM (`BlockFifo`): 16 x 309 bits were 78 distributed-RAM cells (468 LUT4
    /// positions); the transmitter loads the head into its frame register.
    hdr_fifo: BlockFifo<HDR_BITS>,
    wake_fifo: RamFifo<16>,
    cap_state: DFF<CaptureState>,
    /// The header being captured, whether its values are in the latch, and its next beat.
    cap_tag: DFF<Bits<64>>,
    cap_cta: DFF<Bits<5>>,
    cap_warp: DFF<Bits<5>>,
    cap_lanes: DFF<Bits<32>>,
    cap_preds: DFF<Bits<32>>,
    cap_error: DFF<Bits<ERROR_BITS>>,
    cap_error_lane: DFF<Bits<5>>,
    cap_values: DFF<Bit>,
    cap_beat: DFF<Bits<6>>,
    /// The value latch: word `i` holds lane `i` (the capture writes a lane a cycle). One RAM
    /// of 32 x 128 bits: 4 DP16KD on the ECP5 and no read mux (banks per lane of a beat were
    /// 16 DP16KD on fpga-small and a 128-bit L:1 mux).
    val_ram: DepthRam<Bits<128>, VAL_AW>,
    val_full: DFF<Bit>,
    /// The answered lanes not yet taken (shifted down by `L` a beat), and the answered lanes
    /// with a nonzero value (shifted in from the top, `L` a beat): the queued `vmask`.
    cap_rem: DFF<Bits<32>>,
    cap_vmask: DFF<Bits<32>>,
    /// Over the response's beats: an answered nonzero lane seen, all such lanes the same so
    /// far, and their value.
    u_seen: DFF<Bit>,
    u_same: DFF<Bit>,
    u_value: DFF<Bits<128>>,
    /// The capture takes a beat's lanes one a cycle (lane `cap_lane`, the beat taken with its
    /// last lane): a 128-bit L:1 pick and one compare instead of a beat's L compares with the
    /// beat's OR (1.2k LUT4 on fpga-small). A UART frame of a lane's value takes ~90 cycles a
    /// byte, so the capture's L cycles a beat cost no throughput.
    cap_lane: DFF<Bits<6>>,
    /// The lane being captured: its value and whether it is answered and nonzero.
    c_value: Signal<Local, Bits<128>>,
    c_take: Signal<Local, Bit>,
    /// Bit 31: lane 31's bit of a mask.
    k_top_lane: Constant<Bits<32>>,
    /// `j` for lane `j` of a beat; log2 `L`.
    k_lane_num: Vec<Constant<Bits<6>>>,
    k_log_lanes: Constant<Bits<6>>,
    /// The transmitter's lane `v_n`, read from its bank.
    rd_value: Signal<Local, Bits<128>>,
    fifo_reset: Signal<Local, Bit>,
    // ---- transmitter ----
    tx_state: DFF<TxState>,
    txf: DFF<Bits<TXF_BITS>>,
    tx_left: DFF<Bits<5>>,
    tx_values: DFF<Bit>,
    tx_uniform: DFF<Bit>,
    uniform_bit: Signal<Local, Bits<1>>,
    k_t87: Constant<Bits<TXF_BITS>>,
    v_rem: DFF<Bits<32>>,
    v_n: DFF<Bits<6>>,
    v_acc: DFF<Bits<128>>,
    hdr: Signal<Local, Bits<HDR_BITS>>,
    status_flags: Signal<Local, Bits<8>>,
    k_t80: Constant<Bits<TXF_BITS>>,
    k_t81: Constant<Bits<TXF_BITS>>,
    k_t82: Constant<Bits<TXF_BITS>>,
    k_t83: Constant<Bits<TXF_BITS>>,
    k_t84: Constant<Bits<TXF_BITS>>,
    k_t85: Constant<Bits<TXF_BITS>>,
    k_t86: Constant<Bits<TXF_BITS>>,
    k_wake_pred: Constant<Bits<16>>,
    k_cont: Constant<Bits<8>>,
    k_gm_bytes: Constant<Bits<6>>,
    k_gm_write_len: Constant<Bits<5>>,
    k_be_shift: Constant<Bits<8>>,
    k_fifo_depth: Constant<Bits<9>>,
}

impl<const D: usize, const B: usize> HostBridge<D, B> {
    /// The bridge for a top that takes `lanes_per_beat` lanes per beat (the config's field).
    pub fn new(lanes_per_beat: usize) -> Self {
        let l = lanes_per_beat;
        assert!(l.is_power_of_two() && l <= LANES, "HostBridge: lanes_per_beat {l} (the config validates it)");
        assert!(
            D.is_multiple_of(8) && (8..=128).contains(&D) && B == D / 8,
            "HostBridge: copy port of {D} bits / {B} enables unsupported (8..=128 bits)"
        );
        let gm_write_len = 9 + D / 8 + B.div_ceil(8);
        HostBridge {
            clock: Default::default(),
            reset: Default::default(),
            rx_valid: Default::default(),
            rx_data: Default::default(),
            rx_framing_error: Default::default(),
            tx_ready: Default::default(),
            tx_valid: Default::default(),
            tx_data: Default::default(),
            in_flight: Default::default(),
            error_seen: Default::default(),
            core_reset: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            launch_warps: Default::default(),
            timeout: Default::default(),
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
            rx_fifo: RamFifo::new(RX_QUEUE_DEPTH),
            byte_valid: Default::default(),
            rx_byte: Default::default(),
            k_rx_depth: Constant::new((RX_QUEUE_DEPTH as u64).to_bits()),
            rx_state: Default::default(),
            cmd: Default::default(),
            need: Default::default(),
            rxp: Default::default(),
            fields: Default::default(),
            field: Default::default(),
            lane_rem: Default::default(),
            lane_n: Default::default(),
            cur_addr: Default::default(),
            cur_src: Default::default(),
            cur_mbar: Default::default(),
            cur_a: Default::default(),
            cur_b: Default::default(),
            cur_c: Default::default(),
            ch_addr: (0..l).map(|_| Default::default()).collect(),
            ch_src: (0..l).map(|_| Default::default()).collect(),
            ch_mbar: (0..l).map(|_| Default::default()).collect(),
            ch_a: (0..l).map(|_| Default::default()).collect(),
            ch_b: (0..l).map(|_| Default::default()).collect(),
            ch_c: (0..l).map(|_| Default::default()).collect(),
            beat_full: Default::default(),
            beats_sent: Default::default(),
            k_lane_mask: Constant::new(((l - 1) as u64).to_bits()),
            k_last_beat: Constant::new(((LANES / l - 1) as u64).to_bits()),
            _lanes: l,
            _lanes_m1: l - 1,
            r_tag: Default::default(),
            r_cta: Default::default(),
            r_warp: Default::default(),
            r_op: Default::default(),
            r_sub: Default::default(),
            r_dtype: Default::default(),
            r_space: Default::default(),
            r_flags: Default::default(),
            r_vec: Default::default(),
            r_imm: Default::default(),
            r_imm2: Default::default(),
            r_member: Default::default(),
            r_active: Default::default(),
            r_live: Default::default(),
            r_slot: Default::default(),
            r_warps: Default::default(),
            r_global_end: Default::default(),
            launch_pulse: Default::default(),
            exec_state: Default::default(),
            run_left: Default::default(),
            run_timeout: Default::default(),
            reset_count: Default::default(),
            cycle: Default::default(),
            f_framing: Default::default(),
            f_overflow: Default::default(),
            f_bad_command: Default::default(),
            f_error_response: Default::default(),
            k_err_retry: Constant::new((smsync_contract::encoding::ErrorCode::Retry.code() as u64).to_bits()),
            gm_state: Default::default(),
            gm_we_r: Default::default(),
            gm_addr_r: Default::default(),
            gm_wdata_r: Default::default(),
            gm_be_r: Default::default(),
            gm_data_r: Default::default(),
            ag_state: Default::default(),
            ag_we_r: Default::default(),
            ag_addr_r: Default::default(),
            ag_wdata_r: Default::default(),
            ag_be_r: Default::default(),
            ag_data_r: Default::default(),
            waiting_host: Default::default(),
            hdr_fifo: BlockFifo::new(QUEUE_DEPTH),
            wake_fifo: RamFifo::new(QUEUE_DEPTH),
            cap_state: Default::default(),
            cap_tag: Default::default(),
            cap_cta: Default::default(),
            cap_warp: Default::default(),
            cap_lanes: Default::default(),
            cap_preds: Default::default(),
            cap_error: Default::default(),
            cap_error_lane: Default::default(),
            cap_values: Default::default(),
            cap_beat: Default::default(),
            // 32 / L words a bank; DepthRam needs an address bit or more (L = 32: word 0 only).
            val_ram: DepthRam::block(5),
            val_full: Default::default(),
            cap_rem: Default::default(),
            cap_vmask: Default::default(),
            u_seen: Default::default(),
            u_same: Default::default(),
            u_value: Default::default(),
            cap_lane: Default::default(),
            c_value: Default::default(),
            c_take: Default::default(),
            k_top_lane: Constant::new((1u64 << 31).to_bits()),
            k_lane_num: (0..l).map(|j| Constant::new((j as u64).to_bits())).collect(),
            k_log_lanes: Constant::new((l.trailing_zeros() as u64).to_bits()),
            rd_value: Default::default(),
            fifo_reset: Default::default(),
            tx_state: Default::default(),
            txf: Default::default(),
            tx_left: Default::default(),
            tx_values: Default::default(),
            tx_uniform: Default::default(),
            uniform_bit: Default::default(),
            k_t87: Constant::new((FRAME_RESPONSE_UNIFORM as u64).to_bits()),
            v_rem: Default::default(),
            v_n: Default::default(),
            v_acc: Default::default(),
            hdr: Default::default(),
            status_flags: Default::default(),
            k_t80: Constant::new((FRAME_STATUS as u64).to_bits()),
            k_t81: Constant::new((FRAME_RESPONSE as u64).to_bits()),
            k_t82: Constant::new((FRAME_WAKE as u64).to_bits()),
            k_t83: Constant::new((FRAME_GM_READ as u64).to_bits()),
            k_t84: Constant::new((FRAME_GM_WRITE as u64).to_bits()),
            k_t85: Constant::new((FRAME_AG_READ as u64).to_bits()),
            k_t86: Constant::new((FRAME_AG_WRITE as u64).to_bits()),
            k_wake_pred: Constant::new(0x8000u64.to_bits()),
            k_cont: Constant::new(0x80u64.to_bits()),
            k_gm_bytes: Constant::new(((D / 8) as u64).to_bits()),
            k_gm_write_len: Constant::new((gm_write_len as u64).to_bits()),
            k_be_shift: Constant::new(((72 + D) as u64).to_bits()),
            k_fifo_depth: Constant::new((QUEUE_DEPTH as u64).to_bits()),
        }
    }
}

impl<const D: usize, const B: usize> Logic for HostBridge<D, B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            rx_state,
            cmd,
            need,
            rxp,
            fields,
            field,
            lane_rem,
            lane_n,
            cur_addr,
            cur_src,
            cur_mbar,
            cur_a,
            cur_b,
            cur_c,
            r_tag,
            r_cta,
            r_warp,
            r_op,
            r_sub,
            r_dtype,
            r_space,
            r_flags,
            r_vec,
            r_imm,
            r_imm2,
            r_member,
            r_active,
            r_live,
            r_slot,
            r_warps,
            r_global_end,
            launch_pulse,
            beat_full,
            beats_sent,
            exec_state,
            run_left,
            run_timeout,
            reset_count,
            cycle,
            f_framing,
            f_overflow,
            f_bad_command,
            f_error_response,
            gm_state,
            gm_we_r,
            gm_addr_r,
            gm_wdata_r,
            gm_be_r,
            gm_data_r,
            ag_state,
            ag_we_r,
            ag_addr_r,
            ag_wdata_r,
            ag_be_r,
            ag_data_r,
            val_full,
            cap_state,
            cap_tag,
            cap_cta,
            cap_warp,
            cap_lanes,
            cap_preds,
            cap_error,
            cap_error_lane,
            cap_values,
            cap_beat,
            cap_lane,
            cap_rem,
            cap_vmask,
            u_seen,
            u_same,
            u_value,
            tx_state,
            txf,
            tx_left,
            tx_values,
            tx_uniform,
            v_rem,
            v_n,
            v_acc
        );
        // The value latch: written a lane at a time by the capture, read a lane at a time by
        // the transmitter (word `v_n`). Block RAM with a registered read port: its word is named
        // a cycle ahead, from `v_n`'s next value (at the end); the transmitter reads only after
        // the capture's last write (`val_full`).
        self.val_ram.write_clock.next = self.clock.val();
        self.val_ram.read_clock.next = self.clock.val();
        self.val_ram.write_enable.next = false;
        self.rd_value.next = self.val_ram.read_data.val();
        for i in 0..self._lanes {
            self.ch_addr[i].clock.next = self.clock.val();
            self.ch_src[i].clock.next = self.clock.val();
            self.ch_mbar[i].clock.next = self.clock.val();
            self.ch_a[i].clock.next = self.clock.val();
            self.ch_b[i].clock.next = self.clock.val();
            self.ch_c[i].clock.next = self.clock.val();
            self.ch_addr[i].d.next = self.ch_addr[i].q.val();
            self.ch_src[i].d.next = self.ch_src[i].q.val();
            self.ch_mbar[i].d.next = self.ch_mbar[i].q.val();
            self.ch_a[i].d.next = self.ch_a[i].q.val();
            self.ch_b[i].d.next = self.ch_b[i].q.val();
            self.ch_c[i].d.next = self.ch_c[i].q.val();
            // The beat's lanes are the chain stages; the request fields the latched header.
            self.beat_addr[i].next = self.ch_addr[i].q.val();
            self.beat_src[i].next = self.ch_src[i].q.val();
            self.beat_mbar[i].next = self.ch_mbar[i].q.val();
            self.beat_a[i].next = self.ch_a[i].q.val();
            self.beat_b[i].next = self.ch_b[i].q.val();
            self.beat_c[i].next = self.ch_c[i].q.val();
        }
        self.req_tag.next = self.r_tag.q.val();
        self.req_cta.next = self.r_cta.q.val();
        self.req_warp.next = self.r_warp.q.val();
        self.req_op.next = self.r_op.q.val();
        self.req_sub.next = self.r_sub.q.val();
        self.req_dtype.next = self.r_dtype.q.val();
        self.req_space.next = self.r_space.q.val();
        self.req_flags.next = self.r_flags.q.val();
        self.req_vec.next = self.r_vec.q.val();
        self.req_imm.next = self.r_imm.q.val();
        self.req_imm2.next = self.r_imm2.q.val();
        self.req_member.next = self.r_member.q.val();
        self.req_active.next = self.r_active.q.val();
        self.req_live.next = self.r_live.q.val();
        self.launch.next = self.launch_pulse.q.val();
        self.launch_slot.next = self.r_slot.q.val();
        self.launch_warps.next = self.r_warps.q.val();
        self.global_end.next = self.r_global_end.q.val();
        self.launch_pulse.d.next = false;
        self.cycle.d.next = self.cycle.q.val() + 1;

        // ================= parser =================
        if self.rx_framing_error.val() {
            self.f_framing.d.next = true;
        }
        // Received bytes wait in a small queue: the parser spends cycles per lane and per
        // field, and must not miss a byte that arrives meanwhile.
        self.rx_fifo.clock.next = self.clock.val();
        self.rx_fifo.reset.next = self.reset.val();
        self.rx_fifo.din.next = self.rx_data.val();
        self.rx_fifo.push.next = self.rx_valid.val();
        if self.rx_valid.val() && (self.rx_fifo.count.val() == self.k_rx_depth.val()) {
            self.f_overflow.d.next = true;
        }
        self.byte_valid.next = !self.rx_fifo.empty.val();
        self.rx_byte.next = self.rx_fifo.dout.val();
        self.rx_fifo.pop.next = false;
        // Command bytes are protocol::CMD_* (0x01 RESET .. 0x07 AG_DATA): hdl_gen needs literals.
        match self.rx_state.q.val() {
            ParseState::Command => {
                if self.byte_valid.val() {
                    self.rx_fifo.pop.next = true;
                    self.cmd.d.next = self.rx_byte.val();
                    self.rxp.d.next = 0.into();
                    self.rx_state.d.next = ParseState::Payload;
                    if self.rx_byte.val() == 0x01 {
                        // RESET: no payload.
                        self.rx_state.d.next = ParseState::Command;
                        self.exec_state.d.next = ExecState::Reset;
                        self.reset_count.d.next = 0.into();
                    } else if self.rx_byte.val() == 0x02 {
                        self.need.d.next = 2.into();
                    } else if self.rx_byte.val() == 0x03 {
                        self.need.d.next = 8.into();
                    } else if self.rx_byte.val() == 0x04 {
                        self.need.d.next = 5.into();
                    } else if self.rx_byte.val() == 0x05 {
                        self.need.d.next = 41.into();
                    } else if self.rx_byte.val() == 0x06 {
                        self.need.d.next = self.k_gm_bytes.val();
                    } else if self.rx_byte.val() == 0x07 {
                        self.need.d.next = 16.into();
                    } else {
                        self.f_bad_command.d.next = true;
                        self.rx_state.d.next = ParseState::Command;
                    }
                }
            }
            ParseState::Payload => {
                if self.byte_valid.val() {
                    self.rx_fifo.pop.next = true;
                    self.rxp.d.next = (self.rxp.q.val() << 8) | bit_cast::<RXP_BITS, 8>(self.rx_byte.val());
                    self.need.d.next = self.need.q.val() - 1;
                    if self.need.q.val() == 1 {
                        self.rx_state.d.next = ParseState::Dispatch;
                    }
                }
            }
            ParseState::Dispatch => {
                self.rx_state.d.next = ParseState::Command;
                if self.cmd.q.val() == 0x02 {
                    self.r_slot.d.next = self.rxp.q.val().get_bits::<5>(8);
                    self.r_warps.d.next = bit_cast::<32, 8>(self.rxp.q.val().get_bits::<8>(0));
                    self.launch_pulse.d.next = true;
                    self.exec_state.d.next = ExecState::Report;
                } else if self.cmd.q.val() == 0x03 {
                    self.r_global_end.d.next = self.rxp.q.val().get_bits::<64>(0);
                    self.exec_state.d.next = ExecState::Report;
                } else if self.cmd.q.val() == 0x04 {
                    self.run_left.d.next = self.rxp.q.val().get_bits::<32>(8);
                    self.run_timeout.d.next = self.rxp.q.val().get_bit(0);
                    self.exec_state.d.next = ExecState::Run;
                } else if self.cmd.q.val() == 0x06 {
                    self.gm_data_r.d.next = self.rxp.q.val().get_bits::<D>(0);
                    if self.gm_state.q.val() == MemState::Wait {
                        self.gm_state.d.next = MemState::Data;
                    }
                } else if self.cmd.q.val() == 0x07 {
                    self.ag_data_r.d.next = self.rxp.q.val().get_bits::<128>(0);
                    if self.ag_state.q.val() == MemState::Wait {
                        self.ag_state.d.next = MemState::Data;
                    }
                } else {
                    // REQUEST: latch the header (offsets: protocol::REQUEST_HEADER_BYTES layout,
                    // first byte highest), then receive the lanes.
                    self.r_tag.d.next = self.rxp.q.val().get_bits::<64>(264);
                    self.r_cta.d.next = self.rxp.q.val().get_bits::<5>(256);
                    self.r_warp.d.next = self.rxp.q.val().get_bits::<5>(248);
                    self.r_op.d.next = self.rxp.q.val().get_bits::<OP_BITS>(240);
                    self.r_sub.d.next = self.rxp.q.val().get_bits::<SUB_BITS>(232);
                    self.r_dtype.d.next = self.rxp.q.val().get_bits::<4>(224);
                    self.r_space.d.next = self.rxp.q.val().get_bits::<2>(216);
                    self.r_flags.d.next = self.rxp.q.val().get_bits::<FLAG_BITS>(208);
                    self.r_vec.d.next = self.rxp.q.val().get_bits::<4>(200);
                    self.r_imm.d.next = self.rxp.q.val().get_bits::<32>(168);
                    self.r_imm2.d.next = self.rxp.q.val().get_bits::<32>(136);
                    self.r_member.d.next = self.rxp.q.val().get_bits::<32>(104);
                    self.r_active.d.next = self.rxp.q.val().get_bits::<32>(72);
                    self.r_live.d.next = self.rxp.q.val().get_bits::<32>(40);
                    self.fields.d.next = self.rxp.q.val().get_bits::<6>(32);
                    self.lane_rem.d.next = self.rxp.q.val().get_bits::<32>(0);
                    self.lane_n.d.next = 0.into();
                    self.cur_addr.d.next = 0.into();
                    self.cur_src.d.next = 0.into();
                    self.cur_mbar.d.next = 0.into();
                    self.cur_a.d.next = 0.into();
                    self.cur_b.d.next = 0.into();
                    self.cur_c.d.next = 0.into();
                    self.beat_full.d.next = false;
                    self.beats_sent.d.next = 0.into();
                    self.rx_state.d.next = ParseState::LaneStart;
                    // The header goes to the top now; the beats follow as the lanes arrive.
                    self.exec_state.d.next = ExecState::Hold;
                }
            }
            ParseState::LaneStart => {
                if self.lane_n.q.val() == 32 {
                    self.rx_state.d.next = ParseState::Command;
                } else if self.lane_rem.q.val().get_bit(0) {
                    self.field.d.next = 0.into();
                    self.rx_state.d.next = ParseState::Field;
                } else {
                    self.rx_state.d.next = ParseState::Shift;
                }
            }
            ParseState::Field => {
                if !self.fields.q.val().get_bit(self.field.q.val().index()) {
                    // This field is not sent.
                    if self.field.q.val() == 5 {
                        self.rx_state.d.next = ParseState::Shift;
                    } else {
                        self.field.d.next = self.field.q.val() + 1;
                    }
                } else if self.byte_valid.val() {
                    self.rx_fifo.pop.next = true;
                    if self.field.q.val() == 0 {
                        self.cur_addr.d.next =
                            (self.cur_addr.q.val() << 7) | bit_cast::<64, 7>(self.rx_byte.val().get_bits::<7>(0));
                    }
                    if self.field.q.val() == 1 {
                        self.cur_src.d.next =
                            (self.cur_src.q.val() << 7) | bit_cast::<64, 7>(self.rx_byte.val().get_bits::<7>(0));
                    }
                    if self.field.q.val() == 2 {
                        self.cur_mbar.d.next =
                            (self.cur_mbar.q.val() << 7) | bit_cast::<64, 7>(self.rx_byte.val().get_bits::<7>(0));
                    }
                    if self.field.q.val() == 3 {
                        self.cur_a.d.next =
                            (self.cur_a.q.val() << 7) | bit_cast::<128, 7>(self.rx_byte.val().get_bits::<7>(0));
                    }
                    if self.field.q.val() == 4 {
                        self.cur_b.d.next =
                            (self.cur_b.q.val() << 7) | bit_cast::<128, 7>(self.rx_byte.val().get_bits::<7>(0));
                    }
                    if self.field.q.val() == 5 {
                        self.cur_c.d.next =
                            (self.cur_c.q.val() << 7) | bit_cast::<128, 7>(self.rx_byte.val().get_bits::<7>(0));
                    }
                    // The last group of a VLQ has bit 7 clear.
                    if !self.rx_byte.val().get_bit(7) {
                        if self.field.q.val() == 5 {
                            self.rx_state.d.next = ParseState::Shift;
                        } else {
                            self.field.d.next = self.field.q.val() + 1;
                        }
                    }
                }
            }
            ParseState::Shift => {
                // Every chain moves down one lane and the assembled lane enters at the top, once
                // the top has taken the previous beat: after L shifts lane `k*L + i` of beat k
                // sits in stage i.
                if !self.beat_full.q.val() {
                    for i in 0..self._lanes_m1 {
                        self.ch_addr[i].d.next = self.ch_addr[i + 1].q.val();
                        self.ch_src[i].d.next = self.ch_src[i + 1].q.val();
                        self.ch_mbar[i].d.next = self.ch_mbar[i + 1].q.val();
                        self.ch_a[i].d.next = self.ch_a[i + 1].q.val();
                        self.ch_b[i].d.next = self.ch_b[i + 1].q.val();
                        self.ch_c[i].d.next = self.ch_c[i + 1].q.val();
                    }
                    for t in self._lanes_m1..self._lanes {
                        self.ch_addr[t].d.next = self.cur_addr.q.val();
                        self.ch_src[t].d.next = self.cur_src.q.val();
                        self.ch_mbar[t].d.next = self.cur_mbar.q.val();
                        self.ch_a[t].d.next = self.cur_a.q.val();
                        self.ch_b[t].d.next = self.cur_b.q.val();
                        self.ch_c[t].d.next = self.cur_c.q.val();
                    }
                    if (self.lane_n.q.val() & self.k_lane_mask.val()) == self.k_lane_mask.val() {
                        self.beat_full.d.next = true;
                    }
                    self.cur_addr.d.next = 0.into();
                    self.cur_src.d.next = 0.into();
                    self.cur_mbar.d.next = 0.into();
                    self.cur_a.d.next = 0.into();
                    self.cur_b.d.next = 0.into();
                    self.cur_c.d.next = 0.into();
                    self.lane_rem.d.next = self.lane_rem.q.val() >> 1;
                    self.lane_n.d.next = self.lane_n.q.val() + 1;
                    self.rx_state.d.next = ParseState::LaneStart;
                }
            }
        }

        // ================= global-memory slots =================
        self.waiting_host.next = (self.gm_state.q.val() == MemState::Send)
            || (self.gm_state.q.val() == MemState::Wait)
            || (self.ag_state.q.val() == MemState::Send)
            || (self.ag_state.q.val() == MemState::Wait);
        self.gm_grant.next = self.gm_state.q.val() == MemState::Idle;
        self.gm_rvalid.next = self.gm_state.q.val() == MemState::Data;
        self.gm_rdata.next = self.gm_data_r.q.val();
        self.ag_grant.next = self.ag_state.q.val() == MemState::Idle;
        self.ag_rvalid.next = self.ag_state.q.val() == MemState::Data;
        self.ag_rdata.next = self.ag_data_r.q.val();
        if (self.gm_state.q.val() == MemState::Idle) && self.gm_req.val() {
            self.gm_we_r.d.next = self.gm_we.val();
            self.gm_addr_r.d.next = self.gm_addr.val();
            self.gm_wdata_r.d.next = self.gm_wdata.val();
            self.gm_be_r.d.next = self.gm_be.val();
            self.gm_state.d.next = MemState::Send;
        }
        if (self.gm_state.q.val() == MemState::Data) && self.gm_rready.val() {
            self.gm_state.d.next = MemState::Idle;
        }
        if (self.ag_state.q.val() == MemState::Idle) && self.ag_req.val() {
            self.ag_we_r.d.next = self.ag_we.val();
            self.ag_addr_r.d.next = self.ag_addr.val();
            self.ag_wdata_r.d.next = self.ag_wdata.val();
            self.ag_be_r.d.next = self.ag_be.val();
            self.ag_state.d.next = MemState::Send;
        }
        if self.ag_state.q.val() == MemState::Data {
            self.ag_state.d.next = MemState::Idle;
        }

        // ================= exec =================
        self.req_valid.next = self.exec_state.q.val() == ExecState::Hold;
        // A whole beat is offered once the header has been taken.
        self.beat_valid.next = (self.exec_state.q.val() == ExecState::Beats) && self.beat_full.q.val();
        self.timeout.next = (self.exec_state.q.val() == ExecState::Run) && self.run_timeout.q.val();
        self.core_reset.next = self.exec_state.q.val() == ExecState::Reset;
        self.in_flight.next = self.exec_state.q.val() != ExecState::Idle;
        self.error_seen.next = self.f_framing.q.val()
            || self.f_overflow.q.val()
            || self.f_bad_command.q.val()
            || self.f_error_response.q.val();
        match self.exec_state.q.val() {
            ExecState::Idle => {}
            ExecState::Hold => {
                if self.req_ready.val() {
                    self.exec_state.d.next = ExecState::Beats;
                }
            }
            ExecState::Beats => {
                if self.beat_full.q.val() && self.beat_ready.val() {
                    self.beat_full.d.next = false;
                    self.beats_sent.d.next = self.beats_sent.q.val() + 1;
                    if self.beats_sent.q.val() == self.k_last_beat.val() {
                        self.exec_state.d.next = ExecState::Drain;
                    }
                }
            }
            ExecState::Drain => {
                if !self.busy.val() {
                    self.exec_state.d.next = ExecState::Report;
                }
            }
            ExecState::Run => {
                if !self.waiting_host.val() {
                    if self.run_left.q.val() == 0 {
                        self.exec_state.d.next = ExecState::Report;
                    } else {
                        self.run_left.d.next = self.run_left.q.val() - 1;
                    }
                }
            }
            ExecState::Reset => {
                self.reset_count.d.next = self.reset_count.q.val() + 1;
                self.gm_state.d.next = MemState::Idle;
                self.ag_state.d.next = MemState::Idle;
                self.val_full.d.next = false;
                self.f_framing.d.next = false;
                self.f_overflow.d.next = false;
                self.f_bad_command.d.next = false;
                self.f_error_response.d.next = false;
                if self.reset_count.q.val() == 15 {
                    self.exec_state.d.next = ExecState::Report;
                }
            }
            ExecState::Report => {}
        }

        // ================= capture =================
        self.fifo_reset.next = self.reset.val() || (self.exec_state.q.val() == ExecState::Reset);
        self.hdr_fifo.clock.next = self.clock.val();
        self.hdr_fifo.reset.next = self.fifo_reset.val();
        self.wake_fifo.clock.next = self.clock.val();
        self.wake_fifo.reset.next = self.fifo_reset.val();
        // Header: taken while the queue has room and the value latch is free.
        self.resp_ready.next = (self.cap_state.q.val() == CaptureState::Idle)
            && (self.hdr_fifo.count.val() != self.k_fifo_depth.val())
            && !self.val_full.q.val();
        self.resp_beat_ready.next =
            (self.cap_state.q.val() == CaptureState::Beats) && (self.cap_lane.q.val() == self.k_lane_mask.val());
        // The lane being captured (`cap_rem` is shifted down a lane at a time: bit 0 is its
        // answered bit).
        self.c_value.next = 0.into();
        for j in 0..self._lanes {
            if self.cap_lane.q.val() == self.k_lane_num[j].val() {
                self.c_value.next = self.resp_beat_values[j].val();
            }
        }
        self.c_take.next = self.cap_rem.q.val().get_bit(0) && (self.c_value.val() != 0);
        self.val_ram.write_address.next = (self.cap_beat.q.val() << self.k_log_lanes.val()) | self.cap_lane.q.val();
        self.val_ram.write_data.next = self.c_value.val();
        self.hdr_fifo.push.next = false;
        match self.cap_state.q.val() {
            CaptureState::Idle => {
                if self.resp_valid.val() && self.resp_ready.val() {
                    self.cap_tag.d.next = self.resp_tag.val();
                    self.cap_cta.d.next = self.resp_cta.val();
                    self.cap_warp.d.next = self.resp_warp.val();
                    self.cap_lanes.d.next = self.resp_lanes.val();
                    self.cap_preds.d.next = self.resp_preds.val();
                    self.cap_error.d.next = self.resp_error.val();
                    self.cap_error_lane.d.next = self.resp_error_lane.val();
                    self.cap_values.d.next = self.resp_has_values.val();
                    self.cap_beat.d.next = 0.into();
                    self.cap_lane.d.next = 0.into();
                    self.cap_rem.d.next = self.resp_lanes.val();
                    self.cap_vmask.d.next = 0.into();
                    self.u_seen.d.next = false;
                    self.u_same.d.next = true;
                    self.u_value.d.next = 0.into();
                    self.cap_state.d.next = CaptureState::Push;
                    if self.resp_has_values.val() {
                        self.cap_state.d.next = CaptureState::Beats;
                    }
                    if (self.resp_error.val() != 0) && (self.resp_error.val() != self.k_err_retry.val()) {
                        self.f_error_response.d.next = true;
                    }
                }
            }
            CaptureState::Beats => {
                // Lane j of beat b goes to word b L + j; whether it is answered and nonzero
                // enters `cap_vmask` at the top (after the last lane, bit i is lane i).
                if self.resp_beat_valid.val() {
                    self.val_ram.write_enable.next = true;
                    self.cap_rem.d.next = self.cap_rem.q.val() >> 1;
                    self.cap_vmask.d.next = self.cap_vmask.q.val() >> 1;
                    // Uniform: every answered nonzero lane equals the first one's value.
                    if self.c_take.val() {
                        self.cap_vmask.d.next = (self.cap_vmask.q.val() >> 1) | self.k_top_lane.val();
                        self.u_seen.d.next = true;
                        self.u_value.d.next = self.c_value.val();
                        if self.u_seen.q.val() && (self.u_value.q.val() != self.c_value.val()) {
                            self.u_same.d.next = false;
                        }
                    }
                    self.cap_lane.d.next = (self.cap_lane.q.val() + 1) & self.k_lane_mask.val();
                    if self.cap_lane.q.val() == self.k_lane_mask.val() {
                        self.cap_beat.d.next = self.cap_beat.q.val() + 1;
                        if self.cap_beat.q.val() == self.k_last_beat.val() {
                            self.cap_state.d.next = CaptureState::Push;
                        }
                    }
                }
            }
            CaptureState::Push => {
                self.hdr_fifo.push.next = true;
                if (self.cap_vmask.q.val() != 0) && !self.u_same.q.val() {
                    self.val_full.d.next = true;
                }
                self.cap_state.d.next = CaptureState::Idle;
            }
        }
        // Uniform: every answered nonzero lane has the same value (bar.red, vote, redux,
        // ballot...): it is queued with the header, not in the value latch, so released warps
        // (several responses in a burst) need no latch.
        self.uniform_bit.next = 0.into();
        if self.u_same.q.val() {
            self.uniform_bit.next = 1.into();
        }
        self.hdr_fifo.din.next = bit_cast::<HDR_BITS, 64>(self.cap_tag.q.val())
            | (bit_cast::<HDR_BITS, 5>(self.cap_cta.q.val()) << 64)
            | (bit_cast::<HDR_BITS, 5>(self.cap_warp.q.val()) << 69)
            | (bit_cast::<HDR_BITS, 32>(self.cap_lanes.q.val()) << 74)
            | (bit_cast::<HDR_BITS, 32>(self.cap_preds.q.val()) << 106)
            | (bit_cast::<HDR_BITS, 5>(self.cap_error_lane.q.val()) << 138)
            | (bit_cast::<HDR_BITS, 32>(self.cap_vmask.q.val()) << 143)
            | (bit_cast::<HDR_BITS, 1>(self.uniform_bit.val()) << 175)
            | (bit_cast::<HDR_BITS, 128>(self.u_value.q.val()) << 176)
            | (bit_cast::<HDR_BITS, ERROR_BITS>(self.cap_error.q.val()) << 304);
        if self.exec_state.q.val() == ExecState::Reset {
            self.cap_state.d.next = CaptureState::Idle;
        }
        self.wake_fifo.din.next = bit_cast::<16, 5>(self.wake_cta.val())
            | (bit_cast::<16, 5>(self.wake_warp.val()) << 5)
            | (bit_cast::<16, 5>(self.wake_lane.val()) << 10);
        if self.wake_pred.val() {
            self.wake_fifo.din.next = bit_cast::<16, 5>(self.wake_cta.val())
                | (bit_cast::<16, 5>(self.wake_warp.val()) << 5)
                | (bit_cast::<16, 5>(self.wake_lane.val()) << 10)
                | self.k_wake_pred.val();
        }
        self.wake_fifo.push.next = self.wake_valid.val();
        if self.wake_valid.val() && (self.wake_fifo.count.val() == self.k_fifo_depth.val()) {
            self.f_overflow.d.next = true;
        }

        // ================= transmitter =================
        // STATUS flags: busy, framing error, overflow, bad command (protocol::STATUS_*).
        self.status_flags.next = 0.into();
        self.status_flags.next = self.status_flags.val().replace_bit(0, self.busy.val());
        self.status_flags.next = self.status_flags.val().replace_bit(1, self.f_framing.q.val());
        self.status_flags.next = self.status_flags.val().replace_bit(2, self.f_overflow.q.val());
        self.status_flags.next = self.status_flags.val().replace_bit(3, self.f_bad_command.q.val());
        self.hdr.next = self.hdr_fifo.dout.val();
        self.hdr_fifo.pop.next = false;
        self.wake_fifo.pop.next = false;
        self.tx_valid.next = false;
        self.tx_data.next = self.txf.q.val().get_bits::<8>(0);
        match self.tx_state.q.val() {
            TxState::Idle => {
                if self.gm_state.q.val() == MemState::Send {
                    if self.gm_we_r.q.val() {
                        self.txf.d.next = self.k_t84.val()
                            | (bit_cast::<TXF_BITS, 64>(self.gm_addr_r.q.val()) << 8)
                            | (bit_cast::<TXF_BITS, D>(self.gm_wdata_r.q.val()) << 72)
                            | (bit_cast::<TXF_BITS, B>(self.gm_be_r.q.val()) << self.k_be_shift.val());
                        self.tx_left.d.next = self.k_gm_write_len.val();
                        self.gm_state.d.next = MemState::Idle;
                    } else {
                        self.txf.d.next = self.k_t83.val() | (bit_cast::<TXF_BITS, 64>(self.gm_addr_r.q.val()) << 8);
                        self.tx_left.d.next = 9.into();
                        self.gm_state.d.next = MemState::Wait;
                    }
                    self.tx_values.d.next = false;
                    self.tx_state.d.next = TxState::Fixed;
                } else if self.ag_state.q.val() == MemState::Send {
                    if self.ag_we_r.q.val() {
                        self.txf.d.next = self.k_t86.val()
                            | (bit_cast::<TXF_BITS, 64>(self.ag_addr_r.q.val()) << 8)
                            | (bit_cast::<TXF_BITS, 128>(self.ag_wdata_r.q.val()) << 72)
                            | (bit_cast::<TXF_BITS, 16>(self.ag_be_r.q.val()) << 200);
                        self.tx_left.d.next = 27.into();
                        self.ag_state.d.next = MemState::Idle;
                    } else {
                        self.txf.d.next = self.k_t85.val() | (bit_cast::<TXF_BITS, 64>(self.ag_addr_r.q.val()) << 8);
                        self.tx_left.d.next = 9.into();
                        self.ag_state.d.next = MemState::Wait;
                    }
                    self.tx_values.d.next = false;
                    self.tx_state.d.next = TxState::Fixed;
                } else if self.hdr_fifo.ready.val() {
                    // RESPONSE fixed part: 0x81, tag, cta, warp, lanes, preds, error, error_lane, vmask.
                    self.txf.d.next = self.k_t81.val()
                        | (bit_cast::<TXF_BITS, 64>(self.hdr.val().get_bits::<64>(0)) << 8)
                        | (bit_cast::<TXF_BITS, 5>(self.hdr.val().get_bits::<5>(64)) << 72)
                        | (bit_cast::<TXF_BITS, 5>(self.hdr.val().get_bits::<5>(69)) << 80)
                        | (bit_cast::<TXF_BITS, 32>(self.hdr.val().get_bits::<32>(74)) << 88)
                        | (bit_cast::<TXF_BITS, 32>(self.hdr.val().get_bits::<32>(106)) << 120)
                        | (bit_cast::<TXF_BITS, ERROR_BITS>(self.hdr.val().get_bits::<ERROR_BITS>(304)) << 152)
                        | (bit_cast::<TXF_BITS, 5>(self.hdr.val().get_bits::<5>(138)) << 160)
                        | (bit_cast::<TXF_BITS, 32>(self.hdr.val().get_bits::<32>(143)) << 168);
                    self.tx_left.d.next = 25.into();
                    self.v_rem.d.next = self.hdr.val().get_bits::<32>(143);
                    self.v_n.d.next = 0.into();
                    self.tx_values.d.next = self.hdr.val().get_bits::<32>(143) != 0;
                    self.tx_uniform.d.next = self.hdr.val().get_bit(175);
                    self.v_acc.d.next = self.hdr.val().get_bits::<128>(176);
                    if self.hdr.val().get_bit(175) && (self.hdr.val().get_bits::<32>(143) != 0) {
                        // RESPONSE_UNIFORM: same fixed part, then one value for all of vmask.
                        self.txf.d.next = self.k_t87.val()
                            | (bit_cast::<TXF_BITS, 64>(self.hdr.val().get_bits::<64>(0)) << 8)
                            | (bit_cast::<TXF_BITS, 5>(self.hdr.val().get_bits::<5>(64)) << 72)
                            | (bit_cast::<TXF_BITS, 5>(self.hdr.val().get_bits::<5>(69)) << 80)
                            | (bit_cast::<TXF_BITS, 32>(self.hdr.val().get_bits::<32>(74)) << 88)
                            | (bit_cast::<TXF_BITS, 32>(self.hdr.val().get_bits::<32>(106)) << 120)
                            | (bit_cast::<TXF_BITS, ERROR_BITS>(self.hdr.val().get_bits::<ERROR_BITS>(304)) << 152)
                            | (bit_cast::<TXF_BITS, 5>(self.hdr.val().get_bits::<5>(138)) << 160)
                            | (bit_cast::<TXF_BITS, 32>(self.hdr.val().get_bits::<32>(143)) << 168);
                    }
                    self.hdr_fifo.pop.next = true;
                    self.tx_state.d.next = TxState::Fixed;
                } else if !self.wake_fifo.empty.val() && self.hdr_fifo.empty.val() {
                    // (a header queued but not yet readable goes first: responses before wakes)
                    self.txf.d.next = self.k_t82.val()
                        | (bit_cast::<TXF_BITS, 5>(self.wake_fifo.dout.val().get_bits::<5>(0)) << 8)
                        | (bit_cast::<TXF_BITS, 5>(self.wake_fifo.dout.val().get_bits::<5>(5)) << 16)
                        | (bit_cast::<TXF_BITS, 5>(self.wake_fifo.dout.val().get_bits::<5>(10)) << 24)
                        | (bit_cast::<TXF_BITS, 1>(self.wake_fifo.dout.val().get_bits::<1>(15)) << 32);
                    self.tx_left.d.next = 5.into();
                    self.tx_values.d.next = false;
                    self.wake_fifo.pop.next = true;
                    self.tx_state.d.next = TxState::Fixed;
                } else if (self.exec_state.q.val() == ExecState::Report) && self.hdr_fifo.empty.val() {
                    // STATUS: 0x80, flags, cycle (after every queued response).
                    self.txf.d.next = self.k_t80.val()
                        | (bit_cast::<TXF_BITS, 8>(self.status_flags.val()) << 8)
                        | (bit_cast::<TXF_BITS, 32>(self.cycle.q.val()) << 16);
                    self.tx_left.d.next = 6.into();
                    self.tx_values.d.next = false;
                    self.exec_state.d.next = ExecState::Idle;
                    self.tx_state.d.next = TxState::Fixed;
                }
            }
            TxState::Fixed => {
                self.tx_valid.next = true;
                if self.tx_ready.val() {
                    self.txf.d.next = self.txf.q.val() >> 8;
                    self.tx_left.d.next = self.tx_left.q.val() - 1;
                    if self.tx_left.q.val() == 1 {
                        if self.tx_values.q.val() && self.tx_uniform.q.val() {
                            self.tx_state.d.next = TxState::ValueBytes;
                        } else if self.tx_values.q.val() {
                            self.tx_state.d.next = TxState::ValueLane;
                        } else {
                            self.tx_state.d.next = TxState::Idle;
                        }
                    }
                }
            }
            TxState::ValueLane => {
                if self.v_n.q.val() == 32 {
                    self.val_full.d.next = false;
                    self.tx_state.d.next = TxState::Idle;
                } else if self.v_rem.q.val().get_bit(0) {
                    self.v_acc.d.next = self.rd_value.val();
                    self.tx_state.d.next = TxState::ValueBytes;
                } else {
                    self.v_rem.d.next = self.v_rem.q.val() >> 1;
                    self.v_n.d.next = self.v_n.q.val() + 1;
                }
            }
            TxState::ValueBytes => {
                // LEB128: low 7 bits, bit 7 set while more groups follow.
                self.tx_valid.next = true;
                self.tx_data.next = bit_cast::<8, 7>(self.v_acc.q.val().get_bits::<7>(0));
                if (self.v_acc.q.val() >> 7) != 0 {
                    self.tx_data.next = bit_cast::<8, 7>(self.v_acc.q.val().get_bits::<7>(0)) | self.k_cont.val();
                }
                if self.tx_ready.val() {
                    self.v_acc.d.next = self.v_acc.q.val() >> 7;
                    if ((self.v_acc.q.val() >> 7) == 0) && self.tx_uniform.q.val() {
                        self.tx_state.d.next = TxState::Idle;
                    } else if (self.v_acc.q.val() >> 7) == 0 {
                        self.v_rem.d.next = self.v_rem.q.val() >> 1;
                        self.v_n.d.next = self.v_n.q.val() + 1;
                        self.tx_state.d.next = TxState::ValueLane;
                    }
                }
            }
        }

        if self.reset.val() {
            self.rx_state.d.next = ParseState::Command;
            self.exec_state.d.next = ExecState::Idle;
            self.tx_state.d.next = TxState::Idle;
            self.gm_state.d.next = MemState::Idle;
            self.ag_state.d.next = MemState::Idle;
            self.val_full.d.next = false;
            self.cap_state.d.next = CaptureState::Idle;
            self.launch_pulse.d.next = false;
            self.f_framing.d.next = false;
            self.f_overflow.d.next = false;
            self.f_bad_command.d.next = false;
            self.f_error_response.d.next = false;
        }
        // The value latch's word of the next cycle (after every write of `v_n`).
        self.val_ram.read_address.next = self.v_n.d.val();
    }
}
