//! smsync testbench: the Verilator binding that turns the generated RTL into a clocked Rust
//! object (`verilator`), and later the RTL `SyncUnit`, the lockstep comparator and the
//! conformance corpus.

pub mod verilator;
