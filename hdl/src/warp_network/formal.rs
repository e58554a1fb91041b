//! The warp network's formal checker (`smsync prove --unit warp_network`; docs/units/warp_network.md,
//! "Formal properties").
//!
//! The checker `warp_network_formal` wraps the unit with
//! * a **sender** of the port protocol a sync-unit top keeps: a header (any warp-network op but
//!   exit, of any CTA slot and warp in range) held until `req_ready` or `req_refused`, then, for a
//!   data op, its `32 / lanes_per_beat` operand beats in lane order (beat 0 offered with the
//!   header, the others every cycle after it), and the next header as soon as the port is free
//!   (an eager sender: the timing is fixed, the contents free; with gaps chosen by the solver
//!   BMC took minutes per step past step 28 on fpga-small);
//! * a **symbolic warp** (CTA slot, warp) and a **probe lane** `p`, chosen by the solver
//!   (`anyconst`): requests of every other warp are free, so the properties hold for every warp
//!   and lane whatever the others do;
//! * a **reference** of what the symbolic warp's lanes brought: the lanes arrived and not yet
//!   answered, each lane's vote predicate and redux operand (from its own request and beat), and
//!   the probe lane's membermask and op; the PTX ISA's definitions over them (§9.7.13.10 vote.sync,
//!   §9.7.13.12 redux.sync: the operation over the non-exited lanes of the membermask);
//! * the **properties**, [`PROPERTIES`], each assertion labelled `<property>__<n>`.
//!
//! Assumptions beside the sender's protocol: no reset after the start (the flip-flops' initial
//! values stand for it); no exit (`WarpExit`): the symbolic warp's live mask is a constant, and
//! every request's active lanes are live and not empty; a lane of the symbolic warp that waits
//! at a collective or for its answer sends nothing until it is answered (a lane blocked in a
//! `.sync` op issues nothing: so the unit's answer to a lane that arrives twice is not checked); redux on the integer types only
//! (add / min / max on .u32 / .s32, and / or / xor on .b32); match keys .b32 or .b64.
//!
//! `redux_value` (open: checked only when named, alone) adds an assumption of its own: only redux
//! requests, of the symbolic warp (partial arrivals included).
//!
//! Not covered here: exits completing a rendezvous, redux.f32, the match and shfl results and
//! elect's leader (only that they answer when and whom they should), the exact error codes.

use smsync_contract::config::Config;
use smsync_contract::encoding::{flags, DataType, Op, ReduxOp, VoteMode};

use crate::formal::{min_depth, Fault, Property};

/// The checker's top module.
pub const CHECKER_TOP: &str = "warp_network_formal";

/// The properties, in the order `smsync prove` reports them.
pub const PROPERTIES: &[Property] = &[
    Property {
        name: "answered_once",
        statement: "every taken request is answered exactly once, naming its CTA slot and warp, before the next \
                    is taken; a lane is answered only after it arrived, and once",
        closes: true,
        depth: min_depth,
    },
    Property {
        name: "rendezvous_complete",
        statement: "a rendezvous answers only when every non-exited lane of its membermask has arrived, and \
                    answers exactly those lanes (PTX ISA 9.7.13.9-9.7.13.13, the .sync collectives)",
        closes: true,
        depth: min_depth,
    },
    Property {
        name: "vote_value",
        statement: "vote.sync answers its definition over the non-exited member lanes' predicates: .all, \
                    .any, .uni in the predicate, .ballot in d, with !a negated (PTX ISA 9.7.13.10)",
        closes: true,
        depth: min_depth,
    },
    Property {
        name: "redux_value",
        statement: "redux.sync answers every member the operation (add, min, max, and, or, xor; signed for \
                    .s32) over the non-exited member lanes' operands (PTX ISA 9.7.13.12)",
        closes: false,
        depth: redux_depth,
    },
];

/// One deliberate bug per property: a one-place edit of the generated `warp_network.v`.
pub const FAULTS: &[Fault] = &[
    Fault {
        name: "partial_answer_lost",
        property: "answered_once",
        bug: "the answer with no lanes (a partial arrival's) is dropped",
        within: None,
        find: "resp_valid = out_valid$q;",
        replace: "resp_valid = out_valid$q & (|out_lanes$q);",
    },
    Fault {
        name: "fires_one_lane_early",
        property: "rendezvous_complete",
        bug: "a rendezvous fires while one member lane has not arrived",
        within: None,
        find: "complete = (part & ~arrived) == k_zero32;",
        replace: "complete = ((part & ~arrived) & ((part & ~arrived) - 32'd1)) == k_zero32;",
    },
    Fault {
        name: "vote_any_as_all",
        property: "vote_value",
        bug: "vote.any answers vote.all's predicate",
        within: None,
        find: "vote_pred = |(part & pv);",
        replace: "vote_pred = (part & pv) == part;",
    },
    Fault {
        name: "redux_add_without_carry",
        property: "redux_value",
        bug: "the redux tree's root node adds without carries (x ^ y)",
        within: Some("warp_network$redux_nodes$0"),
        find: "sum = x + y;",
        replace: "sum = x ^ y;",
    },
];

/// `redux_value`'s BMC depth for `config`: a converged redux.sync answers `7 + 3 NB + log2 L` cycles after
/// its header's first cycle on the port (docs/BENCHMARKS.md, "RTL cycle figures"), which the
/// sender offers one step after the start; two steps more for margin. 37 on fpga-small (its
/// redux answers at step 34), the least depth (20) on the default config. The other
/// properties are checked to depth 20, which covers a few header-only requests (a vote answers
/// at step 5) but no data op's answer on fpga-small.
pub fn redux_depth(config: &Config) -> usize {
    let lanes = config.lanes_per_beat as usize;
    let redux_answer = 1 + 7 + 3 * (32 / lanes) + lanes.trailing_zeros() as usize;
    (redux_answer + 1 + 2).max(crate::formal::MIN_DEPTH)
}

/// The checker's SystemVerilog for `config` (the beat width and the slot and warp ranges come
/// from it).
pub fn checker_verilog(config: &Config) -> String {
    let lanes = config.lanes_per_beat as usize;
    let op = |o: Op| format!("6'd{}", o.code());
    let beat_ports: Vec<String> = (0..lanes)
        .map(|i| {
            let (a, s) = (64 * i, 5 * i);
            format!(
                "        .beat_a${i}(in_a[{}:{a}]), .beat_b${i}(in_b[{}:{s}]), .beat_clamp${i}(in_clamp[{}:{s}]), \
                 .beat_segmask${i}(in_seg[{}:{s}]),",
                a + 63,
                s + 4,
                s + 4,
                s + 4
            )
        })
        .collect();
    let row_ports: Vec<String> =
        (0..lanes).map(|i| format!("        .resp_row_values${i}(row_values[{}:{}]),", 32 * i + 31, 32 * i)).collect();
    let substitutions: Vec<(&str, String)> = vec![
        ("@BEAT_PORTS@", beat_ports.join("\n")),
        ("@ROW_PORTS@", row_ports.join("\n")),
        ("@LOG_L@", lanes.trailing_zeros().to_string()),
        ("@NB@", (32 / lanes).to_string()),
        ("@L@", lanes.to_string()),
        ("@OP_VOTE@", op(Op::VoteSync)),
        ("@OP_MATCH_ANY@", op(Op::MatchAny)),
        ("@OP_MATCH_ALL@", op(Op::MatchAll)),
        ("@OP_REDUX@", op(Op::ReduxSync)),
        ("@OP_ELECT@", op(Op::ElectSync)),
        ("@OP_ACTIVEMASK@", op(Op::Activemask)),
        ("@OP_WARPSYNC@", op(Op::WarpSync)),
        ("@OP_SHFL@", op(Op::ShflSync)),
        ("@V_ALL@", format!("3'd{}", VoteMode::All.code())),
        ("@V_ANY@", format!("3'd{}", VoteMode::Any.code())),
        ("@V_UNI@", format!("3'd{}", VoteMode::Uni.code())),
        ("@V_BALLOT@", format!("3'd{}", VoteMode::Ballot.code())),
        ("@R_ADD@", format!("3'd{}", ReduxOp::Add.code())),
        ("@R_MIN@", format!("3'd{}", ReduxOp::Min.code())),
        ("@R_MAX@", format!("3'd{}", ReduxOp::Max.code())),
        ("@R_AND@", format!("3'd{}", ReduxOp::And.code())),
        ("@R_OR@", format!("3'd{}", ReduxOp::Or.code())),
        ("@R_XOR@", format!("3'd{}", ReduxOp::Xor.code())),
        ("@DT_B32@", format!("4'd{}", DataType::B32.code())),
        ("@DT_U32@", format!("4'd{}", DataType::U32.code())),
        ("@DT_S32@", format!("4'd{}", DataType::S32.code())),
        ("@DT_B64@", format!("4'd{}", DataType::B64.code())),
        ("@F_NEGATE@", format!("8'd{}", flags::NEGATE)),
        ("@LAST_SLOT@", format!("5'd{}", config.cta_slots - 1)),
        ("@LAST_WARP@", format!("5'd{}", config.max_warps_per_cta - 1)),
        ("@CONFIG@", config.name.clone()),
    ];
    substitutions.iter().fold(TEMPLATE.to_string(), |text, (key, value)| text.replace(key, value))
}

const TEMPLATE: &str = r#"// Formal checker of warp_network (config `@CONFIG@`), written by smsync prove; do not edit.
// Properties: PTX ISA 9.7.13.10 (vote.sync), 9.7.13.12 (redux.sync) and the rendezvous of the
// .sync collectives (9.7.13.9-9.7.13.13). See hdl/src/warp_network/formal.rs.
module warp_network_formal (
    input wire clock,
    input wire [5:0] in_op,
    input wire [2:0] in_sub,
    input wire [3:0] in_dtype,
    input wire [7:0] in_flags,
    input wire [4:0] in_cta,
    input wire [4:0] in_warp,
    input wire [31:0] in_member,
    input wire [31:0] in_active,
    input wire [31:0] in_live,
    input wire [31:0] in_pred,
    input wire [64*@L@-1:0] in_a,
    input wire [5*@L@-1:0] in_b,
    input wire [5*@L@-1:0] in_clamp,
    input wire [5*@L@-1:0] in_seg
);
    localparam integer L = @L@, LOG_L = @LOG_L@, NB = @NB@;
    localparam [5:0] OP_VOTE = @OP_VOTE@, OP_MATCH_ANY = @OP_MATCH_ANY@, OP_MATCH_ALL = @OP_MATCH_ALL@,
        OP_REDUX = @OP_REDUX@, OP_ELECT = @OP_ELECT@, OP_ACTIVEMASK = @OP_ACTIVEMASK@, OP_WARPSYNC = @OP_WARPSYNC@,
        OP_SHFL = @OP_SHFL@;
    localparam [2:0] V_ALL = @V_ALL@, V_ANY = @V_ANY@, V_UNI = @V_UNI@, V_BALLOT = @V_BALLOT@;
    localparam [2:0] R_ADD = @R_ADD@, R_MIN = @R_MIN@, R_MAX = @R_MAX@, R_AND = @R_AND@, R_OR = @R_OR@, R_XOR = @R_XOR@;
    localparam [3:0] DT_B32 = @DT_B32@, DT_U32 = @DT_U32@, DT_S32 = @DT_S32@, DT_B64 = @DT_B64@;
    localparam [7:0] F_NEGATE = @F_NEGATE@;
    localparam [4:0] LAST_SLOT = @LAST_SLOT@, LAST_WARP = @LAST_WARP@;

    // ---------------- the sender: a header held until taken or refused, then its beats ----------------
    reg hv = 1'b0;                     // a header is offered
    reg [5:0] h_op = 0; reg [2:0] h_sub = 0; reg [3:0] h_dtype = 0; reg [7:0] h_flags = 0;
    reg [4:0] h_cta = 0, h_warp = 0;
    reg [31:0] h_member = 0, h_active = 0, h_live = 0, h_pred = 0;
    reg beats_due = 1'b0;              // the taken header's beats are not all sent
    reg [5:0] bc = 0;                  // beats of the present header taken
    wire h_data = h_op == OP_MATCH_ANY || h_op == OP_MATCH_ALL || h_op == OP_REDUX || h_op == OP_SHFL;

    wire req_ready, req_refused, beat_ready, resp_valid, resp_again;
    wire [4:0] resp_cta, resp_warp, resp_error_lane;
    wire [31:0] resp_lanes, resp_preds;
    wire [5:0] resp_error;
    wire [32*L-1:0] row_values;
    // beat 0 goes with its header (taken with it); the others after it, offered every cycle
    wire beat_valid = bc < NB && ((hv && h_data && bc == 0) || beats_due);
    wire take = hv && req_ready;
    wire take_beat = beat_valid && beat_ready;

    // ---------------- the symbolic warp and lane ----------------
    (* anyconst *) reg [4:0] sym_cta;
    (* anyconst *) reg [4:0] sym_warp;
    (* anyconst *) reg [4:0] p;        // the probe lane
    (* anyconst *) reg [31:0] live0;   // the symbolic warp's live lanes (no exit in this checker)
    always @* assume(sym_cta <= LAST_SLOT && sym_warp <= LAST_WARP && live0 != 0);
    wire h_sym = h_cta == sym_cta && h_warp == sym_warp;
    reg [31:0] arr = 0;                // the symbolic warp's lanes taken and not yet answered

    // A new header: a warp-network op (no exit) of a slot and warp in range, with active lanes that
    // are live; the symbolic warp's requests carry its live mask; types of a legal redux / match.
    wire in_sym = in_cta == sym_cta && in_warp == sym_warp;
    wire load = !hv && !beats_due;
    always @* if (load) begin
        assume(in_op == OP_VOTE || in_op == OP_MATCH_ANY || in_op == OP_MATCH_ALL || in_op == OP_REDUX
            || in_op == OP_ELECT || in_op == OP_ACTIVEMASK || in_op == OP_WARPSYNC || in_op == OP_SHFL);
        assume(in_cta <= LAST_SLOT && in_warp <= LAST_WARP);
        assume(in_active != 0 && (in_active & ~in_live) == 0);
        // a lane waiting at a collective (or for its answer) issues nothing until it is answered
        if (in_sym) assume(in_live == live0 && (in_active & arr) == 0);
        if (in_op == OP_VOTE) assume(in_sub <= V_BALLOT);
`ifdef CHECK_redux_value
        // redux_value's own scenario, redux requests of the symbolic warp only: it is checked
        // alone (an open property), and with every op mixed in its 37 steps take hours
        assume(in_op == OP_REDUX && in_sym);
`endif
        if (in_op == OP_REDUX) assume(((in_sub == R_ADD || in_sub == R_MIN || in_sub == R_MAX)
            && (in_dtype == DT_U32 || in_dtype == DT_S32))
            || ((in_sub == R_AND || in_sub == R_OR || in_sub == R_XOR) && in_dtype == DT_B32));
        if (in_op == OP_MATCH_ANY || in_op == OP_MATCH_ALL) assume(in_dtype == DT_B32 || in_dtype == DT_B64);
    end
    always @(posedge clock) begin
        if (load) begin
            hv <= 1'b1;
            h_op <= in_op; h_sub <= in_sub; h_dtype <= in_dtype; h_flags <= in_flags;
            h_cta <= in_cta; h_warp <= in_warp; h_member <= in_member; h_active <= in_active;
            h_live <= in_live; h_pred <= in_pred;
            bc <= 0;
        end
        if (hv && (req_ready || req_refused)) begin
            hv <= 1'b0;
            beats_due <= req_ready && h_data && !(take_beat && NB == 1);
        end
        if (take_beat) begin
            bc <= bc + 6'd1;
            if (bc == NB - 1) beats_due <= 1'b0;
        end
    end

    // ---------------- the unit ----------------
    warp_network dut (
        .clock(clock), .reset(1'b0), .req_valid(hv), .req_ready(req_ready), .req_refused(req_refused),
        .req_op(h_op), .req_sub(h_sub), .req_dtype(h_dtype), .req_flags(h_flags), .req_cta(h_cta),
        .req_warp(h_warp), .req_member(h_member), .req_active(h_active), .req_live(h_live), .req_pred(h_pred),
        .beat_valid(beat_valid), .beat_ready(beat_ready),
@BEAT_PORTS@
        .resp_valid(resp_valid), .resp_cta(resp_cta), .resp_warp(resp_warp), .resp_lanes(resp_lanes),
        .resp_row(p >> LOG_L),
@ROW_PORTS@
        .resp_preds(resp_preds), .resp_error(resp_error), .resp_error_lane(resp_error_lane), .resp_again(resp_again)
    );
    wire [31:0] p_value = row_values[32 * (p & (L - 1)) +: 32];

    // ---------------- reference: what the symbolic warp's lanes brought ----------------
    reg [31:0] pred = 0;               // each lane's predicate, from its request
    reg [1023:0] vals = 0;             // each lane's operand a (low 32 bits), from its beat
    reg [31:0] mem_p = 0;              // the probe lane's membermask and op, from its request
    reg [5:0] op_p = 0; reg [2:0] sub_p = 0; reg [3:0] dtype_p = 0; reg [7:0] flags_p = 0;
    reg pend = 1'b0;                   // a taken request is not answered yet
    reg [4:0] pend_cta = 0, pend_warp = 0;
    integer i;
    wire resp_sym = resp_valid && resp_cta == sym_cta && resp_warp == sym_warp;
    always @(posedge clock) begin
        if (resp_valid) pend <= 1'b0;
        if (take) begin
            pend <= 1'b1; pend_cta <= h_cta; pend_warp <= h_warp;
        end
        if (resp_sym) arr <= arr & ~resp_lanes;
        if (take && h_sym) begin
            arr <= (resp_sym ? arr & ~resp_lanes : arr) | h_active;
            pred <= (pred & ~h_active) | (h_pred & h_active);
            if (h_active[p]) begin
                mem_p <= h_member; op_p <= h_op; sub_p <= h_sub; dtype_p <= h_dtype; flags_p <= h_flags;
            end
        end
        // lane i is in beat i / L at place i % L (constant selects: a third of the model that
        // a variable part-select writing `vals` made)
        for (i = 0; i < 32; i = i + 1)
            if (take_beat && h_sym && bc == i / L && h_active[i]) vals[32 * i +: 32] <= in_a[64 * (i % L) +: 32];
    end

    // ---------------- the definitions over the probe's rendezvous ----------------
    wire [31:0] part = mem_p & live0;                                  // its non-exited members
    wire [31:0] pv = ((flags_p & F_NEGATE) != 0) ? ~pred : pred;
    wire vote_all = (part & ~pv) == 0, vote_any = (part & pv) != 0;
    wire vote_uni = vote_all || (part & pv) == 0;
    reg [31:0] redux;
    always @* begin
        redux = (sub_p == R_ADD || sub_p == R_OR || sub_p == R_XOR) ? 32'd0
            : sub_p == R_AND ? 32'hFFFF_FFFF
            : (sub_p == R_MIN) ? (dtype_p == DT_S32 ? 32'h7FFF_FFFF : 32'hFFFF_FFFF)
            : (dtype_p == DT_S32 ? 32'h8000_0000 : 32'd0);
        for (i = 0; i < 32; i = i + 1) if (part[i]) begin
            case (sub_p)
                R_ADD: redux = redux + vals[32 * i +: 32];
                R_AND: redux = redux & vals[32 * i +: 32];
                R_OR: redux = redux | vals[32 * i +: 32];
                R_XOR: redux = redux ^ vals[32 * i +: 32];
                R_MIN: if (dtype_p == DT_S32 ? $signed(vals[32 * i +: 32]) < $signed(redux) : vals[32 * i +: 32] < redux) redux = vals[32 * i +: 32];
                default: if (dtype_p == DT_S32 ? $signed(vals[32 * i +: 32]) > $signed(redux) : vals[32 * i +: 32] > redux) redux = vals[32 * i +: 32];
            endcase
        end
    end
    // the probe's rendezvous answered without error
    wire probe_done = resp_sym && resp_lanes[p] && resp_error == 0 && arr[p];

    // ---------------- properties ----------------
    always @* begin
`ifdef CHECK_answered_once
        // every taken request answered once, naming its warp; a lane only after it arrived, once
        if (resp_valid) begin
            answered_once__1: assert(pend);
            answered_once__2: assert(resp_cta == pend_cta && resp_warp == pend_warp);
        end
        if (take) begin
            answered_once__3: assert(!pend || resp_valid);
        end
        if (resp_sym) begin
            answered_once__4: assert((resp_lanes & ~arr) == 0);
        end
`endif
`ifdef CHECK_rendezvous_complete
        // a rendezvous answers only when every non-exited lane of its membermask has arrived,
        // and answers exactly its members
        if (probe_done && op_p != OP_ACTIVEMASK) begin
            rendezvous_complete__1: assert((part & ~resp_lanes) == 0);
            rendezvous_complete__2: assert((resp_lanes & ~mem_p) == 0);
        end
`endif
`ifdef CHECK_vote_value
        // vote.sync (9.7.13.10): all / any / uni in the predicate, ballot in d
        if (probe_done && op_p == OP_VOTE) begin
            if (sub_p == V_ALL) vote_value__1: assert(resp_preds[p] == vote_all);
            if (sub_p == V_ANY) vote_value__2: assert(resp_preds[p] == vote_any);
            if (sub_p == V_UNI) vote_value__3: assert(resp_preds[p] == vote_uni);
            if (sub_p == V_BALLOT) vote_value__4: assert(p_value == (part & pv));
        end
`endif
`ifdef CHECK_redux_value
        // redux.sync (9.7.13.12): the operation over the members' operands, in every member
        if (probe_done && op_p == OP_REDUX) begin
            redux_value__1: assert(p_value == redux);
        end
`endif
    end
endmodule
"#;
