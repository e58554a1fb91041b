//! The request ingress of the `sync_unit` top: the registered boundary between the request
//! port (a header, then the lane operands in beats) and the core.
//!
//! * **Header** (`req_*`): taken into the header register in a cycle where `req_valid` and
//!   `req_ready` are both high. `req_ready` is a register: high while no request is held.
//! * **Beats** (`beat_*`): after the header, `32 / L` beats (`L = lanes_per_beat`) in lane
//!   order, beat `k` carrying lanes `k*L .. k*L+L-1`, each taken in a cycle where `beat_valid`
//!   and `beat_ready` are both high (`beat_ready` is a register: high from the cycle after the
//!   header was taken until the last beat is). A taken beat is written into the operand store
//!   at the edge that takes it (the store's write port is its input register) and into the beat
//!   register; the cycle after, its stray-bit flags are computed over its `L` lanes and added
//!   to the request's, and its lanes' vote predicates (bit 0 of `a`) go into the predicate
//!   register.
//! * **Operand store**: RAM with a registered read port (block RAM on an FPGA), not registers.
//!   Per operand field, `B` banks (`B = operand_row_lanes(config) = max(L, the atomic ALU's
//!   step window)`), lane `k` in bank `k % B`, word `k / B`; a row is the same word of every
//!   bank. A beat writes `L` banks of one row. The core names the row it reads *in the next
//!   cycle* on three row addresses, `rd_row_am` (fields addr, src, mbar), `rd_row_a` (a) and
//!   `rd_row_bc` (b, c); `row_*` in cycle `c + 1` are the row named in cycle `c` (the core
//!   computes the name from its registers' next values). Every reader of the store takes a lane
//!   or a row per cycle (the lane sequencer one lane, the warp network a beat, the atomic ALU a
//!   step's window), so 32 registers per field and a 32:1 mux per reader and bit are not
//!   needed: on fpga-small the store was 18.4k flip-flops, then 576 distributed-RAM cells
//!   (3,456 LUT4 positions) while its read port was asynchronous.
//! * **Core side**: `valid` is high once the header and every beat are in (held until the core
//!   raises `done`, the cycle it has finished the request); the header fields, the predicate
//!   and the stray flags are registers, the rows come from the store. The last beat is written
//!   at the edge that takes it and `valid` rises an edge later, so every row read for a cycle
//!   where `valid` is high (at that edge or after) sees every beat: no reader ever uses a row
//!   read at the edge that writes it (the RAMs are `no_rw_check`, `DepthRam::block`).
//!
//! No input port reaches logic other than the enable of its register or the store's write
//! port (the RAM's input register): nothing is combinational from the port.

use super::copies;
use crate::atomic_alu::operand_row_lanes;
use crate::common::{FLAG_BITS, OP_BITS};
use crate::depth_ram::DepthRam;
use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::port::{beats_per_request, SUB_BITS, WARP};

/// A per-lane operand field of the beat register: `L` registers.
type Regs<const N: usize> = Vec<DFF<Bits<N>>>;

/// Address width of an operand-store bank (at most 32 words; `DepthRam` needs one bit more
/// than it uses).
const BANK_ADDR_BITS: usize = 6;

/// A per-lane operand field of the operand store: `B` banks.
type Banks<const N: usize> = Vec<DepthRam<Bits<N>, BANK_ADDR_BITS>>;

#[derive(LogicBlock)]
pub struct RequestIngress {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // ---- port side: header ----
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
    // ---- port side: beats of L lanes ----
    pub beat_valid: Signal<In, Bit>,
    pub beat_ready: Signal<Out, Bit>,
    pub beat_addr: Vec<Signal<In, Bits<64>>>,
    pub beat_src: Vec<Signal<In, Bits<64>>>,
    pub beat_mbar: Vec<Signal<In, Bits<64>>>,
    pub beat_a: Vec<Signal<In, Bits<128>>>,
    pub beat_b: Vec<Signal<In, Bits<128>>>,
    pub beat_c: Vec<Signal<In, Bits<128>>>,
    // ---- core side ----
    /// The header and every beat are in.
    pub valid: Signal<Out, Bit>,
    /// The core has finished the request (frees the header register).
    pub done: Signal<In, Bit>,
    /// A request is held (being received or in the core).
    pub busy: Signal<Out, Bit>,
    pub h_tag: Signal<Out, Bits<64>>,
    pub h_cta: Signal<Out, Bits<5>>,
    pub h_warp: Signal<Out, Bits<5>>,
    pub h_op: Signal<Out, Bits<OP_BITS>>,
    pub h_sub: Signal<Out, Bits<SUB_BITS>>,
    pub h_dtype: Signal<Out, Bits<4>>,
    pub h_space: Signal<Out, Bits<2>>,
    pub h_flags: Signal<Out, Bits<FLAG_BITS>>,
    pub h_vec: Signal<Out, Bits<4>>,
    pub h_imm: Signal<Out, Bits<32>>,
    pub h_imm2: Signal<Out, Bits<32>>,
    pub h_member: Signal<Out, Bits<32>>,
    pub h_active: Signal<Out, Bits<32>>,
    pub h_live: Signal<Out, Bits<32>>,
    /// Bit i: lane i's `a` bit 0 (its vote predicate), for every lane.
    pub h_pred: Signal<Out, Bits<32>>,
    /// The operand store's read ports (see the module doc): row addresses in, `B` lanes out in
    /// the next cycle (lane `B row + i` on `row_*[i]`).
    pub rd_row_am: Signal<In, Bits<5>>,
    pub rd_row_a: Signal<In, Bits<5>>,
    pub rd_row_bc: Signal<In, Bits<5>>,
    pub row_addr: Vec<Signal<Out, Bits<64>>>,
    pub row_src: Vec<Signal<Out, Bits<64>>>,
    pub row_mbar: Vec<Signal<Out, Bits<64>>>,
    pub row_a: Vec<Signal<Out, Bits<128>>>,
    pub row_b: Vec<Signal<Out, Bits<128>>>,
    pub row_c: Vec<Signal<Out, Bits<128>>>,
    /// Over the active lanes: `src` or `mbar` set / `src` set / `a` set / `a` above bit 63 /
    /// `b` above bit 63 / `c` outside the shfl fields (bits 4:0, 12:8) / `c` above bit 31. The
    /// core answers `NotBuilt` when the op's unit does not read a set one.
    pub stray_src: Signal<Out, Bit>,
    pub stray_src_only: Signal<Out, Bit>,
    pub stray_a: Signal<Out, Bit>,
    pub stray_a_hi: Signal<Out, Bit>,
    pub stray_b_hi: Signal<Out, Bit>,
    pub stray_c_shfl: Signal<Out, Bit>,
    pub stray_c_hi: Signal<Out, Bit>,
    // ---- header register ----
    hdr_full: DFF<Bit>,
    hdr_tag: DFF<Bits<64>>,
    hdr_cta: DFF<Bits<5>>,
    hdr_warp: DFF<Bits<5>>,
    hdr_op: DFF<Bits<OP_BITS>>,
    hdr_sub: DFF<Bits<SUB_BITS>>,
    hdr_dtype: DFF<Bits<4>>,
    hdr_space: DFF<Bits<2>>,
    hdr_flags: DFF<Bits<FLAG_BITS>>,
    hdr_vec: DFF<Bits<4>>,
    hdr_imm: DFF<Bits<32>>,
    hdr_imm2: DFF<Bits<32>>,
    hdr_member: DFF<Bits<32>>,
    hdr_active: DFF<Bits<32>>,
    hdr_live: DFF<Bits<32>>,
    // ---- beats ----
    /// The next beat to take, and whether the last one has been taken / written.
    beat_next: DFF<Bits<5>>,
    beats_taken: DFF<Bit>,
    beats_written: DFF<Bit>,
    /// The active mask of the lanes not yet taken, beat 0's lanes lowest.
    act_rem: DFF<Bits<32>>,
    /// The beat register: a taken beat, its row and its lanes' active bits (low L bits).
    bt_valid: DFF<Bit>,
    bt_row: DFF<Bits<5>>,
    bt_active: DFF<Bits<32>>,
    bt_addr: Regs<64>,
    bt_src: Regs<64>,
    bt_mbar: Regs<64>,
    bt_a: Regs<128>,
    bt_b: Regs<128>,
    bt_c: Regs<128>,
    /// The operand store: `B` banks per field.
    ram_addr: Banks<64>,
    ram_src: Banks<64>,
    ram_mbar: Banks<64>,
    ram_a: Banks<128>,
    ram_b: Banks<128>,
    ram_c: Banks<128>,
    /// The taken beat's word in its banks, and (B > L) its part of the row.
    beat_word: Signal<Local, Bits<BANK_ADDR_BITS>>,
    beat_part: Signal<Local, Bits<5>>,
    /// A beat is taken this cycle.
    take: Signal<Local, Bit>,
    /// The predicate register, and the beat's predicate bits accumulated over its lanes (each
    /// Local written once: rust-hdl's simulator keeps a Local read back after its assignment
    /// stale).
    hdr_pred: DFF<Bits<32>>,
    pred_bit: Vec<Signal<Local, Bits<32>>>,
    pred_acc: Vec<Signal<Local, Bits<32>>>,
    st_src: DFF<Bit>,
    st_src_only: DFF<Bit>,
    st_a: DFF<Bit>,
    st_a_hi: DFF<Bit>,
    st_b_hi: DFF<Bit>,
    st_c_shfl: DFF<Bit>,
    st_c_hi: DFF<Bit>,
    /// The parts of a store row (`B / L`, each a beat's lanes) and a beat's part number.
    part: Vec<Constant<Bits<5>>>,
    /// `1 << i`: lane i of the beat in `bt_active`.
    lane_bit: Vec<Constant<Bits<32>>>,
    k_last_beat: Constant<Bits<5>>,
    k_lanes: Constant<Bits<6>>,
    /// L as a shift of a beat number (its first lane); `log2(B / L)` and `B / L - 1`.
    k_log_lanes: Constant<Bits<5>>,
    k_log_parts: Constant<Bits<5>>,
    k_part_mask: Constant<Bits<5>>,
    /// `lanes_per_beat` (L), L + 1, the parts of a row (`B / L`) and the banks (`B`), as loop
    /// bounds (`hdl_gen` takes the bank index `l * p + i` with `l` from a one-element range).
    _lanes: usize,
    _lanes_end: usize,
    _parts: usize,
    _banks: usize,
}

impl RequestIngress {
    pub fn new(config: &Config) -> Self {
        let l = config.lanes_per_beat as usize;
        assert!(l.is_power_of_two() && l <= WARP, "lanes_per_beat {l} (the config validates it)");
        let beats = beats_per_request(config);
        let banks = operand_row_lanes(config);
        let parts = banks / l;
        // At least 2 words: DepthRam's address has one bit or more (B = 32 uses word 0 only).
        let word_bits = ((WARP / banks).trailing_zeros() as usize).max(1);
        RequestIngress {
            clock: Default::default(),
            reset: Default::default(),
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
            beat_addr: copies(l),
            beat_src: copies(l),
            beat_mbar: copies(l),
            beat_a: copies(l),
            beat_b: copies(l),
            beat_c: copies(l),
            valid: Default::default(),
            done: Default::default(),
            busy: Default::default(),
            h_tag: Default::default(),
            h_cta: Default::default(),
            h_warp: Default::default(),
            h_op: Default::default(),
            h_sub: Default::default(),
            h_dtype: Default::default(),
            h_space: Default::default(),
            h_flags: Default::default(),
            h_vec: Default::default(),
            h_imm: Default::default(),
            h_imm2: Default::default(),
            h_member: Default::default(),
            h_active: Default::default(),
            h_live: Default::default(),
            h_pred: Default::default(),
            rd_row_am: Default::default(),
            rd_row_a: Default::default(),
            rd_row_bc: Default::default(),
            row_addr: copies(banks),
            row_src: copies(banks),
            row_mbar: copies(banks),
            row_a: copies(banks),
            row_b: copies(banks),
            row_c: copies(banks),
            stray_src: Default::default(),
            stray_src_only: Default::default(),
            stray_a: Default::default(),
            stray_a_hi: Default::default(),
            stray_b_hi: Default::default(),
            stray_c_shfl: Default::default(),
            stray_c_hi: Default::default(),
            hdr_full: Default::default(),
            hdr_tag: Default::default(),
            hdr_cta: Default::default(),
            hdr_warp: Default::default(),
            hdr_op: Default::default(),
            hdr_sub: Default::default(),
            hdr_dtype: Default::default(),
            hdr_space: Default::default(),
            hdr_flags: Default::default(),
            hdr_vec: Default::default(),
            hdr_imm: Default::default(),
            hdr_imm2: Default::default(),
            hdr_member: Default::default(),
            hdr_active: Default::default(),
            hdr_live: Default::default(),
            beat_next: Default::default(),
            beats_taken: Default::default(),
            beats_written: Default::default(),
            act_rem: Default::default(),
            bt_valid: Default::default(),
            bt_row: Default::default(),
            bt_active: Default::default(),
            bt_addr: copies(l),
            bt_src: copies(l),
            bt_mbar: copies(l),
            bt_a: copies(l),
            bt_b: copies(l),
            bt_c: copies(l),
            ram_addr: store_banks(banks, word_bits),
            ram_src: store_banks(banks, word_bits),
            ram_mbar: store_banks(banks, word_bits),
            ram_a: store_banks(banks, word_bits),
            ram_b: store_banks(banks, word_bits),
            ram_c: store_banks(banks, word_bits),
            beat_word: Default::default(),
            beat_part: Default::default(),
            take: Default::default(),
            hdr_pred: Default::default(),
            pred_bit: copies(l),
            pred_acc: copies(l),
            st_src: Default::default(),
            st_src_only: Default::default(),
            st_a: Default::default(),
            st_a_hi: Default::default(),
            st_b_hi: Default::default(),
            st_c_shfl: Default::default(),
            st_c_hi: Default::default(),
            part: (0..parts as u64).map(|p| Constant::new(p.to_bits())).collect(),
            lane_bit: (0..l).map(|i| Constant::new((1u64 << i).to_bits())).collect(),
            k_last_beat: Constant::new((beats as u64 - 1).to_bits()),
            k_lanes: Constant::new((l as u64).to_bits()),
            k_log_lanes: Constant::new((l.trailing_zeros() as u64).to_bits()),
            k_log_parts: Constant::new((parts.trailing_zeros() as u64).to_bits()),
            k_part_mask: Constant::new((parts as u64 - 1).to_bits()),
            _lanes: l,
            _lanes_end: l + 1,
            _parts: parts,
            _banks: banks,
        }
    }
}

/// One field's banks of the operand store: block RAM when a bank holds 8 words or more
/// (fpga-small's 4 banks); a shallower one (the default config's 32 banks hold a word each) is
/// left to synthesis (flip-flops).
fn store_banks<const N: usize>(banks: usize, word_bits: usize) -> Banks<N> {
    let bank = || if WARP / banks >= 8 { DepthRam::block(word_bits) } else { DepthRam::new(word_bits) };
    (0..banks).map(|_| bank()).collect()
}

impl Logic for RequestIngress {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            hdr_full,
            hdr_tag,
            hdr_cta,
            hdr_warp,
            hdr_op,
            hdr_sub,
            hdr_dtype,
            hdr_space,
            hdr_flags,
            hdr_vec,
            hdr_imm,
            hdr_imm2,
            hdr_member,
            hdr_active,
            hdr_live,
            beat_next,
            beats_taken,
            beats_written,
            act_rem,
            bt_valid,
            bt_row,
            bt_active,
            hdr_pred,
            st_src,
            st_src_only,
            st_a,
            st_a_hi,
            st_b_hi,
            st_c_shfl,
            st_c_hi
        );
        // ---- the operand store: reads (next cycle) and the write port's defaults ----
        self.take.next = self.beat_valid.val() && self.hdr_full.q.val() && !self.beats_taken.q.val();
        self.beat_word.next = bit_cast::<BANK_ADDR_BITS, 5>(self.beat_next.q.val() >> self.k_log_parts.val());
        self.beat_part.next = self.beat_next.q.val() & self.k_part_mask.val();
        for i in 0..self._banks {
            self.ram_addr[i].write_clock.next = self.clock.val();
            self.ram_src[i].write_clock.next = self.clock.val();
            self.ram_mbar[i].write_clock.next = self.clock.val();
            self.ram_a[i].write_clock.next = self.clock.val();
            self.ram_b[i].write_clock.next = self.clock.val();
            self.ram_c[i].write_clock.next = self.clock.val();
            self.ram_addr[i].read_clock.next = self.clock.val();
            self.ram_src[i].read_clock.next = self.clock.val();
            self.ram_mbar[i].read_clock.next = self.clock.val();
            self.ram_a[i].read_clock.next = self.clock.val();
            self.ram_b[i].read_clock.next = self.clock.val();
            self.ram_c[i].read_clock.next = self.clock.val();
            self.ram_addr[i].write_enable.next = false;
            self.ram_src[i].write_enable.next = false;
            self.ram_mbar[i].write_enable.next = false;
            self.ram_a[i].write_enable.next = false;
            self.ram_b[i].write_enable.next = false;
            self.ram_c[i].write_enable.next = false;
            self.ram_addr[i].write_address.next = self.beat_word.val();
            self.ram_src[i].write_address.next = self.beat_word.val();
            self.ram_mbar[i].write_address.next = self.beat_word.val();
            self.ram_a[i].write_address.next = self.beat_word.val();
            self.ram_b[i].write_address.next = self.beat_word.val();
            self.ram_c[i].write_address.next = self.beat_word.val();
            self.ram_addr[i].read_address.next = bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_am.val());
            self.ram_src[i].read_address.next = bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_am.val());
            self.ram_mbar[i].read_address.next = bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_am.val());
            self.ram_a[i].read_address.next = bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_a.val());
            self.ram_b[i].read_address.next = bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_bc.val());
            self.ram_c[i].read_address.next = bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_bc.val());
            self.row_addr[i].next = self.ram_addr[i].read_data.val();
            self.row_src[i].next = self.ram_src[i].read_data.val();
            self.row_mbar[i].next = self.ram_mbar[i].read_data.val();
            self.row_a[i].next = self.ram_a[i].read_data.val();
            self.row_b[i].next = self.ram_b[i].read_data.val();
            self.row_c[i].next = self.ram_c[i].read_data.val();
        }
        // Bank L*p + i takes lane i of the beat port; only its write enable depends on the
        // beat's part (a zero default on the data would cost a gate per stored bit).
        for l in self._lanes..self._lanes_end {
            for p in 0..self._parts {
                for i in 0..self._lanes {
                    self.ram_addr[l * p + i].write_data.next = self.beat_addr[i].val();
                    self.ram_src[l * p + i].write_data.next = self.beat_src[i].val();
                    self.ram_mbar[l * p + i].write_data.next = self.beat_mbar[i].val();
                    self.ram_a[l * p + i].write_data.next = self.beat_a[i].val();
                    self.ram_b[l * p + i].write_data.next = self.beat_b[i].val();
                    self.ram_c[l * p + i].write_data.next = self.beat_c[i].val();
                }
            }
        }
        for i in 0..self._lanes {
            self.bt_addr[i].clock.next = self.clock.val();
            self.bt_src[i].clock.next = self.clock.val();
            self.bt_mbar[i].clock.next = self.clock.val();
            self.bt_a[i].clock.next = self.clock.val();
            self.bt_b[i].clock.next = self.clock.val();
            self.bt_c[i].clock.next = self.clock.val();
            self.bt_addr[i].d.next = self.bt_addr[i].q.val();
            self.bt_src[i].d.next = self.bt_src[i].q.val();
            self.bt_mbar[i].d.next = self.bt_mbar[i].q.val();
            self.bt_a[i].d.next = self.bt_a[i].q.val();
            self.bt_b[i].d.next = self.bt_b[i].q.val();
            self.bt_c[i].d.next = self.bt_c[i].q.val();
        }

        // ---- the core side: registers only ----
        self.valid.next = self.hdr_full.q.val() && self.beats_written.q.val();
        self.busy.next = self.hdr_full.q.val();
        self.h_tag.next = self.hdr_tag.q.val();
        self.h_cta.next = self.hdr_cta.q.val();
        self.h_warp.next = self.hdr_warp.q.val();
        self.h_op.next = self.hdr_op.q.val();
        self.h_sub.next = self.hdr_sub.q.val();
        self.h_dtype.next = self.hdr_dtype.q.val();
        self.h_space.next = self.hdr_space.q.val();
        self.h_flags.next = self.hdr_flags.q.val();
        self.h_vec.next = self.hdr_vec.q.val();
        self.h_imm.next = self.hdr_imm.q.val();
        self.h_imm2.next = self.hdr_imm2.q.val();
        self.h_member.next = self.hdr_member.q.val();
        self.h_active.next = self.hdr_active.q.val();
        self.h_live.next = self.hdr_live.q.val();
        self.h_pred.next = self.hdr_pred.q.val();
        self.stray_src.next = self.st_src.q.val();
        self.stray_src_only.next = self.st_src_only.q.val();
        self.stray_a.next = self.st_a.q.val();
        self.stray_a_hi.next = self.st_a_hi.q.val();
        self.stray_b_hi.next = self.st_b_hi.q.val();
        self.stray_c_shfl.next = self.st_c_shfl.q.val();
        self.stray_c_hi.next = self.st_c_hi.q.val();

        // ---- header: taken when no request is held ----
        self.req_ready.next = !self.hdr_full.q.val();
        if self.req_valid.val() && !self.hdr_full.q.val() {
            self.hdr_full.d.next = true;
            self.hdr_tag.d.next = self.req_tag.val();
            self.hdr_cta.d.next = self.req_cta.val();
            self.hdr_warp.d.next = self.req_warp.val();
            self.hdr_op.d.next = self.req_op.val();
            self.hdr_sub.d.next = self.req_sub.val();
            self.hdr_dtype.d.next = self.req_dtype.val();
            self.hdr_space.d.next = self.req_space.val();
            self.hdr_flags.d.next = self.req_flags.val();
            self.hdr_vec.d.next = self.req_vec.val();
            self.hdr_imm.d.next = self.req_imm.val();
            self.hdr_imm2.d.next = self.req_imm2.val();
            self.hdr_member.d.next = self.req_member.val();
            self.hdr_active.d.next = self.req_active.val();
            self.hdr_live.d.next = self.req_live.val();
            self.act_rem.d.next = self.req_active.val();
            self.hdr_pred.d.next = 0.into();
            self.beat_next.d.next = 0.into();
            self.beats_taken.d.next = false;
            self.beats_written.d.next = false;
            self.st_src.d.next = false;
            self.st_src_only.d.next = false;
            self.st_a.d.next = false;
            self.st_a_hi.d.next = false;
            self.st_b_hi.d.next = false;
            self.st_c_shfl.d.next = false;
            self.st_c_hi.d.next = false;
        }
        if self.done.val() {
            self.hdr_full.d.next = false;
        }

        // ---- beats: into the beat register ----
        self.beat_ready.next = self.hdr_full.q.val() && !self.beats_taken.q.val();
        self.bt_valid.d.next = false;
        if self.take.val() {
            self.bt_valid.d.next = true;
            self.bt_row.d.next = self.beat_next.q.val();
            self.bt_active.d.next = self.act_rem.q.val();
            self.act_rem.d.next = self.act_rem.q.val() >> self.k_lanes.val();
            self.beat_next.d.next = self.beat_next.q.val() + 1u64;
            if self.beat_next.q.val() == self.k_last_beat.val() {
                self.beats_taken.d.next = true;
            }
            for i in 0..self._lanes {
                self.bt_addr[i].d.next = self.beat_addr[i].val();
                self.bt_src[i].d.next = self.beat_src[i].val();
                self.bt_mbar[i].d.next = self.beat_mbar[i].val();
                self.bt_a[i].d.next = self.beat_a[i].val();
                self.bt_b[i].d.next = self.beat_b[i].val();
                self.bt_c[i].d.next = self.beat_c[i].val();
            }
        }

        // The taken beat into its part of a store row.
        if self.take.val() {
            for l in self._lanes..self._lanes_end {
                for p in 0..self._parts {
                    if self.beat_part.val() == self.part[p].val() {
                        for i in 0..self._lanes {
                            self.ram_addr[l * p + i].write_enable.next = true;
                            self.ram_src[l * p + i].write_enable.next = true;
                            self.ram_mbar[l * p + i].write_enable.next = true;
                            self.ram_a[l * p + i].write_enable.next = true;
                            self.ram_b[l * p + i].write_enable.next = true;
                            self.ram_c[l * p + i].write_enable.next = true;
                        }
                    }
                }
            }
        }

        // ---- the beat register: predicates and stray bits of its L lanes ----
        for i in 0..self._lanes {
            self.pred_bit[i].next = 0.into();
            if self.bt_a[i].q.val().get_bit(0) {
                self.pred_bit[i].next = self.lane_bit[i].val();
            }
        }
        self.pred_acc[0].next = self.pred_bit[0].val();
        for i in 1..self._lanes {
            self.pred_acc[i].next = self.pred_acc[i - 1].val() | self.pred_bit[i].val();
        }
        if self.bt_valid.q.val() {
            if self.bt_row.q.val() == self.k_last_beat.val() {
                self.beats_written.d.next = true;
            }
            // The last lane's accumulator (the loop's last assignment), at the beat's first lane.
            for i in 0..self._lanes {
                self.hdr_pred.d.next = self.hdr_pred.q.val()
                    | (self.pred_acc[i].val() << (bit_cast::<32, 5>(self.bt_row.q.val()) << self.k_log_lanes.val()));
            }
            for i in 0..self._lanes {
                // A whole-mask AND (not a bit select): bits above L are used, so lint has no
                // unused bits to report on a narrow beat.
                if (self.bt_active.q.val() & self.lane_bit[i].val()) != 0 {
                    if (self.bt_src[i].q.val() != 0) || (self.bt_mbar[i].q.val() != 0) {
                        self.st_src.d.next = true;
                    }
                    if self.bt_src[i].q.val() != 0 {
                        self.st_src_only.d.next = true;
                    }
                    if self.bt_a[i].q.val() != 0 {
                        self.st_a.d.next = true;
                    }
                    if self.bt_a[i].q.val().get_bits::<64>(64) != 0 {
                        self.st_a_hi.d.next = true;
                    }
                    if self.bt_b[i].q.val().get_bits::<64>(64) != 0 {
                        self.st_b_hi.d.next = true;
                    }
                    if ((self.bt_c[i].q.val() >> 13u64) != 0) || (self.bt_c[i].q.val().get_bits::<3>(5) != 0) {
                        self.st_c_shfl.d.next = true;
                    }
                    if (self.bt_c[i].q.val() >> 32u64) != 0 {
                        self.st_c_hi.d.next = true;
                    }
                }
            }
        }

        if self.reset.val() {
            self.hdr_full.d.next = false;
            self.bt_valid.d.next = false;
            self.beats_taken.d.next = false;
            self.beats_written.d.next = false;
        }
    }
}
