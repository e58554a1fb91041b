//! The copy engine's formal checker (`smsync prove --unit copy_engine`; docs/units/copy_engine.md,
//! "Formal properties").
//!
//! The checker `copy_engine_formal` wraps the unit with
//! * a **sender** of lane ops of four kinds: `cp.async` (PTX ISA §9.7.9.25.3.1),
//!   `cp.async.commit_group` (.3.2), `cp.async.wait_group` / `wait_all` (.3.3) and
//!   `cp.async.bulk` global → shared::cta with an mbarrier, no multicast (.4.1); any CTA slot and
//!   warp in range, any lane; sizes, cp-size, src-size, ignore-src, `imm` / `imm2`, flags free;
//!   addresses free within the checker's windows (shared destinations and mbarriers below 1 MiB,
//!   in and out of shared memory; global sources in `[GLOBAL_BASE, GLOBAL_BASE + 1 MiB)`, and
//!   `global_end` any constant), so malformed requests are refused and move nothing;
//! * **memories** answering by their port protocols: global reads answered in order after one
//!   cycle or more and held while `gm_rready` is low, every grant free; the mbarrier unit
//!   answering the events in order, three cycles or more after each, with free errors; the live
//!   map's hits free (a destination on a live object or a dead mbarrier is refused). Read data
//!   is zero and tags are zero: no property reads them;
//! * a **tracked copy**, a request the solver picks (`mark_c`, at most one): a bulk copy or a
//!   cp.async of slot `sym_slot` with destination bytes `[sym_dst, sym_dst + sym_len)` inside
//!   shared memory (`anyconst`), a bulk copy's on the mbarrier at `sym_mb` of its CTA; a
//!   **tracked wait** (`mark_w`) of the tracked cp.async's thread after it; a **tracked
//!   request** (`mark_a`) of any kind for the answers;
//! * a **reference** from the PTX ISA's definitions: a bulk copy's complete_tx carries its size
//!   (§9.7.9.25.4.1 and the mbarrier completion mechanism, §9.7.9.25.1) once its writes are done;
//!   `wait_group N` waits for every committed group of the thread but the N newest, `wait_all`
//!   for all (§9.7.9.25.3.3); the tracked copy's bytes written (a count, and one probe byte
//!   `pb` anywhere in it); answers in request order (the controller takes one lane op at a time);
//! * the **properties**, [`PROPERTIES`], each assertion labelled `<property>__<n>`.
//!
//! Assumptions beside the protocols (the checker's scope): no reset after the start (the
//! flip-flops' initial values stand for it); no other copy writes a byte of the tracked copy's
//! destination, at any time (copies in flight on the same bytes race, PTX ISA §8), and no other
//! bulk copy of its CTA names the tracked mbarrier (so every complete_tx on it is the tracked
//! copy's: a per-copy statement). Not covered: the bytes' values, bulk groups, tensor copies,
//! reduces, multicast, shared::cluster, cp.async.mbarrier.arrive, the error codes.
//!
//! No property closes in minutes: induction is not tried (the unit's queues and thread table start
//! unconstrained in its step) and BMC grows about 1.6x per step past step 10 (docs/units/copy_engine.md).

use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, BulkDir, ErrorCode, Op, Space};
use smsync_contract::memory_map::GLOBAL_BASE;

use crate::formal::{min_depth, Fault, Property};
use crate::sync_unit::live_map::WORD_BITS;

/// The checker's top module.
pub const CHECKER_TOP: &str = "copy_engine_formal";

/// The properties, in the order `smsync prove` reports them.
pub const PROPERTIES: &[Property] = &[
    Property {
        name: "answered_once",
        statement: "every accepted lane op is answered exactly once, in order, naming its CTA slot, warp and lane; \
                    no answer without a request",
        closes: false,
        depth: min_depth,
    },
    Property {
        name: "tx_bytes",
        statement: "the complete_tx the engine sends to a bulk copy's mbarrier carries the copy's size, once, only \
                    for a copy it accepted, and only after every byte of the copy is written (as many bytes \
                    written as the size, never more) (PTX ISA 9.7.9.25.4.1, 9.7.9.25.1)",
        closes: false,
        depth: min_depth,
    },
    Property {
        name: "group_after_copies",
        statement: "cp.async.wait_group N (wait_all) is answered only after every byte of each cp.async of the \
                    thread in a committed group older than its N newest (all its cp.async) is written \
                    (PTX ISA 9.7.9.25.3.2, 9.7.9.25.3.3)",
        closes: false,
        depth: min_depth,
    },
];

/// One deliberate bug per property at least: a one-place edit of the generated `copy_engine.v`.
pub const FAULTS: &[Fault] = &[
    Fault {
        name: "commit_answer_lost",
        property: "answered_once",
        bug: "the answer to cp.async.commit_group is never sent",
        within: None,
        find: "r_valid$d = done & (state$q > 32'h1) & ~reset;",
        replace: "r_valid$d = done & (state$q > 32'h1) & ~reset & ~is_commit;",
    },
    Fault {
        name: "complete_tx_of_last_beat",
        property: "tx_bytes",
        bug: "a move's complete_tx carries its last beat's bytes, not the move's",
        within: Some("copy_engine$mover"),
        find: "tx_bytes = f_desc[(32'h9c)+:(32)];",
        replace: "tx_bytes = f_n;",
    },
    Fault {
        name: "complete_at_first_beat",
        property: "tx_bytes",
        bug: "a move to shared memory completes (and sends its complete_tx) at each beat, not at its last",
        within: Some("copy_engine$mover"),
        find: "if (f_valid & ~f_to_gm & f_last) begin",
        replace: "if (f_valid & ~f_to_gm) begin",
    },
    Fault {
        name: "newest_move_counted_complete",
        property: "group_after_copies",
        bug: "the newest move issued counts as complete (the in-flight window one short)",
        within: None,
        find: "in_flight = issued_seq$q - completed_seq$q;",
        replace: "in_flight = issued_seq$q - completed_seq$q - 32'h1;",
    },
];

/// The checker's SystemVerilog for `config` (the port width, slot and warp ranges and the codes
/// come from it).
pub fn checker_verilog(config: &Config) -> String {
    let b = config.copy_port_bytes as usize;
    let op = |o: Op| format!("6'd{}", o.code());
    let substitutions: Vec<(&str, String)> = vec![
        ("@B@", b.to_string()),
        ("@WB@", WORD_BITS.to_string()),
        ("@OP_CP@", op(Op::CpAsync)),
        ("@OP_COMMIT@", op(Op::CpAsyncCommit)),
        ("@OP_WAIT@", op(Op::CpAsyncWait)),
        ("@OP_BULK@", op(Op::CpBulk)),
        ("@OP_CTX@", op(Op::MbCompleteTx)),
        ("@DIR_G2S@", format!("4'd{}", BulkDir::GlobalToShared.code())),
        ("@SP_CLUSTER@", format!("2'd{}", Space::SharedCluster.code())),
        ("@F_MULTICAST@", format!("8'd{}", flags::MOD_B)),
        ("@E_NONE@", format!("6'd{}", ErrorCode::None.code())),
        ("@SHARED_BYTES@", format!("32'd{}", config.shared_bytes)),
        ("@LAST_SLOT@", format!("5'd{}", config.cta_slots - 1)),
        ("@LAST_WARP@", format!("5'd{}", config.max_warps_per_cta - 1)),
        ("@GLOBAL_HI@", format!("44'h{:x}", GLOBAL_BASE >> 20)),
        ("@CONFIG@", config.name.clone()),
    ];
    substitutions.iter().fold(TEMPLATE.to_string(), |text, (key, value)| text.replace(key, value))
}

const TEMPLATE: &str = r#"// Formal checker of copy_engine (config `@CONFIG@`), written by smsync prove; do not edit.
// Properties: PTX ISA 9.7.9.25.4.1 (cp.async.bulk's complete_tx), 9.7.9.25.3.2-3 (cp.async
// groups), one answer per lane op. See hdl/src/copy_engine/formal.rs.

// One marked request of the in-order answer stream: where it is, and the cycle of its answer.
module copy_engine_formal_track (
    input wire clock,
    input wire mark,            // the marked request is accepted this cycle
    input wire [3:0] ahead,     // requests accepted before it and not answered (this cycle's answer counted)
    input wire resp_valid,
    output reg marked,
    output wire answering,      // its answer is on the response port this cycle
    output reg answered
);
    reg [3:0] pos = 0;
    initial marked = 1'b0;
    initial answered = 1'b0;
    assign answering = marked && !answered && resp_valid && pos == 0;
    always @(posedge clock) begin
        if (mark) begin
            marked <= 1'b1;
            pos <= ahead;
        end else if (marked && resp_valid && pos != 0) pos <= pos - 4'd1;
        if (answering) answered <= 1'b1;
    end
endmodule

module copy_engine_formal (
    input wire clock,
    input wire in_valid,
    input wire [5:0] in_op,
    input wire [3:0] in_sub,
    input wire [7:0] in_flags,
    input wire [1:0] in_space,
    input wire [15:0] in_imm,
    input wire [7:0] in_imm2,
    input wire [4:0] in_cta,
    input wire [4:0] in_warp,
    input wire [4:0] in_lane,
    input wire [19:0] in_addr_lo,   // shared offsets below 1 MiB (the checker's scope)
    input wire [19:0] in_src_lo,    // global sources in [GLOBAL_BASE, GLOBAL_BASE + 1 MiB)
    input wire [19:0] in_mbar_lo,
    input wire [31:0] in_a_lo,      // cp.async src-size, a bulk copy's size
    input wire in_ignore_src,
    input wire mark_c,              // this request is the tracked copy
    input wire mark_w,              // this request is the tracked wait
    input wire mark_a,              // this request is the tracked request (answers)
    input wire gm_grant,
    input wire gm_rvalid,
    input wire sm_rgrant,
    input wire sm_wgrant,
    input wire mb_ready,
    input wire mb_resp_valid,
    input wire [5:0] mb_resp_error,
    input wire late_ready,
    input wire [31:0] live_hits,
    input wire [31:0] live_mb_hits
);
    localparam integer B = @B@;
    localparam [5:0] OP_CP = @OP_CP@, OP_COMMIT = @OP_COMMIT@, OP_WAIT = @OP_WAIT@, OP_BULK = @OP_BULK@,
        OP_CTX = @OP_CTX@, E_NONE = @E_NONE@;
    localparam [3:0] DIR_G2S = @DIR_G2S@;
    localparam [1:0] SP_CLUSTER = @SP_CLUSTER@;
    localparam [7:0] F_MULTICAST = @F_MULTICAST@;
    localparam [4:0] LAST_SLOT = @LAST_SLOT@, LAST_WARP = @LAST_WARP@;
    localparam [43:0] GLOBAL_HI = @GLOBAL_HI@;

    // ---------------- the unit ----------------
    // The request's fields the four ops read, in the checker's ranges; the rest zero. Data is
    // zero (no property reads it), the element port idle (no reduce).
    wire [63:0] in_addr = {44'd0, in_addr_lo}, in_src = {GLOBAL_HI, in_src_lo}, in_mbar = {44'd0, in_mbar_lo};
    wire [127:0] in_a = {96'd0, in_a_lo};
    wire [63:0] in_b = {63'd0, in_ignore_src};
    wire req_ready, resp_valid, mb_valid, late_valid, gm_req, gm_we, gm_rready, sm_re, sm_rwant, sm_we, busy;
    wire [4:0] resp_cta, resp_warp, resp_lane, mb_slot, late_cta, late_warp, late_lane, sm_rslot, sm_wslot;
    wire [5:0] resp_error, mb_op, late_error;
    wire [7:0] mb_flags;
    wire [63:0] mb_addr, mb_a, late_tag, gm_addr;
    wire [8*B-1:0] gm_wdata, sm_wdata;
    wire [B-1:0] gm_be, sm_be;
    wire [23:0] sm_raddr, sm_waddr;
    wire elem_req;
    wire [3:0] elem_op, elem_dtype;
    wire [127:0] elem_r, elem_s;
    wire [@WB@-1:0] live_lo, live_hi, live_mb;
    wire [15:0] live_xh, live_xt;
    wire live_empty;
    (* anyconst *) reg [63:0] global_end;
    copy_engine dut (
        .clock(clock), .reset(1'b0),
        .req_valid(in_valid), .req_ready(req_ready), .req_op(in_op), .req_sub(in_sub), .req_dtype(4'd0),
        .req_flags(in_flags), .req_space(in_space), .req_imm(in_imm), .req_imm2(in_imm2), .req_cta(in_cta),
        .req_warp(in_warp), .req_lane(in_lane), .req_addr(in_addr), .req_src(in_src), .req_mbar(in_mbar),
        .req_a(in_a), .req_b(in_b), .req_c(32'd0), .req_tag(64'd0),
        .resp_valid(resp_valid), .resp_cta(resp_cta), .resp_warp(resp_warp), .resp_lane(resp_lane),
        .resp_error(resp_error),
        .mb_valid(mb_valid), .mb_ready(mb_ready), .mb_op(mb_op), .mb_flags(mb_flags), .mb_slot(mb_slot),
        .mb_addr(mb_addr), .mb_a(mb_a), .mb_resp_valid(mb_resp_valid), .mb_resp_error(mb_resp_error),
        .late_valid(late_valid), .late_ready(late_ready), .late_tag(late_tag), .late_cta(late_cta),
        .late_warp(late_warp), .late_lane(late_lane), .late_error(late_error),
        .gm_req(gm_req), .gm_grant(gm_grant), .gm_we(gm_we), .gm_addr(gm_addr), .gm_wdata(gm_wdata),
        .gm_be(gm_be), .gm_rvalid(gm_rvalid), .gm_rready(gm_rready), .gm_rdata({8*B{1'b0}}),
        .sm_re(sm_re), .sm_rwant(sm_rwant), .sm_rgrant(sm_rgrant), .sm_wgrant(sm_wgrant),
        .global_end(global_end), .sm_rslot(sm_rslot), .sm_raddr(sm_raddr), .sm_rdata({8*B{1'b0}}),
        .sm_we(sm_we), .sm_wslot(sm_wslot), .sm_waddr(sm_waddr), .sm_wdata(sm_wdata), .sm_be(sm_be),
        .busy(busy),
        .elem_req(elem_req), .elem_op(elem_op), .elem_dtype(elem_dtype), .elem_r(elem_r), .elem_s(elem_s),
        .elem_grant(1'b0), .elem_value(128'd0),
        .live_lo(live_lo), .live_hi(live_hi), .live_xh(live_xh), .live_xt(live_xt), .live_empty(live_empty),
        .live_hits(live_hits), .live_mb(live_mb), .live_mb_hits(live_mb_hits)
    );

    // ---------------- memories: global reads in order, >= 1 cycle, held; mbarrier answers >= 3 cycles ----------------
    reg [5:0] gm_out = 0;               // reads issued, data not yet taken
    reg rv_held = 1'b0;                 // read data offered and not taken last cycle
    always @* begin
        assume(!gm_rvalid || gm_out != 0);
        if (rv_held) assume(gm_rvalid);
    end
    wire gm_read = gm_req && gm_grant && !gm_we;
    wire gm_taken = gm_rvalid && gm_rready;
    reg t1 = 1'b0, t2 = 1'b0, t3 = 1'b0;  // an mbarrier event taken 1, 2, 3 cycles ago
    reg [4:0] mb_out = 0;                 // events taken 4 or more cycles ago and not answered
    always @* assume(!mb_resp_valid || mb_out != 0 || t3);
    always @(posedge clock) begin
        gm_out <= gm_out + gm_read - gm_taken;
        rv_held <= gm_rvalid && !gm_rready;
        t1 <= mb_valid && mb_ready; t2 <= t1; t3 <= t2;
        mb_out <= mb_out + t3 - mb_resp_valid;
    end

    // ---------------- the tracked copy's constants ----------------
    (* anyconst *) reg sym_cp;          // the tracked copy is a cp.async (else a bulk copy)
    (* anyconst *) reg [4:0] sym_slot;
    (* anyconst *) reg [31:0] sym_dst;  // its destination bytes [sym_dst, sym_dst + sym_len)
    (* anyconst *) reg [31:0] sym_len;
    (* anyconst *) reg [23:0] sym_mb;   // a bulk copy's mbarrier
    (* anyconst *) reg [31:0] pb;       // the probe byte, an offset in the copy
    always @* assume(sym_slot <= LAST_SLOT && sym_len != 0 && {1'b0, sym_dst} + {1'b0, sym_len} <= {1'b0, @SHARED_BYTES@}
        && pb < sym_len);

    // ---------------- requests: the four ops, of slots and warps in range ----------------
    wire c_marked, c_answering, c_answered, w_marked, w_answering, w_answered, a_marked, a_answering, a_answered;
    reg [4:0] c_warp = 0, c_lane = 0;   // the tracked copy's thread (slot sym_slot)
    // a request of the tracked cp.async's thread, after it
    wire tr_thread = c_marked && sym_cp && in_cta == sym_slot && in_warp == c_warp && in_lane == c_lane;
    wire acc = in_valid && req_ready;
    wire is_cp = in_op == OP_CP, is_bulk = in_op == OP_BULK;
    wire [31:0] in_len = is_cp ? {16'd0, in_imm} : in_a[31:0];
    wire in_tracked = mark_c && (sym_cp ? is_cp : is_bulk) && in_cta == sym_slot && in_addr == {32'd0, sym_dst}
        && in_len == sym_len && (sym_cp || in_mbar == {40'd0, sym_mb});
    reg c_marked_any = 1'b0, w_marked_any = 1'b0, a_marked_any = 1'b0;
    always @* if (in_valid) begin
        assume(is_cp || is_bulk || in_op == OP_COMMIT || in_op == OP_WAIT);
        assume(in_cta <= LAST_SLOT && in_warp <= LAST_WARP);
        if (is_bulk) assume(in_sub == DIR_G2S && in_space != SP_CLUSTER && (in_flags & F_MULTICAST) == 0);
        if (mark_c) assume(in_tracked && !c_marked_any);
        if (mark_w) assume(in_op == OP_WAIT && !w_marked_any && tr_thread);
        if (mark_a) assume(!a_marked_any);
        // no other copy writes the tracked bytes, none of its CTA names the tracked mbarrier
        if ((is_cp || is_bulk) && in_cta == sym_slot && !mark_c) begin
            assume({2'd0, in_addr} + {34'd0, in_len} <= {34'd0, sym_dst} || {2'd0, in_addr} >= {34'd0, sym_dst} + {34'd0, sym_len});
            if (is_bulk) assume(in_mbar[23:0] != sym_mb);
        end
    end else assume(!mark_c && !mark_w && !mark_a);

    // ---------------- reference ----------------
    reg [3:0] pend = 0;                 // requests accepted and not answered
    wire [3:0] ahead = pend - resp_valid;
    always @(posedge clock) begin
        pend <= pend + acc - resp_valid;
        if (acc && mark_c) c_marked_any <= 1'b1;
        if (acc && mark_w) w_marked_any <= 1'b1;
        if (acc && mark_a) a_marked_any <= 1'b1;
    end
    copy_engine_formal_track tc (.clock(clock), .mark(acc && mark_c), .ahead(ahead), .resp_valid(resp_valid),
        .marked(c_marked), .answering(c_answering), .answered(c_answered));
    copy_engine_formal_track tw (.clock(clock), .mark(acc && mark_w), .ahead(ahead), .resp_valid(resp_valid),
        .marked(w_marked), .answering(w_answering), .answered(w_answered));
    copy_engine_formal_track ta (.clock(clock), .mark(acc && mark_a), .ahead(ahead), .resp_valid(resp_valid),
        .marked(a_marked), .answering(a_answering), .answered(a_answered));
    reg [4:0] a_cta = 0, a_warp = 0, a_lane = 0;  // the tracked request's requester
    reg c_ok = 1'b0;                              // the tracked copy was answered without error
    always @(posedge clock) begin
        if (acc && mark_a) begin a_cta <= in_cta; a_warp <= in_warp; a_lane <= in_lane; end
        if (acc && mark_c) begin c_warp <= in_warp; c_lane <= in_lane; end
        if (c_answering) c_ok <= resp_error == E_NONE;
    end

    // The bytes of the tracked copy written (sm_waddr + j, byte enable j, in its slot and range)
    // and the probe byte.
    integer j;
    reg [7:0] wr_now;
    reg pb_now;
    always @* begin
        wr_now = 0;
        pb_now = 1'b0;
        for (j = 0; j < B; j = j + 1)
            if (sm_we && sm_be[j] && sm_wslot == sym_slot && {8'd0, sm_waddr} + j >= sym_dst
                && {8'd0, sm_waddr} + j < sym_dst + sym_len) begin
                wr_now = wr_now + 8'd1;
                if ({8'd0, sm_waddr} + j == sym_dst + pb) pb_now = 1'b1;
            end
    end
    reg [31:0] wr = 0;
    reg pb_written = 1'b0;
    always @(posedge clock) begin
        wr <= wr + wr_now;
        if (pb_now) pb_written <= 1'b1;
    end

    // The tracked cp.async's group (cp.async.commit_group, 9.7.9.25.3.2): committed by the thread's
    // first commit (or wait_all) after it; `newer`: the thread's groups committed since (saturating).
    wire commits = acc && tr_thread && (in_op == OP_COMMIT || (in_op == OP_WAIT && in_imm2 == 8'd1));
    reg grp = 1'b0;
    reg [2:0] newer = 0;
    reg w_needs = 1'b0;                 // the tracked wait must see the tracked cp.async written
    always @(posedge clock) begin
        if (commits) begin
            grp <= 1'b1;
            if (grp && newer != 3'd7) newer <= newer + 3'd1;
        end
        // wait_group N (9.7.9.25.3.3): every group but the N newest complete; wait_all: all
        if (acc && mark_w) w_needs <= in_imm2 == 8'd1 || (grp && {13'd0, newer} >= in_imm);
    end

    // The tracked mbarrier's complete_tx events.
    wire ctx = mb_valid && mb_ready && mb_op == OP_CTX && mb_slot == sym_slot && mb_addr[23:0] == sym_mb;
    reg credited = 1'b0;
    always @(posedge clock) if (ctx) credited <= 1'b1;

    // ---------------- properties ----------------
    always @* begin
`ifdef CHECK_answered_once
        // answers in request order: none without a request, the tracked one names its requester
        if (resp_valid) answered_once__1: assert(pend != 0);
        if (a_answering) answered_once__2: assert(resp_cta == a_cta && resp_warp == a_warp && resp_lane == a_lane);
`endif
`ifdef CHECK_tx_bytes
        // complete_tx (9.7.9.25.4.1): the accepted copy's size, once, after its bytes are written
        if (ctx) begin
            tx_bytes__1: assert(c_marked && !sym_cp && c_answered && c_ok);
            tx_bytes__2: assert(mb_a == {32'd0, sym_len});
            tx_bytes__3: assert(wr == sym_len && pb_written);
            tx_bytes__4: assert(!credited);
        end
        tx_bytes__5: assert(wr <= sym_len);
`endif
`ifdef CHECK_group_after_copies
        // wait_group / wait_all (9.7.9.25.3.3) answered only after the groups it waits for
        if (w_answering && w_needs && c_answered && c_ok) begin
            group_after_copies__1: assert(wr == sym_len && pb_written);
        end
`endif
    end
endmodule
"#;
