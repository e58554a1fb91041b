//! The mbarrier ALU's formal checker (`smsync prove --unit mbarrier_alu`; docs/units/mbarrier_alu.md,
//! "Formal properties").
//!
//! The checker `mbarrier_alu_formal` wraps the unit with
//! * a **symbolic object**: one mbarrier address (slot, word) chosen by the solver (`anyconst`),
//!   aligned and in range; every other address reads arbitrary data (`other_rdata`), so the
//!   properties hold at every address and whatever the rest of shared memory holds;
//! * a **shared-memory model** of that one word: 1R1W, synchronous read, read-before-write or
//!   write-first chosen per cycle by the solver (the unit must work with both);
//! * a **reference model** of the object, the PTX ISA's rules (§9.7.13.15) over the project's
//!   packing of the word (`encoding::mbarrier_word`), applied to each op on the object in order,
//!   in the cycle the unit writes it back (S1b, two cycles after the request);
//! * the **properties**, [`PROPERTIES`], each assertion labelled `<property>__<n>`.
//!
//! Inputs are free but for two assumptions: the unit is out of reset (the flip-flops' initial
//! values stand for it), and an op whose (slot, word) is the object's has exactly the object's
//! byte address (the other aliases — misaligned, or with high address bits — are refused by the
//! unit's request-only checks, which the reference model would then have to repeat).
//!
//! Not covered here: the waiter table's answers (`wake_*`) and the `wait` ops' predicate; see the
//! unit doc's "Not done yet".

use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, mbarrier_word as mw, Op};

use crate::formal::{min_depth, Fault, Property};

/// The checker's top module.
pub const CHECKER_TOP: &str = "mbarrier_alu_formal";

/// The properties, in the order `smsync prove` reports them.
pub const PROPERTIES: &[Property] = &[
    Property {
        name: "phase_completion",
        statement: "the phase completes (done strobe with the new parity; the word's parity flips, pending reloads) \
                    exactly when an arrive-on, complete-tx or expect-tx leaves the pending count and the tx-count \
                    both zero (PTX ISA 9.7.13.15.6)",
        closes: true,
        depth: min_depth,
    },
    Property {
        name: "tx_range",
        statement: "the tx-count stays within +-(2^20-1): an op that would leave the range is refused and writes \
                    nothing (PTX ISA 9.7.13.15.5, .11, .12)",
        closes: true,
        depth: min_depth,
    },
    Property {
        name: "arrive_drop",
        statement: "an accepted arrive_drop of count c lowers the expected count by c, for the current and the next \
                    phases (PTX ISA 9.7.13.15.14)",
        closes: true,
        depth: min_depth,
    },
    Property {
        name: "object_word",
        statement: "the object's word always equals the reference model's; only accepted ops that change the \
                    object write it, and an op is refused exactly when the reference refuses it \
                    (PTX ISA 9.7.13.15.9-.17)",
        closes: true,
        depth: min_depth,
    },
    Property {
        name: "answered_once",
        statement: "every request is answered exactly once, three cycles later, with its requester's cta/warp/lane; \
                    no response comes without a request (no op lost or answered twice)",
        closes: true,
        depth: min_depth,
    },
    Property {
        name: "write_held",
        statement: "every write-back falls in a cycle whose write port the unit held a cycle ahead (`mem_we_hold`, \
                    the flip-flop the sync-unit top arbitrates the other writers on), and the port is held only \
                    for an op in S1b",
        closes: true,
        depth: min_depth,
    },
];

/// One deliberate bug per property: a one-place edit of the generated `mbarrier_alu.v`.
pub const FAULTS: &[Fault] = &[
    Fault {
        name: "completion_ignores_tx",
        property: "phase_completion",
        bug: "the phase completes when the pending count reaches zero even if the tx-count is not zero \
              (in S1b's update of the word read from memory)",
        within: Some("mbarrier_alu$upd$0"),
        find: "& (pending == k_zero20))) & tx_zero;",
        replace: "& (pending == k_zero20)));",
    },
    Fault {
        name: "tx_sum_unchecked",
        property: "tx_range",
        bug: "the range check of tx + delta is gone (only a txCount above 2(2^20-1) is refused; in S1b's \
              update of the word read from memory)",
        within: Some("mbarrier_alu$upd$0"),
        find: "fail = fail_other | (tx_checked & ((tx_s > tx_hi) | (tx_s < tx_lo)));",
        replace: "fail = fail_other;",
    },
    Fault {
        name: "drop_keeps_expected",
        property: "arrive_drop",
        bug: "arrive_drop leaves the expected count unchanged (in S1b's update of the word read from memory)",
        within: Some("mbarrier_alu$upd$0"),
        find: "expected_new = expected64 - cnt64;",
        replace: "expected_new = expected64;",
    },
    Fault {
        name: "no_s1b_forwarding",
        property: "object_word",
        bug: "S1b does not forward the write of the op just ahead: back-to-back ops on one object lose a write",
        within: None,
        find: "sel_fwd = s2_same$q & fwd_valid$q;",
        replace: "sel_fwd = 1'b0;",
    },
    Fault {
        name: "suspended_response_lost",
        property: "answered_once",
        bug: "the response of a try_wait that suspends is dropped",
        within: None,
        find: "resp_valid = o_valid$q;",
        replace: "resp_valid = o_valid$q & ~o_suspended$q;",
    },
    Fault {
        name: "hold_not_raised",
        property: "write_held",
        bug: "the write port is not held for an init (the top would let another unit write in its cycle)",
        within: None,
        find: "mem_we_hold = we_hold$q;",
        replace: "mem_we_hold = we_hold$q & ~s2_init$q;",
    },
];

/// The checker's SystemVerilog for `config` (the object's address range comes from it).
pub fn checker_verilog(config: &Config) -> String {
    let op = |o: Op| format!("6'd{}", o.code());
    let flag = |f: u8| format!("8'd{f}");
    let substitutions: Vec<(&str, String)> = vec![
        ("@OP_INIT@", op(Op::MbInit)),
        ("@OP_INVAL@", op(Op::MbInval)),
        ("@OP_ARRIVE@", op(Op::MbArrive)),
        ("@OP_DROP@", op(Op::MbArriveDrop)),
        ("@OP_EXPECT@", op(Op::MbExpectTx)),
        ("@OP_COMPLETE@", op(Op::MbCompleteTx)),
        ("@OP_TEST@", op(Op::MbTestWait)),
        ("@OP_TRY@", op(Op::MbTryWait)),
        ("@OP_PCOUNT@", op(Op::MbPendingCount)),
        ("@OP_CP_ARRIVE@", op(Op::MbCpAsyncArrive)),
        ("@F_NO_COMPLETE@", flag(flags::NO_COMPLETE)),
        ("@F_EXPECT_TX@", flag(flags::EXPECT_TX)),
        ("@F_PARITY@", flag(flags::PARITY)),
        ("@F_NO_INC@", flag(flags::NO_INC)),
        ("@COUNT_MAX@", format!("20'd{}", mw::COUNT_MAX)),
        ("@LAST_OFFSET@", format!("64'd{}", config.shared_bytes as u64 - 8)),
        ("@LAST_SLOT@", format!("5'd{}", config.cta_slots - 1)),
        ("@CONFIG@", config.name.clone()),
    ];
    substitutions.iter().fold(TEMPLATE.to_string(), |text, (key, value)| text.replace(key, value))
}

// The template reads the word's fields at fixed bit positions; pin them to the layout table.
const _: () = assert!(
    mw::EXPECTED_LSB == 0
        && mw::PENDING_LSB == 20
        && mw::TX_LSB == 40
        && mw::COUNT_BITS == 20
        && mw::TX_BITS == 21
        && mw::PARITY_BIT == 61
        && mw::VALID_BIT == 62
);

const TEMPLATE: &str = r#"// Formal checker of mbarrier_alu (config `@CONFIG@`), written by smsync prove; do not edit.
// Properties: PTX ISA 9.7.13.15 (mbarrier). See hdl/src/mbarrier_alu/formal.rs.
module mbarrier_alu_formal (
    input wire clock,
    input wire req_valid,
    input wire [5:0] req_op,
    input wire [7:0] req_flags,
    input wire [4:0] req_cta,
    input wire [4:0] req_warp,
    input wire [4:0] req_lane,
    input wire [4:0] req_slot,
    input wire [63:0] req_addr,
    input wire [63:0] req_a,
    input wire [63:0] req_b,
    input wire [63:0] other_rdata,
    input wire write_first,
    input wire timeout,
    input wire launch,
    input wire [4:0] launch_slot
);
    localparam [5:0] OP_INIT = @OP_INIT@, OP_INVAL = @OP_INVAL@, OP_ARRIVE = @OP_ARRIVE@, OP_DROP = @OP_DROP@,
        OP_EXPECT = @OP_EXPECT@, OP_COMPLETE = @OP_COMPLETE@, OP_TEST = @OP_TEST@, OP_TRY = @OP_TRY@,
        OP_PCOUNT = @OP_PCOUNT@, OP_CP_ARRIVE = @OP_CP_ARRIVE@;
    localparam [7:0] F_NO_COMPLETE = @F_NO_COMPLETE@, F_EXPECT_TX = @F_EXPECT_TX@, F_PARITY = @F_PARITY@,
        F_NO_INC = @F_NO_INC@;
    localparam [19:0] COUNT_MAX = @COUNT_MAX@;
    localparam [63:0] LAST_OFFSET = @LAST_OFFSET@;
    localparam [4:0] LAST_SLOT = @LAST_SLOT@;

    // ---------------- the unit ----------------
    wire mem_rd, mem_we_next, mem_we_hold, mem_we, resp_valid, resp_pred, resp_suspended, done_valid, done_parity;
    wire wake_valid, wake_pred;
    wire [4:0] mem_rd_slot, mem_wr_slot, resp_cta, resp_warp, resp_lane, done_slot, wake_cta, wake_warp, wake_lane;
    wire [14:0] mem_rd_word, mem_wr_word, done_word;
    wire [63:0] mem_wdata, resp_value, mem_rdata;
    wire [5:0] resp_error;
    mbarrier_alu dut (
        .clock(clock), .reset(1'b0), .req_valid(req_valid), .req_op(req_op), .req_flags(req_flags),
        .req_cta(req_cta), .req_warp(req_warp), .req_lane(req_lane), .req_slot(req_slot), .req_addr(req_addr),
        .req_a(req_a), .req_b(req_b), .mem_rd(mem_rd), .mem_rd_slot(mem_rd_slot), .mem_rd_word(mem_rd_word),
        .mem_rdata(mem_rdata), .mem_we_next(mem_we_next), .mem_we_hold(mem_we_hold), .mem_we(mem_we), .mem_wr_slot(mem_wr_slot),
        .mem_wr_word(mem_wr_word), .mem_wdata(mem_wdata), .resp_valid(resp_valid), .resp_cta(resp_cta),
        .resp_warp(resp_warp), .resp_lane(resp_lane), .resp_value(resp_value), .resp_pred(resp_pred),
        .resp_suspended(resp_suspended), .resp_error(resp_error), .done_valid(done_valid), .done_slot(done_slot),
        .done_word(done_word), .done_parity(done_parity), .timeout(timeout), .launch(launch),
        .launch_slot(launch_slot), .wake_valid(wake_valid), .wake_cta(wake_cta), .wake_warp(wake_warp),
        .wake_lane(wake_lane), .wake_pred(wake_pred)
    );

    // ---------------- the symbolic object: any aligned, in-range address ----------------
    (* anyconst *) reg [4:0] sym_slot;
    (* anyconst *) reg [14:0] sym_word;
    wire [63:0] sym_addr = {46'd0, sym_word, 3'd0};
    always @* assume(sym_slot <= LAST_SLOT && sym_addr <= LAST_OFFSET);
    wire req_sym = req_slot == sym_slot && req_addr == sym_addr;
    // An op on the object's RAM word uses the object's exact byte address (see the Rust doc).
    always @* if (req_valid && req_slot == sym_slot && req_addr[17:3] == sym_word) assume(req_sym);

    // ---------------- shared memory at the object: 1R1W, synchronous read ----------------
    // Zeroed at start (no valid object); `write_first` picks the RAM's collision behaviour.
    reg [63:0] mem_obj = 64'd0;
    reg rd_sym = 1'b0;
    reg [63:0] rd_data = 64'd0;
    wire wr_sym = mem_we && mem_wr_slot == sym_slot && mem_wr_word == sym_word;
    always @(posedge clock) begin
        rd_sym <= mem_rd && mem_rd_slot == sym_slot && mem_rd_word == sym_word;
        rd_data <= (write_first && wr_sym) ? mem_wdata : mem_obj;
        if (wr_sym) mem_obj <= mem_wdata;
    end
    assign mem_rdata = rd_sym ? rd_data : other_rdata;

    // ---------------- the requests, delayed to S1a (1), S1b (2) and the response (3) ----------------
    reg v1 = 0, v2 = 0, v3 = 0;
    reg s1 = 0, s2 = 0, s3 = 0;
    reg [14:0] id1 = 0, id2 = 0, id3 = 0;
    reg [5:0] op1 = 0, op2 = 0;
    reg [7:0] fl1 = 0, fl2 = 0;
    reg [63:0] a1 = 0, a2 = 0, b1 = 0, b2 = 0;
    always @(posedge clock) begin
        v1 <= req_valid; v2 <= v1; v3 <= v2;
        s1 <= req_valid && req_sym; s2 <= s1; s3 <= s2;
        id1 <= {req_cta, req_warp, req_lane}; id2 <= id1; id3 <= id2;
        op1 <= req_op; op2 <= op1;
        fl1 <= req_flags; fl2 <= fl1;
        a1 <= req_a; a2 <= a1;
        b1 <= req_b; b2 <= b1;
    end

    // ---------------- reference model of the object (PTX ISA 9.7.13.15) ----------------
    // The word: expected [19:0], pending [39:20], tx-count [60:40] (two's complement), phase
    // parity [61], valid [62]. `op2`.. is the op on the object now in S1b (when `s2`).
    reg [63:0] ref_word = 64'd0;
    wire V = ref_word[62];
    wire P = ref_word[61];
    wire [33:0] T = {{13{ref_word[60]}}, ref_word[60:40]};
    wire [19:0] N = ref_word[39:20];
    wire [19:0] E = ref_word[19:0];
    wire [33:0] TX_MAX = {14'd0, COUNT_MAX};

    wire is_arrive = op2 == OP_ARRIVE || op2 == OP_DROP;  // arrive-on (9.7.13.15.7)
    wire is_drop = op2 == OP_DROP;
    wire is_wait = op2 == OP_TEST || op2 == OP_TRY;
    wire expect_tx = (fl2 & F_EXPECT_TX) != 0;
    wire no_complete = (fl2 & F_NO_COMPLETE) != 0;
    // cp.async.mbarrier.arrive without .noinc: pending += 1, no completion (9.7.13.15.15).
    wire cp_inc = op2 == OP_CP_ARRIVE && (fl2 & F_NO_INC) == 0;
    wire known = op2 == OP_INIT || op2 == OP_INVAL || is_arrive || op2 == OP_EXPECT || op2 == OP_COMPLETE
        || is_wait || op2 == OP_CP_ARRIVE;
    // arrive.expect_tx arrives once (9.7.13.15.13); its txCount is operand b.
    wire [63:0] count = (is_arrive && expect_tx) ? 64'd1 : a2;
    wire tx_op = (is_arrive && expect_tx) || op2 == OP_EXPECT || op2 == OP_COMPLETE;
    // txCount is a .b32 operand: expect-tx adds it, complete-tx subtracts it (9.7.13.15.5).
    wire [33:0] tx_k = tx_op ? {2'd0, (is_arrive ? b2[31:0] : a2[31:0])} : 34'd0;
    wire [33:0] tx_after = op2 == OP_COMPLETE ? T - tx_k : T + tx_k;
    wire tx_out_of_range = $signed(tx_after) > $signed(TX_MAX) || $signed(tx_after) < -$signed(TX_MAX);
    wire [63:0] pending_after = is_arrive ? {44'd0, N} - count : cp_inc ? {44'd0, N} + 64'd1 : {44'd0, N};
    // arrive_drop: the expected count of this and the following phases drops by count (9.7.13.15.14).
    wire [19:0] expected_after = is_drop ? E - count[19:0] : E;
    // 9.7.13.15.6: the phase completes when the pending count and the tx-count are both zero,
    // checked after arrive-on and complete-tx (and after a standalone expect-tx: a project choice,
    // docs/units/mbarrier_alu.md).
    wire evaluates = is_arrive || op2 == OP_EXPECT || op2 == OP_COMPLETE;
    wire completes = evaluates && pending_after == 64'd0 && tx_after == 34'd0;
    // Refused ops (the project's errors for the ISA's undefined cases) write nothing.
    reg refused;
    always @* begin
        refused = 1'b0;
        if (op2 == OP_PCOUNT) refused = !(a2[63] && a2[20]);
        else if (!known) refused = 1'b1;
        else if (op2 == OP_INIT) refused = a2 == 64'd0 || a2 > {44'd0, COUNT_MAX} || V;  // 9.7.13.15.9
        else if (!V) refused = 1'b1;  // every other op needs an initialized object (9.7.13.15.3)
        else if (is_arrive && (count == 64'd0 || count > {44'd0, COUNT_MAX})) refused = 1'b1;
        else if (tx_op && tx_out_of_range) refused = 1'b1;
        else if (is_drop && count >= {44'd0, E}) refused = 1'b1;
        else if (is_arrive && count > {44'd0, N}) refused = 1'b1;
        else if (is_arrive && no_complete && completes) refused = 1'b1;  // .noComplete must not complete
        else if (cp_inc && N == COUNT_MAX) refused = 1'b1;
        else if (is_wait && (fl2 & F_PARITY) != 0 && a2 > 64'd1) refused = 1'b1;
        else if (is_wait && (fl2 & F_PARITY) == 0 && !a2[63]) refused = 1'b1;
    end
    wire changes = op2 == OP_INIT || op2 == OP_INVAL || is_arrive || op2 == OP_EXPECT || op2 == OP_COMPLETE || cp_inc;
    wire ref_writes = s2 && changes && !refused;
    reg [63:0] ref_new;
    always @* begin
        if (op2 == OP_INIT)  // phase 0, pending = expected = count, tx-count 0 (9.7.13.15.9)
            ref_new = {2'b01, 1'b0, 21'd0, a2[19:0], a2[19:0]};
        else if (op2 == OP_INVAL)  // the object is invalid; the other bits are left (9.7.13.15.10)
            ref_new = {ref_word[63], 1'b0, ref_word[61:0]};
        else  // on completion the parity flips and pending reloads from expected (9.7.13.15.4)
            ref_new = {1'b0, 1'b1, P ^ completes, tx_after[20:0], completes ? expected_after : pending_after[19:0],
                expected_after};
    end
    always @(posedge clock) if (ref_writes) ref_word <= ref_new;

    // What the response of the op now in S1b must show, one cycle later.
    reg exp_refused = 0, exp_completes = 0, exp_new_parity = 0, exp_tx_refused = 0;
    always @(posedge clock) begin
        exp_refused <= refused;
        exp_completes <= s2 && !refused && completes;
        exp_new_parity <= !P;
        exp_tx_refused <= s2 && V && tx_op && tx_out_of_range;
    end

    // ---------------- properties ----------------
    wire done_sym = done_valid && done_slot == sym_slot && done_word == sym_word;
    wire accepted_change = s2 && !refused && changes && op2 != OP_INIT && op2 != OP_INVAL;
    always @* begin
`ifdef CHECK_phase_completion
        // phase_completion (9.7.13.15.6)
        phase_completion__1: assert(done_sym == exp_completes);
        if (done_sym) begin
            phase_completion__2: assert(done_parity == exp_new_parity);
        end
        if (accepted_change) begin
            phase_completion__3: assert(wr_sym && mem_wdata[61] == (P ^ completes));
            phase_completion__4: assert(mem_wdata[39:20] == (completes ? expected_after : pending_after[19:0]));
        end
`endif

`ifdef CHECK_tx_range
        // tx_range (9.7.13.15.5): 21'h100000 is the one 21-bit value outside +-(2^20-1).
        if (mem_obj[62]) begin
            tx_range__1: assert(mem_obj[60:40] != 21'h100000);
        end
        if (s2 && V && tx_op && tx_out_of_range) begin
            tx_range__2: assert(!wr_sym);
        end
        if (s3 && exp_tx_refused) begin
            tx_range__3: assert(resp_error != 6'd0);
        end
`endif

`ifdef CHECK_arrive_drop
        // arrive_drop (9.7.13.15.14)
        if (s2 && is_drop && !refused) begin
            arrive_drop__1: assert(wr_sym && mem_wdata[19:0] == E - count[19:0]);
            if (completes) begin
                arrive_drop__2: assert(mem_wdata[39:20] == E - count[19:0]);
            end
        end
`endif

`ifdef CHECK_object_word
        // object_word (9.7.13.15.9-.17)
        object_word__1: assert(mem_obj == ref_word);
        object_word__2: assert(wr_sym == ref_writes);
        if (ref_writes) begin
            object_word__3: assert(mem_wdata == ref_new);
        end
        if (s3) begin
            object_word__4: assert((resp_error != 6'd0) == exp_refused);
        end
`endif

`ifdef CHECK_write_held
        // write_held: the top's write-port arbitration relies on it
        if (mem_we) begin
            write_held__1: assert(mem_we_hold);
        end
        if (mem_we_hold) begin
            write_held__2: assert(v2);
        end
`endif

`ifdef CHECK_answered_once
        // answered_once
        answered_once__1: assert(resp_valid == v3);
        if (resp_valid) begin
            answered_once__2: assert({resp_cta, resp_warp, resp_lane} == id3);
        end
`endif
    end
endmodule
"#;
