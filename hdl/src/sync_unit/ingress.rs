//! The request ingress of the `sync_unit` top: the registered boundary between the request
//! port (a header, then the lane operands in beats) and the core, and the top's request queue.
//!
//! * **Request queue**: `Q = requests_in_flight` entries (config), a circular FIFO: each entry
//!   holds a request's header registers, its predicate and stray flags, and its rows of the
//!   operand store. The port fills the entry at the tail while the core works on the one at the
//!   head, so the next request's header and beats stream in while the core processes the
//!   request before it. The core takes the entries in order (`valid`/`done` are the head's).
//!   After a `done` the next entry is offered one cycle later (`gap`): the core names a store
//!   row a cycle before it reads it, and in the `done` cycle it named one of the old entry.
//! * **Header** (`req_*`): taken into the tail entry's header registers in a cycle where
//!   `req_valid` and `req_ready` are both high. `req_ready` is high while an entry is free and
//!   no request's beats are still to come (from registers only).
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
//!   step window)`), lane `k` of queue entry `e` in bank `k % B`, word `e * 32 / B + k / B`; a
//!   row is the same word of every bank. A beat writes `L` banks of one row. The core names the row it reads *in the next
//!   cycle* on three row addresses, `rd_row_am` (fields addr, src, mbar), `rd_row_a` (a) and
//!   `rd_row_bc` (b, c); `row_*` in cycle `c + 1` are the row named in cycle `c` (the core
//!   computes the name from its registers' next values). Every reader of the store takes a lane
//!   or a row per cycle (the lane sequencer one lane, the warp network a beat, the atomic ALU a
//!   step's window), so 32 registers per field and a 32:1 mux per reader and bit are not
//!   needed: on fpga-small the store was 18.4k flip-flops, then 576 distributed-RAM cells
//!   (3,456 LUT4 positions) while its read port was asynchronous.
//! * **Core side**: `valid` is high once the header and every beat are in (held until the core
//!   raises `done`, the cycle it has finished the request); the header fields, the predicate
//!   and the decode (`RequestDecode`, one per entry, from its header and stray flags) are
//!   registers loaded with the next cycle's selection (`hd_*`), the rows come from the store. The last beat is written
//!   at the edge that takes it and `valid` rises an edge later, so every row read for a cycle
//!   where `valid` is high (at that edge or after) sees every beat: no reader ever uses a row
//!   read at the edge that writes it (the RAMs are `no_rw_check`, `DepthRam::block`).
//!
//! * **CTA launches in request order**: a launch (from the top's boundary register) starts a
//!   CTA in a slot; the requests the queue holds were sent before it (the SM sends a CTA's
//!   requests after launching it, and the last CTA's before launching the next into its slot).
//!   With none of its slot's requests queued at the last edge the launch goes to the core at
//!   once (`launch`, the cycle the boundary register holds it); otherwise it waits in a
//!   per-slot register until the entries ahead of it are done, goes to the core from a register
//!   (`fire`), and the entries behind it are held back for the two cycles after (the core's
//!   launch effects, the clear's hold, are registered).
//!
//! No input port reaches logic other than the enable of its register or the store's write
//! port (the RAM's input register): nothing is combinational from the port.

use super::copies;
use super::decode::RequestDecode;
use crate::atomic_alu::operand_row_lanes;
use crate::common::{FLAG_BITS, OP_BITS};
use crate::depth_ram::DepthRam;
use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::port::{beats_per_request, SUB_BITS, WARP};

/// A per-lane operand field of the beat register: `L` registers.
type Regs<const N: usize> = Vec<DFF<Bits<N>>>;

/// Address width of an operand-store bank (at most 32 words per entry and 8 entries; `DepthRam`
/// needs one bit more than it uses).
const BANK_ADDR_BITS: usize = 9;
/// Width of a queue entry's index, and of the queue's occupancy (`requests_in_flight <= 8`).
const ENTRY_BITS: usize = 3;
const COUNT_BITS: usize = 4;
/// Registers of one header field, one per queue entry.
type PerEntry<const N: usize> = Vec<DFF<Bits<N>>>;
/// A flag per queue entry.
type FlagPerEntry = Vec<DFF<Bit>>;

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
    /// The core has finished the request (frees its entry).
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
    /// Bit i: lane i's address faults an ld/st.shared of the request's size (`h_lsu_size`):
    /// misaligned / outside the CTA's shared window (PTX ISA §6.4.1, §5.1.5); computed as the
    /// beats pass the beat register, so the core's lane sequencer tests its picked lane
    /// against a register, not the operand store's row through an adder and a compare.
    pub h_lsu_misaligned: Signal<Out, Bits<32>>,
    pub h_lsu_out_of_range: Signal<Out, Bits<32>>,
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
    /// The offered request's decode (`RequestDecode`): its unit, its ld/st.shared access size,
    /// whether the top answers it `NotBuilt`.
    pub h_is_bar: Signal<Out, Bit>,
    pub h_is_mb: Signal<Out, Bit>,
    pub h_is_wn: Signal<Out, Bit>,
    pub h_is_atom: Signal<Out, Bit>,
    pub h_is_copy: Signal<Out, Bit>,
    pub h_lsu_size: Signal<Out, Bits<5>>,
    pub h_not_built: Signal<Out, Bit>,
    // ---- CTA launches (from the top's boundary register) and to the core ----
    pub launch_in: Signal<In, Bit>,
    pub launch_slot_in: Signal<In, Bits<5>>,
    pub launch_warps_in: Signal<In, Bits<32>>,
    pub launch: Signal<Out, Bit>,
    pub launch_slot: Signal<Out, Bits<5>>,
    pub launch_warps: Signal<Out, Bits<32>>,
    // ---- the request queue: per entry, the header registers ----
    q_tag: PerEntry<64>,
    q_cta: PerEntry<5>,
    q_warp: PerEntry<5>,
    q_op: PerEntry<OP_BITS>,
    q_sub: PerEntry<SUB_BITS>,
    q_dtype: PerEntry<4>,
    q_space: PerEntry<2>,
    q_flags: PerEntry<FLAG_BITS>,
    q_vec: PerEntry<4>,
    q_imm: PerEntry<32>,
    q_imm2: PerEntry<32>,
    q_member: PerEntry<32>,
    q_active: PerEntry<32>,
    q_live: PerEntry<32>,
    /// Per entry: the predicate register (lane i's `a` bit 0) and the stray-bit flags, over the
    /// active lanes: `src` or `mbar` set / `src` set / `a` set / `a` above bit 63 / `b` above bit
    /// 63 / `c` outside the shfl fields (bits 4:0, 12:8) / `c` above bit 31, accumulated as its
    /// beats pass the beat register (the top answers `NotBuilt` when the op's unit does not
    /// read a set one).
    q_pred: PerEntry<32>,
    /// Per entry: the lanes whose address faults an ld/st.shared of the entry's size
    /// (`h_lsu_misaligned`, `h_lsu_out_of_range`), accumulated like the predicates.
    q_misaligned: PerEntry<32>,
    q_out_of_range: PerEntry<32>,
    q_st_src: FlagPerEntry,
    q_st_src_only: FlagPerEntry,
    q_st_a: FlagPerEntry,
    q_st_a_hi: FlagPerEntry,
    q_st_b_hi: FlagPerEntry,
    q_st_c_shfl: FlagPerEntry,
    q_st_c_hi: FlagPerEntry,
    /// The queue's age order: position i holds the entry of the i-th oldest request held.
    order: PerEntry<ENTRY_BITS>,
    /// Bit e: entry e holds a request. `count` of them.
    used: DFF<Bits<8>>,
    count: DFF<Bits<COUNT_BITS>>,
    /// Bit e: entry e's beats are all in the store (its flags and predicates complete).
    written: DFF<Bits<8>>,
    /// Per entry: taken after a launch of its slot that has not reached the core yet.
    post_launch: FlagPerEntry,
    /// The entry offered to the core (always the oldest, position 0 of `order`); `offered`
    /// (the core's `valid`): it was already selected in the previous cycle (the core names a
    /// store row a cycle before reading it) and all its beats are in. A register, loaded with
    /// the next cycle's value, so that the core's request valid, at the start of its longest
    /// path (valid -> the units' answers -> `done` -> the next header, the ULX3S top's deepest
    /// by `scripts/logic-depth.py`), starts at a flip-flop, not at the 8:1 `written` select.
    sel_valid: DFF<Bit>,
    sel_entry: DFF<Bits<ENTRY_BITS>>,
    offered: DFF<Bit>,
    /// The selection of the next cycle (`sel_*`'s next values, each written once).
    nx_valid: Signal<Local, Bit>,
    nx_entry: Signal<Local, Bits<ENTRY_BITS>>,
    /// The two candidates for the next cycle's selection and whether each is taken (see the
    /// `hd_*` loads).
    cand_entry: Vec<Signal<Local, Bits<ENTRY_BITS>>>,
    cand_go: Vec<Signal<Local, Bit>>,
    /// The fields that take this cycle's beat (its predicates and flags, and the decode of its
    /// stray bits), per candidate: `done` picks between the two at the last level. (Assigned
    /// inside the candidates' loop, `done` became the first select of a priority chain over the
    /// entries: the board top's deepest path ran the core's `done` through six LUTs here.)
    cand_pred: Vec<Signal<Local, Bits<32>>>,
    cand_misaligned: Vec<Signal<Local, Bits<32>>>,
    cand_out_of_range: Vec<Signal<Local, Bits<32>>>,
    cand_not_built: Vec<Signal<Local, Bit>>,
    /// Per entry, its decode (from its header registers and its flags' next values).
    dec: Vec<RequestDecode>,
    /// The selected entry's header and decode, registered: loaded with the entry selected for
    /// the next cycle (`nx_entry`) at every edge, so that the core reads flip-flops, not the
    /// selection's mux and the decode behind it. Each holds what the entry's own registers
    /// hold in that cycle: a selected entry's header is never rewritten (a header goes into a
    /// free entry), and its predicate and flags are taken at their next values. The tag only
    /// goes into the response register and stays a mux (`h_tag`).
    hd_cta: DFF<Bits<5>>,
    hd_warp: DFF<Bits<5>>,
    hd_op: DFF<Bits<OP_BITS>>,
    hd_sub: DFF<Bits<SUB_BITS>>,
    hd_dtype: DFF<Bits<4>>,
    hd_space: DFF<Bits<2>>,
    hd_flags: DFF<Bits<FLAG_BITS>>,
    hd_vec: DFF<Bits<4>>,
    hd_imm: DFF<Bits<32>>,
    hd_imm2: DFF<Bits<32>>,
    hd_member: DFF<Bits<32>>,
    hd_active: DFF<Bits<32>>,
    hd_live: DFF<Bits<32>>,
    hd_pred: DFF<Bits<32>>,
    hd_misaligned: DFF<Bits<32>>,
    hd_out_of_range: DFF<Bits<32>>,
    hd_is_bar: DFF<Bit>,
    hd_is_mb: DFF<Bit>,
    hd_is_wn: DFF<Bit>,
    hd_is_atom: DFF<Bit>,
    hd_is_copy: DFF<Bit>,
    hd_lsu_size: DFF<Bits<5>>,
    hd_not_built: DFF<Bit>,
    /// Positions 0 and 1 of `order` (the two oldest requests): whether the entry there is held
    /// for its slot's launch.
    pos_held: Vec<Signal<Local, Bit>>,
    /// The next selection, computed from registers for both ends of the core's request:
    /// `pick_*` (the oldest, while none is selected) and `gone_*` (the second oldest, which is
    /// the oldest once the core finishes its request). The core's `done` (the end of its longest
    /// paths) only chooses between them.
    pick_valid: Signal<Local, Bit>,
    pick_entry: Signal<Local, Bits<ENTRY_BITS>>,
    gone_valid: Signal<Local, Bit>,
    gone_entry: Signal<Local, Bits<ENTRY_BITS>>,
    /// The lowest free entry (for the next header), and where the header goes in `order`.
    free_entry: Signal<Local, Bits<ENTRY_BITS>>,
    new_pos: Signal<Local, Bits<COUNT_BITS>>,
    /// The entry receiving beats, and whether a header has been taken whose beats are not all in.
    rx: DFF<Bits<ENTRY_BITS>>,
    rx_busy: DFF<Bit>,
    /// A header is taken this cycle.
    take_hdr: Signal<Local, Bit>,
    // ---- beats ----
    /// The next beat to take.
    beat_next: DFF<Bits<5>>,
    /// The active mask of the lanes not yet taken, beat 0's lanes lowest.
    act_rem: DFF<Bits<32>>,
    /// The beat register: a taken beat, its entry, its row and its lanes' active bits (low L bits).
    bt_valid: DFF<Bit>,
    bt_entry: DFF<Bits<ENTRY_BITS>>,
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
    /// The taken beat's word in its banks, and (B > L) its part of the row; the head entry's
    /// first word (the core's row addresses are added to it).
    beat_word: Signal<Local, Bits<BANK_ADDR_BITS>>,
    beat_part: Signal<Local, Bits<5>>,
    head_word: Signal<Local, Bits<BANK_ADDR_BITS>>,
    /// A beat is taken this cycle.
    take: Signal<Local, Bit>,
    /// The beat's predicate bits accumulated over its lanes (each Local written once: rust-hdl's
    /// simulator keeps a Local read back after its assignment stale).
    pred_bit: Vec<Signal<Local, Bits<32>>>,
    pred_acc: Vec<Signal<Local, Bits<32>>>,
    /// The beat entry's ld/st.shared size, and the beat's lanes whose address faults it
    /// (accumulated as the predicates are).
    bt_size: Signal<Local, Bits<5>>,
    bt_size40: Signal<Local, Bits<40>>,
    mis_bit: Vec<Signal<Local, Bits<32>>>,
    mis_acc: Vec<Signal<Local, Bits<32>>>,
    oor_bit: Vec<Signal<Local, Bits<32>>>,
    oor_acc: Vec<Signal<Local, Bits<32>>>,
    /// Bytes of shared memory per CTA slot (the LSU's range check).
    k_shared_bytes: Constant<Bits<40>>,
    // ---- launches waiting for the slot's older requests (per CTA slot) ----
    lp_valid: DFF<Bits<32>>,
    lp_warps: PerEntry<32>,
    /// Per slot: the entries holding the slot's requests taken before its waiting launch.
    lp_pre: PerEntry<8>,
    /// The entries of the launching slot's requests now (bit e, chained over e).
    pre_bit: Vec<Signal<Local, Bits<8>>>,
    pre_acc: Vec<Signal<Local, Bits<8>>>,
    pre_all: Signal<Local, Bits<8>>,
    /// The launch goes to the core in this cycle (no older request of its slot is held).
    direct: Signal<Local, Bit>,
    fire: DFF<Bit>,
    fire_slot: DFF<Bits<5>>,
    fire_warps: DFF<Bits<32>>,
    /// Bits of `written` / `lp_valid` cleared and set this cycle (each Local written once per path).
    w_clear: Signal<Local, Bits<8>>,
    w_set: Signal<Local, Bits<8>>,
    lp_clear: Signal<Local, Bits<32>>,
    lp_set: Signal<Local, Bits<32>>,
    /// One per queue entry / per CTA slot: their numbers (and `1 << slot`), and the last entry's.
    /// `pos4`: the positions as counts; `entry_bit[e]`: `1 << e`.
    pos4: Vec<Constant<Bits<COUNT_BITS>>>,
    entry_bit: Vec<Constant<Bits<8>>>,
    entry: Vec<Constant<Bits<ENTRY_BITS>>>,
    slot: Vec<Constant<Bits<5>>>,
    slot_bit: Vec<Constant<Bits<32>>>,
    k_entries: Constant<Bits<COUNT_BITS>>,
    /// log2 of an entry's words in a bank (`32 / B`).
    k_entry_shift: Constant<Bits<BANK_ADDR_BITS>>,
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
    _entries: usize,
    _slots: usize,
    /// `cta_slots - 1` and `requests_in_flight - 1`, as one-element ranges' starts (a loop runs
    /// the slots / positions highest first, so that the lowest one's assignment wins).
    _last_slot: usize,
    _last_entry: usize,
    /// Positions of `order` the selection looks at: 2 (1 with a one-entry queue).
    _sel_positions: usize,
}

impl RequestIngress {
    pub fn new(config: &Config) -> Self {
        let l = config.lanes_per_beat as usize;
        assert!(l.is_power_of_two() && l <= WARP, "lanes_per_beat {l} (the config validates it)");
        let beats = beats_per_request(config);
        let banks = operand_row_lanes(config);
        let parts = banks / l;
        let entries = config.requests_in_flight as usize;
        assert!((1..=8).contains(&entries), "requests_in_flight {entries} (the config validates it)");
        let slots = config.cta_slots as usize;
        // An entry's words in a bank, and the bank's address bits: at least 1 (DepthRam's
        // address has one bit or more; B = 32 and one entry use word 0 only).
        let entry_shift = (WARP / banks).trailing_zeros() as usize;
        let word_bits = (entry_shift + entries.next_power_of_two().trailing_zeros() as usize).max(1);
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
            h_lsu_misaligned: Default::default(),
            h_lsu_out_of_range: Default::default(),
            rd_row_am: Default::default(),
            rd_row_a: Default::default(),
            rd_row_bc: Default::default(),
            row_addr: copies(banks),
            row_src: copies(banks),
            row_mbar: copies(banks),
            row_a: copies(banks),
            row_b: copies(banks),
            row_c: copies(banks),
            h_is_bar: Default::default(),
            h_is_mb: Default::default(),
            h_is_wn: Default::default(),
            h_is_atom: Default::default(),
            h_is_copy: Default::default(),
            h_lsu_size: Default::default(),
            h_not_built: Default::default(),
            launch_in: Default::default(),
            launch_slot_in: Default::default(),
            launch_warps_in: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            launch_warps: Default::default(),
            q_tag: copies(entries),
            q_cta: copies(entries),
            q_warp: copies(entries),
            q_op: copies(entries),
            q_sub: copies(entries),
            q_dtype: copies(entries),
            q_space: copies(entries),
            q_flags: copies(entries),
            q_vec: copies(entries),
            q_imm: copies(entries),
            q_imm2: copies(entries),
            q_member: copies(entries),
            q_active: copies(entries),
            q_live: copies(entries),
            q_pred: copies(entries),
            q_misaligned: copies(entries),
            q_out_of_range: copies(entries),
            q_st_src: copies(entries),
            q_st_src_only: copies(entries),
            q_st_a: copies(entries),
            q_st_a_hi: copies(entries),
            q_st_b_hi: copies(entries),
            q_st_c_shfl: copies(entries),
            q_st_c_hi: copies(entries),
            order: copies(entries),
            used: Default::default(),
            count: Default::default(),
            written: Default::default(),
            post_launch: copies(entries),
            sel_valid: Default::default(),
            sel_entry: Default::default(),
            offered: Default::default(),
            nx_valid: Default::default(),
            nx_entry: Default::default(),
            cand_entry: copies(2),
            cand_go: copies(2),
            cand_pred: copies(2),
            cand_misaligned: copies(2),
            cand_out_of_range: copies(2),
            cand_not_built: copies(2),
            dec: copies(entries),
            hd_cta: Default::default(),
            hd_warp: Default::default(),
            hd_op: Default::default(),
            hd_sub: Default::default(),
            hd_dtype: Default::default(),
            hd_space: Default::default(),
            hd_flags: Default::default(),
            hd_vec: Default::default(),
            hd_imm: Default::default(),
            hd_imm2: Default::default(),
            hd_member: Default::default(),
            hd_active: Default::default(),
            hd_live: Default::default(),
            hd_pred: Default::default(),
            hd_misaligned: Default::default(),
            hd_out_of_range: Default::default(),
            hd_is_bar: Default::default(),
            hd_is_mb: Default::default(),
            hd_is_wn: Default::default(),
            hd_is_atom: Default::default(),
            hd_is_copy: Default::default(),
            hd_lsu_size: Default::default(),
            hd_not_built: Default::default(),
            pos_held: copies(entries.min(2)),
            pick_valid: Default::default(),
            pick_entry: Default::default(),
            gone_valid: Default::default(),
            gone_entry: Default::default(),
            free_entry: Default::default(),
            new_pos: Default::default(),
            rx: Default::default(),
            rx_busy: Default::default(),
            take_hdr: Default::default(),
            beat_next: Default::default(),
            act_rem: Default::default(),
            bt_valid: Default::default(),
            bt_entry: Default::default(),
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
            head_word: Default::default(),
            take: Default::default(),
            pred_bit: copies(l),
            pred_acc: copies(l),
            bt_size: Default::default(),
            bt_size40: Default::default(),
            mis_bit: copies(l),
            mis_acc: copies(l),
            oor_bit: copies(l),
            oor_acc: copies(l),
            k_shared_bytes: Constant::new((config.shared_bytes as u64).to_bits()),
            lp_valid: Default::default(),
            lp_warps: copies(slots),
            lp_pre: copies(slots),
            pre_bit: copies(entries),
            pre_acc: copies(entries),
            pre_all: Default::default(),
            direct: Default::default(),
            fire: Default::default(),
            fire_slot: Default::default(),
            fire_warps: Default::default(),
            w_clear: Default::default(),
            w_set: Default::default(),
            lp_clear: Default::default(),
            lp_set: Default::default(),
            pos4: (0..entries as u64).map(|i| Constant::new(i.to_bits())).collect(),
            entry_bit: (0..entries).map(|e| Constant::new((1u64 << e).to_bits())).collect(),
            entry: (0..entries as u64).map(|e| Constant::new(e.to_bits())).collect(),
            slot: (0..slots as u64).map(|c| Constant::new(c.to_bits())).collect(),
            slot_bit: (0..slots).map(|c| Constant::new((1u64 << c).to_bits())).collect(),
            k_entries: Constant::new((entries as u64).to_bits()),
            k_entry_shift: Constant::new((entry_shift as u64).to_bits()),
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
            _entries: entries,
            _slots: slots,
            _last_slot: slots - 1,
            _last_entry: entries - 1,
            _sel_positions: entries.min(2),
        }
    }
}

/// One field's banks of the operand store: block RAM when a bank holds 8 words or more
/// (fpga-small's 4 banks); a shallower one (the default config's 32 banks hold a word per queue
/// entry) is left to synthesis (flip-flops).
fn store_banks<const N: usize>(banks: usize, word_bits: usize) -> Banks<N> {
    let bank = || if (1 << word_bits) >= 8 { DepthRam::block(word_bits) } else { DepthRam::new(word_bits) };
    (0..banks).map(|_| bank()).collect()
}

impl Logic for RequestIngress {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            used,
            count,
            written,
            sel_valid,
            sel_entry,
            offered,
            rx,
            rx_busy,
            beat_next,
            act_rem,
            bt_valid,
            bt_entry,
            bt_row,
            bt_active,
            lp_valid,
            fire,
            fire_slot,
            fire_warps,
            hd_cta,
            hd_warp,
            hd_op,
            hd_sub,
            hd_dtype,
            hd_space,
            hd_flags,
            hd_vec,
            hd_imm,
            hd_imm2,
            hd_member,
            hd_active,
            hd_live,
            hd_pred,
            hd_misaligned,
            hd_out_of_range,
            hd_is_bar,
            hd_is_mb,
            hd_is_wn,
            hd_is_atom,
            hd_is_copy,
            hd_lsu_size,
            hd_not_built
        );
        for e in 0..self._entries {
            self.q_tag[e].clock.next = self.clock.val();
            self.q_cta[e].clock.next = self.clock.val();
            self.q_warp[e].clock.next = self.clock.val();
            self.q_op[e].clock.next = self.clock.val();
            self.q_sub[e].clock.next = self.clock.val();
            self.q_dtype[e].clock.next = self.clock.val();
            self.q_space[e].clock.next = self.clock.val();
            self.q_flags[e].clock.next = self.clock.val();
            self.q_vec[e].clock.next = self.clock.val();
            self.q_imm[e].clock.next = self.clock.val();
            self.q_imm2[e].clock.next = self.clock.val();
            self.q_member[e].clock.next = self.clock.val();
            self.q_active[e].clock.next = self.clock.val();
            self.q_live[e].clock.next = self.clock.val();
            self.q_pred[e].clock.next = self.clock.val();
            self.q_misaligned[e].clock.next = self.clock.val();
            self.q_out_of_range[e].clock.next = self.clock.val();
            self.q_st_src[e].clock.next = self.clock.val();
            self.q_st_src_only[e].clock.next = self.clock.val();
            self.q_st_a[e].clock.next = self.clock.val();
            self.q_st_a_hi[e].clock.next = self.clock.val();
            self.q_st_b_hi[e].clock.next = self.clock.val();
            self.q_st_c_shfl[e].clock.next = self.clock.val();
            self.q_st_c_hi[e].clock.next = self.clock.val();
            self.q_tag[e].d.next = self.q_tag[e].q.val();
            self.q_cta[e].d.next = self.q_cta[e].q.val();
            self.q_warp[e].d.next = self.q_warp[e].q.val();
            self.q_op[e].d.next = self.q_op[e].q.val();
            self.q_sub[e].d.next = self.q_sub[e].q.val();
            self.q_dtype[e].d.next = self.q_dtype[e].q.val();
            self.q_space[e].d.next = self.q_space[e].q.val();
            self.q_flags[e].d.next = self.q_flags[e].q.val();
            self.q_vec[e].d.next = self.q_vec[e].q.val();
            self.q_imm[e].d.next = self.q_imm[e].q.val();
            self.q_imm2[e].d.next = self.q_imm2[e].q.val();
            self.q_member[e].d.next = self.q_member[e].q.val();
            self.q_active[e].d.next = self.q_active[e].q.val();
            self.q_live[e].d.next = self.q_live[e].q.val();
            self.q_pred[e].d.next = self.q_pred[e].q.val();
            self.q_misaligned[e].d.next = self.q_misaligned[e].q.val();
            self.q_out_of_range[e].d.next = self.q_out_of_range[e].q.val();
            self.q_st_src[e].d.next = self.q_st_src[e].q.val();
            self.q_st_src_only[e].d.next = self.q_st_src_only[e].q.val();
            self.q_st_a[e].d.next = self.q_st_a[e].q.val();
            self.q_st_a_hi[e].d.next = self.q_st_a_hi[e].q.val();
            self.q_st_b_hi[e].d.next = self.q_st_b_hi[e].q.val();
            self.q_st_c_shfl[e].d.next = self.q_st_c_shfl[e].q.val();
            self.q_st_c_hi[e].d.next = self.q_st_c_hi[e].q.val();
            self.order[e].clock.next = self.clock.val();
            self.post_launch[e].clock.next = self.clock.val();
            self.order[e].d.next = self.order[e].q.val();
            self.post_launch[e].d.next = self.post_launch[e].q.val();
        }
        for c in 0..self._slots {
            self.lp_warps[c].clock.next = self.clock.val();
            self.lp_pre[c].clock.next = self.clock.val();
            self.lp_warps[c].d.next = self.lp_warps[c].q.val();
            self.lp_pre[c].d.next = self.lp_pre[c].q.val();
        }

        // ---- the operand store: reads (next cycle) and the write port's defaults ----
        self.take.next = self.beat_valid.val() && self.rx_busy.q.val();
        self.beat_word.next = (bit_cast::<BANK_ADDR_BITS, ENTRY_BITS>(self.rx.q.val()) << self.k_entry_shift.val())
            | bit_cast::<BANK_ADDR_BITS, 5>(self.beat_next.q.val() >> self.k_log_parts.val());
        self.beat_part.next = self.beat_next.q.val() & self.k_part_mask.val();
        self.head_word.next =
            bit_cast::<BANK_ADDR_BITS, ENTRY_BITS>(self.sel_entry.q.val()) << self.k_entry_shift.val();
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
            self.ram_addr[i].read_address.next =
                self.head_word.val() | bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_am.val());
            self.ram_src[i].read_address.next =
                self.head_word.val() | bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_am.val());
            self.ram_mbar[i].read_address.next =
                self.head_word.val() | bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_am.val());
            self.ram_a[i].read_address.next = self.head_word.val() | bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_a.val());
            self.ram_b[i].read_address.next =
                self.head_word.val() | bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_bc.val());
            self.ram_c[i].read_address.next =
                self.head_word.val() | bit_cast::<BANK_ADDR_BITS, 5>(self.rd_row_bc.val());
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

        // ---- the core side: the selected entry's registers ----
        self.valid.next = self.offered.q.val();
        self.busy.next = (self.count.q.val() != 0) || (self.lp_valid.q.val() != 0) || self.fire.q.val();
        self.h_tag.next = self.q_tag[0].q.val();
        for e in 1..self._entries {
            if self.sel_entry.q.val() == self.entry[e].val() {
                self.h_tag.next = self.q_tag[e].q.val();
            }
        }
        self.h_cta.next = self.hd_cta.q.val();
        self.h_warp.next = self.hd_warp.q.val();
        self.h_op.next = self.hd_op.q.val();
        self.h_sub.next = self.hd_sub.q.val();
        self.h_dtype.next = self.hd_dtype.q.val();
        self.h_space.next = self.hd_space.q.val();
        self.h_flags.next = self.hd_flags.q.val();
        self.h_vec.next = self.hd_vec.q.val();
        self.h_imm.next = self.hd_imm.q.val();
        self.h_imm2.next = self.hd_imm2.q.val();
        self.h_member.next = self.hd_member.q.val();
        self.h_active.next = self.hd_active.q.val();
        self.h_live.next = self.hd_live.q.val();
        self.h_pred.next = self.hd_pred.q.val();
        self.h_lsu_misaligned.next = self.hd_misaligned.q.val();
        self.h_lsu_out_of_range.next = self.hd_out_of_range.q.val();
        self.h_is_bar.next = self.hd_is_bar.q.val();
        self.h_is_mb.next = self.hd_is_mb.q.val();
        self.h_is_wn.next = self.hd_is_wn.q.val();
        self.h_is_atom.next = self.hd_is_atom.q.val();
        self.h_is_copy.next = self.hd_is_copy.q.val();
        self.h_lsu_size.next = self.hd_lsu_size.q.val();
        self.h_not_built.next = self.hd_not_built.q.val();

        // ---- a launch from the boundary register: the slot's requests held now ----
        // Registers only: an entry the core finishes in this cycle still counts, so that the
        // core's `done` (the end of its longest path) does not reach the launch into the
        // barrier file and shared memory; such a launch waits for `fire` (its `lp_pre` is
        // loaded without the finished entry, below).
        for e in 0..self._entries {
            self.pre_bit[e].next = 0.into();
            if ((self.used.q.val() & self.entry_bit[e].val()) != 0)
                && (self.q_cta[e].q.val() == self.launch_slot_in.val())
            {
                self.pre_bit[e].next = self.entry_bit[e].val();
            }
        }
        self.pre_acc[0].next = self.pre_bit[0].val();
        for e in 1..self._entries {
            self.pre_acc[e].next = self.pre_acc[e - 1].val() | self.pre_bit[e].val();
        }
        // The last entry's accumulator (the loop's last assignment).
        self.pre_all.next = 0.into();
        for e in 0..self._entries {
            self.pre_all.next = self.pre_acc[e].val();
        }
        self.direct.next = self.launch_in.val()
            && (self.pre_all.val() == 0)
            && (((self.lp_valid.q.val() >> self.launch_slot_in.val()) & 1u64) == 0)
            && !self.fire.q.val();
        // ---- header: into the lowest free entry while one is free and no beats are to come ----
        self.req_ready.next = !self.rx_busy.q.val() && (self.count.q.val() != self.k_entries.val());
        self.take_hdr.next =
            self.req_valid.val() && !self.rx_busy.q.val() && (self.count.q.val() != self.k_entries.val());
        self.free_entry.next = 0.into();
        for s in self._last_entry..self._entries {
            for c in 0..self._entries {
                if (self.used.q.val() & self.entry_bit[s - c].val()) == 0 {
                    self.free_entry.next = self.entry[s - c].val();
                }
            }
        }
        if self.take_hdr.val() {
            for e in 0..self._entries {
                if self.free_entry.val() == self.entry[e].val() {
                    self.q_tag[e].d.next = self.req_tag.val();
                    self.q_cta[e].d.next = self.req_cta.val();
                    self.q_warp[e].d.next = self.req_warp.val();
                    self.q_op[e].d.next = self.req_op.val();
                    self.q_sub[e].d.next = self.req_sub.val();
                    self.q_dtype[e].d.next = self.req_dtype.val();
                    self.q_space[e].d.next = self.req_space.val();
                    self.q_flags[e].d.next = self.req_flags.val();
                    self.q_vec[e].d.next = self.req_vec.val();
                    self.q_imm[e].d.next = self.req_imm.val();
                    self.q_imm2[e].d.next = self.req_imm2.val();
                    self.q_member[e].d.next = self.req_member.val();
                    self.q_active[e].d.next = self.req_active.val();
                    self.q_live[e].d.next = self.req_live.val();
                    self.q_pred[e].d.next = 0.into();
                    self.q_misaligned[e].d.next = 0.into();
                    self.q_out_of_range[e].d.next = 0.into();
                    self.q_st_src[e].d.next = false;
                    self.q_st_src_only[e].d.next = false;
                    self.q_st_a[e].d.next = false;
                    self.q_st_a_hi[e].d.next = false;
                    self.q_st_b_hi[e].d.next = false;
                    self.q_st_c_shfl[e].d.next = false;
                    self.q_st_c_hi[e].d.next = false;
                    // After a launch of its slot still waiting (this cycle's launch is older:
                    // it left the port's boundary register a cycle before this header).
                    self.post_launch[e].d.next = ((self.lp_valid.q.val() >> self.req_cta.val()) & 1u64) != 0;
                    if self.launch_in.val() && !self.direct.val() && (self.launch_slot_in.val() == self.req_cta.val()) {
                        self.post_launch[e].d.next = true;
                    }
                }
            }
            self.rx.d.next = self.free_entry.val();
            self.rx_busy.d.next = true;
            self.act_rem.d.next = self.req_active.val();
            self.beat_next.d.next = 0.into();
        }

        // ---- the core's `done`: frees the selected entry, the oldest ----
        self.w_clear.next = 0.into();
        if self.done.val() {
            self.w_clear.next = bit_cast::<8, 1>(1.into()) << self.sel_entry.q.val();
            // the positions after it move down by one
            for i in 1..self._entries {
                self.order[i - 1].d.next = self.order[i].q.val();
            }
        }
        self.new_pos.next = self.count.q.val();
        if self.done.val() {
            self.new_pos.next = self.count.q.val() - 1u64;
        }
        if self.take_hdr.val() {
            for i in 0..self._entries {
                if self.new_pos.val() == self.pos4[i].val() {
                    self.order[i].d.next = self.free_entry.val();
                }
            }
        }
        self.used.d.next = self.used.q.val() & !self.w_clear.val();
        if self.take_hdr.val() {
            self.used.d.next =
                (self.used.q.val() & !self.w_clear.val()) | (bit_cast::<8, 1>(1.into()) << self.free_entry.val());
        }
        if self.take_hdr.val() && !self.done.val() {
            self.count.d.next = self.count.q.val() + 1u64;
        }
        if self.done.val() && !self.take_hdr.val() {
            self.count.d.next = self.count.q.val() - 1u64;
        }

        // ---- the selection: the oldest request, unless it is held for its slot's launch ----
        // Requests go to the core in the order they came: one its unit refuses for now is
        // answered `Retry` and leaves the queue (the sender offers it again), so none waits in
        // it for another. A new selection is made only while none is held or in the cycle the
        // core finishes its request, so the core's request never changes under it.
        for i in 0..self._sel_positions {
            self.pos_held[i].next = false;
            for e in 0..self._entries {
                if self.order[i].q.val() == self.entry[e].val() {
                    self.pos_held[i].next = self.post_launch[e].q.val();
                }
            }
        }
        self.pick_valid.next = (self.pos4[0].val() < self.count.q.val()) && !self.pos_held[0].val();
        self.pick_entry.next = self.order[0].q.val();
        self.gone_valid.next = false;
        self.gone_entry.next = 0.into();
        for i in 1..self._sel_positions {
            self.gone_valid.next = (self.pos4[i].val() < self.count.q.val()) && !self.pos_held[i].val();
            self.gone_entry.next = self.order[i].q.val();
        }
        self.nx_valid.next = self.sel_valid.q.val();
        self.nx_entry.next = self.sel_entry.q.val();
        if !self.sel_valid.q.val() {
            self.nx_valid.next = self.pick_valid.val();
            self.nx_entry.next = self.pick_entry.val();
        }
        if self.done.val() {
            self.nx_valid.next = self.gone_valid.val();
            self.nx_entry.next = self.gone_entry.val();
        }
        self.sel_valid.d.next = self.nx_valid.val();
        self.sel_entry.d.next = self.nx_entry.val();

        // ---- beats: into the beat register ----
        self.beat_ready.next = self.rx_busy.q.val();
        self.bt_valid.d.next = false;
        if self.take.val() {
            self.bt_valid.d.next = true;
            self.bt_entry.d.next = self.rx.q.val();
            self.bt_row.d.next = self.beat_next.q.val();
            self.bt_active.d.next = self.act_rem.q.val();
            self.act_rem.d.next = self.act_rem.q.val() >> self.k_lanes.val();
            self.beat_next.d.next = self.beat_next.q.val() + 1u64;
            if self.beat_next.q.val() == self.k_last_beat.val() {
                self.rx_busy.d.next = false;
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

        // ---- the beat register: predicates and stray bits of its L lanes, into its entry ----
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
        // The LSU's address checks of the beat's lanes, at the entry's access size (sizes are
        // 1..16, others `NotBuilt`: 5 bits hold size - 1 and the offset). The golden LSU tests
        // alignment first (PTX ISA §6.4.1), then the CTA's window.
        self.bt_size.next = self.dec[0].lsu_size.val();
        for e in 1..self._entries {
            if self.bt_entry.q.val() == self.entry[e].val() {
                self.bt_size.next = self.dec[e].lsu_size.val();
            }
        }
        self.bt_size40.next = bit_cast::<40, 5>(self.bt_size.val());
        for i in 0..self._lanes {
            self.mis_bit[i].next = 0.into();
            self.oor_bit[i].next = 0.into();
            if (self.bt_addr[i].q.val().get_bits::<5>(0) & (self.bt_size.val() - 1u64)) != 0 {
                self.mis_bit[i].next = self.lane_bit[i].val();
            }
            if ((self.bt_addr[i].q.val() >> 32u64) != 0)
                || ((self.bt_addr[i].q.val().get_bits::<40>(0) + self.bt_size40.val()) > self.k_shared_bytes.val())
            {
                self.oor_bit[i].next = self.lane_bit[i].val();
            }
        }
        self.mis_acc[0].next = self.mis_bit[0].val();
        self.oor_acc[0].next = self.oor_bit[0].val();
        for i in 1..self._lanes {
            self.mis_acc[i].next = self.mis_acc[i - 1].val() | self.mis_bit[i].val();
            self.oor_acc[i].next = self.oor_acc[i - 1].val() | self.oor_bit[i].val();
        }
        self.w_set.next = 0.into();
        if self.bt_valid.q.val() && (self.bt_row.q.val() == self.k_last_beat.val()) {
            self.w_set.next = bit_cast::<8, 1>(1.into()) << self.bt_entry.q.val();
        }
        self.written.d.next = (self.written.q.val() & !self.w_clear.val()) | self.w_set.val();
        // Offered in the next cycle: kept selected (`sel_*` unchanged, as `done` is low) and
        // written by then (no entry's `written` bit is cleared without a `done`).
        self.offered.d.next = self.sel_valid.q.val()
            && !self.done.val()
            && ((((self.written.q.val() | self.w_set.val()) >> self.sel_entry.q.val()) & 1u64) != 0);
        if self.bt_valid.q.val() {
            for e in 0..self._entries {
                if self.bt_entry.q.val() == self.entry[e].val() {
                    // The last lane's accumulator (the loop's last assignment), at the beat's first lane.
                    for i in 0..self._lanes {
                        self.q_pred[e].d.next = self.q_pred[e].q.val()
                            | (self.pred_acc[i].val()
                                << (bit_cast::<32, 5>(self.bt_row.q.val()) << self.k_log_lanes.val()));
                        self.q_misaligned[e].d.next = self.q_misaligned[e].q.val()
                            | (self.mis_acc[i].val()
                                << (bit_cast::<32, 5>(self.bt_row.q.val()) << self.k_log_lanes.val()));
                        self.q_out_of_range[e].d.next = self.q_out_of_range[e].q.val()
                            | (self.oor_acc[i].val()
                                << (bit_cast::<32, 5>(self.bt_row.q.val()) << self.k_log_lanes.val()));
                    }
                    for i in 0..self._lanes {
                        // A whole-mask AND (not a bit select): bits above L are used, so lint has no
                        // unused bits to report on a narrow beat.
                        if (self.bt_active.q.val() & self.lane_bit[i].val()) != 0 {
                            if (self.bt_src[i].q.val() != 0) || (self.bt_mbar[i].q.val() != 0) {
                                self.q_st_src[e].d.next = true;
                            }
                            if self.bt_src[i].q.val() != 0 {
                                self.q_st_src_only[e].d.next = true;
                            }
                            if self.bt_a[i].q.val() != 0 {
                                self.q_st_a[e].d.next = true;
                            }
                            if self.bt_a[i].q.val().get_bits::<64>(64) != 0 {
                                self.q_st_a_hi[e].d.next = true;
                            }
                            if self.bt_b[i].q.val().get_bits::<64>(64) != 0 {
                                self.q_st_b_hi[e].d.next = true;
                            }
                            if ((self.bt_c[i].q.val() >> 13u64) != 0) || (self.bt_c[i].q.val().get_bits::<3>(5) != 0) {
                                self.q_st_c_shfl[e].d.next = true;
                            }
                            if (self.bt_c[i].q.val() >> 32u64) != 0 {
                                self.q_st_c_hi[e].d.next = true;
                            }
                        }
                    }
                }
            }
        }

        // ---- CTA launches, in order with their slot's requests ----
        // The launch goes to the core in this cycle when no request of its slot is held and no
        // waiting launch goes now; otherwise it waits in its slot's register for the slot's
        // requests held now (`lp_pre`), and goes to the core from `fire` (lowest slot first).
        // The slot's requests taken after it (`post_launch`) wait for it.
        // The slot and warp count are chosen by `fire` (a register; `direct` is never high with
        // it), not by `direct`: the barrier file turns the count into its live-warp mask in
        // parallel with the decision, which only `launch` carries.
        self.launch.next = self.fire.q.val() | self.direct.val();
        self.launch_slot.next = self.launch_slot_in.val();
        self.launch_warps.next = self.launch_warps_in.val();
        if self.fire.q.val() {
            self.launch_slot.next = self.fire_slot.q.val();
            self.launch_warps.next = self.fire_warps.q.val();
        }
        // A launch that reaches the core frees its slot's requests that waited for it.
        for e in 0..self._entries {
            if self.fire.q.val() && (self.q_cta[e].q.val() == self.fire_slot.q.val()) {
                self.post_launch[e].d.next = false;
            }
        }
        self.fire.d.next = false;
        for c in 0..self._slots {
            if self.done.val() {
                self.lp_pre[c].d.next = self.lp_pre[c].q.val() & !self.w_clear.val();
            }
        }
        // Lowest slot first: the slots run highest first and the last assignment wins.
        self.lp_clear.next = 0.into();
        for s in self._last_slot..self._slots {
            for c in 0..self._slots {
                if ((self.lp_valid.q.val() & self.slot_bit[s - c].val()) != 0) && (self.lp_pre[s - c].q.val() == 0) {
                    self.fire.d.next = true;
                    self.fire_slot.d.next = self.slot[s - c].val();
                    self.fire_warps.d.next = self.lp_warps[s - c].q.val();
                    self.lp_clear.next = self.slot_bit[s - c].val();
                }
            }
        }
        self.lp_set.next = 0.into();
        if self.launch_in.val() && !self.direct.val() {
            self.lp_set.next = bit_cast::<32, 1>(1.into()) << self.launch_slot_in.val();
            for c in 0..self._slots {
                if self.launch_slot_in.val() == self.slot[c].val() {
                    self.lp_warps[c].d.next = self.launch_warps_in.val();
                    self.lp_pre[c].d.next = self.pre_all.val() & !self.w_clear.val();
                }
            }
        }
        self.lp_valid.d.next = (self.lp_valid.q.val() & !self.lp_clear.val()) | self.lp_set.val();

        // ---- the next cycle's selected entry: its header and decode into the `hd_*` registers ----
        // After every write of the entries' flags and predicates (their next values are read).
        for e in 0..self._entries {
            self.dec[e].op.next = self.q_op[e].q.val();
            self.dec[e].vec.next = self.q_vec[e].q.val();
            self.dec[e].imm.next = self.q_imm[e].q.val();
            self.dec[e].space.next = self.q_space[e].q.val();
            self.dec[e].stray_src.next = self.q_st_src[e].d.val();
            self.dec[e].stray_src_only.next = self.q_st_src_only[e].d.val();
            self.dec[e].stray_a.next = self.q_st_a[e].d.val();
            self.dec[e].stray_a_hi.next = self.q_st_a_hi[e].d.val();
            self.dec[e].stray_b_hi.next = self.q_st_b_hi[e].d.val();
            self.dec[e].stray_c_shfl.next = self.q_st_c_shfl[e].d.val();
            self.dec[e].stray_c_hi.next = self.q_st_c_hi[e].d.val();
        }
        // The entry kept or newly picked when the core is not done this cycle (`cand_entry[0]`),
        // then the next one when it is (`cand_entry[1]`, taken when `cand_go[1]`, the core's
        // `done`): `done`, the end of the core's longest path, selects between the two loads at
        // the last level (the board top's deepest path ran `done` -> `nx_entry` -> the header
        // muxes and the decode's select -> `hd_*`).
        self.cand_entry[0].next = self.sel_entry.q.val();
        if !self.sel_valid.q.val() {
            self.cand_entry[0].next = self.pick_entry.val();
        }
        self.cand_go[0].next = true;
        self.cand_entry[1].next = self.gone_entry.val();
        self.cand_go[1].next = self.done.val();
        for c in 0..2 {
            if self.cand_go[c].val() {
                for e in 0..self._entries {
                    if self.cand_entry[c].val() == self.entry[e].val() {
                        self.hd_cta.d.next = self.q_cta[e].q.val();
                        self.hd_warp.d.next = self.q_warp[e].q.val();
                        self.hd_op.d.next = self.q_op[e].q.val();
                        self.hd_sub.d.next = self.q_sub[e].q.val();
                        self.hd_dtype.d.next = self.q_dtype[e].q.val();
                        self.hd_space.d.next = self.q_space[e].q.val();
                        self.hd_flags.d.next = self.q_flags[e].q.val();
                        self.hd_vec.d.next = self.q_vec[e].q.val();
                        self.hd_imm.d.next = self.q_imm[e].q.val();
                        self.hd_imm2.d.next = self.q_imm2[e].q.val();
                        self.hd_member.d.next = self.q_member[e].q.val();
                        self.hd_active.d.next = self.q_active[e].q.val();
                        self.hd_live.d.next = self.q_live[e].q.val();
                        self.hd_is_bar.d.next = self.dec[e].is_bar.val();
                        self.hd_is_mb.d.next = self.dec[e].is_mb.val();
                        self.hd_is_wn.d.next = self.dec[e].is_wn.val();
                        self.hd_is_atom.d.next = self.dec[e].is_atom.val();
                        self.hd_is_copy.d.next = self.dec[e].is_copy.val();
                        self.hd_lsu_size.d.next = self.dec[e].lsu_size.val();
                    }
                }
            }
        }
        for c in 0..2 {
            self.cand_pred[c].next = self.hd_pred.q.val();
            self.cand_misaligned[c].next = self.hd_misaligned.q.val();
            self.cand_out_of_range[c].next = self.hd_out_of_range.q.val();
            self.cand_not_built[c].next = self.hd_not_built.q.val();
            for e in 0..self._entries {
                if self.cand_entry[c].val() == self.entry[e].val() {
                    self.cand_pred[c].next = self.q_pred[e].d.val();
                    self.cand_misaligned[c].next = self.q_misaligned[e].d.val();
                    self.cand_out_of_range[c].next = self.q_out_of_range[e].d.val();
                    self.cand_not_built[c].next = self.dec[e].not_built.val();
                }
            }
        }
        self.hd_pred.d.next = self.cand_pred[0].val();
        self.hd_misaligned.d.next = self.cand_misaligned[0].val();
        self.hd_out_of_range.d.next = self.cand_out_of_range[0].val();
        self.hd_not_built.d.next = self.cand_not_built[0].val();
        if self.done.val() {
            self.hd_pred.d.next = self.cand_pred[1].val();
            self.hd_misaligned.d.next = self.cand_misaligned[1].val();
            self.hd_out_of_range.d.next = self.cand_out_of_range[1].val();
            self.hd_not_built.d.next = self.cand_not_built[1].val();
        }
        if self.reset.val() {
            self.used.d.next = 0.into();
            self.count.d.next = 0.into();
            self.written.d.next = 0.into();
            self.sel_valid.d.next = false;
            self.offered.d.next = false;
            self.rx_busy.d.next = false;
            self.bt_valid.d.next = false;
            self.lp_valid.d.next = 0.into();
            self.fire.d.next = false;
        }
    }
}
