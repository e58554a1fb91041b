//! The SM's side of the top's `Retry` answer (`ErrorCode::Retry`), shared by every backend that
//! drives the `sync_unit` top (`RtlSyncUnit` over Verilator, `UartHost` over a board).
//!
//! A warp-network partial arrival at a new rendezvous while its warp's `rendezvous_per_warp`
//! records are all pending is not executed: the top answers it `Retry` (no lanes) and drops it
//! from its request queue, and the sender keeps it and offers it again after the next answer to
//! its warp, as an SM replays an instruction its unit could not take. Only a later request of
//! the same warp frees a record (it completes or fails a rendezvous, or the warp's lanes exit),
//! and that request's answer leaves the top after the `Retry` (the core takes its requests in
//! order and answers through one response register), so a parked request never waits for an
//! answer that has already left. Kept in the top's queue instead, refused requests of several
//! warps filled it and the requests that complete their rendezvous could not enter.

use smsync_sim::encoding::Unit;
use smsync_sim::units::Request;
use std::collections::VecDeque;

/// Warp-network requests remembered after they were sent, newest last: a `Retry` names its
/// request by tag and leaves the top before more than `requests_in_flight` (at most 8) later
/// requests are taken.
const SENT_KEPT: usize = 64;

/// Requests the top may answer `Retry`, and those it did.
#[derive(Default)]
pub struct RefusedRequests {
    /// The newest [`SENT_KEPT`] warp-network requests sent (a copy to offer again).
    sent: VecDeque<Request>,
    /// Requests answered `Retry`, waiting for the next answer to their warp.
    parked: Vec<Request>,
    /// `Retry` answers seen (each request offered again once per answer).
    pub retries: u64,
}

impl RefusedRequests {
    /// Forget everything (a reset of the top).
    pub fn clear(&mut self) {
        self.sent.clear();
        self.parked.clear();
    }

    /// `req` was sent to the top (its header taken): kept if its unit may refuse it.
    pub fn sent(&mut self, req: &Request) {
        if req.op.unit() != Unit::WarpNetwork {
            return;
        }
        if self.sent.len() == SENT_KEPT {
            self.sent.pop_front();
        }
        self.sent.push_back(req.clone());
    }

    /// The top answered `tag` with `Retry`: its request waits for the next answer to its warp.
    /// A `Retry` for a request not sent recently is a protocol error of the top.
    pub fn refused(&mut self, tag: u64) -> Result<(), String> {
        let Some(i) = self.sent.iter().rposition(|r| r.tag == tag) else {
            return Err(format!(
                "the top answered Retry for tag {tag}, which is not one of the last {SENT_KEPT} warp-network requests sent"
            ));
        };
        let req = self.sent.remove(i).expect("found above");
        self.retries += 1;
        self.parked.push(req);
        Ok(())
    }

    /// An answer to (`cta`, `warp`) left the top: its parked requests, to be offered again.
    pub fn answered(&mut self, cta: u16, warp: u16) -> Vec<Request> {
        if self.parked.is_empty() {
            return Vec::new();
        }
        let (again, keep): (Vec<Request>, Vec<Request>) =
            std::mem::take(&mut self.parked).into_iter().partition(|r| r.cta == cta && r.warp == warp);
        self.parked = keep;
        again
    }

    /// Whether a request of CTA slot `slot` is parked.
    pub fn holds_slot(&self, slot: u16) -> bool {
        self.parked.iter().any(|r| r.cta == slot)
    }

    /// The parked requests (a hang report names them).
    pub fn parked(&self) -> &[Request] {
        &self.parked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smsync_sim::encoding::Op;

    fn req(tag: u64, warp: u16, op: Op) -> Request {
        Request::new(tag, 0, warp, op)
    }

    #[test]
    fn a_refused_request_is_offered_again_after_an_answer_to_its_warp_only() {
        let mut r = RefusedRequests::default();
        r.sent(&req(1, 0, Op::VoteSync));
        r.sent(&req(2, 1, Op::VoteSync));
        r.refused(1).unwrap();
        assert!(r.answered(0, 1).is_empty(), "an answer to another warp does not release it");
        assert!(r.holds_slot(0));
        let again = r.answered(0, 0);
        assert_eq!(again.iter().map(|q| q.tag).collect::<Vec<_>>(), [1]);
        assert!(!r.holds_slot(0) && r.answered(0, 0).is_empty(), "offered once per Retry");
        assert_eq!(r.retries, 1);
    }

    #[test]
    fn a_retry_for_a_request_not_sent_is_an_error() {
        let mut r = RefusedRequests::default();
        r.sent(&req(5, 0, Op::BarSync));
        let e = r.refused(5).unwrap_err();
        assert!(e.contains("tag 5"), "{e}");
    }
}
