//! The pre-check run before any tool: lower bounds on what a module needs, compared with the
//! device. A module that cannot fit is refused with the reason and the numbers, without spending
//! minutes (or hours, for the Hopper-like default) in yosys and nextpnr to find out.
//!
//! Two bounds, both certain (the real design needs at least this much):
//! * flip-flops: the registered-I/O wrapper puts one FF on every port bit (see [`crate::regio`]);
//! * block RAM (the `sync_unit` top only): shared memory is `cta_slots x shared_bytes` bytes held
//!   in block RAM as eight byte-wide RAMs; yosys maps it to block RAM only (no SPRAM inference on
//!   iCE40, and far beyond any distributed-RAM budget), counting the data bits of each block.

use crate::target::{Capacity, Resources, Target};
use serde::Serialize;
use smsync_sim::config::Config;

#[derive(Clone, Debug, Serialize)]
pub struct FitCheck {
    /// Lower bound on flip-flops (wrapper chain bits; the module's own FFs come on top).
    pub min_ffs: u64,
    /// Lower bound on block-RAM data bits (0 for the unit blocks).
    pub min_ram_bits: u64,
    /// Why it cannot fit; empty when the bounds allow it (it may still fail in place-and-route).
    pub refused: Vec<String>,
}

/// Data bits a block RAM primitive holds at byte width (the parity bits cannot hold the data).
pub fn bram_data_bits(target: Target) -> u64 {
    match target {
        Target::Ecp5_85k => 16 * 1024, // DP16KD as 2048 x 8
        Target::Ice40Up5k => 4 * 1024, // SB_RAM40_4K as 512 x 8
        Target::Xilinx7 => 32 * 1024,  // RAMB36E1 as 4096 x 8
    }
}

/// Pre-check one module: `chain_bits` = registered-I/O wrapper bits, `is_top` = holds shared memory.
pub fn check(target: Target, config: &Config, chain_bits: u64, is_top: bool) -> FitCheck {
    let cap: Capacity = target.capacity();
    let min_ram_bits = if is_top { config.cta_slots as u64 * config.shared_bytes as u64 * 8 } else { 0 };
    let ram_capacity = cap.bram_blocks as u64 * bram_data_bits(target);
    let mut refused = Vec::new();
    if chain_bits > cap.ffs {
        refused.push(format!(
            "registered I/O alone needs {chain_bits} flip-flops (one per port bit), the {} has {}",
            target.device(),
            cap.ffs
        ));
    }
    if min_ram_bits > ram_capacity {
        refused.push(format!(
            "shared memory is {} x {} bytes = {} Kbit, the {} has {} block RAMs x {} Kbit = {} Kbit",
            config.cta_slots,
            config.shared_bytes,
            min_ram_bits / 1024,
            target.device(),
            cap.bram_blocks,
            bram_data_bits(target) / 1024,
            ram_capacity / 1024
        ));
    }
    FitCheck { min_ffs: chain_bits, min_ram_bits, refused }
}

/// After yosys: does the synthesised module (plus its registered-I/O wrapper, `chain_bits` FFs
/// and about one LUT per output bit) exceed the device? Returns the reasons, each with the
/// numbers. nextpnr would stop in packing with a terse message anyway; checking here saves its
/// start-up and says by how much the module is too large.
pub fn check_synthesised(target: Target, synth: &Resources, chain_bits: u64, output_bits: u64) -> Vec<String> {
    let cap = target.capacity();
    let mut over = Vec::new();
    let counted = if chain_bits > 0 { " (module + I/O wrapper)" } else { "" };
    let mut compare = |what: &str, need: f64, have: f64| {
        if need > have {
            over.push(format!(
                "{what}: needs {need}{counted}, the {} has {have} ({:.0}% of the device)",
                target.device(),
                100.0 * need / have
            ));
        }
    };
    compare("LUTs", (synth.luts + output_bits) as f64, cap.luts as f64);
    compare("flip-flops", (synth.ffs + chain_bits) as f64, cap.ffs as f64);
    compare("block RAMs", synth.bram, cap.bram_blocks);
    compare("DSPs", synth.dsp as f64, cap.dsp as f64);
    over
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fpga_small_top_is_refused_on_up5k_with_both_reasons() {
        let c = Config::fpga_small();
        let f = check(Target::Ice40Up5k, &c, 7_700, true);
        assert_eq!(f.min_ram_bits, 2 * 16384 * 8);
        assert_eq!(f.refused.len(), 2, "{:?}", f.refused);
        assert!(f.refused[1].contains("256 Kbit"));
        assert!(check(Target::Ecp5_85k, &c, 7_700, true).refused.is_empty());
    }

    #[test]
    fn hopper_like_shared_memory_does_not_fit_an_ecp5_85f() {
        let f = check(Target::Ecp5_85k, &Config::hopper_like(), 7_700, true);
        assert_eq!(f.refused.len(), 1);
        assert!(f.refused[0].contains("29056 Kbit"), "{}", f.refused[0]);
        // A unit block has no shared memory: only the FF bound applies.
        assert!(check(Target::Ecp5_85k, &Config::hopper_like(), 700, false).refused.is_empty());
    }

    #[test]
    fn a_synthesised_module_over_the_lut_budget_is_named_with_its_numbers() {
        let big = Resources { luts: 83_000, ffs: 5_000, bram: 2.0, dsp: 0 };
        let over = check_synthesised(Target::Ecp5_85k, &big, 1_000, 700);
        assert_eq!(over.len(), 1, "{over:?}");
        assert!(over[0].starts_with("LUTs: needs 83700"), "{}", over[0]);
        assert!(over[0].contains("has 83640"), "{}", over[0]);
        let small = Resources { luts: 2_000, ffs: 600, bram: 0.0, dsp: 0 };
        assert!(check_synthesised(Target::Ecp5_85k, &small, 500, 200).is_empty());
    }
}
