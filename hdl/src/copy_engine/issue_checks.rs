//! The controller's issue checks in two registered stages: the conditions, then the error in
//! the golden order.
//!
//! Each op's checks (PTX ISA §9.7.9.25.3.1 cp.async, §9.7.9.25.4.1-2 bulk copy and reduce,
//! §9.7.9.25.5.2 the tensor map's own bytes, §9.7.13.15.15 the mbarrier of
//! cp.async.mbarrier.arrive) are conditions on the request's registers (`cur_*`): 64-bit range
//! compares, shared-memory sums, alignment tests, the op's class. Stage A registers each
//! condition (the engine computes them, each from registers); stage B picks the first that
//! fails in the golden order and registers its error code, whether the destination's live
//! check applies (`live`) and whether the mbarrier's liveness is checked first (`mbl`).
//!
//! Why two stages: in one cycle the path ran from the current op's control word through its
//! decode, the range compares and the order's priority chain into the error register, the copy
//! engine's limit alone (`cur_ctl` -> the issue checks -> `chk_err_q`, 17.75 ns, 56.3 MHz at
//! 159d1a0, docs/FPGA.md). No cycle is added: the controller's `cur_*` are loaded as it leaves
//! IDLE and FETCH lasts two cycles (the thread record's RAM read), so both stages are done when
//! DECIDE first reads the outputs; `cur_*` change only at IDLE's exit and when wait_all is
//! re-read as wait_group 0, which goes through FETCH again.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `is_cp`, `is_cparrive`, `is_bulk_red`, `is_tensor`, `is_sync` | in | 1 each | the op's class: cp.async; cp.async.mbarrier.arrive; a bulk copy or reduce (built); a tensor copy (built); commit or wait (no check) |
//! | `cp_align` .. `map_global` | in | 1 each | a check's condition fails (below, in their order) |
//! | `err` | out | `ERROR_BITS` | the first failing check's error code (`None` when all pass) |
//! | `live` | out | 1 | the destination's live-mbarrier check follows (the range checks before it passed) |
//! | `mbl` | out | 1 | a shared::cta -> shared::cluster copy: its mbarrier's liveness first |

use rust_hdl::prelude::*;
use smsync_contract::encoding::ErrorCode;

use crate::common::{error_code, ERROR_BITS};

#[derive(LogicBlock)]
pub struct IssueChecks {
    pub clock: Signal<In, Clock>,
    pub is_cp: Signal<In, Bit>,
    pub is_cparrive: Signal<In, Bit>,
    pub is_bulk_red: Signal<In, Bit>,
    pub is_tensor: Signal<In, Bit>,
    pub is_sync: Signal<In, Bit>,
    /// cp.async: size not 4/8/16 or an operand not aligned to it; src-size past cp-size; the
    /// destination past shared memory; the source outside global memory.
    pub cp_align: Signal<In, Bit>,
    pub cp_srcsize: Signal<In, Bit>,
    pub cp_shared: Signal<In, Bit>,
    pub cp_global: Signal<In, Bit>,
    /// The mbarrier operand: outside the cluster's shared windows or past shared memory; not
    /// 8-byte aligned.
    pub mb_range: Signal<In, Bit>,
    pub mb_align: Signal<In, Bit>,
    /// Bulk: length or an address not 16-byte aligned, or an unknown direction; a reduce's
    /// type or direction; global -> shared and shared -> shared::cluster directions; the
    /// destination's or the mbarrier's cluster rank; a multicast rank past the cluster; the
    /// destination past shared memory; the global source; the shared source; the global
    /// destination (shared -> global).
    pub bulk_align: Signal<In, Bit>,
    pub red_type: Signal<In, Bit>,
    pub g2s: Signal<In, Bit>,
    pub s2c: Signal<In, Bit>,
    pub rank_bad: Signal<In, Bit>,
    pub mc_rank: Signal<In, Bit>,
    pub dst_shared: Signal<In, Bit>,
    pub src_global: Signal<In, Bit>,
    pub src_shared: Signal<In, Bit>,
    pub dst_global: Signal<In, Bit>,
    /// Tensor: the map's 128 bytes outside global memory.
    pub map_global: Signal<In, Bit>,
    pub err: Signal<Out, Bits<ERROR_BITS>>,
    pub live: Signal<Out, Bit>,
    pub mbl: Signal<Out, Bit>,
    /// Stage A: the inputs, registered.
    a_is_cp: DFF<Bit>,
    a_is_cparrive: DFF<Bit>,
    a_is_bulk_red: DFF<Bit>,
    a_is_tensor: DFF<Bit>,
    a_is_sync: DFF<Bit>,
    a_cp_align: DFF<Bit>,
    a_cp_srcsize: DFF<Bit>,
    a_cp_shared: DFF<Bit>,
    a_cp_global: DFF<Bit>,
    a_mb_range: DFF<Bit>,
    a_mb_align: DFF<Bit>,
    a_bulk_align: DFF<Bit>,
    a_red_type: DFF<Bit>,
    a_g2s: DFF<Bit>,
    a_s2c: DFF<Bit>,
    a_rank_bad: DFF<Bit>,
    a_mc_rank: DFF<Bit>,
    a_dst_shared: DFF<Bit>,
    a_src_global: DFF<Bit>,
    a_src_shared: DFF<Bit>,
    a_dst_global: DFF<Bit>,
    a_map_global: DFF<Bit>,
    /// Stage B: the golden order over stage A's registers, and its registers.
    b_err: Signal<Local, Bits<ERROR_BITS>>,
    b_live: Signal<Local, Bit>,
    b_mbl: Signal<Local, Bit>,
    err_q: DFF<Bits<ERROR_BITS>>,
    live_q: DFF<Bit>,
    mbl_q: DFF<Bit>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_cp_align: Constant<Bits<ERROR_BITS>>,
    e_cp_srcsize: Constant<Bits<ERROR_BITS>>,
    e_bulk_align: Constant<Bits<ERROR_BITS>>,
    e_atom_type: Constant<Bits<ERROR_BITS>>,
    e_shared_range: Constant<Bits<ERROR_BITS>>,
    e_global_range: Constant<Bits<ERROR_BITS>>,
    e_mb_align: Constant<Bits<ERROR_BITS>>,
    e_not_built: Constant<Bits<ERROR_BITS>>,
}

impl Default for IssueChecks {
    fn default() -> Self {
        let err = |c: ErrorCode| Constant::new(error_code(c));
        Self {
            clock: Default::default(),
            is_cp: Default::default(),
            is_cparrive: Default::default(),
            is_bulk_red: Default::default(),
            is_tensor: Default::default(),
            is_sync: Default::default(),
            cp_align: Default::default(),
            cp_srcsize: Default::default(),
            cp_shared: Default::default(),
            cp_global: Default::default(),
            mb_range: Default::default(),
            mb_align: Default::default(),
            bulk_align: Default::default(),
            red_type: Default::default(),
            g2s: Default::default(),
            s2c: Default::default(),
            rank_bad: Default::default(),
            mc_rank: Default::default(),
            dst_shared: Default::default(),
            src_global: Default::default(),
            src_shared: Default::default(),
            dst_global: Default::default(),
            map_global: Default::default(),
            err: Default::default(),
            live: Default::default(),
            mbl: Default::default(),
            a_is_cp: Default::default(),
            a_is_cparrive: Default::default(),
            a_is_bulk_red: Default::default(),
            a_is_tensor: Default::default(),
            a_is_sync: Default::default(),
            a_cp_align: Default::default(),
            a_cp_srcsize: Default::default(),
            a_cp_shared: Default::default(),
            a_cp_global: Default::default(),
            a_mb_range: Default::default(),
            a_mb_align: Default::default(),
            a_bulk_align: Default::default(),
            a_red_type: Default::default(),
            a_g2s: Default::default(),
            a_s2c: Default::default(),
            a_rank_bad: Default::default(),
            a_mc_rank: Default::default(),
            a_dst_shared: Default::default(),
            a_src_global: Default::default(),
            a_src_shared: Default::default(),
            a_dst_global: Default::default(),
            a_map_global: Default::default(),
            b_err: Default::default(),
            b_live: Default::default(),
            b_mbl: Default::default(),
            err_q: Default::default(),
            live_q: Default::default(),
            mbl_q: Default::default(),
            e_none: err(ErrorCode::None),
            e_cp_align: err(ErrorCode::CpAsyncAlign),
            e_cp_srcsize: err(ErrorCode::CpAsyncSrcSize),
            e_bulk_align: err(ErrorCode::BulkSizeAlign),
            e_atom_type: err(ErrorCode::AtomBadType),
            e_shared_range: err(ErrorCode::SharedOutOfRange),
            e_global_range: err(ErrorCode::GlobalOutOfRange),
            e_mb_align: err(ErrorCode::MbAlign),
            e_not_built: err(ErrorCode::NotBuilt),
        }
    }
}

impl Logic for IssueChecks {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            a_is_cp,
            a_is_cparrive,
            a_is_bulk_red,
            a_is_tensor,
            a_is_sync,
            a_cp_align,
            a_cp_srcsize,
            a_cp_shared,
            a_cp_global,
            a_mb_range,
            a_mb_align,
            a_bulk_align,
            a_red_type,
            a_g2s,
            a_s2c,
            a_rank_bad,
            a_mc_rank,
            a_dst_shared,
            a_src_global,
            a_src_shared,
            a_dst_global,
            a_map_global,
            err_q,
            live_q,
            mbl_q
        );
        // ---- stage A ----
        self.a_is_cp.d.next = self.is_cp.val();
        self.a_is_cparrive.d.next = self.is_cparrive.val();
        self.a_is_bulk_red.d.next = self.is_bulk_red.val();
        self.a_is_tensor.d.next = self.is_tensor.val();
        self.a_is_sync.d.next = self.is_sync.val();
        self.a_cp_align.d.next = self.cp_align.val();
        self.a_cp_srcsize.d.next = self.cp_srcsize.val();
        self.a_cp_shared.d.next = self.cp_shared.val();
        self.a_cp_global.d.next = self.cp_global.val();
        self.a_mb_range.d.next = self.mb_range.val();
        self.a_mb_align.d.next = self.mb_align.val();
        self.a_bulk_align.d.next = self.bulk_align.val();
        self.a_red_type.d.next = self.red_type.val();
        self.a_g2s.d.next = self.g2s.val();
        self.a_s2c.d.next = self.s2c.val();
        self.a_rank_bad.d.next = self.rank_bad.val();
        self.a_mc_rank.d.next = self.mc_rank.val();
        self.a_dst_shared.d.next = self.dst_shared.val();
        self.a_src_global.d.next = self.src_global.val();
        self.a_src_shared.d.next = self.src_shared.val();
        self.a_dst_global.d.next = self.dst_global.val();
        self.a_map_global.d.next = self.map_global.val();

        // ---- stage B: the golden order ----
        self.b_err.next = self.e_none.val();
        self.b_live.next = false;
        self.b_mbl.next = false;
        if self.a_is_cp.q.val() {
            if self.a_cp_align.q.val() {
                self.b_err.next = self.e_cp_align.val();
            } else if self.a_cp_srcsize.q.val() {
                self.b_err.next = self.e_cp_srcsize.val();
            } else if self.a_cp_shared.q.val() {
                self.b_err.next = self.e_shared_range.val();
            } else {
                self.b_live.next = true;
                if self.a_cp_global.q.val() {
                    self.b_err.next = self.e_global_range.val();
                }
            }
        } else if self.a_is_cparrive.q.val() {
            if self.a_mb_range.q.val() {
                self.b_err.next = self.e_shared_range.val();
            } else if self.a_mb_align.q.val() {
                self.b_err.next = self.e_mb_align.val();
            }
        } else if self.a_is_bulk_red.q.val() {
            if self.a_bulk_align.q.val() {
                self.b_err.next = self.e_bulk_align.val();
            } else if self.a_red_type.q.val() {
                self.b_err.next = self.e_atom_type.val();
            } else if self.a_g2s.q.val() {
                // dst shared::cta/cluster, its mbarrier, the multicast ranks, then the global source.
                if self.a_rank_bad.q.val() {
                    self.b_err.next = self.e_shared_range.val();
                } else if self.a_mb_align.q.val() {
                    self.b_err.next = self.e_mb_align.val();
                } else if self.a_mc_rank.q.val() {
                    self.b_err.next = self.e_shared_range.val();
                } else if self.a_dst_shared.q.val() {
                    self.b_err.next = self.e_shared_range.val();
                } else {
                    self.b_live.next = true;
                    if self.a_src_global.q.val() {
                        self.b_err.next = self.e_global_range.val();
                    }
                }
            } else if self.a_s2c.q.val() {
                if self.a_rank_bad.q.val() {
                    self.b_err.next = self.e_shared_range.val();
                } else if self.a_mb_align.q.val() {
                    self.b_err.next = self.e_mb_align.val();
                } else {
                    // the mbarrier's liveness, the destination's range, its live check, then
                    // the shared source's range
                    self.b_mbl.next = true;
                    if self.a_dst_shared.q.val() {
                        self.b_err.next = self.e_shared_range.val();
                    } else {
                        self.b_live.next = true;
                        if self.a_src_shared.q.val() {
                            self.b_err.next = self.e_shared_range.val();
                        }
                    }
                }
            } else if self.a_dst_global.q.val() {
                // shared::cta -> global: the global destination before the shared source.
                self.b_err.next = self.e_global_range.val();
            } else if self.a_src_shared.q.val() {
                self.b_err.next = self.e_shared_range.val();
            }
        } else if self.a_is_tensor.q.val() {
            // The map's own 128 bytes: the golden `TensorMap::read` answers this before any
            // check of the map's contents.
            if self.a_map_global.q.val() {
                self.b_err.next = self.e_global_range.val();
            }
        } else if !self.a_is_sync.q.val() {
            // Bulk copies and bulk reduces without features.bulk_copy, tensor copies without
            // features.tensor_copy, unknown codes (clusterlaunchcontrol.try_cancel among them).
            self.b_err.next = self.e_not_built.val();
        }
        self.err_q.d.next = self.b_err.val();
        self.live_q.d.next = self.b_live.val();
        self.mbl_q.d.next = self.b_mbl.val();
        self.err.next = self.err_q.q.val();
        self.live.next = self.live_q.q.val();
        self.mbl.next = self.mbl_q.q.val();
    }
}
