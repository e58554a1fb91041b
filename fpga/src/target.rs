//! The FPGA targets `smsync synth` knows: device capacity, the yosys synthesis command, the
//! place-and-route tool (if any), and how each family's cells are counted as LUTs / FFs /
//! block RAM / DSP.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Target {
    /// Lattice ECP5 LFE5U-85F (ULX3S 85F: package CABGA381): yosys synth_ecp5 + nextpnr-ecp5.
    Ecp5_85k,
    /// Lattice iCE40 UltraPlus UP5K (package SG48): yosys synth_ice40 + nextpnr-ice40.
    Ice40Up5k,
    /// AMD/Xilinx 7-series (sized against the Artix-7 XC7A100T of the Arty A7-100T): yosys
    /// synth_xilinx only. An ESTIMATE: no place-and-route, no Fmax.
    Xilinx7,
}

/// Device resources, in the units the report uses.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Capacity {
    pub luts: u64,
    pub ffs: u64,
    /// Block RAM primitives (ECP5 DP16KD 18 Kbit, iCE40 SB_RAM40_4K 4 Kbit, Xilinx RAMB36E1).
    pub bram_blocks: f64,
    pub bram_kbit_each: u64,
    pub dsp: u64,
}

/// Which place-and-route flow a target has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pnr {
    Ecp5,
    Ice40,
}

/// Resource counts of one synthesised module.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct Resources {
    pub luts: u64,
    pub ffs: u64,
    /// Block RAM primitives (fractional on Xilinx: a RAMB18E1 is half a RAMB36E1).
    pub bram: f64,
    pub dsp: u64,
}

pub const ALL: [Target; 3] = [Target::Ecp5_85k, Target::Ice40Up5k, Target::Xilinx7];

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Ecp5_85k => "ecp5-85k",
            Target::Ice40Up5k => "ice40-up5k",
            Target::Xilinx7 => "xilinx-7",
        }
    }

    pub fn parse(s: &str) -> Result<Target, String> {
        ALL.iter().copied().find(|t| t.name() == s).ok_or_else(|| {
            format!("unknown target `{s}`; allowed: {}", ALL.iter().map(|t| t.name()).collect::<Vec<_>>().join(", "))
        })
    }

    /// The device the numbers are relative to.
    pub fn device(self) -> &'static str {
        match self {
            Target::Ecp5_85k => "LFE5U-85F-CABGA381 (ULX3S 85F)",
            Target::Ice40Up5k => "iCE40UP5K-SG48",
            Target::Xilinx7 => "XC7A100T (Arty A7-100T), estimate without place-and-route",
        }
    }

    pub fn capacity(self) -> Capacity {
        match self {
            // LFE5U-85F data sheet: 83,640 LUT4 (and as many FFs), 208 EBR x 18 Kbit, 156 18x18 multipliers.
            Target::Ecp5_85k => {
                Capacity { luts: 83_640, ffs: 83_640, bram_blocks: 208.0, bram_kbit_each: 18, dsp: 156 }
            }
            // UP5K: 5,280 LUT4 / FFs, 30 EBR x 4 Kbit, 8 SB_MAC16 (the 4 SPRAMs are not inferred by yosys).
            Target::Ice40Up5k => Capacity { luts: 5_280, ffs: 5_280, bram_blocks: 30.0, bram_kbit_each: 4, dsp: 8 },
            // XC7A100T: 63,400 LUT6, 126,800 FFs, 135 RAMB36 (36 Kbit), 240 DSP48E1.
            Target::Xilinx7 => {
                Capacity { luts: 63_400, ffs: 126_800, bram_blocks: 135.0, bram_kbit_each: 36, dsp: 240 }
            }
        }
    }

    pub fn pnr(self) -> Option<Pnr> {
        match self {
            Target::Ecp5_85k => Some(Pnr::Ecp5),
            Target::Ice40Up5k => Some(Pnr::Ice40),
            Target::Xilinx7 => None,
        }
    }

    /// yosys' black-box declarations of the family's vendor cells (`+/` is yosys' share
    /// directory), read before `hierarchy -check` so that a design instantiating one (the board
    /// tops' PLL) elaborates; the synthesis pass reads the same library again. Only ECP5 has a
    /// board flow here (the Arty top goes through Vivado), so only ECP5 needs it.
    pub fn cell_library(self) -> Option<&'static str> {
        match self {
            Target::Ecp5_85k => Some("+/ecp5/cells_bb.v"),
            Target::Ice40Up5k | Target::Xilinx7 => None,
        }
    }

    /// The yosys synthesis pass for this family (writes the netlist nextpnr reads when `json`).
    ///
    /// The Lattice scripts run up to their `check` step, which is then written out without its
    /// whole-design `autoname`: yosys 0.23's `autoname` is superlinear in the netlist (it kept
    /// the fpga-small atomic ALU's run busy for over 25 of its 50 minutes, docs/FPGA.md). When a
    /// netlist is written for nextpnr (`json`), the flip-flops are named (from the registers
    /// they drive), so nextpnr's critical-path report still names the registers a path starts
    /// and ends at; without one (`--no-pnr`) nothing reads the names, and even the flip-flops'
    /// `autoname` took 228 of the fpga-small atomic ALU's 1,074 s, so it is left out.
    ///
    /// ECP5 maps its logic with ABC9 into LUT4s only (`-abc9 -nowidelut`, the yosys ECP5 guides'
    /// reduced-area setting): on fpga-small ABC9 gives 12–15 % fewer LUTs than the classic `abc`,
    /// and without the PFUMX/L6MUX wide-LUT muxes nextpnr packs the board top into 4.4 % fewer
    /// logic cells (docs/FPGA.md, "Synthesis settings").
    pub fn synth_pass(self, top: &str, json: Option<&str>) -> String {
        let lattice = |synth: &str, ffs: &str| match json {
            Some(j) => format!(
                "{synth} -top {top} -run :check; autoname {ffs}; hierarchy -check; check -noinit; \
                 blackbox =A:whitebox; write_json {j}"
            ),
            None => format!("{synth} -top {top} -run :check; hierarchy -check; check -noinit; blackbox =A:whitebox"),
        };
        let json = json.map(|j| format!(" -json {j}")).unwrap_or_default();
        match self {
            Target::Ecp5_85k => lattice("synth_ecp5 -abc9 -nowidelut", "t:TRELLIS_FF"),
            Target::Ice40Up5k => lattice("synth_ice40", "t:SB_DFF*"),
            // -flatten: one number for the whole module, like the Lattice flows (which flatten by default).
            Target::Xilinx7 => format!("synth_xilinx -flatten -family xc7 -top {top}{json}"),
        }
    }

    /// Turn yosys' `stat` cell histogram into LUTs / FFs / BRAM / DSP for this family.
    pub fn count(self, cells: &BTreeMap<String, u64>) -> Resources {
        let n = |name: &str| cells.get(name).copied().unwrap_or(0);
        let sum_prefix =
            |prefix: &str| cells.iter().filter(|(k, _)| k.starts_with(prefix)).map(|(_, v)| *v).sum::<u64>();
        match self {
            // A CCU2C carry cell is two LUT4s of a slice. A TRELLIS_DPR16X4 (16 x 4 distributed
            // RAM) takes six: two slices' four LUT4s hold the bits, and a third slice's two
            // (TRELLIS_RAMW) carry its write address and data; nextpnr's "Total LUT4s" before
            // packing is exactly this sum (logic + carry + RAM + RAMW LUTs).
            Target::Ecp5_85k => Resources {
                luts: n("LUT4") + 2 * n("CCU2C") + 6 * n("TRELLIS_DPR16X4"),
                ffs: n("TRELLIS_FF"),
                bram: n("DP16KD") as f64,
                dsp: n("MULT18X18D") + n("ALU54B"),
            },
            // SB_CARRY shares the LUT's logic cell, so it is not counted separately.
            Target::Ice40Up5k => Resources {
                luts: n("SB_LUT4"),
                ffs: sum_prefix("SB_DFF"),
                bram: n("SB_RAM40_4K") as f64,
                dsp: n("SB_MAC16"),
            },
            // Distributed RAM and shift registers occupy LUTs: RAM32M/RAM64M 4 each, RAM32X1D/
            // RAM64X1D 2, RAM128X1D 4, SRL16E/SRLC32E 1. MUXF7/MUXF8 and CARRY4 are slice resources, not LUTs.
            Target::Xilinx7 => Resources {
                // INV is a LUT1 once placed.
                luts: (1..=6).map(|i| n(&format!("LUT{i}"))).sum::<u64>()
                    + n("INV")
                    + 4 * (n("RAM32M") + n("RAM64M") + n("RAM128X1D"))
                    + 2 * (n("RAM32X1D") + n("RAM64X1D"))
                    + n("SRL16E")
                    + n("SRLC32E"),
                ffs: n("FDRE") + n("FDSE") + n("FDCE") + n("FDPE"),
                bram: n("RAMB36E1") as f64 + 0.5 * n("RAMB18E1") as f64,
                dsp: n("DSP48E1"),
            },
        }
    }
}
