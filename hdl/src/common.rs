//! Shared helpers for every RTL block: the port conventions, the encoding table as rust-hdl
//! constants, Verilog generation, and a tiny example block that the tool flow is tested on.
//!
//! # Conventions every unit block follows
//!
//! * `clock: Signal<In, Clock>` drives every flip-flop (rust-hdl's `DFF`, set up with
//!   `dff_setup!`).
//! * `reset: Signal<In, Bit>` is a synchronous, active-high reset. rust-hdl 0.46 flip-flops have
//!   no reset of their own (only an `initial` value), so a block clears its state itself when
//!   `reset` is high. The Verilator harness (`smsync_testbench::verilator`) holds `reset` high
//!   for a few cycles in `reset()`.
//! * Port and field names must not be Verilog keywords (`input`, `output`, `wire`, `reg`, ...):
//!   rust-hdl copies Rust names into the Verilog verbatim.
//! * Counts that come from the runtime `Config` are `Vec`s of sub-blocks; widths are const
//!   generics (a width cannot come from the config at run time).
//!
//! # Numbers come from `smsync_sim::encoding`
//!
//! The decoders must never renumber anything: use the constants below (or `Op::X.code()`
//! directly) instead of literals, so that the manifest, the golden model and the RTL agree by
//! construction.

use rust_hdl::prelude::*;
use smsync_contract::encoding::{DataType, ErrorCode, Op, Unit};

/// Widths of the request op-code, response error-code and request flags fields: the port
/// table's (`smsync_contract::port`).
pub use smsync_contract::port::{ERROR_BITS, FLAG_BITS, OP_BITS};
/// Threads per warp; PTX member masks are 32 bits.
pub const WARP_LANES: usize = 32;

// The const-generic widths above must agree with the table; a change there fails the build here.
const _: () = assert!(Op::BITS == 6 && ErrorCode::BITS == 6);

/// log2 of each data type's size in bytes (`DataType::bytes`), four bits per type code: entry
/// `c` is bits `4c+3..4c` (codes without a type read 0). The atomic ALU and the copy engine look
/// element sizes up in this constant, so no block decodes type codes into sizes by hand.
pub fn dtype_log2_bytes_table() -> Bits<64> {
    const _: () = assert!(DataType::BITS == 4, "16 entries of 4 bits fill the 64-bit table");
    let mut t: u64 = 0;
    for dt in DataType::ALL {
        t |= (dt.bytes().trailing_zeros() as u64) << (4 * dt.code() as u64);
    }
    t.to_bits()
}

/// An op code as a rust-hdl constant of the request's op field.
pub fn op_code(op: Op) -> Bits<OP_BITS> {
    (op.code() as u64).to_bits()
}

/// An error code as a rust-hdl constant of the response's error field.
pub fn error_code(code: ErrorCode) -> Bits<ERROR_BITS> {
    (code.code() as u64).to_bits()
}

/// The op-code range `[first, last]` that belongs to `unit`, derived from `Op::unit` over the
/// whole table (so a new op added to a unit's range moves the decoder with it).
pub fn unit_op_range(unit: Unit) -> Option<(u8, u8)> {
    let codes: Vec<u8> = (0u8..(1 << Op::BITS)).filter(|c| unit_of_code(*c) == unit).collect();
    Some((*codes.first()?, *codes.last()?))
}

/// The unit a raw op code is routed to, defined code by code by `encoding::Op::unit`'s ranges.
/// Codes without an op are routed by range too: the unit then answers `ErrorCode::NotBuilt`
/// or its own "unknown op" error.
pub fn unit_of_code(code: u8) -> Unit {
    match Op::from_code(code) {
        Some(op) => op.unit(),
        // Unassigned codes: take the unit of the nearest assigned code below (ranges are
        // contiguous in the table).
        None => (0..code).rev().find_map(Op::from_code).map(|op| op.unit()).unwrap_or(Unit::BarrierFile),
    }
}

/// Why a block could not be turned into Verilog.
#[derive(Debug, Clone, PartialEq)]
pub struct VerilogError {
    pub module: String,
    pub message: String,
}

impl std::fmt::Display for VerilogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RTL block `{}` is not well formed: {}", self.module, self.message)
    }
}

impl std::error::Error for VerilogError {}

/// Verilog of `block` with the top module named `top` (rust-hdl's convention).
///
/// Panics with rust-hdl's check report if the block is not well formed (an open input, a
/// combinational loop, a write to an input): that is a bug in the block, not bad user input.
/// `smsync gen` uses [`try_verilog_named`] and reports the error instead.
pub fn verilog_of<B: Block>(block: &mut B) -> String {
    try_verilog_named(block, "top").unwrap_or_else(|e| panic!("{e}"))
}

/// Stack size of the thread that builds a top and writes its Verilog ([`on_generator_stack`]).
pub const GENERATOR_STACK_BYTES: usize = 64 << 20;

/// Runs `f` (building a top and generating its Verilog) on a thread with a
/// [`GENERATOR_STACK_BYTES`] stack and returns its result. rust-hdl builds blocks by value and
/// keeps a `Bits` wider than 128 bits inline, so a top with packed 32-lane operand words moves
/// structs of tens of kilobytes through nested constructors: more than a test thread's 2 MiB
/// stack holds for a board top. A panic in `f` is resumed in the caller.
pub fn on_generator_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .name("verilog-generator".into())
            .stack_size(GENERATOR_STACK_BYTES)
            .spawn_scoped(scope, f)
            .expect("spawning the Verilog generator's thread");
        thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Verilog of `block` with the top module named `module`. Submodules are named
/// `module$child` (rust-hdl joins the hierarchy with `$`), so the files of different units can
/// be read into one tool together without name clashes.
pub fn try_verilog_named<B: Block>(block: &mut B, module: &str) -> Result<String, VerilogError> {
    block.connect_all();
    check_all(block).map_err(|e| VerilogError { module: module.into(), message: format!("{e:?}") })?;
    let mut defines = ModuleDefines::default();
    block.accept(module, &mut defines);
    Ok(defines.defines())
}

/// One port of a generated module, as written in the manifest and used by the harness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub dir: PortDir,
    pub width: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortDir {
    Input,
    Output,
}

impl PortDir {
    pub fn as_str(self) -> &'static str {
        match self {
            PortDir::Input => "input",
            PortDir::Output => "output",
        }
    }
}

/// The ports of `module` in Verilog text produced by rust-hdl (`input wire [w-1:0] name;`,
/// `output reg ...`, `output wire ...` declarations in the module body), in declaration order.
/// Returns `None` if the module is not in the text.
pub fn ports_of(verilog: &str, module: &str) -> Option<Vec<Port>> {
    let mut in_module = false;
    let mut ports = Vec::new();
    for line in verilog.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("module ") {
            let name = rest.split(|c: char| c == '(' || c.is_whitespace()).next().unwrap_or("");
            in_module = name == module;
            continue;
        }
        if t.starts_with("endmodule") {
            if in_module {
                return Some(ports);
            }
            continue;
        }
        if !in_module {
            continue;
        }
        let (dir, rest) = if let Some(r) = t.strip_prefix("input ") {
            (PortDir::Input, r)
        } else if let Some(r) = t.strip_prefix("output ") {
            (PortDir::Output, r)
        } else {
            continue;
        };
        let rest = rest.trim_end_matches(';').trim();
        let mut words: Vec<&str> =
            rest.split_whitespace().filter(|w| !matches!(*w, "wire" | "reg" | "signed" | "logic")).collect();
        let Some(name) = words.pop() else { continue };
        let width = match words.iter().find(|w| w.starts_with('[')) {
            Some(range) => {
                let inner = range.trim_start_matches('[').trim_end_matches(']');
                let (hi, lo) = inner.split_once(':')?;
                hi.trim().parse::<usize>().ok()? - lo.trim().parse::<usize>().ok()? + 1
            }
            None => 1,
        };
        ports.push(Port { name: name.to_string(), dir, width });
    }
    None
}

/// The example block the tool flow (Verilog, lint, Verilator build, Rust-driven simulation) is
/// tested on before any unit exists, and forever after as a smoke test of the flow itself.
///
/// A free-running counter with a synchronous reset, an enable, and an "echo" path that
/// registers a wide input (to exercise ports wider than 64 bits in the Verilator binding):
/// * `count` increments each clock while `enable` is high, clears on `reset`;
/// * `echo_out` is `echo_in` delayed by one clock, with the low 16 bits XOR-ed with `count`.
#[derive(Clone, Debug, LogicBlock)]
pub struct ExampleCounter<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub enable: Signal<In, Bit>,
    pub count: Signal<Out, Bits<16>>,
    pub echo_in: Signal<In, Bits<W>>,
    pub echo_out: Signal<Out, Bits<W>>,
    counter: DFF<Bits<16>>,
    echo: DFF<Bits<W>>,
}

impl<const W: usize> Default for ExampleCounter<W> {
    fn default() -> Self {
        assert!(W >= 16, "ExampleCounter needs an echo at least as wide as the counter");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            enable: Default::default(),
            count: Default::default(),
            echo_in: Default::default(),
            echo_out: Default::default(),
            counter: Default::default(),
            echo: Default::default(),
        }
    }
}

impl<const W: usize> Logic for ExampleCounter<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, counter, echo);
        if self.enable.val() {
            self.counter.d.next = self.counter.q.val() + 1;
        }
        if self.reset.val() {
            self.counter.d.next = 0.into();
        }
        self.echo.d.next = self.echo_in.val() ^ bit_cast::<W, 16>(self.counter.q.val());
        self.count.next = self.counter.q.val();
        self.echo_out.next = self.echo.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_counter_verilog_names_its_ports() {
        let mut block = ExampleCounter::<100>::default();
        let text = try_verilog_named(&mut block, "example_counter").unwrap();
        let ports = ports_of(&text, "example_counter").unwrap();
        let by_name = |n: &str| ports.iter().find(|p| p.name == n).cloned().unwrap();
        assert_eq!(by_name("echo_in"), Port { name: "echo_in".into(), dir: PortDir::Input, width: 100 });
        assert_eq!(by_name("count").width, 16);
        assert_eq!(by_name("count").dir, PortDir::Output);
        assert_eq!(by_name("clock").width, 1);
        assert_eq!(ports.len(), 6);
    }

    #[test]
    fn unit_ranges_follow_the_table() {
        assert_eq!(unit_op_range(Unit::BarrierFile), Some((0x00, 0x07)));
        assert_eq!(unit_op_range(Unit::MbarrierAlu), Some((0x08, 0x17)));
        assert_eq!(unit_of_code(Op::Atom.code()), Unit::AtomicAlu);
        assert_eq!(unit_of_code(0x3f), Unit::Lsu);
        assert_eq!(op_code(Op::ShflSync).index(), 0x27);
    }
}
