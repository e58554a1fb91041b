//! [`Harness`]: the name-addressed, clocked front of a [`Model`] (see the module docs of
//! `smsync_testbench::verilator` for the API walk-through).

use super::builder::{build, build_files, BuildOptions, Built, SourceFile};
use super::history::PortHistory;
use super::model::Model;
use super::{Port, PortDir};
use rust_hdl::prelude::Block;
use std::collections::HashMap;
use std::path::Path;

/// Cycles `reset()` holds the `reset` input high.
pub const RESET_CYCLES: u32 = 2;

/// A Verilated block with ports addressed by name, a clock and a synchronous reset.
pub struct Harness {
    model: Model,
    built: Built,
    index: HashMap<String, usize>,
    clock: Option<usize>,
    reset: Option<usize>,
    /// Inputs changed since the last `eval`: `get` settles first.
    dirty: bool,
    /// The clock was lowered after a rising-edge `eval` without an `eval` of its own (see
    /// [`Harness::tick`]): one is due before the next rising edge.
    low_pending: bool,
    /// The value last driven on each port (inputs only; read back at load): driving the same
    /// value again is skipped, so an unchanged input costs no settle.
    driven: Vec<Vec<u32>>,
    cycle: u64,
    /// VCD time: two steps per cycle (clock high at 2n+1, low at 2n+2).
    time: u64,
    /// Opt-in ring buffer of all port values after each clock ([`Harness::record_history`]).
    history: Option<PortHistory>,
}

impl Harness {
    /// Generate `block`'s Verilog with top module `top`, build (or reuse) the model, load it.
    pub fn from_block<B: Block>(block: &mut B, top: &str, opts: &BuildOptions) -> Result<Harness, String> {
        let verilog = smsync_hdl::common::try_verilog_named(block, top).map_err(|e| e.to_string())?;
        Harness::from_verilog(&verilog, top, opts)
    }

    /// Build (or reuse) the model of module `top` in `verilog`, load it. Port names and widths
    /// are read from the `input`/`output` declarations of `top`.
    pub fn from_verilog(verilog: &str, top: &str, opts: &BuildOptions) -> Result<Harness, String> {
        let ports = smsync_hdl::common::ports_of(verilog, top)
            .ok_or_else(|| format!("module `{top}` not found in the Verilog"))?;
        let built = build(verilog, top, &ports, opts)?;
        Harness::load(built)
    }

    /// Build (or reuse) the model of module `top` of `files` (read together), load it. `ports`
    /// are `top`'s ports (from the generator or a manifest; a wrong list fails the C++ build).
    pub fn from_files(files: &[SourceFile], top: &str, ports: &[Port], opts: &BuildOptions) -> Result<Harness, String> {
        let built = build_files(files, top, ports, opts)?;
        Harness::load(built)
    }

    /// Load an already built model.
    pub fn load(built: Built) -> Result<Harness, String> {
        let model = Model::load(&built)?;
        let index: HashMap<String, usize> = built.ports.iter().enumerate().map(|(i, p)| (p.name.clone(), i)).collect();
        let input = |n: &str| index.get(n).copied().filter(|&i| built.ports[i].dir == PortDir::Input);
        let clock = input("clock");
        let reset = input("reset");
        let driven = (0..model.ports().len()).map(|i| model.get(i)).collect();
        let mut h = Harness {
            model,
            index,
            clock,
            reset,
            dirty: true,
            low_pending: false,
            driven,
            cycle: 0,
            time: 0,
            built,
            history: None,
        };
        h.eval();
        Ok(h)
    }

    /// Build facts: library path, cache hit, build seconds.
    pub fn built(&self) -> &Built {
        &self.built
    }

    pub fn ports(&self) -> &[Port] {
        self.model.ports()
    }

    /// The port called `name`, if any.
    pub fn port(&self, name: &str) -> Option<&Port> {
        self.index.get(name).map(|&i| &self.model.ports()[i])
    }

    /// Width in bits of port `name`.
    pub fn width(&self, name: &str) -> usize {
        self.port_or_panic(name).width
    }

    fn port_or_panic(&self, name: &str) -> &Port {
        self.port(name).unwrap_or_else(|| panic!("{}", self.unknown(name)))
    }

    fn unknown(&self, name: &str) -> String {
        let names: Vec<&str> = self.model.ports().iter().map(|p| p.name.as_str()).collect();
        format!("module `{}` has no port `{name}`; ports: {}", self.built.top, names.join(", "))
    }

    /// Drive input `name` with `value` (least-significant 32-bit word first).
    pub fn try_set(&mut self, name: &str, value: &[u32]) -> Result<(), String> {
        let i = *self.index.get(name).ok_or_else(|| self.unknown(name))?;
        if self.model.ports()[i].dir != PortDir::Input {
            return Err(format!("port `{name}` of `{}` is an output", self.built.top));
        }
        self.set_at(i, value);
        Ok(())
    }

    /// The index of port `name` for the `*_at` accessors (resolve once, outside hot loops).
    pub fn index_of(&self, name: &str) -> Result<usize, String> {
        self.index.get(name).copied().ok_or_else(|| self.unknown(name))
    }

    /// Drive input port `i` (an index from [`Harness::index_of`]; the caller checked it is an
    /// input). Driving the value it already has is a no-op (no settle needed).
    pub fn set_at(&mut self, i: usize, value: &[u32]) {
        let words = self.model.words(i);
        let cur = &mut self.driven[i];
        let mut changed = false;
        for (k, c) in cur.iter_mut().enumerate().take(words) {
            let v = value.get(k).copied().unwrap_or(0);
            if *c != v {
                *c = v;
                changed = true;
            }
        }
        if changed {
            self.model.set(i, cur);
            self.dirty = true;
        }
    }

    /// [`Harness::set_at`] for a port of at most 64 bits.
    pub fn set_u64_at(&mut self, i: usize, value: u64) {
        self.set_at(i, &[value as u32, (value >> 32) as u32])
    }

    /// Read port `i` into `out` (settling first if inputs changed); no allocation.
    pub fn get_at_into(&mut self, i: usize, out: &mut [u32]) {
        if self.dirty {
            self.eval();
        }
        self.model.get_into(i, out)
    }

    /// Read port `i` (at most 64 bits).
    pub fn get_u64_at(&mut self, i: usize) -> u64 {
        let mut w = [0u32; 2];
        if self.model.words(i) == 1 {
            self.get_at_into(i, &mut w[..1]);
        } else {
            self.get_at_into(i, &mut w);
        }
        w[0] as u64 | (w[1] as u64) << 32
    }

    /// Read 1-bit port `i`.
    pub fn get_bit_at(&mut self, i: usize) -> bool {
        self.get_u64_at(i) & 1 == 1
    }

    /// Read port `name` (settling the design first if inputs changed).
    pub fn try_get(&mut self, name: &str) -> Result<Vec<u32>, String> {
        let i = *self.index.get(name).ok_or_else(|| self.unknown(name))?;
        if self.dirty {
            self.eval();
        }
        Ok(self.model.get(i))
    }

    /// [`Harness::try_set`] that panics with the list of ports on a wrong name (a test bug).
    pub fn set(&mut self, name: &str, value: &[u32]) {
        self.try_set(name, value).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Harness::try_get`] that panics with the list of ports on a wrong name (a test bug).
    pub fn get(&mut self, name: &str) -> Vec<u32> {
        self.try_get(name).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Drive a port of at most 64 bits.
    pub fn set_u64(&mut self, name: &str, value: u64) {
        self.set(name, &[value as u32, (value >> 32) as u32])
    }

    /// Read a port of at most 64 bits.
    pub fn get_u64(&mut self, name: &str) -> u64 {
        let w = self.get(name);
        assert!(self.width(name) <= 64, "port `{name}` is {} bits; use get()", self.width(name));
        w[0] as u64 | w.get(1).map_or(0, |&h| (h as u64) << 32)
    }

    /// Drive a 1-bit port.
    pub fn set_bit(&mut self, name: &str, value: bool) {
        self.set(name, &[value as u32])
    }

    pub fn get_bit(&mut self, name: &str) -> bool {
        self.get(name)[0] & 1 == 1
    }

    /// Settle combinational logic for the current inputs.
    pub fn eval(&mut self) {
        self.model.eval();
        self.dirty = false;
        self.low_pending = false;
    }

    /// One clock cycle: settle with the clock low, rising edge, falling edge. After `tick`,
    /// outputs show the new register state (and combinational paths from the current inputs).
    /// Panics if the module has no `clock` input.
    ///
    /// Speed (the cosim's hot loop): every Verilator `eval` re-runs the design's input-driven
    /// combinational logic, which dominates the cost of a cycle for the sync-unit top. So an
    /// untraced model gets two evals per cycle, not four: the settle before the edge is skipped
    /// when nothing changed since the last one, and the falling edge is not evaluated on its
    /// own — the clock is lowered and the next settle (before the next rising edge, or a `get`
    /// after new inputs) evaluates it. That is exact for designs that use only rising edges
    /// (everything rust-hdl generates): lowering the clock changes no register, and the outputs
    /// after the rising-edge eval already show the new state. A traced model keeps all three
    /// evals so that the VCD shows the clock low between edges.
    pub fn tick(&mut self) {
        let clock = self.clock.unwrap_or_else(|| panic!("module `{}` has no `clock` input", self.built.top));
        let traced = self.model.traced();
        if self.dirty || self.low_pending || traced {
            self.eval();
        }
        self.model.trace_dump(self.time);
        self.model.set(clock, &[1]);
        self.model.eval();
        self.time += 1;
        self.model.trace_dump(self.time);
        self.model.set(clock, &[0]);
        if traced {
            self.model.eval();
        } else {
            self.low_pending = true;
        }
        self.time += 1;
        self.dirty = false;
        self.cycle += 1;
        if let Some(history) = &mut self.history {
            let values = (0..self.model.ports().len()).map(|i| self.model.get(i)).collect();
            history.push(self.cycle, values);
        }
    }

    /// Keep the port values of the last `cycles` clocks (sampled after each `tick`) for
    /// [`Harness::write_history_vcd`]; 0 turns recording off. Costs one `get` per port per
    /// cycle, so hot loops leave it off unless a VCD may be wanted.
    pub fn record_history(&mut self, cycles: usize) {
        self.history = (cycles > 0).then(|| PortHistory::new(cycles));
    }

    /// The recorded port history, if recording is on.
    pub fn history(&self) -> Option<&PortHistory> {
        self.history.as_ref()
    }

    /// Write the recorded last cycles as a VCD (see [`PortHistory::to_vcd`]).
    pub fn write_history_vcd(&self, path: &Path) -> Result<(), String> {
        let h = self.history.as_ref().ok_or("port history recording is off (Harness::record_history)")?;
        h.write_vcd(path, &self.built.top, self.model.ports())
    }

    /// `n` clock cycles.
    pub fn ticks(&mut self, n: u32) {
        for _ in 0..n {
            self.tick()
        }
    }

    /// Power cycle: a new instance of the design ([`Model::renew`]: every register and memory
    /// at its initial value) with the inputs driven as before; the cycle count goes on (take
    /// differences). Call [`Harness::reset`] after it as after a load.
    pub fn power_on(&mut self) {
        self.model.renew();
        for (i, port) in self.built.ports.iter().enumerate() {
            if port.dir == PortDir::Input {
                self.model.set(i, &self.driven[i]);
            }
        }
        self.dirty = true;
        self.low_pending = false;
        self.eval();
    }

    /// Synchronous reset: `reset` high for [`RESET_CYCLES`] clocks, then low. A module without a
    /// `reset` input only gets the clocks.
    pub fn reset(&mut self) {
        if let Some(r) = self.reset {
            self.set_at(r, &[1]);
        }
        self.ticks(RESET_CYCLES);
        if let Some(r) = self.reset {
            self.set_at(r, &[0]);
        }
    }

    /// Clock cycles since load.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Write a VCD of everything from now on to `path` (needs `BuildOptions { trace: true, .. }`).
    pub fn trace_to(&mut self, path: &Path) -> Result<(), String> {
        self.model.trace_to(path)
    }

    pub fn trace_flush(&mut self) {
        self.model.trace_flush()
    }

    /// The underlying index-addressed model. Hot loops should prefer [`Harness::index_of`] with
    /// the `*_at` accessors: inputs driven through the model directly bypass the harness's
    /// record of driven values (call [`Harness::eval`] after such a change).
    pub fn model(&mut self) -> &mut Model {
        &mut self.model
    }
}
