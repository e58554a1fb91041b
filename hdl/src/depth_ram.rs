//! `DepthRam`: rust-hdl's `RAM` widget (one synchronous read port, one write port) whose depth is
//! set when the block is built, from the config, instead of by a const-generic address width.
//!
//! Why: a RAM's depth is a count from the config (CTA slots × rows), and a const generic for it
//! made every block above the RAM one Rust type per depth. The `sync_unit` top was compiled for
//! 14 depths × 6 port widths = 84 types, which was 40 % of the hdl crate's compile time. Here
//! the address port has a fixed width `AW` (the core's address width) and the RAM uses its low
//! `addr_bits` bits, `2^addr_bits` words; the Verilog is the same template as rust-hdl's `RAM`
//! (inferred as block RAM by yosys and vendor tools).
//!
//! Built with [`DepthRam::asynchronous`], the read port answers in the same cycle instead (the
//! word at `read_address` now), which FPGA tools map to distributed (LUT) RAM: for small stores
//! that a register's reader needs within the cycle.

use rust_hdl::prelude::*;
use std::collections::BTreeMap;

#[derive(LogicBlock)]
pub struct DepthRam<D: Synth, const AW: usize> {
    pub read_address: Signal<In, Bits<AW>>,
    pub read_clock: Signal<In, Clock>,
    /// The word at `read_address` (low `addr_bits` bits) of the previous read-clock edge.
    pub read_data: Signal<Out, D>,
    pub write_address: Signal<In, Bits<AW>>,
    pub write_clock: Signal<In, Clock>,
    pub write_data: Signal<In, D>,
    pub write_enable: Signal<In, bool>,
    _addr_bits: usize,
    /// `read_data` follows `read_address` in the same cycle (`read_clock` unused).
    _asynchronous: bool,
    /// Ask synthesis for block RAM (`ram_style = "block"`) whatever the depth, with no
    /// read-during-write check (`no_rw_check`; see [`DepthRam::block`]).
    _block: bool,
    _sim: BTreeMap<u64, D>,
}

impl<D: Synth, const AW: usize> DepthRam<D, AW> {
    /// A RAM of `2^addr_bits` words, zero-initialised in simulation. `addr_bits` must be below
    /// `AW` (the unused high address bits are named in the Verilog so that lint sees them used).
    pub fn new(addr_bits: usize) -> Self {
        assert!((1..AW).contains(&addr_bits), "DepthRam<_, {AW}>: addr_bits {addr_bits} must be in 1..{AW}");
        DepthRam {
            read_address: Default::default(),
            read_clock: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_clock: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _addr_bits: addr_bits,
            _asynchronous: false,
            _block: false,
            _sim: BTreeMap::new(),
        }
    }

    /// As [`DepthRam::new`], with an asynchronous read port: `read_data` is the word at
    /// `read_address` in the same cycle (a word written shows from the cycle after the write);
    /// distributed RAM on an FPGA (`TRELLIS_DPR16X4` on the ECP5). `read_clock` is not used.
    pub fn asynchronous(addr_bits: usize) -> Self {
        DepthRam { _asynchronous: true, ..Self::new(addr_bits) }
    }

    /// As [`DepthRam::new`], marked for block RAM (`ram_style = "block"`): a shallow store (8
    /// or 16 words) that yosys' cost model would put in distributed RAM, on a device whose
    /// block RAMs are mostly free and whose LUTs are not (`DP16KD` on the ECP5). Also marked
    /// `no_rw_check`: the user never uses a word read at the edge that writes it, so synthesis
    /// need not build the old-data bypass (on the ECP5 a register of the write data and a mux
    /// per bit: 2,300 LUT4 and 4,600 flip-flops for the `sync_unit` operand store). Simulation
    /// reads the old word there.
    pub fn block(addr_bits: usize) -> Self {
        DepthRam { _block: true, ..Self::new(addr_bits) }
    }

    fn word_index(&self, address: Bits<AW>) -> u64 {
        address.index() as u64 & ((1u64 << self._addr_bits) - 1)
    }
}

impl<D: Synth, const AW: usize> Logic for DepthRam<D, AW> {
    fn update(&mut self) {
        if !self._asynchronous && self.read_clock.pos_edge() {
            let word = self.word_index(self.read_address.val());
            self.read_data.next = self._sim.get(&word).copied().unwrap_or_default();
        }
        if self.write_clock.pos_edge() && self.write_enable.val() {
            let word = self.word_index(self.write_address.val());
            self._sim.insert(word, self.write_data.val());
        }
        if self._asynchronous {
            let word = self.word_index(self.read_address.val());
            self.read_data.next = self._sim.get(&word).copied().unwrap_or_default();
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let read = if self._asynchronous {
            format!(
                "// Asynchronous read (distributed RAM); the read clock is not used.
wire _unused_read_clock = read_clock;
always @(*) begin
   read_data = mem[read_address[{ab_msb}:0]];
end",
                ab_msb = self._addr_bits - 1
            )
        } else {
            format!(
                "always @(posedge read_clock) begin
   read_data <= mem[read_address[{ab_msb}:0]];
end",
                ab_msb = self._addr_bits - 1
            )
        };
        Verilog::Custom(format!(
            "\
{style}reg[{msb}:0] mem[{last}:0];
// The high address bits select nothing in a RAM of 2^{ab} words.
wire _unused_high_address = &{{1'b0, read_address[{aw_msb}:{ab}], write_address[{aw_msb}:{ab}]}};

{read}

always @(posedge write_clock) begin
   if (write_enable) begin
      mem[write_address[{ab_msb}:0]] <= write_data;
   end
end
",
            style = if self._block { "(* ram_style = \"block\", no_rw_check *)\n" } else { "" },
            msb = D::BITS - 1,
            last = (1u64 << self._addr_bits) - 1,
            ab = self._addr_bits,
            ab_msb = self._addr_bits - 1,
            aw_msb = AW - 1,
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        let mut ports = vec![];
        if !self._asynchronous {
            ports.push(TimingInfo {
                name: "ram_read".into(),
                clock: "read_clock".into(),
                inputs: vec!["read_address".into()],
                outputs: vec!["read_data".into()],
            });
        }
        ports.push(TimingInfo {
            name: "ram_write".into(),
            clock: "write_clock".into(),
            inputs: vec!["write_address".into(), "write_data".into(), "write_enable".into()],
            outputs: vec![],
        });
        ports
    }
}
