//! `smsync gen`: write the Verilog of every RTL module built for a config, and `manifest.yaml`
//! (the config, each module's ports, the top's with their channel from the port table
//! `smsync_contract::port`, the units not built yet, and the encoding table).
//!
//! Output directory layout:
//! ```text
//! <out>/<module>.v        one per entry of smsync_hdl::sync_unit::modules(config)
//! <out>/manifest.yaml
//! ```
//!
//! With `--board ulx3s|arty [--baud N] [--core-mhz N]`: the board top-level instead
//! (`smsync_boards`: the PLL at the config's `core_clock_mhz`, reset, UART host bridge, the
//! sync_unit top; one file, the vendor PLL cell left to the tools) and its constraint file:
//! ```text
//! <out>/ulx3s_top.v + <out>/ulx3s.lpf        (or arty_top.v + arty-a7-100t.xdc)
//! ```

use serde::Serialize;
use smsync_contract::port;
use smsync_hdl::common::{ports_of, PortDir};
use smsync_hdl::sync_unit;
use smsync_sim::config::Config;
use smsync_sim::encoding::{manifest_table, TableEntry};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Architecture config (YAML); the built-in default when omitted.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Output directory.
    #[arg(long, default_value = "build/rtl")]
    pub out: PathBuf,
    /// Write a board top-level (ulx3s or arty) with the UART host bridge instead of the modules.
    #[arg(long)]
    pub board: Option<String>,
    /// UART baud rate of the board top (counted in core clock cycles).
    #[arg(long, default_value_t = smsync_boards::board::DEFAULT_BAUD)]
    pub baud: u32,
    /// Core clock of the board top in MHz (the PLL's output), instead of the config's
    /// `core_clock_mhz`.
    #[arg(long)]
    pub core_mhz: Option<u32>,
}

#[derive(Serialize)]
struct Manifest<'a> {
    generator: String,
    config: &'a Config,
    /// Generated files, units first, the top last.
    modules: Vec<ModuleEntry>,
    /// Units whose RTL does not exist yet: the Verilog above is partial while this is non-empty.
    units_not_built: Vec<&'static str>,
    encoding: Vec<TableEntry>,
}

#[derive(Serialize)]
struct ModuleEntry {
    module: String,
    file: String,
    unit: Option<&'static str>,
    ports: Vec<PortEntry>,
}

#[derive(Serialize)]
struct PortEntry {
    name: String,
    dir: &'static str,
    width: usize,
    /// The top's ports only: the port table's channel (`smsync_contract::port::Channel`).
    #[serde(skip_serializing_if = "Option::is_none")]
    channel: Option<&'static str>,
}

pub fn main(a: Args) -> Result<(), String> {
    let start = Instant::now();
    let mut config = match &a.config {
        Some(path) => Config::from_file(path).map_err(|e| e.to_string())?,
        None => Config::default(),
    };
    if let Some(mhz) = a.core_mhz {
        config = with_core_clock(config, mhz)?;
    }
    if let Some(name) = &a.board {
        return generate_board(&config, name, a.baud, &a.out, start);
    }
    let written = generate(&config, &a.out)?;
    println!(
        "smsync gen: config `{}`: {} module(s) and manifest.yaml in {} ({:.2} s)",
        config.name,
        written,
        a.out.display(),
        start.elapsed().as_secs_f64()
    );
    let missing = sync_unit::missing_units(&config);
    if !missing.is_empty() {
        println!("note: RTL not built yet for: {}", missing.iter().map(|u| u.name()).collect::<Vec<_>>().join(", "));
    }
    Ok(())
}

/// Write every module and the manifest for `config` into `out`; returns the number of modules.
pub fn generate(config: &Config, out: &Path) -> Result<usize, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut modules = Vec::new();
    for g in sync_unit::generated_files(config).map_err(|e| e.to_string())? {
        let ports = ports_of(&g.text, g.module)
            .ok_or_else(|| format!("generated Verilog has no module `{}` (generator bug)", g.module))?;
        let top = g.unit.is_none();
        if top {
            // The top declares exactly the port table's ports for the config.
            let dir = |d: PortDir| if d == PortDir::Input { port::Dir::In } else { port::Dir::Out };
            port::check_ports(config, ports.iter().map(|p| (p.name.as_str(), dir(p.dir), p.width))).map_err(|e| {
                format!(
                    "the generated `{}` does not match the port table (generator bug):\n  {}",
                    g.module,
                    e.join("\n  ")
                )
            })?;
        }
        write(&out.join(&g.file), &g.text)?;
        modules.push(ModuleEntry {
            module: g.module.to_string(),
            file: g.file,
            unit: g.unit.map(|u| u.name()),
            ports: ports
                .into_iter()
                .map(|p| {
                    let channel = if top { port::channel_of(&p.name).map(|c| c.as_str()) } else { None };
                    PortEntry {
                        name: p.name,
                        dir: if p.dir == PortDir::Input { "input" } else { "output" },
                        width: p.width,
                        channel,
                    }
                })
                .collect(),
        });
    }
    let count = modules.len();
    let manifest = Manifest {
        generator: format!("smsync {}", env!("CARGO_PKG_VERSION")),
        config,
        modules,
        units_not_built: sync_unit::missing_units(config).iter().map(|u| u.name()).collect(),
        encoding: manifest_table(),
    };
    let yaml = serde_saphyr::to_string(&manifest).map_err(|e| format!("manifest: {e}"))?;
    write(&out.join("manifest.yaml"), &yaml)?;
    Ok(count)
}

/// `config` with `core_clock_mhz` set from `--core-mhz`, range-checked like the config field.
pub fn with_core_clock(config: Config, mhz: u32) -> Result<Config, String> {
    let config = Config { core_clock_mhz: mhz, ..config };
    config.validate().map_err(|e| format!("--core-mhz: {e}"))?;
    Ok(config)
}

/// `smsync gen --board`: the board top's Verilog and a copy of its constraint file.
fn generate_board(config: &Config, name: &str, baud: u32, out: &Path, start: Instant) -> Result<(), String> {
    use smsync_boards::{board_verilog, core_clock, cycles_per_bit, Board};
    let board = Board::parse(name)?;
    let clock = core_clock(board, config)?;
    let cpb = cycles_per_bit(clock.fout_hz(), baud);
    let text = board_verilog(board, config, cpb)?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let header = format!(
        "// Generated by smsync gen {} --board {} --baud {baud} from config `{}`; do not edit.\n\
         // Core clock: {}; UART {cpb} core cycles per bit.\n",
        env!("CARGO_PKG_VERSION"),
        board.name(),
        config.name,
        clock.describe()
    );
    let file = out.join(format!("{}.v", board.module()));
    write(&file, &(header + &text))?;
    let copy = out.join(board.constraints());
    write(&copy, &board.constraints_for(&clock))?;
    println!(
        "smsync gen: board `{}` (top `{}`), config `{}`, core clock {}, UART {baud} baud: {} and {} ({:.2} s)",
        board.name(),
        board.module(),
        config.name,
        clock.describe(),
        file.display(),
        copy.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
