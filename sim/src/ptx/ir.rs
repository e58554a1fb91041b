//! The decoded PTX program: what the front end produces and the executor runs.
//!
//! Decoding happens once, at load time: every instruction's opcode and modifiers are resolved to
//! a typed [`Opcode`], every register to a dense [`RegId`], every label to an instruction index,
//! every immediate to the bits of the instruction's type. The executor never looks at text.

use crate::encoding::{AtomOp, BulkDir, DataType, ReduxOp, ShflMode, VoteMode};

/// A source position (1-based) for error messages: `file:line:col`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
}

/// Dense register index within one function (parameters, declared registers, scoped-block
/// registers all get their own slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegId(pub u32);

/// Scalar types of ordinary instructions and registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Pred,
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    F32,
    F64,
}

impl Ty {
    pub const fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 | Ty::F16 | Ty::Bf16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 | Ty::F16x2 | Ty::Bf16x2 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
            Ty::B128 => 128,
        }
    }
    pub const fn bytes(self) -> u32 {
        if self.bits() < 8 {
            1
        } else {
            self.bits() / 8
        }
    }
    pub const fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }
    pub const fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F16x2 | Ty::Bf16 | Ty::Bf16x2 | Ty::F32 | Ty::F64)
    }
}

/// Special registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialReg {
    /// %tid.{x,y,z} (component 0..2), and likewise below.
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    Laneid,
    Warpid,
    Nwarpid,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    Clock,
    Clock64,
    Smid,
    /// %dynamic_smem_size, %total_smem_size
    DynamicSmemSize,
    TotalSmemSize,
    /// %cluster_ctarank, %cluster_nctarank
    ClusterCtarank,
    ClusterNctarank,
    /// %cluster_ctaid.{x,y,z}: the CTA's position within its cluster.
    ClusterCtaid(u8),
    /// %cluster_nctaid.{x,y,z}: the cluster shape.
    ClusterNctaid(u8),
    /// %clusterid.{x,y,z}: the cluster's position within the grid.
    Clusterid(u8),
    /// %nclusterid.{x,y,z}: clusters per grid dimension.
    Nclusterid(u8),
    /// %globaltimer (64-bit ns), %globaltimer_lo / %globaltimer_hi (its 32-bit halves). The model's
    /// clock is deterministic: see `exec::GLOBALTIMER_NS_PER_STEP`.
    Globaltimer,
    GlobaltimerLo,
    GlobaltimerHi,
}

/// Base of an address operand `[base+offset]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrBase {
    Reg(RegId),
    /// A module- or function-level variable (its address in its state space).
    Var(VarId),
    /// A `.param` of the current function or kernel.
    Param(ParamId),
    /// An absolute address `[imm]`.
    Abs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParamId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(pub u32);

#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Reg(RegId),
    /// `!p` as a source predicate.
    NotPred(RegId),
    /// Immediate, already converted to the bits of the instruction's operand type
    /// (float literals are encoded as f32/f64 bits accordingly).
    Imm(u64),
    Special(SpecialReg),
    /// `[base+offset]`.
    Addr {
        base: AddrBase,
        offset: i64,
    },
    /// The address of a variable as a value (`mov.u64 %rd, smem;`), plus an offset.
    VarAddr {
        var: VarId,
        offset: i64,
    },
    /// The `.param`-space address of a kernel parameter as a value (`mov.b64 %rd, k_param_0;`,
    /// PTX ISA §5.1.6.1: kernel parameters are addressable), plus an offset.
    ParamAddr {
        param: ParamId,
        offset: i64,
    },
    /// `{a, b, ...}` vector operand.
    Vector(Vec<Operand>),
    /// The sink `_`.
    Sink,
    /// A branch target: the index of the instruction in the function body.
    Label(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateSpace {
    Generic,
    Global,
    Shared,
    SharedCluster,
    Local,
    Param,
    Const,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    Rn,
    Rz,
    Rm,
    Rp,
    /// Integer rounding of cvt: .rni .rzi .rmi .rpi
    Rni,
    Rzi,
    Rmi,
    Rpi,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MulMode {
    Lo,
    Hi,
    Wide,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Mad,
    Fma,
    Div,
    Rem,
    Neg,
    Abs,
    Min,
    Max,
    /// f32/f64 only
    Rcp,
    Sqrt,
    Rsqrt,
    Ex2,
    Lg2,
    Sin,
    Cos,
    /// copysign.{f32,f64} d, a, b: b's magnitude with a's sign (PTX ISA §9.7.3, `copysign`).
    Copysign,
    /// sad.{u,s}{16,32,64} d, a, b, c: c + |a - b| (PTX ISA §9.7.1, `sad`).
    Sad,
}

/// The carry-chain instructions of PTX ISA §9.7.2 (extended-precision integer arithmetic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryOp {
    /// add.cc / addc: d = a + b (+ CC.CF)
    Add,
    /// sub.cc / subc: d = a - (b + CC.CF); CC.CF is the borrow
    Sub,
    /// mad.lo.cc / madc.lo: d = (a * b).lo + c (+ CC.CF)
    MadLo,
    /// mad.hi.cc / madc.hi: d = (a * b).hi + c (+ CC.CF)
    MadHi,
}

/// The packed formats of the two-element `cvt` forms (PTX ISA §9.7.9, `cvt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackedFmt {
    F16x2,
    Bf16x2,
    /// two fp8 values (4 exponent bits, 3 mantissa bits, bias 7, no infinity) in a .b16
    E4m3x2,
    /// two fp8 values (5 exponent bits, 2 mantissa bits, bias 15) in a .b16
    E5m2x2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogicOp {
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    Popc,
    Clz,
    Brev,
    Bfe,
    Bfi,
    Prmt,
    Fns,
    Bfind,
    /// bfind.shiftamt: the left-shift amount that moves the found bit to the MSB (0xffffffff when none).
    BfindShiftamt,
    /// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of the 64-bit value b:a by c.
    ShfLWrap,
    ShfLClamp,
    ShfRWrap,
    ShfRClamp,
    /// lop3.b32 d, a, b, c, immLut: any three-input logic function given by its truth table.
    Lop3,
    /// bmsk.{clamp,wrap}.b32 d, a, b: a mask of b bits starting at bit a (PTX ISA §9.7.1, `bmsk`).
    BmskClamp,
    BmskWrap,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    // unsigned-integer spellings
    Lo,
    Ls,
    Hi,
    Hs,
    // float ordered/unordered
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    Sync,
    Arrive,
    RedPopc,
    RedAnd,
    RedOr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sem {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    Sc,
    Weak,
    Volatile,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Cta,
    Cluster,
    Gpu,
    Sys,
}

/// Typed opcodes with their modifiers. Operands are in [`Instr::ops`], destinations first, in
/// PTX order; the doc on each variant lists them.
#[derive(Clone, Debug, PartialEq)]
pub enum Opcode {
    // ---- data movement -------------------------------------------------------------------
    /// d, a
    Mov(Ty),
    /// d, [addr]   (d may be a vector operand)
    Ld {
        space: StateSpace,
        ty: Ty,
        vec: u8,
    },
    /// [addr], a
    St {
        space: StateSpace,
        ty: Ty,
        vec: u8,
    },
    /// d, a   cvta.space (to_generic = false means cvta.to.space)
    Cvta {
        space: StateSpace,
        to_generic: bool,
        ty: Ty,
    },
    /// d, a
    Cvt {
        dst: Ty,
        src: Ty,
        rnd: Option<Rounding>,
        sat: bool,
        ftz: bool,
    },
    /// Two-element conversions: `d, a, b` from two f32 (`src` None: a goes to the upper half, b to
    /// the lower) or `d, a` between packed formats.
    CvtPacked {
        dst: PackedFmt,
        src: Option<PackedFmt>,
        rnd: Rounding,
        relu: bool,
        satfinite: bool,
    },
    // ---- arithmetic and logic --------------------------------------------------------------
    /// d, a{, b{, c}}
    Arith {
        op: ArithOp,
        ty: Ty,
        mode: Option<MulMode>,
        rnd: Option<Rounding>,
        sat: bool,
        ftz: bool,
    },
    /// d, a{, b}
    Logic {
        op: LogicOp,
        ty: Ty,
    },
    /// d, a{, b{, c{, e}}}
    Bit {
        op: BitOp,
        ty: Ty,
    },
    /// p[|q], a, b{, {!}c}
    Setp {
        cmp: CmpOp,
        ty: Ty,
        combine: Option<BoolOp>,
        ftz: bool,
    },
    /// d, a, b, {!}c   set.cmp.dtype.stype
    Set {
        cmp: CmpOp,
        dst: Ty,
        ty: Ty,
        combine: Option<BoolOp>,
        ftz: bool,
    },
    /// d, a, b, c
    Selp(Ty),
    /// d, a, b{, c}   add.cc/addc/sub.cc/subc/mad.cc/madc: `cin` reads CC.CF, `cout` writes it.
    Carry {
        op: CarryOp,
        ty: Ty,
        cin: bool,
        cout: bool,
    },
    // ---- control ----------------------------------------------------------------------------
    /// target
    Bra {
        uni: bool,
    },
    /// (rets...), func, (args...)  -> ops: [Vector(rets), Vector(args)]; the callee is `func`
    Call {
        func: FuncId,
        uni: bool,
    },
    Ret,
    Exit,
    /// t (ns)
    Nanosleep,
    // ---- ordering (executed as no-ops by an in-order model, validated) ----------------------
    Fence {
        sem: Option<Sem>,
        scope: Option<Scope>,
        proxy: bool,
    },
    GridDepControl {
        launch_dependents: bool,
    },
    // ---- cluster address mapping -----------------------------------------------------------
    /// d, a, b   mapa{.shared::cluster}.{u32,u64}: the address of the variable at `a` in the CTA of
    /// cluster rank `b` (space `SharedCluster` or `Generic`).
    Mapa {
        space: StateSpace,
        ty: Ty,
    },
    /// d, a   getctarank{.shared::cluster}.{u32,u64}: the cluster rank of the CTA holding address `a`.
    GetCtaRank {
        space: StateSpace,
        ty: Ty,
    },
    // ---- named barriers --------------------------------------------------------------------
    /// sync: a{, b}   arrive: a, b   red.popc: d, a{, b}, {!}c   red.and/or: p, a{, b}, {!}c
    Bar {
        kind: BarKind,
        aligned: bool,
    },
    /// membermask
    BarWarpSync,
    /// barrier.cluster.arrive / wait. `sem` as written or its default (arrive `.release`, wait
    /// `.acquire`; arrive may be `.relaxed`), recorded for checking, not used by the SC executor.
    BarrierCluster {
        wait: bool,
        sem: Sem,
    },
    // ---- warp network ----------------------------------------------------------------------
    /// d, {!}a{, membermask}   (sync = false is the legacy vote)
    Vote {
        mode: VoteMode,
        sync: bool,
    },
    /// d, a, membermask   /   d|p, a, membermask
    Match {
        all: bool,
        ty: DataType,
    },
    /// d
    Activemask,
    /// d, a, membermask
    Redux {
        op: ReduxOp,
        ty: DataType,
        abs: bool,
        nan: bool,
    },
    /// d|p, membermask
    Elect,
    /// d|p, a, b, c, membermask
    Shfl {
        mode: ShflMode,
    },
    // ---- atomics ---------------------------------------------------------------------------
    /// atom: d, [a], b{, c}   red: [a], b   (vector forms use vector operands)
    Atom {
        red: bool,
        op: AtomOp,
        ty: DataType,
        space: StateSpace,
        vec: u8,
        sem: Sem,
        scope: Scope,
        noftz: bool,
        cache_hint: bool,
    },
    /// red.async: [a], b, [mbar]
    RedAsync {
        op: AtomOp,
        ty: DataType,
    },
    // ---- mbarrier --------------------------------------------------------------------------
    /// [addr], count
    MbInit {
        space: StateSpace,
    },
    /// [addr]
    MbInval {
        space: StateSpace,
    },
    /// state, [addr]{, count|txCount}. `sem`/`scope` as written or the defaults `.release`/`.cta`.
    MbArrive {
        drop: bool,
        expect_tx: bool,
        no_complete: bool,
        space: StateSpace,
        sem: Sem,
        scope: Scope,
    },
    /// [addr], txCount
    MbExpectTx {
        space: StateSpace,
    },
    /// [addr], txCount
    MbCompleteTx {
        space: StateSpace,
    },
    /// waitComplete, [addr], state|phaseParity{, suspendTimeHint}. `sem`/`scope` as written or the
    /// defaults `.acquire`/`.cta`.
    MbTestWait {
        try_wait: bool,
        parity: bool,
        space: StateSpace,
        sem: Sem,
        scope: Scope,
    },
    /// count, state
    MbPendingCount,
    /// [addr]
    CpAsyncMbArrive {
        noinc: bool,
        space: StateSpace,
    },
    // ---- async copies ----------------------------------------------------------------------
    /// [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}
    CpAsync {
        cg: bool,
        size: u8,
        has_src_size: bool,
        has_ignore_src: bool,
        cache_hint: bool,
    },
    CpAsyncCommit,
    /// N
    CpAsyncWaitGroup,
    CpAsyncWaitAll,
    /// [dst], [src], size{, [mbar]}{, ctaMask}{, cache-policy}{, byteMask}
    CpBulk {
        dir: BulkDir,
        multicast: bool,
        cache_hint: bool,
        cp_mask: bool,
    },
    /// [dst], [src], size{, [mbar]}{, cache-policy}
    CpReduceBulk {
        dir: BulkDir,
        op: AtomOp,
        ty: DataType,
        noftz: bool,
        cache_hint: bool,
    },
    /// load: [dst], [tmap, {coords}], [mbar]{, {im2colOffsets}}{, ctaMask}   store: [tmap, {coords}], [src]
    CpBulkTensor {
        dims: u8,
        dir: BulkDir,
        multicast: bool,
        cache_hint: bool,
        /// `.im2col` load mode (PTX ISA §5.5.4); false: `.tile`.
        im2col: bool,
    },
    /// [tmap, {coords}], [src]
    CpReduceBulkTensor {
        dims: u8,
        op: AtomOp,
    },
    /// [src], size
    BulkPrefetch,
    /// [dst], [src], 128   tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned:
    /// copies the 128-byte tensor map from shared::cta to global (the proxy release is trivially
    /// satisfied by the sequentially consistent model).
    TensormapCpFenceproxy {
        scope: Scope,
    },
    // ---- cluster launch control (sm_100) ----------------------------------------------------
    /// [addr], [mbar]   clusterlaunchcontrol.try_cancel.async{.shared::cta}.mbarrier::complete_tx::bytes{.multicast::cluster::all}.b128
    ClcTryCancel {
        multicast: bool,
        space: StateSpace,
    },
    /// d, handle   clusterlaunchcontrol.query_cancel: `.is_canceled.pred` (first_ctaid None),
    /// `.get_first_ctaid.v4.b32` (Some(3), d a 4-vector) or `.get_first_ctaid::{x,y,z}.b32` (Some(0..=2)).
    ClcQueryCancel {
        first_ctaid: Option<u8>,
    },
    BulkCommit,
    /// N
    BulkWaitGroup {
        read: bool,
    },
}

/// `@p` / `@!p`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub pred: RegId,
    pub negated: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub guard: Option<Guard>,
    pub op: Opcode,
    pub ops: Vec<Operand>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RegInfo {
    pub name: String,
    pub ty: Ty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParamInfo {
    pub name: String,
    pub ty: Ty,
    /// Size in bytes (arrays and .align'ed byte arrays are larger than `ty`).
    pub size: u32,
    pub align: u32,
    /// Byte offset in the function's parameter block.
    pub offset: u32,
    /// A `.reg` parameter or return value of a `.func` lives in this register of the callee.
    pub reg: Option<RegId>,
}

/// A `.shared`, `.global`, `.const` or `.local` variable.
#[derive(Clone, Debug, PartialEq)]
pub struct VarInfo {
    pub name: String,
    pub space: StateSpace,
    pub ty: Ty,
    pub align: u32,
    /// Size in bytes; 0 for `extern .shared` dynamic arrays (they start at the dynamic base).
    pub size: u32,
    pub extern_dynamic: bool,
    /// Initializer bytes (`.global .u32 x[2] = {1, 2};`), little-endian; empty = zero.
    pub init: Vec<u8>,
    /// Byte offset within its state space, assigned by the loader (shared and local: per CTA /
    /// per thread; global and const: within the module's static segment).
    pub offset: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub is_entry: bool,
    pub params: Vec<ParamInfo>,
    /// `.func` return parameters.
    pub rets: Vec<ParamInfo>,
    pub regs: Vec<RegInfo>,
    pub body: Vec<Instr>,
    /// Function-local variables (`.local`, `.shared` declared inside the body).
    pub locals: Vec<VarId>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// Path or name used in error messages.
    pub file: String,
    /// The source lines, for carets and first-divergence reports.
    pub source: Vec<String>,
    pub version: (u32, u32),
    /// e.g. 90 for sm_90 / sm_90a
    pub target_sm: u32,
    pub target: String,
    pub address_size: u32,
    pub vars: Vec<VarInfo>,
    pub funcs: Vec<Function>,
}

impl Module {
    pub fn entries(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.funcs.iter().enumerate().filter(|(_, f)| f.is_entry).map(|(i, f)| (FuncId(i as u32), f))
    }
    pub fn func(&self, id: FuncId) -> &Function {
        &self.funcs[id.0 as usize]
    }
    pub fn var(&self, id: VarId) -> &VarInfo {
        &self.vars[id.0 as usize]
    }
    /// `file:line:col` for an instruction.
    pub fn where_(&self, loc: Loc) -> String {
        format!("{}:{}:{}", self.file, loc.line, loc.col)
    }
    /// The source line of `loc`, trimmed, for reports.
    pub fn line_text(&self, loc: Loc) -> &str {
        self.source.get(loc.line.saturating_sub(1) as usize).map(|s| s.trim()).unwrap_or("")
    }
}
