"""Hand PTX: redux.sync.{min,max}{.abs}{.NaN}.f32 over NaNs, infinities and signed zeros."""
# The rules are PTX ISA §9.7.13.12's: +0.0 > -0.0; `.abs` reduces the absolute values; with
# `.NaN` the result is the canonical NaN if any input is NaN; without it NaNs are ignored and the
# result is the canonical NaN only when every input is NaN. The canonical NaN's bit pattern is
# the project's constant (0x7FFFFFFF: the ISA gives none).
from corpus import Launch

THREADS = 64
CANONICAL_NAN = 0x7FFF_FFFF
POS_INF, NEG_INF = 0x7F80_0000, 0xFF80_0000
POS_ZERO, NEG_ZERO = 0x0000_0000, 0x8000_0000
QNAN, NEG_NAN = 0x7FC0_0000, 0xFFC0_0001


def is_nan(x):
    return (x & 0x7F80_0000) == 0x7F80_0000 and (x & 0x007F_FFFF) != 0


def key(x):
    """Total order of non-NaN f32 bit patterns with -0.0 < +0.0: sign-magnitude to a line."""
    return -(x & 0x7FFF_FFFF) - 1 if x & 0x8000_0000 else x


def redux(values, op, abs_=False, nan=False):
    vals = [v & 0x7FFF_FFFF if abs_ else v for v in values]
    if nan and any(is_nan(v) for v in vals):
        return CANONICAL_NAN
    vals = [v for v in vals if not is_nan(v)]
    if not vals:
        return CANONICAL_NAN
    return (min if op == "min" else max)(vals, key=key)


def f32(x):
    import struct
    return struct.unpack("<I", struct.pack("<f", x))[0]


def warp_values(w):
    if w == 0:
        # lanes 0..3: a NaN in the first leaf of a redux group beside the group's maximum;
        # lanes 4..7 are the signed-zero group; a NaN of the other sign at lane 30
        v = [QNAN, f32(3.0), f32(1.5), f32(-2.25), NEG_ZERO, POS_ZERO, NEG_ZERO, POS_ZERO]
        v += [f32(0.5 * i - 7.0) for i in range(8, 30)] + [NEG_NAN, f32(-100.0)]
    else:
        # lanes 0..3 all NaN; infinities of both signs; -0.0 and +0.0 among lanes 4..7
        v = [QNAN, NEG_NAN, 0x7F80_0001, 0xFFFF_FFFF, POS_ZERO, NEG_ZERO, f32(-0.0), f32(2.0)]
        v += [f32(1.0 / (i + 1)) for i in range(8, 30)] + [POS_INF, NEG_INF]
    return v


def launch():
    data = warp_values(0) + warp_values(1)
    l = Launch(block=[THREADS], grid=[1])
    l.buffer("input", "u32", data=data)
    l.buffer("out", "u32", length=THREADS * 8)
    l.param("input", "out")
    return l


def reference(l):
    inp = l.get("input").data
    out = [0] * (THREADS * 8)
    for w in range(THREADS // 32):
        v = inp[w * 32:w * 32 + 32]
        full = [redux(v, "min"), redux(v, "max"), redux(v, "min", abs_=True),
                redux(v, "max", nan=True), redux(v, "min", abs_=True, nan=True)]
        low = redux(v[0:4], "max")
        zmin, zmax = redux(v[4:8], "min"), redux(v[4:8], "max", nan=True)
        for i in range(32):
            o = full + [low if i < 4 else 0, zmin if 4 <= i < 8 else 0, zmax if 4 <= i < 8 else 0]
            out[(w * 32 + i) * 8:(w * 32 + i) * 8 + 8] = o
    return {"out": out}
