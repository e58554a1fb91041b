//! The encoding table: every number that the golden model, the RTL and the manifest must agree on,
//! defined once.
//!
//! * op codes of the sync-unit request port and the unit each op belongs to;
//! * the operand field codes (atomic op, data type, state space, redux op, shuffle mode, vote mode);
//! * the request flag bits;
//! * the 64-bit mbarrier object layout and the 64-bit mbarrier state-token layout;
//! * the error codes a unit reports for illegal or undefined requests.
//!
//! `hdl` builds its decoders from these constants (never renumbering), and `smsync gen` prints
//! [`manifest_table`] into the manifest next to the Verilog.

use serde::Serialize;

/// Declares a field enum with its hardware code, its PTX spelling and its bit width.
macro_rules! code_enum {
    ($(#[$meta:meta])* $name:ident, bits = $bits:expr, { $($(#[$vmeta:meta])* $variant:ident = $code:expr => $text:expr),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $name { $($(#[$vmeta])* $variant = $code),* }

        impl $name {
            /// Width of the field in the request word.
            pub const BITS: u32 = $bits;
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            pub const fn code(self) -> u8 { self as u8 }
            pub fn from_code(code: u8) -> Option<Self> {
                match code { $($code => Some($name::$variant),)* _ => None }
            }
            /// The PTX spelling (or a short description for codes with no single spelling).
            pub const fn name(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }
            pub fn from_name(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)* _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.name()) }
        }
    };
}

/// The five sync units plus the LSU path into shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Unit {
    BarrierFile,
    MbarrierAlu,
    AtomicAlu,
    WarpNetwork,
    CopyEngine,
    Lsu,
}

impl Unit {
    pub const ALL: &'static [Unit] =
        &[Unit::BarrierFile, Unit::MbarrierAlu, Unit::AtomicAlu, Unit::WarpNetwork, Unit::CopyEngine, Unit::Lsu];
    pub fn name(self) -> &'static str {
        match self {
            Unit::BarrierFile => "barrier_file",
            Unit::MbarrierAlu => "mbarrier_alu",
            Unit::AtomicAlu => "atomic_alu",
            Unit::WarpNetwork => "warp_network",
            Unit::CopyEngine => "copy_engine",
            Unit::Lsu => "lsu",
        }
    }
}

code_enum! {
    /// Request op codes. The top three bits select the unit (see [`Op::unit`]).
    Op, bits = 6, {
        // 0x00..0x07: named-barrier file
        BarSync = 0x00 => "bar.sync",
        BarArrive = 0x01 => "bar.arrive",
        BarRedPopc = 0x02 => "bar.red.popc",
        BarRedAnd = 0x03 => "bar.red.and",
        BarRedOr = 0x04 => "bar.red.or",
        /// A warp has exited: it no longer counts toward whole-CTA barriers.
        WarpExit = 0x05 => "exit",
        BarClusterArrive = 0x06 => "barrier.cluster.arrive",
        BarClusterWait = 0x07 => "barrier.cluster.wait",
        // 0x08..0x17: mbarrier unit
        MbInit = 0x08 => "mbarrier.init",
        MbInval = 0x09 => "mbarrier.inval",
        MbArrive = 0x0a => "mbarrier.arrive",
        MbArriveDrop = 0x0b => "mbarrier.arrive_drop",
        MbExpectTx = 0x0c => "mbarrier.expect_tx",
        MbCompleteTx = 0x0d => "mbarrier.complete_tx",
        MbTestWait = 0x0e => "mbarrier.test_wait",
        MbTryWait = 0x0f => "mbarrier.try_wait",
        MbPendingCount = 0x10 => "mbarrier.pending_count",
        MbCpAsyncArrive = 0x11 => "cp.async.mbarrier.arrive",
        // 0x18..0x1f: atomic ALU
        Atom = 0x18 => "atom",
        Red = 0x19 => "red",
        /// red.async.relaxed.cluster: a reduction on another CTA's shared memory, then
        /// complete_tx(element bytes) on an mbarrier in that CTA.
        RedAsync = 0x1a => "red.async",
        // 0x20..0x2f: warp network
        VoteSync = 0x20 => "vote.sync",
        MatchAny = 0x21 => "match.any.sync",
        MatchAll = 0x22 => "match.all.sync",
        ReduxSync = 0x23 => "redux.sync",
        ElectSync = 0x24 => "elect.sync",
        Activemask = 0x25 => "activemask",
        WarpSync = 0x26 => "bar.warp.sync",
        ShflSync = 0x27 => "shfl.sync",
        // 0x30..0x3b: copy engine
        CpAsync = 0x30 => "cp.async",
        CpAsyncCommit = 0x31 => "cp.async.commit_group",
        CpAsyncWait = 0x32 => "cp.async.wait_group",
        CpBulk = 0x33 => "cp.async.bulk",
        CpReduceBulk = 0x34 => "cp.reduce.async.bulk",
        CpBulkTensor = 0x35 => "cp.async.bulk.tensor",
        BulkCommit = 0x36 => "cp.async.bulk.commit_group",
        BulkWait = 0x37 => "cp.async.bulk.wait_group",
        /// clusterlaunchcontrol.try_cancel: writes the 16-byte response, then complete_tx(16).
        ClcTryCancel = 0x38 => "clusterlaunchcontrol.try_cancel",
        // 0x3c..0x3f: LSU path to shared memory
        LdShared = 0x3c => "ld.shared",
        StShared = 0x3d => "st.shared",
    }
}

impl Op {
    pub const fn unit(self) -> Unit {
        match self.code() {
            0x00..=0x07 => Unit::BarrierFile,
            0x08..=0x17 => Unit::MbarrierAlu,
            0x18..=0x1f => Unit::AtomicAlu,
            0x20..=0x2f => Unit::WarpNetwork,
            0x30..=0x3b => Unit::CopyEngine,
            _ => Unit::Lsu,
        }
    }
}

code_enum! {
    /// Atomic / reduction operation (atom, red, cp.reduce.async.bulk).
    AtomOp, bits = 4, {
        And = 0 => "and", Or = 1 => "or", Xor = 2 => "xor", Cas = 3 => "cas", Exch = 4 => "exch",
        Add = 5 => "add", Inc = 6 => "inc", Dec = 7 => "dec", Min = 8 => "min", Max = 9 => "max",
    }
}

code_enum! {
    /// Element data type of atomics, reductions and bulk reductions.
    DataType, bits = 4, {
        B16 = 0 => "b16", B32 = 1 => "b32", B64 = 2 => "b64", B128 = 3 => "b128",
        U32 = 4 => "u32", U64 = 5 => "u64", S32 = 6 => "s32", S64 = 7 => "s64",
        F32 = 8 => "f32", F64 = 9 => "f64", F16 = 10 => "f16", Bf16 = 11 => "bf16",
        F16x2 = 12 => "f16x2", Bf16x2 = 13 => "bf16x2",
    }
}

impl DataType {
    /// Size of one element in bytes.
    pub const fn bytes(self) -> u32 {
        match self {
            DataType::B16 | DataType::F16 | DataType::Bf16 => 2,
            DataType::B32 | DataType::U32 | DataType::S32 | DataType::F32 | DataType::F16x2 | DataType::Bf16x2 => 4,
            DataType::B64 | DataType::U64 | DataType::S64 | DataType::F64 => 8,
            DataType::B128 => 16,
        }
    }
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            DataType::F32 | DataType::F64 | DataType::F16 | DataType::Bf16 | DataType::F16x2 | DataType::Bf16x2
        )
    }
    pub const fn is_signed(self) -> bool {
        matches!(self, DataType::S32 | DataType::S64)
    }
}

code_enum! {
    /// State space of an address operand.
    Space, bits = 2, {
        Global = 0 => "global", SharedCta = 1 => "shared::cta", SharedCluster = 2 => "shared::cluster",
    }
}

code_enum! {
    VoteMode, bits = 2, { All = 0 => "all", Any = 1 => "any", Uni = 2 => "uni", Ballot = 3 => "ballot" }
}

code_enum! {
    /// redux.sync operation; the type (u32/s32/b32/f32) travels in the DataType field.
    ReduxOp, bits = 3, { Add = 0 => "add", Min = 1 => "min", Max = 2 => "max", And = 3 => "and", Or = 4 => "or", Xor = 5 => "xor" }
}

code_enum! {
    ShflMode, bits = 2, { Up = 0 => "up", Down = 1 => "down", Bfly = 2 => "bfly", Idx = 3 => "idx" }
}

code_enum! {
    /// Direction of a bulk copy.
    BulkDir, bits = 2, {
        GlobalToShared = 0 => "shared.global",
        SharedToGlobal = 1 => "global.shared::cta",
        SharedToCluster = 2 => "shared::cluster.shared::cta",
    }
}

/// Request flag bits (the `flags` field, 8 bits). Each is meaningful for the ops named.
/// The NaN every NVIDIA arithmetic unit produces for a NaN result, per format; the golden
/// float arithmetic and the RTL's adders emit these bit patterns.
pub mod canonical_nan {
    pub const F32: u32 = 0x7FFF_FFFF;
    pub const F64: u64 = 0x7FFF_FFFF_FFFF_FFFF;
    /// f16 and bf16.
    pub const HALF: u16 = 0x7FFF;
}

pub mod flags {
    /// `!c` on bar.red; `!a` on vote: negate the lane predicate before use.
    pub const NEGATE: u8 = 1 << 0;
    /// `.noComplete` on mbarrier.arrive / arrive_drop.
    pub const NO_COMPLETE: u8 = 1 << 1;
    /// `.expect_tx` on mbarrier.arrive / arrive_drop: operand b is the tx count.
    pub const EXPECT_TX: u8 = 1 << 2;
    /// `.parity` on test_wait / try_wait: operand b is the parity, not a token.
    pub const PARITY: u8 = 1 << 3;
    /// `.noinc` on cp.async.mbarrier.arrive.
    pub const NO_INC: u8 = 1 << 4;
    /// `.noftz` on f16/bf16 adds; `.abs` on redux f32; `.read` on bulk wait_group.
    pub const MOD_A: u8 = 1 << 5;
    /// `.NaN` on redux f32; `ignore-src` given on cp.async; `.multicast::cluster` on bulk copies.
    pub const MOD_B: u8 = 1 << 6;
    /// The barrier thread count (operand b) was given (bar.sync a, b).
    pub const HAS_COUNT: u8 = 1 << 7;
}

/// The 64-bit mbarrier object as stored in shared memory.
///
/// PTX leaves the layout opaque; this is the project's packing. The tx-count is a 21-bit two's
/// complement field because PTX allows it to go negative down to -(2^20-1) (complete_tx before
/// expect_tx); the NVVM page's unsigned 20-bit tx field cannot represent that.
pub mod mbarrier_word {
    pub const COUNT_BITS: u32 = 20;
    /// Largest arrival count (expected or pending) and largest |tx-count|: 2^20 - 1.
    pub const COUNT_MAX: u32 = (1 << COUNT_BITS) - 1;
    pub const TX_BITS: u32 = 21;
    pub const EXPECTED_LSB: u32 = 0;
    pub const PENDING_LSB: u32 = 20;
    pub const TX_LSB: u32 = 40;
    pub const PARITY_BIT: u32 = 61;
    /// Set by init, cleared by inval: the hardware's record that the object is live.
    pub const VALID_BIT: u32 = 62;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub struct Fields {
        pub valid: bool,
        pub parity: bool,
        pub expected: u32,
        pub pending: u32,
        pub tx: i32,
    }

    pub fn pack(f: Fields) -> u64 {
        let tx = (f.tx as u64) & ((1 << TX_BITS) - 1);
        (f.expected as u64 & COUNT_MAX as u64) << EXPECTED_LSB
            | (f.pending as u64 & COUNT_MAX as u64) << PENDING_LSB
            | tx << TX_LSB
            | (f.parity as u64) << PARITY_BIT
            | (f.valid as u64) << VALID_BIT
    }

    pub fn unpack(w: u64) -> Fields {
        let raw_tx = ((w >> TX_LSB) & ((1 << TX_BITS) - 1)) as u32;
        // sign-extend the 21-bit field
        let tx = ((raw_tx << (32 - TX_BITS)) as i32) >> (32 - TX_BITS);
        Fields {
            valid: (w >> VALID_BIT) & 1 == 1,
            parity: (w >> PARITY_BIT) & 1 == 1,
            expected: ((w >> EXPECTED_LSB) & COUNT_MAX as u64) as u32,
            pending: ((w >> PENDING_LSB) & COUNT_MAX as u64) as u32,
            tx,
        }
    }
}

/// The 64-bit `state` token returned by mbarrier.arrive and consumed by test_wait / try_wait /
/// pending_count. Opaque to programs; golden model and RTL produce it bit-exactly.
pub mod state_token {
    /// bits [19:0]: pending count before the arrive (read by pending_count).
    pub const PENDING_LSB: u32 = 0;
    /// bit 20: the token came from a `.noComplete` arrive (pending_count is defined only then).
    pub const NO_COMPLETE_BIT: u32 = 20;
    /// bit 21: phase parity before the arrive.
    pub const PARITY_BIT: u32 = 21;
    /// bit 63: marks a token produced by an arrive (a zero register is not a token).
    pub const VALID_BIT: u32 = 63;

    pub fn pack(pending_before: u32, no_complete: bool, parity: bool) -> u64 {
        (pending_before as u64 & super::mbarrier_word::COUNT_MAX as u64) << PENDING_LSB
            | (no_complete as u64) << NO_COMPLETE_BIT
            | (parity as u64) << PARITY_BIT
            | 1 << VALID_BIT
    }
    pub fn pending(t: u64) -> u32 {
        ((t >> PENDING_LSB) & super::mbarrier_word::COUNT_MAX as u64) as u32
    }
    pub fn no_complete(t: u64) -> bool {
        (t >> NO_COMPLETE_BIT) & 1 == 1
    }
    pub fn parity(t: u64) -> bool {
        (t >> PARITY_BIT) & 1 == 1
    }
    pub fn valid(t: u64) -> bool {
        (t >> VALID_BIT) & 1 == 1
    }
}

code_enum! {
    /// Errors a unit reports. Each names the PTX rule it enforces; the unit pages (`docs/units/`)
    /// and the manifest list them. The golden model and the RTL must report the same code.
    ErrorCode, bits = 6, {
        None = 0 => "none",
        BarIdRange = 1 => "barrier id must be 0..15 (or below named_barriers)",
        BarCountNotWarpMultiple = 2 => "barrier thread count must be a multiple of 32",
        BarArriveNeedsCount = 3 => "bar.arrive requires a non-zero thread count",
        BarCountMismatch = 4 => "warps used different thread counts on one barrier",
        BarRedMixed = 5 => "bar.red mixed with bar.sync/bar.arrive on one active barrier (unpredictable)",
        BarCountTooLarge = 6 => "barrier thread count exceeds the CTA's threads",
        BarRedOpMismatch = 7 => "warps used different reduction ops on one barrier",
        MbInitCount = 8 => "mbarrier.init count must be 1..2^20-1",
        MbInitLive = 9 => "mbarrier.init on a valid (not invalidated) mbarrier",
        MbNotInitialized = 10 => "mbarrier op on an uninitialized or invalidated object",
        MbPendingUnderflow = 11 => "arrive count exceeds the pending count",
        MbTxRange = 12 => "tx-count outside -(2^20-1)..2^20-1",
        MbExpectedUnderflow = 13 => "arrive_drop would make the expected count < 1",
        MbNoCompleteCompleted = 14 => ".noComplete arrive would complete the phase",
        MbPendingOverflow = 15 => "cp.async.mbarrier.arrive increment makes pending > 2^20-1",
        MbParityRange = 16 => "phaseParity must be 0 or 1",
        MbStaleToken = 17 => "state token is not from the current or the immediately preceding phase",
        MbPendingCountToken = 18 => "pending_count on a token not from a .noComplete arrive",
        MbArriveCount = 19 => "arrive count must be 1..2^20-1",
        MbAlign = 20 => "mbarrier address must be 8-byte aligned in shared::cta",
        MbWaiterOverflow = 21 => "mbarrier waiter table full",
        NotInMemberMask = 24 => "executing lane is not in membermask",
        MemberMaskMismatch = 25 => "lanes of one warp used different membermasks",
        BarClusterArriveTwice = 26 => "barrier.cluster.arrive twice in one round",
        BarClusterWaitNoArrive = 27 => "barrier.cluster.wait without a preceding barrier.cluster.arrive",
        AtomAlign = 28 => "atomic address not naturally aligned",
        AtomBadType = 29 => "atomic op/type combination not allowed",
        SharedOutOfRange = 30 => "shared memory address out of range",
        GlobalOutOfRange = 31 => "global memory address out of range",
        MbarrierPlainAccess = 32 => "plain ld/st/atom on a live mbarrier object",
        SharedAlign = 33 => "ld/st.shared address not aligned to the access size",
        CpAsyncSrcSize = 36 => "cp.async src-size larger than cp-size",
        CpAsyncAlign = 37 => "cp.async address not aligned to cp-size",
        BulkSizeAlign = 38 => "bulk copy size not a multiple of 16 or address not 16-byte aligned",
        TensorNegativeStore = 39 => "tensor store with negative start coordinates",
        TensorMap = 40 => "malformed tensor map",
        QueueOverflow = 41 => "copy engine queue overflow",
        RedAsyncTarget = 42 => "red.async target in the executing CTA, or its a and mbar in different CTAs",
        TensorIm2col = 43 => "im2col load with the filter base outside the bounding box or an im2col offset out of range",
        NotBuilt = 48 => "op family not built in this config",
        /// Not a PTX error: flow control of the `sync_unit` top. The request was not executed
        /// and the sender offers it again after the next answer to its warp (a warp-network
        /// partial arrival at a new rendezvous while its warp's `rendezvous_per_warp` records
        /// are all pending). The golden model never answers it; the drivers of the top consume it.
        Retry = 63 => "not taken for now: offer the request again after the next answer to its warp",
    }
}

/// One row of the manifest's encoding table.
#[derive(Serialize)]
pub struct TableEntry {
    pub field: &'static str,
    pub bits: u32,
    pub codes: Vec<(u8, String)>,
}

macro_rules! table_entry {
    ($field:expr, $ty:ty) => {
        TableEntry {
            field: $field,
            bits: <$ty>::BITS,
            codes: <$ty>::ALL.iter().map(|v| (v.code(), v.name().to_string())).collect(),
        }
    };
}

/// The whole table, as printed into the manifest.
pub fn manifest_table() -> Vec<TableEntry> {
    vec![
        table_entry!("op", Op),
        table_entry!("atom_op", AtomOp),
        table_entry!("data_type", DataType),
        table_entry!("space", Space),
        table_entry!("vote_mode", VoteMode),
        table_entry!("redux_op", ReduxOp),
        table_entry!("shfl_mode", ShflMode),
        table_entry!("bulk_dir", BulkDir),
        table_entry!("error", ErrorCode),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_fit_their_fields() {
        for op in Op::ALL {
            assert_eq!(Op::from_code(op.code()), Some(*op));
            assert!((op.code() as u32) < (1 << Op::BITS));
        }
        for e in ErrorCode::ALL {
            assert!((e.code() as u32) < (1 << ErrorCode::BITS));
        }
        for t in DataType::ALL {
            assert_eq!(DataType::from_name(t.name()), Some(*t));
        }
    }

    #[test]
    fn mbarrier_word_holds_negative_tx() {
        use mbarrier_word::*;
        for tx in [-(COUNT_MAX as i32), -1, 0, 1, COUNT_MAX as i32] {
            let f = Fields { valid: true, parity: true, expected: COUNT_MAX, pending: 7, tx };
            assert_eq!(unpack(pack(f)), f);
        }
    }

    #[test]
    fn token_fields() {
        let t = state_token::pack(5, true, true);
        assert_eq!(state_token::pending(t), 5);
        assert!(state_token::no_complete(t) && state_token::parity(t) && state_token::valid(t));
        assert!(!state_token::valid(0));
    }
}
