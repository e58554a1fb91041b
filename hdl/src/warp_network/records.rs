//! The warp network's arrival records: `rendezvous_per_warp` (K) records per (CTA slot, warp),
//! so that a warp may wait at several collectives at once (PTX ISA §9.7.13.9-§9.7.13.12 release
//! a lane once every live lane of its membermask has arrived; under independent thread
//! scheduling one lane group may wait at a collective while another reaches a different one).
//!
//! A record is {arrived lanes, membermask, kind, vote predicates} (`REC_BITS`), one block-RAM
//! word per (slot, warp) in RAM `r` (read every cycle at the port's slot and warp), with a flip-flop valid bit per
//! warp so that completion and reset drop a record at once. The header's four cycles on the
//! unit's port:
//!
//! 1. **read**: the port's (slot, warp) addresses the record RAMs (block RAM: their output
//!    register is this stage's, `rd_raw[r]`), and the valid bits into `rd_hit[r]`;
//! 2. **match**: each record compared with the header into 4-bit vectors (`m_same4`: same
//!    membermask and kind; `m_over4`: holds some of the request's lanes; `m_done4`: completed by
//!    an exit's live mask), and the words copied into registers (`m_raw`) for the look. The
//!    compares and the choice in one cycle behind the RAM's clock-to-out were 15.4 ns on the
//!    ECP5 (65.1 MHz);
//! 3. **look**: the choice (`sel`): the pending record of the same membermask and kind (join),
//!    else the lowest free one (open); for an exit, the lowest one its live mask completes
//!    (`again`: another one too, so the exit is sent again); `twice` when the request's lanes
//!    already wait at a record (a certain hang: `MemberMaskMismatch`). Then the chosen record's
//!    word (`hit_raw`) for the unit's decision, and the wait-for
//!    graph among the warp's records with the request added (`i` waits for `j` when a lane `i`
//!    still needs is blocked at `j`), registered as rows and columns;
//! 4. **take**: the records on a wait-for cycle through the request's rendezvous (forward and
//!    backward reach in three steps, enough for K <= 4 records), whose requests fail with it,
//!    as the golden model (`smsync_sim::units::warp_network`) fails every request of a cycle;
//!    then the unit writes the chosen record (`write`) or drops it (`clear_sel`) or the failed
//!    ones (`clear_failed`).

use rust_hdl::prelude::*;

use super::{LANES, REC_BITS};
use crate::depth_ram::DepthRam;

/// Records per warp the logic is written for (`rendezvous_per_warp` <= 4): the per-record
/// signals are this many, those at or above K are never valid (synthesis drops them).
pub const MAX_RECORDS: usize = 4;

#[derive(LogicBlock)]
pub struct RendezvousRecords {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // --- the header on the port (held there until taken) ---
    pub cta: Signal<In, Bits<5>>,
    pub warp: Signal<In, Bits<5>>,
    pub member: Signal<In, Bits<32>>,
    /// {flags, dtype, sub, op}: lanes join a rendezvous only with the same op and qualifiers.
    pub kind: Signal<In, Bits<21>>,
    pub active: Signal<In, Bits<32>>,
    pub live: Signal<In, Bits<32>>,
    pub is_exit: Signal<In, Bit>,
    // --- look cycle (from the read registers) ---
    /// The chosen record is pending (joined, or completed by the exit), and its word.
    pub hit: Signal<Out, Bit>,
    pub hit_raw: Signal<Out, Bits<REC_BITS>>,
    /// The request's active lanes already wait at a pending record.
    pub twice: Signal<Out, Bit>,
    /// No record of the warp is free and the request joins none.
    pub full: Signal<Out, Bit>,
    // --- take cycle (from the look cycle's registers) ---
    /// The request's rendezvous is on a wait-for cycle (meaningful when it stays partial).
    pub cycle: Signal<Out, Bit>,
    /// The lanes of the records that fail with the request: the record its lanes already wait
    /// at (`twice`), else those on the cycle.
    pub fail_lanes: Signal<Out, Bits<32>>,
    /// An exit: another record of the warp is complete too.
    pub again: Signal<Out, Bit>,
    /// Write the chosen record with `wdata` (no record when its arrived lanes are none).
    pub write: Signal<In, Bit>,
    pub wdata: Signal<In, Bits<REC_BITS>>,
    /// Drop the chosen record / the failed records (twice, or the cycle's).
    pub clear_sel: Signal<In, Bit>,
    pub clear_failed: Signal<In, Bit>,

    rams: Vec<DepthRam<Bits<REC_BITS>, 12>>,
    ram_addr: Signal<Local, Bits<12>>,
    k_cta_shift: Constant<Bits<12>>,
    k_zero_rec: Constant<Bits<REC_BITS>>,
    /// RAM `slot * K + r`, bit w: warp w's record r is pending.
    valid: Vec<DFF<Bits<32>>>,
    cta_id: Vec<Constant<Bits<5>>>,
    lane_id: Vec<Constant<Bits<5>>>,
    one_hot: Vec<Constant<Bits<32>>>,
    warp_onehot: Signal<Local, Bits<32>>,
    /// Record r's word of the port's (cta, warp) as of the last clock edge (the RAM's read
    /// register); zero for r >= K.
    rd_raw: Vec<Signal<Local, Bits<REC_BITS>>>,
    rd_hit: Vec<DFF<Bit>>,
    /// `rd_raw`, registered in the match cycle for the look cycle: read there straight from
    /// the RAM, its clock-to-out led the look's record select (`lk_vote_pred`, 61.6 MHz).
    m_raw: Vec<DFF<Bits<REC_BITS>>>,
    /// The look cycle's arrived lanes (zero for a record not pending) and membermask, from `m_raw`.
    m_arr: Vec<Signal<Local, Bits<32>>>,
    m_mem: Vec<Signal<Local, Bits<32>>>,
    // look: per record
    arr: Vec<Signal<Local, Bits<32>>>,
    mem: Vec<Signal<Local, Bits<32>>>,
    /// Per record, its bit of `valid4` / `same4` / `over4` / `done4` (pending; same mask and
    /// kind; holds some of the request's lanes; completed by the live mask).
    valid_b: Vec<Signal<Local, Bits<4>>>,
    same_b: Vec<Signal<Local, Bits<4>>>,
    over_b: Vec<Signal<Local, Bits<4>>>,
    done_b: Vec<Signal<Local, Bits<4>>>,
    one4: Vec<Constant<Bits<4>>>,
    /// The graph's nodes with the request added to the chosen record: arrived, missing, pending.
    n_arr: Vec<Signal<Local, Bits<32>>>,
    n_miss: Vec<Signal<Local, Bits<32>>>,
    n_on: Vec<Signal<Local, Bit>>,
    /// Row `i` bit `j`: `i` waits for `j`; column `j` bit `i` the same edge.
    row: Vec<Signal<Local, Bits<4>>>,
    col: Vec<Signal<Local, Bits<4>>>,
    edge_r: Vec<Signal<Local, Bits<4>>>,
    edge_c: Vec<Signal<Local, Bits<4>>>,
    valid4: Signal<Local, Bits<4>>,
    same4: Signal<Local, Bits<4>>,
    over4: Signal<Local, Bits<4>>,
    done4: Signal<Local, Bits<4>>,
    free4: Signal<Local, Bits<4>>,
    free_low: Signal<Local, Bits<4>>,
    over_low: Signal<Local, Bits<4>>,
    done_low: Signal<Local, Bits<4>>,
    sel: Signal<Local, Bits<4>>,
    new_arr: Signal<Local, Bits<32>>,
    k_mask: Constant<Bits<4>>,
    k_one4: Constant<Bits<4>>,
    k_zero4: Constant<Bits<4>>,
    k_zero32: Constant<Bits<32>>,
    // match -> look registers: the records' compares. The choice among them is the look
    // cycle's: behind the block RAM's clock-to-out, compares and choice in one cycle were the
    // unit's limit (15.4 ns to `m_hit`).
    m_valid4: DFF<Bits<4>>,
    m_same4: DFF<Bits<4>>,
    m_over4: DFF<Bits<4>>,
    m_done4: DFF<Bits<4>>,
    /// No record to join and none free (`full`), from the match cycle: in the look cycle it was
    /// the limit into the unit's refusal decision (`lk_no_record`, 14.5 ns).
    m_full: DFF<Bit>,
    /// The look cycle's choice: a pending record chosen, the request's lanes wait already, an
    /// exit completing another record too.
    sel_hit: Signal<Local, Bit>,
    sel_twice: Signal<Local, Bit>,
    sel_again: Signal<Local, Bit>,
    // look -> take registers
    lk_sel: DFF<Bits<4>>,
    lk_sel_valid: DFF<Bit>,
    lk_twice: DFF<Bit>,
    lk_over: DFF<Bits<4>>,
    lk_again: DFF<Bit>,
    lk_valid: DFF<Bits<4>>,
    lk_arr: Vec<DFF<Bits<32>>>,
    lk_row: Vec<DFF<Bits<4>>>,
    lk_col: Vec<DFF<Bits<4>>>,
    // take: reach through the request's node
    part_f: Vec<Signal<Local, Bits<4>>>,
    part_b: Vec<Signal<Local, Bits<4>>>,
    fwd: Vec<Signal<Local, Bits<4>>>,
    bwd: Vec<Signal<Local, Bits<4>>>,
    /// Reach step `t` (`t + 1` edges; entry `t - 1`, step 0 is always built) is needed: a path among K records has at most K - 1
    /// edges, so steps `t <= K - 2` (two of three steps fewer on fpga-small's K = 3: the take
    /// cycle's reach, `lk_sel` -> the drop of the failed records, was the unit's limit).
    step_on: Vec<Constant<Bit>>,
    members: Signal<Local, Bits<4>>,
    failed: Signal<Local, Bits<4>>,
    fail_part: Vec<Signal<Local, Bits<32>>>,
    drop: Signal<Local, Bits<4>>,
    /// K (records per warp) and K + 1, as a one-element range binding K to a loop variable.
    _records: usize,
    _records_end: usize,
    _slots: usize,
}

fn vec_of<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

impl RendezvousRecords {
    /// `warps`: warps per CTA (`max_warps_per_cta`), the depth of each record RAM.
    pub fn new(slots: usize, records: usize, warps: usize) -> Self {
        assert!((1..=MAX_RECORDS).contains(&records), "rendezvous_per_warp {records} (the config validates it)");
        let m = MAX_RECORDS;
        // A word per (CTA slot, warp of the CTA) in block RAM: in distributed RAM the three
        // records of fpga-small were 180 16x4 cells (1.1k LUT4 positions).
        let warp_bits = warps.next_power_of_two().trailing_zeros() as usize;
        let cta_bits = (slots.next_power_of_two().trailing_zeros() as usize).max(1 - warp_bits.min(1));
        RendezvousRecords {
            clock: Default::default(),
            reset: Default::default(),
            cta: Default::default(),
            warp: Default::default(),
            member: Default::default(),
            kind: Default::default(),
            active: Default::default(),
            live: Default::default(),
            is_exit: Default::default(),
            hit: Default::default(),
            hit_raw: Default::default(),
            twice: Default::default(),
            full: Default::default(),
            cycle: Default::default(),
            fail_lanes: Default::default(),
            again: Default::default(),
            write: Default::default(),
            wdata: Default::default(),
            clear_sel: Default::default(),
            clear_failed: Default::default(),
            rams: (0..records).map(|_| DepthRam::block(warp_bits + cta_bits)).collect(),
            ram_addr: Default::default(),
            k_cta_shift: Constant::new(bits(warp_bits as u64)),
            k_zero_rec: Constant::new(bits(0)),
            valid: vec_of(slots * records),
            cta_id: (0..slots).map(|c| Constant::new(bits(c as u64))).collect(),
            lane_id: (0..LANES).map(|w| Constant::new(bits(w as u64))).collect(),
            one_hot: (0..LANES).map(|w| Constant::new(bits(1u64 << w))).collect(),
            warp_onehot: Default::default(),
            rd_raw: vec_of(m),
            m_raw: vec_of(m),
            m_arr: vec_of(m),
            m_mem: vec_of(m),
            rd_hit: vec_of(m),
            arr: vec_of(m),
            mem: vec_of(m),
            valid_b: vec_of(m),
            same_b: vec_of(m),
            over_b: vec_of(m),
            done_b: vec_of(m),
            one4: (0..m).map(|r| Constant::new(bits(1u64 << r))).collect(),
            n_arr: vec_of(m),
            n_miss: vec_of(m),
            n_on: vec_of(m),
            row: vec_of(m),
            col: vec_of(m),
            edge_r: vec_of(m * m),
            edge_c: vec_of(m * m),
            valid4: Default::default(),
            same4: Default::default(),
            over4: Default::default(),
            done4: Default::default(),
            free4: Default::default(),
            free_low: Default::default(),
            over_low: Default::default(),
            done_low: Default::default(),
            sel: Default::default(),
            new_arr: Default::default(),
            k_mask: Constant::new(bits((1u64 << records) - 1)),
            k_one4: Constant::new(bits(1)),
            k_zero4: Constant::new(bits(0)),
            k_zero32: Constant::new(bits(0)),
            m_valid4: Default::default(),
            m_same4: Default::default(),
            m_over4: Default::default(),
            m_done4: Default::default(),
            m_full: Default::default(),
            sel_hit: Default::default(),
            sel_twice: Default::default(),
            sel_again: Default::default(),
            lk_sel: Default::default(),
            lk_sel_valid: Default::default(),
            lk_twice: Default::default(),
            lk_over: Default::default(),
            lk_again: Default::default(),
            lk_valid: Default::default(),
            lk_arr: vec_of(m),
            lk_row: vec_of(m),
            lk_col: vec_of(m),
            part_f: vec_of(m),
            part_b: vec_of(m),
            fwd: vec_of(m),
            step_on: (1..m).map(|t| Constant::new(t + 2 <= records)).collect(),
            bwd: vec_of(m),
            members: Default::default(),
            failed: Default::default(),
            fail_part: vec_of(m),
            drop: Default::default(),
            _records: records,
            _records_end: records + 1,
            _slots: slots,
        }
    }
}

impl Logic for RendezvousRecords {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            m_valid4,
            m_same4,
            m_over4,
            m_done4,
            m_full,
            lk_sel,
            lk_sel_valid,
            lk_twice,
            lk_over,
            lk_again,
            lk_valid
        );
        for r in 0..4 {
            self.rd_hit[r].clock.next = self.clock.val();
            self.m_raw[r].clock.next = self.clock.val();
            self.lk_arr[r].clock.next = self.clock.val();
            self.lk_row[r].clock.next = self.clock.val();
            self.lk_col[r].clock.next = self.clock.val();
            self.rd_hit[r].d.next = false;
            self.rd_raw[r].next = self.k_zero_rec.val();
        }

        // ---------------- read: every record of the port's warp ----------------
        self.warp_onehot.next = self.k_zero32.val();
        for w in 0..32 {
            if self.warp.val() == self.lane_id[w].val() {
                self.warp_onehot.next = self.one_hot[w].val();
            }
        }
        // A record RAM per record index, a word per (CTA slot, warp): block RAM, read every
        // cycle at the port's (cta, warp); its output is the read register (`rd_raw`), and
        // the word written by a take is read by the next header, cycles later.
        self.ram_addr.next =
            (bit_cast::<12, 5>(self.cta.val()) << self.k_cta_shift.val()) | bit_cast::<12, 5>(self.warp.val());
        for r in 0..self._records {
            self.rams[r].read_clock.next = self.clock.val();
            self.rams[r].write_clock.next = self.clock.val();
            self.rams[r].read_address.next = self.ram_addr.val();
            self.rams[r].write_address.next = self.ram_addr.val();
            self.rams[r].write_data.next = self.wdata.val();
            self.rams[r].write_enable.next = self.write.val() && self.lk_sel.q.val().get_bit(r) && !self.reset.val();
            self.rd_raw[r].next = self.rams[r].read_data.val();
        }
        for k in self._records..self._records_end {
            for c in 0..self._slots {
                for r in 0..self._records {
                    self.valid[c * k + r].clock.next = self.clock.val();
                    self.valid[c * k + r].d.next = self.valid[c * k + r].q.val();
                    if self.cta.val() == self.cta_id[c].val() {
                        self.rd_hit[r].d.next = (self.valid[c * k + r].q.val() & self.warp_onehot.val()).any();
                    }
                }
            }
        }

        // ---------------- match: compare the header with each record ----------------
        for r in 0..4 {
            self.arr[r].next = self.k_zero32.val();
            if self.rd_hit[r].q.val() {
                self.arr[r].next = self.rd_raw[r].val().get_bits::<32>(0);
            }
            self.mem[r].next = self.rd_raw[r].val().get_bits::<32>(32);
            self.m_raw[r].d.next = self.rd_raw[r].val();
            // each record's flags as its bit of a 4-bit vector (ORed below)
            self.valid_b[r].next = self.k_zero4.val();
            self.same_b[r].next = self.k_zero4.val();
            self.over_b[r].next = self.k_zero4.val();
            self.done_b[r].next = self.k_zero4.val();
            if self.rd_hit[r].q.val() {
                self.valid_b[r].next = self.one4[r].val();
                if (self.mem[r].val() == self.member.val())
                    && (self.rd_raw[r].val().get_bits::<21>(64) == self.kind.val())
                {
                    self.same_b[r].next = self.one4[r].val();
                }
                if (self.mem[r].val() & self.live.val() & !self.arr[r].val()) == self.k_zero32.val() {
                    self.done_b[r].next = self.one4[r].val();
                }
            }
            if (self.arr[r].val() & self.active.val()).any() {
                self.over_b[r].next = self.one4[r].val();
            }
        }
        self.valid4.next =
            self.valid_b[0].val() | self.valid_b[1].val() | self.valid_b[2].val() | self.valid_b[3].val();
        self.same4.next = self.same_b[0].val() | self.same_b[1].val() | self.same_b[2].val() | self.same_b[3].val();
        self.over4.next = self.over_b[0].val() | self.over_b[1].val() | self.over_b[2].val() | self.over_b[3].val();
        self.done4.next = self.done_b[0].val() | self.done_b[1].val() | self.done_b[2].val() | self.done_b[3].val();
        self.m_valid4.d.next = self.valid4.val();
        self.m_same4.d.next = self.same4.val();
        self.m_over4.d.next = self.over4.val();
        self.m_done4.d.next = self.done4.val();
        self.m_full.d.next =
            (self.same4.val() == self.k_zero4.val()) && ((self.valid4.val() & self.k_mask.val()) == self.k_mask.val());

        // ---------------- look: the chosen record and the wait-for graph ----------------
        self.free4.next = !self.m_valid4.q.val() & self.k_mask.val();
        self.free_low.next = self.free4.val() & (!self.free4.val() + self.k_one4.val());
        self.over_low.next = self.m_over4.q.val() & (!self.m_over4.q.val() + self.k_one4.val());
        self.done_low.next = self.m_done4.q.val() & (!self.m_done4.q.val() + self.k_one4.val());
        // Join the record of the same mask and kind (at most one: a request joins rather than
        // opens one), else open the lowest free one; an exit acts on the lowest it completes.
        self.sel.next = self.m_same4.q.val();
        if self.m_same4.q.val() == self.k_zero4.val() {
            self.sel.next = self.free_low.val();
        }
        if self.is_exit.val() {
            self.sel.next = self.done_low.val();
        }
        self.sel_hit.next = (self.sel.val() & self.m_valid4.q.val()).any();
        self.sel_twice.next = !self.is_exit.val() && self.m_over4.q.val().any();
        self.sel_again.next = self.is_exit.val() && (self.m_done4.q.val() != self.done_low.val());
        self.hit.next = self.sel_hit.val();
        for r in 0..4 {
            self.m_arr[r].next = self.k_zero32.val();
            if self.rd_hit[r].q.val() {
                self.m_arr[r].next = self.m_raw[r].q.val().get_bits::<32>(0);
            }
            self.m_mem[r].next = self.m_raw[r].q.val().get_bits::<32>(32);
        }
        self.hit_raw.next = self.m_raw[0].q.val();
        for r in 0..4 {
            if self.sel.val().get_bit(r) {
                self.hit_raw.next = self.m_raw[r].q.val();
            }
        }
        self.twice.next = self.sel_twice.val();
        self.full.next = self.m_full.q.val();

        // The graph with the request's lanes added to its rendezvous (the chosen record).
        self.new_arr.next = self.active.val();
        for r in 0..4 {
            if self.sel.val().get_bit(r) {
                self.new_arr.next = self.m_arr[r].val() | self.active.val();
            }
        }
        for r in 0..4 {
            self.n_on[r].next = self.rd_hit[r].q.val();
            self.n_arr[r].next = self.m_arr[r].val();
            self.n_miss[r].next = self.m_mem[r].val() & self.live.val() & !self.m_arr[r].val();
            if self.sel.val().get_bit(r) {
                self.n_on[r].next = true;
                self.n_arr[r].next = self.new_arr.val();
                self.n_miss[r].next = self.member.val() & self.live.val() & !self.new_arr.val();
            }
        }
        // edge (i, j): i waits for j, as bit j of row i (`edge_r`) and bit i of column j (`edge_c`)
        for i in 0..4 {
            for j in 0..4 {
                self.edge_r[i * 4 + j].next = self.k_zero4.val();
                self.edge_c[i * 4 + j].next = self.k_zero4.val();
                if self.n_on[i].val() && self.n_on[j].val() && (self.n_miss[i].val() & self.n_arr[j].val()).any() {
                    self.edge_r[i * 4 + j].next = self.one4[j].val();
                    self.edge_c[i * 4 + j].next = self.one4[i].val();
                }
            }
        }
        for i in 0..4 {
            self.row[i].next = self.edge_r[i * 4].val()
                | self.edge_r[i * 4 + 1].val()
                | self.edge_r[i * 4 + 2].val()
                | self.edge_r[i * 4 + 3].val();
            self.col[i].next =
                self.edge_c[i].val() | self.edge_c[4 + i].val() | self.edge_c[8 + i].val() | self.edge_c[12 + i].val();
            // no self edges: a rendezvous never waits for its own lanes
            self.lk_row[i].d.next = self.row[i].val() & !self.one4[i].val();
            self.lk_col[i].d.next = self.col[i].val() & !self.one4[i].val();
            self.lk_arr[i].d.next = self.m_arr[i].val();
        }
        self.lk_sel.d.next = self.sel.val();
        self.lk_sel_valid.d.next = self.sel_hit.val();
        self.lk_twice.d.next = self.sel_twice.val();
        self.lk_over.d.next = self.over_low.val();
        self.lk_again.d.next = self.sel_again.val();
        self.lk_valid.d.next = self.m_valid4.q.val();

        // ---------------- take: the wait-for cycle through the request's rendezvous ----------------
        // fwd[t]: records reached from it in t + 1 steps or fewer; bwd[t]: those reaching it.
        self.part_f[0].next = self.k_zero4.val();
        self.part_b[0].next = self.k_zero4.val();
        for r in 0..4 {
            if self.lk_sel.q.val().get_bit(r) {
                self.part_f[0].next = self.lk_row[r].q.val();
                self.part_b[0].next = self.lk_col[r].q.val();
            }
        }
        self.fwd[0].next = self.lk_sel.q.val() | self.part_f[0].val();
        self.bwd[0].next = self.lk_sel.q.val() | self.part_b[0].val();
        for t in 1..4 {
            self.part_f[t].next = self.fwd[t - 1].val();
            self.part_b[t].next = self.bwd[t - 1].val();
        }
        for t in 1..4 {
            self.fwd[t].next = self.fwd[t - 1].val();
            self.bwd[t].next = self.bwd[t - 1].val();
        }
        for t in 1..4 {
            if self.step_on[t - 1].val() {
                self.fwd[t].next = self.fwd[t - 1].val()
                    | (self.lk_row[0].q.val() & (self.k_zero4.val() - (self.part_f[t].val() & self.k_one4.val())))
                    | (self.lk_row[1].q.val()
                        & (self.k_zero4.val() - ((self.part_f[t].val() >> 1u64) & self.k_one4.val())))
                    | (self.lk_row[2].q.val()
                        & (self.k_zero4.val() - ((self.part_f[t].val() >> 2u64) & self.k_one4.val())))
                    | (self.lk_row[3].q.val()
                        & (self.k_zero4.val() - ((self.part_f[t].val() >> 3u64) & self.k_one4.val())));
                self.bwd[t].next = self.bwd[t - 1].val()
                    | (self.lk_col[0].q.val() & (self.k_zero4.val() - (self.part_b[t].val() & self.k_one4.val())))
                    | (self.lk_col[1].q.val()
                        & (self.k_zero4.val() - ((self.part_b[t].val() >> 1u64) & self.k_one4.val())))
                    | (self.lk_col[2].q.val()
                        & (self.k_zero4.val() - ((self.part_b[t].val() >> 2u64) & self.k_one4.val())))
                    | (self.lk_col[3].q.val()
                        & (self.k_zero4.val() - ((self.part_b[t].val() >> 3u64) & self.k_one4.val())));
            }
        }
        self.members.next = self.fwd[3].val() & self.bwd[3].val();
        self.cycle.next = (self.members.val() & !self.lk_sel.q.val()).any();
        // The failed records: the one the lanes already wait at, else the cycle's pending ones.
        self.failed.next = self.members.val() & self.lk_valid.q.val();
        if self.lk_twice.q.val() {
            self.failed.next = self.lk_over.q.val();
        }
        for r in 0..4 {
            self.fail_part[r].next = self.k_zero32.val();
            if self.failed.val().get_bit(r) {
                self.fail_part[r].next = self.lk_arr[r].q.val();
            }
        }
        self.fail_lanes.next =
            self.fail_part[0].val() | self.fail_part[1].val() | self.fail_part[2].val() | self.fail_part[3].val();
        self.again.next = self.lk_again.q.val();

        // ---------------- take: write or drop records of the port's (cta, warp) ----------------
        self.drop.next = self.k_zero4.val();
        if self.clear_sel.val() {
            self.drop.next = self.lk_sel.q.val();
        }
        if self.clear_failed.val() {
            self.drop.next = self.failed.val();
        }
        for k in self._records..self._records_end {
            for c in 0..self._slots {
                for r in 0..self._records {
                    if self.cta.val() == self.cta_id[c].val() {
                        if self.write.val() && self.lk_sel.q.val().get_bit(r) {
                            // a record of no lanes is no record (as an arrival of no lanes is none)
                            if self.wdata.val().get_bits::<32>(0).any() {
                                self.valid[c * k + r].d.next = self.valid[c * k + r].q.val() | self.warp_onehot.val();
                            } else {
                                self.valid[c * k + r].d.next = self.valid[c * k + r].q.val() & !self.warp_onehot.val();
                            }
                        }
                        // (tested as a mask: with K < 4 records `drop`'s high bits are
                        // never set, and a whole-vector read leaves no bit unread)
                        if (self.drop.val() & self.one4[r].val()).any() {
                            self.valid[c * k + r].d.next = self.valid[c * k + r].q.val() & !self.warp_onehot.val();
                        }
                    }
                    if self.reset.val() {
                        self.valid[c * k + r].d.next = self.k_zero32.val();
                    }
                }
            }
        }
    }
}
