#!/usr/bin/env python3
"""Writes the timing microbenchmarks (PTX + launch files) beside this script.

Each kernel measures one latency the way the H100 microbenchmark papers do: read %clock64, run
a chain of N dependent instructions of one kind, read %clock64 again, store the difference (and
the chain's result, so that nothing is dead). `out[0]` / N is the figure per instruction that
docs/TIMING.md compares with the published one. Run: python3 testbench/ptx/timing/generate.py
"""
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
N = 64
HEAD = """// Timing microbenchmark written by testbench/ptx/timing/generate.py; do not edit.
.version 8.8
.target sm_90
.address_size 64
"""


# A chain's last value (in %r1) into out[1], so the chain is not dead code.
STORE_R1 = "\tcvt.u64.u32 \t%rd5, %r1;\n\tst.global.u64 \t[%rd1+8], %rd5;"


def kernel(name, setup, body, tail, regs, threads=1, shared=""):
    text = HEAD + shared + f"""
.visible .entry {name}(
	.param .u64 {name}_out
)
{{
{regs}
	ld.param.u64 	%rd1, [{name}_out];
{setup}
	mov.u64 	%rd2, %clock64;
{body}
	mov.u64 	%rd3, %clock64;
	sub.s64 	%rd4, %rd3, %rd2;
	mov.u32 	%r9, %tid.x;
	setp.ne.s32 	%p1, %r9, 0;
	@%p1 bra 	$L_done;
	st.global.u64 	[%rd1], %rd4;
{tail}
$L_done:
	ret;
}}
"""
    (HERE / f"{name}.ptx").write_text(text)
    (HERE / f"{name}.launch.yaml").write_text(
        f"# {name}: out[0] = cycles of {N} dependent instructions (written by generate.py)\n"
        f"grid: [1, 1, 1]\nblock: [{threads}, 1, 1]\n"
        "buffers:\n  out: { type: u64, len: 2 }\nparams: [out]\n"
    )


REGS = "\t.reg .pred \t%p<2>;\n\t.reg .b32 \t%r<10>;\n\t.reg .f32 \t%f<4>;\n\t.reg .f64 \t%fd<4>;\n\t.reg .b64 \t%rd<8>;"

kernel("lat_add_u32", "\tmov.u32 \t%r1, %tid.x;", "\n".join(["\tadd.u32 \t%r1, %r1, 1;"] * N),
       STORE_R1, REGS)
kernel("lat_fma_f32", "\tmov.u32 \t%r1, %tid.x;\n\tcvt.rn.f32.u32 \t%f1, %r1;\n\tmov.f32 \t%f2, 0f3F800000;",
       "\n".join(["\tfma.rn.f32 \t%f1, %f1, %f2, %f2;"] * N),
       "\tcvt.rzi.u64.f32 \t%rd5, %f1;\n\tst.global.u64 \t[%rd1+8], %rd5;", REGS)
kernel("lat_fma_f64", "\tmov.u32 \t%r1, %tid.x;\n\tcvt.rn.f64.u32 \t%fd1, %r1;\n\tmov.f64 \t%fd2, 0d3FF0000000000000;",
       "\n".join(["\tfma.rn.f64 \t%fd1, %fd1, %fd2, %fd2;"] * N),
       "\tcvt.rzi.u64.f64 \t%rd5, %fd1;\n\tst.global.u64 \t[%rd1+8], %rd5;", REGS)
# shared-memory pointer chase: word i holds the address of word i+1
chain = "\tmov.u32 \t%r2, lat_ld_shared_buf;\n" + "\n".join(
    f"\tadd.u32 \t%r3, %r2, {4 * (i + 1)};\n\tst.shared.u32 \t[%r2+{4 * i}], %r3;" for i in range(N))
kernel("lat_ld_shared", chain, "\n".join(["\tld.shared.u32 \t%r2, [%r2];"] * N),
       "\tcvt.u64.u32 \t%rd5, %r2;\n\tst.global.u64 \t[%rd1+8], %rd5;", REGS,
       shared=f"\n.shared .align 4 .b8 lat_ld_shared_buf[{4 * (N + 1)}];\n")
# global pointer chase through out's scratch words: out[1] holds its own address, so each load
# returns the address it read (a dependent chain of N loads on one line, an L2 hit on a GPU)
kernel("lat_ld_global", "\tadd.u64 \t%rd6, %rd1, 8;\n\tst.global.u64 \t[%rd6], %rd6;",
       "\n".join(["\tld.global.u64 \t%rd6, [%rd6];"] * N), "", REGS)
kernel("lat_bar_sync", "", "\n".join(["\tbar.sync \t0;"] * N), "", REGS, threads=32)
kernel("lat_shfl", "\tmov.u32 \t%r1, %tid.x;",
       "\n".join(["\tshfl.sync.bfly.b32 \t%r1, %r1, 1, 31, -1;"] * N),
       STORE_R1, REGS, threads=32)

# TMA pointer chase (the authors' raw data of arXiv 2402.13499 measures this, `TMA/Latency`): each
# hop arms the mbarrier for 16 bytes, copies the 16-byte chain entry from global memory into
# shared memory with cp.async.bulk, waits for the phase, and reads the next entry's address.
hops = []
for i in range(N):
    hops.append(f"""	mbarrier.arrive.expect_tx.shared::cta.b64 	_, [%r4], 16;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes 	[%r5], [%rd6], 16, [%r4];
$L_wait{i}:
	mbarrier.try_wait.parity.shared::cta.b64 	%p2, [%r4], %r6;
	@!%p2 bra 	$L_wait{i};
	xor.b32 	%r6, %r6, 1;
	ld.shared.u64 	%rd6, [%r5];""")
fill = "\n".join(f"\tadd.u64 \t%rd7, %rd5, {16 * (i + 1)};\n\tst.global.u64 \t[%rd5+{16 * i}], %rd7;" for i in range(N))
text = HEAD + f"""
.shared .align 16 .b8 lat_tma_buf[32];

.visible .entry lat_tma(
	.param .u64 lat_tma_out,
	.param .u64 lat_tma_chain
)
{{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [lat_tma_out];
	ld.param.u64 	%rd5, [lat_tma_chain];
{fill}
	mov.u32 	%r4, lat_tma_buf;
	add.u32 	%r5, %r4, 16;
	mbarrier.init.shared::cta.b64 	[%r4], 1;
	mov.u32 	%r6, 0;
	mov.u64 	%rd6, %rd5;
	mov.u64 	%rd2, %clock64;
{chr(10).join(hops)}
	mov.u64 	%rd3, %clock64;
	sub.s64 	%rd4, %rd3, %rd2;
	st.global.u64 	[%rd1], %rd4;
	sub.s64 	%rd4, %rd6, %rd5;
	st.global.u64 	[%rd1+8], %rd4;
	ret;
}}
"""
(HERE / "lat_tma.ptx").write_text(text)
(HERE / "lat_tma.launch.yaml").write_text(
    f"# lat_tma: out[0] = cycles of {N} cp.async.bulk pointer-chase hops; out[1] = the last address's offset, {16 * N} (written by generate.py)\n"
    "grid: [1, 1, 1]\nblock: [1, 1, 1]\n"
    f"buffers:\n  out: {{ type: u64, len: 2 }}\n  chain: {{ type: u64, len: {2 * (N + 1)} }}\nparams: [out, chain]\n"
)

# Sync-unit microbenchmarks for the RTL-modelling timing profile (`timing.model: rtl`,
# docs/TIMING.md "The RTL profile"). No published figure: they are run on the RTL back end
# (`smsync cosim ... --timing`) to measure the generated top's own costs, and on the golden
# back end to compare. Every sync-unit instruction blocks its lanes until answered, so a chain
# of them is a latency chain even where no register carries the dependence.
kernel("lat_atom_shared", "\tmov.u32 \t%r2, lat_atom_shared_buf;\n\tmov.u32 \t%r1, 1;",
       "\n".join(["\tatom.shared.add.u32 \t%r1, [%r2], %r1;"] * N),
       STORE_R1, REGS,
       shared="\n.shared .align 4 .b8 lat_atom_shared_buf[4];\n")
# 32 lanes on 32 consecutive words (8 lines): the atomic ALU's steps per line
kernel("lat_atom_shared_w32",
       "\tmov.u32 \t%r2, lat_atom_shared_w32_buf;\n\tmov.u32 \t%r1, %tid.x;\n\tshl.b32 \t%r3, %r1, 2;\n\tadd.u32 \t%r2, %r2, %r3;",
       "\n".join(["\tatom.shared.add.u32 \t%r1, [%r2], %r1;"] * N),
       STORE_R1, REGS, threads=32,
       shared="\n.shared .align 16 .b8 lat_atom_shared_w32_buf[128];\n")
# 32 lanes on one word: every step waits for the previous one's write
kernel("lat_atom_shared_same", "\tmov.u32 \t%r2, lat_atom_shared_same_buf;\n\tmov.u32 \t%r1, %tid.x;",
       "\n".join(["\tatom.shared.add.u32 \t%r1, [%r2], %r1;"] * N),
       STORE_R1, REGS, threads=32,
       shared="\n.shared .align 4 .b8 lat_atom_shared_same_buf[4];\n")
# global atomics on out[1]: one line read and written through the atomic ALU's global port
kernel("lat_atom_global", "\tadd.u64 \t%rd6, %rd1, 8;\n\tmov.u32 \t%r1, 1;",
       "\n".join(["\tatom.global.add.u32 \t%r1, [%rd6], %r1;"] * N), "", REGS)
kernel("lat_mbar_arrive", "\tmov.u32 \t%r4, lat_mbar_arrive_buf;\n\tmbarrier.init.shared::cta.b64 \t[%r4], 1;",
       "\n".join(["\tmbarrier.arrive.shared::cta.b64 \t%rd7, [%r4];"] * N), "", REGS,
       shared="\n.shared .align 8 .b8 lat_mbar_arrive_buf[8];\n")
# 32 lanes: the top's lane sequencer, one lane per cycle
kernel("lat_mbar_arrive_w32",
       "\tmov.u32 \t%r4, lat_mbar_arrive_w32_buf;\n\tmov.u32 \t%r1, %tid.x;\n\tsetp.ne.u32 \t%p1, %r1, 0;\n"
       "\t@!%p1 mbarrier.init.shared::cta.b64 \t[%r4], 32;\n\tbar.sync \t0;",
       "\n".join(["\tmbarrier.arrive.shared::cta.b64 \t%rd7, [%r4];"] * N), "", REGS, threads=32,
       shared="\n.shared .align 8 .b8 lat_mbar_arrive_w32_buf[8];\n")
# 32 lanes each chasing its own word (word i holds its own address): the LSU, one lane per cycle
kernel("lat_ld_shared_w32",
       "\tmov.u32 \t%r2, lat_ld_shared_w32_buf;\n\tmov.u32 \t%r1, %tid.x;\n\tshl.b32 \t%r3, %r1, 2;\n\tadd.u32 \t%r2, %r2, %r3;\n\tst.shared.u32 \t[%r2], %r2;\n\tbar.sync \t0;",
       "\n".join(["\tld.shared.u32 \t%r2, [%r2];"] * N),
       "\tcvt.u64.u32 \t%rd5, %r2;\n\tst.global.u64 \t[%rd1+8], %rd5;", REGS, threads=32,
       shared="\n.shared .align 4 .b8 lat_ld_shared_w32_buf[128];\n")
# 8 warps of independent shuffles: out[0] / 64 is eight shuffles' turns through the one port
kernel("thr_shfl_8w", "\tmov.u32 \t%r1, %tid.x;",
       "\n".join(["\tshfl.sync.bfly.b32 \t%r1, %r1, 1, 31, -1;"] * N),
       STORE_R1, REGS, threads=256)
kernel("lat_vote", "\tmov.u32 \t%r1, %tid.x;\n\tsetp.ne.u32 \t%p1, %r1, 0;",
       "\n".join(["\tvote.sync.ballot.b32 \t%r1, %p1, -1;"] * N),
       STORE_R1, REGS, threads=32)
kernel("lat_redux", "\tmov.u32 \t%r1, %tid.x;",
       "\n".join(["\tredux.sync.add.u32 \t%r1, %r1, -1;"] * N),
       STORE_R1, REGS, threads=32)
# 32 lanes on one global word: 32 atomic steps, each a line read and written through `ag_*`
kernel("lat_atom_global_same", "\tadd.u64 \t%rd6, %rd1, 8;\n\tmov.u32 \t%r1, %tid.x;",
       "\n".join(["\tatom.global.add.u32 \t%r1, [%rd6], %r1;"] * N), "", REGS, threads=32)


def chase(name, hop, threads, shared_bytes, src_bytes, setup=""):
    """N hops of `hop` (text with {i}); out[0] = their cycles; `src` a global buffer."""
    body = "\n".join(hop.format(i=i) for i in range(N))
    text = HEAD + f"""
.shared .align 16 .b8 {name}_buf[{shared_bytes}];

.visible .entry {name}(
	.param .u64 {name}_out,
	.param .u64 {name}_src
)
{{
{REGS}
	ld.param.u64 	%rd1, [{name}_out];
	ld.param.u64 	%rd5, [{name}_src];
	mov.u32 	%r4, {name}_buf;
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r3, %r1, 4;
	add.u32 	%r5, %r4, %r3;
	cvt.u64.u32 	%rd6, %r3;
	add.u64 	%rd6, %rd5, %rd6;
{setup}
	mov.u64 	%rd2, %clock64;
{body}
	mov.u64 	%rd3, %clock64;
	sub.s64 	%rd4, %rd3, %rd2;
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L_done;
	st.global.u64 	[%rd1], %rd4;
$L_done:
	ret;
}}
"""
    (HERE / f"{name}.ptx").write_text(text)
    (HERE / f"{name}.launch.yaml").write_text(
        f"# {name}: out[0] = cycles of {N} hops (written by generate.py)\n"
        f"grid: [1, 1, 1]\nblock: [{threads}, 1, 1]\n"
        f"buffers:\n  out: {{ type: u64, len: 2 }}\n  src: {{ type: u32, len: {src_bytes // 4} }}\nparams: [out, src]\n"
    )


# The copy engine's lane ops and moves, each hop waited for (PTX ISA §9.7.9.25).
# 32 lanes, a 16-byte cp.async each, then commit and wait_group 0
chase("lat_cp_async_w32", "\tcp.async.cg.shared.global \t[%r5], [%rd6], 16;\n\tcp.async.commit_group;\n\tcp.async.wait_group \t0;",
      32, 512, 512)
# one thread: a 64-byte bulk store from shared memory, its bulk group waited for
chase("lat_bulk_store", "\tcp.async.bulk.global.shared::cta.bulk_group \t[%rd6], [%r5], 64;\n\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group \t0;",
      1, 64, 64)
# one thread: a 64-byte (16-element) bulk add reduction into global memory
chase("lat_bulk_reduce", "\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 \t[%rd6], [%r5], 64;\n\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group \t0;",
      1, 64, 64)
# 8 warps of votes (the warp network's shortest op) and of 1-lane-per-warp shared loads:
# how long each request holds the top when its unit is quick
kernel("thr_vote_8w", "\tmov.u32 \t%r1, %tid.x;\n\tsetp.ne.u32 \t%p1, %r1, 0;",
       "\n".join(["\tvote.sync.ballot.b32 \t%r1, %p1, -1;"] * N),
       STORE_R1, REGS, threads=256)
kernel("thr_bar_sync_8w", "", "\n".join(["\tbar.sync \t0;"] * N), "", REGS, threads=256)
kernel("thr_warp_sync_8w", "", "\n".join(["\tbar.warp.sync \t-1;"] * N), "", REGS, threads=256)
kernel("thr_elect_8w", "", "\n".join(["\telect.sync \t%r1|%p1, -1;"] * N),
       STORE_R1, REGS, threads=256)
# the same with src-size 8 of 16: half of each copy read, half zero-filled (PTX ISA §9.7.9.25.3.1)
chase("lat_cp_async_zfill_w32", "\tcp.async.cg.shared.global \t[%r5], [%rd6], 16, 8;\n\tcp.async.commit_group;\n\tcp.async.wait_group \t0;",
      32, 512, 512)
# 32 lanes' 16-byte copies in four commit groups, waited for one group at a time (wait_group 3..0)
chase("lat_cp_async_groups", "\n".join(
    f"\tcp.async.cg.shared.global \t[%r5+{i * 0}], [%rd6], 16;\n\tcp.async.commit_group;" for i in range(4))
    + "\n" + "\n".join(f"\tcp.async.wait_group \t{g};" for g in (3, 2, 1, 0)), 32, 512, 512)
# 32 lanes' 4-byte copies (one port beat each), committed and waited for
chase("lat_cp_async4_w32", "\tcp.async.ca.shared.global \t[%r5], [%rd6], 4;\n\tcp.async.commit_group;\n\tcp.async.wait_group \t0;",
      32, 512, 512)
