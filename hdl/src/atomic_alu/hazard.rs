//! Which in-flight steps share a byte with the step waiting in the issue stage: one flip-flop
//! per pipeline position, moved with the steps, so that the read request is an OR of flip-flops.
//!
//! A step may read its line only after every earlier step on one of its bytes has written
//! (the module doc's `hazard`: same-address lanes see the previous lane's result). The rule
//! is the same as comparing, each cycle, the issue stage's line and byte enables against the
//! steps in R, X1, X2.., X3 and the write buffer; that compare ran from the issue stage's
//! registers through seven 64-bit line compares into the read request, the grant and the issue
//! stage's load: the routed ULX3S board top's limiting path at 27f78db (23.83 ns, 20.47 of it
//! routing, docs/FPGA.md).
//!
//! Here the compares run once, when a step is planned: its line and bytes (`plan_*`) against
//! each position's step (`cp_*`). The answers are registered with the step that goes into the
//! issue stage (`hi_*`) or its skid register (`hk_*`, which also keeps its answer against the
//! issue stage's own step, `hk_iss`), and each answer moves from position to position exactly
//! as that position's step does (the `*_to_*` and `advance` strobes are the parent's own moves).
//! The result is the compare's, cycle for cycle: a step's line never changes while it is in
//! flight, and its byte enables shrink only in X1 under a live-mbarrier fault (PTX ISA
//! §9.7.13.15, "Errors" in the module doc), which drops every later step, so an answer taken
//! from the wider enables decides nothing.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `plan_line`, `plan_be` | in | 64, 16 | the planned step: its line and the bytes of its lanes |
//! | `iss_line`, `iss_be` | in | 64, 16 | the issue stage's step (it may move to R at this edge) |
//! | `rs_*`, `ex_*`, `xe_*[k]`, `x3_*`, `wb_*` | in | 64, 16, 1 | each position's line, bytes and valid |
//! | `plan_to_iss`, `plan_to_skid`, `skid_to_iss` | in | 1 | the planned step enters I or the skid register; the skid's step enters I |
//! | `iss_to_rs`, `rs_to_ex`, `advance`, `x3_to_wb` | in | 1 | I -> R; R -> X1; X1 -> X2 -> .. -> X3 (`en`); X3 -> the write buffer |
//! | `hazard` | out | 1 | the issue stage's step shares a byte with a valid step in R..X3 or the write buffer |

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct StepHazards {
    pub clock: Signal<In, Clock>,
    pub plan_line: Signal<In, Bits<64>>,
    pub plan_be: Signal<In, Bits<16>>,
    pub iss_line: Signal<In, Bits<64>>,
    pub iss_be: Signal<In, Bits<16>>,
    pub rs_line: Signal<In, Bits<64>>,
    pub rs_be: Signal<In, Bits<16>>,
    pub rs_valid: Signal<In, Bit>,
    pub ex_line: Signal<In, Bits<64>>,
    pub ex_be: Signal<In, Bits<16>>,
    pub ex_valid: Signal<In, Bit>,
    pub xe_line: Vec<Signal<In, Bits<64>>>,
    pub xe_be: Vec<Signal<In, Bits<16>>>,
    pub xe_valid: Vec<Signal<In, Bit>>,
    pub x3_line: Signal<In, Bits<64>>,
    pub x3_be: Signal<In, Bits<16>>,
    pub x3_valid: Signal<In, Bit>,
    pub wb_line: Signal<In, Bits<64>>,
    pub wb_be: Signal<In, Bits<16>>,
    pub wb_valid: Signal<In, Bit>,
    pub plan_to_iss: Signal<In, Bit>,
    pub plan_to_skid: Signal<In, Bit>,
    pub skid_to_iss: Signal<In, Bit>,
    pub iss_to_rs: Signal<In, Bit>,
    pub rs_to_ex: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    pub x3_to_wb: Signal<In, Bit>,
    pub hazard: Signal<Out, Bit>,
    /// The issue stage's step shares a byte with the step at each position.
    hi_rs: DFF<Bit>,
    hi_ex: DFF<Bit>,
    hi_xe: Vec<DFF<Bit>>,
    hi_x3: DFF<Bit>,
    hi_wb: DFF<Bit>,
    /// The skid register's step: the same, and against the issue stage's step.
    hk_iss: DFF<Bit>,
    hk_rs: DFF<Bit>,
    hk_ex: DFF<Bit>,
    hk_xe: Vec<DFF<Bit>>,
    hk_x3: DFF<Bit>,
    hk_wb: DFF<Bit>,
    /// The planned step against each position's step now.
    cp_iss: Signal<Local, Bit>,
    cp_rs: Signal<Local, Bit>,
    cp_ex: Signal<Local, Bit>,
    cp_xe: Vec<Signal<Local, Bit>>,
    cp_x3: Signal<Local, Bit>,
    cp_wb: Signal<Local, Bit>,
    /// The answers of the issue stage's (`ni_*`) and the skid's (`nk_*`) step of the next
    /// cycle, against each position's step now (before it moves).
    ni_iss: Signal<Local, Bit>,
    ni_rs: Signal<Local, Bit>,
    ni_ex: Signal<Local, Bit>,
    ni_xe: Vec<Signal<Local, Bit>>,
    ni_x3: Signal<Local, Bit>,
    ni_wb: Signal<Local, Bit>,
    nk_iss: Signal<Local, Bit>,
    nk_rs: Signal<Local, Bit>,
    nk_ex: Signal<Local, Bit>,
    nk_xe: Vec<Signal<Local, Bit>>,
    nk_x3: Signal<Local, Bit>,
    nk_wb: Signal<Local, Bit>,
}

fn stage_vec<T: Default>(stages: usize) -> Vec<T> {
    (0..stages).map(|_| T::default()).collect()
}

impl StepHazards {
    /// `stages`: X2 and the element's stages before X3 (the parent's `xe_*`).
    pub fn new(stages: usize) -> StepHazards {
        StepHazards {
            clock: Default::default(),
            plan_line: Default::default(),
            plan_be: Default::default(),
            iss_line: Default::default(),
            iss_be: Default::default(),
            rs_line: Default::default(),
            rs_be: Default::default(),
            rs_valid: Default::default(),
            ex_line: Default::default(),
            ex_be: Default::default(),
            ex_valid: Default::default(),
            xe_line: stage_vec(stages),
            xe_be: stage_vec(stages),
            xe_valid: stage_vec(stages),
            x3_line: Default::default(),
            x3_be: Default::default(),
            x3_valid: Default::default(),
            wb_line: Default::default(),
            wb_be: Default::default(),
            wb_valid: Default::default(),
            plan_to_iss: Default::default(),
            plan_to_skid: Default::default(),
            skid_to_iss: Default::default(),
            iss_to_rs: Default::default(),
            rs_to_ex: Default::default(),
            advance: Default::default(),
            x3_to_wb: Default::default(),
            hazard: Default::default(),
            hi_rs: Default::default(),
            hi_ex: Default::default(),
            hi_xe: stage_vec(stages),
            hi_x3: Default::default(),
            hi_wb: Default::default(),
            hk_iss: Default::default(),
            hk_rs: Default::default(),
            hk_ex: Default::default(),
            hk_xe: stage_vec(stages),
            hk_x3: Default::default(),
            hk_wb: Default::default(),
            cp_iss: Default::default(),
            cp_rs: Default::default(),
            cp_ex: Default::default(),
            cp_xe: stage_vec(stages),
            cp_x3: Default::default(),
            cp_wb: Default::default(),
            ni_iss: Default::default(),
            ni_rs: Default::default(),
            ni_ex: Default::default(),
            ni_xe: stage_vec(stages),
            ni_x3: Default::default(),
            ni_wb: Default::default(),
            nk_iss: Default::default(),
            nk_rs: Default::default(),
            nk_ex: Default::default(),
            nk_xe: stage_vec(stages),
            nk_x3: Default::default(),
            nk_wb: Default::default(),
        }
    }
}

impl Logic for StepHazards {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, hi_rs, hi_ex, hi_x3, hi_wb, hk_iss, hk_rs, hk_ex, hk_x3, hk_wb);
        for k in 0..self.hi_xe.len() {
            self.hi_xe[k].clock.next = self.clock.val();
            self.hi_xe[k].d.next = self.hi_xe[k].q.val();
            self.hk_xe[k].clock.next = self.clock.val();
            self.hk_xe[k].d.next = self.hk_xe[k].q.val();
        }
        // The planned step against each position: the same line and a byte in common.
        self.cp_iss.next =
            (self.plan_line.val() == self.iss_line.val()) & (self.plan_be.val() & self.iss_be.val()).any();
        self.cp_rs.next = (self.plan_line.val() == self.rs_line.val()) & (self.plan_be.val() & self.rs_be.val()).any();
        self.cp_ex.next = (self.plan_line.val() == self.ex_line.val()) & (self.plan_be.val() & self.ex_be.val()).any();
        for k in 0..self.cp_xe.len() {
            self.cp_xe[k].next =
                (self.plan_line.val() == self.xe_line[k].val()) & (self.plan_be.val() & self.xe_be[k].val()).any();
        }
        self.cp_x3.next = (self.plan_line.val() == self.x3_line.val()) & (self.plan_be.val() & self.x3_be.val()).any();
        self.cp_wb.next = (self.plan_line.val() == self.wb_line.val()) & (self.plan_be.val() & self.wb_be.val()).any();

        // The next cycle's issue-stage step: the planned one, the skid's, or the same one.
        self.ni_iss.next = self.hk_iss.q.val();
        self.ni_rs.next = self.hi_rs.q.val();
        self.ni_ex.next = self.hi_ex.q.val();
        for k in 0..self.ni_xe.len() {
            self.ni_xe[k].next = self.hi_xe[k].q.val();
        }
        self.ni_x3.next = self.hi_x3.q.val();
        self.ni_wb.next = self.hi_wb.q.val();
        if self.skid_to_iss.val() {
            self.ni_rs.next = self.hk_rs.q.val();
            self.ni_ex.next = self.hk_ex.q.val();
            for k in 0..self.ni_xe.len() {
                self.ni_xe[k].next = self.hk_xe[k].q.val();
            }
            self.ni_x3.next = self.hk_x3.q.val();
            self.ni_wb.next = self.hk_wb.q.val();
        }
        if self.plan_to_iss.val() {
            self.ni_iss.next = self.cp_iss.val();
            self.ni_rs.next = self.cp_rs.val();
            self.ni_ex.next = self.cp_ex.val();
            for k in 0..self.ni_xe.len() {
                self.ni_xe[k].next = self.cp_xe[k].val();
            }
            self.ni_x3.next = self.cp_x3.val();
            self.ni_wb.next = self.cp_wb.val();
        }
        // The next cycle's skid step: the planned one, or the same one.
        self.nk_iss.next = self.hk_iss.q.val();
        self.nk_rs.next = self.hk_rs.q.val();
        self.nk_ex.next = self.hk_ex.q.val();
        for k in 0..self.nk_xe.len() {
            self.nk_xe[k].next = self.hk_xe[k].q.val();
        }
        self.nk_x3.next = self.hk_x3.q.val();
        self.nk_wb.next = self.hk_wb.q.val();
        if self.plan_to_skid.val() {
            self.nk_iss.next = self.cp_iss.val();
            self.nk_rs.next = self.cp_rs.val();
            self.nk_ex.next = self.cp_ex.val();
            for k in 0..self.nk_xe.len() {
                self.nk_xe[k].next = self.cp_xe[k].val();
            }
            self.nk_x3.next = self.cp_x3.val();
            self.nk_wb.next = self.cp_wb.val();
        }

        // Each answer follows its position's step: it stays, or takes the one moving in.
        self.hi_rs.d.next = self.ni_rs.val();
        self.hk_rs.d.next = self.nk_rs.val();
        self.hk_iss.d.next = self.nk_iss.val();
        if self.iss_to_rs.val() {
            self.hi_rs.d.next = self.ni_iss.val();
            self.hk_rs.d.next = self.nk_iss.val();
        }
        self.hi_ex.d.next = self.ni_ex.val();
        self.hk_ex.d.next = self.nk_ex.val();
        if self.rs_to_ex.val() {
            self.hi_ex.d.next = self.ni_rs.val();
            self.hk_ex.d.next = self.nk_rs.val();
        }
        for k in 0..self.hi_xe.len() {
            self.hi_xe[k].d.next = self.ni_xe[k].val();
            self.hk_xe[k].d.next = self.nk_xe[k].val();
        }
        self.hi_x3.d.next = self.ni_x3.val();
        self.hk_x3.d.next = self.nk_x3.val();
        if self.advance.val() {
            for k in 0..self.hi_xe.len().min(1) {
                self.hi_xe[k].d.next = self.ni_ex.val();
                self.hk_xe[k].d.next = self.nk_ex.val();
            }
            for k in 1..self.hi_xe.len() {
                self.hi_xe[k].d.next = self.ni_xe[k - 1].val();
                self.hk_xe[k].d.next = self.nk_xe[k - 1].val();
            }
            for k in 0..self.hi_xe.len() {
                self.hi_x3.d.next = self.ni_xe[k].val();
                self.hk_x3.d.next = self.nk_xe[k].val();
            }
        }
        self.hi_wb.d.next = self.ni_wb.val();
        self.hk_wb.d.next = self.nk_wb.val();
        if self.x3_to_wb.val() {
            self.hi_wb.d.next = self.ni_x3.val();
            self.hk_wb.d.next = self.nk_x3.val();
        }

        // The issue stage waits while a valid step it depends on has not written.
        self.hazard.next = (self.hi_rs.q.val() & self.rs_valid.val())
            | (self.hi_ex.q.val() & self.ex_valid.val())
            | (self.hi_x3.q.val() & self.x3_valid.val())
            | (self.hi_wb.q.val() & self.wb_valid.val());
        for k in 0..self.hi_xe.len() {
            if self.hi_xe[k].q.val() & self.xe_valid[k].val() {
                self.hazard.next = true;
            }
        }
    }
}
