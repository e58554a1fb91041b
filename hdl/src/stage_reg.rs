//! `StageReg<T>`: a pipeline stage register with an enable, or (built with `registered =
//! false`) a plain wire, so that one datapath description serves a pipelined instance and a
//! combinational one. The atomic ALU's element is pipelined; the copy engine's bulk-reduce
//! element, driven by a slow state machine, is the same description with wires.
//!
//! A hand-written Verilog body (like rust-hdl's own `DFF`): `if (en) q <= d;` on the clock,
//! or `q = d` with the clock and enable marked unused (Verilator's documented idiom).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct StageReg<T: Synth> {
    pub clock: Signal<In, Clock>,
    /// The stage moves at this clock edge.
    pub en: Signal<In, Bit>,
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    _registered: bool,
}

impl<T: Synth> StageReg<T> {
    /// A register (`registered`) or a wire.
    pub fn new(registered: bool) -> Self {
        StageReg {
            clock: Default::default(),
            en: Default::default(),
            d: Default::default(),
            q: Default::default(),
            _registered: registered,
        }
    }
}

impl<T: Synth> Logic for StageReg<T> {
    fn update(&mut self) {
        if !self._registered {
            self.q.next = self.d.val();
        } else if self.clock.pos_edge() && self.en.val() {
            self.q.next = self.d.val();
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(if self._registered {
            format!(
                "initial begin\n   q = {:x};\nend\n\nalways @(posedge clock) begin\n   if (en) q <= d;\nend\n",
                T::default().verilog()
            )
        } else {
            "always @(*) q = d;\nwire unused_stage_ports = ^{clock, en};".to_string()
        })
    }
}
