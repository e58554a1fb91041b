//! Shared memory of the top: every CTA slot's bytes as rows of `R` bytes, one read port and one
//! write port (a 1R1W block RAM), byte write enables.
//!
//! The row is as wide as the widest client: `R = max(16, copy_port_bytes)` bytes, so that a
//! copy-engine beat, an atomic's 16-byte line and an ld/st.shared of up to 16 bytes are each
//! one row access (the mbarrier ALU's 8-byte word is part of a row). The RAM is `R` byte-wide
//! `RAM` widgets sharing the address, so every byte has its own write enable and synthesis maps
//! each to block RAM. Address = {slot, row}: the low `top::shared_addr_bits` bits of the core's
//! `RAM_ADDR_BITS`-bit address (the depth is a count from the config, not a type parameter).
//!
//! Read data is the row at the address presented in the previous cycle (synchronous read), as of
//! before that cycle's write (a row read and written in one cycle reads its old bytes). Who may
//! use the ports in a cycle is decided by the top (`top.rs`, "shared-memory arbitration").
//!
//! # Writes are registered: every RAM is a block RAM
//!
//! A write presented in cycle t is performed at the end of cycle t+1: cycle t reads the row's tag
//! at the write address from a block RAM (`tag_wr`, registered read), cycle t+1 knows whether the
//! row is stale and writes it. The ports behave as if the write were performed at the end of
//! cycle t: a read presented in cycle t+1 of the row being written takes the written bytes from
//! the pending write's registers and the others from the RAM (whose bytes not written are not
//! being written: a byte RAM is written only at its enabled bytes, or all of them when the row is
//! stale, and then the row's other bytes read as zeros), and a write in cycle t+1 to the same row
//! takes the pending write's generation as the row's tag. So no RAM is read at the word it
//! writes at the same edge (each is `no_rw_check`, `DepthRam::block`): the tag store read at the
//! write address was 128 distributed-RAM cells (768 LUT4 positions on fpga-small) and yosys' old-
//! data bypass of the byte RAMs ~500 LUT4.
//!
//! # A CTA launch clears its slot at once: row generations
//!
//! A CTA starts with zeroed shared memory (the golden model's rule; CUDA leaves it undefined).
//! Writing zeros into every row took a launch 1,024 cycles on fpga-small and 3,632 on the
//! default config, the slot's requests waiting meanwhile. Instead each slot has a generation
//! (`GEN_BITS` bits, a register per slot, incremented by a launch in the slot) and each row a
//! tag, the generation of its last write (a tag RAM beside the data: one copy read with the
//! data, one read asynchronously at the write address). A row whose tag is not its slot's
//! generation holds an older CTA's bytes and reads as zeros; a write to such a row writes every
//! byte (zeros where its byte enables are low) and the new tag. When a launch takes a slot's
//! generation round to a value older rows may still hold (`launch_wraps`, one launch in
//! 2^`GEN_BITS` per slot), the top clears the slot by writing zeros into every row as before.
//! Neither the generations nor the RAMs are reset (a reset is not a launch: memory keeps its
//! bytes across it, as before).

use rust_hdl::prelude::*;

use super::top::RAM_ADDR_BITS;
use crate::depth_ram::DepthRam;

/// Bits of a slot's generation and of a row's tag: 4, a clear every 16th launch of a slot (8
/// bits put the fpga-small top at 80.3 % of the ECP5-85F's LUTs, 2.6k LUT4 for the tag RAMs).
pub const GEN_BITS: usize = 4;

#[derive(LogicBlock)]
pub struct SharedMemory<const RD: usize, const R: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<RAM_ADDR_BITS>>,
    /// The row read at `read_address` in the previous cycle.
    pub read_data: Signal<Out, Bits<RD>>,
    pub write_enable: Signal<In, Bit>,
    pub write_address: Signal<In, Bits<RAM_ADDR_BITS>>,
    pub write_data: Signal<In, Bits<RD>>,
    /// Byte `i` of the row is written iff bit `i` is set (and `write_enable`), or the row holds
    /// an older CTA's bytes (every byte is written then, zeros where this bit is low).
    pub write_bytes: Signal<In, Bits<R>>,
    /// A CTA starts in `launch_slot`: its rows read as zeros from the next cycle.
    pub launch: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<5>>,
    /// This launch takes the slot's generation round to 0: rows may hold any tag, so the top
    /// writes zeros into every row of the slot (the walker) before its requests go on.
    pub launch_wraps: Signal<Out, Bit>,
    bytes: Vec<DepthRam<Bits<8>, RAM_ADDR_BITS>>,
    /// The rows' tags: read with the data (`tag_rd`) and at the write address (`tag_wr`, the
    /// cycle before the write is performed); both written alike.
    tag_rd: DepthRam<Bits<GEN_BITS>, RAM_ADDR_BITS>,
    tag_wr: DepthRam<Bits<GEN_BITS>, RAM_ADDR_BITS>,
    /// The pending write (presented last cycle, performed at the end of this one): enable,
    /// address, data, byte enables and its slot's generation then.
    p_we: DFF<Bit>,
    p_wa: DFF<Bits<RAM_ADDR_BITS>>,
    p_wd: DFF<Bits<RD>>,
    p_wb: DFF<Bits<R>>,
    p_gen: DFF<Bits<GEN_BITS>>,
    /// The write performed at the last edge (the pending write then): enable, row, data, byte
    /// enables, generation and whether its row was stale. Two reads of it: `tag_wr` did not
    /// read its tag for the pending write (`t_fwd`: the same row, so its generation is the
    /// row's tag), and the RAM read last cycle did not see it (`r_fwd`, below). Both compare
    /// registers here, not the ports' addresses when presented: those come late in their cycle
    /// (the mbarrier ALU decides in S2 whether it writes, the copy engine's mover whether it
    /// reads), and the compares sit beside the block RAMs' reads here.
    t_we: DFF<Bit>,
    t_wa: DFF<Bits<RAM_ADDR_BITS>>,
    t_wd: DFF<Bits<RD>>,
    t_wb: DFF<Bits<R>>,
    t_gen: DFF<Bits<GEN_BITS>>,
    t_stale: DFF<Bit>,
    t_fwd: Signal<Local, Bit>,
    /// The row read last cycle (the address the RAMs latched).
    ra_q: DFF<Bits<RAM_ADDR_BITS>>,
    /// The pending write's row tag (`tag_wr`'s, or the write before's) and its staleness.
    p_tag: Signal<Local, Bits<GEN_BITS>>,
    p_stale: Signal<Local, Bit>,
    /// The row read last cycle was being written at that edge (the `t_*` write): its written
    /// bytes come from `t_wd` (`r_wsel`), the rest from the RAM (`r_keep`) or zeros (the row
    /// was stale); its tag is then `t_gen`.
    r_fwd: Signal<Local, Bit>,
    r_wsel: Signal<Local, Bits<R>>,
    r_keep: Signal<Local, Bits<R>>,
    /// Byte i of the row read, at its place (0 elsewhere); every byte; a byte's bits.
    rd_byte: Vec<Signal<Local, Bits<RD>>>,
    k_all_bytes: Constant<Bits<R>>,
    k_byte_low: Constant<Bits<RD>>,
    /// Per slot, its generation (not reset).
    generation: Vec<DFF<Bits<GEN_BITS>>>,
    /// The read's slot generation, registered with the read (compared with the tag read).
    rd_gen: DFF<Bits<GEN_BITS>>,
    /// The slot of the read / write address and its generation; the write's row is stale.
    rd_slot: Signal<Local, Bits<5>>,
    wr_slot: Signal<Local, Bits<5>>,
    rd_slot_gen: Signal<Local, Bits<GEN_BITS>>,
    wr_slot_gen: Signal<Local, Bits<GEN_BITS>>,
    /// The row read is the current CTA's (else it reads as zeros).
    rd_fresh: Signal<Local, Bit>,
    /// The row bits of an address (its slot above them), and one constant per slot.
    k_row_bits: Constant<Bits<8>>,
    slot: Vec<Constant<Bits<5>>>,
    k_gen_last: Constant<Bits<GEN_BITS>>,
    byte_wide: Vec<super::top::ZeroExtend<8, RD>>,
    /// The row's write data shifted down to byte i, and its low 8 bits.
    byte_src: Vec<Signal<Local, Bits<RD>>>,
    byte_low: Vec<LowBits<RD, 8>>,
    byte_shift: Vec<Constant<Bits<16>>>,
}

impl<const RD: usize, const R: usize> SharedMemory<RD, R> {
    /// `2^addr_bits` rows (`top::shared_addr_bits`): `slots` CTA slots of `2^row_bits` rows.
    pub fn new(addr_bits: usize, row_bits: usize, slots: usize) -> Self {
        assert_eq!(RD, 8 * R, "SharedMemory<RD, R>: RD must be 8 * R");
        SharedMemory {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_enable: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_bytes: Default::default(),
            launch: Default::default(),
            launch_slot: Default::default(),
            launch_wraps: Default::default(),
            bytes: (0..R).map(|_| DepthRam::block(addr_bits)).collect(),
            tag_rd: DepthRam::block(addr_bits),
            tag_wr: DepthRam::block(addr_bits),
            p_we: Default::default(),
            p_wa: Default::default(),
            p_wd: Default::default(),
            p_wb: Default::default(),
            p_gen: Default::default(),
            t_we: Default::default(),
            t_wa: Default::default(),
            t_wd: Default::default(),
            t_wb: Default::default(),
            t_gen: Default::default(),
            t_stale: Default::default(),
            t_fwd: Default::default(),
            ra_q: Default::default(),
            p_tag: Default::default(),
            p_stale: Default::default(),
            r_fwd: Default::default(),
            r_wsel: Default::default(),
            r_keep: Default::default(),
            rd_byte: (0..R).map(|_| Default::default()).collect(),
            k_all_bytes: Constant::new(Bits::<R>::mask()),
            k_byte_low: Constant::new(0xffu64.to_bits()),
            generation: (0..slots).map(|_| Default::default()).collect(),
            rd_gen: Default::default(),
            rd_slot: Default::default(),
            wr_slot: Default::default(),
            rd_slot_gen: Default::default(),
            wr_slot_gen: Default::default(),
            rd_fresh: Default::default(),
            k_row_bits: Constant::new((row_bits as u64).to_bits()),
            slot: (0..slots as u64).map(|c| Constant::new(c.to_bits())).collect(),
            k_gen_last: Constant::new(((1u64 << GEN_BITS) - 1).to_bits()),
            byte_wide: (0..R).map(|_| Default::default()).collect(),
            byte_src: (0..R).map(|_| Default::default()).collect(),
            byte_low: (0..R).map(|_| Default::default()).collect(),
            byte_shift: (0..R as u64).map(|i| Constant::new((8 * i).to_bits())).collect(),
        }
    }
}

impl<const RD: usize, const R: usize> Logic for SharedMemory<RD, R> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- the slots' generations ----
        self.rd_slot.next = bit_cast::<5, RAM_ADDR_BITS>(self.read_address.val() >> self.k_row_bits.val());
        self.wr_slot.next = bit_cast::<5, RAM_ADDR_BITS>(self.write_address.val() >> self.k_row_bits.val());
        self.rd_slot_gen.next = 0.into();
        self.wr_slot_gen.next = 0.into();
        self.launch_wraps.next = false;
        for c in 0..self.generation.len() {
            self.generation[c].clock.next = self.clock.val();
            self.generation[c].d.next = self.generation[c].q.val();
            if self.rd_slot.val() == self.slot[c].val() {
                self.rd_slot_gen.next = self.generation[c].q.val();
            }
            if self.wr_slot.val() == self.slot[c].val() {
                self.wr_slot_gen.next = self.generation[c].q.val();
            }
            if self.launch.val() && (self.launch_slot.val() == self.slot[c].val()) {
                self.generation[c].d.next = self.generation[c].q.val() + 1u64;
                self.launch_wraps.next = self.generation[c].q.val() == self.k_gen_last.val();
            }
        }
        self.rd_gen.clock.next = self.clock.val();
        self.rd_gen.d.next = self.rd_slot_gen.val();
        // ---- the pending write ----
        dff_setup!(self, clock, p_we, p_wa, p_wd, p_wb, p_gen, t_we, t_wa, t_wd, t_wb, t_gen, t_stale, ra_q);
        self.p_we.d.next = self.write_enable.val();
        self.p_wa.d.next = self.write_address.val();
        self.p_wd.d.next = self.write_data.val();
        self.p_wb.d.next = self.write_bytes.val();
        self.p_gen.d.next = self.wr_slot_gen.val();
        self.t_we.d.next = self.p_we.q.val();
        self.t_wa.d.next = self.p_wa.q.val();
        self.t_wd.d.next = self.p_wd.q.val();
        self.t_wb.d.next = self.p_wb.q.val();
        self.t_gen.d.next = self.p_gen.q.val();
        self.t_fwd.next = self.p_we.q.val() && self.t_we.q.val() && (self.t_wa.q.val() == self.p_wa.q.val());
        // ---- tags ----
        self.tag_rd.read_clock.next = self.clock.val();
        self.tag_rd.write_clock.next = self.clock.val();
        self.tag_wr.read_clock.next = self.clock.val();
        self.tag_wr.write_clock.next = self.clock.val();
        self.tag_rd.read_address.next = self.read_address.val();
        self.tag_wr.read_address.next = self.write_address.val();
        self.tag_rd.write_address.next = self.p_wa.q.val();
        self.tag_wr.write_address.next = self.p_wa.q.val();
        self.tag_rd.write_data.next = self.p_gen.q.val();
        self.tag_wr.write_data.next = self.p_gen.q.val();
        self.tag_rd.write_enable.next = self.p_we.q.val();
        self.tag_wr.write_enable.next = self.p_we.q.val();
        self.p_tag.next = self.tag_wr.read_data.val();
        if self.t_fwd.val() {
            self.p_tag.next = self.t_gen.q.val();
        }
        self.p_stale.next = self.p_tag.val() != self.p_gen.q.val();
        self.t_stale.d.next = self.p_stale.val();
        // ---- data: a stale row's write writes every byte, zeros where not enabled ----
        // The read of last cycle, of the row written at that edge: which bytes it takes from
        // that write and which from the RAM.
        self.ra_q.d.next = self.read_address.val();
        self.r_fwd.next = self.t_we.q.val() && (self.t_wa.q.val() == self.ra_q.q.val());
        self.r_wsel.next = 0.into();
        self.r_keep.next = self.k_all_bytes.val();
        if self.r_fwd.val() {
            self.r_wsel.next = self.t_wb.q.val();
            self.r_keep.next = !self.t_wb.q.val();
            if self.t_stale.q.val() {
                self.r_keep.next = 0.into();
            }
        }
        for i in 0..R {
            self.bytes[i].read_clock.next = self.clock.val();
            self.bytes[i].write_clock.next = self.clock.val();
            self.bytes[i].read_address.next = self.read_address.val();
            self.bytes[i].write_address.next = self.p_wa.q.val();
            self.byte_src[i].next = self.p_wd.q.val() >> self.byte_shift[i].val();
            self.byte_low[i].wide.next = self.byte_src[i].val();
            self.bytes[i].write_data.next = 0.into();
            if self.p_wb.q.val().get_bit(i) {
                self.bytes[i].write_data.next = self.byte_low[i].low.val();
            }
            self.bytes[i].write_enable.next = self.p_we.q.val() && (self.p_wb.q.val().get_bit(i) || self.p_stale.val());
            self.byte_wide[i].narrow.next = self.bytes[i].read_data.val();
        }
        // The row, OR-ed together byte by byte (Verilog: a blocking accumulation in one block),
        // or zeros when it holds an older CTA's bytes.
        self.rd_fresh.next = self.tag_rd.read_data.val() == self.rd_gen.q.val();
        if self.r_fwd.val() {
            self.rd_fresh.next = self.t_gen.q.val() == self.rd_gen.q.val();
        }
        for i in 0..R {
            self.rd_byte[i].next = 0.into();
            if self.r_wsel.val().get_bit(i) {
                self.rd_byte[i].next = (self.t_wd.q.val() >> self.byte_shift[i].val()) & self.k_byte_low.val();
            } else if self.r_keep.val().get_bit(i) {
                self.rd_byte[i].next = self.byte_wide[i].wide.val();
            }
        }
        self.read_data.next = 0.into();
        if self.rd_fresh.val() {
            for i in 0..R {
                self.read_data.next = self.read_data.val() | (self.rd_byte[i].val() << self.byte_shift[i].val());
            }
        }
    }
}

/// The low `W` bits of an `N`-bit value (rust-hdl's `bit_cast` cannot take a loop-indexed
/// operand inside `hdl_gen`).
#[derive(LogicBlock, Default)]
pub struct LowBits<const N: usize, const W: usize> {
    pub wide: Signal<In, Bits<N>>,
    pub low: Signal<Out, Bits<W>>,
}

impl<const N: usize, const W: usize> Logic for LowBits<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.low.next = bit_cast::<W, N>(self.wide.val());
    }
}
