"""Hand PTX: float atomics whose results round (PTX ISA §9.7.13.5, atom): f16 / bf16 add
and f16x2 / bf16x2 add (`.noftz`: subnormals kept), f32 add on global (subnormal inputs and results flushed to
sign-preserving zero) and on shared (not flushed), f64 add, and f16x2 / bf16x2 min / max
(`atom.global.v2.*.{min,max}.noftz`). One CTA of 64 threads; thread t applies one atomic to its
own element t of each array, so the order of the atomics cannot change any result: each array
element ends as op(a[t], b[t]) rounded to nearest even, and the old value a[t] is returned. The
pairs are ties, cancellations, overflows to infinity, subnormal inputs and results, infinities
and signed zeros, then random encodings (NaN excluded: the ISA leaves a NaN result's bits open;
inf + -inf excluded for the same reason). The reference rounds exact rational sums."""
from fractions import Fraction
import struct

from corpus import Launch

THREADS = 64

# (exponent bits, mantissa bits) of each format.
F16, BF16, F32, F64 = (5, 10), (8, 7), (8, 23), (11, 52)


def width(fmt):
    return 1 + fmt[0] + fmt[1]


def decode(bits, fmt):
    """('inf', sign), ('zero', sign) or ('num', Fraction) of an encoding (not a NaN)."""
    e_bits, m_bits = fmt
    sign = bits >> (e_bits + m_bits) & 1
    exp = bits >> m_bits & ((1 << e_bits) - 1)
    man = bits & ((1 << m_bits) - 1)
    bias = (1 << (e_bits - 1)) - 1
    if exp == (1 << e_bits) - 1:
        assert man == 0, "NaN inputs are not used"
        return ("inf", sign)
    if exp == 0 and man == 0:
        return ("zero", sign)
    value = Fraction(man, 1 << m_bits) * Fraction(2) ** (1 - bias) if exp == 0 else \
        Fraction((1 << m_bits) + man, 1 << m_bits) * Fraction(2) ** (exp - bias)
    return ("num", -value if sign else value)


def is_nan(bits, fmt):
    e_bits, m_bits = fmt
    return (bits >> m_bits & ((1 << e_bits) - 1)) == (1 << e_bits) - 1 and bits & ((1 << m_bits) - 1) != 0


def is_subnormal(bits, fmt):
    e_bits, m_bits = fmt
    return (bits >> m_bits & ((1 << e_bits) - 1)) == 0 and bits & ((1 << m_bits) - 1) != 0


def round_half_even(x):
    """Nearest integer to a non-negative Fraction, ties to even."""
    n, rem = divmod(x.numerator, x.denominator)
    twice = 2 * rem
    if twice > x.denominator or (twice == x.denominator and n % 2 == 1):
        n += 1
    return n


def encode(value, fmt, sign_if_zero=0):
    """Round a Fraction to the format, to nearest even (overflow to infinity)."""
    e_bits, m_bits = fmt
    bias = (1 << (e_bits - 1)) - 1
    top = e_bits + m_bits
    if value == 0:
        return sign_if_zero << top
    sign = 1 if value < 0 else 0
    a = abs(value)
    e = a.numerator.bit_length() - a.denominator.bit_length()  # 2^e <= a < 2^(e+2)
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    while Fraction(2) ** e > a:
        e -= 1
    e = max(e, 1 - bias)  # subnormals share the smallest exponent
    n = round_half_even(a / Fraction(2) ** (e - m_bits))
    if n == 1 << (m_bits + 1):
        n, e = n >> 1, e + 1
    if e > bias:
        return sign << top | ((1 << e_bits) - 1) << m_bits
    if n < 1 << m_bits:  # subnormal (or rounded to zero: the sign is kept)
        return sign << top | n
    return sign << top | (e + bias) << m_bits | (n - (1 << m_bits))


def add(a_bits, b_bits, fmt, ftz=False):
    top = width(fmt) - 1
    if ftz:
        a_bits = a_bits & (1 << top) if is_subnormal(a_bits, fmt) else a_bits
        b_bits = b_bits & (1 << top) if is_subnormal(b_bits, fmt) else b_bits
    a, b = decode(a_bits, fmt), decode(b_bits, fmt)
    if a[0] == "inf" or b[0] == "inf":
        assert not (a[0] == b[0] == "inf" and a[1] != b[1]), "inf + -inf is not used"
        return (a if a[0] == "inf" else b)[1] << top | ((1 << fmt[0]) - 1) << fmt[1]
    if a[0] == "zero" and b[0] == "zero":
        return (a[1] & b[1]) << top  # -0 + -0 = -0, else +0
    va = a[1] if a[0] == "num" else Fraction(0)
    vb = b[1] if b[0] == "num" else Fraction(0)
    r = encode(va + vb, fmt)  # an exact zero sum of non-zero operands is +0 (nearest even)
    if ftz and is_subnormal(r, fmt):
        r &= 1 << top
    return r


def order_key(bits, fmt):
    """Total order of non-NaN encodings with -0 < +0."""
    top = width(fmt) - 1
    mag = bits & ((1 << top) - 1)
    return -mag - 1 if bits >> top & 1 else mag


def minmax(a_bits, b_bits, fmt, op):
    pick = min if op == "min" else max
    return pick(a_bits, b_bits, key=lambda x: order_key(x, fmt))


def bits_of(v, fmt):
    if fmt == F16:
        return struct.unpack("<H", struct.pack("<e", v))[0]
    if fmt == F32:
        return struct.unpack("<I", struct.pack("<f", v))[0]
    if fmt == F64:
        return struct.unpack("<Q", struct.pack("<d", v))[0]
    b = struct.unpack("<I", struct.pack("<f", v))[0]
    assert b & 0xFFFF == 0, f"{v} is not exact in bf16"
    return b >> 16


def special_pairs(fmt):
    """Ties, cancellations, overflow, subnormals, infinities and zeros, as encodings."""
    e_bits, m_bits = fmt
    top = width(fmt) - 1
    one = bits_of(1.0, fmt)
    ulp = Fraction(1, 1 << m_bits)
    half_ulp = encode(ulp / 2, fmt)
    max_finite = ((1 << e_bits) - 2) << m_bits | ((1 << m_bits) - 1)
    inf = ((1 << e_bits) - 1) << m_bits
    min_sub = 1
    min_normal = 1 << m_bits
    neg = 1 << top
    return [
        (one, half_ulp),                               # tie: 1 + ulp/2 stays 1 (even)
        (one + 1, half_ulp),                           # tie: odd mantissa rounds up
        (one, encode(ulp / 2 + ulp / 8, fmt)),         # above the tie: rounds up
        (one, neg | encode(1 - ulp / 2, fmt)),         # cancellation to a small exact result
        (encode(Fraction(3, 2), fmt), neg | encode(Fraction(3, 2) - ulp * 3 / 4, fmt)),
        (max_finite, encode(Fraction(2) ** ((1 << (e_bits - 1)) - 1 - m_bits - 1), fmt)),  # tie at the top: to inf
        (max_finite, max_finite),                      # overflow
        (neg | max_finite, neg | max_finite),          # negative overflow
        (min_sub, min_sub),                            # subnormal + subnormal
        (min_normal, neg | min_sub),                   # normal - subnormal = subnormal
        (min_normal | 5, neg | min_normal),            # cancellation into the subnormals
        (neg | min_sub, min_sub),                      # exact zero: +0
        (neg, neg),                                    # -0 + -0 = -0
        (neg, 0),                                      # -0 + +0 = +0
        (inf, one),                                    # inf + finite
        (neg | inf, neg | max_finite),                 # -inf + finite
        (one, 0),                                      # x + 0
        (neg | min_sub, 0),                            # subnormal + 0
    ]


def random_pairs(fmt, count, seed):
    """Random encodings; half of the b's get an exponent at most 3 below a's, so that the sum
    rounds instead of returning a."""
    e_bits, m_bits = fmt
    w = width(fmt)
    exp_mask = ((1 << e_bits) - 1) << m_bits
    out, x = [], seed
    while len(out) < count:
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        a = x >> (64 - w)
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        b = x >> (64 - w)
        a_exp = (a & exp_mask) >> m_bits
        if x & 1 and 0 < a_exp < (1 << e_bits) - 1:
            b_exp = max(a_exp - (x >> 1 & 3), 1)
            b = (b & ~exp_mask) | b_exp << m_bits
        if is_nan(a, fmt) or is_nan(b, fmt):
            continue
        da, db = decode(a, fmt), decode(b, fmt)
        if da[0] == db[0] == "inf" and da[1] != db[1]:
            continue
        out.append((a, b))
    return out


def pairs(fmt, seed):
    """The special pairs first at the threads t = 0, 4, 8, ... (the first lane of each 16-byte
    line of a 4-byte array: the atomic ALU's lead element takes that lane of each window, its
    lane groups the others), then at the other threads; random pairs fill the rest."""
    specials = special_pairs(fmt)
    rest = random_pairs(fmt, THREADS - len(specials), seed)
    leads = list(range(0, THREADS, 4))
    order = leads + [t for t in range(THREADS) if t % 4]
    out = [None] * THREADS
    for t, pair in zip(order, specials + rest):
        out[t] = pair
    return out


def minmax_pairs(fmt, seed):
    """Pairs of (a, b) encodings for min / max: no NaN, and no +0 against -0 (the ISA does not
    order them for min / max)."""
    out = []
    for a, b in pairs(fmt, seed) + random_pairs(fmt, 2 * THREADS, seed + 1):
        top = width(fmt) - 1
        zero = lambda v: v & ((1 << top) - 1) == 0  # noqa: E731
        if zero(a) and zero(b) and a != b:
            continue
        out.append((a, b))
    return out[:2 * THREADS]


def launch():
    l = Launch(block=[THREADS], grid=[1])
    for name, fmt, ty, seed in [("h", F16, "u16", 11), ("b", BF16, "u16", 12), ("f", F32, "u32", 13),
                                ("s", F32, "u32", 14), ("d", F64, "u64", 15)]:
        ps = pairs(fmt, seed)
        l.buffer(name, ty, data=[a for a, _ in ps])
        l.buffer(name + "b", ty, data=[b for _, b in ps])
        l.buffer(name + "o", ty, length=THREADS)
    l.buffer("sr", "u32", length=THREADS)
    for name, fmt, seed in [("hx", F16, 23), ("bx", BF16, 24)]:
        ps = pairs(fmt, seed) + random_pairs(fmt, THREADS, seed + 1)  # .x: 2t, .y: 2t + 1
        l.buffer(name, "u32", data=[ps[2 * t][0] | ps[2 * t + 1][0] << 16 for t in range(THREADS)])
        l.buffer(name + "b", "u32", data=[ps[2 * t][1] | ps[2 * t + 1][1] << 16 for t in range(THREADS)])
        l.buffer(name + "o", "u32", length=THREADS)
    for name, fmt, seed in [("m", F16, 21), ("q", BF16, 22)]:
        ps = minmax_pairs(fmt, seed)  # element 2t and 2t + 1 of thread t's pair
        l.buffer(name, "u32", data=[ps[2 * t][0] | ps[2 * t + 1][0] << 16 for t in range(THREADS)])
        l.buffer(name + "b", "u32", data=[ps[2 * t][1] | ps[2 * t + 1][1] << 16 for t in range(THREADS)])
        l.buffer(name + "o", "u32", length=THREADS)
    l.param("h", "hb", "ho", "b", "bb", "bo", "f", "fb", "fo", "s", "sb", "so", "sr",
            "d", "db", "do", "hx", "hxb", "hxo", "bx", "bxb", "bxo", "m", "mb", "mo", "q", "qb", "qo")
    return l


def reference(l):
    out = {}
    for name, fmt, ftz in [("h", F16, False), ("b", BF16, False), ("f", F32, True), ("d", F64, False)]:
        a, b = l.get(name).data, l.get(name + "b").data
        out[name] = [add(x, y, fmt, ftz) for x, y in zip(a, b)]
        out[name + "o"] = list(a)
    a, b = l.get("s").data, l.get("sb").data
    out["so"] = list(a)
    out["sr"] = [add(x, y, F32) for x, y in zip(a, b)]
    for name, fmt in [("hx", F16), ("bx", BF16)]:
        a, b = l.get(name).data, l.get(name + "b").data
        out[name] = [add(x & 0xFFFF, y & 0xFFFF, fmt) | add(x >> 16, y >> 16, fmt) << 16 for x, y in zip(a, b)]
        out[name + "o"] = list(a)
    for name, fmt in [("m", F16), ("q", BF16)]:
        res = []
        for t, (x, y) in enumerate(zip(l.get(name).data, l.get(name + "b").data)):
            op = "min" if t % 2 == 0 else "max"
            lo = minmax(x & 0xFFFF, y & 0xFFFF, fmt, op)
            hi = minmax(x >> 16, y >> 16, fmt, op)
            res.append(lo | hi << 16)
        out[name] = res
        out[name + "o"] = list(l.get(name).data)
    return out
