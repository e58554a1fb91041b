//! Width changes that lint clean: `ZeroExtend<N, M>` (N bits to M >= N bits, zeros above) and
//! `Truncate<N, M>` (the low M <= N bits).
//!
//! Why blocks and not `bit_cast`: inside `#[hdl_gen]`, rust-hdl writes `bit_cast::<M, N>(x)` as
//! `(x & M'hff..)`, an expression whose operands have different widths, and Verilator's `-Wall`
//! reports every such cast (WIDTHEXPAND / WIDTHTRUNC). These two blocks carry hand-written
//! Verilog bodies (`{pad, x}` and `x[M-1:0]`) that say exactly what the cast means. In the
//! rust-hdl simulation they are the plain `bit_cast`, so the simulated and generated behaviour
//! are the same function.
//!
//! Use them for the few casts between datapaths of different widths; a slice of a signal
//! (`x.get_bits::<M>(0)`) is already clean when every bit of `x` is used elsewhere.

use rust_hdl::prelude::*;

/// `wide = {(M - N) zero bits, narrow}`.
#[derive(LogicBlock, Default)]
pub struct ZeroExtend<const N: usize, const M: usize> {
    pub narrow: Signal<In, Bits<N>>,
    pub wide: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Logic for ZeroExtend<N, M> {
    fn update(&mut self) {
        self.wide.next = bit_cast::<M, N>(self.narrow.val());
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!(M >= N, "ZeroExtend<{N}, {M}> would narrow");
        Verilog::Custom(if M == N {
            "always @(*) wide = narrow;".to_string()
        } else {
            format!("always @(*) wide = {{{}'d0, narrow}};", M - N)
        })
    }
}

/// `narrow = wide[M-1:0]`; the bits above are dropped on purpose (a `unused_*` wire tells
/// Verilator so, its documented idiom for intentionally unused bits).
#[derive(LogicBlock, Default)]
pub struct Truncate<const N: usize, const M: usize> {
    pub wide: Signal<In, Bits<N>>,
    pub narrow: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Logic for Truncate<N, M> {
    fn update(&mut self) {
        self.narrow.next = bit_cast::<M, N>(self.wide.val());
    }

    fn connect(&mut self) {
        self.narrow.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!(M <= N && M > 0, "Truncate<{N}, {M}> would widen");
        Verilog::Custom(if M == N {
            "always @(*) narrow = wide;".to_string()
        } else {
            format!("always @(*) narrow = wide[{}:0];\nwire unused_high_bits = ^wide[{}:{}];", M - 1, N - 1, M)
        })
    }
}
