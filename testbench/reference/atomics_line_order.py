"""Hand PTX: atom.shared.add.u32 with the lanes of each 16-byte line in rotated order, and atom.shared.add.f32 on pairs whose magnitudes differ in one mantissa bit."""
import struct

from corpus import Launch

THREADS = 64


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def word_of(t):
    # Lane j of group g (four lanes, one 16-byte line) takes word (j + g) mod 4 of the line: over
    # the groups every lane position of a window meets every word of a line, the line's first
    # word included.
    return (t & ~3) | ((t + (t >> 2)) & 3)


def float_pairs():
    """(old value in memory, operand) of lane t, as f32 bit patterns: the same exponent, the
    magnitudes differing in mantissa bit k only (k = t mod 32, up to 22), so the adder's
    magnitude compare decides at bit k and the exact difference 2^(k-23) needs a left shift of
    23 - k to normalise. Warp 0: the old value is the larger; warp 1: the operand is. Lanes 23..31
    of each warp: equal magnitudes of opposite sign (a zero) at exponents 0..8."""
    out = []
    for t in range(THREADS):
        k, big_in_memory = t % 32, t < 32
        if k < 23:
            big = 0x3F80_0000 | (1 << k)            # 1 + 2^(k-23)
            small = 0xBF80_0000                     # -1.0
            out.append((big, small) if big_in_memory else (small, big))
        else:
            e = k - 23
            pos = (127 + e) << 23 | 0x12345         # +1.x * 2^e
            out.append((pos, pos | 0x8000_0000))
    return out


def launch():
    l = Launch(block=[THREADS], grid=[1])
    l.buffer("iinit", "u32", data=[0x1000_0000 + 0x1111 * w for w in range(THREADS)])
    l.buffer("iadd", "u32", data=[0x0100_0000 * (t % 7 + 1) + t for t in range(THREADS)])
    pairs = float_pairs()
    l.buffer("finit", "u32", data=[a for a, _ in pairs])
    l.buffer("fadd", "u32", data=[b for _, b in pairs])
    for name in ("iold", "inew", "fold", "fnew"):
        l.buffer(name, "u32", length=THREADS)
    l.param("iinit", "iadd", "finit", "fadd", "iold", "inew", "fold", "fnew")
    return l


def reference(l):
    iinit, iadd = l.get("iinit").data, l.get("iadd").data
    finit, fadd = l.get("finit").data, l.get("fadd").data
    inew = list(iinit)
    iold = [0] * THREADS
    for t in range(THREADS):
        w = word_of(t)
        iold[t] = iinit[w]                         # each word is one lane's (PTX ISA §9.7.13.5)
        inew[w] = (iinit[w] + iadd[t]) & 0xFFFF_FFFF
    fnew = []
    for t in range(THREADS):
        # Both f32 values and their sum are exact in binary64; the sum is exactly representable
        # in binary32 (a difference of two numbers of one binade), +0 for x + (-x) (round to
        # nearest: +0).
        s = bits_f32(finit[t]) + bits_f32(fadd[t])
        fnew.append(0 if s == 0 else f32_bits(s))
    return {"iold": iold, "inew": inew, "fold": list(finit), "fnew": fnew}
