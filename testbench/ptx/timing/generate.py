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
       "\tcvt.u64.u32 \t%rd5, %r1;\n\tst.global.u64 \t[%rd1+8], %rd5;", REGS)
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
       "\tcvt.u64.u32 \t%rd5, %r1;\n\tst.global.u64 \t[%rd1+8], %rd5;", REGS, threads=32)
