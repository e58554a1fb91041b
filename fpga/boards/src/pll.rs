//! The board tops' clock: a vendor PLL primitive instantiated as a black box (the one kind of
//! hand-written Verilog in the project), with its dividers computed here from the board's
//! oscillator and the requested core clock.
//!
//! One solver, [`solve`], for every PLL family; a family is a row of rules ([`PllRules`]): the
//! datasheet's frequency ranges, its three dividers' names and ranges, and where the feedback is
//! taken. Two families are used:
//!
//! * [`ECP5_EHXPLLL`] (ULX3S, LFE5U-85F): Lattice FPGA-TN-02200, "ECP5 and ECP5-5G sysCLOCK
//!   PLL/DLL Design and User Guide", and the ECP5 data sheet FPGA-DS-02012 (PLL timing table).
//!   With the feedback taken from CLKOP (`FEEDBK_PATH = "CLKOP"`):
//!   `Fout = Fin * CLKFB_DIV / CLKI_DIV`, `Fvco = Fout * CLKOP_DIV`, `Fpfd = Fin / CLKI_DIV`.
//! * [`XC7_PLLE2_SPEED1`] (Arty A7-100T, XC7A100T-1): Xilinx UG472 "7 Series FPGAs Clocking
//!   Resources" (PLLE2 attributes) and DS181 (Artix-7 switching characteristics, -1 grade):
//!   `Fvco = Fin * CLKFBOUT_MULT / DIVCLK_DIVIDE`, `Fout = Fvco / CLKOUT0_DIVIDE`,
//!   `Fpfd = Fin / DIVCLK_DIVIDE`.
//!
//! Verilator has no model of either primitive: fpga/boards/sim/primitives_sim_only.v holds a
//! behavioural stand-in for simulation and lint only ([`SIM_PRIMITIVES`]); synthesis gets the
//! instance alone (yosys and Vivado know the cells).

use rust_hdl::prelude::*;

/// A divider (or multiplier) of a PLL: its attribute name on the primitive and its allowed values.
#[derive(Clone, Copy, Debug)]
pub struct Divider {
    pub name: &'static str,
    pub min: u32,
    pub max: u32,
}

/// Where the PLL's feedback divider sits, which decides how the dividers combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feedback {
    /// Fed back from the output (ECP5 `FEEDBK_PATH = "CLKOP"`): Fout = Fin * fb / in,
    /// Fvco = Fout * out.
    FromOutput,
    /// Fed back from the VCO (7-series CLKFBOUT): Fvco = Fin * fb / in, Fout = Fvco / out.
    FromVco,
}

/// One PLL family's rules (every frequency in MHz, ranges inclusive).
#[derive(Clone, Copy, Debug)]
pub struct PllRules {
    pub primitive: &'static str,
    /// Where the numbers come from.
    pub source: &'static str,
    pub fin: (f64, f64),
    pub pfd: (f64, f64),
    pub vco: (f64, f64),
    pub fout: (f64, f64),
    pub input_div: Divider,
    pub feedback_div: Divider,
    pub output_div: Divider,
    pub feedback: Feedback,
}

/// ECP5 EHXPLLL, CLKOP output with CLKOP feedback. Ranges: FPGA-DS-02012 (f_IN 8-400 MHz,
/// f_OUT 3.125-400 MHz, f_VCO 400-800 MHz, f_PFD 3.125-400 MHz); dividers 1-128
/// (FPGA-TN-02200, EHXPLLL attributes).
pub const ECP5_EHXPLLL: PllRules = PllRules {
    primitive: "EHXPLLL",
    source: "Lattice FPGA-TN-02200 / FPGA-DS-02012",
    fin: (8.0, 400.0),
    pfd: (3.125, 400.0),
    vco: (400.0, 800.0),
    fout: (3.125, 400.0),
    input_div: Divider { name: "CLKI_DIV", min: 1, max: 128 },
    feedback_div: Divider { name: "CLKFB_DIV", min: 1, max: 128 },
    output_div: Divider { name: "CLKOP_DIV", min: 1, max: 128 },
    feedback: Feedback::FromOutput,
};

/// 7-series PLLE2_BASE, -1 speed grade. Ranges: DS181 (PLL_FIN 19-800 MHz, PLL_FPFD 19-450 MHz,
/// PLL_FVCO 800-1600 MHz; output 6.25 MHz up to the -1 BUFG limit, 464 MHz); dividers: UG472
/// (DIVCLK_DIVIDE 1-56, CLKFBOUT_MULT 2-64, CLKOUT0_DIVIDE 1-128).
pub const XC7_PLLE2_SPEED1: PllRules = PllRules {
    primitive: "PLLE2_BASE",
    source: "Xilinx UG472 / DS181 (-1 speed grade)",
    fin: (19.0, 800.0),
    pfd: (19.0, 450.0),
    vco: (800.0, 1600.0),
    fout: (6.25, 464.0),
    input_div: Divider { name: "DIVCLK_DIVIDE", min: 1, max: 56 },
    feedback_div: Divider { name: "CLKFBOUT_MULT", min: 2, max: 64 },
    output_div: Divider { name: "CLKOUT0_DIVIDE", min: 1, max: 128 },
    feedback: Feedback::FromVco,
};

/// The achieved frequency may differ from the requested one by this fraction at most (a
/// requested frequency that needs finer steps than the dividers give is refused).
pub const TOLERANCE: f64 = 0.005;

/// A solved PLL setting (frequencies in MHz).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PllSetting {
    pub rules: PllRules,
    pub input_div: u32,
    pub feedback_div: u32,
    pub output_div: u32,
    pub fin: f64,
    pub pfd: f64,
    pub vco: f64,
    pub fout: f64,
}

impl PartialEq for PllRules {
    fn eq(&self, other: &Self) -> bool {
        self.primitive == other.primitive
    }
}

impl PllRules {
    /// (pfd, vco, fout) of one divider choice, by the family's formula.
    fn frequencies(&self, fin: f64, input_div: u32, feedback_div: u32, output_div: u32) -> (f64, f64, f64) {
        let pfd = fin / input_div as f64;
        match self.feedback {
            Feedback::FromOutput => {
                let fout = pfd * feedback_div as f64;
                (pfd, fout * output_div as f64, fout)
            }
            Feedback::FromVco => {
                let vco = pfd * feedback_div as f64;
                (pfd, vco, vco / output_div as f64)
            }
        }
    }
}

fn within((lo, hi): (f64, f64), x: f64) -> bool {
    // The ranges are the datasheet's, inclusive; 1e-9 absorbs the division's rounding.
    x >= lo - 1e-9 && x <= hi + 1e-9
}

/// The divider choice nearest `fout_mhz` with every frequency in range (ties: the VCO nearest
/// the middle of its range), without the tolerance check; `None` if no choice is in range.
fn nearest(rules: &PllRules, fin_mhz: f64, fout_mhz: f64) -> Option<PllSetting> {
    let vco_mid = (rules.vco.0 + rules.vco.1) / 2.0;
    let mut best: Option<PllSetting> = None;
    for i in rules.input_div.min..=rules.input_div.max {
        for f in rules.feedback_div.min..=rules.feedback_div.max {
            for o in rules.output_div.min..=rules.output_div.max {
                let (pfd, vco, fout) = rules.frequencies(fin_mhz, i, f, o);
                if !(within(rules.pfd, pfd) && within(rules.vco, vco) && within(rules.fout, fout)) {
                    continue;
                }
                let better = match &best {
                    None => true,
                    Some(b) => {
                        let (e, eb) = ((fout - fout_mhz).abs(), (b.fout - fout_mhz).abs());
                        e < eb - 1e-9 || (e <= eb + 1e-9 && (vco - vco_mid).abs() < (b.vco - vco_mid).abs() - 1e-9)
                    }
                };
                if better {
                    best = Some(PllSetting {
                        rules: *rules,
                        input_div: i,
                        feedback_div: f,
                        output_div: o,
                        fin: fin_mhz,
                        pfd,
                        vco,
                        fout,
                    });
                }
            }
        }
    }
    best
}

/// The dividers that give `fout_mhz` from `fin_mhz` within every range of `rules`: the nearest
/// achievable frequency, then (among equals) the VCO nearest the middle of its range, as
/// Project Trellis' `ecppll` does. `field` names the setting that asked for the frequency (for
/// the error). An unreachable frequency is an error naming the field, the value and the range.
pub fn solve(rules: &PllRules, fin_mhz: f64, fout_mhz: f64, field: &str) -> Result<PllSetting, String> {
    if !within(rules.fin, fin_mhz) {
        return Err(format!(
            "{}: input clock {fin_mhz} MHz outside its allowed {}..={} MHz ({})",
            rules.primitive, rules.fin.0, rules.fin.1, rules.source
        ));
    }
    if !within(rules.fout, fout_mhz) {
        return Err(format!(
            "{field} = {fout_mhz} MHz is out of range: allowed {}..={} MHz for the {} output ({})",
            rules.fout.0, rules.fout.1, rules.primitive, rules.source
        ));
    }
    let best = nearest(rules, fin_mhz, fout_mhz);
    let best = best.ok_or_else(|| {
        format!(
            "{field} = {fout_mhz} MHz: no {} setting from {fin_mhz} MHz keeps its VCO and PFD in range",
            rules.primitive
        )
    })?;
    if (best.fout - fout_mhz).abs() > TOLERANCE * fout_mhz {
        return Err(format!(
            "{field} = {fout_mhz} MHz is not reachable: the nearest {} output from {fin_mhz} MHz is {} MHz \
             (more than {}% off); reachable whole-MHz values nearby: {}",
            rules.primitive,
            mhz(best.fout),
            TOLERANCE * 100.0,
            reachable_near(rules, fin_mhz, fout_mhz)
        ));
    }
    Ok(best)
}

/// The nearest whole-MHz frequencies below and above `target` that `rules` reach from `fin`
/// (for the error message: the config field is in whole MHz).
fn reachable_near(rules: &PllRules, fin: f64, target: f64) -> String {
    let reachable = |n: u32| {
        let target = n as f64;
        within(rules.fout, target)
            && nearest(rules, fin, target).is_some_and(|b| (b.fout - target).abs() <= TOLERANCE * target)
    };
    let below = (1..=target.floor() as u32).rev().take(64).find(|&n| reachable(n));
    let above = (target.ceil() as u32..=rules.fout.1 as u32).take(64).find(|&n| reachable(n));
    let found: Vec<String> = [below, above].into_iter().flatten().map(|n| n.to_string()).collect();
    if found.is_empty() {
        "none within 64 MHz".into()
    } else {
        found.join(", ")
    }
}

impl PllSetting {
    /// The achieved output frequency in Hz (rounded).
    pub fn fout_hz(&self) -> u64 {
        (self.fout * 1e6).round() as u64
    }

    /// One line for reports and generated headers.
    pub fn describe(&self) -> String {
        format!(
            "{} {} MHz -> {} MHz ({} = {}, {} = {}, {} = {}; VCO {} MHz, PFD {} MHz)",
            self.rules.primitive,
            mhz(self.fin),
            mhz(self.fout),
            self.rules.input_div.name,
            self.input_div,
            self.rules.feedback_div.name,
            self.feedback_div,
            self.rules.output_div.name,
            self.output_div,
            mhz(self.vco),
            mhz(self.pfd)
        )
    }
}

/// A frequency in MHz with at most 4 decimals and no trailing zeros (`100`, `33.3333`).
pub fn mhz(x: f64) -> String {
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The behavioural stand-ins of the vendor primitives (EHXPLLL, PLLE2_BASE, BUFG) for Verilator:
/// appended to a board top's Verilog only for simulation and lint, never written into the
/// synthesis output (there the vendor tools supply the real cells).
pub const SIM_PRIMITIVES: &str = include_str!("../sim/primitives_sim_only.v");

/// ECP5 EHXPLLL as a black box: `clock_out` (CLKOP, also the feedback) from `clock_in`;
/// `locked` is the PLL's LOCK (asynchronous to `clock_out`: synchronise it).
#[derive(LogicBlock)]
pub struct Ecp5Pll {
    pub clock_in: Signal<In, Clock>,
    pub clock_out: Signal<Out, Clock>,
    pub locked: Signal<Out, Bit>,
    /// Not a signal (the derive skips `_` fields).
    _setting: PllSetting,
}

impl Ecp5Pll {
    pub fn new(setting: PllSetting) -> Ecp5Pll {
        assert!(setting.rules == ECP5_EHXPLLL, "Ecp5Pll needs an EHXPLLL setting");
        Ecp5Pll {
            clock_in: Default::default(),
            clock_out: Default::default(),
            locked: Default::default(),
            _setting: setting,
        }
    }
}

impl Logic for Ecp5Pll {
    fn update(&mut self) {}

    fn connect(&mut self) {
        self.clock_out.connect();
        self.locked.connect();
    }

    fn hdl(&self) -> Verilog {
        let s = &self._setting;
        // Attributes: the frequencies for the tools' reports and nextpnr's analog defaults
        // written out (the values Project Trellis' ecppll emits). CLKOP_CPHASE = CLKOP_DIV - 1
        // is the zero-phase setting Lattice's tools write; with CLKOP feedback the phase does
        // not change the output frequency. Every input is tied (none floats in the bitstream).
        Verilog::Wrapper(Wrapper {
            code: format!(
                r#"
(* FREQUENCY_PIN_CLKI="{fin}", FREQUENCY_PIN_CLKOP="{fout}", ICP_CURRENT="12", LPF_RESISTOR="8", MFG_ENABLE_FILTEROPAMP="1", MFG_GMCREF_SEL="2" *)
EHXPLLL #(
    .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"), .DPHASE_SOURCE("DISABLED"),
    .OUTDIVIDER_MUXA("DIVA"), .CLKOP_ENABLE("ENABLED"), .FEEDBK_PATH("CLKOP"),
    .CLKI_DIV({i}), .CLKFB_DIV({f}), .CLKOP_DIV({o}), .CLKOP_CPHASE({cphase}), .CLKOP_FPHASE(0)
) pll_i (
    .CLKI(clock_in), .CLKFB(clock_out), .CLKOP(clock_out), .LOCK(locked),
    .RST(1'b0), .STDBY(1'b0), .PLLWAKESYNC(1'b0),
    .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b0), .PHASESTEP(1'b0), .PHASELOADREG(1'b0),
    .ENCLKOP(1'b0), .ENCLKOS(1'b0), .ENCLKOS2(1'b0), .ENCLKOS3(1'b0)
);
"#,
                fin = mhz(s.fin),
                fout = mhz(s.fout),
                i = s.input_div,
                f = s.feedback_div,
                o = s.output_div,
                cphase = s.output_div - 1,
            ),
            cores: String::new(),
        })
    }
}

/// 7-series PLLE2_BASE as a black box, CLKOUT0 through a BUFG to `clock_out`; the feedback
/// goes CLKFBOUT -> CLKFBIN directly (no deskew needed: nothing leaves the chip on this clock).
#[derive(LogicBlock)]
pub struct Xc7Pll {
    pub clock_in: Signal<In, Clock>,
    pub clock_out: Signal<Out, Clock>,
    pub locked: Signal<Out, Bit>,
    /// Not a signal (the derive skips `_` fields).
    _setting: PllSetting,
}

impl Xc7Pll {
    pub fn new(setting: PllSetting) -> Xc7Pll {
        assert!(setting.rules == XC7_PLLE2_SPEED1, "Xc7Pll needs a PLLE2 setting");
        Xc7Pll {
            clock_in: Default::default(),
            clock_out: Default::default(),
            locked: Default::default(),
            _setting: setting,
        }
    }
}

impl Logic for Xc7Pll {
    fn update(&mut self) {}

    fn connect(&mut self) {
        self.clock_out.connect();
        self.locked.connect();
    }

    fn hdl(&self) -> Verilog {
        let s = &self._setting;
        Verilog::Wrapper(Wrapper {
            code: format!(
                r#"
wire pll_feedback;
wire pll_clkout0;
PLLE2_BASE #(
    .BANDWIDTH("OPTIMIZED"), .STARTUP_WAIT("FALSE"), .CLKIN1_PERIOD({period:.3}),
    .DIVCLK_DIVIDE({i}), .CLKFBOUT_MULT({f}), .CLKOUT0_DIVIDE({o}), .CLKOUT0_PHASE(0.0), .CLKOUT0_DUTY_CYCLE(0.5)
) pll_i (
    .CLKIN1(clock_in), .CLKFBIN(pll_feedback), .CLKFBOUT(pll_feedback), .CLKOUT0(pll_clkout0), .LOCKED(locked),
    .RST(1'b0), .PWRDWN(1'b0)
);
BUFG core_clock_buffer (.I(pll_clkout0), .O(clock_out));
"#,
                period = 1000.0 / s.fin,
                i = s.input_div,
                f = s.feedback_div,
                o = s.output_div,
            ),
            cores: String::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    //! The solver's settings checked against the primitives' own formulas and ranges, written out
    //! here from the documents (not through [`PllRules`]):
    //! * ECP5 EHXPLLL with CLKOP feedback (Lattice FPGA-TN-02200; ranges FPGA-DS-02012):
    //!   Fout = Fin * CLKFB_DIV / CLKI_DIV, Fvco = Fout * CLKOP_DIV, Fpfd = Fin / CLKI_DIV;
    //!   Fvco 400..=800 MHz, Fpfd 3.125..=400 MHz, Fout 3.125..=400 MHz, each divider 1..=128.
    //! * 7-series PLLE2, -1 grade (Xilinx UG472, DS181): Fvco = Fin * CLKFBOUT_MULT /
    //!   DIVCLK_DIVIDE, Fout = Fvco / CLKOUT0_DIVIDE; Fvco 800..=1600 MHz, Fpfd 19..=450 MHz,
    //!   CLKFBOUT_MULT 2..=64, DIVCLK_DIVIDE 1..=56, CLKOUT0_DIVIDE 1..=128.
    use super::*;

    fn check_ecp5(fin: f64, want: f64) {
        let s = solve(&ECP5_EHXPLLL, fin, want, "core_clock_mhz").unwrap_or_else(|e| panic!("{e}"));
        let (clki, clkfb, clkop) = (s.input_div as f64, s.feedback_div as f64, s.output_div as f64);
        let fout = fin * clkfb / clki;
        let vco = fout * clkop;
        let pfd = fin / clki;
        assert!((400.0..=800.0).contains(&vco), "{want} MHz: VCO {vco} ({s:?})");
        assert!((3.125..=400.0).contains(&pfd), "{want} MHz: PFD {pfd} ({s:?})");
        for d in [s.input_div, s.feedback_div, s.output_div] {
            assert!((1..=128).contains(&d), "{want} MHz: divider {d} ({s:?})");
        }
        assert!((fout - want).abs() <= 0.005 * want, "{want} MHz: achieved {fout}");
        assert!((s.fout - fout).abs() < 1e-9 && (s.vco - vco).abs() < 1e-9, "{s:?}");
    }

    fn check_xc7(fin: f64, want: f64) {
        let s = solve(&XC7_PLLE2_SPEED1, fin, want, "core_clock_mhz").unwrap_or_else(|e| panic!("{e}"));
        let (divclk, mult, clkout0) = (s.input_div as f64, s.feedback_div as f64, s.output_div as f64);
        let vco = fin * mult / divclk;
        let fout = vco / clkout0;
        let pfd = fin / divclk;
        assert!((800.0..=1600.0).contains(&vco), "{want} MHz: VCO {vco} ({s:?})");
        assert!((19.0..=450.0).contains(&pfd), "{want} MHz: PFD {pfd} ({s:?})");
        assert!((2..=64).contains(&s.feedback_div) && (1..=56).contains(&s.input_div), "{s:?}");
        assert!((1..=128).contains(&s.output_div), "{s:?}");
        assert!((fout - want).abs() <= 0.005 * want, "{want} MHz: achieved {fout}");
        assert!((s.fout - fout).abs() < 1e-9 && (s.vco - vco).abs() < 1e-9, "{s:?}");
    }

    #[test]
    fn ecp5_settings_obey_the_ehxplll_rules() {
        for want in [3.125, 10.0, 25.0, 40.0, 50.0, 75.0, 100.0, 125.0, 150.0, 200.0, 400.0] {
            check_ecp5(25.0, want);
        }
        // Another oscillator (the ECP5 evaluation board's 12 MHz).
        for want in [24.0, 48.0, 96.0] {
            check_ecp5(12.0, want);
        }
    }

    #[test]
    fn xc7_settings_obey_the_plle2_rules() {
        for want in [6.25, 10.0, 25.0, 40.0, 50.0, 83.0, 100.0, 125.0, 150.0, 200.0, 400.0] {
            check_xc7(100.0, want);
        }
    }

    /// Project Trellis' `ecppll` (yowasp-ecppll 1.4-82-g3afe7b5, `yowasp-ecppll -i 25 -o F`, run
    /// 2026-11-25) printed these (CLKI_DIV, CLKFB_DIV, CLKOP_DIV); the solver's tie-break (VCO
    /// nearest 600 MHz) is the same, so it picks the same dividers.
    #[test]
    fn ecp5_matches_ecppll() {
        for (want, expect) in
            [(100.0, (1, 4, 6)), (25.0, (1, 1, 24)), (40.0, (5, 8, 15)), (50.0, (1, 2, 12)), (125.0, (1, 5, 5))]
        {
            let s = solve(&ECP5_EHXPLLL, 25.0, want, "f").unwrap();
            assert_eq!((s.input_div, s.feedback_div, s.output_div), expect, "{want} MHz");
        }
    }

    #[test]
    fn unreachable_frequencies_are_refused_with_field_value_and_range() {
        let e = solve(&ECP5_EHXPLLL, 25.0, 500.0, "core_clock_mhz").unwrap_err();
        assert!(e.contains("core_clock_mhz") && e.contains("500") && e.contains("3.125..=400"), "{e}");
        let e = solve(&XC7_PLLE2_SPEED1, 100.0, 5.0, "core_clock_mhz").unwrap_err();
        assert!(e.contains("core_clock_mhz") && e.contains("5 MHz") && e.contains("6.25..=464"), "{e}");
        // 48 MHz from 25 MHz: CLKI_DIV <= 8 (PFD >= 3.125 MHz) gives 46.875 or 50 at best; 47 is
        // within the tolerance of 46.875.
        let e = solve(&ECP5_EHXPLLL, 25.0, 48.0, "core_clock_mhz").unwrap_err();
        assert!(e.contains("core_clock_mhz = 48 MHz is not reachable") && e.contains("nearby: 47, 50"), "{e}");
        let e = solve(&ECP5_EHXPLLL, 1.0, 25.0, "core_clock_mhz").unwrap_err();
        assert!(e.contains("input clock 1 MHz") && e.contains("8..=400"), "{e}");
    }

    #[test]
    fn the_black_boxes_carry_the_solved_dividers() {
        let s = solve(&ECP5_EHXPLLL, 25.0, 100.0, "f").unwrap();
        let Verilog::Wrapper(w) = Ecp5Pll::new(s).hdl() else { panic!("not a wrapper") };
        for p in [".CLKI_DIV(1)", ".CLKFB_DIV(4)", ".CLKOP_DIV(6)", ".CLKOP_CPHASE(5)", "FEEDBK_PATH(\"CLKOP\")"] {
            assert!(w.code.contains(p), "{p} missing:\n{}", w.code);
        }
        assert!(w.cores.is_empty(), "no module definition in the synthesis output");
        let s = solve(&XC7_PLLE2_SPEED1, 100.0, 50.0, "f").unwrap();
        let Verilog::Wrapper(w) = Xc7Pll::new(s).hdl() else { panic!("not a wrapper") };
        let expect = format!(
            ".DIVCLK_DIVIDE({}), .CLKFBOUT_MULT({}), .CLKOUT0_DIVIDE({})",
            s.input_div, s.feedback_div, s.output_div
        );
        assert!(w.code.contains(&expect) && w.code.contains("CLKIN1_PERIOD(10.000)"), "{}", w.code);
    }
}
