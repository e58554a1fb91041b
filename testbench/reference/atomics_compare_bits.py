"""Hand PTX: atomics whose result is decided by a compare at one bit (PTX ISA §9.7.13.5, atom):
each pair (old value, operand) first differs at one bit (equal above it, random below), for
every bit of the type, in both orders, so every stage of the atomic ALU's compares decides
somewhere, with the lower bits agreeing or opposing. Four parts, 128 threads:
(a) f16x2 / bf16x2 min and max (`atom.global.v4.*.{min,max}.noftz`, threads 0-63, 16 bytes
each: every pair in a low and a high half); (b) u64 / s64 min and max on 512 consecutive 8-byte
elements (a line's two lanes share an atomic step: the lead and a coalesced lane); (c) f64 add
whose magnitudes first differ at one bit, of the same and of opposite signs (the adder's magnitude
compare picks the larger; a cancellation needs a long normalising shift); (d) the same for
f32 on global memory (subnormal inputs and results flushed to sign-preserving zero), one lane
per 16-byte line. Every element is one thread's, so no result depends on the order of the
atomics. NaN operands and +0 against -0 in min / max are not used (the ISA leaves them open)."""
from atomics_float_round import F16, BF16, F32, F64, add, is_nan, minmax, width
from corpus import Launch

THREADS = 128
HALF_THREADS = 64          # part (a): threads 0..63, four 32-bit words (eight halves) each
PAIRS_PER_BIT = 16         # part (a): 16 bits x 2 orders x 16 = 512 halves


class Lcg:
    """A fixed pseudo-random sequence (the data must not change between runs)."""

    def __init__(self, seed):
        self.x = seed

    def bits(self, n):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return self.x >> (64 - n)


def ordered_pair(base, bit, a_larger, variant, rng):
    """Two values equal above `bit`, the larger one with `bit` set; below it, by `variant`:
    random (0, 3), the next bit opposing the decision (1: the larger has it clear, the smaller
    set), or the next bit equal and the one below it opposing (2). So every stage of a
    compare's carry or lookahead tree sees its decision made above, at and below it. `(a, b)`
    with a the larger when `a_larger`."""
    low = (1 << bit) - 1
    big = base | 1 << bit
    big, small = big & ~low | rng.bits(bit), big & ~low & ~(1 << bit) | rng.bits(bit)
    if variant == 1 and bit >= 1:
        big, small = big & ~(1 << (bit - 1)), small | 1 << (bit - 1)
    if variant == 2 and bit >= 2:
        same = rng.bits(1) << (bit - 1)
        big = big & ~(3 << (bit - 2)) | same
        small = small & ~(3 << (bit - 2)) | same | 1 << (bit - 2)
    return (big, small) if a_larger else (small, big)


def half_pairs(fmt, seed):
    """512 (old, operand) half pairs: bit-major, then which is larger, then 16 bases with the
    four variants (so a pair's bit and order land on both halves and on every word of a
    thread)."""
    rng, top = Lcg(seed), width(fmt) - 1
    out = []
    for bit in range(16):
        for a_larger in range(2):
            n = 0
            while n < PAIRS_PER_BIT:
                a, b = ordered_pair(rng.bits(16), bit, a_larger, n % 4, rng)
                both_zero = a & ((1 << top) - 1) == 0 and b & ((1 << top) - 1) == 0
                if is_nan(a, fmt) or is_nan(b, fmt) or (both_zero and a != b):
                    continue
                out.append((a, b))
                n += 1
    return out


def int_pairs(seed):
    """512 u64 pairs: (bit, which is larger, variant 0..3), each variant on an even (a step's
    lead) or an odd element (the lane that joins it)."""
    rng = Lcg(seed)
    return [ordered_pair(rng.bits(64), bit, a_larger, v, rng)
            for bit in range(64) for a_larger in range(2) for v in range(4)]


def float_pairs(fmt, count, seed):
    """(bit, which is larger, same or opposite sign, variant 0..3) for every magnitude bit:
    the magnitudes first differ at that bit; exponents kept inside the normal range so no
    operand is infinite or NaN. Random pairs fill up to `count`."""
    e_bits, m_bits = fmt
    top = width(fmt) - 1
    exp_max = (1 << e_bits) - 1
    rng = Lcg(seed)
    out = []
    for bit in range(top):
        for a_larger in range(2):
            for opposite in range(2):
                for variant in range(4):
                    while True:
                        a, b = ordered_pair(rng.bits(top), bit, a_larger, variant, rng)
                        if all(0 < (m >> m_bits) < exp_max for m in (a, b)):
                            break
                    sign = rng.bits(1)
                    out.append((a | sign << top, b | (sign ^ opposite) << top))
    while len(out) < count:
        a, b = rng.bits(top + 1), rng.bits(top + 1)
        if all(0 < (v >> m_bits & exp_max) < exp_max for v in (a, b)):
            out.append((a, b))
    return out[:count]


def words_of_halves(values):
    return [values[2 * w] | values[2 * w + 1] << 16 for w in range(len(values) // 2)]


def launch():
    l = Launch(block=[THREADS], grid=[1])
    for name, fmt, seed in [("h", F16, 31), ("b", BF16, 32)]:
        ps = half_pairs(fmt, seed)
        old = words_of_halves([a for a, _ in ps])
        l.buffer(name + "min", "u32", data=old)
        l.buffer(name + "max", "u32", data=old)
        l.buffer(name + "op", "u32", data=words_of_halves([b for _, b in ps]))
    l.buffer("hold", "u32", length=4 * 4 * HALF_THREADS)
    for name, seed in [("u", 33), ("s", 34)]:
        ps = int_pairs(seed)
        l.buffer(name + "min", "u64", data=[a for a, _ in ps])
        l.buffer(name + "max", "u64", data=[a for a, _ in ps])
        l.buffer(name + "op", "u64", data=[b for _, b in ps])
    ps = float_pairs(F64, 8 * THREADS, 35)
    l.buffer("dadd", "u64", data=[a for a, _ in ps])
    l.buffer("dop", "u64", data=[b for _, b in ps])
    ps = float_pairs(F32, 4 * THREADS, 36)
    l.buffer("fadd", "u32", data=[w for a, _ in ps for w in (a, 0, 0, 0)])
    l.buffer("fop", "u32", data=[b for _, b in ps])
    l.param("hmin", "hmax", "hop", "bmin", "bmax", "bop", "hold", "umin", "umax", "uop",
            "smin", "smax", "sop", "dadd", "dop", "fadd", "fop")
    return l


def signed(v):
    return v - (1 << 64) if v >> 63 else v


def half_words(old_words, op_words, fmt, op):
    out = []
    for x, y in zip(old_words, op_words):
        lo = minmax(x & 0xFFFF, y & 0xFFFF, fmt, op)
        hi = minmax(x >> 16, y >> 16, fmt, op)
        out.append(lo | hi << 16)
    return out


def reference(l):
    out = {}
    old_values = []
    for name, fmt in [("h", F16), ("b", BF16)]:
        old, ops = l.get(name + "min").data, l.get(name + "op").data
        out[name + "min"] = half_words(old, ops, fmt, "min")
        out[name + "max"] = half_words(old, ops, fmt, "max")
        old_values += [old, old]
    # hold: thread t's four returned words of each op (f16 min, f16 max, bf16 min, bf16 max) at
    # 16 t + 4 k .. + 3.
    out["hold"] = [old_values[k][4 * t + j] for t in range(HALF_THREADS) for k in range(4) for j in range(4)]
    for name, key in [("u", lambda v: v), ("s", signed)]:
        old, ops = l.get(name + "min").data, l.get(name + "op").data
        out[name + "min"] = [min(a, b, key=key) for a, b in zip(old, ops)]
        out[name + "max"] = [max(a, b, key=key) for a, b in zip(old, ops)]
    out["dadd"] = [add(a, b, F64) for a, b in zip(l.get("dadd").data, l.get("dop").data)]
    fadd = list(l.get("fadd").data)
    for t, b in enumerate(l.get("fop").data):
        fadd[4 * t] = add(fadd[4 * t], b, F32, ftz=True)
    out["fadd"] = fadd
    return out
