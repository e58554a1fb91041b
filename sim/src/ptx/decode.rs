//! Typed decode: statement tree -> [`ir::Module`].
//!
//! * Module level: `.version/.target/.address_size`, variables, functions (entries and `.func`s,
//!   prototypes are skipped once a definition exists).
//! * Function level: parameters (laid out in order at their alignment), `.reg` declarations
//!   (ranges `%r<N>`), scoped `{ }` blocks with their own registers, labels and call-site
//!   `.param` variables (shadowing allowed: every declaration gets its own slot), labels resolved
//!   to instruction indices.
//! * Instruction level: see `decode_instr`; modifiers are accepted in any order (the PTX text
//!   mixes orders, digest §21.3) through [`Mods`], which reports leftovers as
//!   "unknown modifier `.x` for `op`". Purely syntactic rules of the digest are checked here.
//!
//! Operand conventions the executor relies on (beyond the per-variant docs in `ir.rs`):
//! * a `d|p` destination pair is one operand `Vector([d, p])` (setp, elect, match.all, shfl);
//! * immediates are masked to the width of the operand type (zero-extended bits);
//! * a tensor operand `[tmap, {c0, c1}]` is `Vector([Addr(tmap), Vector(coords)])`;
//! * call-site `.param` declarations inside a body are variables (`VarInfo` with space
//!   `Param`, listed in `Function::locals`); `call` has ops `[Vector(rets), Vector(args)]`
//!   whose items are `VarAddr` of those variables (or plain values);
//! * inside a `.func`, its return parameters are `AddrBase::Param(params.len() + i)`.

use super::error::{DResult, Diag};
use super::ir::*;
use super::parser::{FuncDecl, Init, Instruction, Num, OperandAst, RegDecl, Statement, TopItem, VarDecl};
use crate::encoding::{AtomOp, BulkDir, DataType, ReduxOp, ShflMode, VoteMode};
use std::collections::HashMap;

/// Builds the module from the parsed items.
pub fn decode_module(items: &[TopItem], file: &str, text: &str) -> DResult<Module> {
    let mut m = Module {
        file: file.to_string(),
        source: text.lines().map(str::to_string).collect(),
        version: (0, 0),
        target_sm: 0,
        target: String::new(),
        address_size: 64,
        vars: Vec::new(),
        funcs: Vec::new(),
    };
    let mut globals: HashMap<String, VarId> = HashMap::new();
    // Function ids: a definition wins over prototypes; a name with only a prototype maps to None.
    let mut func_ids: HashMap<String, Option<FuncId>> = HashMap::new();
    let mut defined: Vec<&FuncDecl> = Vec::new();
    for item in items {
        if let TopItem::Func(f) = item {
            if f.body.is_some() {
                if let Some(Some(_)) = func_ids.get(&f.name) {
                    return Err(Diag::new(f.loc, format!("function `{}` defined twice", f.name)));
                }
                func_ids.insert(f.name.clone(), Some(FuncId(defined.len() as u32)));
                defined.push(f);
            } else {
                func_ids.entry(f.name.clone()).or_insert(None);
            }
        }
    }
    let mut saw_version = false;
    for item in items {
        match item {
            TopItem::Version { major, minor, .. } => {
                m.version = (*major, *minor);
                saw_version = true;
            }
            TopItem::Target { names, loc } => {
                for n in names {
                    if let Some(rest) = n.strip_prefix("sm_").or_else(|| n.strip_prefix("compute_")) {
                        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                        m.target_sm = digits.parse().map_err(|_| Diag::new(*loc, format!("malformed target `{n}`")))?;
                        m.target = n.clone();
                    }
                }
                if m.target.is_empty() {
                    return Err(Diag::new(*loc, "`.target` names no `sm_XX` architecture"));
                }
            }
            TopItem::AddressSize { bits, loc } => {
                if *bits != 32 && *bits != 64 {
                    return Err(Diag::new(*loc, format!("`.address_size` must be 32 or 64, not {bits}")));
                }
                m.address_size = *bits;
            }
            TopItem::Var(v) => {
                let info = var_info(v)?;
                if let Some(&old) = globals.get(&v.name) {
                    // `.extern` declaration followed by (or following) the definition
                    let old_info = &m.vars[old.0 as usize];
                    if !(v.linkage.iter().any(|l| l == ".extern") || old_info.size == 0) {
                        return Err(Diag::new(v.loc, format!("variable `{}` declared twice", v.name)));
                    }
                    if info.size > old_info.size {
                        m.vars[old.0 as usize] = info;
                    }
                    continue;
                }
                globals.insert(v.name.clone(), VarId(m.vars.len() as u32));
                m.vars.push(info);
            }
            TopItem::Func(_) => {}
        }
    }
    if !saw_version {
        return Err(Diag::new(Loc { line: 1, col: 1 }, "missing `.version` directive"));
    }
    if m.target.is_empty() {
        return Err(Diag::new(Loc { line: 1, col: 1 }, "missing `.target` directive"));
    }
    for f in defined {
        let func = FuncDecoder::new(&mut m, &globals, &func_ids, f)?.run(f)?;
        m.funcs.push(func);
    }
    Ok(m)
}

// ---- types, spaces, variables --------------------------------------------------------------

pub(crate) fn ty_of(s: &str) -> Option<Ty> {
    Some(match s {
        "pred" => Ty::Pred,
        "b8" => Ty::B8,
        "b16" => Ty::B16,
        "b32" => Ty::B32,
        "b64" => Ty::B64,
        "b128" => Ty::B128,
        "u8" => Ty::U8,
        "u16" => Ty::U16,
        "u32" => Ty::U32,
        "u64" => Ty::U64,
        "s8" => Ty::S8,
        "s16" => Ty::S16,
        "s32" => Ty::S32,
        "s64" => Ty::S64,
        "f16" => Ty::F16,
        "f16x2" => Ty::F16x2,
        "bf16" => Ty::Bf16,
        "bf16x2" => Ty::Bf16x2,
        "f32" => Ty::F32,
        "f64" => Ty::F64,
        _ => return None,
    })
}

fn dt_to_ty(d: DataType) -> Ty {
    match d {
        DataType::B16 => Ty::B16,
        DataType::B32 => Ty::B32,
        DataType::B64 => Ty::B64,
        DataType::B128 => Ty::B128,
        DataType::U32 => Ty::U32,
        DataType::U64 => Ty::U64,
        DataType::S32 => Ty::S32,
        DataType::S64 => Ty::S64,
        DataType::F32 => Ty::F32,
        DataType::F64 => Ty::F64,
        DataType::F16 => Ty::F16,
        DataType::Bf16 => Ty::Bf16,
        DataType::F16x2 => Ty::F16x2,
        DataType::Bf16x2 => Ty::Bf16x2,
    }
}

fn space_of(s: &str) -> Option<StateSpace> {
    Some(match s {
        "global" => StateSpace::Global,
        "shared" | "shared::cta" => StateSpace::Shared,
        "shared::cluster" => StateSpace::SharedCluster,
        "local" => StateSpace::Local,
        "param" | "param::entry" | "param::func" => StateSpace::Param,
        "const" => StateSpace::Const,
        _ => return None,
    })
}

fn var_info(v: &VarDecl) -> DResult<VarInfo> {
    let ty = ty_of(&v.ty.0).ok_or_else(|| Diag::new(v.ty.1, format!("unknown type `.{}`", v.ty.0)))?;
    let space = space_of(&v.space)
        .ok_or_else(|| Diag::new(v.loc, format!("state space `.{}` not supported for variables", v.space)))?;
    let elem = ty.bytes() * v.vec.unwrap_or(1) as u32;
    let mut count: u64 = 1;
    let mut dynamic = false;
    for d in &v.dims {
        match d {
            Some(n) => count = count.saturating_mul(*n),
            None => dynamic = true,
        }
    }
    let mut init = Vec::new();
    if let Some(i) = &v.init {
        let mut nums = Vec::new();
        flatten_init(i, &mut nums);
        for (n, loc) in &nums {
            let bits = imm_bits(*n, ty, *loc)?;
            init.extend_from_slice(&bits.to_le_bytes()[..(ty.bytes() as usize).min(8)]);
        }
        if dynamic && v.dims.len() == 1 {
            count = nums.len() as u64;
            dynamic = false;
        }
        if nums.len() as u64 > count.saturating_mul(v.vec.unwrap_or(1) as u64) {
            return Err(Diag::new(v.loc, format!("initializer of `{}` has more elements than the variable", v.name)));
        }
    }
    let extern_dynamic = dynamic && v.linkage.iter().any(|l| l == ".extern") && space == StateSpace::Shared;
    if dynamic && !extern_dynamic {
        return Err(Diag::new(v.loc, format!("array `{}` has no size (only `.extern .shared` arrays may)", v.name)));
    }
    let size = if extern_dynamic { 0 } else { count.saturating_mul(elem as u64) };
    let size = u32::try_from(size).map_err(|_| Diag::new(v.loc, format!("variable `{}` is too large", v.name)))?;
    let align = v.align.unwrap_or(elem.max(1));
    if !align.is_power_of_two() {
        return Err(Diag::new(v.loc, format!("alignment {align} is not a power of two")));
    }
    Ok(VarInfo { name: v.name.clone(), space, ty, align, size, extern_dynamic, init, offset: 0 })
}

fn flatten_init(i: &Init, out: &mut Vec<(Num, Loc)>) {
    match i {
        Init::Num(n, loc) => out.push((*n, *loc)),
        Init::List(items, _) => items.iter().for_each(|x| flatten_init(x, out)),
    }
}

/// Converts a literal to the bits of `ty` (masked to its width).
pub(crate) fn imm_bits(n: Num, ty: Ty, loc: Loc) -> DResult<u64> {
    let mask = |v: u64| if ty.bits() >= 64 { v } else { v & ((1u64 << ty.bits()) - 1) };
    let as_f64 = |n: Num| -> f64 {
        match n {
            Num::Int(v) => v as f64,
            Num::F32Bits(b) => f32::from_bits(b) as f64,
            Num::F64Bits(b) => f64::from_bits(b),
            Num::Dec(d) => d,
        }
    };
    match ty {
        Ty::F32 => Ok(match n {
            Num::F32Bits(b) => b as u64,
            other => (as_f64(other) as f32).to_bits() as u64,
        }),
        Ty::F64 => Ok(match n {
            Num::F64Bits(b) => b,
            other => as_f64(other).to_bits(),
        }),
        Ty::F16 | Ty::Bf16 if !matches!(n, Num::Int(_)) => {
            let v = as_f64(n);
            Ok(if ty == Ty::F16 { half::f16::from_f64(v).to_bits() } else { half::bf16::from_f64(v).to_bits() } as u64)
        }
        _ => match n {
            Num::Int(v) => {
                if v < -(1i128 << 63) || v > u64::MAX as i128 {
                    return Err(Diag::new(loc, "integer literal out of range"));
                }
                Ok(mask(v as u64))
            }
            Num::F32Bits(b) if ty.bits() >= 32 => Ok(mask(b as u64)),
            Num::F64Bits(b) if ty.bits() >= 64 => Ok(b),
            _ => Err(Diag::new(loc, format!("float literal used for integer type `.{}`", ty_name(ty)))),
        },
    }
}

fn is_int_ty(t: Ty) -> bool {
    matches!(t, Ty::U16 | Ty::U32 | Ty::U64 | Ty::S16 | Ty::S32 | Ty::S64)
}

pub(crate) fn ty_name(t: Ty) -> &'static str {
    match t {
        Ty::Pred => "pred",
        Ty::B8 => "b8",
        Ty::B16 => "b16",
        Ty::B32 => "b32",
        Ty::B64 => "b64",
        Ty::B128 => "b128",
        Ty::U8 => "u8",
        Ty::U16 => "u16",
        Ty::U32 => "u32",
        Ty::U64 => "u64",
        Ty::S8 => "s8",
        Ty::S16 => "s16",
        Ty::S32 => "s32",
        Ty::S64 => "s64",
        Ty::F16 => "f16",
        Ty::F16x2 => "f16x2",
        Ty::Bf16 => "bf16",
        Ty::Bf16x2 => "bf16x2",
        Ty::F32 => "f32",
        Ty::F64 => "f64",
    }
}

fn special_reg(name: &str) -> Option<SpecialReg> {
    let comp = |s: &str| match s {
        "x" => Some(0u8),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some((base, c)) = name.split_once('.') {
        let c = comp(c)?;
        return Some(match base {
            "%tid" => SpecialReg::Tid(c),
            "%ntid" => SpecialReg::Ntid(c),
            "%ctaid" => SpecialReg::Ctaid(c),
            "%nctaid" => SpecialReg::Nctaid(c),
            "%cluster_ctaid" => SpecialReg::ClusterCtaid(c),
            "%cluster_nctaid" => SpecialReg::ClusterNctaid(c),
            "%clusterid" => SpecialReg::Clusterid(c),
            "%nclusterid" => SpecialReg::Nclusterid(c),
            _ => return None,
        });
    }
    Some(match name {
        "%laneid" => SpecialReg::Laneid,
        "%warpid" => SpecialReg::Warpid,
        "%nwarpid" => SpecialReg::Nwarpid,
        "%lanemask_eq" => SpecialReg::LanemaskEq,
        "%lanemask_le" => SpecialReg::LanemaskLe,
        "%lanemask_lt" => SpecialReg::LanemaskLt,
        "%lanemask_ge" => SpecialReg::LanemaskGe,
        "%lanemask_gt" => SpecialReg::LanemaskGt,
        "%clock" => SpecialReg::Clock,
        "%clock64" => SpecialReg::Clock64,
        "%smid" => SpecialReg::Smid,
        "%dynamic_smem_size" => SpecialReg::DynamicSmemSize,
        "%total_smem_size" => SpecialReg::TotalSmemSize,
        "%cluster_ctarank" => SpecialReg::ClusterCtarank,
        "%cluster_nctarank" => SpecialReg::ClusterNctarank,
        "%globaltimer" => SpecialReg::Globaltimer,
        "%globaltimer_lo" => SpecialReg::GlobaltimerLo,
        "%globaltimer_hi" => SpecialReg::GlobaltimerHi,
        _ => return None,
    })
}

// ---- modifier bag ------------------------------------------------------------------------------

/// The modifiers of one instruction; decoders take what they understand in any order, and
/// [`Mods::finish`] reports anything left over.
pub(crate) struct Mods<'a> {
    items: Vec<(&'a str, Loc, bool)>,
    opcode: &'a str,
    loc: Loc,
}

impl<'a> Mods<'a> {
    fn new(ins: &'a Instruction) -> Self {
        Mods {
            items: ins.mods.iter().map(|(s, l)| (s.as_str(), *l, false)).collect(),
            opcode: &ins.opcode,
            loc: ins.loc,
        }
    }
    /// Takes `name` if present (error if given twice).
    fn has(&mut self, name: &str) -> DResult<bool> {
        let mut found = false;
        for it in self.items.iter_mut().filter(|it| it.0 == name) {
            if found {
                return Err(Diag::new(it.1, format!("modifier `.{name}` given twice")));
            }
            it.2 = true;
            found = true;
        }
        Ok(found)
    }
    /// Position of a modifier (for errors), or the opcode's.
    fn loc_of(&self, name: &str) -> Loc {
        self.items.iter().find(|it| it.0 == name).map(|it| it.1).unwrap_or(self.loc)
    }
    /// Takes at most one modifier from `table`.
    fn pick<T: Copy>(&mut self, table: &[(&str, T)]) -> DResult<Option<(T, &'a str, Loc)>> {
        let mut got: Option<(T, &'a str, Loc)> = None;
        for it in self.items.iter_mut() {
            if it.2 {
                continue;
            }
            if let Some((_, v)) = table.iter().find(|(n, _)| *n == it.0) {
                if let Some((_, prev, _)) = got {
                    return Err(Diag::new(
                        it.1,
                        format!("conflicting modifiers `.{prev}` and `.{}` for `{}`", it.0, self.opcode),
                    ));
                }
                it.2 = true;
                got = Some((*v, it.0, it.1));
            }
        }
        Ok(got)
    }
    fn pick_v<T: Copy>(&mut self, table: &[(&str, T)]) -> DResult<Option<T>> {
        Ok(self.pick(table)?.map(|x| x.0))
    }
    /// All not yet taken modifiers in `table`, in source order (cvt's two types, bulk directions).
    fn take_all<T: Copy>(&mut self, table: &[(&str, T)]) -> Vec<(T, &'a str, Loc)> {
        let mut out = Vec::new();
        for it in self.items.iter_mut() {
            if it.2 {
                continue;
            }
            if let Some((_, v)) = table.iter().find(|(n, _)| *n == it.0) {
                it.2 = true;
                out.push((*v, it.0, it.1));
            }
        }
        out
    }
    fn need<T: Copy>(&mut self, table: &[(&str, T)], what: &str) -> DResult<T> {
        match self.pick(table)? {
            Some((v, _, _)) => Ok(v),
            None => {
                // A misspelt modifier is the likely cause: name it rather than what is missing.
                if let Some(it) = self.items.iter().find(|it| !it.2 && !is_known_modifier(it.0)) {
                    return Err(Diag::new(it.1, format!("unknown modifier `.{}` for `{}`", it.0, self.opcode)));
                }
                Err(Diag::new(self.loc, format!("`{}` needs {what}", self.opcode)))
            }
        }
    }
    /// Drops performance hints that do not change semantics (`.L1::*`, `.L2::64B`, `.ca` ...).
    fn ignore_hints(&mut self, extra: &[&str]) {
        for it in self.items.iter_mut() {
            let hint = (it.0.starts_with("L1::") || it.0.starts_with("L2::") || it.0.starts_with("level::"))
                && it.0 != "L2::cache_hint";
            if hint || extra.contains(&it.0) {
                it.2 = true;
            }
        }
    }
    fn finish(self) -> DResult<()> {
        match self.items.iter().find(|it| !it.2) {
            Some(it) => Err(Diag::new(it.1, format!("unknown modifier `.{}` for `{}`", it.0, self.opcode))),
            None => Ok(()),
        }
    }
}

/// Every modifier spelling some decoder understands (used only to word error messages).
fn is_known_modifier(m: &str) -> bool {
    const OTHER: &[&str] = &[
        "uni",
        "to",
        "nc",
        "sat",
        "ftz",
        "approx",
        "full",
        "lo",
        "hi",
        "wide",
        "cc",
        "and",
        "or",
        "xor",
        "popc",
        "sync",
        "arrive",
        "wait",
        "red",
        "aligned",
        "warp",
        "noftz",
        "L2::cache_hint",
        "async",
        "bulk",
        "tensor",
        "reduce",
        "mbarrier",
        "noinc",
        "commit_group",
        "wait_group",
        "wait_all",
        "read",
        "prefetch",
        "L2",
        "ca",
        "cg",
        "mbarrier::complete_tx::bytes",
        "bulk_group",
        "multicast::cluster",
        "cp_mask",
        "init",
        "inval",
        "arrive_drop",
        "expect_tx",
        "complete_tx",
        "test_wait",
        "try_wait",
        "pending_count",
        "noComplete",
        "parity",
        "all",
        "any",
        "uni",
        "ballot",
        "abs",
        "NaN",
        "up",
        "down",
        "bfly",
        "idx",
        "proxy",
        "alias",
        "mbarrier_init",
        "gl",
        "launch_dependents",
        "tile",
        "tensormap::generic",
        "async::generic",
        "shiftamt",
        "l",
        "r",
        "wrap",
        "clamp",
        "cp_fenceproxy",
        "try_cancel",
        "query_cancel",
        "is_canceled",
        "get_first_ctaid",
        "multicast::cluster::all",
        "mbarrier::complete_tx::bytes",
        "pred",
        "relu",
        "satfinite",
        "e4m3x2",
        "e5m2x2",
    ];
    OTHER.contains(&m)
        || SEMS.iter().any(|x| x.0 == m)
        || SCOPES.iter().any(|x| x.0 == m)
        || SPACES.iter().any(|x| x.0 == m)
        || TYPES.iter().any(|x| x.0 == m)
        || ATOM_OPS.iter().any(|x| x.0 == m)
        || ROUNDINGS.iter().any(|x| x.0 == m)
        || VECS.iter().any(|x| x.0 == m)
        || DIMS.iter().any(|x| x.0 == m)
        || CMPS.iter().any(|x| x.0 == m)
}

const SEMS: &[(&str, Sem)] = &[
    ("relaxed", Sem::Relaxed),
    ("acquire", Sem::Acquire),
    ("release", Sem::Release),
    ("acq_rel", Sem::AcqRel),
    ("sc", Sem::Sc),
    ("weak", Sem::Weak),
    ("volatile", Sem::Volatile),
];
const SCOPES: &[(&str, Scope)] =
    &[("cta", Scope::Cta), ("cluster", Scope::Cluster), ("gpu", Scope::Gpu), ("sys", Scope::Sys)];
const SPACES: &[(&str, StateSpace)] = &[
    ("global", StateSpace::Global),
    ("shared", StateSpace::Shared),
    ("shared::cta", StateSpace::Shared),
    ("shared::cluster", StateSpace::SharedCluster),
    ("local", StateSpace::Local),
    ("param", StateSpace::Param),
    ("param::entry", StateSpace::Param),
    ("param::func", StateSpace::Param),
    ("const", StateSpace::Const),
];
const TYPES: &[(&str, Ty)] = &[
    ("pred", Ty::Pred),
    ("b8", Ty::B8),
    ("b16", Ty::B16),
    ("b32", Ty::B32),
    ("b64", Ty::B64),
    ("b128", Ty::B128),
    ("u8", Ty::U8),
    ("u16", Ty::U16),
    ("u32", Ty::U32),
    ("u64", Ty::U64),
    ("s8", Ty::S8),
    ("s16", Ty::S16),
    ("s32", Ty::S32),
    ("s64", Ty::S64),
    ("f16", Ty::F16),
    ("f16x2", Ty::F16x2),
    ("bf16", Ty::Bf16),
    ("bf16x2", Ty::Bf16x2),
    ("f32", Ty::F32),
    ("f64", Ty::F64),
];
const DTYPES: &[(&str, DataType)] = &[
    ("b16", DataType::B16),
    ("b32", DataType::B32),
    ("b64", DataType::B64),
    ("b128", DataType::B128),
    ("u32", DataType::U32),
    ("u64", DataType::U64),
    ("s32", DataType::S32),
    ("s64", DataType::S64),
    ("f32", DataType::F32),
    ("f64", DataType::F64),
    ("f16", DataType::F16),
    ("bf16", DataType::Bf16),
    ("f16x2", DataType::F16x2),
    ("bf16x2", DataType::Bf16x2),
];
const ATOM_OPS: &[(&str, AtomOp)] = &[
    ("and", AtomOp::And),
    ("or", AtomOp::Or),
    ("xor", AtomOp::Xor),
    ("cas", AtomOp::Cas),
    ("exch", AtomOp::Exch),
    ("add", AtomOp::Add),
    ("inc", AtomOp::Inc),
    ("dec", AtomOp::Dec),
    ("min", AtomOp::Min),
    ("max", AtomOp::Max),
];
const ROUNDINGS: &[(&str, Rounding)] = &[
    ("rn", Rounding::Rn),
    ("rz", Rounding::Rz),
    ("rm", Rounding::Rm),
    ("rp", Rounding::Rp),
    ("rni", Rounding::Rni),
    ("rzi", Rounding::Rzi),
    ("rmi", Rounding::Rmi),
    ("rpi", Rounding::Rpi),
];
const PACKED: &[(&str, PackedFmt)] = &[
    ("f16x2", PackedFmt::F16x2),
    ("bf16x2", PackedFmt::Bf16x2),
    ("e4m3x2", PackedFmt::E4m3x2),
    ("e5m2x2", PackedFmt::E5m2x2),
];
const VECS: &[(&str, u8)] = &[("v2", 2), ("v4", 4), ("v8", 8)];
const DIMS: &[(&str, u8)] = &[("1d", 1), ("2d", 2), ("3d", 3), ("4d", 4), ("5d", 5)];
const CMPS: &[(&str, CmpOp)] = &[
    ("eq", CmpOp::Eq),
    ("ne", CmpOp::Ne),
    ("lt", CmpOp::Lt),
    ("le", CmpOp::Le),
    ("gt", CmpOp::Gt),
    ("ge", CmpOp::Ge),
    ("lo", CmpOp::Lo),
    ("ls", CmpOp::Ls),
    ("hi", CmpOp::Hi),
    ("hs", CmpOp::Hs),
    ("equ", CmpOp::Equ),
    ("neu", CmpOp::Neu),
    ("ltu", CmpOp::Ltu),
    ("leu", CmpOp::Leu),
    ("gtu", CmpOp::Gtu),
    ("geu", CmpOp::Geu),
    ("num", CmpOp::Num),
    ("nan", CmpOp::Nan),
];
const BOOLS: &[(&str, BoolOp)] = &[("and", BoolOp::And), ("or", BoolOp::Or), ("xor", BoolOp::Xor)];

// ---- per-function decoding ------------------------------------------------------------------

/// One `{ }` scope: its names shadow the enclosing scopes.
#[derive(Default)]
struct NameScope {
    regs: HashMap<String, RegId>,
    /// Vector registers (`.reg .v4 .u32 v;`, PTX ISA §5.4.2): their components, in order.
    vecs: HashMap<String, Vec<RegId>>,
    labels: HashMap<String, u32>,
    vars: HashMap<String, VarId>,
}

struct FuncDecoder<'m> {
    module: &'m mut Module,
    globals: &'m HashMap<String, VarId>,
    func_ids: &'m HashMap<String, Option<FuncId>>,
    params: HashMap<String, ParamId>,
    func: Function,
    scopes: Vec<NameScope>,
}

/// Number of instructions in a statement list (nested blocks included).
fn count_instrs(stmts: &[Statement]) -> u32 {
    stmts
        .iter()
        .map(|s| match s {
            Statement::Instr(_) => 1,
            Statement::Block { body, .. } => count_instrs(body),
            _ => 0,
        })
        .sum()
}

fn param_info(v: &VarDecl, offset: &mut u32) -> DResult<ParamInfo> {
    let ty = ty_of(&v.ty.0).ok_or_else(|| Diag::new(v.ty.1, format!("unknown type `.{}`", v.ty.0)))?;
    let elem = ty.bytes() * v.vec.unwrap_or(1) as u32;
    let mut count: u32 = 1;
    for d in &v.dims {
        let n = d.ok_or_else(|| Diag::new(v.loc, "parameter arrays need a size"))?;
        count = count.saturating_mul(u32::try_from(n).unwrap_or(u32::MAX));
    }
    let size = elem.saturating_mul(count);
    let align = v.align.unwrap_or(elem.max(1)).max(1);
    if !align.is_power_of_two() {
        return Err(Diag::new(v.loc, format!("alignment {align} is not a power of two")));
    }
    let off = offset.div_ceil(align).saturating_mul(align);
    *offset = off.saturating_add(size);
    Ok(ParamInfo { name: v.name.clone(), ty, size, align, offset: off, reg: None })
}

impl<'m> FuncDecoder<'m> {
    fn new(
        module: &'m mut Module,
        globals: &'m HashMap<String, VarId>,
        func_ids: &'m HashMap<String, Option<FuncId>>,
        f: &FuncDecl,
    ) -> DResult<Self> {
        let mut offset = 0u32;
        let mut params = HashMap::new();
        let mut plist = Vec::new();
        let mut rets = Vec::new();
        // `.reg` parameters and return values of a `.func` (PTX ISA §7.1) are registers
        // of the callee, declared in a scope around its body; `call` copies values in and out.
        let mut outer = NameScope::default();
        let mut regs = Vec::new();
        for (is_ret, p) in f.params.iter().map(|p| (false, p)).chain(f.rets.iter().map(|r| (true, r))) {
            let mut info = param_info(p, &mut offset)?;
            match p.space.as_str() {
                "param" => {}
                "reg" if !f.is_entry => {
                    if !p.dims.is_empty() || p.vec.is_some() || info.ty == Ty::B128 {
                        return Err(Diag::new(p.loc, "a `.reg` parameter must be a scalar of at most 64 bits"));
                    }
                    let id = RegId(regs.len() as u32);
                    regs.push(RegInfo { name: p.name.clone(), ty: info.ty });
                    outer.regs.insert(p.name.clone(), id);
                    info.reg = Some(id);
                }
                other => {
                    let what = if is_ret { "return values" } else { "parameters" };
                    let hint = if f.is_entry { "kernel parameters are `.param`" } else { "use `.param` or `.reg`" };
                    return Err(Diag::new(p.loc, format!("`.{other}` {what} are not supported ({hint})")));
                }
            }
            if info.reg.is_none() {
                let id =
                    if is_ret { ParamId((f.params.len() + rets.len()) as u32) } else { ParamId(plist.len() as u32) };
                params.insert(p.name.clone(), id);
            }
            if is_ret {
                rets.push(info);
            } else {
                plist.push(info);
            }
        }
        let func = Function {
            name: f.name.clone(),
            is_entry: f.is_entry,
            params: plist,
            rets,
            regs,
            body: Vec::new(),
            locals: Vec::new(),
            loc: f.loc,
        };
        Ok(FuncDecoder { module, globals, func_ids, params, func, scopes: vec![outer] })
    }

    fn run(mut self, f: &FuncDecl) -> DResult<Function> {
        let body = f.body.as_deref().unwrap_or(&[]);
        self.block(body)?;
        Ok(self.func)
    }

    fn block(&mut self, stmts: &[Statement]) -> DResult<()> {
        // Labels of this block are visible from anywhere in it (forward branches).
        let mut scope = NameScope::default();
        let mut idx = self.func.body.len() as u32;
        for s in stmts {
            match s {
                Statement::Instr(_) => idx += 1,
                Statement::Block { body, .. } => idx += count_instrs(body),
                Statement::Label { name, loc } if scope.labels.insert(name.clone(), idx).is_some() => {
                    return Err(Diag::new(*loc, format!("label `{name}` defined twice")));
                }
                _ => {}
            }
        }
        self.scopes.push(scope);
        for s in stmts {
            match s {
                Statement::Reg(r) => self.reg_decl(r)?,
                Statement::Var(v) => {
                    let info = var_info(v)?;
                    let id = VarId(self.module.vars.len() as u32);
                    self.module.vars.push(info);
                    self.func.locals.push(id);
                    if let Some(sc) = self.scopes.last_mut() {
                        sc.vars.insert(v.name.clone(), id);
                    }
                }
                Statement::Label { .. } => {}
                Statement::Block { body, .. } => self.block(body)?,
                Statement::Instr(ins) => {
                    let instr = self.instr(ins)?;
                    self.func.body.push(instr);
                }
            }
        }
        self.scopes.pop();
        Ok(())
    }

    fn reg_decl(&mut self, r: &RegDecl) -> DResult<()> {
        let ty = ty_of(&r.ty.0).ok_or_else(|| Diag::new(r.ty.1, format!("unknown register type `.{}`", r.ty.0)))?;
        let comps: &[&str] = match r.vec {
            None => &[],
            Some(2) => &["x", "y"],
            Some(4) => &["x", "y", "z", "w"],
            Some(n) => return Err(Diag::new(r.loc, format!("vector registers are `.v2` or `.v4`, not `.v{n}`"))),
        };
        if !comps.is_empty() && matches!(ty, Ty::Pred | Ty::B128) {
            return Err(Diag::new(r.ty.1, format!("a vector register of `.{}` is not valid PTX", r.ty.0)));
        }
        for (name, count, loc) in &r.names {
            let names: Vec<String> = match count {
                None => vec![name.clone()],
                Some(n) => {
                    if *n > 1 << 20 {
                        return Err(Diag::new(*loc, format!("register range `{name}<{n}>` is too large")));
                    }
                    (0..*n).map(|i| format!("{name}{i}")).collect()
                }
            };
            for n in names {
                if comps.is_empty() {
                    let id = self.new_reg(&n, ty);
                    if let Some(sc) = self.scopes.last_mut() {
                        sc.regs.insert(n, id);
                    }
                    continue;
                }
                // v.x v.y v.z v.w, also spelt v.r v.g v.b v.a (PTX ISA §5.4.2)
                let ids: Vec<RegId> = comps.iter().map(|c| self.new_reg(&format!("{n}.{c}"), ty)).collect();
                if let Some(sc) = self.scopes.last_mut() {
                    for (i, id) in ids.iter().enumerate() {
                        sc.regs.insert(format!("{n}.{}", ["x", "y", "z", "w"][i]), *id);
                        sc.regs.insert(format!("{n}.{}", ["r", "g", "b", "a"][i]), *id);
                    }
                    sc.vecs.insert(n, ids);
                }
            }
        }
        Ok(())
    }

    /// A new register slot. A `.b128` register takes two consecutive slots: its low 64 bits in
    /// the named one, its high 64 bits in the next (unnamed) one, so the register file stays
    /// 64 bits wide and a `.b128` value keeps all 128 bits.
    fn new_reg(&mut self, name: &str, ty: Ty) -> RegId {
        let id = RegId(self.func.regs.len() as u32);
        self.func.regs.push(RegInfo { name: name.to_string(), ty });
        if ty == Ty::B128 {
            self.func.regs.push(RegInfo { name: format!("{name}(hi)"), ty: Ty::B64 });
        }
        id
    }

    // ---- name resolution ----

    fn find_reg(&self, name: &str) -> Option<RegId> {
        self.scopes.iter().rev().find_map(|s| s.regs.get(name).copied())
    }
    fn find_var(&self, name: &str) -> Option<VarId> {
        self.scopes.iter().rev().find_map(|s| s.vars.get(name).copied()).or_else(|| self.globals.get(name).copied())
    }
    fn find_vec(&self, name: &str) -> Option<&Vec<RegId>> {
        self.scopes.iter().rev().find_map(|s| s.vecs.get(name))
    }
    fn find_label(&self, name: &str) -> Option<u32> {
        self.scopes.iter().rev().find_map(|s| s.labels.get(name).copied())
    }
    fn reg_ty(&self, r: RegId) -> Option<Ty> {
        self.func.regs.get(r.0 as usize).map(|i| i.ty)
    }

    /// A source value of type `ty`.
    fn value(&self, a: &OperandAst, ty: Ty) -> DResult<Operand> {
        match a {
            OperandAst::Name { name, offset, loc } => {
                if let Some(r) = self.find_reg(name) {
                    if *offset != 0 {
                        return Err(Diag::new(*loc, "a register cannot take an offset here"));
                    }
                    return Ok(Operand::Reg(r));
                }
                if let Some(v) = self.find_vec(name) {
                    if *offset != 0 {
                        return Err(Diag::new(*loc, "a vector register cannot take an offset"));
                    }
                    return Ok(Operand::Vector(v.iter().map(|r| Operand::Reg(*r)).collect()));
                }
                if name.starts_with('%') {
                    if let Some(s) = special_reg(name) {
                        return Ok(Operand::Special(s));
                    }
                    let known = [
                        "%tid",
                        "%ntid",
                        "%ctaid",
                        "%nctaid",
                        "%cluster",
                        "%nclusterid",
                        "%clusterid",
                        "%is_explicit_cluster",
                        "%globaltimer",
                        "%envreg",
                        "%pm",
                        "%gridid",
                        "%reserved_smem",
                        "%aggr_smem",
                        "%current_graph_exec",
                    ];
                    if known.iter().any(|k| name.starts_with(k)) {
                        return Err(Diag::new(*loc, format!("special register `{name}` is not supported by smsync")));
                    }
                    return Err(Diag::new(*loc, format!("unknown register `{name}`")));
                }
                if let Some(v) = self.find_var(name) {
                    return Ok(Operand::VarAddr { var: v, offset: *offset });
                }
                if let Some(p) = self.params.get(name) {
                    // PTX ISA §5.1.6.1: a kernel parameter's address may be taken with `mov`
                    if !self.func.is_entry {
                        return Err(Diag::new(
                            *loc,
                            format!("taking the address of `.func` parameter `{name}` is not supported by smsync"),
                        ));
                    }
                    return Ok(Operand::ParamAddr { param: *p, offset: *offset });
                }
                if name == "WARP_SZ" {
                    // the predefined constant of PTX ISA §4.4 (a warp is 32 threads)
                    return Ok(Operand::Imm(imm_bits(Num::Int(32), ty, *loc)?));
                }
                Err(Diag::new(*loc, format!("unknown register or symbol `{name}`")))
            }
            OperandAst::Not { name, loc } => match self.find_reg(name) {
                Some(r) => Ok(Operand::NotPred(r)),
                None => Err(Diag::new(*loc, format!("unknown predicate `{name}`"))),
            },
            OperandAst::Num { value, loc } => Ok(Operand::Imm(imm_bits(*value, ty, *loc)?)),
            OperandAst::Vector { items, .. } => {
                let mut v = Vec::with_capacity(items.len());
                for i in items {
                    v.push(match i {
                        OperandAst::Sink { .. } => Operand::Sink,
                        other => self.value(other, ty)?,
                    });
                }
                Ok(Operand::Vector(v))
            }
            OperandAst::Sink { loc } => Err(Diag::new(*loc, "the sink `_` cannot be a source")),
            OperandAst::Addr { loc, .. } => Err(Diag::new(*loc, "expected a value, found an address `[...]`")),
            OperandAst::Paren { loc, .. } => Err(Diag::new(*loc, "unexpected `(...)` list")),
            OperandAst::Pair { loc, .. } => Err(Diag::new(*loc, "`a|b` is only allowed as a destination")),
        }
    }

    /// A destination register, `_` or vector of them.
    fn dest(&self, a: &OperandAst) -> DResult<Operand> {
        match a {
            OperandAst::Name { name, loc, offset } => match self.find_reg(name) {
                Some(r) if *offset == 0 => Ok(Operand::Reg(r)),
                None if *offset == 0 && self.find_vec(name).is_some() => {
                    let v =
                        self.find_vec(name).map(|v| v.iter().map(|r| Operand::Reg(*r)).collect()).unwrap_or_default();
                    Ok(Operand::Vector(v))
                }
                _ => Err(Diag::new(*loc, format!("destination `{name}` is not a declared register"))),
            },
            OperandAst::Sink { .. } => Ok(Operand::Sink),
            OperandAst::Vector { items, .. } => {
                Ok(Operand::Vector(items.iter().map(|i| self.dest(i)).collect::<DResult<_>>()?))
            }
            OperandAst::Pair { first, second, .. } => Ok(Operand::Vector(vec![self.dest(first)?, self.dest(second)?])),
            other => Err(Diag::new(other.loc(), "expected a destination register")),
        }
    }

    /// `[base+off]`.
    fn addr(&self, a: &OperandAst) -> DResult<Operand> {
        let OperandAst::Addr { base, offset, rest, loc } = a else {
            return Err(Diag::new(a.loc(), "expected an address operand `[...]`"));
        };
        if let Some(r) = rest.first() {
            return Err(Diag::new(r.loc(), "unexpected `,` inside an address"));
        }
        self.addr_base(base, *offset, *loc)
    }

    fn addr_base(&self, base: &Option<(String, Loc)>, offset: i64, loc: Loc) -> DResult<Operand> {
        let base = match base {
            None => AddrBase::Abs,
            Some((name, bloc)) => {
                if let Some(r) = self.find_reg(name) {
                    AddrBase::Reg(r)
                } else if let Some(v) = self.scopes.iter().rev().find_map(|s| s.vars.get(name).copied()) {
                    AddrBase::Var(v)
                } else if let Some(p) = self.params.get(name) {
                    AddrBase::Param(*p)
                } else if let Some(v) = self.globals.get(name) {
                    AddrBase::Var(*v)
                } else {
                    return Err(Diag::new(*bloc, format!("unknown address base `{name}`")));
                }
            }
        };
        let _ = loc;
        Ok(Operand::Addr { base, offset })
    }

    /// `[tmap, {c0, ..}]` -> Vector([Addr, Vector(coords)]), checking the coordinate count.
    fn tensor(&self, a: &OperandAst, coords_wanted: usize) -> DResult<Operand> {
        let OperandAst::Addr { base, offset, rest, loc } = a else {
            return Err(Diag::new(a.loc(), "expected a tensor operand `[tensorMap, {coords}]`"));
        };
        let coords = match rest.as_slice() {
            [OperandAst::Vector { items, loc: vloc }] => {
                if items.len() != coords_wanted {
                    return Err(Diag::new(
                        *vloc,
                        format!("expected {coords_wanted} tensor coordinates, found {}", items.len()),
                    ));
                }
                items.iter().map(|i| self.value(i, Ty::S32)).collect::<DResult<Vec<_>>>()?
            }
            _ => return Err(Diag::new(*loc, "expected a tensor operand `[tensorMap, {coords}]`")),
        };
        Ok(Operand::Vector(vec![self.addr_base(base, *offset, *loc)?, Operand::Vector(coords)]))
    }

    fn label(&self, a: &OperandAst) -> DResult<Operand> {
        match a {
            OperandAst::Name { name, loc, .. } => match self.find_label(name) {
                Some(i) => Ok(Operand::Label(i)),
                None => Err(Diag::new(*loc, format!("unknown label `{name}`"))),
            },
            other => Err(Diag::new(other.loc(), "expected a label")),
        }
    }

    // ---- instructions ----

    fn instr(&self, ins: &Instruction) -> DResult<Instr> {
        let guard = match &ins.guard {
            None => None,
            Some(g) => match self.find_reg(&g.name) {
                Some(r) if self.reg_ty(r) == Some(Ty::Pred) => Some(Guard { pred: r, negated: g.negated }),
                Some(_) => return Err(Diag::new(g.loc, format!("guard `{}` is not a predicate register", g.name))),
                None => return Err(Diag::new(g.loc, format!("unknown predicate `{}`", g.name))),
            },
        };
        let (op, ops) = self.decode(ins)?;
        Ok(Instr { guard, op, ops, loc: ins.loc })
    }

    fn nops(&self, ins: &Instruction, range: std::ops::RangeInclusive<usize>) -> DResult<()> {
        let n = ins.operands.len();
        if range.contains(&n) {
            return Ok(());
        }
        let want = if range.start() == range.end() {
            format!("{}", range.start())
        } else {
            format!("{} to {}", range.start(), range.end())
        };
        let at = ins.operands.get(*range.end()).map(|o| o.loc()).unwrap_or(ins.loc);
        Err(Diag::new(at, format!("`{}` takes {want} operands, found {n}", full_name(ins))))
    }

    fn op<'i>(&self, ins: &'i Instruction, i: usize) -> DResult<&'i OperandAst> {
        ins.operands
            .get(i)
            .ok_or_else(|| Diag::new(ins.loc, format!("`{}` is missing operand {}", full_name(ins), i + 1)))
    }

    fn decode(&self, ins: &Instruction) -> DResult<(Opcode, Vec<Operand>)> {
        let name = ins.opcode.as_str();
        let mut m = Mods::new(ins);
        // the instruction table (forms.rs) gates the dispatch: an opcode it does not list as
        // decoded is unknown, or refused when it lists the opcode as not supported
        if !super::forms::decodes(name) || super::forms::refused_form(&full_name(ins)) {
            return Err(self.not_decoded(ins));
        }
        let r = match name {
            "mov" => self.d_mov(ins, &mut m)?,
            "ld" | "st" => self.d_ldst(ins, &mut m, name == "st")?,
            "cvta" => self.d_cvta(ins, &mut m)?,
            "cvt" => self.d_cvt(ins, &mut m)?,
            "add" | "sub" | "mad" if ins.mods.iter().any(|(s, _)| s == "cc") => self.d_carry(ins, &mut m)?,
            "addc" | "subc" | "madc" => self.d_carry(ins, &mut m)?,
            "add" | "sub" | "mul" | "mad" | "fma" | "div" | "rem" | "neg" | "abs" | "min" | "max" | "rcp" | "sqrt"
            | "rsqrt" | "ex2" | "lg2" | "sin" | "cos" | "copysign" | "sad" => self.d_arith(ins, &mut m)?,
            "and" | "or" | "xor" | "not" | "cnot" | "shl" | "shr" => self.d_logic(ins, &mut m)?,
            "popc" | "clz" | "brev" | "bfe" | "bfi" | "bfind" | "prmt" | "fns" | "shf" | "lop3" | "bmsk" => {
                self.d_bit(ins, &mut m)?
            }
            "mapa" | "getctarank" => self.d_mapa(ins, &mut m)?,
            "setp" | "set" => self.d_setp(ins, &mut m, name == "set")?,
            "selp" => {
                let ty = m.need(TYPES, "a type")?;
                self.nops(ins, 4..=4)?;
                let ops = vec![
                    self.dest(self.op(ins, 0)?)?,
                    self.value(self.op(ins, 1)?, ty)?,
                    self.value(self.op(ins, 2)?, ty)?,
                    self.value(self.op(ins, 3)?, Ty::Pred)?,
                ];
                (Opcode::Selp(ty), ops)
            }
            "bra" => {
                let uni = m.has("uni")?;
                self.nops(ins, 1..=1)?;
                (Opcode::Bra { uni }, vec![self.label(self.op(ins, 0)?)?])
            }
            "call" => self.d_call(ins, &mut m)?,
            "ret" => {
                m.has("uni")?;
                self.nops(ins, 0..=0)?;
                (Opcode::Ret, vec![])
            }
            "exit" => {
                self.nops(ins, 0..=0)?;
                (Opcode::Exit, vec![])
            }
            "nanosleep" => {
                m.need(&[("u32", ())], "type `.u32`")?;
                self.nops(ins, 1..=1)?;
                (Opcode::Nanosleep, vec![self.value(self.op(ins, 0)?, Ty::U32)?])
            }
            "membar" | "fence" => self.d_fence(ins, &mut m)?,
            "griddepcontrol" => {
                let launch =
                    m.need(&[("launch_dependents", true), ("wait", false)], "`.launch_dependents` or `.wait`")?;
                self.nops(ins, 0..=0)?;
                (Opcode::GridDepControl { launch_dependents: launch }, vec![])
            }
            "bar" | "barrier" => self.d_bar(ins, &mut m)?,
            "vote" => self.d_vote(ins, &mut m)?,
            "match" => self.d_match(ins, &mut m)?,
            "activemask" => {
                m.need(&[("b32", ())], "type `.b32`")?;
                self.nops(ins, 1..=1)?;
                (Opcode::Activemask, vec![self.dest(self.op(ins, 0)?)?])
            }
            "redux" => self.d_redux(ins, &mut m)?,
            "elect" => {
                if !m.has("sync")? {
                    return Err(Diag::new(ins.loc, "`elect` needs `.sync`"));
                }
                self.nops(ins, 2..=2)?;
                (Opcode::Elect, vec![self.dest(self.op(ins, 0)?)?, self.value(self.op(ins, 1)?, Ty::B32)?])
            }
            "shfl" if ins.mods.iter().any(|(s, _)| s == "sync") => self.d_shfl(ins, &mut m)?,
            "atom" | "red" => {
                if name == "red" && ins.mods.iter().any(|(s, _)| s == "async") {
                    self.d_red_async(ins, &mut m)?
                } else {
                    self.d_atom(ins, &mut m, name == "red")?
                }
            }
            "mbarrier" => self.d_mbarrier(ins, &mut m)?,
            "cp" => self.d_cp(ins, &mut m)?,
            "tensormap" if ins.mods.iter().any(|(s, _)| s == "cp_fenceproxy") => {
                self.d_tensormap_cp_fenceproxy(ins, &mut m)?
            }
            "clusterlaunchcontrol" => self.d_clusterlaunchcontrol(ins, &mut m)?,
            _ => return Err(self.not_decoded(ins)),
        };
        m.finish()?;
        Ok(r)
    }

    /// The error for a statement no decoder arm takes: "not supported" for a form the
    /// instruction table lists as such, else "unknown instruction".
    fn not_decoded(&self, ins: &Instruction) -> Diag {
        let name = ins.opcode.as_str();
        if super::forms::refused(name, &full_name(ins)) {
            return Diag::new(ins.loc, format!("instruction `{name}` is not supported by smsync"));
        }
        Diag::new(ins.loc, format!("unknown instruction `{name}`"))
    }

    fn d_mov(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        let ty = m.need(TYPES, "a type")?;
        self.nops(ins, 2..=2)?;
        let src = self.op(ins, 1)?;
        if let OperandAst::Name { name, loc, .. } = src {
            if self.func_ids.contains_key(name) && self.find_reg(name).is_none() && self.find_var(name).is_none() {
                return Err(Diag::new(*loc, "function addresses are not supported by smsync"));
            }
        }
        Ok((Opcode::Mov(ty), vec![self.dest(self.op(ins, 0)?)?, self.value(src, ty)?]))
    }

    fn d_ldst(&self, ins: &Instruction, m: &mut Mods, store: bool) -> DResult<(Opcode, Vec<Operand>)> {
        let space = m.pick_v(SPACES)?.unwrap_or(StateSpace::Generic);
        let nc = m.has("nc")?;
        if nc && (store || space != StateSpace::Global) {
            return Err(Diag::new(m.loc_of("nc"), "`.nc` is only valid on `ld.global`"));
        }
        let sem = m.pick(SEMS)?;
        if let Some((s, text, loc)) = sem {
            let ok = match s {
                Sem::Weak | Sem::Volatile | Sem::Relaxed => true,
                Sem::Acquire => !store,
                Sem::Release => store,
                _ => false,
            };
            if !ok {
                return Err(Diag::new(loc, format!("`.{text}` is not valid on `{}`", ins.opcode)));
            }
        }
        let scope = m.pick(SCOPES)?;
        if let Some((_, t, loc)) = scope {
            if !matches!(sem.map(|x| x.0), Some(Sem::Relaxed | Sem::Acquire | Sem::Release)) {
                return Err(Diag::new(loc, format!("scope `.{t}` needs `.relaxed`, `.acquire` or `.release`")));
            }
        }
        m.ignore_hints(&["ca", "cg", "cs", "lu", "cv", "wb", "wt", "unified"]);
        let hint = m.has("L2::cache_hint")?;
        let vec = m.pick_v(VECS)?.unwrap_or(1);
        let ty = m.need(TYPES, "a type")?;
        self.nops(ins, 2..=if hint { 3 } else { 2 })?;
        if ins.operands.len() == 3 && !hint {
            return Err(Diag::new(ins.loc, "cache-policy operand needs `.L2::cache_hint`"));
        }
        let check_vec = |o: &Operand, loc: Loc| -> DResult<()> {
            match o {
                Operand::Vector(v) if vec > 1 && v.len() == vec as usize => Ok(()),
                Operand::Vector(v) if vec > 1 => {
                    Err(Diag::new(loc, format!("`.v{vec}` needs {vec} elements, found {}", v.len())))
                }
                Operand::Vector(_) => Err(Diag::new(loc, "a vector operand needs `.v2`/`.v4`")),
                _ if vec > 1 => Err(Diag::new(loc, format!("`.v{vec}` needs a vector operand `{{...}}`"))),
                _ => Ok(()),
            }
        };
        let mut ops = if store {
            let a = self.addr(self.op(ins, 0)?)?;
            let b = self.value(self.op(ins, 1)?, ty)?;
            check_vec(&b, self.op(ins, 1)?.loc())?;
            vec![a, b]
        } else {
            let d = self.dest(self.op(ins, 0)?)?;
            check_vec(&d, self.op(ins, 0)?.loc())?;
            vec![d, self.addr(self.op(ins, 1)?)?]
        };
        if hint {
            if let Some(p) = ins.operands.get(2) {
                ops.push(self.value(p, Ty::B64)?);
            }
        }
        let op = if store { Opcode::St { space, ty, vec } } else { Opcode::Ld { space, ty, vec } };
        Ok((op, ops))
    }

    fn d_cvta(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        let to = m.has("to")?;
        let space = m.need(SPACES, "a state space")?;
        let ty = m.need(&[("u32", Ty::U32), ("u64", Ty::U64)], "type `.u32` or `.u64`")?;
        self.nops(ins, 2..=2)?;
        Ok((
            Opcode::Cvta { space, to_generic: !to, ty },
            vec![self.dest(self.op(ins, 0)?)?, self.value(self.op(ins, 1)?, ty)?],
        ))
    }

    fn d_cvt(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        // The first type names the destination; a packed one selects the two-element forms.
        let first_ty = ins.mods.iter().find(|(s, _)| ty_of(s).is_some() || PACKED.iter().any(|p| p.0 == s));
        if first_ty.is_some_and(|(s, _)| PACKED.iter().any(|p| p.0 == s)) {
            return self.d_cvt_packed(ins, m);
        }
        let rnd = m.pick_v(ROUNDINGS)?;
        let sat = m.has("sat")?;
        let ftz = m.has("ftz")?;
        let tys = m.take_all(TYPES);
        let (dst, src) = match tys.as_slice() {
            [(d, _, _), (s, _, _)] => (*d, *s),
            [_, _, (_, t, loc), ..] => return Err(Diag::new(*loc, format!("extra type `.{t}` for `cvt`"))),
            _ => return Err(Diag::new(ins.loc, "`cvt` needs a destination and a source type")),
        };
        self.nops(ins, 2..=2)?;
        Ok((
            Opcode::Cvt { dst, src, rnd, sat, ftz },
            vec![self.dest(self.op(ins, 0)?)?, self.value(self.op(ins, 1)?, src)?],
        ))
    }

    /// The two-element `cvt` forms of PTX ISA §9.7.9 (`cvt`):
    /// `cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b` (a to the upper half),
    /// `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32 d, a, b | f16x2 d, a}` and
    /// `cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a`.
    fn d_cvt_packed(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        use PackedFmt as P;
        let rnd = m.pick(ROUNDINGS)?;
        let relu = m.has("relu")?;
        let satfinite = m.has("satfinite")?;
        let mut table: Vec<(&str, Option<PackedFmt>)> = PACKED.iter().map(|(n, f)| (*n, Some(*f))).collect();
        table.push(("f32", None));
        let fmts = m.take_all(&table);
        let (dst, src) = match fmts.as_slice() {
            [(Some(d), _, _), (s, _, _)] => (*d, *s),
            [_, _, (_, t, loc), ..] => return Err(Diag::new(*loc, format!("extra type `.{t}` for `cvt`"))),
            _ => return Err(Diag::new(ins.loc, "`cvt` needs a destination and a source type, e.g. `.f16x2.f32`")),
        };
        let fp8 = |f: PackedFmt| matches!(f, P::E4m3x2 | P::E5m2x2);
        let valid = match (dst, src) {
            (P::F16x2 | P::Bf16x2, None) => true,
            (d, None | Some(P::F16x2)) if fp8(d) => true,
            (P::F16x2, Some(s)) => fp8(s),
            _ => false,
        };
        if !valid {
            let (d, s) = (fmts[0].1, fmts[1].1);
            return Err(Diag::new(ins.loc, format!("`cvt.{d}.{s}` is not a PTX conversion")));
        }
        let rnd = match rnd {
            Some((r @ (Rounding::Rn | Rounding::Rz), _, _)) if src.is_none() && !fp8(dst) => r,
            Some((Rounding::Rn, _, _)) => Rounding::Rn,
            Some((_, t, loc)) => {
                return Err(Diag::new(loc, format!("rounding `.{t}` is not valid on this `cvt` form")))
            }
            None => return Err(Diag::new(ins.loc, "this `cvt` form needs a rounding modifier (`.rn`)")),
        };
        if fp8(dst) && !satfinite {
            return Err(Diag::new(ins.loc, "`.satfinite` is required for an `.e4m3x2`/`.e5m2x2` destination"));
        }
        if satfinite && src.is_some_and(fp8) {
            return Err(Diag::new(m.loc_of("satfinite"), "`.satfinite` is not valid on a conversion from fp8"));
        }
        let ops = match src {
            None => {
                self.nops(ins, 3..=3)?;
                vec![
                    self.dest(self.op(ins, 0)?)?,
                    self.value(self.op(ins, 1)?, Ty::F32)?,
                    self.value(self.op(ins, 2)?, Ty::F32)?,
                ]
            }
            Some(s) => {
                self.nops(ins, 2..=2)?;
                let sty = if fp8(s) { Ty::B16 } else { Ty::B32 };
                vec![self.dest(self.op(ins, 0)?)?, self.value(self.op(ins, 1)?, sty)?]
            }
        };
        Ok((Opcode::CvtPacked { dst, src, rnd, relu, satfinite }, ops))
    }

    fn d_arith(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        let (op, n) = match ins.opcode.as_str() {
            "add" => (ArithOp::Add, 3),
            "sub" => (ArithOp::Sub, 3),
            "mul" => (ArithOp::Mul, 3),
            "mad" => (ArithOp::Mad, 4),
            "fma" => (ArithOp::Fma, 4),
            "div" => (ArithOp::Div, 3),
            "rem" => (ArithOp::Rem, 3),
            "neg" => (ArithOp::Neg, 2),
            "abs" => (ArithOp::Abs, 2),
            "min" => (ArithOp::Min, 3),
            "max" => (ArithOp::Max, 3),
            "rcp" => (ArithOp::Rcp, 2),
            "sqrt" => (ArithOp::Sqrt, 2),
            "rsqrt" => (ArithOp::Rsqrt, 2),
            "ex2" => (ArithOp::Ex2, 2),
            "lg2" => (ArithOp::Lg2, 2),
            "sin" => (ArithOp::Sin, 2),
            "cos" => (ArithOp::Cos, 2),
            "copysign" => (ArithOp::Copysign, 3),
            "sad" => (ArithOp::Sad, 4),
            _ => return Err(Diag::new(ins.loc, "internal: not an arithmetic opcode")),
        };
        let mode = m.pick_v(&[("lo", MulMode::Lo), ("hi", MulMode::Hi), ("wide", MulMode::Wide)])?;
        let rnd = m.pick_v(&ROUNDINGS[..4])?;
        let _approx = m.pick(&[("approx", ()), ("full", ())])?;
        let sat = m.has("sat")?;
        let ftz = m.has("ftz")?;
        let ty = m.need(TYPES, "a type")?;
        if mode.is_some() && !matches!(op, ArithOp::Mul | ArithOp::Mad) {
            return Err(Diag::new(
                ins.loc,
                format!("`.lo/.hi/.wide` are only valid on `mul` and `mad`, not `{}`", ins.opcode),
            ));
        }
        if matches!(
            op,
            ArithOp::Rcp | ArithOp::Sqrt | ArithOp::Rsqrt | ArithOp::Ex2 | ArithOp::Lg2 | ArithOp::Sin | ArithOp::Cos
        ) && !matches!(ty, Ty::F32 | Ty::F64)
        {
            return Err(Diag::new(
                ins.loc,
                format!("`{}` on this type is not supported by smsync (only `.f32`/`.f64`)", ins.opcode),
            ));
        }
        if op == ArithOp::Copysign && !matches!(ty, Ty::F32 | Ty::F64) {
            return Err(Diag::new(ins.loc, "`copysign` takes the type `.f32` or `.f64`"));
        }
        if op == ArithOp::Sad && (ty.is_float() || !matches!(ty.bits(), 16 | 32 | 64) || !is_int_ty(ty)) {
            return Err(Diag::new(ins.loc, "`sad` takes an integer type `.u16/.u32/.u64/.s16/.s32/.s64`"));
        }
        if ty.is_float() && matches!(ty, Ty::F16 | Ty::F16x2 | Ty::Bf16 | Ty::Bf16x2) {
            return Err(Diag::new(
                ins.loc,
                format!("`{}` on `.{}` is not supported by smsync", ins.opcode, ty_name(ty)),
            ));
        }
        self.nops(ins, n..=n)?;
        let wide = |t: Ty| match t {
            Ty::U16 => Ty::U32,
            Ty::S16 => Ty::S32,
            Ty::U32 => Ty::U64,
            Ty::S32 => Ty::S64,
            other => other,
        };
        let mut ops = vec![self.dest(self.op(ins, 0)?)?];
        for i in 1..n {
            let t = if i == 3 && mode == Some(MulMode::Wide) { wide(ty) } else { ty };
            ops.push(self.value(self.op(ins, i)?, t)?);
        }
        Ok((Opcode::Arith { op, ty, mode, rnd, sat, ftz }, ops))
    }

    /// The extended-precision instructions of PTX ISA §9.7.2: `add.cc`, `addc{.cc}`, `sub.cc`,
    /// `subc{.cc}`, `mad{.lo,.hi}.cc`, `madc{.lo,.hi}{.cc}` on `.u32/.s32/.u64/.s64`.
    fn d_carry(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        let cin = ins.opcode.ends_with('c');
        let cout = m.has("cc")?;
        let mode = m.pick_v(&[("lo", MulMode::Lo), ("hi", MulMode::Hi)])?;
        let op = match (ins.opcode.trim_end_matches('c'), mode) {
            ("add", None) => CarryOp::Add,
            ("sub", None) => CarryOp::Sub,
            ("mad", Some(MulMode::Lo)) => CarryOp::MadLo,
            ("mad", Some(_)) => CarryOp::MadHi,
            ("mad", None) => return Err(Diag::new(ins.loc, format!("`{}` needs `.lo` or `.hi`", ins.opcode))),
            _ => return Err(Diag::new(ins.loc, format!("`.lo/.hi` are not valid on `{}`", ins.opcode))),
        };
        let ty = m.need(
            &[("u32", Ty::U32), ("s32", Ty::S32), ("u64", Ty::U64), ("s64", Ty::S64)],
            "a type `.u32`, `.s32`, `.u64` or `.s64`",
        )?;
        let n = if matches!(op, CarryOp::MadLo | CarryOp::MadHi) { 4 } else { 3 };
        self.nops(ins, n..=n)?;
        let mut ops = vec![self.dest(self.op(ins, 0)?)?];
        for i in 1..n {
            ops.push(self.value(self.op(ins, i)?, ty)?);
        }
        Ok((Opcode::Carry { op, ty, cin, cout }, ops))
    }

    fn d_logic(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        let (op, n) = match ins.opcode.as_str() {
            "and" => (LogicOp::And, 3),
            "or" => (LogicOp::Or, 3),
            "xor" => (LogicOp::Xor, 3),
            "not" => (LogicOp::Not, 2),
            "cnot" => (LogicOp::Cnot, 2),
            "shl" => (LogicOp::Shl, 3),
            _ => (LogicOp::Shr, 3),
        };
        let ty = m.need(TYPES, "a type")?;
        self.nops(ins, n..=n)?;
        let mut ops = vec![self.dest(self.op(ins, 0)?)?];
        for i in 1..n {
            let t = if i == 2 && matches!(op, LogicOp::Shl | LogicOp::Shr) { Ty::U32 } else { ty };
            ops.push(self.value(self.op(ins, i)?, t)?);
        }
        Ok((Opcode::Logic { op, ty }, ops))
    }

    fn d_bit(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        let (op, n) = match ins.opcode.as_str() {
            "popc" => (BitOp::Popc, 2),
            "clz" => (BitOp::Clz, 2),
            "brev" => (BitOp::Brev, 2),
            "bfe" => (BitOp::Bfe, 4),
            "bfi" => (BitOp::Bfi, 5),
            "bfind" if m.has("shiftamt")? => (BitOp::BfindShiftamt, 2),
            "bfind" => (BitOp::Bfind, 2),
            "prmt" => (BitOp::Prmt, 4),
            "shf" => {
                let left = m.need(&[("l", true), ("r", false)], "a direction `.l` or `.r`")?;
                let clamp = m.need(&[("clamp", true), ("wrap", false)], "a mode `.clamp` or `.wrap`")?;
                let op = match (left, clamp) {
                    (true, false) => BitOp::ShfLWrap,
                    (true, true) => BitOp::ShfLClamp,
                    (false, false) => BitOp::ShfRWrap,
                    (false, true) => BitOp::ShfRClamp,
                };
                (op, 4)
            }
            "lop3" => (BitOp::Lop3, 5),
            "bmsk" => {
                let clamp = m.need(&[("clamp", true), ("wrap", false)], "a mode `.clamp` or `.wrap`")?;
                (if clamp { BitOp::BmskClamp } else { BitOp::BmskWrap }, 3)
            }
            _ => (BitOp::Fns, 4),
        };
        let ty = m.need(TYPES, "a type")?;
        if matches!(
            op,
            BitOp::ShfLWrap
                | BitOp::ShfLClamp
                | BitOp::ShfRWrap
                | BitOp::ShfRClamp
                | BitOp::Lop3
                | BitOp::BmskClamp
                | BitOp::BmskWrap
        ) && ty != Ty::B32
        {
            return Err(Diag::new(m.loc_of(ty_name(ty)), format!("`{}` takes only the type `.b32`", ins.opcode)));
        }
        if op == BitOp::Lop3 && !matches!(ins.operands.get(4), Some(OperandAst::Num { value: Num::Int(0..=255), .. })) {
            self.nops(ins, n..=n)?;
            return Err(Diag::new(self.op(ins, 4)?.loc(), "`lop3` immLut must be an integer constant 0..255"));
        }
        self.nops(ins, n..=n)?;
        let mut ops = vec![self.dest(self.op(ins, 0)?)?];
        for i in 1..n {
            let t = match op {
                BitOp::Bfe if i >= 2 => Ty::U32,
                BitOp::Bfi if i >= 3 => Ty::U32,
                BitOp::Fns if i >= 2 => {
                    if i == 3 {
                        Ty::S32
                    } else {
                        Ty::U32
                    }
                }
                BitOp::ShfLWrap | BitOp::ShfLClamp | BitOp::ShfRWrap | BitOp::ShfRClamp if i == 3 => Ty::U32,
                BitOp::BmskClamp | BitOp::BmskWrap => Ty::U32,
                _ => ty,
            };
            ops.push(self.value(self.op(ins, i)?, t)?);
        }
        Ok((Opcode::Bit { op, ty }, ops))
    }

    /// `mapa{.shared::cluster}.{u32,u64} d, a, b` and `getctarank{.shared::cluster}.{u32,u64} d, a`.
    fn d_mapa(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        let space = if m.has("shared::cluster")? { StateSpace::SharedCluster } else { StateSpace::Generic };
        let ty = m.need(&[("u32", Ty::U32), ("u64", Ty::U64)], "type `.u32` or `.u64`")?;
        let mapa = ins.opcode == "mapa";
        let n = if mapa { 3 } else { 2 };
        self.nops(ins, n..=n)?;
        let mut ops = vec![self.dest(self.op(ins, 0)?)?, self.value(self.op(ins, 1)?, ty)?];
        if mapa {
            ops.push(self.value(self.op(ins, 2)?, Ty::U32)?);
            Ok((Opcode::Mapa { space, ty }, ops))
        } else {
            Ok((Opcode::GetCtaRank { space, ty }, ops))
        }
    }

    fn d_setp(&self, ins: &Instruction, m: &mut Mods, is_set: bool) -> DResult<(Opcode, Vec<Operand>)> {
        let cmp = m.need(CMPS, "a comparison like `.eq`")?;
        let combine = m.pick_v(BOOLS)?;
        let ftz = m.has("ftz")?;
        let (dst, ty) = if is_set {
            let tys = m.take_all(TYPES);
            match tys.as_slice() {
                [(d, _, _), (s, _, _)] => (*d, *s),
                _ => return Err(Diag::new(ins.loc, "`set` needs a destination and a source type")),
            }
        } else {
            (Ty::Pred, m.need(TYPES, "a type")?)
        };
        let n = if combine.is_some() { 4 } else { 3 };
        self.nops(ins, n..=n)?;
        let d = self.dest(self.op(ins, 0)?)?;
        if is_set && matches!(d, Operand::Vector(_)) {
            return Err(Diag::new(self.op(ins, 0)?.loc(), "`set` has a single destination"));
        }
        let mut ops = vec![d, self.value(self.op(ins, 1)?, ty)?, self.value(self.op(ins, 2)?, ty)?];
        if combine.is_some() {
            ops.push(self.value(self.op(ins, 3)?, Ty::Pred)?);
        }
        let op =
            if is_set { Opcode::Set { cmp, dst, ty, combine, ftz } } else { Opcode::Setp { cmp, ty, combine, ftz } };
        Ok((op, ops))
    }

    fn d_call(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        let uni = m.has("uni")?;
        let (rets, fname, args) = match ins.operands.as_slice() {
            [OperandAst::Paren { items: r, .. }, f, OperandAst::Paren { items: a, .. }] => {
                (r.as_slice(), f, a.as_slice())
            }
            [OperandAst::Paren { items: r, .. }, f] => (r.as_slice(), f, &[][..]),
            [f, OperandAst::Paren { items: a, .. }] => (&[][..], f, a.as_slice()),
            [f] => (&[][..], f, &[][..]),
            // an indirect call names its target register and then a prototype or target list
            [.., f, _, _] if matches!(f, OperandAst::Name { name, .. } if self.find_reg(name).is_some()) => {
                return Err(Diag::new(f.loc(), "indirect calls are not supported by smsync"))
            }
            _ => return Err(Diag::new(ins.loc, "expected `call (rets), func, (args);`")),
        };
        let OperandAst::Name { name, loc, .. } = fname else {
            return Err(Diag::new(fname.loc(), "expected a function name"));
        };
        let func = match self.func_ids.get(name) {
            Some(Some(f)) => *f,
            Some(None) => {
                return Err(Diag::new(*loc, format!("function `{name}` is declared but not defined in this module")))
            }
            None if self.find_reg(name).is_some() => {
                return Err(Diag::new(*loc, "indirect calls are not supported by smsync"))
            }
            None => return Err(Diag::new(*loc, format!("unknown function `{name}`"))),
        };
        let item = |a: &OperandAst| -> DResult<Operand> {
            match a {
                OperandAst::Name { name, offset, loc } => {
                    if let Some(r) = self.find_reg(name) {
                        Ok(Operand::Reg(r))
                    } else if let Some(v) = self.find_var(name) {
                        Ok(Operand::VarAddr { var: v, offset: *offset })
                    } else {
                        Err(Diag::new(*loc, format!("unknown call argument `{name}`")))
                    }
                }
                other => self.value(other, Ty::B64),
            }
        };
        let r = rets.iter().map(item).collect::<DResult<Vec<_>>>()?;
        let a = args.iter().map(item).collect::<DResult<Vec<_>>>()?;
        Ok((Opcode::Call { func, uni }, vec![Operand::Vector(r), Operand::Vector(a)]))
    }

    fn d_fence(&self, ins: &Instruction, m: &mut Mods) -> DResult<(Opcode, Vec<Operand>)> {
        if ins.opcode == "membar" {
            if m.has("proxy")? {
                m.need(&[("alias", ()), ("async", ())], "a proxy kind")?;
                m.pick(&[("global", ()), ("shared::cta", ()), ("shared::cluster", ())])?;
                self.nops(ins, 0..=0)?;
                return Ok((Opcode::Fence { sem: None, scope: None, proxy: true }, vec![]));
            }
            let scope = m.need(
                &[("cta", Scope::Cta), ("gl", Scope::Gpu), ("sys", Scope::Sys)],
                "a level `.cta`, `.gl` or `.sys`",
            )?;
            self.nops(ins, 0..=0)?;
            return Ok((Opcode::Fence { sem: Some(Sem::Sc), scope: Some(scope), proxy: false }, vec![]));
        }
        let sem = m.pick(&SEMS[..5])?;
        let scope = m.pick(SCOPES)?;
        let restrict = m.pick(&[("sync_restrict::shared::cta", false), ("sync_restrict::shared::cluster", true)])?;
        if let Some((cluster, text, loc)) = restrict {
            let need = if cluster { Sem::Acquire } else { Sem::Release };
            if sem.map(|s| s.0) != Some(need) {
                return Err(Diag::new(
                    loc,
                    format!("`.{text}` requires `.{}`", if cluster { "acquire" } else { "release" }),
                ));
            }
            if scope.map(|s| s.0) != Some(Scope::Cluster) {
                return Err(Diag::new(loc, format!("`.{text}` requires scope `.cluster`")));
            }
        }
        if m.has("mbarrier_init")? {
            if sem.map(|s| s.0) != Some(Sem::Release) || scope.map(|s| s.0) != Some(Scope::Cluster) {
                return Err(Diag::new(ins.loc, "`fence.mbarrier_init` must be `.release.cluster`"));
            }
            self.nops(ins, 0..=0)?;
            return Ok((Opcode::Fence { sem: Some(Sem::Release), scope: Some(Scope::Cluster), proxy: false }, vec![]));
        }
        if m.has("proxy")? {
            let kind = m.need(
                &[("alias", 0), ("async", 0), ("tensormap::generic", 1), ("async::generic", 2)],
                "a proxy kind (`.alias`, `.async`, `.tensormap::generic`, ...)",
            )?;
            let mut ops = vec![];
            match kind {
                0 => {
                    if sem.is_some() || scope.is_some() {
                        return Err(Diag::new(ins.loc, "a bi-directional proxy fence takes no `.sem`/`.scope`"));
                    }
                    m.pick(&[("global", ()), ("shared::cta", ()), ("shared::cluster", ()), ("shared", ())])?;
                    self.nops(ins, 0..=0)?;
                }
                _ => {
                    let Some((s, _, _)) = sem else {
                        return Err(Diag::new(ins.loc, "a uni-directional proxy fence needs `.release` or `.acquire`"));
                    };
                    if scope.is_none() {
                        return Err(Diag::new(ins.loc, "a uni-directional proxy fence needs a scope"));
                    }
                    if kind == 1 && s == Sem::Acquire {
                        self.nops(ins, 2..=2)?;
                        ops.push(self.addr(self.op(ins, 0)?)?);
                        let size = self.op(ins, 1)?;
                        if !matches!(size, OperandAst::Num { value: Num::Int(128), .. }) {
                            return Err(Diag::new(
                                size.loc(),
                                "`fence.proxy.tensormap::generic.acquire` size must be the integer 128",
                            ));
                        }
                        ops.push(Operand::Imm(128));
                    } else {
                        self.nops(ins, 0..=0)?;
                    }
                }
            }
            return Ok((Opcode::Fence { sem: sem.map(|s| s.0), scope: scope.map(|s| s.0), proxy: true }, ops));
        }
        let Some(scope) = scope else {
            return Err(Diag::new(ins.loc, "`fence` needs a scope (`.cta`, `.cluster`, `.gpu`, `.sys`)"));
        };
        self.nops(ins, 0..=0)?;
        Ok((
            Opcode::Fence { sem: Some(sem.map(|s| s.0).unwrap_or(Sem::AcqRel)), scope: Some(scope.0), proxy: false },
            vec![],
        ))
    }
}

/// `opcode.mod.mod` for messages.
fn full_name(ins: &Instruction) -> String {
    let mut s = ins.opcode.clone();
    for (m, _) in &ins.mods {
        s.push('.');
        s.push_str(m);
    }
    s
}

#[path = "decode_sync.rs"]
mod sync;
