//! 8N1 UART receiver and transmitter (rust-hdl). The bit time is `cpb` clock cycles, a
//! constructor parameter: 217 for 115200 baud at 25 MHz, a handful in simulation.

use rust_hdl::prelude::*;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum RxState {
    Idle,
    Start,
    Data,
    Stop,
}

/// Receiver: a two-flop synchroniser on the line, a start bit confirmed in its middle, then
/// each bit sampled in its middle. `valid` pulses for one cycle with `data`; `framing_error`
/// pulses instead when the stop bit is 0.
#[derive(LogicBlock)]
pub struct UartRx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The line (idle high).
    pub line: Signal<In, Bit>,
    pub data: Signal<Out, Bits<8>>,
    pub valid: Signal<Out, Bit>,
    pub framing_error: Signal<Out, Bit>,
    sync1: DFF<Bit>,
    sync2: DFF<Bit>,
    state: DFF<RxState>,
    count: DFF<Bits<16>>,
    bits: DFF<Bits<4>>,
    shift: DFF<Bits<8>>,
    k_bit: Constant<Bits<16>>,
    k_half: Constant<Bits<16>>,
    k_msb: Constant<Bits<8>>,
}

impl UartRx {
    /// `cpb`: clock cycles per bit (2..=65535).
    pub fn new(cpb: u32) -> UartRx {
        assert!((2..=65535).contains(&cpb), "UART: {cpb} cycles per bit outside 2..=65535");
        UartRx {
            clock: Default::default(),
            reset: Default::default(),
            line: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            framing_error: Default::default(),
            sync1: Default::default(),
            sync2: Default::default(),
            state: Default::default(),
            count: Default::default(),
            bits: Default::default(),
            shift: Default::default(),
            // The counters count down to 0, so a period of n cycles loads n - 1.
            k_bit: Constant::new(((cpb - 1) as u64).to_bits()),
            k_half: Constant::new(((cpb / 2 - 1) as u64).to_bits()),
            k_msb: Constant::new(0x80u64.to_bits()),
        }
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sync1, sync2, state, count, bits, shift);
        self.sync1.d.next = self.line.val();
        self.sync2.d.next = self.sync1.q.val();
        self.valid.next = false;
        self.framing_error.next = false;
        self.data.next = self.shift.q.val();
        if self.count.q.val() != 0 {
            self.count.d.next = self.count.q.val() - 1;
        }
        match self.state.q.val() {
            RxState::Idle => {
                if !self.sync2.q.val() {
                    self.state.d.next = RxState::Start;
                    self.count.d.next = self.k_half.val();
                }
            }
            RxState::Start => {
                if self.count.q.val() == 0 {
                    if self.sync2.q.val() {
                        // A glitch, not a start bit.
                        self.state.d.next = RxState::Idle;
                    } else {
                        self.state.d.next = RxState::Data;
                        self.count.d.next = self.k_bit.val();
                        self.bits.d.next = 0.into();
                    }
                }
            }
            RxState::Data => {
                if self.count.q.val() == 0 {
                    if self.sync2.q.val() {
                        self.shift.d.next = (self.shift.q.val() >> 1) | self.k_msb.val();
                    } else {
                        self.shift.d.next = self.shift.q.val() >> 1;
                    }
                    self.count.d.next = self.k_bit.val();
                    self.bits.d.next = self.bits.q.val() + 1;
                    if self.bits.q.val() == 7 {
                        self.state.d.next = RxState::Stop;
                    }
                }
            }
            RxState::Stop => {
                if self.count.q.val() == 0 {
                    self.valid.next = self.sync2.q.val();
                    self.framing_error.next = !self.sync2.q.val();
                    self.state.d.next = RxState::Idle;
                }
            }
        }
        if self.reset.val() {
            self.sync1.d.next = true;
            self.sync2.d.next = true;
            self.state.d.next = RxState::Idle;
            self.count.d.next = 0.into();
        }
    }
}

/// Transmitter: takes `data` when `valid` and `ready` are both high, then shifts out start bit,
/// 8 data bits (LSB first) and stop bit, `cpb` cycles each.
#[derive(LogicBlock)]
pub struct UartTx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub data: Signal<In, Bits<8>>,
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    /// The line (idle high).
    pub line: Signal<Out, Bit>,
    /// Line bits still to send, LSB first (bit 0 is on the line); 0 = idle.
    shift: DFF<Bits<10>>,
    left: DFF<Bits<4>>,
    count: DFF<Bits<16>>,
    k_bit: Constant<Bits<16>>,
    k_stop: Constant<Bits<10>>,
}

impl UartTx {
    pub fn new(cpb: u32) -> UartTx {
        assert!((2..=65535).contains(&cpb), "UART: {cpb} cycles per bit outside 2..=65535");
        UartTx {
            clock: Default::default(),
            reset: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            ready: Default::default(),
            line: Default::default(),
            shift: Default::default(),
            left: Default::default(),
            count: Default::default(),
            k_bit: Constant::new(((cpb - 1) as u64).to_bits()),
            k_stop: Constant::new(0x200u64.to_bits()),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, shift, left, count);
        self.ready.next = self.left.q.val() == 0;
        self.line.next = true;
        if self.left.q.val() != 0 {
            self.line.next = self.shift.q.val().get_bit(0);
            if self.count.q.val() == 0 {
                self.shift.d.next = self.shift.q.val() >> 1;
                self.left.d.next = self.left.q.val() - 1;
                self.count.d.next = self.k_bit.val();
            } else {
                self.count.d.next = self.count.q.val() - 1;
            }
        } else if self.valid.val() {
            // stop bit (1), data, start bit (0)
            self.shift.d.next = (bit_cast::<10, 8>(self.data.val()) << 1) | self.k_stop.val();
            self.left.d.next = 10.into();
            self.count.d.next = self.k_bit.val();
        }
        if self.reset.val() {
            self.left.d.next = 0.into();
        }
    }
}
