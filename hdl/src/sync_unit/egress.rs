//! The response egress of the `sync_unit` top: the registered boundary between the core's
//! response register and the response port (a header, then the lane values in beats). The
//! mirror of the request ingress ([`super::ingress`]).
//!
//! * **Header** (`resp_*`): the header register; `resp_valid` is high while it holds a response,
//!   which is taken in a cycle where `resp_valid` and `resp_ready` are both high.
//!   `resp_has_values` says whether the lane values follow in beats; when it is low every lane's
//!   value is 0 (barrier answers, copies, stores, errors) and no beat is sent.
//! * **Beats** (`resp_beat_*`): `32 / L` beats (`L = lanes_per_beat`) in lane order, beat `k`
//!   carrying lanes `k*L .. k*L+L-1` on `resp_beat_values$j`, each taken in a cycle where
//!   `resp_beat_valid` and `resp_beat_ready` are both high. Beat 0 is loaded with the header,
//!   so both may be taken in the same cycle; a consumer that is always ready takes a response
//!   with values in `32 / L` cycles and one without in one.
//! * **Order**: each channel keeps the order in which the core loads its responses, and the
//!   k-th run of `32 / L` beats belongs to the k-th header with `resp_has_values` (as AXI's write
//!   data may come before its address, a beat may be taken before its header; a consumer that
//!   wants the header first holds `resp_beat_ready` low until it has it). A header is offered
//!   only once the previous response's last beat has been taken (or is taken in that cycle).
//! * **Core side**: the core holds a response in its response register (`valid`: the header
//!   fields and which of its result registers holds the values) until the egress raises `taken`
//!   (the cycle it has copied the header and the last row of values it needs); the core loads
//!   its register again, and lets its units change their results, no earlier than the cycle
//!   after. The values are read a row of `L` lanes at a time: the egress names the row
//!   (`row`, a register) and the core answers with that row's lanes (`row_values`), so no
//!   32-lane copy of the values is made.
//!
//! Both output registers load when empty or when their content is being taken (`ready` is the
//! enable of its register and of nothing else); every output port is a register.

use super::copies;
use crate::common::ERROR_BITS;
use rust_hdl::prelude::*;
use smsync_contract::config::Config;
use smsync_contract::port::{beats_per_request, WARP};

#[derive(LogicBlock)]
pub struct ResponseEgress {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // ---- core side: the response register ----
    /// The core's response register holds a response.
    pub valid: Signal<In, Bit>,
    /// The response has been copied out: the core may load its register from the next cycle.
    pub taken: Signal<Out, Bit>,
    pub o_tag: Signal<In, Bits<64>>,
    pub o_cta: Signal<In, Bits<5>>,
    pub o_warp: Signal<In, Bits<5>>,
    pub o_lanes: Signal<In, Bits<32>>,
    pub o_preds: Signal<In, Bits<32>>,
    pub o_error: Signal<In, Bits<ERROR_BITS>>,
    pub o_error_lane: Signal<In, Bits<5>>,
    pub o_has_values: Signal<In, Bit>,
    /// The row of values the egress reads (lanes `row*L .. row*L+L-1`), and the core's answer.
    pub row: Signal<Out, Bits<5>>,
    pub row_values: Vec<Signal<In, Bits<128>>>,
    /// A response is in the output registers or still being copied.
    pub busy: Signal<Out, Bit>,
    // ---- port side: header ----
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_tag: Signal<Out, Bits<64>>,
    pub resp_cta: Signal<Out, Bits<5>>,
    pub resp_warp: Signal<Out, Bits<5>>,
    pub resp_lanes: Signal<Out, Bits<32>>,
    pub resp_preds: Signal<Out, Bits<32>>,
    pub resp_error: Signal<Out, Bits<ERROR_BITS>>,
    pub resp_error_lane: Signal<Out, Bits<5>>,
    pub resp_has_values: Signal<Out, Bit>,
    // ---- port side: beats of L lanes ----
    pub resp_beat_valid: Signal<Out, Bit>,
    pub resp_beat_ready: Signal<In, Bit>,
    pub resp_beat_values: Vec<Signal<Out, Bits<128>>>,
    // ---- header register ----
    hdr_full: DFF<Bit>,
    hdr_tag: DFF<Bits<64>>,
    hdr_cta: DFF<Bits<5>>,
    hdr_warp: DFF<Bits<5>>,
    hdr_lanes: DFF<Bits<32>>,
    hdr_preds: DFF<Bits<32>>,
    hdr_error: DFF<Bits<ERROR_BITS>>,
    hdr_error_lane: DFF<Bits<5>>,
    hdr_has_values: DFF<Bit>,
    // ---- beat register ----
    bt_full: DFF<Bit>,
    bt_values: Vec<DFF<Bits<128>>>,
    /// The core's response is in the header register and rows of its values remain to copy.
    copying: DFF<Bit>,
    /// The next row of the core's values to copy into the beat register (0 when not copying).
    row_next: DFF<Bits<5>>,
    /// The header register or the beat register can load this cycle.
    hdr_free: Signal<Local, Bit>,
    bt_free: Signal<Local, Bit>,
    /// Copy a row of values into the beat register this cycle.
    load_row: Signal<Local, Bit>,
    k_last_row: Constant<Bits<5>>,
    /// `lanes_per_beat` (L), a loop bound.
    _lanes: usize,
}

impl ResponseEgress {
    pub fn new(config: &Config) -> Self {
        let l = config.lanes_per_beat as usize;
        assert!(l.is_power_of_two() && l <= WARP, "lanes_per_beat {l} (the config validates it)");
        let beats = beats_per_request(config);
        ResponseEgress {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            taken: Default::default(),
            o_tag: Default::default(),
            o_cta: Default::default(),
            o_warp: Default::default(),
            o_lanes: Default::default(),
            o_preds: Default::default(),
            o_error: Default::default(),
            o_error_lane: Default::default(),
            o_has_values: Default::default(),
            row: Default::default(),
            row_values: copies(l),
            busy: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_tag: Default::default(),
            resp_cta: Default::default(),
            resp_warp: Default::default(),
            resp_lanes: Default::default(),
            resp_preds: Default::default(),
            resp_error: Default::default(),
            resp_error_lane: Default::default(),
            resp_has_values: Default::default(),
            resp_beat_valid: Default::default(),
            resp_beat_ready: Default::default(),
            resp_beat_values: copies(l),
            hdr_full: Default::default(),
            hdr_tag: Default::default(),
            hdr_cta: Default::default(),
            hdr_warp: Default::default(),
            hdr_lanes: Default::default(),
            hdr_preds: Default::default(),
            hdr_error: Default::default(),
            hdr_error_lane: Default::default(),
            hdr_has_values: Default::default(),
            bt_full: Default::default(),
            bt_values: copies(l),
            copying: Default::default(),
            row_next: Default::default(),
            hdr_free: Default::default(),
            bt_free: Default::default(),
            load_row: Default::default(),
            k_last_row: Constant::new((beats as u64 - 1).to_bits()),
            _lanes: l,
        }
    }
}

impl Logic for ResponseEgress {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            hdr_full,
            hdr_tag,
            hdr_cta,
            hdr_warp,
            hdr_lanes,
            hdr_preds,
            hdr_error,
            hdr_error_lane,
            hdr_has_values,
            bt_full,
            copying,
            row_next
        );
        for i in 0..self._lanes {
            self.bt_values[i].clock.next = self.clock.val();
            self.bt_values[i].d.next = self.bt_values[i].q.val();
            self.resp_beat_values[i].next = self.bt_values[i].q.val();
        }

        // ---- the port side: registers only ----
        self.resp_valid.next = self.hdr_full.q.val();
        self.resp_tag.next = self.hdr_tag.q.val();
        self.resp_cta.next = self.hdr_cta.q.val();
        self.resp_warp.next = self.hdr_warp.q.val();
        self.resp_lanes.next = self.hdr_lanes.q.val();
        self.resp_preds.next = self.hdr_preds.q.val();
        self.resp_error.next = self.hdr_error.q.val();
        self.resp_error_lane.next = self.hdr_error_lane.q.val();
        self.resp_has_values.next = self.hdr_has_values.q.val();
        self.resp_beat_valid.next = self.bt_full.q.val();
        self.busy.next = self.hdr_full.q.val() || self.bt_full.q.val() || self.copying.q.val();
        self.row.next = self.row_next.q.val();

        // ---- what leaves this cycle ----
        self.hdr_free.next = !self.hdr_full.q.val() || self.resp_ready.val();
        self.bt_free.next = !self.bt_full.q.val() || self.resp_beat_ready.val();
        if self.hdr_full.q.val() && self.resp_ready.val() {
            self.hdr_full.d.next = false;
        }
        if self.bt_full.q.val() && self.resp_beat_ready.val() {
            self.bt_full.d.next = false;
        }

        // ---- a new response: its header, and its first row when it has values ----
        self.taken.next = false;
        self.load_row.next = false;
        if self.copying.q.val() {
            self.load_row.next = self.bt_free.val();
        } else if self.valid.val() && self.hdr_free.val() && self.bt_free.val() {
            // Also without values, a header waits for the beat register: a response's header
            // leaves only after the previous response's last beat was taken (or with it).
            self.hdr_full.d.next = true;
            self.hdr_tag.d.next = self.o_tag.val();
            self.hdr_cta.d.next = self.o_cta.val();
            self.hdr_warp.d.next = self.o_warp.val();
            self.hdr_lanes.d.next = self.o_lanes.val();
            self.hdr_preds.d.next = self.o_preds.val();
            self.hdr_error.d.next = self.o_error.val();
            self.hdr_error_lane.d.next = self.o_error_lane.val();
            self.hdr_has_values.d.next = self.o_has_values.val();
            self.load_row.next = self.o_has_values.val();
            if !self.o_has_values.val() {
                self.taken.next = true;
            }
        }

        // ---- a row of the core's values into the beat register (row_next is 0 at a new one) ----
        if self.load_row.val() {
            self.bt_full.d.next = true;
            for i in 0..self._lanes {
                self.bt_values[i].d.next = self.row_values[i].val();
            }
            if self.row_next.q.val() == self.k_last_row.val() {
                self.copying.d.next = false;
                self.row_next.d.next = 0.into();
                self.taken.next = true;
            } else {
                self.copying.d.next = true;
                self.row_next.d.next = self.row_next.q.val() + 1u64;
            }
        }

        if self.reset.val() {
            self.hdr_full.d.next = false;
            self.bt_full.d.next = false;
            self.copying.d.next = false;
            self.row_next.d.next = 0.into();
        }
    }
}
