"""NVRTC: half2 / bf16x2 atomicAdd of pairs packed with __floats2half2_rn / __floats2bfloat162_rn
(testbench/cuda/half2_atomics.cu), 2 blocks of 64 threads. h[j] (global f16x2) sums the pairs
(x[2g], x[2g+1]) of the 8 threads g with g % 16 == j; b[j] (global bf16x2) sums (x[2g], -x[2g+1]);
hs_out[4c + j] is block c's shared f16x2 sum of (x[2g+1], x[2g]) over its 16 threads with
tid % 4 == j. Each u32 holds .x in bits 15:0 and .y in bits 31:16. The inputs are multiples of 0.5
in [-4, 4): every partial sum is exact in f16 (11 significant bits) and in bf16 (8), so the
atomics' order does not change the result."""
import struct

from corpus import Launch

CTAS, THREADS = 2, 64


def launch():
    n = CTAS * THREADS
    x = [((i * 2654435761 >> 9) % 16) * 0.5 - 4.0 for i in range(2 * n)]  # a multiplicative hash
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("x", "f32", data=x)
    l.buffer("h", "u32", length=16)
    l.buffer("b", "u32", length=16)
    l.buffer("hs_out", "u32", length=4 * CTAS)
    l.param("x", "h", "b", "hs_out")
    return l


def f16_bits(v):
    """v must be exact in f16 (checked)."""
    assert struct.unpack("<e", struct.pack("<e", v))[0] == v, f"{v} is not exact in f16"
    return struct.unpack("<H", struct.pack("<e", v))[0]


def bf16_bits(v):
    """v must be exact in bf16 (checked): the top 16 bits of its f32 encoding."""
    bits = struct.unpack("<I", struct.pack("<f", v))[0]
    assert bits & 0xFFFF == 0, f"{v} is not exact in bf16"
    return bits >> 16


def pair(lo, hi, to_bits):
    return to_bits(lo) | to_bits(hi) << 16


def reference(l):
    x = l.get("x").data
    n = CTAS * THREADS
    h, b = [], []
    for j in range(16):
        gs = [g for g in range(n) if g % 16 == j]
        # each sum starts from the buffer's +0.0, as the atomics do (an exact zero sum is +0.0)
        lo, hi = sum(x[2 * g] for g in gs), sum(x[2 * g + 1] for g in gs)
        h.append(pair(lo, hi, f16_bits))
        b.append(pair(lo, sum(-x[2 * g + 1] for g in gs), bf16_bits))
    hs = []
    for c in range(CTAS):
        for j in range(4):
            gs = [c * THREADS + t for t in range(THREADS) if t % 4 == j]
            hs.append(pair(sum(x[2 * g + 1] for g in gs), sum(x[2 * g] for g in gs), f16_bits))
    return {"h": h, "b": b, "hs_out": hs}
