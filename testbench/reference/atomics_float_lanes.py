"""Float atomicAdd on consecutive elements (PTX ISA §9.7.13.5, atom), one per thread and element,
so the lanes of a warp that share a 16-byte line are served together: lane 0 of each line by the
atomic ALU's lead element, lanes 1..3 of an f32 line by its lane groups (each with its own f32
adder); f64 is the lead's alone. Pairs (old value a, operand b): exact cancellations x + (-x)
(+0), the four signed-zero sums, equal magnitudes of opposite sign in both orders, massive
cancellations a + -(a + ulp) at many exponents, sums needing every normalising shift, subnormal
results, infinities and overflow; each pair at every lane position of a line (the list repeated,
shifted by one lane each time), random pairs filling the rest. f32 on shared memory (not
flushed; buffers f / fb / fo) and the same pairs on global memory (subnormal inputs and results
flushed to sign-preserving zero; g / gb / go); f64 on shared memory (d / db / dold). NaN
operands and inf + -inf on shared f32 (fn / fnb / fno) and f64 (dn / dnb / dno): the ISA leaves a
NaN result's bits open, these buffers expect the project's canonical NaN (f32 0x7FFFFFFF, f64
0x7FFFFFFFFFFFFFFF: contract/src/encoding.rs `canonical_nan`, what NVIDIA's units produce),
so a port to another NaN rule changes only them. Elements are distinct: each ends as a + b
rounded to nearest even, the old value a is returned. All buffers hold bit patterns."""
import struct
from fractions import Fraction

from atomics_float_round import F32, F64, add as add_exact, encode, is_nan, random_pairs
from corpus import Launch

THREADS = 64
K32, KN, K64, KDN = 7, 1, 4, 1  # arrays of THREADS elements (the kernel's #defines)
CANONICAL_NAN = {F32: 0x7FFF_FFFF, F64: 0x7FFF_FFFF_FFFF_FFFF}


def fbits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def dbits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def top(fmt):
    return 1 << (fmt[0] + fmt[1])


def special_pairs(fmt):
    """The non-NaN pairs (encodings)."""
    e_bits, m_bits = fmt
    bits = fbits if fmt == F32 else dbits
    neg = top(fmt)
    inf = ((1 << e_bits) - 1) << m_bits
    max_finite = inf - 1
    min_normal = 1 << m_bits
    min_sub = 1
    bias = (1 << (e_bits - 1)) - 1
    one = bits(1.0)
    out = []
    # exact cancellation, both orders: +0
    for x in [one, bits(3.5), bits(7.25) | neg, max_finite, min_normal, min_sub, (bias + 20) << m_bits | 0x2B4F1,
              bits(1e30) if fmt == F32 else bits(1e300), 0x005A5A5 | (3 << m_bits)]:
        out += [(x, x ^ neg), (x ^ neg, x)]
    # signed zeros, and a zero beside a non-zero value
    out += [(0, 0), (0, neg), (neg, 0), (neg, neg)]
    out += [(neg, one), (one, neg), (neg, neg | min_sub), (0, neg | min_sub)]
    # massive cancellation: a + -(a + ulp) and its mirror images, at many exponents (one across
    # an exponent boundary: next(a) has the next exponent)
    for x in [one, bits(1.5), (bias - 100) << m_bits | 0x1234, (bias + 100) << m_bits | 0x777,
              max_finite - 1, min_normal, (bias + 1) << m_bits | ((1 << m_bits) - 1)]:
        nx = x + 1
        out += [(x, nx ^ neg), (nx ^ neg, x), (nx, x ^ neg), (x ^ neg, nx)]
    # every normalising shift j: (1 + 2^-j + r) - 1 with r < 2^-j a bit pattern (a result that
    # is not a power of two: a shift one too far composes the same power of two), at exponents
    # spread over the range, the sign and the order of the operands alternating
    for j in range(1, m_bits + 1):
        e = bias + (j * 7) % (2 * bias - 4) - bias // 2
        a = e << m_bits | 1 << (m_bits - j) | 0x2D5A_96C3_B1E4_F7 & ((1 << (m_bits - j)) - 1)
        b = e << m_bits | neg
        if j % 2:
            a, b = a ^ neg, b ^ neg
        out.append((a, b) if j % 4 < 2 else (b, a))
    # subnormal results (kept on shared memory, flushed on global memory)
    out += [(min_normal, neg | min_sub), (min_sub, min_sub), (min_normal | 5, neg | min_normal),
            (min_normal | 1 << (m_bits - 1), neg | min_normal), (neg | 3, min_sub),
            (min_normal - 1, min_sub), (min_normal - 1, min_normal - 1), (neg | 2 * min_normal, min_normal | 1 << (m_bits - 1))]
    # infinities and overflow
    out += [(inf, one), (one, inf), (neg | inf, one), (one, neg | inf), (inf, inf), (neg | inf, neg | inf),
            (inf, neg | max_finite), (neg | inf, 0), (0, inf), (max_finite, max_finite),
            (neg | max_finite, neg | max_finite), (max_finite, encode(Fraction(2) ** (bias - m_bits - 1), fmt))]
    # equal magnitudes of the same sign
    out += [(one, one), (neg | bits(3.0), neg | bits(3.0))]
    return out


def nan_pairs(fmt):
    """Pairs whose sum is a NaN: a NaN operand (quiet, signalling, negative, payloads) or inf + -inf."""
    e_bits, m_bits = fmt
    bits = fbits if fmt == F32 else dbits
    neg = top(fmt)
    inf = ((1 << e_bits) - 1) << m_bits
    qnan = inf | 1 << (m_bits - 1)
    snan = inf | 1
    one = bits(1.0)
    return [(qnan, one), (one, qnan), (neg | qnan, 0), (0, neg | qnan | 1), (snan, one), (one, inf | 1 << (m_bits - 2)),
            (qnan, qnan), (qnan, inf), (inf, qnan), (neg | inf, qnan), (inf, neg | inf), (neg | inf, inf),
            (inf | (1 << m_bits) - 1, neg), (qnan, 1), (neg | inf | (1 << m_bits) - 1, neg | inf | (1 << m_bits) - 1),
            (inf - 1, snan)]


def placed(cases, lanes, arrays, fmt, seed, nan_ok=False):
    """The pairs of `arrays` arrays of THREADS elements: the list (padded to a multiple of
    `lanes`, the elements of a 16-byte line) `lanes` times, copy r shifted by r places, so each
    pair meets every lane position of a line; random pairs fill the rest."""
    cases = list(cases)
    pad = random_pairs(fmt, THREADS * arrays, seed)
    while len(cases) % lanes:
        cases.append(pad.pop())
    n = len(cases)
    out = []
    for r in range(lanes):
        out += [cases[(j - r) % n] for j in range(n)]
    assert len(out) <= THREADS * arrays, f"{len(out)} pairs for {arrays} arrays"
    out += pad[:THREADS * arrays - len(out)]
    for a, b in out:
        assert nan_ok or not (is_nan(a, fmt) or is_nan(b, fmt))
    return out


def add(a, b, fmt, ftz=False):
    """a + b rounded to nearest even (the exact-fraction reference of atomics_float_round), a NaN
    result the canonical NaN."""
    inf = ((1 << fmt[0]) - 1) << fmt[1]
    mag = top(fmt) - 1
    if is_nan(a, fmt) or is_nan(b, fmt) or (a & mag == inf and b & mag == inf and a != b):
        return CANONICAL_NAN[fmt]
    return add_exact(a, b, fmt, ftz)


def host_check(a, b, fmt, r):
    """The host's own IEEE add as a second opinion on the exact-fraction result: f64 directly;
    f32 as the f64 sum of the two f32 values rounded to f32 by struct (double rounding is
    harmless for a sum: 53 >= 2 * 24 + 2)."""
    unpack = (lambda v: struct.unpack("<d", struct.pack("<Q", v))[0]) if fmt == F64 else \
        (lambda v: struct.unpack("<f", struct.pack("<I", v))[0])
    s = unpack(a) + unpack(b)
    if s != s:
        return
    if fmt == F64:
        want = dbits(s)
    else:
        try:
            want = fbits(s)
        except OverflowError:  # beyond the f32 range after rounding: infinity
            want = (0x8000_0000 if s < 0 else 0) | 0x7F80_0000
    assert want == r, (hex(a), hex(b), hex(r), hex(want))


def launch():
    l = Launch(block=[THREADS], grid=[1])
    f32s = placed(special_pairs(F32), 4, K32, F32, 31)
    f32n = placed(nan_pairs(F32), 4, KN, F32, 32, nan_ok=True)
    f64s = placed(special_pairs(F64), 2, K64, F64, 33)
    f64n = placed(nan_pairs(F64), 2, KDN, F64, 34, nan_ok=True)
    for name, ty, ps, old in [("f", "u32", f32s, "fo"), ("fn", "u32", f32n, "fno"), ("g", "u32", f32s, "go"),
                              ("d", "u64", f64s, "dold"), ("dn", "u64", f64n, "dno")]:
        l.buffer(name, ty, data=[a for a, _ in ps])
        l.buffer(name + "b", ty, data=[b for _, b in ps])
        l.buffer(old, ty, length=len(ps))
    l.param("f", "fb", "fo", "fn", "fnb", "fno", "g", "gb", "go", "d", "db", "dold", "dn", "dnb", "dno")
    return l


def reference(l):
    out = {}
    for name, old, fmt, ftz in [("f", "fo", F32, False), ("fn", "fno", F32, False), ("g", "go", F32, True),
                                ("d", "dold", F64, False), ("dn", "dno", F64, False)]:
        a, b = l.get(name).data, l.get(name + "b").data
        out[name] = [add(x, y, fmt, ftz) for x, y in zip(a, b)]
        out[old] = list(a)
        if not ftz:
            for x, y, r in zip(a, b, out[name]):
                host_check(x, y, fmt, r)
    return out
