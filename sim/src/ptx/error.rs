//! Front-end errors: every error carries a 1-based `line:col` and renders as
//!
//! ```text
//! kernel.ptx:12:9: unknown modifier `.addd` for `atom`
//!     atom.addd.u32 %r1, [%rd1], 1;
//!         ^
//! ```

use super::ir::Loc;
use std::fmt;

/// An error found while lexing, parsing or decoding PTX text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxError {
    pub file: String,
    pub loc: Loc,
    pub message: String,
    /// The offending source line (without its line terminator); empty if `loc` is past the end.
    pub source_line: String,
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}:{}:{}: {}", self.file, self.loc.line, self.loc.col, self.message)?;
        writeln!(f, "{}", self.source_line)?;
        // Keep tabs of the source prefix so the caret lines up in a terminal.
        let prefix: String = self
            .source_line
            .chars()
            .take(self.loc.col.saturating_sub(1) as usize)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "{prefix}^")
    }
}

impl std::error::Error for PtxError {}

/// An error before the file name and source text are attached (used inside the front end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub loc: Loc,
    pub message: String,
}

impl Diag {
    pub fn new(loc: Loc, message: impl Into<String>) -> Self {
        Diag { loc, message: message.into() }
    }

    /// Attaches the file name and the source line.
    pub fn into_error(self, file: &str, text: &str) -> PtxError {
        let source_line = text.lines().nth(self.loc.line.saturating_sub(1) as usize).unwrap_or("").to_string();
        PtxError { file: file.to_string(), loc: self.loc, message: self.message, source_line }
    }
}

pub type DResult<T> = Result<T, Diag>;
