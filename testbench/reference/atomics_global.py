"""Contended integer atomics in global memory (add/sub/or/and/xor/inc/dec/min/max/CAS/exch)."""
from corpus import Launch, u32, s32

CTAS, THREADS = 4, 64
N = CTAS * THREADS


def launch():
    data = [((i * 2654435761) % 2001) - 1000 for i in range(N)]   # signed, both parities
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "s32", data=data)
    l.buffer("acc", "s32", length=6)
    l.buffer("bits", "u32", data=[0, 0xFFFF_FFFF, 0x1234_5678])
    l.buffer("incdec", "u32", data=[5, 3])
    l.buffer("smin_max", "s32", data=[0x7FFF_FFFF, -0x8000_0000])
    l.buffer("umin_max", "u32", data=[0xFFFF_FFFF, 0])
    l.buffer("wide", "u64", data=[1, 0])
    l.buffer("cas_exch", "u32", data=[0, 0, 0, 9, 0])
    l.param("input", "acc", "bits", "incdec", "smin_max", "umin_max", "wide", "cas_exch")
    return l


def reference(l):
    inp = l.get("input").data
    acc = [0] * 6
    bits = list(l.get("bits").data)
    incdec = list(l.get("incdec").data)
    smm = list(l.get("smin_max").data)
    umm = list(l.get("umin_max").data)
    wide = list(l.get("wide").data)
    ce = list(l.get("cas_exch").data)
    for gid, v in enumerate(inp):
        tid = gid % THREADS
        acc[0] = s32(acc[0] + v)
        acc[1 + (gid & 3)] += 1
        if v & 1:
            acc[5] = s32(acc[5] - v)
        bits[0] |= 1 << (gid % 32)
        bits[1] &= ~(1 << (gid % 29)) & 0xFFFF_FFFF
        bits[2] ^= u32(v)
        incdec[0] = 0 if incdec[0] >= 37 else incdec[0] + 1
        if tid < 40:
            incdec[1] = 50 if (incdec[1] == 0 or incdec[1] > 50) else incdec[1] - 1
        smm[0] = min(smm[0], v)
        smm[1] = max(smm[1], v)
        umm[0] = min(umm[0], u32(v))
        umm[1] = max(umm[1], u32(v))
        wide[0] = (wide[0] + (u32(v) << 20)) % (1 << 64)
        wide[1] = max(wide[1], gid * 0x1_0000_0001)
        ce[0] = u32(ce[0] + u32(v * v))
    # Inc/dec are order-independent here: every step is +1 (resp. -1) modulo limit+1 because
    # the start values lie in [0, limit].
    ce[1], ce[2] = 1, 1
    ce[3], ce[4] = 5, 1
    return {"acc": acc, "bits": bits, "incdec": incdec, "smin_max": smm, "umin_max": umm,
            "wide": wide, "cas_exch": ce}
