//! FPGA flow for the generated sync unit: synthesis and place-and-route reports per unit and for
//! the top (`smsync synth`), with the external tools driven one per module:
//!
//! * [`target`]: the devices (ECP5-85F, iCE40 UP5K, Artix-7 estimate) and how their cells count;
//! * [`toolchain`]: the yosys and nextpnr drivers (versions, seeds, time limits, report parsing);
//! * [`regio`]: the registered-I/O wrapper that makes Fmax register-to-register;
//! * [`fit`]: the pre-check that refuses what cannot fit before any tool runs;
//! * [`flow`] and [`report`]: the flow and its JSON / Markdown report;
//! * [`board_flow`]: a board top-level (ULX3S) through synthesis, place-and-route and `ecppack`;
//!
//! The board top-levels and the UART host bridge are in the `smsync-boards` crate (fpga/boards).
//!
//! See docs/FPGA.md for the commands and the results.

pub mod board_flow;
pub mod fit;
pub mod flow;
pub mod regio;
pub mod report;
pub mod target;
pub mod toolchain;
