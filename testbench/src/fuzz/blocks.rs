//! The building blocks of a random program. Each block is legal by construction for the shape
//! (CTAs x warps) and config it was generated for: it is executed by every thread of the CTA
//! (threads that take no part branch around and rejoin), leaves no async operation or barrier
//! phase pending, and claims its own shared memory, so any subset of blocks is still a legal
//! program (which is what the shrinker relies on).
//!
//! Each block has `generate` (random parameters within the limits), `emit` (PTX text into an
//! [`Emit`]) and `smaller` (variants with fewer operations, for the shrinker).

use super::render::{Emit, INPUT_BYTES};
use super::rng::Rng;
use smsync_sim::config::Config;

/// The limits a block is generated within.
pub struct Limits<'a> {
    pub config: &'a Config,
    pub warps: u32,
    /// Shared bytes still free in the CTA for this block.
    pub shared_free: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Plain(Plain),
    BarRed(BarRed),
    BarSubset(BarSubset),
    BarProdCons(BarProdCons),
    MbarPhases(MbarPhases),
    MbarPipeline(MbarPipeline),
    CpAsync(CpAsync),
    Atomics(Atomics),
    Warp(WarpOps),
    Tensor(TensorLoads),
}

/// The block kinds with their weights in a random choice.
pub const KINDS: &[(&str, u32)] = &[
    ("plain", 6),
    ("bar_red", 6),
    ("bar_subset", 6),
    ("bar_prodcons", 8),
    ("mbar_phases", 8),
    ("mbar_pipeline", 10),
    ("cp_async", 10),
    ("atomics", 14),
    ("warp", 14),
    ("tensor", 8),
];

impl Block {
    /// A random block of kind `kind` (index in [`KINDS`]), or None if it does not fit the limits.
    pub fn generate(kind: usize, rng: &mut Rng, lim: &Limits) -> Option<Block> {
        let f = &lim.config.features;
        Some(match KINDS[kind].0 {
            "plain" => Block::Plain(Plain::generate(rng, lim)?),
            "bar_red" => Block::BarRed(BarRed::generate(rng, lim)?),
            "bar_subset" => Block::BarSubset(BarSubset::generate(rng, lim)?),
            "bar_prodcons" => Block::BarProdCons(BarProdCons::generate(rng, lim)?),
            "mbar_phases" => Block::MbarPhases(MbarPhases::generate(rng, lim)?),
            "mbar_pipeline" if f.bulk_copy => Block::MbarPipeline(MbarPipeline::generate(rng, lim)?),
            "cp_async" => Block::CpAsync(CpAsync::generate(rng, lim)?),
            "atomics" => Block::Atomics(Atomics::generate(rng, lim)?),
            "warp" => Block::Warp(WarpOps::generate(rng, lim)?),
            "tensor" if f.tensor_copy => Block::Tensor(TensorLoads::generate(rng, lim)?),
            _ => return None,
        })
    }

    /// The kind's name in [`KINDS`].
    pub fn kind(&self) -> &'static str {
        match self {
            Block::Plain(_) => "plain",
            Block::BarRed(_) => "bar_red",
            Block::BarSubset(_) => "bar_subset",
            Block::BarProdCons(_) => "bar_prodcons",
            Block::MbarPhases(_) => "mbar_phases",
            Block::MbarPipeline(_) => "mbar_pipeline",
            Block::CpAsync(_) => "cp_async",
            Block::Atomics(_) => "atomics",
            Block::Warp(_) => "warp",
            Block::Tensor(_) => "tensor",
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Block::Plain(b) => format!(
                "plain ld/st, neighbour +{}{}{}",
                b.neighbour,
                if b.by_value.is_some() { ", struct by value" } else { "" },
                if b.ordinary { ", carry chain / sad / bmsk" } else { "" }
            ),
            Block::BarRed(b) => format!("bar.red.{} on barrier {}", b.op.name(), b.id),
            Block::BarSubset(b) => format!("bar.sync {} by warps {:#x}", b.id, b.warps),
            Block::BarProdCons(b) => format!(
                "named-barrier producer warp {} / consumer warp {}, {} rounds",
                b.producer, b.consumer, b.rounds
            ),
            Block::MbarPhases(b) => format!("mbarrier over {} phases (tx: {})", b.rounds, b.tx),
            Block::MbarPipeline(b) => format!(
                "mbarrier pipeline {} stages x {} B, {} chunks, cp.async.bulk",
                b.stages, b.chunk_bytes, b.chunks
            ),
            Block::CpAsync(b) => format!(
                "cp.async, {} group(s){}",
                b.groups.len(),
                if b.by_mbarrier { ", mbarrier completion" } else { "" }
            ),
            Block::Atomics(b) => format!("{} atomic op(s)", b.ops.len()),
            Block::Warp(b) => format!("{} warp collective(s)", b.ops.len()),
            Block::Tensor(b) => format!(
                "{} tensor tile load(s), {}d{}{}",
                b.loads.len(),
                b.dims,
                ["", ", 32B swizzle", ", 64B swizzle", ", 128B swizzle"][b.swizzle as usize % 4],
                if b.by_value { ", map by value" } else { "" }
            ),
        }
    }

    /// Shared bytes the block declares (upper bound).
    pub fn shared_bytes(&self, threads: u32) -> u32 {
        match self {
            Block::Plain(_) => threads * 4,
            Block::BarProdCons(_) => 128,
            Block::MbarPhases(_) => 8 + threads * 8,
            Block::MbarPipeline(b) => b.stages * b.chunk_bytes + b.stages * 16,
            Block::CpAsync(b) => b.region * threads + 8,
            Block::Atomics(b) => b.shared_area(),
            Block::Tensor(b) => b.loads.len() as u32 * b.box_bytes_padded() + 8,
            _ => 0,
        }
    }

    pub fn emit(&self, e: &mut Emit) {
        match self {
            Block::Plain(b) => b.emit(e),
            Block::BarRed(b) => b.emit(e),
            Block::BarSubset(b) => b.emit(e),
            Block::BarProdCons(b) => b.emit(e),
            Block::MbarPhases(b) => b.emit(e),
            Block::MbarPipeline(b) => b.emit(e),
            Block::CpAsync(b) => b.emit(e),
            Block::Atomics(b) => b.emit(e),
            Block::Warp(b) => b.emit(e),
            Block::Tensor(b) => b.emit(e),
        }
    }

    /// Smaller variants of this block (fewer operations, rounds or stages), each still legal.
    pub fn smaller(&self) -> Vec<Block> {
        let mut out = vec![];
        match self {
            Block::Plain(b) => {
                if b.by_value.is_some() {
                    out.push(Block::Plain(Plain { by_value: None, ..b.clone() }));
                }
                if b.ordinary {
                    out.push(Block::Plain(Plain { ordinary: false, ..b.clone() }));
                }
            }
            Block::BarProdCons(b) if b.rounds > 1 => {
                out.push(Block::BarProdCons(BarProdCons { rounds: b.rounds - 1, ..b.clone() }))
            }
            Block::MbarPhases(b) => {
                if b.rounds > 1 {
                    out.push(Block::MbarPhases(MbarPhases { rounds: b.rounds - 1, ..b.clone() }));
                }
                if b.tx {
                    out.push(Block::MbarPhases(MbarPhases { tx: false, ..b.clone() }));
                }
            }
            Block::MbarPipeline(b) => {
                if b.chunks > 1 {
                    out.push(Block::MbarPipeline(MbarPipeline { chunks: b.chunks - 1, ..b.clone() }));
                }
                if b.stages > 1 {
                    out.push(Block::MbarPipeline(MbarPipeline { stages: b.stages - 1, ..b.clone() }));
                }
            }
            Block::CpAsync(b) => {
                for g in 0..b.groups.len() {
                    for c in 0..b.groups[g].len() {
                        let mut s = b.clone();
                        s.groups[g].remove(c);
                        if s.groups[g].is_empty() {
                            s.groups.remove(g);
                        }
                        if !s.groups.is_empty() {
                            s.wait_keep = s.wait_keep.min(s.groups.len() as u32 - 1);
                            out.push(Block::CpAsync(s));
                        }
                    }
                }
            }
            Block::Atomics(b) if b.ops.len() > 1 => {
                for i in 0..b.ops.len() {
                    let mut s = b.clone();
                    s.ops.remove(i);
                    out.push(Block::Atomics(s));
                }
            }
            Block::Warp(b) => {
                for i in 0..b.ops.len() {
                    if b.ops.len() > 1 {
                        let mut s = b.clone();
                        s.ops.remove(i);
                        out.push(Block::Warp(s));
                    }
                    if b.ops[i].other.is_some() {
                        let mut s = b.clone();
                        s.ops[i].other = None;
                        out.push(Block::Warp(s));
                    }
                }
            }
            Block::Tensor(b) if b.loads.len() > 1 => {
                for i in 0..b.loads.len() {
                    let mut s = b.clone();
                    s.loads.remove(i);
                    out.push(Block::Tensor(s));
                }
            }
            _ => {}
        }
        out
    }
}

/// Emit `@!in_set bra skip` for threads whose `bit`-th position in `mask` (a u32 immediate) is
/// clear; `bit` is a register. Returns the label to place after the guarded code.
fn skip_unless_bit(e: &mut Emit, mask: u32, bit: &str, skip: &str) {
    let m = e.r();
    let p = e.p();
    e.line(format!("mov.u32 {m}, {mask:#010x};"));
    e.line(format!("shr.b32 {m}, {m}, {bit};"));
    e.line(format!("and.b32 {m}, {m}, 1;"));
    e.line(format!("setp.eq.u32 {p}, {m}, 0;"));
    e.line(format!("@{p} bra {skip};"));
}

/// `dst = tid * mul + add` (u32 wrap): the per-thread values blocks feed into operations.
fn thread_value(e: &mut Emit, mul: u32, add: u32) -> String {
    let v = e.r();
    e.line(format!("mad.lo.u32 {v}, %r1, {mul}, {add};"));
    v
}

/// Spin on an mbarrier parity wait (try_wait, try_wait with a suspend hint, or test_wait).
fn wait_parity(e: &mut Emit, kind: WaitKind, bar: &str, parity: &str, what: &str) {
    let l = e.label(what);
    let p = e.p();
    e.place(&l);
    match kind {
        WaitKind::Try => e.line(format!("mbarrier.try_wait.parity.shared::cta.b64 {p}, [{bar}], {parity};")),
        WaitKind::TryHint => e.line(format!("mbarrier.try_wait.parity.shared::cta.b64 {p}, [{bar}], {parity}, 1000;")),
        WaitKind::Test => e.line(format!("mbarrier.test_wait.parity.shared::cta.b64 {p}, [{bar}], {parity};")),
    }
    e.line(format!("@!{p} bra {l};"));
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WaitKind {
    Try,
    TryHint,
    Test,
}

const WAITS: &[WaitKind] = &[WaitKind::Try, WaitKind::TryHint, WaitKind::Test];

/// Thread 0 initialises mbarriers (`inits`: (address register, byte offset, count)), then the
/// proxy fence, then the whole CTA meets at bar.sync 0 so nobody touches an uninitialised one.
fn init_mbarriers(e: &mut Emit, base: &str, inits: &[(u32, u32)]) {
    let skip = e.label("init_done");
    let p = e.p();
    e.line(format!("setp.ne.u32 {p}, %r1, 0;"));
    e.line(format!("@{p} bra {skip};"));
    for (off, count) in inits {
        e.line(format!("mbarrier.init.shared::cta.b64 [{base}+{off}], {count};"));
    }
    e.line("fence.proxy.async.shared::cta;");
    e.place(&skip);
    e.line("bar.sync 0;");
}

// ------------------------------------------------------------------------------------------
/// Plain ld/st: every thread stores to shared, meets the CTA, reads a neighbour's word; and a
/// vector load from global; optionally the fields of a by-value struct parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Plain {
    pub neighbour: u32,
    pub mul: u32,
    pub vec4: bool,
    /// A by-value struct parameter `{u32 a; u16 b; const u32* input; float d;}` (24 bytes,
    /// `.param .align 8 .b8 p[24]`, the launch file's `{fields: [..]}`), read with ld.param and
    /// through its generic address (mov + cvta.param, PTX ISA §5.1.6.1), the pointer field
    /// dereferenced: (a, b, d * 4).
    pub by_value: Option<(u32, u16, u32)>,
    /// Ordinary PTX that open test suites use, on the thread value: a carry chain (`add.cc` /
    /// `addc`, PTX ISA §9.7.2.1, §9.7.2.2), `sad` (§9.7.1.7) and `bmsk` (§9.7.1.22), observed.
    pub ordinary: bool,
}

impl Plain {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<Plain> {
        if lim.shared_free < lim.warps * 32 * 4 {
            return None;
        }
        let mut p = Plain {
            neighbour: rng.range(1, lim.warps * 32 - 1).max(1),
            mul: rng.u32() | 1,
            vec4: rng.chance(50),
            by_value: None,
            ordinary: false,
        };
        // from a copy of the stream: every seed's program is otherwise what it was before
        let mut side = rng.clone();
        side.next_u64();
        if side.chance(40) {
            p.by_value = Some((side.u32(), side.range(0, 65535) as u16, side.range(0, 400)));
        }
        p.ordinary = side.chance(40);
        Some(p)
    }
    fn emit(&self, e: &mut Emit) {
        let t = e.threads;
        let s = e.shared("plain", t * 4, 4);
        let base = e.r();
        e.line(format!("mov.u32 {base}, {s};"));
        let v = thread_value(e, self.mul, 7);
        let a = e.r();
        e.line(format!("mad.lo.u32 {a}, %r1, 4, {base};"));
        e.line(format!("st.shared.u32 [{a}], {v};"));
        e.line("bar.sync 0;");
        let n = e.r();
        e.line(format!("add.u32 {n}, %r1, {};", self.neighbour));
        e.line(format!("rem.u32 {n}, {n}, {t};"));
        e.line(format!("mad.lo.u32 {n}, {n}, 4, {base};"));
        let x = e.r();
        e.line(format!("ld.shared.u32 {x}, [{n}];"));
        e.observe(&x);
        // global: a vector load from the input, summed
        let off = e.r();
        let w = if self.vec4 { 16 } else { 8 };
        e.line(format!("mul.lo.u32 {off}, %r6, {w};"));
        e.line(format!("rem.u32 {off}, {off}, {INPUT_BYTES};"));
        let off64 = e.rd();
        e.line(format!("cvt.u64.u32 {off64}, {off};"));
        e.line(format!("add.s64 {off64}, {off64}, %rd2;"));
        let (a0, a1, a2, a3) = (e.r(), e.r(), e.r(), e.r());
        if self.vec4 {
            e.line(format!("ld.global.v4.u32 {{{a0}, {a1}, {a2}, {a3}}}, [{off64}];"));
            e.line(format!("xor.b32 {a0}, {a0}, {a1};"));
            e.line(format!("xor.b32 {a2}, {a2}, {a3};"));
            e.line(format!("add.u32 {a0}, {a0}, {a2};"));
        } else {
            e.line(format!("ld.global.v2.u32 {{{a0}, {a1}}}, [{off64}];"));
            e.line(format!("sub.u32 {a0}, {a0}, {a1};"));
        }
        e.observe(&a0);
        if let Some((a, b, d4)) = self.by_value {
            self.emit_by_value(e, a, b, d4);
        }
        if self.ordinary {
            // the 64-bit sum (ctaid : v) + (tid : mul) in 32-bit halves through the carry
            // chain, |v - tid| + hi, and a mask of 7 bits from bit `lane` (clamped at 32)
            let (lo, hi, sad, m) = (e.r(), e.r(), e.r(), e.r());
            e.line(format!("add.cc.u32 {lo}, {v}, {};", self.mul));
            e.line(format!("addc.u32 {hi}, %r2, %r1;"));
            e.line(format!("sad.u32 {sad}, {v}, %r1, {hi};"));
            e.line(format!("bmsk.clamp.b32 {m}, %r3, 7;"));
            e.line(format!("xor.b32 {lo}, {lo}, {sad};"));
            e.line(format!("xor.b32 {lo}, {lo}, {m};"));
            e.observe(&lo);
        }
    }

    /// Reads the by-value struct: `a` and `b` with ld.param, the pointer and `d` through the
    /// parameter's generic address; observes a ^ b ^ bits(d) and input[tid % 64] loaded
    /// through the pointer field.
    fn emit_by_value(&self, e: &mut Emit, a: u32, b: u16, d4: u32) {
        let value = format!("{{fields: [{{u32: {a}}}, {{u16: {b}}}, input, {{f32: {}}}]}}", d4 as f32 / 4.0);
        let p = e.by_value_param("s", 8, 24, value);
        let (ra, rb, rd) = (e.r(), e.r(), e.r());
        e.line(format!("ld.param.u32 {ra}, [{p}];"));
        e.line(format!("ld.param.u16 {rb}, [{p}+4];"));
        let (g, ptr) = (e.rd(), e.rd());
        e.line(format!("mov.b64 {g}, {p};"));
        e.line(format!("cvta.param.u64 {g}, {g};"));
        e.line(format!("ld.u64 {ptr}, [{g}+8];"));
        e.line(format!("ld.u32 {rd}, [{g}+16];"));
        e.line(format!("xor.b32 {ra}, {ra}, {rb};"));
        e.line(format!("xor.b32 {ra}, {ra}, {rd};"));
        e.observe(&ra);
        let (w, off) = (e.r(), e.rd());
        e.line(format!("and.b32 {w}, %r1, 63;"));
        e.line(format!("mul.wide.u32 {off}, {w}, 4;"));
        e.line(format!("add.s64 {ptr}, {ptr}, {off};"));
        e.line(format!("ld.global.u32 {w}, [{ptr}];"));
        e.observe(&w);
    }
}

// ------------------------------------------------------------------------------------------
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RedOp {
    Popc,
    And,
    Or,
}
impl RedOp {
    fn name(self) -> &'static str {
        match self {
            RedOp::Popc => "popc",
            RedOp::And => "and",
            RedOp::Or => "or",
        }
    }
}

/// bar.red over the whole CTA (no thread count) on a non-zero barrier.
#[derive(Clone, Debug, PartialEq)]
pub struct BarRed {
    pub id: u32,
    pub op: RedOp,
    /// predicate: (tid * mul) % modulus == 0, optionally negated
    pub mul: u32,
    pub modulus: u32,
    pub negate: bool,
    pub barrier_keyword: bool,
}

impl BarRed {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<BarRed> {
        Some(BarRed {
            id: rng.range(1, lim.config.named_barriers - 1),
            op: rng.pick(&[RedOp::Popc, RedOp::And, RedOp::Or]),
            mul: rng.range(1, 9),
            modulus: rng.pick(&[1, 2, 3, 5, 64, 1000]),
            negate: rng.chance(30),
            barrier_keyword: rng.chance(30),
        })
    }
    fn emit(&self, e: &mut Emit) {
        let v = e.r();
        e.line(format!("mul.lo.u32 {v}, %r1, {};", self.mul));
        e.line(format!("rem.u32 {v}, {v}, {};", self.modulus));
        let c = e.p();
        e.line(format!("setp.eq.u32 {c}, {v}, 0;"));
        let neg = if self.negate { "!" } else { "" };
        let kw = if self.barrier_keyword { "barrier.red" } else { "bar.red" };
        let d = e.r();
        match self.op {
            RedOp::Popc => e.line(format!("{kw}.popc.u32 {d}, {}, {neg}{c};", self.id)),
            op => {
                let q = e.p();
                e.line(format!("{kw}.{}.pred {q}, {}, {neg}{c};", op.name(), self.id));
                e.line(format!("selp.u32 {d}, 1, 0, {q};"));
            }
        }
        e.observe(&d);
    }
}

/// A subset of the warps meets on a named barrier with a partial thread count (bar.sync or
/// bar.red.popc); the other warps branch around it.
#[derive(Clone, Debug, PartialEq)]
pub struct BarSubset {
    pub id: u32,
    /// bit w = warp w takes part (at least one)
    pub warps: u32,
    pub red: bool,
    pub id_in_register: bool,
}

impl BarSubset {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<BarSubset> {
        let all = (1u32 << lim.warps) - 1;
        let warps = (rng.u32() & all).max(1);
        Some(BarSubset {
            id: rng.range(1, lim.config.named_barriers - 1),
            warps,
            red: rng.chance(40),
            id_in_register: rng.chance(40),
        })
    }
    fn emit(&self, e: &mut Emit) {
        let skip = e.label("subset_skip");
        let count = self.warps.count_ones() * 32;
        let d = e.r();
        e.line(format!("mov.u32 {d}, 0;"));
        skip_unless_bit(e, self.warps, "%r4", &skip);
        let id = if self.id_in_register {
            let r = e.r();
            e.line(format!("mov.u32 {r}, {};", self.id));
            r
        } else {
            self.id.to_string()
        };
        if self.red {
            let c = e.p();
            e.line(format!("setp.lt.u32 {c}, %r3, 5;"));
            e.line(format!("bar.red.popc.u32 {d}, {id}, {count}, {c};"));
        } else {
            e.line(format!("bar.sync {id}, {count};"));
            e.line(format!("add.u32 {d}, %r4, 100;"));
        }
        e.place(&skip);
        e.observe(&d);
    }
}

/// Named-barrier producer/consumer handshake between two warps (count 64): the producer
/// writes a slot and `bar.arrive full`; the consumer `bar.sync full`, reads, `bar.arrive empty`.
#[derive(Clone, Debug, PartialEq)]
pub struct BarProdCons {
    pub producer: u32,
    pub consumer: u32,
    pub full: u32,
    pub empty: u32,
    pub rounds: u32,
}

impl BarProdCons {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<BarProdCons> {
        if lim.warps < 2 || lim.shared_free < 128 || lim.config.named_barriers < 3 {
            return None;
        }
        let producer = rng.range(0, lim.warps - 1);
        let consumer = (producer + rng.range(1, lim.warps - 1)) % lim.warps;
        let full = rng.range(1, lim.config.named_barriers - 1);
        let empty = loop {
            let x = rng.range(1, lim.config.named_barriers - 1);
            if x != full {
                break x;
            }
        };
        Some(BarProdCons { producer, consumer, full, empty, rounds: rng.range(1, 5) })
    }
    fn emit(&self, e: &mut Emit) {
        let s = e.shared("slot", 128, 4);
        let slot = e.r();
        e.line(format!("mov.u32 {slot}, {s};"));
        e.line(format!("mad.lo.u32 {slot}, %r3, 4, {slot};"));
        let (cons, done, ploop, pwrite, cloop) = (
            e.label("consumer"),
            e.label("pc_done"),
            e.label("prod_loop"),
            e.label("prod_write"),
            e.label("cons_loop"),
        );
        let round = e.r();
        let acc = e.r();
        e.line(format!("mov.u32 {round}, 0;"));
        e.line(format!("mov.u32 {acc}, 0;"));
        let p = e.p();
        e.line(format!("setp.eq.u32 {p}, %r4, {};", self.consumer));
        e.line(format!("@{p} bra {cons};"));
        e.line(format!("setp.ne.u32 {p}, %r4, {};", self.producer));
        e.line(format!("@{p} bra {done};"));
        // producer
        e.place(&ploop);
        let q = e.p();
        e.line(format!("setp.eq.u32 {q}, {round}, 0;"));
        e.line(format!("@{q} bra {pwrite};"));
        e.line(format!("bar.sync {}, 64;", self.empty));
        e.place(&pwrite);
        let v = e.r();
        e.line(format!("mad.lo.u32 {v}, {round}, 1000, %r3;"));
        e.line(format!("st.shared.u32 [{slot}], {v};"));
        e.line(format!("bar.arrive {}, 64;", self.full));
        e.line(format!("add.u32 {round}, {round}, 1;"));
        e.line(format!("setp.lt.u32 {q}, {round}, {};", self.rounds));
        e.line(format!("@{q} bra {ploop};"));
        e.line(format!("bra.uni {done};"));
        // consumer
        e.place(&cons);
        e.place(&cloop);
        e.line(format!("bar.sync {}, 64;", self.full));
        let x = e.r();
        e.line(format!("ld.shared.u32 {x}, [{slot}];"));
        e.line(format!("mad.lo.u32 {acc}, {acc}, 7, {x};"));
        e.line(format!("add.u32 {round}, {round}, 1;"));
        e.line(format!("setp.ge.u32 {q}, {round}, {};", self.rounds));
        e.line(format!("@{q} bra {done};"));
        e.line(format!("bar.arrive {}, 64;", self.empty));
        e.line(format!("bra.uni {cloop};"));
        e.place(&done);
        e.observe(&acc);
    }
}

// ------------------------------------------------------------------------------------------
/// All threads arrive on one mbarrier (count = threads) over several phases and wait with the
/// state token (try_wait or test_wait); with `tx`, thread 0 also expects and completes a
/// transaction count each phase. Each phase exchanges data through double-buffered shared words.
#[derive(Clone, Debug, PartialEq)]
pub struct MbarPhases {
    pub rounds: u32,
    pub tx: bool,
    pub tx_bytes: u32,
    pub test_wait: bool,
}

impl MbarPhases {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<MbarPhases> {
        if lim.shared_free < 8 + lim.warps * 32 * 8 {
            return None;
        }
        Some(MbarPhases {
            rounds: rng.range(1, 6),
            tx: rng.chance(50),
            tx_bytes: rng.range(1, 4096),
            test_wait: rng.chance(40),
        })
    }
    fn emit(&self, e: &mut Emit) {
        let t = e.threads;
        let sb = e.shared("mbar", 8, 8);
        let sd = e.shared("words", t * 8, 4);
        let bar = e.r();
        e.line(format!("mov.u32 {bar}, {sb};"));
        init_mbarriers(e, &bar, &[(0, t)]);
        let words = e.r();
        e.line(format!("mov.u32 {words}, {sd};"));
        let (round, acc) = (e.r(), e.r());
        e.line(format!("mov.u32 {round}, 0;"));
        e.line(format!("mov.u32 {acc}, 0;"));
        let (lp, w) = (e.label("phase"), e.label("wait"));
        e.place(&lp);
        // my word of this round's half: words[(round&1)*t + tid]
        let half = e.r();
        e.line(format!("and.b32 {half}, {round}, 1;"));
        e.line(format!("mul.lo.u32 {half}, {half}, {};", t * 4));
        e.line(format!("add.u32 {half}, {half}, {words};"));
        let mine = e.r();
        e.line(format!("mad.lo.u32 {mine}, %r1, 4, {half};"));
        let v = e.r();
        e.line(format!("mad.lo.u32 {v}, {round}, 1000, %r1;"));
        e.line(format!("st.shared.u32 [{mine}], {v};"));
        let is0 = e.p();
        e.line(format!("setp.eq.u32 {is0}, %r1, 0;"));
        if self.tx {
            e.line(format!("@{is0} mbarrier.expect_tx.shared::cta.b64 [{bar}], {};", self.tx_bytes));
        }
        let st = e.rd();
        e.line(format!("mbarrier.arrive.shared::cta.b64 {st}, [{bar}];"));
        if self.tx {
            e.line(format!("@{is0} mbarrier.complete_tx.shared::cta.b64 [{bar}], {};", self.tx_bytes));
        }
        e.place(&w);
        let p = e.p();
        let op = if self.test_wait { "test_wait" } else { "try_wait" };
        e.line(format!("mbarrier.{op}.shared::cta.b64 {p}, [{bar}], {st};"));
        e.line(format!("@!{p} bra {w};"));
        // read the next thread's word of this round
        let n = e.r();
        e.line(format!("add.u32 {n}, %r1, 1;"));
        e.line(format!("rem.u32 {n}, {n}, {t};"));
        e.line(format!("mad.lo.u32 {n}, {n}, 4, {half};"));
        let x = e.r();
        e.line(format!("ld.shared.u32 {x}, [{n}];"));
        e.line(format!("mad.lo.u32 {acc}, {acc}, 3, {x};"));
        e.line(format!("add.u32 {round}, {round}, 1;"));
        let more = e.p();
        e.line(format!("setp.lt.u32 {more}, {round}, {};", self.rounds));
        e.line(format!("@{more} bra {lp};"));
        e.observe(&acc);
    }
}

/// A full/empty mbarrier pipeline: thread 0 produces each chunk with arrive.expect_tx and a
/// cp.async.bulk completing on full[s]; every thread consumes it (wait full[s] by parity, read,
/// arrive on empty[s]); thread 0 waits empty[s] before reusing a stage.
#[derive(Clone, Debug, PartialEq)]
pub struct MbarPipeline {
    pub stages: u32,
    pub chunk_bytes: u32,
    pub chunks: u32,
    pub wait: WaitKind,
    pub keep_state: bool,
}

impl MbarPipeline {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<MbarPipeline> {
        let chunk_bytes = rng.pick(&[16, 32, 64, 128, 256]);
        let stages = rng.range(1, 3);
        if lim.shared_free < stages * chunk_bytes + stages * 16 {
            return None;
        }
        Some(MbarPipeline {
            stages,
            chunk_bytes,
            chunks: rng.range(1, 9),
            wait: rng.pick(WAITS),
            keep_state: rng.chance(40),
        })
    }
    fn emit(&self, e: &mut Emit) {
        let (t, s_n, ch) = (e.threads, self.stages, self.chunk_bytes);
        let sbuf = e.shared("stages", s_n * ch, 16);
        let sbar = e.shared("bars", s_n * 16, 8);
        let (buf, bars) = (e.r(), e.r());
        e.line(format!("mov.u32 {buf}, {sbuf};"));
        e.line(format!("mov.u32 {bars}, {sbar};"));
        // full[s] at bars + 8s (count 1), empty[s] at bars + 8(S+s) (count = threads)
        let mut inits: Vec<(u32, u32)> = (0..s_n).map(|s| (8 * s, 1)).collect();
        inits.extend((0..s_n).map(|s| (8 * (s_n + s), t)));
        init_mbarriers(e, &bars, &inits);
        let (c, acc) = (e.r(), e.r());
        e.line(format!("mov.u32 {c}, 0;"));
        e.line(format!("mov.u32 {acc}, 0;"));
        let (lp, fill, cons) = (e.label("chunk"), e.label("fill"), e.label("consume"));
        e.place(&lp);
        let (s, k) = (e.r(), e.r());
        e.line(format!("rem.u32 {s}, {c}, {s_n};"));
        e.line(format!("div.u32 {k}, {c}, {s_n};"));
        let (full, empty) = (e.r(), e.r());
        e.line(format!("mad.lo.u32 {full}, {s}, 8, {bars};"));
        e.line(format!("add.u32 {empty}, {full}, {};", 8 * s_n));
        let p = e.p();
        e.line(format!("setp.ne.u32 {p}, %r1, 0;"));
        e.line(format!("@{p} bra {cons};"));
        e.line(format!("setp.eq.u32 {p}, {k}, 0;"));
        e.line(format!("@{p} bra {fill};"));
        let par = e.r();
        e.line(format!("sub.u32 {par}, {k}, 1;"));
        e.line(format!("and.b32 {par}, {par}, 1;"));
        wait_parity(e, self.wait, &empty, &par, "wait_empty");
        e.place(&fill);
        e.line(format!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{full}], {ch};"));
        let (dst, src) = (e.r(), e.r());
        e.line(format!("mad.lo.u32 {dst}, {s}, {ch}, {buf};"));
        // src = input + ((cta * chunks + c) * ch) % INPUT_BYTES
        e.line(format!("mad.lo.u32 {src}, %r2, {}, {c};", self.chunks));
        e.line(format!("mul.lo.u32 {src}, {src}, {ch};"));
        e.line(format!("rem.u32 {src}, {src}, {INPUT_BYTES};"));
        let src64 = e.rd();
        e.line(format!("cvt.u64.u32 {src64}, {src};"));
        e.line(format!("add.s64 {src64}, {src64}, %rd2;"));
        e.line(format!(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{dst}], [{src64}], {ch}, [{full}];"
        ));
        e.place(&cons);
        let par2 = e.r();
        e.line(format!("and.b32 {par2}, {k}, 1;"));
        wait_parity(e, self.wait, &full, &par2, "wait_full");
        let a = e.r();
        e.line(format!("rem.u32 {a}, %r1, {};", ch / 4));
        e.line(format!("shl.b32 {a}, {a}, 2;"));
        e.line(format!("mad.lo.u32 {a}, {s}, {ch}, {a};"));
        e.line(format!("add.u32 {a}, {a}, {buf};"));
        let x = e.r();
        e.line(format!("ld.shared.u32 {x}, [{a}];"));
        e.line(format!("mad.lo.u32 {acc}, {acc}, 3, {x};"));
        if self.keep_state {
            let st = e.rd();
            e.line(format!("mbarrier.arrive.shared::cta.b64 {st}, [{empty}];"));
        } else {
            e.line(format!("mbarrier.arrive.shared::cta.b64 _, [{empty}];"));
        }
        e.line(format!("add.u32 {c}, {c}, 1;"));
        e.line(format!("setp.lt.u32 {p}, {c}, {};", self.chunks));
        e.line(format!("@{p} bra {lp};"));
        e.observe(&acc);
    }
}

// ------------------------------------------------------------------------------------------
/// One cp.async of a thread into its own shared region.
#[derive(Clone, Debug, PartialEq)]
pub struct Copy {
    pub size: u32,
    pub cg: bool,
    /// Some(n): copy n < size bytes, zero-fill the rest
    pub src_size: Option<u32>,
}

/// Per-thread cp.async copies in commit groups, completed either by wait_group/wait_all or by
/// cp.async.mbarrier.arrive.noinc on an mbarrier; each thread then reads its own copies.
#[derive(Clone, Debug, PartialEq)]
pub struct CpAsync {
    pub groups: Vec<Vec<Copy>>,
    /// bytes of each thread's region (a power of two, so regions never straddle the input's end)
    pub region: u32,
    /// wait_group N before the first reads (N < groups)
    pub wait_keep: u32,
    pub by_mbarrier: bool,
}

impl CpAsync {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<CpAsync> {
        let t = lim.warps * 32;
        let region = [64u32, 32, 16].into_iter().find(|r| r * t + 8 <= lim.shared_free)?;
        let mut used = 0u32;
        let mut groups = vec![];
        for _ in 0..rng.range(1, 4) {
            let mut g = vec![];
            for _ in 0..rng.range(1, 3) {
                let size = rng.pick(&[4u32, 8, 16]);
                let at = used.div_ceil(size) * size;
                if at + size > region {
                    break;
                }
                used = at + size;
                let cg = size == 16 && rng.chance(50);
                let src_size = if rng.chance(30) { Some(rng.range(0, size - 1)) } else { None };
                g.push(Copy { size, cg, src_size });
            }
            if !g.is_empty() {
                groups.push(g);
            }
        }
        if groups.is_empty() {
            return None;
        }
        let wait_keep = rng.range(0, groups.len() as u32 - 1);
        Some(CpAsync { groups, region, wait_keep, by_mbarrier: rng.chance(30) })
    }

    /// (group, offset in region, copy) in issue order.
    fn layout(&self) -> Vec<(usize, u32, &Copy)> {
        let mut used = 0u32;
        let mut out = vec![];
        for (g, copies) in self.groups.iter().enumerate() {
            for c in copies {
                let at = used.div_ceil(c.size) * c.size;
                used = at + c.size;
                out.push((g, at, c));
            }
        }
        out
    }

    fn emit(&self, e: &mut Emit) {
        let t = e.threads;
        let sreg = e.shared("regions", self.region * t, 16);
        let sbar = e.shared("mbar", 8, 8);
        let bar = e.r();
        if self.by_mbarrier {
            e.line(format!("mov.u32 {bar}, {sbar};"));
            init_mbarriers(e, &bar, &[(0, t)]);
        }
        let dst = e.r();
        e.line(format!("mov.u32 {dst}, {sreg};"));
        e.line(format!("mad.lo.u32 {dst}, %r1, {}, {dst};", self.region));
        let src = e.r();
        e.line(format!("mul.lo.u32 {src}, %r6, {};", self.region));
        e.line(format!("rem.u32 {src}, {src}, {INPUT_BYTES};"));
        let src64 = e.rd();
        e.line(format!("cvt.u64.u32 {src64}, {src};"));
        e.line(format!("add.s64 {src64}, {src64}, %rd2;"));
        let layout = self.layout();
        let mut g_prev = 0;
        for (g, off, c) in &layout {
            if *g != g_prev {
                e.line("cp.async.commit_group;");
                g_prev = *g;
            }
            let kind = if c.cg { "cg" } else { "ca" };
            let tail = match c.src_size {
                Some(n) => format!(", {n}"),
                None => String::new(),
            };
            e.line(format!("cp.async.{kind}.shared.global [{dst}+{off}], [{src64}+{off}], {}{tail};", c.size));
        }
        e.line("cp.async.commit_group;");
        let acc = e.r();
        e.line(format!("mov.u32 {acc}, 0;"));
        let read = |e: &mut Emit, off: u32, acc: &str| {
            let x = e.r();
            e.line(format!("ld.shared.u32 {x}, [{dst}+{off}];"));
            e.line(format!("mad.lo.u32 {acc}, {acc}, 5, {x};"));
        };
        if self.by_mbarrier {
            e.line(format!("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [{bar}];"));
            let zero = e.r();
            e.line(format!("mov.u32 {zero}, 0;"));
            wait_parity(e, WaitKind::Try, &bar, &zero, "cp_wait");
            for (_, off, _) in &layout {
                read(e, *off, &acc);
            }
        } else {
            let n = self.groups.len() as u32;
            e.line(format!("cp.async.wait_group {};", self.wait_keep));
            for (g, off, _) in &layout {
                if (*g as u32) < n - self.wait_keep {
                    read(e, *off, &acc);
                }
            }
            e.line("cp.async.wait_all;");
            for (g, off, _) in &layout {
                if (*g as u32) >= n - self.wait_keep {
                    read(e, *off, &acc);
                }
            }
        }
        e.observe(&acc);
    }
}

// ------------------------------------------------------------------------------------------
/// Shared atomics area: 8 u32 words [0,32), 4 f32 words [32,48), 4 u64 words [48,80); a block
/// with packed half-precision ops adds [`HALF2_SHARED_BYTES`]: 2 f16x2 words [80,88) and 2
/// bf16x2 words [88,96).
const ATOM_SHARED_BYTES: u32 = 80;
const HALF2_SHARED_BYTES: u32 = 16;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AtomClass {
    Int32,
    Float32,
    Int64,
    /// f16x2 / bf16x2 add (`.noftz`), the operand packed by `cvt.rn.{f16x2,bf16x2}.f32` from two
    /// small integers (PTX ISA §9.7.9.21, §9.7.13.5); needs `features.float_atomics`.
    Half2,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AtomOp {
    pub global: bool,
    pub class: AtomClass,
    pub op: &'static str,
    pub ty: &'static str,
    /// atom (returns the old value, observed) or red
    pub returns: bool,
    /// word = (tid / spread_div) % words_used
    pub spread_div: u32,
    pub words_used: u32,
    pub mul: u32,
    pub add: u32,
    /// only threads with tid % every == 0 execute it
    pub every: u32,
}

/// Atomics and reductions on a few conflicting words of shared memory and of the global
/// `gatom` buffer (shared by all CTAs); the final shared words are observed after the CTA meets.
#[derive(Clone, Debug, PartialEq)]
pub struct Atomics {
    pub ops: Vec<AtomOp>,
    pub init: [u32; 8],
}

const INT32_OPS: &[(&str, &[&str])] = &[
    ("add", &["u32", "s32"]),
    ("min", &["u32", "s32"]),
    ("max", &["u32", "s32"]),
    ("and", &["b32"]),
    ("or", &["b32"]),
    ("xor", &["b32"]),
    ("exch", &["b32"]),
    ("cas", &["b32"]),
    ("inc", &["u32"]),
    ("dec", &["u32"]),
];
const INT64_OPS: &[(&str, &[&str])] = &[
    ("add", &["u64"]),
    ("min", &["u64", "s64"]),
    ("max", &["u64", "s64"]),
    ("and", &["b64"]),
    ("or", &["b64"]),
    ("xor", &["b64"]),
    ("exch", &["b64"]),
    ("cas", &["b64"]),
];

impl Atomics {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<Atomics> {
        if lim.shared_free < ATOM_SHARED_BYTES {
            return None;
        }
        let mut ops = vec![];
        for _ in 0..rng.range(1, 6) {
            let class = match rng.weighted(&[6, if lim.config.features.float_atomics { 2 } else { 0 }, 3]) {
                0 => AtomClass::Int32,
                1 => AtomClass::Float32,
                _ => AtomClass::Int64,
            };
            let (op, ty) = match class {
                AtomClass::Int32 => {
                    let (op, tys) = rng.pick(INT32_OPS);
                    (op, rng.pick(tys))
                }
                AtomClass::Int64 => {
                    let (op, tys) = rng.pick(INT64_OPS);
                    (op, rng.pick(tys))
                }
                // (Half2 ops are drawn from the side stream below, never here)
                AtomClass::Float32 | AtomClass::Half2 => ("add", "f32"),
            };
            let red_ok = op != "cas" && op != "exch";
            let max_words = match class {
                AtomClass::Int32 => 8,
                _ => 4,
            };
            ops.push(AtomOp {
                global: rng.chance(45),
                class,
                op,
                ty,
                returns: !red_ok || rng.chance(60),
                spread_div: rng.pick(&[1, 1, 3, 32]),
                words_used: rng.range(1, max_words),
                mul: rng.range(0, 1000),
                add: rng.range(0, 50),
                every: rng.pick(&[1, 1, 1, 2, 7]),
            });
        }
        let mut init = [0u32; 8];
        for w in init.iter_mut() {
            *w = rng.range(0, 20);
        }
        // Packed half-precision adds come from a copy of the stream: the main stream, and so
        // every seed's other ops and blocks, stays what it was before they existed.
        let mut side = rng.clone();
        side.next_u64();
        if lim.config.features.float_atomics
            && lim.shared_free >= ATOM_SHARED_BYTES + HALF2_SHARED_BYTES
            && side.chance(40)
        {
            for _ in 0..side.range(1, 2) {
                ops.push(AtomOp {
                    global: side.chance(50),
                    class: AtomClass::Half2,
                    op: "add",
                    ty: side.pick(&["f16x2", "bf16x2"]),
                    returns: side.chance(60),
                    spread_div: side.pick(&[1, 1, 3, 32]),
                    words_used: side.range(1, 2),
                    mul: side.range(0, 1000),
                    add: side.range(0, 50),
                    every: side.pick(&[1, 1, 2, 7]),
                });
            }
        }
        Some(Atomics { ops, init })
    }

    /// Shared bytes of the block's atomics area.
    fn shared_area(&self) -> u32 {
        let half2 = self.ops.iter().any(|o| o.class == AtomClass::Half2);
        ATOM_SHARED_BYTES + if half2 { HALF2_SHARED_BYTES } else { 0 }
    }

    fn emit(&self, e: &mut Emit) {
        let area = self.shared_area();
        let sa = e.shared("atoms", area, 8);
        let base = e.r();
        e.line(format!("mov.u32 {base}, {sa};"));
        // thread 0 initialises the shared words (the float and 64-bit words to zero)
        let skip = e.label("atom_init");
        let p = e.p();
        e.line(format!("setp.ne.u32 {p}, %r1, 0;"));
        e.line(format!("@{p} bra {skip};"));
        for (i, v) in self.init.iter().enumerate() {
            e.line(format!("st.shared.u32 [{base}+{}], {v};", i * 4));
        }
        for i in 8..area / 4 {
            e.line(format!("st.shared.u32 [{base}+{}], 0;", i * 4));
        }
        e.place(&skip);
        e.line("bar.sync 0;");
        for (i, op) in self.ops.iter().enumerate() {
            // each op starts from fresh scratch registers; %r10 is the shared area again
            e.reset_regs();
            let base = e.r();
            e.line(format!("mov.u32 {base}, {sa};"));
            // word index and byte address
            let w = e.r();
            e.line(format!("div.u32 {w}, %r1, {};", op.spread_div));
            e.line(format!("rem.u32 {w}, {w}, {};", op.words_used));
            let (region_off, width) = match op.class {
                AtomClass::Int32 => (0u32, 4u32),
                AtomClass::Float32 => (if op.global { 64 } else { 32 }, 4),
                AtomClass::Int64 => (if op.global { 128 } else { 48 }, 8),
                // gatom words 24..26 (f16x2), 28..30 (bf16x2); shared words 20..22, 22..24
                AtomClass::Half2 => {
                    let bf = (op.ty == "bf16x2") as u32;
                    (if op.global { 96 + 16 * bf } else { 80 + 8 * bf }, 4)
                }
            };
            let byte = e.r();
            e.line(format!("mul.lo.u32 {byte}, {w}, {width};"));
            e.line(format!("add.u32 {byte}, {byte}, {region_off};"));
            let addr = if op.global {
                let a = e.rd();
                e.line(format!("cvt.u64.u32 {a}, {byte};"));
                e.line(format!("add.s64 {a}, {a}, %rd3;"));
                a
            } else {
                e.line(format!("add.u32 {byte}, {byte}, {base};"));
                byte.clone()
            };
            let skip = e.label(&format!("atom{i}"));
            let guard = if op.every > 1 {
                let m = e.r();
                let q = e.p();
                e.line(format!("rem.u32 {m}, %r1, {};", op.every));
                e.line(format!("setp.ne.u32 {q}, {m}, 0;"));
                e.line(format!("@{q} bra {skip};"));
                true
            } else {
                false
            };
            let v32 = thread_value(e, op.mul, op.add);
            let space = if op.global { "global" } else { "shared" };
            let instr = if op.returns { "atom" } else { "red" };
            let obs = e.r();
            match op.class {
                AtomClass::Int32 => {
                    let b = if op.op == "inc" || op.op == "dec" {
                        let r = e.r();
                        e.line(format!("and.b32 {r}, {v32}, 15;"));
                        r
                    } else {
                        v32.clone()
                    };
                    if op.op == "cas" {
                        let cmp = e.r();
                        e.line(format!("and.b32 {cmp}, %r1, 3;"));
                        e.line(format!("atom.{space}.cas.b32 {obs}, [{addr}], {cmp}, {b};"));
                    } else if op.returns {
                        e.line(format!("atom.{space}.{}.{} {obs}, [{addr}], {b};", op.op, op.ty));
                    } else {
                        e.line(format!("red.{space}.{}.{} [{addr}], {b};", op.op, op.ty));
                    }
                }
                AtomClass::Float32 => {
                    let fv = e.f();
                    let small = e.r();
                    e.line(format!("and.b32 {small}, {v32}, 255;"));
                    e.line(format!("cvt.rn.f32.u32 {fv}, {small};"));
                    if op.returns {
                        let fo = e.f();
                        e.line(format!("{instr}.{space}.add.f32 {fo}, [{addr}], {fv};"));
                        e.line(format!("mov.b32 {obs}, {fo};"));
                    } else {
                        e.line(format!("{instr}.{space}.add.f32 [{addr}], {fv};"));
                    }
                }
                AtomClass::Half2 => {
                    // two signed values in -32..31 from bits 5:0 and 11:6 of the thread value;
                    // cvt's first source becomes the upper half
                    let (hi, lo) = (e.f(), e.f());
                    for (k, f) in [(0, &hi), (6, &lo)] {
                        let t = e.r();
                        e.line(format!("shr.u32 {t}, {v32}, {k};"));
                        e.line(format!("and.b32 {t}, {t}, 63;"));
                        e.line(format!("sub.s32 {t}, {t}, 32;"));
                        e.line(format!("cvt.rn.f32.s32 {f}, {t};"));
                    }
                    let packed = e.r();
                    e.line(format!("cvt.rn.{}.f32 {packed}, {hi}, {lo};", op.ty));
                    if op.returns {
                        e.line(format!("atom.{space}.add.noftz.{} {obs}, [{addr}], {packed};", op.ty));
                    } else {
                        e.line(format!("red.{space}.add.noftz.{} [{addr}], {packed};", op.ty));
                    }
                }
                AtomClass::Int64 => {
                    let v64 = e.rd();
                    e.line(format!("mul.wide.u32 {v64}, {v32}, 2654435761;"));
                    let o64 = e.rd();
                    if op.op == "cas" {
                        let cmp = e.rd();
                        e.line(format!("cvt.u64.u32 {cmp}, %r3;"));
                        e.line(format!("atom.{space}.cas.b64 {o64}, [{addr}], {cmp}, {v64};"));
                    } else if op.returns {
                        e.line(format!("atom.{space}.{}.{} {o64}, [{addr}], {v64};", op.op, op.ty));
                    } else {
                        e.line(format!("red.{space}.{}.{} [{addr}], {v64};", op.op, op.ty));
                    }
                    if op.returns {
                        let hi = e.r();
                        e.line(format!("cvt.u32.u64 {obs}, {o64};"));
                        e.line(format!("shr.u64 {o64}, {o64}, 32;"));
                        e.line(format!("cvt.u32.u64 {hi}, {o64};"));
                        e.line(format!("xor.b32 {obs}, {obs}, {hi};"));
                    }
                }
            }
            if guard {
                e.place(&skip);
            }
            if op.returns {
                // threads that skipped observe 0 (the slot keeps its initial zero)
                if !guard {
                    e.observe(&obs);
                } else {
                    let done = e.label(&format!("atom{i}_obs"));
                    let m = e.r();
                    let q = e.p();
                    e.line(format!("rem.u32 {m}, %r1, {};", op.every));
                    e.line(format!("setp.ne.u32 {q}, {m}, 0;"));
                    e.line(format!("@{q} bra {done};"));
                    e.observe(&obs);
                    e.place(&done);
                }
            }
        }
        e.line("bar.sync 0;");
        // every thread observes one shared word (tid % 20, or % 24 with the half2 words)
        e.reset_regs();
        let w = e.r();
        e.line(format!("mov.u32 {w}, {sa};"));
        let i = e.r();
        e.line(format!("rem.u32 {i}, %r1, {};", area / 4));
        e.line(format!("mad.lo.u32 {w}, {i}, 4, {w};"));
        let x = e.r();
        e.line(format!("ld.shared.u32 {x}, [{w}];"));
        e.observe(&x);
    }
}

// ------------------------------------------------------------------------------------------
#[derive(Clone, Debug, PartialEq)]
pub enum WarpKind {
    Vote(&'static str),
    MatchAny(bool),
    MatchAll(bool),
    Redux(&'static str, &'static str),
    Elect,
    /// mode, segment width, b operand
    Shfl(&'static str, u32, u32),
    Activemask,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WarpOp {
    pub kind: WarpKind,
    pub mask: u32,
    /// value a = (lane * mul + warp * 3) % modulus
    pub mul: u32,
    pub modulus: u32,
    /// the lanes outside `mask` (when non-empty) run this op with the complementary mask
    pub other: Option<Box<WarpOp>>,
}

/// Warp collectives (vote/match/redux/elect/shfl/activemask) under full, partial and divergent
/// membermasks: lanes in the mask execute it, the others branch around (or run a second
/// collective with the complementary mask on the other side of the branch).
#[derive(Clone, Debug, PartialEq)]
pub struct WarpOps {
    pub ops: Vec<WarpOp>,
}

impl WarpOps {
    fn generate(rng: &mut Rng, lim: &Limits) -> Option<WarpOps> {
        let mut ops = vec![];
        for _ in 0..rng.range(1, 5) {
            let mut op = Self::one(rng, lim, None);
            let rest = !op.mask;
            if rest != 0 && rng.chance(50) {
                op.other = Some(Box::new(Self::one(rng, lim, Some(rest))));
            }
            ops.push(op);
        }
        Some(WarpOps { ops })
    }

    fn one(rng: &mut Rng, lim: &Limits, mask: Option<u32>) -> WarpOp {
        let f = &lim.config.features;
        let k = rng.weighted(&[5, if f.match_sync { 2 } else { 0 }, if f.match_sync { 2 } else { 0 }, 4, 2, 4, 1]);
        let kind = match k {
            0 => WarpKind::Vote(rng.pick(&["all", "any", "uni", "ballot"])),
            1 => WarpKind::MatchAny(rng.chance(30)),
            2 => WarpKind::MatchAll(rng.chance(30)),
            3 => {
                let (op, tys): (&str, &[&str]) = rng.pick(&[
                    ("add", &["u32", "s32"][..]),
                    ("min", &["u32", "s32"]),
                    ("max", &["u32", "s32"]),
                    ("and", &["b32"]),
                    ("or", &["b32"]),
                    ("xor", &["b32"]),
                ]);
                WarpKind::Redux(op, rng.pick(tys))
            }
            4 => WarpKind::Elect,
            5 => {
                WarpKind::Shfl(rng.pick(&["up", "down", "bfly", "idx"]), rng.pick(&[2, 4, 8, 16, 32]), rng.range(0, 31))
            }
            _ => WarpKind::Activemask,
        };
        let mask = match (mask, &kind) {
            (Some(m), _) => m,
            // shfl: a union of aligned segments, so every source lane is a member
            (None, WarpKind::Shfl(_, w, _)) => {
                let segs = 32 / w;
                let pick = (rng.u32() & ((1u64 << segs) - 1) as u32).max(1);
                let seg_bits = ((1u64 << w) - 1) as u32;
                (0..segs).filter(|s| pick >> s & 1 == 1).fold(0u32, |m, s| m | seg_bits << (s * w))
            }
            (None, _) => match rng.range(0, 3) {
                0 => u32::MAX,
                1 => 0x0000_FFFF,
                2 => 0x5555_5555,
                _ => rng.u32().max(1),
            },
        };
        WarpOp { kind, mask, mul: rng.range(0, 7), modulus: rng.pick(&[1, 2, 3, 4, 32]), other: None }
    }

    fn emit(&self, e: &mut Emit) {
        for (i, op) in self.ops.iter().enumerate() {
            e.reset_regs();
            let res = e.r();
            e.line(format!("mov.u32 {res}, 0;"));
            let (side_b, join) = (e.label(&format!("w{i}_b")), e.label(&format!("w{i}_join")));
            skip_unless_bit(e, op.mask, "%r3", &side_b);
            Self::emit_one(e, op, &res);
            e.line(format!("bra.uni {join};"));
            e.place(&side_b);
            if let Some(other) = &op.other {
                // the other side: lanes of the complementary mask (never a lane of op.mask)
                Self::emit_one(e, other, &res);
            }
            e.place(&join);
            e.observe(&res);
        }
    }

    fn emit_one(e: &mut Emit, op: &WarpOp, res: &str) {
        let a = e.r();
        e.line(format!("mul.lo.u32 {a}, %r3, {};", op.mul));
        e.line(format!("mad.lo.u32 {a}, %r4, 3, {a};"));
        e.line(format!("rem.u32 {a}, {a}, {};", op.modulus));
        let m = format!("{:#010x}", op.mask);
        match &op.kind {
            WarpKind::Vote(mode) => {
                let p = e.p();
                e.line(format!("setp.ne.u32 {p}, {a}, 0;"));
                if *mode == "ballot" {
                    e.line(format!("vote.sync.ballot.b32 {res}, {p}, {m};"));
                } else {
                    let q = e.p();
                    e.line(format!("vote.sync.{mode}.pred {q}, {p}, {m};"));
                    e.line(format!("selp.u32 {res}, 1, 2, {q};"));
                }
            }
            WarpKind::MatchAny(wide) | WarpKind::MatchAll(wide) => {
                let any = matches!(op.kind, WarpKind::MatchAny(_));
                let src = if *wide {
                    let r = e.rd();
                    e.line(format!("mul.wide.u32 {r}, {a}, 2654435761;"));
                    r
                } else {
                    a.clone()
                };
                let ty = if *wide { "b64" } else { "b32" };
                if any {
                    e.line(format!("match.any.sync.{ty} {res}, {src}, {m};"));
                } else {
                    let p = e.p();
                    e.line(format!("match.all.sync.{ty} {res}|{p}, {src}, {m};"));
                    e.line(format!("@{p} add.u32 {res}, {res}, 1;"));
                }
            }
            WarpKind::Redux(rop, ty) => {
                e.line(format!("mad.lo.u32 {a}, {a}, 2654435761, %r3;"));
                e.line(format!("redux.sync.{rop}.{ty} {res}, {a}, {m};"));
            }
            WarpKind::Elect => {
                let p = e.p();
                let d = e.r();
                e.line(format!("elect.sync {d}|{p}, {m};"));
                e.line(format!("selp.u32 {res}, 100, 200, {p};"));
                e.line(format!("add.u32 {res}, {res}, {d};"));
            }
            WarpKind::Shfl(mode, w, b) => {
                let segmask = 32 - w;
                let clamp = if *mode == "up" { 0 } else { w - 1 };
                let c = (segmask << 8) | clamp;
                let b = b % w;
                let p = e.p();
                e.line(format!("mad.lo.u32 {a}, %r3, 17, {a};"));
                e.line(format!("shfl.sync.{mode}.b32 {res}|{p}, {a}, {b}, {c}, {m};"));
                e.line(format!("@!{p} add.u32 {res}, {res}, 1000;"));
            }
            WarpKind::Activemask => {
                e.line(format!("activemask.b32 {res};"));
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
/// Tensor tile loads (cp.async.bulk.tensor, tile mode) of a u32 tensor described by a tensor
/// map the launch file builds (project layout), boxes partly out of bounds, completing on one
/// mbarrier with arrive.expect_tx of the total box bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorLoads {
    pub dims: u32,
    pub size: [u32; 2],
    /// row pitch in elements (>= size[0], pitch*4 a multiple of 16)
    pub pitch: u32,
    pub boxd: [u32; 2],
    pub fill_ones: bool,
    pub loads: Vec<[i32; 2]>,
    /// Golden only (the RTL has no swizzle yet, issue 16/18; `run::without_golden_only` clears
    /// it for cosim): the map's `CU_TENSOR_MAP_SWIZZLE_*` code, 0 none .. 3 128B (PTX ISA §5.5.7).
    pub swizzle: u32,
    /// Golden only (not yet run under cosim): the map as a by-value `.param .align 64 .b8 [128]`
    /// (a `__grid_constant__ CUtensorMap`) that the launch file builds from
    /// cuTensorMapEncodeTiled's fields, read through `cvta.param`; otherwise 128 raw bytes in a
    /// u8 buffer.
    pub by_value: bool,
}

impl TensorLoads {
    fn box_bytes(&self) -> u32 {
        self.boxd[0] * self.boxd[1] * 4
    }
    fn box_bytes_padded(&self) -> u32 {
        self.box_bytes().div_ceil(128) * 128
    }

    fn generate(rng: &mut Rng, lim: &Limits) -> Option<TensorLoads> {
        let dims = rng.range(1, 2);
        let size = [rng.range(1, 24), if dims == 2 { rng.range(1, 10) } else { 1 }];
        let pitch = size[0].div_ceil(4) * 4 + rng.pick(&[0, 4]);
        let boxd = [rng.pick(&[4, 8, 16]), if dims == 2 { rng.range(1, 4) } else { 1 }];
        let mut t = TensorLoads {
            dims,
            size,
            pitch,
            boxd,
            fill_ones: rng.chance(50),
            loads: vec![],
            swizzle: 0,
            by_value: false,
        };
        for _ in 0..rng.range(1, 3) {
            let x = rng.range(0, size[0] + boxd[0]) as i32 - boxd[0] as i32;
            let y = if dims == 2 { rng.range(0, size[1] + boxd[1]) as i32 - boxd[1] as i32 } else { 0 };
            t.loads.push([x, y]);
        }
        // The golden-only choices come from a copy of the stream: the main stream, and so every
        // seed's program once they are cleared for cosim, stays what it was before they existed.
        let mut side = rng.clone();
        side.next_u64();
        // the box's inner bytes must fit the swizzle span (32 << (code - 1) bytes)
        let codes: Vec<u32> = (0..4).filter(|&c| c == 0 || boxd[0] * 4 <= 16 << c).collect();
        t.swizzle = side.pick(&codes);
        t.by_value = side.chance(50);
        if lim.shared_free < t.loads.len() as u32 * t.box_bytes_padded() + 8 {
            return None;
        }
        Some(t)
    }

    fn emit(&self, e: &mut Emit) {
        let elems = self.pitch * self.size[1];
        let data: Vec<u32> = (0..elems).map(|i| (i / self.pitch) * 1000 + i % self.pitch + 1).collect();
        let (tparam, taddr) =
            e.buffer("tensor", format!("{{ type: u32, data: [{}] }}", super::render::join(&data)), elems as u64 * 4);
        // the map's generic address: a by-value parameter's through cvta.param, else the u8
        // buffer's address parameter
        let load_map: Vec<String> = if self.by_value {
            let tmap = e.tensor_map_param("tmap", self.map_fields(tparam.trim_start_matches("p_")));
            vec![format!("mov.b64 {{map}}, {tmap};"), "cvta.param.u64 {map}, {map};".to_string()]
        } else {
            vec![format!("ld.param.u64 {{map}}, [{}];", self.raw_map(e, taddr))]
        };
        self.emit_loads(e, &load_map);
    }

    /// The map's cuTensorMapEncodeTiled fields for the launch file (`global`: the tensor buffer).
    fn map_fields(&self, global: &str) -> String {
        let d = self.dims as usize;
        let strides = if d == 2 { format!("[{}]", self.pitch * 4) } else { "[]".to_string() };
        // an all-ones fill is the driver's NaN fill, valid for a floating-point type of 4 bytes
        let (ty, fill) = if self.fill_ones { ("float32", "nan_request_zero_fma") } else { ("uint32", "none") };
        format!(
            "{{data_type: {ty}, rank: {d}, global: {global}, dims: [{}], strides: {strides}, box: [{}], \
             swizzle: {}, oob_fill: {fill}}}",
            super::render::join(&self.size[..d]),
            super::render::join(&self.boxd[..d]),
            ["none", "32B", "64B", "128B"][self.swizzle as usize % 4]
        )
    }

    /// The map as 128 raw bytes in the project layout (sim::units::tensormap), in a u8 buffer;
    /// returns the buffer's parameter.
    fn raw_map(&self, e: &mut Emit, taddr: u64) -> String {
        let mut map = vec![0u8; 128];
        let put32 = |m: &mut Vec<u8>, off: usize, v: u32| m[off..off + 4].copy_from_slice(&v.to_le_bytes());
        put32(&mut map, 0, 0x5041_4D54);
        put32(&mut map, 4, self.dims);
        put32(&mut map, 8, 4);
        put32(&mut map, 12, self.fill_ones as u32);
        map[16..24].copy_from_slice(&taddr.to_le_bytes());
        for d in 0..5 {
            put32(&mut map, 24 + 4 * d, if d < 2 { self.size[d] } else { 1 });
            put32(&mut map, 44 + 4 * d, if d < 2 { self.boxd[d] } else { 1 });
        }
        map[64..72].copy_from_slice(&(self.pitch as u64 * 4).to_le_bytes());
        put32(&mut map, 100, self.swizzle);
        e.buffer("tmap", format!("{{ type: u8, data: [{}] }}", super::render::join(&map)), 128).0
    }

    /// The loads into 128-byte-aligned tiles (so a swizzled box stays in its own lines), the
    /// wait, and one observed word per thread.
    fn emit_loads(&self, e: &mut Emit, load_map: &[String]) {
        let padded = self.box_bytes_padded();
        let n = self.loads.len() as u32;
        let sdst = e.shared("tiles", n * padded, 128);
        let sbar = e.shared("mbar", 8, 8);
        let (dst, bar) = (e.r(), e.r());
        e.line(format!("mov.u32 {dst}, {sdst};"));
        e.line(format!("mov.u32 {bar}, {sbar};"));
        init_mbarriers(e, &bar, &[(0, 1)]);
        let map_addr = e.rd();
        for l in load_map {
            e.line(l.replace("{map}", &map_addr));
        }
        let skip = e.label("tensor_issued");
        let p = e.p();
        e.line(format!("setp.ne.u32 {p}, %r1, 0;"));
        e.line(format!("@{p} bra {skip};"));
        e.line(format!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{bar}], {};", n * self.box_bytes()));
        for (i, [x, y]) in self.loads.iter().enumerate() {
            let (cx, cy, d) = (e.r(), e.r(), e.r());
            e.line(format!("mov.b32 {cx}, {x};"));
            e.line(format!("add.u32 {d}, {dst}, {};", i as u32 * padded));
            if self.dims == 1 {
                e.line(format!("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{d}], [{map_addr}, {{{cx}}}], [{bar}];"));
            } else {
                e.line(format!("mov.b32 {cy}, {y};"));
                e.line(format!("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{d}], [{map_addr}, {{{cx}, {cy}}}], [{bar}];"));
            }
        }
        e.place(&skip);
        let zero = e.r();
        e.line(format!("mov.u32 {zero}, 0;"));
        wait_parity(e, WaitKind::Try, &bar, &zero, "tensor_wait");
        // thread t reads word t of the box area (box i at i*padded)
        let words_per_box = self.box_bytes() / 4;
        let (bi, wi, a) = (e.r(), e.r(), e.r());
        e.line(format!("rem.u32 {wi}, %r1, {};", words_per_box * n));
        e.line(format!("div.u32 {bi}, {wi}, {words_per_box};"));
        e.line(format!("rem.u32 {wi}, {wi}, {words_per_box};"));
        e.line(format!("mul.lo.u32 {a}, {bi}, {padded};"));
        e.line(format!("mad.lo.u32 {a}, {wi}, 4, {a};"));
        e.line(format!("add.u32 {a}, {a}, {dst};"));
        let x = e.r();
        e.line(format!("ld.shared.u32 {x}, [{a}];"));
        e.observe(&x);
    }
}
