//! The copy engine's mbarrier events in flight, and the answers the mbarrier unit gives them.
//!
//! The engine sends three kinds of events to the mbarrier unit on `mb_*`: the complete_tx of a
//! finished move (PTX ISA §9.7.9.25.4, the mbarrier completion mechanism), the deferred
//! arrive-on of `cp.async.mbarrier.arrive` (PTX ISA §9.7.13.16), and that instruction's
//! issue-time pending += 1 (or, with `.noinc`, the liveness check). The unit answers every event,
//! in the order it took them, on `mb_resp_valid` / `mb_resp_error`, a few cycles later. This
//! block keeps whose each event is (a FIFO of [`EVENT_DEPTH`] identities) and sorts the answers
//! as the golden unit does (`smsync_sim::units::copy_engine`):
//!
//! * the issue-time event's answer goes to the controller, which waits for it: its error is the
//!   error of the `cp.async.mbarrier.arrive` lane (the golden unit answers it at issue);
//! * an error of a complete_tx or arrive-on is a **late error** of the op that made it (the
//!   golden `late_error`: a response with the op's tag, CTA, warp and the lane as its error lane,
//!   no lanes): queued on `late_*` until the top sends it.
//!
//! `room` holds the engine's events back while the events in flight plus the late errors not
//! yet sent fill [`EVENT_DEPTH`], so an answer always has a place: none is dropped. At one
//! event per cycle the unit answers about five cycles after the event (the top's event
//! register, then its three stages), so eight in flight never throttle a stream of events.
//!
//! Both queues are block RAM ([`BlockFifo`]: a distributed RAM of 80-85 bits costs 22 16x4
//! cells, 132 LUT4 positions, on the ECP5). A block RAM shows a word pushed into the empty
//! queue two cycles later: the answer to an event comes three or more cycles after it (the
//! event register and the mbarrier ALU's stages), so the events' head is always shown in time;
//! a late error waits a cycle more before `late_valid`.

use super::fifo::BlockFifo;
use super::{LANE_BITS, SLOT_BITS, WARP_BITS};
use crate::common::{error_code, ERROR_BITS};
use rust_hdl::prelude::*;
use smsync_contract::encoding::ErrorCode;

/// An op's identity for its late errors: `[tag 64 | cta 5 | warp 5 | lane 5]` (tag at bit 0).
pub const IDENT_BITS: usize = 64 + SLOT_BITS + WARP_BITS + LANE_BITS;
/// Events in flight plus late errors waiting (both FIFOs hold this many).
pub const EVENT_DEPTH: usize = 8;
/// An event in flight: its op's identity and, at bit 79, whether it is a late-error event.
const EVENT_BITS: usize = IDENT_BITS + 1;
/// A late error: the identity and, from bit 79, the error code.
const LATE_BITS: usize = IDENT_BITS + ERROR_BITS;
// The update below names bit 79 with literals (hdl_gen cannot emit a Rust const).
const _: () = assert!(IDENT_BITS == 79);

/// Split an identity of [`IDENT_BITS`] bits into (tag, cta, warp, lane): the layout the
/// update's literals assume, for testbenches.
pub fn ident_fields(ident: u128) -> (u64, u16, u16, u8) {
    (ident as u64, ((ident >> 64) & 31) as u16, ((ident >> 69) & 31) as u16, ((ident >> 74) & 31) as u8)
}

#[derive(LogicBlock)]
pub struct MbAnswers {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The mbarrier side takes an event this cycle (`mb_valid & mb_ready`; only while `room`).
    pub take: Signal<In, Bit>,
    /// The event taken is a complete_tx or an arrive-on of the op `take_ident`; else it is the
    /// controller's issue-time event.
    pub take_late: Signal<In, Bit>,
    pub take_ident: Signal<In, Bits<IDENT_BITS>>,
    /// Another event may be taken this cycle.
    pub room: Signal<Out, Bit>,
    /// The mbarrier unit's answer to the oldest event in flight.
    pub mb_resp_valid: Signal<In, Bit>,
    pub mb_resp_error: Signal<In, Bits<ERROR_BITS>>,
    /// The issue-time event is answered this cycle, with `issue_error`.
    pub issue_answer: Signal<Out, Bit>,
    pub issue_error: Signal<Out, Bits<ERROR_BITS>>,
    /// The oldest late error, held until taken (`late_valid & late_ready`).
    pub late_valid: Signal<Out, Bit>,
    pub late_ready: Signal<In, Bit>,
    pub late_ident: Signal<Out, Bits<IDENT_BITS>>,
    pub late_error: Signal<Out, Bits<ERROR_BITS>>,
    /// Events in flight or late errors waiting.
    pub busy: Signal<Out, Bit>,
    events: BlockFifo<EVENT_BITS>,
    late: BlockFifo<LATE_BITS>,
    head_late: Signal<Local, Bit>,
    k_late_event: Constant<Bits<EVENT_BITS>>,
    k_none: Constant<Bits<ERROR_BITS>>,
    k_depth: Constant<Bits<9>>,
}

impl Default for MbAnswers {
    fn default() -> Self {
        MbAnswers {
            clock: Default::default(),
            reset: Default::default(),
            take: Default::default(),
            take_late: Default::default(),
            take_ident: Default::default(),
            room: Default::default(),
            mb_resp_valid: Default::default(),
            mb_resp_error: Default::default(),
            issue_answer: Default::default(),
            issue_error: Default::default(),
            late_valid: Default::default(),
            late_ready: Default::default(),
            late_ident: Default::default(),
            late_error: Default::default(),
            busy: Default::default(),
            events: BlockFifo::new(EVENT_DEPTH),
            late: BlockFifo::new(EVENT_DEPTH),
            head_late: Default::default(),
            k_late_event: Constant::new({
                let mut b = Bits::<EVENT_BITS>::default();
                b.set_bits::<1>(IDENT_BITS, 1u64.to_bits());
                b
            }),
            k_none: Constant::new(error_code(ErrorCode::None)),
            k_depth: Constant::new((EVENT_DEPTH as u64).to_bits()),
        }
    }
}

impl Logic for MbAnswers {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, events, late);
        self.events.reset.next = self.reset.val();
        self.late.reset.next = self.reset.val();
        self.room.next = (self.events.count.val() + self.late.count.val()) < self.k_depth.val();

        self.events.push.next = self.take.val();
        self.events.din.next = bit_cast::<EVENT_BITS, IDENT_BITS>(self.take_ident.val());
        if self.take_late.val() {
            self.events.din.next = bit_cast::<EVENT_BITS, IDENT_BITS>(self.take_ident.val()) | self.k_late_event.val();
        }

        // Every answer retires the oldest event; only a late event's error is kept.
        // (The head is shown by the time its answer comes, see above; `ready` says so.)
        self.events.pop.next = self.mb_resp_valid.val() & self.events.ready.val();
        self.head_late.next = self.events.dout.val().get_bit(79);
        self.issue_answer.next = self.mb_resp_valid.val() & !self.head_late.val();
        self.issue_error.next = self.mb_resp_error.val();
        self.late.push.next =
            self.mb_resp_valid.val() & self.head_late.val() & (self.mb_resp_error.val() != self.k_none.val());
        self.late.din.next = bit_cast::<LATE_BITS, IDENT_BITS>(self.events.dout.val().get_bits::<IDENT_BITS>(0))
            | (bit_cast::<LATE_BITS, ERROR_BITS>(self.mb_resp_error.val()) << 79);
        self.late.pop.next = self.late_ready.val() & self.late.ready.val();
        self.late_valid.next = self.late.ready.val();
        self.late_ident.next = self.late.dout.val().get_bits::<IDENT_BITS>(0);
        self.late_error.next = self.late.dout.val().get_bits::<ERROR_BITS>(79);
        self.busy.next = !self.events.empty.val() | !self.late.empty.val();
    }
}
