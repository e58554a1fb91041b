//! PTX tokens (a `logos` lexer) with 1-based line/column positions.
//!
//! Opcodes and directives are not special at this level: `ld.global.v4.u32` lexes as the
//! identifier `ld` followed by the dot-words `.global`, `.v4`, `.u32`; the parser groups them.
//! Dot-words may contain `::` (`.shared::cluster`, `.mbarrier::complete_tx::bytes`) and may start
//! with a digit (`.1d`, `.v2` is a letter anyway).

use super::error::{DResult, Diag};
use super::ir::Loc;
use logos::Logos;

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
pub enum Tok {
    /// Identifiers, registers (`%r1`, `%tid`), labels (`$L__BB0_2`), the sink `_`.
    #[regex(r"[A-Za-z_$%][A-Za-z0-9_$]*")]
    Ident,
    /// `.global`, `.shared::cta`, `.1d`, `.L2::cache_hint`.
    #[regex(r"\.[A-Za-z0-9_][A-Za-z0-9_$]*(::[A-Za-z0-9_]+)*")]
    DotWord,
    /// Decimal, octal (`017`), hex (`0x1F`), binary (`0b101`), optional `U` suffix.
    #[regex(r"[0-9]+U?")]
    #[regex(r"0[xX][0-9a-fA-F]+U?")]
    #[regex(r"0[bB][01]+U?")]
    Int,
    /// `0f3F800000` (f32 bits).
    #[regex(r"0[fF][0-9a-fA-F]{8}")]
    HexF32,
    /// `0d3FF0000000000000` (f64 bits).
    #[regex(r"0[dD][0-9a-fA-F]{16}")]
    HexF64,
    /// `1.0`, `1.5e-3`, `2e10`.
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+")]
    DecFloat,
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    Str,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("!")]
    Bang,
    #[token("@")]
    At,
    #[token("|")]
    Pipe,
    #[token("=")]
    Eq,
    #[token("*")]
    Star,
}

impl Tok {
    /// How the token kind is named in "expected X, found Y" messages.
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Ident => "identifier",
            Tok::DotWord => "`.`-qualifier",
            Tok::Int => "integer",
            Tok::HexF32 | Tok::HexF64 | Tok::DecFloat => "float literal",
            Tok::Str => "string",
            Tok::Comma => "`,`",
            Tok::Semi => "`;`",
            Tok::Colon => "`:`",
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::LBracket => "`[`",
            Tok::RBracket => "`]`",
            Tok::LBrace => "`{`",
            Tok::RBrace => "`}`",
            Tok::Lt => "`<`",
            Tok::Gt => "`>`",
            Tok::Plus => "`+`",
            Tok::Minus => "`-`",
            Tok::Bang => "`!`",
            Tok::At => "`@`",
            Tok::Pipe => "`|`",
            Tok::Eq => "`=`",
            Tok::Star => "`*`",
        }
    }
}

/// One token with its text and position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Tok,
    pub text: &'a str,
    pub loc: Loc,
    /// Byte range in the source (used to tell whether two tokens touch, e.g. `%tid` `.x`).
    pub start: usize,
    pub end: usize,
}

/// Maps byte offsets to 1-based line/column (column counted in characters).
struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, line_starts }
    }

    fn loc(&self, offset: usize) -> Loc {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let col = self.text.get(start..offset).map(|s| s.chars().count()).unwrap_or(0);
        Loc { line: (line + 1) as u32, col: (col + 1) as u32 }
    }
}

/// Splits `text` into tokens. Unknown characters and unterminated comments/strings are errors.
pub fn tokenize(text: &str) -> DResult<Vec<Token<'_>>> {
    let index = LineIndex::new(text);
    let mut lexer = Tok::lexer(text);
    let mut tokens = Vec::new();
    while let Some(result) = lexer.next() {
        let span = lexer.span();
        let loc = index.loc(span.start);
        let slice = lexer.slice();
        match result {
            Ok(kind) => tokens.push(Token { kind, text: slice, loc, start: span.start, end: span.end }),
            Err(()) => {
                let shown: String = slice.chars().take(12).collect();
                let message = if slice.starts_with("/*") {
                    "unterminated block comment".to_string()
                } else if slice.starts_with('"') {
                    "unterminated string".to_string()
                } else {
                    format!("unexpected character(s) `{}`", shown.escape_debug())
                };
                return Err(Diag::new(loc, message));
            }
        }
    }
    Ok(tokens)
}
