//! What every smsync test crate shares, written once:
//!
//! * [`Rng`]: the one seeded stimulus generator (xorshift64*);
//! * [`tier`], [`Campaign`]: how big a random campaign is — the quick tier of `./scripts/test.sh`
//!   (the default, and CI's) or the full tier of `./scripts/test.sh --full` (`SMSYNC_TIER=full`),
//!   with per-campaign `SMSYNC_<NAME>_SEEDS` / `SMSYNC_<NAME>_COUNT` overrides for longer runs;
//! * [`hdl_sim`]: driving a rust-hdl block cycle by cycle (settle, tick) without rust-hdl's
//!   threaded `Simulation`;
//! * [`lint`]: the lint runner of `smsync-rtl-tools` (Verilator `-Wall` + yosys), re-exported.

pub mod campaign;
pub mod hdl_sim;
pub mod rng;

pub use campaign::{count, tier, Campaign, Tier};
pub use rng::Rng;
pub use smsync_rtl_tools::lint;

pub use smsync_rtl_tools::{lint_verilog_text, rtl_tools_skipped, verilator_lint, yosys_check};

/// Lint `verilog` (rust-hdl output holding module `top`) with both gates and panic with the
/// tools' reports if either complains or is missing. `SMSYNC_SKIP_RTL_TOOLS=1` skips it, saying so.
pub fn assert_lint_clean(verilog: &str, top: &str, tag: &str) {
    if rtl_tools_skipped() {
        eprintln!("SMSYNC_SKIP_RTL_TOOLS=1: {top} ({tag}) not linted");
        return;
    }
    if let Err(report) = lint_verilog_text(verilog, top, tag) {
        panic!("{top} ({tag}) is not lint clean:\n{report}");
    }
}
