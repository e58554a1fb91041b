//! Driving a rust-hdl block cycle by cycle in its own simulator, without the threaded
//! `Simulation` (the tests own the loop, so a bench model can answer between the edges).

use rust_hdl::prelude::*;

/// Evaluation rounds before a block that keeps changing is declared a combinational loop.
const SETTLE_ROUNDS: usize = 1000;

/// Evaluate the block's logic until no signal changes (a combinational settle); panics on a
/// loop, naming the bound.
pub fn settle<B: Block>(uut: &mut B) {
    for _ in 0..SETTLE_ROUNDS {
        uut.update_all();
        if !uut.has_changed() {
            return;
        }
    }
    panic!("the block did not settle in {SETTLE_ROUNDS} evaluation rounds: combinational loop?");
}

/// One clock edge: `rise` (the clock goes high; flip-flops capture), settle, `after_rise`
/// (outputs of registered models outside the block, e.g. a synchronous RAM's read data),
/// settle, `fall`, settle.
pub fn tick<B: Block>(uut: &mut B, rise: impl Fn(&mut B), fall: impl Fn(&mut B), after_rise: impl Fn(&mut B)) {
    rise(uut);
    settle(uut);
    after_rise(uut);
    settle(uut);
    fall(uut);
    settle(uut);
}
