//! Board top-levels for the smsync sync unit and the UART host bridge that lets a host drive
//! the unit on a real FPGA board (or on its Verilator simulation) with the same frames.
//!
//! * [`protocol`]: frame codes and layouts, the host half's encoder / decoder, and a
//!   cycle-level 8N1 line model (used by the simulated board);
//! * [`uart`]: the rust-hdl 8N1 receiver and transmitter;
//! * [`bridge`]: the rust-hdl bridge between frames and the `sync_unit` top's ports;
//! * [`pll`]: the PLL divider solver and the vendor PLL primitives as black boxes;
//! * [`board`]: the board shells (ULX3S, Arty A7-100T) and [`board::board_verilog`].
//!
//! A separate crate from `smsync-hdl` so that board edits do not rebuild the cores. See
//! docs/FPGA.md ("Board top-levels and the UART host bridge").

pub mod board;
pub mod bridge;
pub mod pll;
pub mod protocol;
pub mod uart;

pub use board::{board_verilog, core_clock, cycles_per_bit, Board};
