//! smsync testbench: the Verilator binding that turns the generated RTL into a clocked Rust
//! object (`verilator`), the RTL `sync_unit` top as a request/response object (`rtl_unit`, the
//! seed of the cosim backend), and later the lockstep comparator and the conformance corpus.

pub mod cosim;
pub mod fuzz;
pub mod mutate;
pub mod refused;
pub mod rtl_dir;
pub mod rtl_unit;
pub mod top_streams;
pub mod uart_host;
pub mod ub_corpus;
pub mod verilator;
pub mod waiting_lanes;
