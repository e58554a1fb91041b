//! [`SimBoard`]: the ULX3S board top-level (`smsync_boards`) Verilated, with its UART pins
//! driven and sampled cycle by cycle by the 8N1 line model. The board's clock port is
//! `clk_25mhz` (the constraint file's name), so this toggles it itself rather than through
//! `Harness::tick` (which drives a port called `clock`); the cycle count is kept here. The
//! board's EHXPLLL is Verilated from its simulation-only stand-in
//! (`smsync_boards::pll::SIM_PRIMITIVES`: the output is the input clock, lock after 8 cycles),
//! so a board cycle is a core cycle.

use super::BoardLink;
use crate::rtl_unit::build_options;
use crate::verilator::Harness;
use smsync_boards::pll::SIM_PRIMITIVES;
use smsync_boards::protocol::{LineDriver, LineSampler};
use smsync_boards::{board_verilog, Board};
use smsync_sim::config::Config;

/// UART bit time of the simulated board (core cycles). Small, so that frames cost few
/// simulated cycles; the receiver samples mid-bit and works down to 2.
pub const SIM_CYCLES_PER_BIT: u32 = 2;
/// Cycles the host waits for any byte after it last sent something before giving up.
pub const SIM_PATIENCE_CYCLES: u64 = 4_000_000;
/// Cycles per [`BoardLink::exchange`] call at most.
const SLICE: u32 = 2048;

pub struct SimBoard {
    harness: Harness,
    clock: usize,
    rx_pin: usize,
    tx_pin: usize,
    reset_pin: usize,
    line_in: LineDriver,
    line_out: LineSampler,
    cycles: u64,
    last_send: u64,
    /// Debugging: dump a VCD of every signal over this cycle window
    /// (`SMSYNC_UART_SIM_VCD=path:from:to`; builds a traced model).
    vcd_window: Option<(u64, u64)>,
}

impl SimBoard {
    /// Generate the ULX3S top for `config` with `cpb` cycles per bit, build (or load from the
    /// Verilator cache) and power it up.
    pub fn new(config: &Config, cpb: u32) -> Result<SimBoard, String> {
        let board = Board::Ulx3s;
        let verilog = board_verilog(board, config, cpb)? + SIM_PRIMITIVES;
        let vcd = std::env::var("SMSYNC_UART_SIM_VCD").ok();
        let vcd = vcd.as_deref().map(|v| -> Result<(String, u64, u64), String> {
            let parts: Vec<&str> = v.split(':').collect();
            let bad = || format!("SMSYNC_UART_SIM_VCD={v}: expected path:from_cycle:to_cycle");
            match parts[..] {
                [p, a, b] => Ok((p.to_string(), a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?)),
                _ => Err(bad()),
            }
        });
        let vcd = vcd.transpose()?;
        let mut options = build_options();
        options.trace = vcd.is_some();
        let mut harness = Harness::from_verilog(&verilog, board.module(), &options)?;
        if let Some((path, _, _)) = &vcd {
            harness.trace_to(std::path::Path::new(path))?;
        }
        let index = |h: &Harness, name: &str| -> Result<usize, String> {
            h.ports().iter().position(|p| p.name == name).ok_or_else(|| format!("the board top has no port `{name}`"))
        };
        let clock = index(&harness, "clk_25mhz")?;
        let rx_pin = index(&harness, "ftdi_txd")?;
        let tx_pin = index(&harness, "ftdi_rxd")?;
        let reset_pin = index(&harness, "btn_n")?;
        let m = harness.model();
        m.set(rx_pin, &[1]);
        m.set(reset_pin, &[1]);
        m.set(clock, &[0]);
        m.eval();
        let mut b = SimBoard {
            harness,
            clock,
            rx_pin,
            tx_pin,
            reset_pin,
            line_in: LineDriver::new(cpb),
            line_out: LineSampler::new(cpb),
            cycles: 0,
            last_send: 0,
            vcd_window: vcd.map(|(_, a, b)| (a, b)),
        };
        b.clocks(32); // power-on reset
        Ok(b)
    }

    /// One board clock with the host's line level on the RX pin; returns the TX pin after it.
    fn clock_once(&mut self, rx_level: bool) -> bool {
        let dump = self.vcd_window.is_some_and(|(a, b)| (a..b).contains(&self.cycles));
        let t = 2 * self.cycles;
        let m = self.harness.model();
        m.set(self.rx_pin, &[rx_level as u32]);
        m.set(self.clock, &[1]);
        m.eval();
        if dump {
            m.trace_dump(t + 1);
        }
        m.set(self.clock, &[0]);
        m.eval();
        if dump {
            m.trace_dump(t + 2);
            if self.vcd_window.is_some_and(|(_, b)| self.cycles + 1 == b) {
                m.trace_flush();
            }
        }
        self.cycles += 1;
        m.get(self.tx_pin)[0] & 1 == 1
    }

    fn clocks(&mut self, n: u32) {
        for _ in 0..n {
            self.clock_once(true);
        }
    }
}

impl BoardLink for SimBoard {
    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.line_in.send(bytes);
        self.last_send = self.cycles;
        Ok(())
    }

    fn exchange(&mut self, received: &mut Vec<u8>) -> Result<(), String> {
        let start = received.len();
        for _ in 0..SLICE {
            let level = self.line_in.level();
            let tx = self.clock_once(level);
            if let Some(byte) = self.line_out.sample(tx) {
                received.push(byte?);
            }
            // Hand complete characters back once the host has nothing more to say.
            if received.len() > start && self.line_in.idle() {
                break;
            }
        }
        if received.len() == start && self.cycles - self.last_send > SIM_PATIENCE_CYCLES {
            return Err(format!("the board sent nothing for {SIM_PATIENCE_CYCLES} cycles"));
        }
        if received.len() > start {
            self.last_send = self.cycles;
        }
        Ok(())
    }

    fn cycles(&self) -> Option<u64> {
        Some(self.cycles)
    }

    fn reset_pin(&mut self) {
        let m = self.harness.model();
        m.set(self.reset_pin, &[0]);
        self.clocks(4);
        let m = self.harness.model();
        m.set(self.reset_pin, &[1]);
        self.clocks(4);
    }

    fn describe(&self) -> String {
        "simulated ULX3S board top (Verilator, UART line model)".into()
    }
}
