//! `smsync`: generate the sync unit's Verilog, run PTX on the golden model, compare both.
//!
//! Thin by design: each subcommand lives in its own file and wires the library crates together.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd_bench;
mod cmd_cosim;
mod cmd_explore;
mod cmd_fuzz;
mod cmd_gen;
mod cmd_lint;
mod cmd_mutate;
mod cmd_prove;
mod cmd_run;
mod cmd_synth;

#[derive(Parser)]
#[command(name = "smsync", version, about = "GPU SM synchronization unit: RTL generator, golden PTX model, cosim")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate Verilog and a manifest from an architecture config (built-in default if none).
    Gen(cmd_gen::Args),
    /// Run a PTX kernel on the golden model and print the final buffers as JSON.
    Run(cmd_run::Args),
    /// Measure the golden model's speed (thread-instructions per second) on built-in kernels.
    Bench(cmd_bench::Args),
    /// Synthesise (and place and route) every generated module for an FPGA target; resource and Fmax report.
    Synth(cmd_synth::Args),
    /// Run a PTX kernel on the golden model and the Verilated RTL in lockstep; stop at the first divergence.
    Cosim(cmd_cosim::Args),
    /// Random legal PTX programs: ptxas-checked, run, failures shrunk and saved.
    Fuzz(cmd_fuzz::Args),
    /// Lint a `smsync gen` output directory (verilator -Wall and the yosys structural check).
    Lint(cmd_lint::Args),
    /// Sweep architecture configs: generate, lint, synthesise and run workloads per point.
    Explore(cmd_explore::Args),
    /// Prove the units' formal properties with yosys-smtbmc (k-induction, else bounded model checking).
    Prove(cmd_prove::Args),
    /// Mutation coverage: mutants of a unit's RTL (yosys mutate, one netlist), each run against the cosim corpus.
    Mutate(cmd_mutate::Args),
    /// One mutant's checks (the child process of `smsync mutate`).
    #[command(hide = true)]
    MutateRun(cmd_mutate::RunArgs),
}

/// `--quiet` of the long runs (`fuzz`, `explore`, `synth`), whose progress goes to stderr.
#[derive(clap::Args)]
pub struct ProgressArgs {
    /// Print no progress. Without it, progress goes to stderr: a live bar (done / total, rate,
    /// time left, what runs now) on a terminal, plain periodic lines otherwise. Errors and the
    /// result print either way.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl ProgressArgs {
    pub fn mode(&self) -> smsync_progress::Mode {
        smsync_progress::Mode::detect(self.quiet)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Gen(a) => cmd_gen::main(a),
        Command::Run(a) => cmd_run::main(a),
        Command::Bench(a) => cmd_bench::main(a),
        Command::Synth(a) => cmd_synth::main(a),
        Command::Cosim(a) => cmd_cosim::main(a),
        Command::Fuzz(a) => cmd_fuzz::main(a),
        Command::Lint(a) => cmd_lint::main(a),
        Command::Explore(a) => cmd_explore::main(a),
        Command::Prove(a) => cmd_prove::main(a),
        Command::Mutate(a) => cmd_mutate::main(a),
        Command::MutateRun(a) => cmd_mutate::run_main(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
