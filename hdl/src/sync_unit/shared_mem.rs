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
//! Read data is the row at the address presented in the previous cycle (synchronous read). Who
//! may use the ports in a cycle is decided by the top (`top.rs`, "shared-memory arbitration").

use rust_hdl::prelude::*;

use super::top::RAM_ADDR_BITS;
use crate::depth_ram::DepthRam;

#[derive(LogicBlock)]
pub struct SharedMemory<const RD: usize, const R: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<RAM_ADDR_BITS>>,
    /// The row read at `read_address` in the previous cycle.
    pub read_data: Signal<Out, Bits<RD>>,
    pub write_enable: Signal<In, Bit>,
    pub write_address: Signal<In, Bits<RAM_ADDR_BITS>>,
    pub write_data: Signal<In, Bits<RD>>,
    /// Byte `i` of the row is written iff bit `i` is set (and `write_enable`).
    pub write_bytes: Signal<In, Bits<R>>,
    bytes: Vec<DepthRam<Bits<8>, RAM_ADDR_BITS>>,
    byte_wide: Vec<super::top::ZeroExtend<8, RD>>,
    /// The row's write data shifted down to byte i, and its low 8 bits.
    byte_src: Vec<Signal<Local, Bits<RD>>>,
    byte_low: Vec<LowBits<RD, 8>>,
    byte_shift: Vec<Constant<Bits<16>>>,
}

impl<const RD: usize, const R: usize> SharedMemory<RD, R> {
    /// `2^addr_bits` rows (`top::shared_addr_bits`).
    pub fn new(addr_bits: usize) -> Self {
        assert_eq!(RD, 8 * R, "SharedMemory<RD, R>: RD must be 8 * R");
        SharedMemory {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_enable: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_bytes: Default::default(),
            bytes: (0..R).map(|_| DepthRam::new(addr_bits)).collect(),
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
        for i in 0..R {
            self.bytes[i].read_clock.next = self.clock.val();
            self.bytes[i].write_clock.next = self.clock.val();
            self.bytes[i].read_address.next = self.read_address.val();
            self.bytes[i].write_address.next = self.write_address.val();
            self.byte_src[i].next = self.write_data.val() >> self.byte_shift[i].val();
            self.byte_low[i].wide.next = self.byte_src[i].val();
            self.bytes[i].write_data.next = self.byte_low[i].low.val();
            self.bytes[i].write_enable.next = self.write_enable.val() && self.write_bytes.val().get_bit(i);
            self.byte_wide[i].narrow.next = self.bytes[i].read_data.val();
        }
        // The row, OR-ed together byte by byte (Verilog: a blocking accumulation in one block).
        self.read_data.next = 0.into();
        for i in 0..R {
            self.read_data.next = self.read_data.val() | (self.byte_wide[i].wide.val() << self.byte_shift[i].val());
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
