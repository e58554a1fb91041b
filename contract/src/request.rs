//! The warp-level request and response that cross the `SyncUnit` boundary.
//!
//! The executor turns every instruction the sync unit owns into one [`Request`] per warp (after
//! the warp's lanes have converged on it). A unit answers with [`Response`]s, matched by `tag`.
//! A non-blocking op answers at once; a blocking op (bar.sync, a suspending try_wait,
//! cp.async.wait_group, bar.warp.sync waiting for lanes) answers when it is released, possibly
//! while another warp's request is being handled.
//!
//! ## Operand convention (the executor packs, the golden units and the RTL read)
//!
//! Addresses: `Space::SharedCta` addresses are offsets into the CTA slot's shared memory;
//! `Space::SharedCluster` addresses are cluster-window addresses (`memory::CLUSTER_BASE + rank *
//! WINDOW + offset`); `Space::Global` addresses are global addresses. The executor resolves
//! generic addresses before packing and splits a request whose lanes point into different spaces.
//! Lanes are processed in ascending lane order wherever order is observable (atomics on one
//! address, mbarrier arrivals).
//!
//! | op | fields read | response |
//! |---|---|---|
//! | BarSync/BarArrive/BarRed* | `imm` barrier id, `imm2` thread count if `flags::HAS_COUNT`; red: lane `a` bit 0 = c, `NEGATE` = `!c` | when released: red.popc `values` = count, red.and/or `preds` |
//! | WarpExit | `live_mask` = the warp's lanes still live (0 = the whole warp exited; a partial exit only re-checks warp-network rendezvous) | none |
//! | BarClusterArrive/Wait | (per warp) | wait: when the cluster round completes |
//! | MbInit | lane `addr`, `a` = count | immediate |
//! | MbInval | lane `addr` | immediate |
//! | MbArrive/MbArriveDrop | lane `addr`, `a` = count (1 if absent), `b` = txCount if `EXPECT_TX`; `NO_COMPLETE` | `values` = state token |
//! | MbExpectTx/MbCompleteTx | lane `addr`, `a` = txCount | immediate |
//! | MbTestWait/MbTryWait | lane `addr`, `a` = token or parity (`PARITY`), try_wait `b` = suspendTimeHint ns (0 = none) | `preds` = waitComplete; try_wait may answer later |
//! | MbPendingCount | lane `a` = token | `values` = count |
//! | MbCpAsyncArrive | lane `addr`; `NO_INC` | immediate (the arrive-on happens later) |
//! | Atom/Red | `sub` AtomOp, `dtype`, `space`, `vec`; lane `addr`, `b`, `c` (cas); `MOD_A` = .noftz | atom: `values` = old value(s), packed |
//! | RedAsync | `sub` AtomOp, `dtype`, `space` = SharedCluster; lane `addr` and `mbar` = cluster-window addresses (even for the own CTA), `b` | immediate (reduce, then complete_tx(element bytes) on `mbar`) |
//! | VoteSync | `sub` VoteMode, `member_mask`, lane `a` bit 0, `NEGATE` | all/any/uni `preds`, ballot `values` |
//! | MatchAny/MatchAll | `dtype` B32/B64, lane `a` | `values` = mask, `preds` = p (all) |
//! | ReduxSync | `sub` ReduxOp, `dtype` U32/S32/B32/F32, lane `a`; `MOD_A` .abs, `MOD_B` .NaN | `values` |
//! | ElectSync | `member_mask` | `values` = leader lane, `preds` = leader bit |
//! | Activemask | - | `values` = active mask |
//! | WarpSync | `member_mask` | when every live lane of the mask has arrived |
//! | ShflSync | `sub` ShflMode, lane `a` value, `b` lane/offset, `c` clamp/segmask | `values` = d, `preds` = p |
//! | CpAsync | lane `addr` dst (shared), `src` (global), `imm` cp-size, `a` = src-size (= cp-size when the operand is absent), `b` bit 0 = ignore-src | immediate |
//! | CpAsyncCommit | per lane | immediate |
//! | CpAsyncWait | `imm` = N, `imm2` = 1 for wait_all | when at most N groups of each lane are pending |
//! | CpBulk | `sub` BulkDir, lane `addr` dst, `src`, `a` = size, `mbar`, `b` = ctaMask (`MOD_B` multicast), `c` = byteMask (`imm2` bit 0 = .cp_mask) | immediate |
//! | CpReduceBulk | `sub` AtomOp, `imm` BulkDir, `dtype`, lane `addr`, `src`, `a` = size, `mbar`; `MOD_A` .noftz | immediate |
//! | CpBulkTensor | `sub` BulkDir, `imm` dims, `imm2` = AtomOp+1 for cp.reduce (0 = copy), for a load the load mode (0 = .tile, 1 = .im2col); lane `addr` smem, `src` tensor map, `a` = coords 0..3 (s32, packed low first), `b` bits 31:0 = coord 4, bits 79:32 = the im2col offsets W, H, D (u16 each), `mbar`, `c` = ctaMask (`MOD_B`) | immediate |
//! | ClcTryCancel | lane `addr` (16-byte response), `mbar`, both shared::cta; `MOD_B` = .multicast::cluster::all | immediate (response + complete_tx(16) land later, like a copy) |
//! | BulkCommit | per lane | immediate |
//! | BulkWait | `imm` = N, `MOD_A` = .read | when satisfied |
//! | LdShared/StShared | lane `addr`, `imm` element bytes, `vec`, st: `a` data | ld: `values` |
//!
//! An asynchronous operation that fails when it completes (its mbarrier was invalidated meanwhile,
//! a tensor element outside global memory) answers once more with the issuing request's `tag`,
//! `lanes` = 0 and the error. Tensor reduces take their element type from the tensor map's
//! `elem_type` word at offset 96 (0 = untyped: u32/u64, or b32/b64 for and/or/xor).

use crate::encoding::{DataType, ErrorCode, Op, Space};

pub const WARP: usize = 32;

/// Operands of one lane. Which fields an op reads is listed with each op in the table at the top
/// of this file; unused fields are zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneOps {
    /// Primary address: the atomic/mbarrier/shared address, the copy destination.
    pub addr: u64,
    /// Second address: the copy source, or the tensor map's address.
    pub src: u64,
    /// mbarrier address of a copy's complete-tx.
    pub mbar: u64,
    /// Operand a / b / c (atom b and c, redux source, vote predicate in bit 0, token, counts).
    pub a: u128,
    pub b: u128,
    pub c: u128,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Chosen by the executor; every response to this request carries it back.
    pub tag: u64,
    /// CTA slot in the sync unit.
    pub cta: u16,
    /// Warp index within the CTA.
    pub warp: u16,
    pub op: Op,
    /// Op-specific sub-op code: AtomOp, ReduxOp, VoteMode, ShflMode or BulkDir (see `encoding`).
    pub sub: u8,
    pub dtype: DataType,
    pub space: Space,
    /// `encoding::flags` bits.
    pub flags: u8,
    /// Vector length of atom/red (1, 2, 4, 8) or ld/st.shared vector count.
    pub vec: u8,
    /// Warp-uniform immediate: barrier id, cp-size, wait_group N, access size, shfl c operand...
    pub imm: u32,
    /// Second warp-uniform immediate: barrier thread count, bulk size, tensor dims...
    pub imm2: u32,
    /// membermask of *.sync ops (all lanes for ops without one).
    pub member_mask: u32,
    /// Lanes that execute this request (converged, guard true, not exited).
    pub active_mask: u32,
    /// Non-exited lanes of the warp.
    pub live_mask: u32,
    pub lanes: [LaneOps; WARP],
}

impl Request {
    pub fn new(tag: u64, cta: u16, warp: u16, op: Op) -> Request {
        Request {
            tag,
            cta,
            warp,
            op,
            sub: 0,
            dtype: DataType::B32,
            space: Space::SharedCta,
            flags: 0,
            vec: 1,
            imm: 0,
            imm2: 0,
            member_mask: u32::MAX,
            active_mask: u32::MAX,
            live_mask: u32::MAX,
            lanes: [LaneOps::default(); WARP],
        }
    }
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
    /// Active lane indices, low to high.
    pub fn active_lanes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..WARP).filter(move |l| self.active_mask >> l & 1 == 1)
    }
    pub fn first_active(&self) -> Option<usize> {
        (self.active_mask != 0).then(|| self.active_mask.trailing_zeros() as usize)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub tag: u64,
    pub cta: u16,
    pub warp: u16,
    /// Lanes this response completes (they may continue).
    pub lanes: u32,
    /// Per-lane result `d` (old value, token, ballot, shuffled value...).
    pub values: [u128; WARP],
    /// Per-lane predicate result (bit i = lane i).
    pub preds: u32,
    pub error: ErrorCode,
    /// The first lane at fault when `error` is not `None`.
    pub error_lane: u8,
}

impl Response {
    pub fn to(req: &Request, lanes: u32) -> Response {
        Response {
            tag: req.tag,
            cta: req.cta,
            warp: req.warp,
            lanes,
            values: [0; WARP],
            preds: 0,
            error: ErrorCode::None,
            error_lane: 0,
        }
    }
    pub fn error(req: &Request, error: ErrorCode, lane: usize) -> Response {
        let mut r = Response::to(req, req.active_mask);
        r.error = error;
        r.error_lane = lane as u8;
        r
    }
}

/// A sync event for `--trace` and for the cosim's first-divergence context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// An mbarrier phase completed (cta slot, address, new phase parity).
    PhaseComplete { cta: u16, addr: u64, parity: bool },
    /// A named barrier completed and released warps (cta, barrier id, released warps bitmask).
    BarrierRelease { cta: u16, id: u32, warps: u64 },
    /// An asynchronous copy finished (cta, bytes, complete-tx target if any).
    CopyDone { cta: u16, bytes: u32, mbar: Option<u64> },
    /// A cp.async group retired (cta, warp, lane).
    GroupDone { cta: u16, warp: u16, lane: u8 },
}
