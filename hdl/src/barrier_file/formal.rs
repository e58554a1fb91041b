//! The barrier file's formal checker (`smsync prove --unit barrier_file`; docs/units/barrier_file.md,
//! "Formal properties").
//!
//! The checker `barrier_file_formal` wraps the unit with
//! * a **symbolic barrier**: one (CTA slot, barrier id) chosen by the solver (`anyconst`), in
//!   range; requests to every other slot and barrier are free, so the properties hold for every
//!   barrier whatever the others do;
//! * a **reference model** of that barrier and of its slot's live warps, the PTX ISA's rules
//!   (§9.7.13.1, bar/barrier): arrivals are counted per warp (a warp counts as its 32 threads,
//!   "as if all the threads in a warp are active"); a round with a thread count b completes when
//!   32·arrivals ≥ b, a round without one when every live (non-exited) warp of the CTA has
//!   arrived; on completion the waiting warps restart and the barrier is reinitialized so that it
//!   can be reused at once. Applied to each request on the barrier in the cycle the unit updates
//!   it (stage U, one cycle after the request was accepted);
//! * a **release register** of the reference (the round's waiting and arrived warps) that the
//!   unit's release event (`rel_*` naming the barrier) must empty, once;
//! * the **properties**, [`PROPERTIES`], each assertion labelled `<property>__<n>`.
//!
//! Inputs are free but for the protocol a sync-unit top keeps (each an `assume`):
//! * no reset after the start (the flip-flops' initial values stand for it);
//! * no cluster-barrier request (`barrier.cluster`, not covered here yet), and every release is
//!   taken when offered (`rel_ready` high);
//! * the chosen slot's CTA is launched only when it has no live warp left and no request of the
//!   slot is in flight, with 1..=`max_warps_per_cta` warps;
//! * a request to the chosen slot comes from a live warp that is not blocked on the chosen barrier
//!   (a warp blocked in bar.sync / bar.red issues nothing until its release has left);
//! * arrivals on the chosen slot are converged (`req_active` covers `req_live`; the reference
//!   counts a request as the warp's whole arrival and does not model a divergent warp's parts
//!   or their finish, docs/units/barrier_file.md "Not done yet"); other slots' requests may be
//!   divergent (their finishes take stage D as requests do).
//!
//! Not covered here: the bar.red results (`rel_popc`, `rel_and`, `rel_or`) and the exact error
//! codes (only whether a request is refused).

use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, Op};

use crate::formal::{min_depth, Fault, Property};

/// The checker's top module.
pub const CHECKER_TOP: &str = "barrier_file_formal";

/// The properties, in the order `smsync prove` reports them. Only `answered_once` closes (k = 2);
/// the others are neither proven by induction nor bounded to depth 20 in reasonable time
/// (docs/units/barrier_file.md), so `smsync prove` runs them only when named.
pub const PROPERTIES: &[Property] = &[
    Property {
        name: "release_exact",
        statement: "the barrier releases exactly when the round completes: with a thread count b when \
                    32*arrivals >= b, without one when every live warp has arrived (or the last missing one \
                    exits); no release before, none missed (PTX ISA 9.7.13.1)",
        closes: false,
        depth: min_depth,
    },
    Property {
        name: "release_once",
        statement: "each completed round is released exactly once, naming exactly the warps that waited in it \
                    (bar.sync / bar.red), and before the barrier can complete again: no warp released twice \
                    or never (PTX ISA 9.7.13.1)",
        closes: false,
        depth: min_depth,
    },
    Property {
        name: "round_reset",
        statement: "after a release the barrier is reinitialized: the next arrival opens a new round (with any \
                    thread count and kind) and the round's arrived warps are its own (PTX ISA 9.7.13.1)",
        closes: false,
        depth: min_depth,
    },
    Property {
        name: "responses",
        statement: "a request on the barrier is refused exactly when the reference refuses it (bar.arrive without \
                    b, b not a multiple of 32 or above the CTA's threads, a round mixing red and non-red, red \
                    ops or thread counts; PTX ISA 9.7.13.1), and the warp is told to wait exactly when an \
                    accepted bar.sync / bar.red arrives",
        closes: false,
        depth: min_depth,
    },
    Property {
        name: "answered_once",
        statement: "every accepted request is answered exactly once, two cycles later, with its cta/warp; no \
                    response without a request (no request lost or answered twice)",
        closes: true,
        depth: min_depth,
    },
];

/// Stage U's round update (one datapath for every barrier).
const ROUND: &str = "barrier_file$round$0";
/// Slot 0's state (rust-hdl writes one Verilog module per instance, all with the same body).
const SLOT_0: &str = "barrier_file$slots$0";

/// One or more deliberate bugs per property: a one-place edit of the generated `barrier_file.v`.
pub const FAULTS: &[Fault] = &[
    Fault {
        name: "one_warp_round_waits",
        property: "release_exact",
        bug: "a counted round of one warp (b = 32) does not complete at its first arrival",
        within: None,
        find: "d_first_done$d = req_count[(32'h5)+:(6)] <= k_one_count;",
        replace: "d_first_done$d = req_count[(32'h5)+:(6)] < k_one_count;",
    },
    Fault {
        name: "taken_release_repeated",
        property: "release_once",
        bug: "the release queue does not pop a release the top took: it is offered again every cycle",
        within: None,
        find: "queue$pop = queue$nonempty & (~q_offer | rel_ready);",
        replace: "queue$pop = queue$nonempty & ~q_offer;",
    },
    Fault {
        name: "late_waiter_not_released",
        property: "release_once",
        bug: "a warp that waits on a running round is not recorded: it is never released",
        within: Some(ROUND),
        find: "n_waiting = base_waiting | req_warp_bit;",
        replace: "n_waiting = active ? base_waiting : base_waiting | req_warp_bit;",
    },
    Fault {
        name: "completion_keeps_round",
        property: "round_reset",
        bug: "slot 0's barriers stay in their round after completing (not reinitialized)",
        within: Some(SLOT_0),
        find: "in_round$d = in_round$q & ~id_bit;",
        replace: "in_round$d = in_round$q;",
    },
    Fault {
        name: "count_above_cta_accepted",
        property: "responses",
        bug: "a thread count above the CTA's threads is not refused",
        within: None,
        find: "pre_error = e_too_large;",
        replace: "pre_error = e_none;",
    },
    Fault {
        name: "blocked_response_lost",
        property: "answered_once",
        bug: "the response of a bar.sync / bar.red that waits is dropped",
        within: None,
        find: "resp_valid = o_valid$q;",
        replace: "resp_valid = o_valid$q & ~o_blocked$q;",
    },
];

/// The checker's SystemVerilog for `config` (slot, barrier and warp ranges come from it).
pub fn checker_verilog(config: &Config) -> String {
    let op = |o: Op| format!("6'd{}", o.code());
    let substitutions: Vec<(&str, String)> = vec![
        ("@OP_SYNC@", op(Op::BarSync)),
        ("@OP_ARRIVE@", op(Op::BarArrive)),
        ("@OP_POPC@", op(Op::BarRedPopc)),
        ("@OP_AND@", op(Op::BarRedAnd)),
        ("@OP_OR@", op(Op::BarRedOr)),
        ("@OP_EXIT@", op(Op::WarpExit)),
        ("@OP_CL_ARRIVE@", op(Op::BarClusterArrive)),
        ("@OP_CL_WAIT@", op(Op::BarClusterWait)),
        ("@F_HAS_COUNT@", format!("8'd{}", flags::HAS_COUNT)),
        ("@LAST_SLOT@", format!("5'd{}", config.cta_slots - 1)),
        ("@LAST_ID@", format!("4'd{}", config.named_barriers - 1)),
        ("@MAX_WARPS@", format!("32'd{}", config.max_warps_per_cta)),
        ("@CONFIG@", config.name.clone()),
    ];
    substitutions.iter().fold(TEMPLATE.to_string(), |text, (key, value)| text.replace(key, value))
}

const TEMPLATE: &str = r#"// Formal checker of barrier_file (config `@CONFIG@`), written by smsync prove; do not edit.
// Properties: PTX ISA 9.7.13.1 (bar, barrier). See hdl/src/barrier_file/formal.rs.
module barrier_file_formal (
    input wire clock,
    input wire launch,
    input wire [4:0] launch_slot,
    input wire [31:0] launch_warps,
    input wire req_valid,
    input wire [5:0] req_op,
    input wire [7:0] req_flags,
    input wire [4:0] req_cta,
    input wire [4:0] req_warp,
    input wire [31:0] req_id,
    input wire [31:0] req_count,
    input wire [31:0] req_pred,
    input wire [31:0] req_active,
    input wire [31:0] req_live
);
    localparam [5:0] OP_SYNC = @OP_SYNC@, OP_ARRIVE = @OP_ARRIVE@, OP_POPC = @OP_POPC@, OP_AND = @OP_AND@,
        OP_OR = @OP_OR@, OP_EXIT = @OP_EXIT@, OP_CL_ARRIVE = @OP_CL_ARRIVE@, OP_CL_WAIT = @OP_CL_WAIT@;
    localparam [7:0] F_HAS_COUNT = @F_HAS_COUNT@;
    localparam [4:0] LAST_SLOT = @LAST_SLOT@;
    localparam [3:0] LAST_ID = @LAST_ID@;
    localparam [31:0] MAX_WARPS = @MAX_WARPS@;

    // ---------------- the unit ----------------
    wire req_ready, resp_valid, resp_blocked, rel_valid, rel_cluster, rel_and, rel_or;
    wire [4:0] resp_cta, resp_warp, rel_cta;
    wire [5:0] resp_error;
    wire [3:0] rel_id;
    wire [31:0] rel_waiting, rel_arrived;
    wire [10:0] rel_popc;
    barrier_file dut (
        .clock(clock), .reset(1'b0), .launch(launch), .launch_slot(launch_slot), .launch_warps(launch_warps),
        .req_valid(req_valid), .req_ready(req_ready), .req_op(req_op), .req_flags(req_flags), .req_cta(req_cta),
        .req_warp(req_warp), .req_id(req_id), .req_count(req_count), .req_pred(req_pred),
        .req_active(req_active), .req_live(req_live), .resp_valid(resp_valid), .resp_cta(resp_cta),
        .resp_warp(resp_warp), .resp_error(resp_error), .resp_blocked(resp_blocked), .rel_ready(1'b1), .rel_valid(rel_valid), .rel_cluster(rel_cluster),
        .rel_cta(rel_cta), .rel_id(rel_id), .rel_waiting(rel_waiting), .rel_arrived(rel_arrived),
        .rel_popc(rel_popc), .rel_and(rel_and), .rel_or(rel_or)
    );

    // ---------------- the symbolic barrier: any slot, any id ----------------
    (* anyconst *) reg [4:0] sym_slot;
    (* anyconst *) reg [3:0] sym_id;
    always @* assume(sym_slot <= LAST_SLOT && sym_id <= LAST_ID);
    // A second barrier (any other slot and id): the only other one requests reach, so the
    // releases of two barriers can wait at once, in either order.
    (* anyconst *) reg [4:0] oth_slot;
    (* anyconst *) reg [3:0] oth_id;
    always @* assume(oth_slot <= LAST_SLOT && oth_id <= LAST_ID && {oth_slot, oth_id} != {sym_slot, sym_id});

    // ---------------- the request (stage D) ----------------
    wire accept = req_valid && req_ready;
    wire is_arrive = req_op == OP_ARRIVE;
    wire is_red = req_op == OP_POPC || req_op == OP_AND || req_op == OP_OR;
    wire is_named = req_op == OP_SYNC || is_arrive || is_red;
    wire on_slot = req_cta == sym_slot;
    wire on_sym = on_slot && is_named && req_id == {28'd0, sym_id};
    wire [31:0] req_bit = 32'd1 << req_warp;

    // ... delayed to stage U (u_*, one cycle later) and to the response (r_*, two cycles later).
    reg u_valid = 0, u_slot = 0, u_sym = 0, u_exit = 0, u_arrive = 0, u_red = 0, u_blocking = 0, u_counted = 0;
    reg [4:0] u_cta = 0, u_warp = 0;
    reg [5:0] u_op = 0;
    reg [31:0] u_count = 0, u_bit = 0;
    // Cycles left of the window after stage U of an exit of the chosen slot in which the unit's
    // sweep checks the whole-CTA rounds the exit completed (it starts the cycle after; one check
    // per cycle, here at most the two reachable barriers, after at most one cycle's wait for the
    // release queue to drain, plus stage U): a release the exit completed may be that far away.
    localparam [2:0] SWEEP_WINDOW = 3'd5;
    reg [2:0] x_wait = 3'd0;
    always @(posedge clock) begin
        u_valid <= accept;
        u_slot <= accept && on_slot;
        u_sym <= accept && on_sym;
        // a warp exit (its last lanes: req_live == 0) of the chosen slot
        u_exit <= accept && on_slot && req_op == OP_EXIT && req_live == 32'd0;
        u_arrive <= is_arrive;
        u_red <= is_red;
        u_blocking <= is_named && !is_arrive;
        u_counted <= (req_flags & F_HAS_COUNT) != 8'd0;
        u_cta <= req_cta;
        u_warp <= req_warp;
        u_op <= req_op;
        u_count <= req_count;
        u_bit <= req_bit;
        x_wait <= u_exit ? SWEEP_WINDOW : (x_wait != 3'd0 ? x_wait - 3'd1 : 3'd0);
    end

    // ---------------- reference model (PTX ISA 9.7.13.1) ----------------
    // The chosen slot's CTA: live warps and launched warps (thread limit 32 * warps).
    reg [31:0] ref_live = 32'd0;
    reg [31:0] ref_warps = 32'd0;
    // The chosen barrier's round: active, counted (with b / 32 = need), red (op), the warp
    // arrivals still missing (need - arrivals: each arrival counts 32 threads), the arrived and
    // the waiting warps.
    reg ref_active = 0, ref_counted = 0, ref_red = 0;
    reg [5:0] ref_red_op = 0, ref_need = 0, ref_missing = 0;
    reg [31:0] ref_arrived = 32'd0, ref_waiting = 32'd0;
    // The release of the last completed round, until the unit's release event takes it.
    reg ref_pend = 0;
    reg [31:0] ref_pend_waiting = 32'd0, ref_pend_arrived = 32'd0;

    // The request in stage U on the chosen barrier. Refused (the ISA leaves these undefined or
    // illegal; the project answers an error and leaves the barrier unchanged):
    // bar.arrive needs b; b must be a non-zero multiple of the warp size and at most the CTA's
    // threads; one round must not mix red and non-red, two red ops, or two thread counts.
    wire [5:0] u_need = u_count[10:5];
    wire count_bad = u_counted && (u_count == 32'd0 || u_count[4:0] != 5'd0 || u_count > {ref_warps[26:0], 5'd0});
    wire pre_refused = (u_arrive && !u_counted) || count_bad;
    wire round_refused = ref_active && (ref_red != u_red || (ref_red && ref_red_op != u_op)
        || ref_counted != u_counted || (ref_counted && ref_need != u_need));
    wire refused = pre_refused || round_refused;
    wire arrives = u_sym && !refused;
    // The round after the arrival (a new round when the barrier is idle).
    wire [5:0] n_missing = (ref_active ? ref_missing : u_need) - 6'd1;
    wire [31:0] n_arrived = (ref_active ? ref_arrived : 32'd0) | u_bit;
    wire [31:0] n_waiting = (ref_active ? ref_waiting : 32'd0) | (u_blocking ? u_bit : 32'd0);
    wire n_counted = ref_active ? ref_counted : u_counted;
    wire [5:0] n_need = ref_active ? ref_need : u_need;
    // 9.7.13.1: with b, complete at 32 * arrivals >= b (b a non-zero multiple of 32: when no
    // arrival is missing); without, when every live warp of the CTA has arrived.
    wire arrive_completes = arrives && (n_counted ? n_missing == 6'd0 : (ref_live & ~n_arrived) == 32'd0);
    // A warp exit leaves the live set; a round without b that waited only for it completes.
    wire [31:0] live_after = u_exit ? ref_live & ~u_bit : ref_live;
    wire exit_completes = u_exit && ref_active && !ref_counted && (live_after & ~ref_arrived) == 32'd0;
    wire ref_completes = arrive_completes || exit_completes;

    wire our_rel = rel_valid && rel_cta == sym_slot && rel_id == sym_id;
    wire launch_sym = launch && launch_slot == sym_slot;
    always @(posedge clock) begin
        if (launch_sym) begin
            // a new CTA: warps 0..n-1 live, every barrier idle, nothing to release
            ref_live <= launch_warps >= 32'd32 ? 32'hffffffff : ~(32'hffffffff << launch_warps);
            ref_warps <= launch_warps;
            ref_active <= 1'b0;
            ref_pend <= 1'b0;
        end else begin
            ref_live <= live_after;
            if (arrives) begin
                ref_active <= 1'b1;
                ref_counted <= n_counted;
                ref_need <= n_need;
                ref_red <= u_red;
                ref_red_op <= u_op;
                ref_missing <= n_missing;
                ref_arrived <= n_arrived;
                ref_waiting <= n_waiting;
            end
            if (our_rel) ref_pend <= 1'b0;
            if (ref_completes) begin
                // the waiting warps restart and the barrier is reinitialized for reuse
                ref_active <= 1'b0;
                ref_pend <= 1'b1;
                ref_pend_waiting <= arrives ? n_waiting : ref_waiting;
                ref_pend_arrived <= arrives ? n_arrived : ref_arrived;
            end
        end
    end

    // What the response of the request now in stage U must show, one cycle later.
    reg r_valid = 0, r_sym = 0, r_refused = 0, r_blocks = 0, r_new_round = 0;
    reg [4:0] r_cta = 0, r_warp = 0;
    always @(posedge clock) begin
        r_valid <= u_valid;
        r_cta <= u_cta;
        r_warp <= u_warp;
        r_sym <= u_sym;
        r_refused <= refused;
        r_blocks <= arrives && u_blocking;
        r_new_round <= u_sym && !ref_active && !pre_refused;
    end

    // ---------------- input protocol ----------------
    // Warps blocked on the chosen barrier: waiting in its round, in its release not yet sent, or
    // arriving with bar.sync / bar.red in stage U now.
    wire [31:0] blocked = ref_waiting | (ref_pend ? ref_pend_waiting : 32'd0) | (u_sym && u_blocking ? u_bit : 32'd0);
    wire on_oth = req_cta == oth_slot && req_id == {28'd0, oth_id};
    always @* begin
        // Warps of a CTA are 0..max_warps_per_cta-1; a named-barrier request with an id in range
        // goes to one of the two barriers (out-of-range ids and slots stay free: they are refused).
        if (req_valid) begin
            assume({27'd0, req_warp} < MAX_WARPS);
            // The cluster barrier is not covered by this checker (its releases share rel_*).
            assume(req_op != OP_CL_ARRIVE && req_op != OP_CL_WAIT);
            if (is_named && req_cta <= LAST_SLOT && req_id <= {28'd0, LAST_ID}) assume(on_sym || on_oth);
        end
        if (launch) assume(launch_warps >= 32'd1 && launch_warps <= MAX_WARPS);
        if (req_valid && on_slot) begin
            assume((ref_live & req_bit) != 32'd0 && (blocked & req_bit) == 32'd0);
            if (is_named) assume((req_live & ~req_active) == 32'd0);
        end
        if (launch_sym) begin
            assume(ref_live == 32'd0 && !(req_valid && on_slot) && !u_slot);
        end
    end

    // ---------------- properties ----------------
    always @* begin
`ifdef CHECK_release_exact
        // release_exact (9.7.13.1): a release event names the barrier only after the reference
        // completed its round (not early, not twice), and a completed round's release is on the
        // port at once: the release arbiter never idles while one waits, but in the window after
        // an exit (whose completions the unit's sweep finds one per cycle).
        if (our_rel) begin
            release_exact__1: assert(ref_pend);
        end
        if (ref_pend && x_wait == 3'd0) begin
            release_exact__2: assert(rel_valid);
        end
`endif

`ifdef CHECK_release_once
        // release_once (9.7.13.1): the waiting warps restart once each, all of them.
        if (our_rel) begin
            release_once__1: assert(ref_pend);
            release_once__2: assert(rel_waiting == ref_pend_waiting);
        end
        // a round never completes while the previous release still waits (it would be lost)
        release_once__3: assert(!(ref_completes && ref_pend && !our_rel));
`endif

`ifdef CHECK_round_reset
        // round_reset (9.7.13.1): "the barrier is reinitialized so that it can be immediately reused"
        if (resp_valid && r_new_round) begin
            round_reset__1: assert(resp_error == 6'd0);
        end
        if (our_rel) begin
            round_reset__2: assert(rel_arrived == ref_pend_arrived);
        end
`endif

`ifdef CHECK_responses
        // responses
        if (resp_valid && r_sym) begin
            responses__1: assert((resp_error != 6'd0) == r_refused);
            responses__2: assert(resp_blocked == r_blocks);
        end
`endif

`ifdef CHECK_answered_once
        // answered_once
        answered_once__1: assert(resp_valid == r_valid);
        if (resp_valid) begin
            answered_once__2: assert(resp_cta == r_cta && resp_warp == r_warp);
        end
`endif
    end
endmodule
"#;
