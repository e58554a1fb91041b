//! Which reduction op x type pairs the bulk and tensor reductions take: one table, read by the
//! golden copy engine and the RTL copy engine's request checks.

use crate::encoding::{AtomOp, DataType};

/// The op x type table of cp.reduce.async.bulk (PTX ISA §9.7.9.25.4.2) (`to_global` selects the .global row).
pub fn bulk_reduce_legal(op: AtomOp, dtype: DataType, to_global: bool, noftz: bool) -> bool {
    use DataType::*;
    if matches!(dtype, F16 | Bf16) && op == AtomOp::Add && !noftz {
        return false;
    }
    match (op, to_global) {
        (AtomOp::Add, false) => matches!(dtype, U32 | S32 | U64),
        (AtomOp::Add, true) => matches!(dtype, U32 | S32 | U64 | F32 | F64 | F16 | Bf16),
        (AtomOp::Min | AtomOp::Max, false) => matches!(dtype, U32 | S32),
        (AtomOp::Min | AtomOp::Max, true) => matches!(dtype, U32 | S32 | U64 | S64 | F16 | Bf16),
        (AtomOp::Inc | AtomOp::Dec, _) => dtype == U32,
        (AtomOp::And | AtomOp::Or | AtomOp::Xor, false) => dtype == B32,
        (AtomOp::And | AtomOp::Or | AtomOp::Xor, true) => matches!(dtype, B32 | B64),
        _ => false,
    }
}

/// The op x type table of cp.reduce.async.bulk.tensor (PTX ISA §9.7.9.25.5.3).
pub fn tensor_reduce_legal(op: AtomOp, dtype: DataType) -> bool {
    use DataType::*;
    match op {
        AtomOp::Add => matches!(dtype, U32 | S32 | U64 | F32 | F16 | Bf16),
        AtomOp::Min | AtomOp::Max => matches!(dtype, U32 | S32 | U64 | S64 | F16 | Bf16),
        AtomOp::Inc | AtomOp::Dec => dtype == U32,
        AtomOp::And | AtomOp::Or | AtomOp::Xor => matches!(dtype, B32 | B64),
        _ => false,
    }
}
