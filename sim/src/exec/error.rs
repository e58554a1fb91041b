//! Errors of a run: launch-file problems, undefined behaviour the executor or a unit detected,
//! deadlocks and runaway loops. Every variant renders to a message a user can act on: which field,
//! which instruction (file:line:col plus the source line), which CTA / warp / lane.

use std::fmt;

/// Where in the program and in the grid an error happened.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Site {
    /// `file:line:col`
    pub at: String,
    /// The trimmed source line of the instruction.
    pub source: String,
    /// CTA index (x, y, z) in the grid.
    pub cta: [u32; 3],
    pub warp: u32,
    /// The first lane at fault, when one lane is to blame.
    pub lane: Option<u32>,
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at {} (`{}`), CTA ({}, {}, {}), warp {}",
            self.at, self.source, self.cta[0], self.cta[1], self.cta[2], self.warp
        )?;
        if let Some(l) = self.lane {
            write!(f, ", lane {l}")?;
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExecError {
    /// The launch file is malformed or does not fit the kernel / config; `field` is its path in
    /// the file (e.g. `buffers.input.data[3]`).
    Launch { field: String, message: String },
    /// Undefined behaviour (or a rule violation) detected by the executor or reported by a unit.
    /// `rule` is the rule's text (for unit errors: `ErrorCode::name()`), `item` the §23 checklist
    /// item when there is one.
    Ub { rule: String, item: Option<u32>, site: Site },
    /// An instruction the executor cannot run (unsupported form, bad operand shape).
    Unsupported { message: String, site: Site },
    /// No warp can run, nothing is in flight, and some warps still wait.
    Deadlock { waits: Vec<String>, unit_waits: Vec<String> },
    /// The step limit was reached (a runaway loop, or a spin-wait that never succeeds).
    StepLimit { steps: u64, running: Vec<String> },
    /// A self-checking backend (the cosim) failed: `message` says what differed; `site` is the
    /// instruction whose request it was about (`None` when the failure names no request).
    Backend { message: String, site: Option<Site> },
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Launch { field, message } => write!(f, "launch field `{field}`: {message}"),
            ExecError::Ub { rule, item, site } => {
                write!(f, "undefined behaviour: {rule}")?;
                if let Some(i) = item {
                    write!(f, " (checklist item {i})")?;
                }
                write!(f, " {site}")
            }
            ExecError::Unsupported { message, site } => write!(f, "{message} {site}"),
            ExecError::Deadlock { waits, unit_waits } => {
                writeln!(f, "deadlock: no warp can run and nothing is in flight; blocked:")?;
                for w in waits {
                    writeln!(f, "  {w}")?;
                }
                if !unit_waits.is_empty() {
                    writeln!(f, "sync unit waits:")?;
                    for w in unit_waits {
                        writeln!(f, "  {w}")?;
                    }
                }
                Ok(())
            }
            ExecError::Backend { message, site } => {
                match site {
                    Some(site) => writeln!(f, "{site}:")?,
                    None => writeln!(f, "(no instruction: the failure names no pending request):")?,
                }
                write!(f, "{message}")
            }
            ExecError::StepLimit { steps, running } => {
                writeln!(f, "step limit of {steps} warp-instructions reached (runaway loop or endless spin-wait?); still running:")?;
                for r in running {
                    writeln!(f, "  {r}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ExecError {}

pub(crate) fn launch_err(field: impl Into<String>, message: impl Into<String>) -> ExecError {
    ExecError::Launch { field: field.into(), message: message.into() }
}
