//! Recursive-descent parser from tokens to a generic statement tree.
//!
//! The tree knows PTX's *shape* (directives, functions, declarations, labels, instructions with
//! an opcode, a modifier list, a guard and operands) but not what any opcode means; that is the
//! job of `decode.rs`. Nothing here panics: every index is checked, and nesting (`{ }` blocks,
//! vector operands, initializers) is bounded by [`MAX_DEPTH`].

use super::error::{DResult, Diag};
use super::ir::Loc;
use super::lexer::{Tok, Token};

/// Deepest nesting of blocks / braces / brackets accepted (protects the stack).
pub const MAX_DEPTH: usize = 64;

/// A numeric literal as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// Integers, already negated if written with `-` (range: -2^64 .. 2^64-1).
    Int(i128),
    /// `0fXXXXXXXX`
    F32Bits(u32),
    /// `0dXXXXXXXXXXXXXXXX`
    F64Bits(u64),
    /// `1.0`, `-2.5e3`
    Dec(f64),
}

/// An operand as written.
#[derive(Clone, Debug, PartialEq)]
pub enum OperandAst {
    /// A register, special register (`%tid.x` is one name), label, variable, parameter or
    /// function name, with an optional `+imm` (`smem+4`).
    Name {
        name: String,
        offset: i64,
        loc: Loc,
    },
    /// `!p`
    Not {
        name: String,
        loc: Loc,
    },
    Num {
        value: Num,
        loc: Loc,
    },
    /// `[base+off]`, `[imm]`, `[tmap, {c0, c1}]`: `base` is None for an absolute address; `rest`
    /// holds the operands after a comma.
    Addr {
        base: Option<(String, Loc)>,
        offset: i64,
        rest: Vec<OperandAst>,
        loc: Loc,
    },
    /// `{a, b, ...}`
    Vector {
        items: Vec<OperandAst>,
        loc: Loc,
    },
    /// `(a, b, ...)` — call argument/return lists.
    Paren {
        items: Vec<OperandAst>,
        loc: Loc,
    },
    /// The sink `_`.
    Sink {
        loc: Loc,
    },
    /// `d|p`
    Pair {
        first: Box<OperandAst>,
        second: Box<OperandAst>,
        loc: Loc,
    },
}

impl OperandAst {
    pub fn loc(&self) -> Loc {
        match self {
            OperandAst::Name { loc, .. }
            | OperandAst::Not { loc, .. }
            | OperandAst::Num { loc, .. }
            | OperandAst::Addr { loc, .. }
            | OperandAst::Vector { loc, .. }
            | OperandAst::Paren { loc, .. }
            | OperandAst::Sink { loc }
            | OperandAst::Pair { loc, .. } => *loc,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    pub negated: bool,
    pub name: String,
    pub loc: Loc,
}

/// `@p opcode.mod.mod operands;`
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub guard: Option<Guard>,
    pub opcode: String,
    /// Modifiers without the leading dot, each with its position.
    pub mods: Vec<(String, Loc)>,
    pub operands: Vec<OperandAst>,
    /// Position of the opcode.
    pub loc: Loc,
}

/// `.reg .b32 %r<5>, %x;` — each name with an optional `<N>` range count.
#[derive(Clone, Debug, PartialEq)]
pub struct RegDecl {
    pub ty: (String, Loc),
    pub vec: Option<u8>,
    pub names: Vec<(String, Option<u32>, Loc)>,
    pub loc: Loc,
}

/// An initializer item: a number or a nested `{ }` list.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Num(Num, Loc),
    List(Vec<Init>, Loc),
}

/// A variable or parameter declaration (`.shared .align 16 .b8 smem[1024];`, `.param .u64 p`).
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// `.extern`, `.visible`, `.weak`, `.common`
    pub linkage: Vec<String>,
    /// `global`, `shared`, `shared::cta`, `const`, `local`, `param`, `reg` (function params)
    pub space: String,
    pub align: Option<u32>,
    pub vec: Option<u8>,
    pub ty: (String, Loc),
    pub name: String,
    /// Array dimensions; `None` for `[]`.
    pub dims: Vec<Option<u64>>,
    pub init: Option<Init>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    Instr(Instruction),
    Label { name: String, loc: Loc },
    Reg(RegDecl),
    Var(VarDecl),
    Block { body: Vec<Statement>, loc: Loc },
}

#[derive(Clone, Debug, PartialEq)]
pub struct FuncDecl {
    pub linkage: Vec<String>,
    pub is_entry: bool,
    pub name: String,
    pub rets: Vec<VarDecl>,
    pub params: Vec<VarDecl>,
    /// `.maxntid 256, 1, 1` etc. (name without dot, numbers).
    pub perf: Vec<(String, Vec<u32>)>,
    /// `None` for a prototype declaration (`.extern .func foo (...);`).
    pub body: Option<Vec<Statement>>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TopItem {
    Version { major: u32, minor: u32, loc: Loc },
    Target { names: Vec<String>, loc: Loc },
    AddressSize { bits: u32, loc: Loc },
    Var(VarDecl),
    Func(FuncDecl),
}

/// Parses a whole token stream into top-level items.
pub fn parse_tokens(tokens: &[Token<'_>]) -> DResult<Vec<TopItem>> {
    let mut p = Parser { toks: tokens, pos: 0, depth: 0 };
    let mut items = Vec::new();
    while p.peek().is_some() {
        if let Some(item) = p.top_item()? {
            items.push(item);
        }
    }
    Ok(items)
}

/// Parses an integer literal's text (`17`, `0x1F`, `017`, `0b101`, with optional `U`).
pub fn parse_int_text(text: &str) -> Option<u64> {
    let t = text.strip_suffix('U').unwrap_or(text);
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        u64::from_str_radix(bin, 2).ok()
    } else if t.len() > 1 && t.starts_with('0') {
        u64::from_str_radix(&t[1..], 8).ok()
    } else {
        t.parse::<u64>().ok()
    }
}

struct Parser<'t, 'a> {
    toks: &'t [Token<'a>],
    pos: usize,
    depth: usize,
}

const SPACES: &[&str] =
    &[".global", ".shared", ".shared::cta", ".shared::cluster", ".const", ".local", ".param", ".tex"];
const LINKAGE: &[&str] = &[".extern", ".visible", ".weak", ".common"];

impl<'t, 'a> Parser<'t, 'a> {
    fn peek(&self) -> Option<&Token<'a>> {
        self.toks.get(self.pos)
    }
    fn peek_at(&self, n: usize) -> Option<&Token<'a>> {
        self.toks.get(self.pos + n)
    }
    fn peek_kind(&self) -> Option<Tok> {
        self.peek().map(|t| t.kind)
    }
    fn is(&self, kind: Tok) -> bool {
        self.peek_kind() == Some(kind)
    }
    /// Position of the current token, or just past the last one at end of input.
    fn here(&self) -> Loc {
        match self.peek() {
            Some(t) => t.loc,
            None => match self.toks.last() {
                Some(t) => Loc { line: t.loc.line, col: t.loc.col + t.text.chars().count() as u32 },
                None => Loc { line: 1, col: 1 },
            },
        }
    }
    fn bump(&mut self) -> Option<Token<'a>> {
        let t = self.toks.get(self.pos).copied();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }
    fn eat(&mut self, kind: Tok) -> bool {
        if self.is(kind) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn found(&self) -> String {
        match self.peek() {
            Some(t) => format!("`{}`", t.text),
            None => "end of input".to_string(),
        }
    }
    fn err<T>(&self, what: &str) -> DResult<T> {
        Err(Diag::new(self.here(), format!("expected {what}, found {}", self.found())))
    }
    fn expect(&mut self, kind: Tok) -> DResult<Token<'a>> {
        match self.peek() {
            Some(t) if t.kind == kind => {
                let t = *t;
                self.pos += 1;
                Ok(t)
            }
            _ => self.err(kind.describe()),
        }
    }
    fn enter(&mut self) -> DResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diag::new(self.here(), format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn uint(&mut self) -> DResult<u64> {
        let t = self.expect(Tok::Int)?;
        parse_int_text(t.text).ok_or_else(|| Diag::new(t.loc, format!("integer `{}` out of range", t.text)))
    }
    fn uint32(&mut self) -> DResult<u32> {
        let loc = self.here();
        let v = self.uint()?;
        u32::try_from(v).map_err(|_| Diag::new(loc, format!("value {v} does not fit in 32 bits")))
    }

    /// Skips every token on the current token's line (directives without `;`: `.loc`, `.file`).
    fn skip_line(&mut self, line: u32) {
        while matches!(self.peek(), Some(t) if t.loc.line == line) {
            self.pos += 1;
        }
    }
    /// Skips up to and including the next `;`.
    fn skip_to_semi(&mut self) {
        while let Some(t) = self.bump() {
            if t.kind == Tok::Semi {
                break;
            }
        }
    }
    /// Skips a balanced `{ ... }` group (used for `.section .debug_* { ... }`).
    fn skip_braces(&mut self) -> DResult<()> {
        let open = self.expect(Tok::LBrace)?;
        let mut level = 1usize;
        while let Some(t) = self.bump() {
            match t.kind {
                Tok::LBrace => level += 1,
                Tok::RBrace => {
                    level -= 1;
                    if level == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err(Diag::new(open.loc, "unclosed `{`"))
    }

    // ---- top level --------------------------------------------------------------------------

    fn top_item(&mut self) -> DResult<Option<TopItem>> {
        let Some(t) = self.peek().copied() else { return Ok(None) };
        if t.kind != Tok::DotWord {
            return Err(Diag::new(t.loc, format!("expected a directive at module level, found `{}`", t.text)));
        }
        match t.text {
            ".version" => {
                self.bump();
                let v = self.peek().copied();
                match v {
                    Some(v) if v.kind == Tok::DecFloat || v.kind == Tok::Int => {
                        self.bump();
                        let mut parts = v.text.splitn(2, '.');
                        let major = parts.next().and_then(|s| s.parse().ok());
                        let minor = parts.next().map(|s| s.parse().ok()).unwrap_or(Some(0));
                        match (major, minor) {
                            (Some(major), Some(minor)) => Ok(Some(TopItem::Version { major, minor, loc: t.loc })),
                            _ => Err(Diag::new(v.loc, format!("malformed version `{}`", v.text))),
                        }
                    }
                    _ => self.err("a version number like `8.0`"),
                }
            }
            ".target" => {
                self.bump();
                let mut names = Vec::new();
                loop {
                    let n = self.expect(Tok::Ident)?;
                    names.push(n.text.to_string());
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                Ok(Some(TopItem::Target { names, loc: t.loc }))
            }
            ".address_size" => {
                self.bump();
                let bits = self.uint32()?;
                Ok(Some(TopItem::AddressSize { bits, loc: t.loc }))
            }
            ".file" | ".loc" => {
                self.bump();
                self.skip_line(t.loc.line);
                Ok(None)
            }
            ".section" => {
                self.bump();
                // `.section .debug_info { ... }`
                while self.is(Tok::DotWord) || self.is(Tok::Ident) {
                    self.bump();
                }
                self.skip_braces()?;
                Ok(None)
            }
            ".pragma" => {
                self.bump();
                self.skip_to_semi();
                Ok(None)
            }
            ".entry" | ".func" => Ok(Some(TopItem::Func(self.func()?))),
            w if LINKAGE.contains(&w) => {
                // Decide by the first non-linkage word whether this is a function or a variable.
                let mut n = 0;
                while matches!(self.peek_at(n), Some(x) if x.kind == Tok::DotWord && LINKAGE.contains(&x.text)) {
                    n += 1;
                }
                match self.peek_at(n) {
                    Some(x) if x.text == ".entry" || x.text == ".func" => Ok(Some(TopItem::Func(self.func()?))),
                    _ => Ok(Some(TopItem::Var(self.var_decl(true)?))),
                }
            }
            w if SPACES.contains(&w) => Ok(Some(TopItem::Var(self.var_decl(true)?))),
            ".alias" | ".callprototype" => {
                Err(Diag::new(t.loc, format!("directive `{}` is not supported by smsync", t.text)))
            }
            _ => Err(Diag::new(t.loc, format!("unknown directive `{}`", t.text))),
        }
    }

    fn func(&mut self) -> DResult<FuncDecl> {
        let loc = self.here();
        let mut linkage = Vec::new();
        while let Some(t) = self.peek().copied() {
            if t.kind == Tok::DotWord && LINKAGE.contains(&t.text) {
                linkage.push(t.text.to_string());
                self.bump();
            } else {
                break;
            }
        }
        let kw = self.expect(Tok::DotWord)?;
        let is_entry = match kw.text {
            ".entry" => true,
            ".func" => false,
            _ => return Err(Diag::new(kw.loc, format!("expected `.entry` or `.func`, found `{}`", kw.text))),
        };
        // `.func .attribute(...)` is rare; `.noreturn` may come after the parameters.
        let mut rets = Vec::new();
        if !is_entry && self.is(Tok::LParen) {
            rets = self.param_list()?;
        }
        let name = self.expect(Tok::Ident)?.text.to_string();
        let mut params = Vec::new();
        if self.is(Tok::LParen) {
            params = self.param_list()?;
        }
        let mut perf = Vec::new();
        loop {
            let Some(t) = self.peek().copied() else { return self.err("a function body or `;`") };
            match t.kind {
                Tok::LBrace => {
                    let body = self.block()?;
                    return Ok(FuncDecl { linkage, is_entry, name, rets, params, perf, body: Some(body), loc });
                }
                Tok::Semi => {
                    self.bump();
                    return Ok(FuncDecl { linkage, is_entry, name, rets, params, perf, body: None, loc });
                }
                Tok::DotWord if t.text == ".pragma" => {
                    self.bump();
                    self.skip_to_semi();
                }
                Tok::DotWord => {
                    self.bump();
                    let mut nums = Vec::new();
                    if self.is(Tok::Int) {
                        nums.push(self.uint32()?);
                        while self.eat(Tok::Comma) {
                            nums.push(self.uint32()?);
                        }
                    }
                    perf.push((t.text.trim_start_matches('.').to_string(), nums));
                }
                _ => return self.err("a function body `{`"),
            }
        }
    }

    fn param_list(&mut self) -> DResult<Vec<VarDecl>> {
        self.expect(Tok::LParen)?;
        let mut out = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(out);
        }
        loop {
            out.push(self.var_core(false)?);
            if self.eat(Tok::Comma) {
                continue;
            }
            self.expect(Tok::RParen)?;
            return Ok(out);
        }
    }

    /// A declaration ending in `;`.
    fn var_decl(&mut self, allow_init: bool) -> DResult<VarDecl> {
        let mut v = self.var_core(allow_init)?;
        if allow_init && self.eat(Tok::Eq) {
            v.init = Some(self.init()?);
        }
        self.expect(Tok::Semi)?;
        Ok(v)
    }

    /// `{linkage} .space {.align N} {.ptr {.space} {.align N}} {.vN} .type name {[N]}...`
    fn var_core(&mut self, _allow_init: bool) -> DResult<VarDecl> {
        let loc = self.here();
        let mut linkage = Vec::new();
        let mut space = None;
        let mut align = None;
        let mut vec = None;
        let mut ty = None;
        let mut after_ptr = false;
        while let Some(t) = self.peek().copied() {
            if t.kind != Tok::DotWord {
                break;
            }
            self.bump();
            match t.text {
                w if LINKAGE.contains(&w) => linkage.push(w.to_string()),
                ".align" => align = Some(self.uint32()?),
                ".ptr" => after_ptr = true,
                ".v2" | ".v4" | ".v8" => vec = t.text[2..].parse().ok(),
                ".reg" if space.is_none() => space = Some("reg".to_string()),
                w if SPACES.contains(&w) => {
                    if after_ptr || space.is_some() && space.as_deref() == Some("param") {
                        // pointee space of a `.ptr` kernel parameter: an optimisation hint
                    } else if space.is_some() {
                        return Err(Diag::new(t.loc, format!("second state space `{w}` in declaration")));
                    } else {
                        space = Some(w[1..].to_string());
                    }
                }
                _ => {
                    if ty.is_some() {
                        return Err(Diag::new(t.loc, format!("unexpected `{}` in declaration", t.text)));
                    }
                    ty = Some((t.text[1..].to_string(), t.loc));
                }
            }
        }
        let Some(space) = space else { return Err(Diag::new(loc, "declaration without a state space")) };
        let Some(ty) = ty else { return self.err("a type like `.b32` in declaration") };
        let name = self.expect(Tok::Ident)?.text.to_string();
        let mut dims = Vec::new();
        while self.eat(Tok::LBracket) {
            if self.eat(Tok::RBracket) {
                dims.push(None);
            } else {
                dims.push(Some(self.uint()?));
                self.expect(Tok::RBracket)?;
            }
            if dims.len() > 8 {
                return Err(Diag::new(self.here(), "too many array dimensions"));
            }
        }
        Ok(VarDecl { linkage, space, align, vec, ty, name, dims, init: None, loc })
    }

    fn init(&mut self) -> DResult<Init> {
        let loc = self.here();
        if self.eat(Tok::LBrace) {
            self.enter()?;
            let mut items = Vec::new();
            if !self.is(Tok::RBrace) {
                loop {
                    items.push(self.init()?);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
            }
            self.expect(Tok::RBrace)?;
            self.leave();
            Ok(Init::List(items, loc))
        } else {
            Ok(Init::Num(self.number()?, loc))
        }
    }

    /// A numeric literal with optional leading `-`.
    fn number(&mut self) -> DResult<Num> {
        let neg = self.eat(Tok::Minus);
        let Some(t) = self.peek().copied() else { return self.err("a number") };
        let v = match t.kind {
            Tok::Int => {
                let v = parse_int_text(t.text)
                    .ok_or_else(|| Diag::new(t.loc, format!("integer `{}` out of range", t.text)))?;
                Num::Int(if neg { -(v as i128) } else { v as i128 })
            }
            Tok::HexF32 => {
                let bits = u32::from_str_radix(&t.text[2..], 16).map_err(|_| Diag::new(t.loc, "bad float literal"))?;
                Num::F32Bits(if neg { bits ^ 0x8000_0000 } else { bits })
            }
            Tok::HexF64 => {
                let bits = u64::from_str_radix(&t.text[2..], 16).map_err(|_| Diag::new(t.loc, "bad float literal"))?;
                Num::F64Bits(if neg { bits ^ (1 << 63) } else { bits })
            }
            Tok::DecFloat => {
                let v: f64 = t.text.parse().map_err(|_| Diag::new(t.loc, format!("bad float literal `{}`", t.text)))?;
                Num::Dec(if neg { -v } else { v })
            }
            _ => return self.err("a number"),
        };
        self.bump();
        Ok(v)
    }

    // ---- function bodies ----------------------------------------------------------------------

    /// `{ statements }`
    fn block(&mut self) -> DResult<Vec<Statement>> {
        let open = self.expect(Tok::LBrace)?;
        self.enter()?;
        let mut body = Vec::new();
        loop {
            let Some(t) = self.peek().copied() else { return Err(Diag::new(open.loc, "unclosed `{`")) };
            match t.kind {
                Tok::RBrace => {
                    self.bump();
                    self.leave();
                    return Ok(body);
                }
                Tok::LBrace => {
                    let inner = self.block()?;
                    body.push(Statement::Block { body: inner, loc: t.loc });
                }
                Tok::Semi => {
                    self.bump(); // empty statement
                }
                Tok::DotWord => match t.text {
                    ".reg" => body.push(Statement::Reg(self.reg_decl()?)),
                    ".loc" | ".file" => {
                        self.bump();
                        self.skip_line(t.loc.line);
                    }
                    ".pragma" => {
                        self.bump();
                        self.skip_to_semi();
                    }
                    w if SPACES.contains(&w) || LINKAGE.contains(&w) || w == ".align" => {
                        body.push(Statement::Var(self.var_decl(true)?));
                    }
                    _ => return Err(Diag::new(t.loc, format!("unknown directive `{}` in function body", t.text))),
                },
                Tok::Ident if self.peek_at(1).map(|n| n.kind) == Some(Tok::Colon) => {
                    self.bump();
                    self.bump();
                    body.push(Statement::Label { name: t.text.to_string(), loc: t.loc });
                }
                Tok::Ident | Tok::At => body.push(Statement::Instr(self.instruction()?)),
                _ => return Err(Diag::new(t.loc, format!("expected an instruction, found `{}`", t.text))),
            }
        }
    }

    fn reg_decl(&mut self) -> DResult<RegDecl> {
        let loc = self.expect(Tok::DotWord)?.loc; // .reg
        let mut vec = None;
        let mut ty = None;
        while let Some(t) = self.peek().copied() {
            if t.kind != Tok::DotWord {
                break;
            }
            self.bump();
            match t.text {
                ".v2" | ".v4" | ".v8" => vec = t.text[2..].parse().ok(),
                ".align" => {
                    self.uint32()?;
                }
                _ if ty.is_none() => ty = Some((t.text[1..].to_string(), t.loc)),
                _ => return Err(Diag::new(t.loc, format!("unexpected `{}` in `.reg` declaration", t.text))),
            }
        }
        let Some(ty) = ty else { return self.err("a register type like `.b32`") };
        let mut names = Vec::new();
        loop {
            let n = self.expect(Tok::Ident)?;
            let mut count = None;
            if self.eat(Tok::Lt) {
                count = Some(self.uint32()?);
                self.expect(Tok::Gt)?;
            }
            names.push((n.text.to_string(), count, n.loc));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi)?;
        Ok(RegDecl { ty, vec, names, loc })
    }

    fn instruction(&mut self) -> DResult<Instruction> {
        let mut guard = None;
        if let Some(at) = self.peek().copied().filter(|t| t.kind == Tok::At) {
            self.bump();
            let negated = self.eat(Tok::Bang);
            let name = self.expect(Tok::Ident)?;
            guard = Some(Guard { negated, name: name.text.to_string(), loc: at.loc });
        }
        let op = self.expect(Tok::Ident)?;
        let mut mods = Vec::new();
        while let Some(t) = self.peek().copied().filter(|t| t.kind == Tok::DotWord) {
            self.bump();
            mods.push((t.text[1..].to_string(), t.loc));
        }
        let mut operands = Vec::new();
        if !self.is(Tok::Semi) {
            loop {
                operands.push(self.operand()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        if !self.is(Tok::Semi) {
            return self.err("`,` or `;` after operand");
        }
        self.bump();
        Ok(Instruction { guard, opcode: op.text.to_string(), mods, operands, loc: op.loc })
    }

    /// An operand, possibly `a|b`.
    fn operand(&mut self) -> DResult<OperandAst> {
        let first = self.single_operand()?;
        if self.is(Tok::Pipe) {
            let loc = first.loc();
            self.bump();
            let second = self.single_operand()?;
            return Ok(OperandAst::Pair { first: Box::new(first), second: Box::new(second), loc });
        }
        Ok(first)
    }

    /// A name; `%tid` `.x` touching become `%tid.x`, and a vector register's component `v` `.x`
    /// (`.x .y .z .w .r .g .b .a`, PTX ISA §5.4.2) becomes `v.x`.
    fn name(&mut self) -> DResult<(String, Loc)> {
        let t = self.expect(Tok::Ident)?;
        let mut name = t.text.to_string();
        if let Some(d) = self.peek().copied() {
            let component = [".x", ".y", ".z", ".w", ".r", ".g", ".b", ".a"].contains(&d.text);
            if d.kind == Tok::DotWord && d.start == t.end && (t.text.starts_with('%') || component) {
                name.push_str(d.text);
                self.bump();
            }
        }
        Ok((name, t.loc))
    }

    /// `+ imm`, `- imm`, `+ -imm` after a name, summed.
    fn offset_suffix(&mut self) -> DResult<i64> {
        let mut total: i64 = 0;
        while self.is(Tok::Plus) || self.is(Tok::Minus) {
            let loc = self.here();
            let minus = self.bump().map(|t| t.kind == Tok::Minus).unwrap_or(false);
            let n = match self.number()? {
                Num::Int(v) => v,
                _ => return Err(Diag::new(loc, "address offsets must be integers")),
            };
            let n = if minus { -n } else { n };
            let n = i64::try_from(n).map_err(|_| Diag::new(loc, "address offset out of range"))?;
            total = total.checked_add(n).ok_or_else(|| Diag::new(loc, "address offset out of range"))?;
        }
        Ok(total)
    }

    fn list(&mut self, close: Tok) -> DResult<Vec<OperandAst>> {
        self.enter()?;
        let mut items = Vec::new();
        if !self.is(close) {
            loop {
                items.push(self.operand()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(close)?;
        self.leave();
        Ok(items)
    }

    fn single_operand(&mut self) -> DResult<OperandAst> {
        let Some(t) = self.peek().copied() else { return self.err("an operand") };
        match t.kind {
            Tok::Ident if t.text == "_" => {
                self.bump();
                Ok(OperandAst::Sink { loc: t.loc })
            }
            Tok::Ident => {
                let (name, loc) = self.name()?;
                let offset = self.offset_suffix()?;
                Ok(OperandAst::Name { name, offset, loc })
            }
            Tok::Bang => {
                self.bump();
                let (name, _) = self.name()?;
                Ok(OperandAst::Not { name, loc: t.loc })
            }
            Tok::Int | Tok::HexF32 | Tok::HexF64 | Tok::DecFloat | Tok::Minus => {
                let value = self.number()?;
                Ok(OperandAst::Num { value, loc: t.loc })
            }
            Tok::LBrace => {
                self.bump();
                let items = self.list(Tok::RBrace)?;
                Ok(OperandAst::Vector { items, loc: t.loc })
            }
            Tok::LParen => {
                self.bump();
                let items = self.list(Tok::RParen)?;
                Ok(OperandAst::Paren { items, loc: t.loc })
            }
            Tok::LBracket => {
                self.bump();
                self.enter()?;
                let (base, offset) = match self.peek_kind() {
                    Some(Tok::Ident) => {
                        let b = self.name()?;
                        (Some(b), self.offset_suffix()?)
                    }
                    Some(Tok::Int) | Some(Tok::Minus) => {
                        let loc = self.here();
                        match self.number()? {
                            Num::Int(v) => {
                                let v = i64::try_from(v)
                                    .or_else(|_| u64::try_from(v).map(|u| u as i64))
                                    .map_err(|_| Diag::new(loc, "address out of range"))?;
                                let more = self.offset_suffix()?;
                                (None, v.wrapping_add(more))
                            }
                            _ => return Err(Diag::new(loc, "an address must be an integer")),
                        }
                    }
                    _ => return self.err("an address (register, variable or integer)"),
                };
                let mut rest = Vec::new();
                while self.eat(Tok::Comma) {
                    rest.push(self.operand()?);
                }
                self.expect(Tok::RBracket)?;
                self.leave();
                Ok(OperandAst::Addr { base, offset, rest, loc: t.loc })
            }
            _ => self.err("an operand"),
        }
    }
}
