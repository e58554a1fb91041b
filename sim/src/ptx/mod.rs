//! PTX front end: lexer, parser, typed decode into [`ir`].
pub mod ir;
