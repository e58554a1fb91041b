//! `LaneCheck`: the atomic ALU's check of one lane of its next window, from the lane's address
//! alone (the golden `lane` check, PTX ISA §9.7.13.5): its error, the 16-byte line and byte
//! offset it accesses, its byte enables there, and which later lanes of the window share its
//! line. The ALU registers these per window lane (its check stage), so that the plan stage
//! that picks a step's lead and the lanes that join it works on registered bits only (see
//! "Pipeline" in `atomic_alu.rs`).
//!
//! Checks, in the golden order: not aligned to the access size -> `AtomAlign`; global outside
//! `[GLOBAL_BASE, global_end)` -> `GlobalOutOfRange`; shared::cluster outside the executing
//! CTA's window, a CTA slot past the config's, or beyond shared memory -> `SharedOutOfRange`.

use rust_hdl::prelude::*;
use smsync_contract::encoding::ErrorCode;
use smsync_contract::memory_map::{CLUSTER_BASE, GLOBAL_BASE, WINDOW};

use super::width::Truncate;
use super::MAX_GROUP;
use crate::common::{error_code, ERROR_BITS};
use crate::pack_lanes::LanePart;

#[derive(LogicBlock)]
pub struct LaneCheck {
    /// The window's lanes' addresses (lane i in bits `64 i + 63 .. 64 i`; global, shared or
    /// shared::cluster, as the request's space says): this lane's and those after it are used.
    pub window: Signal<In, Bits<{ 64 * MAX_GROUP }>>,
    pub is_global: Signal<In, Bit>,
    pub is_cluster: Signal<In, Bit>,
    /// The request's CTA slot is past the config's (every shared access is out of range).
    pub cta_bad: Signal<In, Bit>,
    /// `access_bytes - 1`; the highest address an access may start at in the request's
    /// space (global: `global_end - access_bytes`; shared::cta: `shared_bytes - access_bytes`;
    /// shared::cluster: that plus the executing CTA's window base), a register: so the range
    /// check compares the lane's raw address with it, with no subtract before the compare.
    pub align_mask: Signal<In, Bits<64>>,
    pub limit: Signal<In, Bits<64>>,
    /// Byte enables of one access at byte 0 of a line.
    pub access_be: Signal<In, Bits<16>>,

    /// `ErrorCode` of the lane (`None` when it may be served).
    pub error: Signal<Out, Bits<ERROR_BITS>>,
    /// The accessed line (global address, or offset in the CTA's shared memory), the byte
    /// offset in it, and the lane's byte enables there.
    pub line: Signal<Out, Bits<64>>,
    pub byte_off: Signal<Out, Bits<8>>,
    pub be: Signal<Out, Bits<16>>,
    /// Bit `me + 1 + k` set: `later[k]` is in the same line (window bits; lower bits zero).
    /// One entry, none for the window's last lane (no lane after it).
    pub same: Vec<Signal<Out, Bits<MAX_GROUP>>>,
    /// Bit `me + 1 + k` set: `later[k]` has this lane's address, so their accesses share a
    /// byte. One entry, none for the window's last lane. (The lanes of a request access the
    /// same size, size-aligned where they are served (PTX ISA §9.7.13.5): two such accesses
    /// overlap exactly when their addresses are equal. A misaligned lane never joins a step,
    /// and a misaligned lead plans none, so the plan reads this bit only for aligned lanes.)
    pub overlap: Vec<Signal<Out, Bits<MAX_GROUP>>>,

    /// This lane's address, and those of the window's lanes after it (`later[k]`: lane
    /// `me + 1 + k`), picked from `window` at constant lane numbers (wiring after synthesis).
    own: LanePart<64, { 64 * MAX_GROUP }, 9>,
    later: Vec<LanePart<64, { 64 * MAX_GROUP }, 9>>,
    k_me: Constant<Bits<5>>,
    k_later_index: Vec<Constant<Bits<5>>>,
    addr: Signal<Local, Bits<64>>,
    shared_off: Signal<Local, Bits<64>>,
    access_addr: Signal<Local, Bits<64>>,
    cut_off: Truncate<64, 8>,
    /// `same` accumulated over `later[0..=k]` (each written once).
    same_acc: Vec<Signal<Local, Bits<MAX_GROUP>>>,
    /// `overlap` accumulated over `later[0..=k]` (each written once).
    overlap_acc: Vec<Signal<Local, Bits<MAX_GROUP>>>,
    /// `later[k]` is in this lane's line; and at its byte offset.
    same_line: Vec<Signal<Local, Bit>>,
    same_addr: Vec<Signal<Local, Bit>>,
    /// (Only with later lanes.)
    k_off_mask: Vec<Constant<Bits<64>>>,
    k_later_bit: Vec<Constant<Bits<MAX_GROUP>>>,
    /// (Only with later lanes.)
    k_zero_w: Vec<Constant<Bits<MAX_GROUP>>>,
    k_cluster_base: Constant<Bits<64>>,
    /// `CLUSTER_BASE + WINDOW`: the first address past the executing CTA's shared::cluster window.
    k_window_end: Constant<Bits<64>>,
    k_global_base: Constant<Bits<64>>,
    k_line_mask: Constant<Bits<64>>,
    e_none: Constant<Bits<ERROR_BITS>>,
    e_align: Constant<Bits<ERROR_BITS>>,
    e_global_range: Constant<Bits<ERROR_BITS>>,
    e_shared_range: Constant<Bits<ERROR_BITS>>,
}

impl LaneCheck {
    /// The check of window lane `me` of a window of `n` lanes (`me < n <= MAX_GROUP`).
    pub fn new(me: usize, n: usize) -> Self {
        assert!(me < n && n <= MAX_GROUP, "LaneCheck: lane {me} of a window of {n} (at most {MAX_GROUP})");
        let k64 = |v: u64| Constant::new(v.to_bits());
        let err = |e: ErrorCode| Constant::new(error_code(e));
        LaneCheck {
            window: Default::default(),
            own: LanePart::with_stride(64),
            later: (me + 1..n).map(|_| LanePart::with_stride(64)).collect(),
            k_me: Constant::new((me as u64).to_bits()),
            k_later_index: (me + 1..n).map(|b| Constant::new((b as u64).to_bits())).collect(),
            addr: Default::default(),
            is_global: Default::default(),
            is_cluster: Default::default(),
            cta_bad: Default::default(),
            align_mask: Default::default(),
            limit: Default::default(),
            access_be: Default::default(),
            error: Default::default(),
            line: Default::default(),
            byte_off: Default::default(),
            be: Default::default(),
            same: (me + 1..n).take(1).map(|_| Default::default()).collect(),
            overlap: (me + 1..n).take(1).map(|_| Default::default()).collect(),
            shared_off: Default::default(),
            access_addr: Default::default(),
            cut_off: Default::default(),
            same_acc: (me + 1..n).map(|_| Default::default()).collect(),
            overlap_acc: (me + 1..n).map(|_| Default::default()).collect(),
            same_line: (me + 1..n).map(|_| Default::default()).collect(),
            same_addr: (me + 1..n).map(|_| Default::default()).collect(),
            k_off_mask: (me + 1..n).take(1).map(|_| k64(15)).collect(),
            k_later_bit: (me + 1..n).map(|b| Constant::new((1u64 << b).to_bits())).collect(),
            k_zero_w: (me + 1..n).take(1).map(|_| Constant::new(0u64.to_bits())).collect(),
            k_cluster_base: k64(CLUSTER_BASE),
            k_window_end: k64(CLUSTER_BASE + WINDOW),
            k_global_base: k64(GLOBAL_BASE),
            k_line_mask: k64(!15u64),
            e_none: err(ErrorCode::None),
            e_align: err(ErrorCode::AtomAlign),
            e_global_range: err(ErrorCode::GlobalOutOfRange),
            e_shared_range: err(ErrorCode::SharedOutOfRange),
        }
    }
}

impl Logic for LaneCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.own.word.next = self.window.val();
        self.own.number.next = self.k_me.val();
        self.addr.next = self.own.part.val();
        for k in 0..self.later.len() {
            self.later[k].word.next = self.window.val();
            self.later[k].number.next = self.k_later_index[k].val();
        }
        self.shared_off.next = self.addr.val();
        if self.is_cluster.val() {
            self.shared_off.next = self.addr.val() - self.k_cluster_base.val();
        }
        // Every bound is a constant or the registered `limit`: on shared::cluster the offset
        // `addr - CLUSTER_BASE` is at or past `WINDOW` exactly when `addr` is at or past
        // `CLUSTER_BASE + WINDOW` (for `addr >= CLUSTER_BASE`, the only case that reaches it).
        self.error.next = self.e_none.val();
        if (self.addr.val() & self.align_mask.val()).any() {
            self.error.next = self.e_align.val();
        } else if self.is_global.val() {
            if (self.addr.val() < self.k_global_base.val()) | (self.addr.val() > self.limit.val()) {
                self.error.next = self.e_global_range.val();
            }
        } else if (self.is_cluster.val()
            & ((self.addr.val() < self.k_cluster_base.val()) | (self.addr.val() >= self.k_window_end.val())))
            | self.cta_bad.val()
            | (self.addr.val() > self.limit.val())
        {
            self.error.next = self.e_shared_range.val();
        }
        self.access_addr.next = self.shared_off.val();
        if self.is_global.val() {
            self.access_addr.next = self.addr.val();
        }
        self.line.next = self.access_addr.val() & self.k_line_mask.val();
        self.cut_off.wide.next = self.access_addr.val() & !self.k_line_mask.val();
        self.byte_off.next = self.cut_off.narrow.val();
        self.be.next = self.access_be.val() << self.byte_off.val();
        // The shared::cluster window base is 16-byte aligned, so equal raw lines are equal
        // accessed lines in every space.
        for k in 0..self.later.len() {
            self.same_line[k].next =
                (self.later[k].part.val() & self.k_line_mask.val()) == (self.addr.val() & self.k_line_mask.val());
            self.same_addr[k].next = self.same_line[k].val()
                & ((self.later[k].part.val() & self.k_off_mask[0].val())
                    == (self.addr.val() & self.k_off_mask[0].val()));
        }
        for k in 0..self.later.len().min(1) {
            self.same_acc[k].next = self.k_zero_w[k].val();
            self.overlap_acc[k].next = self.k_zero_w[k].val();
            if self.same_line[k].val() {
                self.same_acc[k].next = self.k_later_bit[k].val();
            }
            if self.same_addr[k].val() {
                self.overlap_acc[k].next = self.k_later_bit[k].val();
            }
        }
        for k in 1..self.later.len() {
            self.same_acc[k].next = self.same_acc[k - 1].val();
            self.overlap_acc[k].next = self.overlap_acc[k - 1].val();
            if self.same_line[k].val() {
                self.same_acc[k].next = self.same_acc[k - 1].val() | self.k_later_bit[k].val();
            }
            if self.same_addr[k].val() {
                self.overlap_acc[k].next = self.overlap_acc[k - 1].val() | self.k_later_bit[k].val();
            }
        }
        for k in 0..self.later.len() {
            self.same[0].next = self.same_acc[k].val();
            self.overlap[0].next = self.overlap_acc[k].val();
        }
    }
}
