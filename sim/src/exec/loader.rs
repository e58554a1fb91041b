//! The loader: lays out the module's variables and the launch's buffers in memory, builds the
//! kernel's `.param` block, and computes each function's parameter-frame layout.
//!
//! Layout rules (the executor's, PTX leaves them to the implementation):
//! * global memory: the launch buffers in file order, each 256-byte aligned from GLOBAL_BASE,
//!   then the module's `.global` and `.const` variables (with their initializers);
//! * shared memory of a CTA: static `.shared` variables in declaration order (each at its
//!   alignment), then the dynamic (`extern .shared`) area at a 16-byte (or larger declared)
//!   alignment; static + dynamic must fit `config.shared_bytes`;
//! * local memory of a thread: `.local` variables and the `.param` variables that functions
//!   declare for calls, then a call stack of parameter frames (params, then returns).

use super::error::{launch_err, ExecError};
use super::launch::{Launch, ParamValue};
use crate::config::Config;
use crate::memory::GLOBAL_BASE;
use crate::ptx::ir::{FuncId, Function, Module, Opcode, Operand, ParamInfo, StateSpace};

/// Bytes of call stack per thread when the module makes calls.
pub const STACK_BYTES: u32 = 4096;

#[derive(Clone, Debug)]
pub struct FrameLayout {
    /// Offset of each parameter, then of each return value (indexed by ParamId).
    pub offsets: Vec<u32>,
    pub size: u32,
}

#[derive(Clone, Debug)]
pub struct Layout {
    pub entry: FuncId,
    /// Per VarId: global address (global/const), shared offset (shared), or thread-local offset
    /// (local, and function-declared param variables).
    pub var_addr: Vec<u64>,
    pub shared_static: u32,
    pub dyn_shared_base: u32,
    pub dyn_shared: u32,
    pub local_static: u32,
    pub stack_bytes: u32,
    pub frames: Vec<FrameLayout>,
    pub kernel_params: Vec<u8>,
    /// Generic (global) address of the read-only copy of `kernel_params` (`cvta.param`).
    pub param_base: u64,
    pub buffer_addr: Vec<u64>,
    pub global_bytes: usize,
    /// Global image: initial bytes of global memory (buffers + initialized variables).
    pub global_init: Vec<(u64, Vec<u8>)>,
    /// Per function: the first instruction's global index (for the lowest-PC choice across calls).
    pub func_base: Vec<u32>,
    /// Per function, per register: the register's width mask.
    pub reg_mask: Vec<Vec<u64>>,
    pub max_regs: usize,
}

impl Layout {
    pub fn local_bytes(&self) -> u32 {
        self.local_static + self.stack_bytes
    }
}

fn align_up(x: u64, a: u64) -> u64 {
    let a = a.max(1);
    x.div_ceil(a) * a
}

/// Offsets of a parameter list laid out in order at each parameter's alignment.
fn frame_layout(f: &Function) -> FrameLayout {
    let mut off = 0u64;
    let mut offsets = Vec::new();
    for p in f.params.iter().chain(f.rets.iter()) {
        off = align_up(off, p.align.max(1) as u64);
        offsets.push(off as u32);
        off += p.size as u64;
    }
    FrameLayout { offsets, size: align_up(off, 16) as u32 }
}

/// The 128 bytes of a launch-file tensor map over its global buffer.
fn encode_map(spec: &super::tmap::TensorMapSpec, launch: &Launch, buffer_addr: &[u64]) -> Result<Vec<u8>, ExecError> {
    let bi = launch.buffers.iter().position(|x| x.name == spec.global).expect("checked when parsed");
    spec.encode(buffer_addr[bi], launch.buffers[bi].bytes.len())
}

/// Does any instruction take a kernel parameter's address (`mov` of its symbol, `cvta.param`)?
fn takes_param_addresses(module: &Module) -> bool {
    fn has(op: &Operand) -> bool {
        match op {
            Operand::ParamAddr { .. } => true,
            Operand::Vector(v) => v.iter().any(has),
            _ => false,
        }
    }
    module
        .funcs
        .iter()
        .flat_map(|f| &f.body)
        .any(|i| matches!(i.op, Opcode::Cvta { space: StateSpace::Param, .. }) || i.ops.iter().any(has))
}

pub fn param_size(p: &ParamInfo) -> u32 {
    p.size.max(p.ty.bytes())
}

pub fn load(module: &Module, launch: &Launch, cfg: &Config) -> Result<Layout, ExecError> {
    // ---- entry ----
    let entries: Vec<_> = module.entries().collect();
    let entry = match &launch.entry {
        Some(name) => entries.iter().find(|(_, f)| &f.name == name).map(|(id, _)| *id).ok_or_else(|| {
            launch_err(
                "entry",
                format!(
                    "no .entry `{name}` in {}; entries: {}",
                    module.file,
                    entries.iter().map(|(_, f)| f.name.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )
        })?,
        None => match entries.as_slice() {
            [(id, _)] => *id,
            [] => return Err(launch_err("entry", format!("{} has no .entry", module.file))),
            many => {
                return Err(launch_err(
                    "entry",
                    format!(
                        "{} has {} entries, name one: {}",
                        module.file,
                        many.len(),
                        many.iter().map(|(_, f)| f.name.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                ))
            }
        },
    };
    let kernel = module.func(entry);

    // ---- block / grid / cluster shape ----
    let threads = launch.threads_per_cta();
    let max_threads = cfg.max_warps_per_cta * cfg.warp_size;
    if threads == 0 || threads > max_threads {
        return Err(launch_err(
            "block",
            format!(
                "{threads} threads per CTA; this config allows 1..={max_threads} (max_warps_per_cta = {})",
                cfg.max_warps_per_cta
            ),
        ));
    }
    let cluster_ctas: u32 = launch.cluster.iter().product();
    if cluster_ctas > cfg.cluster_size || cluster_ctas > cfg.cta_slots {
        return Err(launch_err(
            "cluster",
            format!(
                "{cluster_ctas} CTAs per cluster; this config allows at most {} (cluster_size) and {} (cta_slots)",
                cfg.cluster_size, cfg.cta_slots
            ),
        ));
    }
    for d in 0..3 {
        if !launch.grid[d].is_multiple_of(launch.cluster[d]) {
            return Err(launch_err(
                format!("cluster[{d}]"),
                format!("grid[{d}] = {} is not a multiple of cluster[{d}] = {}", launch.grid[d], launch.cluster[d]),
            ));
        }
    }

    // ---- global memory: buffers, then module globals/consts ----
    let mut addr = GLOBAL_BASE;
    let mut buffer_addr = Vec::new();
    let mut global_init = Vec::new();
    for b in &launch.buffers {
        addr = align_up(addr, 256);
        buffer_addr.push(addr);
        addr += b.bytes.len().max(1) as u64;
    }
    for (b, &at) in launch.buffers.iter().zip(&buffer_addr) {
        let bytes = match &b.tensor_map {
            Some(spec) => encode_map(spec, launch, &buffer_addr)?,
            None => b.bytes.clone(),
        };
        global_init.push((at, bytes));
    }
    let mut var_addr = vec![0u64; module.vars.len()];
    for (i, v) in module.vars.iter().enumerate() {
        if matches!(v.space, StateSpace::Global | StateSpace::Const) {
            addr = align_up(addr, v.align.max(v.ty.bytes()).max(1) as u64);
            var_addr[i] = addr;
            if !v.init.is_empty() {
                global_init.push((addr, v.init.clone()));
            }
            addr += v.size.max(1) as u64;
        }
    }
    // the kernel's parameter block follows, see below

    // ---- shared memory ----
    let mut sh = 0u64;
    let mut dyn_align = 16u64;
    for (i, v) in module.vars.iter().enumerate() {
        if matches!(v.space, StateSpace::Shared | StateSpace::SharedCluster) {
            if v.extern_dynamic {
                dyn_align = dyn_align.max(v.align as u64);
                continue;
            }
            sh = align_up(sh, v.align.max(v.ty.bytes()).max(1) as u64);
            var_addr[i] = sh;
            sh += v.size as u64;
        }
    }
    let shared_static = sh as u32;
    let dyn_base = align_up(sh, dyn_align);
    for (i, v) in module.vars.iter().enumerate() {
        if v.extern_dynamic && matches!(v.space, StateSpace::Shared | StateSpace::SharedCluster) {
            var_addr[i] = dyn_base;
        }
    }
    let total_shared = dyn_base + launch.dynamic_shared as u64;
    if total_shared > cfg.shared_bytes as u64 {
        return Err(launch_err(
            "shared_bytes",
            format!(
                "{} static + {} dynamic shared bytes exceed the config's shared_bytes = {}",
                shared_static, launch.dynamic_shared, cfg.shared_bytes
            ),
        ));
    }

    // ---- thread-local memory ----
    let mut lo = 0u64;
    for (i, v) in module.vars.iter().enumerate() {
        if matches!(v.space, StateSpace::Local | StateSpace::Param) {
            lo = align_up(lo, v.align.max(v.ty.bytes()).max(1) as u64);
            var_addr[i] = lo;
            lo += v.size.max(v.ty.bytes()) as u64;
        }
    }
    let makes_calls = module.funcs.iter().any(|f| f.body.iter().any(|i| matches!(i.op, Opcode::Call { .. })));
    let local_static = align_up(lo, 16) as u32;
    let stack_bytes = if makes_calls { STACK_BYTES } else { 0 };

    // ---- parameter frames and the kernel's param block ----
    let frames: Vec<FrameLayout> = module.funcs.iter().map(frame_layout).collect();
    let kf = &frames[entry.0 as usize];
    let mut kernel_params = vec![0u8; kf.size as usize];
    if launch.params.len() != kernel.params.len() {
        return Err(launch_err(
            "params",
            format!(
                "kernel `{}` takes {} parameters, the launch gives {}",
                kernel.name,
                kernel.params.len(),
                launch.params.len()
            ),
        ));
    }
    for (i, (p, v)) in kernel.params.iter().zip(&launch.params).enumerate() {
        let field = format!("params[{i}]");
        let size = param_size(p) as usize;
        let value: Vec<u8> = match v {
            ParamValue::Buffer(name) => {
                let bi = launch.buffers.iter().position(|b| &b.name == name).expect("checked when parsed");
                buffer_addr[bi].to_le_bytes().to_vec()
            }
            ParamValue::Scalar { ty, bits } => bits.to_le_bytes()[..ty.bytes()].to_vec(),
            ParamValue::TensorMap(spec) => encode_map(spec, launch, &buffer_addr)?,
            ParamValue::Bytes { bytes, buffers, tail_padding } => {
                let mut b = bytes.clone();
                for (at, name) in buffers {
                    let bi = launch.buffers.iter().position(|x| &x.name == name).expect("checked when parsed");
                    b[*at..*at + 8].copy_from_slice(&buffer_addr[bi].to_le_bytes());
                }
                if *tail_padding && b.len() < size {
                    b.resize(size, 0);
                }
                b
            }
        };
        if value.len() != size {
            let what = if p.size > p.ty.bytes() {
                format!("{} x .{:?}", p.size / p.ty.bytes(), p.ty)
            } else {
                format!("{:?}", p.ty)
            };
            return Err(launch_err(
                &field,
                format!("parameter `{}` is {size} bytes ({what}), the value is {} bytes", p.name, value.len()),
            ));
        }
        let off = kf.offsets[i] as usize;
        kernel_params[off..off + size].copy_from_slice(&value);
    }
    // Kernel parameters are addressable (PTX ISA §5.1.6.1): `cvta.param` maps the block into the
    // generic address space, where this model keeps a read-only copy in global memory after
    // the module's variables (the `.param` space itself reads `kernel_params`). Only a module
    // that takes a parameter's address gets the copy, so other runs keep their memory image.
    let mut param_base = 0;
    if takes_param_addresses(module) {
        addr = align_up(addr, 256);
        param_base = addr;
        global_init.push((param_base, kernel_params.clone()));
        addr += kernel_params.len().max(1) as u64;
    }
    let global_bytes = (align_up(addr, 256) - GLOBAL_BASE) as usize;

    // ---- per-function tables ----
    let mut func_base = Vec::new();
    let mut n = 0u32;
    for f in &module.funcs {
        func_base.push(n);
        n += f.body.len() as u32 + 1;
    }
    let reg_mask: Vec<Vec<u64>> = module
        .funcs
        .iter()
        .map(|f| f.regs.iter().map(|r| super::alu::width_mask(r.ty.bits().min(64))).collect())
        .collect();
    let max_regs = module.funcs.iter().map(|f| f.regs.len()).max().unwrap_or(0);

    Ok(Layout {
        entry,
        var_addr,
        shared_static,
        dyn_shared_base: dyn_base as u32,
        dyn_shared: launch.dynamic_shared,
        local_static,
        stack_bytes,
        frames,
        kernel_params,
        param_base,
        buffer_addr,
        global_bytes,
        global_init,
        func_base,
        reg_mask,
        max_regs,
    })
}
