//! PTX front end: text -> tokens (`lexer`) -> generic statement tree (`parser`) -> typed program
//! (`decode`, producing [`ir::Module`]). Errors carry `file:line:col` and a caret (`error`).
pub mod error;
pub mod ir;
pub mod lexer;
pub mod parser;

pub use error::PtxError;

/// Lexes and parses `text` into the generic statement tree (no opcode is interpreted yet).
pub fn parse_tree(text: &str, file: &str) -> Result<Vec<parser::TopItem>, PtxError> {
    let tokens = lexer::tokenize(text).map_err(|d| d.into_error(file, text))?;
    parser::parse_tokens(&tokens).map_err(|d| d.into_error(file, text))
}
