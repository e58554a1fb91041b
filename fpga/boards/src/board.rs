//! Board top-levels: [`BoardCore`] (reset, UART, host bridge, the `sync_unit` top, LEDs) in the
//! core clock domain, and the two boards' pin shells around it, [`Ulx3sTop`] and [`ArtyTop`],
//! whose port names are the ones in constraints/ulx3s.lpf and constraints/arty-a7-100t.xdc.
//!
//! Clocking: each shell makes the core clock with its FPGA's PLL from the board oscillator
//! (ULX3S: ECP5 EHXPLLL from 25 MHz; Arty: PLLE2_BASE from 100 MHz), at the config's
//! `core_clock_mhz` ([`core_clock`] solves the dividers, crate::pll). The UART bit time is
//! counted in core cycles, and the core stays in reset until the PLL reports lock.

use crate::bridge::HostBridge;
use crate::pll::{self, Ecp5Pll, PllSetting, Xc7Pll};
use crate::uart::{UartRx, UartTx};
use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_hdl::sync_unit::top::SyncUnitTop;

/// Default UART speed.
pub const DEFAULT_BAUD: u32 = 115_200;

/// Core clock cycles per UART bit at `baud` on a `core_hz` clock (rounded to the nearest).
pub fn cycles_per_bit(core_hz: u64, baud: u32) -> u32 {
    let baud = baud.max(1) as u64;
    ((core_hz + baud / 2) / baud).min(u32::MAX as u64) as u32
}

/// Everything of a board top in the core clock domain.
#[derive(LogicBlock)]
pub struct BoardCore<const D: usize, const B: usize, const RD: usize, const R: usize> {
    pub clock: Signal<In, Clock>,
    /// Raw reset request (a button), active high, asynchronous: synchronised here.
    pub ext_reset: Signal<In, Bit>,
    /// The PLL that makes `clock` is locked (asynchronous: synchronised here with the button).
    pub pll_locked: Signal<In, Bit>,
    pub uart_rx: Signal<In, Bit>,
    pub uart_tx: Signal<Out, Bit>,
    /// 0: heartbeat, 1: a host command in progress, 2: an error (framing, overflow, bad
    /// command, or an error response) since the last RESET command.
    pub led: Signal<Out, Bits<3>>,
    /// Power-on reset: counts to 15 after configuration (FPGA flip-flops start at 0).
    por: DFF<Bits<4>>,
    reset_sync1: DFF<Bit>,
    reset_sync2: DFF<Bit>,
    heartbeat: DFF<Bits<25>>,
    board_reset: Signal<Local, Bit>,
    leds: Signal<Local, Bits<3>>,
    rx: UartRx,
    tx: UartTx,
    bridge: HostBridge<D, B>,
    top: SyncUnitTop<D, B, RD, R>,
    /// `lanes_per_beat` (a loop bound).
    _beat_lanes: usize,
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> BoardCore<D, B, RD, R> {
    /// `cpb`: core clock cycles per UART bit.
    pub fn new(config: &Config, cpb: u32) -> Self {
        BoardCore {
            clock: Default::default(),
            ext_reset: Default::default(),
            pll_locked: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led: Default::default(),
            por: Default::default(),
            reset_sync1: Default::default(),
            reset_sync2: Default::default(),
            heartbeat: Default::default(),
            board_reset: Default::default(),
            leds: Default::default(),
            rx: UartRx::new(cpb),
            tx: UartTx::new(cpb),
            bridge: HostBridge::new(config.lanes_per_beat as usize),
            top: SyncUnitTop::new(config),
            _beat_lanes: config.lanes_per_beat as usize,
        }
    }
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> Logic for BoardCore<D, B, RD, R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, por, reset_sync1, reset_sync2, heartbeat);
        if self.por.q.val() != 15 {
            self.por.d.next = self.por.q.val() + 1;
        }
        // Held in reset while the button is pressed or the PLL is not locked.
        self.reset_sync1.d.next = self.ext_reset.val() || !self.pll_locked.val();
        self.reset_sync2.d.next = self.reset_sync1.q.val();
        self.board_reset.next = self.reset_sync2.q.val() || (self.por.q.val() != 15);
        self.heartbeat.d.next = self.heartbeat.q.val() + 1;

        self.rx.clock.next = self.clock.val();
        self.rx.reset.next = self.board_reset.val();
        self.rx.line.next = self.uart_rx.val();
        self.tx.clock.next = self.clock.val();
        self.tx.reset.next = self.board_reset.val();
        self.uart_tx.next = self.tx.line.val();

        self.bridge.clock.next = self.clock.val();
        self.bridge.reset.next = self.board_reset.val();
        self.bridge.rx_valid.next = self.rx.valid.val();
        self.bridge.rx_data.next = self.rx.data.val();
        self.bridge.rx_framing_error.next = self.rx.framing_error.val();
        self.bridge.tx_ready.next = self.tx.ready.val();
        self.tx.valid.next = self.bridge.tx_valid.val();
        self.tx.data.next = self.bridge.tx_data.val();

        self.leds.next = 0.into();
        self.leds.next = self.leds.val().replace_bit(0, self.heartbeat.q.val().get_bit(24));
        self.leds.next = self.leds.val().replace_bit(1, self.bridge.in_flight.val());
        self.leds.next = self.leds.val().replace_bit(2, self.bridge.error_seen.val());
        self.led.next = self.leds.val();

        // bridge <-> sync_unit top
        self.top.clock.next = self.clock.val();
        self.top.reset.next = self.board_reset.val() || self.bridge.core_reset.val();
        self.top.fault_inject.next = false;
        self.top.launch.next = self.bridge.launch.val();
        self.top.launch_slot.next = self.bridge.launch_slot.val();
        self.top.launch_warps.next = self.bridge.launch_warps.val();
        self.top.timeout.next = self.bridge.timeout.val();
        self.top.global_end.next = self.bridge.global_end.val();
        self.bridge.busy.next = self.top.busy.val();
        self.top.req_valid.next = self.bridge.req_valid.val();
        self.bridge.req_ready.next = self.top.req_ready.val();
        self.top.req_tag.next = self.bridge.req_tag.val();
        self.top.req_cta.next = self.bridge.req_cta.val();
        self.top.req_warp.next = self.bridge.req_warp.val();
        self.top.req_op.next = self.bridge.req_op.val();
        self.top.req_sub.next = self.bridge.req_sub.val();
        self.top.req_dtype.next = self.bridge.req_dtype.val();
        self.top.req_space.next = self.bridge.req_space.val();
        self.top.req_flags.next = self.bridge.req_flags.val();
        self.top.req_vec.next = self.bridge.req_vec.val();
        self.top.req_imm.next = self.bridge.req_imm.val();
        self.top.req_imm2.next = self.bridge.req_imm2.val();
        self.top.req_member.next = self.bridge.req_member.val();
        self.top.req_active.next = self.bridge.req_active.val();
        self.top.req_live.next = self.bridge.req_live.val();
        self.top.beat_valid.next = self.bridge.beat_valid.val();
        self.bridge.beat_ready.next = self.top.beat_ready.val();
        for i in 0..self._beat_lanes {
            self.top.beat_addr[i].next = self.bridge.beat_addr[i].val();
            self.top.beat_src[i].next = self.bridge.beat_src[i].val();
            self.top.beat_mbar[i].next = self.bridge.beat_mbar[i].val();
            self.top.beat_a[i].next = self.bridge.beat_a[i].val();
            self.top.beat_b[i].next = self.bridge.beat_b[i].val();
            self.top.beat_c[i].next = self.bridge.beat_c[i].val();
        }
        for i in 0..self._beat_lanes {
            self.bridge.resp_beat_values[i].next = self.top.resp_beat_values[i].val();
        }
        self.bridge.resp_valid.next = self.top.resp_valid.val();
        self.top.resp_ready.next = self.bridge.resp_ready.val();
        self.bridge.resp_has_values.next = self.top.resp_has_values.val();
        self.bridge.resp_beat_valid.next = self.top.resp_beat_valid.val();
        self.top.resp_beat_ready.next = self.bridge.resp_beat_ready.val();
        self.bridge.resp_tag.next = self.top.resp_tag.val();
        self.bridge.resp_cta.next = self.top.resp_cta.val();
        self.bridge.resp_warp.next = self.top.resp_warp.val();
        self.bridge.resp_lanes.next = self.top.resp_lanes.val();
        self.bridge.resp_preds.next = self.top.resp_preds.val();
        self.bridge.resp_error.next = self.top.resp_error.val();
        self.bridge.resp_error_lane.next = self.top.resp_error_lane.val();
        self.bridge.gm_req.next = self.top.gm_req.val();
        self.top.gm_grant.next = self.bridge.gm_grant.val();
        self.bridge.gm_we.next = self.top.gm_we.val();
        self.bridge.gm_addr.next = self.top.gm_addr.val();
        self.bridge.gm_wdata.next = self.top.gm_wdata.val();
        self.bridge.gm_be.next = self.top.gm_be.val();
        self.top.gm_rvalid.next = self.bridge.gm_rvalid.val();
        self.bridge.gm_rready.next = self.top.gm_rready.val();
        self.top.gm_rdata.next = self.bridge.gm_rdata.val();
        self.bridge.ag_req.next = self.top.ag_req.val();
        self.top.ag_grant.next = self.bridge.ag_grant.val();
        self.bridge.ag_we.next = self.top.ag_we.val();
        self.bridge.ag_addr.next = self.top.ag_addr.val();
        self.bridge.ag_wdata.next = self.top.ag_wdata.val();
        self.bridge.ag_be.next = self.top.ag_be.val();
        self.top.ag_rvalid.next = self.bridge.ag_rvalid.val();
        self.top.ag_rdata.next = self.bridge.ag_rdata.val();
        self.bridge.wake_valid.next = self.top.wake_valid.val();
        self.bridge.wake_cta.next = self.top.wake_cta.val();
        self.bridge.wake_warp.next = self.top.wake_warp.val();
        self.bridge.wake_lane.next = self.top.wake_lane.val();
        self.bridge.wake_pred.next = self.top.wake_pred.val();
    }
}

/// ULX3S (ECP5-85F): the core on the EHXPLLL's output from the 25 MHz oscillator; BTN0
/// (active low) resets.
#[derive(LogicBlock)]
pub struct Ulx3sTop<const D: usize, const B: usize, const RD: usize, const R: usize> {
    pub clk_25mhz: Signal<In, Clock>,
    pub btn_n: Signal<In, Bit>,
    /// FTDI TXD: host -> FPGA.
    pub ftdi_txd: Signal<In, Bit>,
    /// FTDI RXD: FPGA -> host.
    pub ftdi_rxd: Signal<Out, Bit>,
    pub led: Signal<Out, Bits<3>>,
    pll: Ecp5Pll,
    core: BoardCore<D, B, RD, R>,
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> Ulx3sTop<D, B, RD, R> {
    pub fn new(config: &Config, pll: PllSetting, cpb: u32) -> Self {
        Ulx3sTop {
            clk_25mhz: Default::default(),
            btn_n: Default::default(),
            ftdi_txd: Default::default(),
            ftdi_rxd: Default::default(),
            led: Default::default(),
            pll: Ecp5Pll::new(pll),
            core: BoardCore::new(config, cpb),
        }
    }
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> Logic for Ulx3sTop<D, B, RD, R> {
    #[hdl_gen]
    fn update(&mut self) {
        self.pll.clock_in.next = self.clk_25mhz.val();
        self.core.clock.next = self.pll.clock_out.val();
        self.core.pll_locked.next = self.pll.locked.val();
        self.core.ext_reset.next = !self.btn_n.val();
        self.core.uart_rx.next = self.ftdi_txd.val();
        self.ftdi_rxd.next = self.core.uart_tx.val();
        self.led.next = self.core.led.val();
    }
}

/// Arty A7-100T: the core on the PLLE2_BASE's output (through a BUFG) from CLK100MHZ; the
/// RESET button `ck_rst` (active low) resets.
#[allow(non_snake_case)]
#[derive(LogicBlock)]
pub struct ArtyTop<const D: usize, const B: usize, const RD: usize, const R: usize> {
    pub CLK100MHZ: Signal<In, Clock>,
    pub ck_rst: Signal<In, Bit>,
    /// USB-UART: host -> FPGA.
    pub uart_txd_in: Signal<In, Bit>,
    /// USB-UART: FPGA -> host.
    pub uart_rxd_out: Signal<Out, Bit>,
    pub led: Signal<Out, Bits<3>>,
    pll: Xc7Pll,
    core: BoardCore<D, B, RD, R>,
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> ArtyTop<D, B, RD, R> {
    pub fn new(config: &Config, pll: PllSetting, cpb: u32) -> Self {
        ArtyTop {
            CLK100MHZ: Default::default(),
            ck_rst: Default::default(),
            uart_txd_in: Default::default(),
            uart_rxd_out: Default::default(),
            led: Default::default(),
            pll: Xc7Pll::new(pll),
            core: BoardCore::new(config, cpb),
        }
    }
}

impl<const D: usize, const B: usize, const RD: usize, const R: usize> Logic for ArtyTop<D, B, RD, R> {
    #[hdl_gen]
    fn update(&mut self) {
        self.pll.clock_in.next = self.CLK100MHZ.val();
        self.core.clock.next = self.pll.clock_out.val();
        self.core.pll_locked.next = self.pll.locked.val();
        self.core.ext_reset.next = !self.ck_rst.val();
        self.core.uart_rx.next = self.uart_txd_in.val();
        self.uart_rxd_out.next = self.core.uart_tx.val();
        self.led.next = self.core.led.val();
    }
}

/// A ULX3S design with nothing but the PLL and a counter: `led[0]` is the PLL's lock (and
/// `btn_n`), `led[1..2]` the counter's top bits (`led[2]` toggles every 2^26 core cycles:
/// about 1.5 s at 25 MHz, so the core clock can be checked by eye). It runs the clocking (PLL,
/// constraints, the board flow) through the real tools while the full top does not fit.
#[derive(LogicBlock)]
pub struct Ulx3sPllCheck {
    pub clk_25mhz: Signal<In, Clock>,
    pub btn_n: Signal<In, Bit>,
    pub led: Signal<Out, Bits<3>>,
    pll: Ecp5Pll,
    count: DFF<Bits<27>>,
}

impl Logic for Ulx3sPllCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.pll.clock_in.next = self.clk_25mhz.val();
        self.count.clock.next = self.pll.clock_out.val();
        self.count.d.next = self.count.q.val() + 1;
        self.led.next = self.count.q.val().get_bits::<3>(24).replace_bit(0, self.pll.locked.val() && self.btn_n.val());
    }
}

/// Verilog of [`Ulx3sPllCheck`] (module `ulx3s_pll_check`) at `config.core_clock_mhz`.
pub fn pll_check_verilog(config: &Config) -> Result<String, String> {
    let clock = core_clock(Board::Ulx3s, config)?;
    let mut top = Ulx3sPllCheck {
        clk_25mhz: Default::default(),
        btn_n: Default::default(),
        led: Default::default(),
        pll: Ecp5Pll::new(clock),
        count: Default::default(),
    };
    smsync_hdl::common::try_verilog_named(&mut top, "ulx3s_pll_check").map_err(|e| e.to_string())
}

/// The supported boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    Ulx3s,
    Arty,
}

impl Board {
    pub const ALL: [Board; 2] = [Board::Ulx3s, Board::Arty];

    pub fn name(self) -> &'static str {
        match self {
            Board::Ulx3s => "ulx3s",
            Board::Arty => "arty",
        }
    }

    /// The generated top module's name (the constraint files refer to its ports).
    pub fn module(self) -> &'static str {
        match self {
            Board::Ulx3s => "ulx3s_top",
            Board::Arty => "arty_top",
        }
    }

    /// The constraint file under constraints/.
    pub fn constraints(self) -> &'static str {
        match self {
            Board::Ulx3s => "ulx3s.lpf",
            Board::Arty => "arty-a7-100t.xdc",
        }
    }

    /// The constraint file's text (embedded, so `smsync gen --board` works outside the repo).
    pub fn constraint_text(self) -> &'static str {
        match self {
            Board::Ulx3s => include_str!("../../../constraints/ulx3s.lpf"),
            Board::Arty => include_str!("../../../constraints/arty-a7-100t.xdc"),
        }
    }

    /// The constraints of a build whose PLL is set to `clock`: the board's file, then a generated
    /// line stating the core clock on the PLL's output (the tools would derive the same from the
    /// PLL's dividers; stating it makes the file say what the design is timed at).
    pub fn constraints_for(self, clock: &PllSetting) -> String {
        let generated = match self {
            // yosys flattens the PLL wrapper `pll`: its output net is `pll.clock_out`.
            Board::Ulx3s => format!("FREQUENCY NET \"pll.clock_out\" {} MHZ;", pll::mhz(clock.fout)),
            Board::Arty => format!(
                "create_generated_clock -name core_clk -source [get_pins pll/pll_i/CLKIN1] -multiply_by {} \
                 -divide_by {} [get_pins pll/pll_i/CLKOUT0];",
                clock.feedback_div,
                clock.input_div * clock.output_div
            ),
        };
        let comment = if self == Board::Ulx3s { "#" } else { "##" };
        format!(
            "{}\n{comment} Generated for this build: the core clock, {}.\n{generated}\n",
            self.constraint_text().trim_end(),
            clock.describe()
        )
    }

    /// The board's oscillator (MHz), the PLL's input.
    pub fn oscillator_mhz(self) -> f64 {
        match self {
            Board::Ulx3s => 25.0,
            Board::Arty => 100.0,
        }
    }

    /// The PLL family of the board's FPGA (the Arty A7-100T is the -1 speed grade).
    pub fn pll_rules(self) -> &'static pll::PllRules {
        match self {
            Board::Ulx3s => &pll::ECP5_EHXPLLL,
            Board::Arty => &pll::XC7_PLLE2_SPEED1,
        }
    }

    pub fn parse(name: &str) -> Result<Board, String> {
        Board::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| format!("unknown board `{name}` (supported: {})", Board::ALL.map(|b| b.name()).join(", ")))
    }
}

/// The PLL setting that makes `config.core_clock_mhz` on `board`, or why it cannot.
pub fn core_clock(board: Board, config: &Config) -> Result<PllSetting, String> {
    pll::solve(board.pll_rules(), board.oscillator_mhz(), config.core_clock_mhz as f64, "core_clock_mhz")
        .map_err(|e| format!("board `{}`: {e}", board.name()))
}

/// Verilog of `board`'s top-level for `config`, its core clock from the PLL at
/// `config.core_clock_mhz` ([`core_clock`]) and `cpb` core cycles per UART bit (see
/// [`cycles_per_bit`]; the simulated board uses a few). The vendor PLL primitive is instantiated,
/// not defined: simulation appends [`pll::SIM_PRIMITIVES`]. The top's shape is a set of const
/// generics; the board tops are instantiated for 8-byte copy ports (the fpga-small shape).
pub fn board_verilog(board: Board, config: &Config, cpb: u32) -> Result<String, String> {
    if config.copy_port_bytes != 8 {
        return Err(format!(
            "board tops are instantiated for copy_port_bytes = 8 (the fpga-small shape); this config has {}",
            config.copy_port_bytes
        ));
    }
    let clock = core_clock(board, config)?;
    if !(2..=65535).contains(&cpb) {
        return Err(format!(
            "UART cycles per bit {cpb} outside 2..=65535 (baud rate too high or too low for the {} MHz core clock)",
            pll::mhz(clock.fout)
        ));
    }
    if smsync_hdl::copy_engine::thread_bits(config) > 15 {
        return Err("the copy engine's thread table needs more than 15 address bits".into());
    }
    let module = board.module();
    smsync_hdl::common::on_generator_stack(|| match board {
        Board::Ulx3s => {
            smsync_hdl::common::try_verilog_named(&mut Ulx3sTop::<64, 8, 128, 16>::new(config, clock, cpb), module)
        }
        Board::Arty => {
            smsync_hdl::common::try_verilog_named(&mut ArtyTop::<64, 8, 128, 16>::new(config, clock, cpb), module)
        }
    })
    .map_err(|e| e.to_string())
}
