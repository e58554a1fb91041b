//! `smsync synth`: synthesis (and place-and-route where the target has it) of every generated
//! module for one FPGA target; prints the Markdown report and writes report.json / report.md.
//! The flow itself lives in the `smsync-fpga` crate (fpga/src/flow.rs).
//!
//! With `--board ulx3s`: the board top-level (`smsync gen --board ulx3s`) through synth_ecp5,
//! nextpnr-ecp5 with constraints/ulx3s.lpf and ecppack (fpga/src/board_flow.rs), timed against
//! the PLL's core clock (`core_clock_mhz`, or `--core-mhz`).

use smsync_fpga::flow::{self, FlowOptions};
use smsync_fpga::target::Target;
use smsync_sim::config::Config;
use std::path::PathBuf;
use std::time::Duration;

/// Default time limit of each tool run of the per-module flow (seconds).
const MODULE_TIMEOUT_S: u64 = 1800;
/// Default time limit of each tool run of the board flow: nextpnr placed and routed the
/// fpga-ulx3s board top in 2,113 s on the 2-core build machine (docs/FPGA.md, "Bitstream").
const BOARD_TIMEOUT_S: u64 = 7200;

#[derive(clap::Args)]
pub struct Args {
    /// Architecture config (YAML); the built-in default when omitted.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// FPGA target: ecp5-85k, ice40-up5k or xilinx-7 (yosys estimate, no place-and-route).
    /// Required unless --board is given.
    #[arg(long, required_unless_present = "board")]
    pub target: Option<String>,
    /// Build a board top-level into a bitstream instead of the per-module report: `ulx3s`
    /// (ECP5-85F; the Arty's Artix-7 has no open place-and-route here).
    #[arg(long, conflicts_with_all = ["target", "modules", "no_pnr"])]
    pub board: Option<String>,
    /// UART baud rate of the board top (--board only).
    #[arg(long, default_value_t = smsync_boards::board::DEFAULT_BAUD)]
    pub baud: u32,
    /// Core clock of the board top in MHz, instead of the config's `core_clock_mhz` (--board only).
    #[arg(long, requires = "board")]
    pub core_mhz: Option<u32>,
    /// Output directory (default build/synth/<config>-<target>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Only this module (repeatable): barrier_file, mbarrier_alu, atomic_alu, warp_network, copy_engine, sync_unit.
    #[arg(long = "module")]
    pub modules: Vec<String>,
    /// Time limit of each tool run, in seconds [default: 1800; with --board 7200: the routed
    /// ULX3S top's nextpnr run takes about 35 minutes here].
    #[arg(long)]
    pub timeout: Option<u64>,
    /// Stop after yosys (no place-and-route, no Fmax).
    #[arg(long)]
    pub no_pnr: bool,
    /// nextpnr's placement seed (recorded in the report). Fmax moves by a few MHz from seed to
    /// seed on nearly the same netlist: judge a change over several seeds.
    #[arg(long, default_value_t = smsync_fpga::toolchain::nextpnr::SEED)]
    pub seed: u32,
    #[command(flatten)]
    pub progress: crate::ProgressArgs,
}

pub fn main(a: Args) -> Result<(), String> {
    let config = match &a.config {
        Some(path) => Config::from_file(path).map_err(|e| e.to_string())?,
        None => Config::default(),
    };
    if let Some(board) = &a.board {
        let config = match a.core_mhz {
            Some(mhz) => crate::cmd_gen::with_core_clock(config, mhz)?,
            None => config,
        };
        return board_main(&a, board, &config);
    }
    let target = Target::parse(a.target.as_deref().unwrap_or_default())?;
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from(format!("build/synth/{}-{}", config.name, target.name())));
    let command = command_line();
    let opts = FlowOptions {
        target,
        out: out.clone(),
        modules: a.modules,
        timeout: Duration::from_secs(a.timeout.unwrap_or(MODULE_TIMEOUT_S)),
        no_pnr: a.no_pnr,
        seed: a.seed,
        command,
        progress: a.progress.mode(),
    };
    let report = flow::run(&config, &opts)?;
    println!("{}", report.to_markdown());
    println!("report: {0}/report.json, {0}/report.md", out.display());
    let failed: Vec<_> = report.modules.iter().filter(|m| m.error.is_some()).map(|m| m.module.as_str()).collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("tool run failed for: {} (see the report)", failed.join(", ")))
    }
}

fn command_line() -> String {
    std::env::args().map(|s| if s.contains(' ') { format!("'{s}'") } else { s }).collect::<Vec<_>>().join(" ")
}

/// `--board`: generate the board top (as `smsync gen --board` does) and build its bitstream.
fn board_main(a: &Args, name: &str, config: &Config) -> Result<(), String> {
    use smsync_boards::board::{board_verilog, core_clock, cycles_per_bit, Board};
    let board = Board::parse(name)?;
    if board != Board::Ulx3s {
        return Err(format!(
            "--board {name}: only ulx3s (ECP5) has an open place-and-route flow here; for the Arty use Vivado with \
             `smsync gen --board arty` and constraints/arty-a7-100t.xdc (`smsync synth --target xilinx-7` gives a yosys estimate)"
        ));
    }
    let clock = core_clock(board, config)?;
    eprintln!("smsync synth --board {name}: core clock {}", clock.describe());
    let verilog = board_verilog(board, config, cycles_per_bit(clock.fout_hz(), a.baud))?;
    let constraints = board.constraints_for(&clock);
    let out =
        a.out.clone().unwrap_or_else(|| PathBuf::from(format!("build/synth/{}-board-{}", config.name, board.name())));
    let input = smsync_fpga::board_flow::BoardInput {
        board: board.name(),
        top: board.module(),
        verilog: &verilog,
        constraints_name: board.constraints(),
        constraints: &constraints,
        clock_mhz: clock.fout,
        clock: clock.describe(),
        config: &config.name,
        out: out.clone(),
        timeout: Duration::from_secs(a.timeout.unwrap_or(BOARD_TIMEOUT_S)),
        seed: a.seed,
        command: command_line(),
        progress: a.progress.mode(),
    };
    let report = smsync_fpga::board_flow::run(&input)?;
    println!("{}", report.to_markdown());
    println!("report: {0}/report.json, {0}/report.md", out.display());
    match (&report.bitstream, &report.error) {
        (Some(_), None) => Ok(()),
        _ => Err(format!("no bitstream for board `{name}` (see the report)")),
    }
}
