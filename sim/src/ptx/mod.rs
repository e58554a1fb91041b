//! PTX front end: text -> tokens (`lexer`) -> generic statement tree (`parser`) -> typed program
//! (`decode`, producing [`ir::Module`]). Errors carry `file:line:col` and a caret (`error`).
//!
//! ```
//! let m = smsync_sim::ptx::parse(".version 8.0\n.target sm_90\n.address_size 64\n\
//!     .visible .entry k() { bar.sync 0; ret; }", "k.ptx").unwrap();
//! assert_eq!(m.funcs[0].body.len(), 2);
//! ```
pub mod decode;
pub mod error;
pub mod forms;
pub mod ir;
pub mod lexer;
pub mod parser;

pub use error::PtxError;

/// Parses a PTX module into the typed IR. Never panics; every error has a position.
pub fn parse(text: &str, file: &str) -> Result<ir::Module, PtxError> {
    let tokens = lexer::tokenize(text).map_err(|d| d.into_error(file, text))?;
    let items = parser::parse_tokens(&tokens).map_err(|d| d.into_error(file, text))?;
    decode::decode_module(&items, file, text).map_err(|d| d.into_error(file, text))
}

/// Lexes and parses `text` into the generic statement tree (no opcode is interpreted yet).
pub fn parse_tree(text: &str, file: &str) -> Result<Vec<parser::TopItem>, PtxError> {
    let tokens = lexer::tokenize(text).map_err(|d| d.into_error(file, text))?;
    parser::parse_tokens(&tokens).map_err(|d| d.into_error(file, text))
}
