"""Hand PTX: cp.reduce.async.bulk add/min/max/or/xor/inc (u32/s32) and add.u64 into global."""
from corpus import Launch, u32, s32

CTAS, THREADS = 3, 64


def launch():
    data = [u32(i * 0x9E3779B9 + 0x1234) for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("r_add", "u32", data=[i * 3 for i in range(THREADS)])
    l.buffer("r_min", "s32", data=[0x7FFF_FFFF - i for i in range(THREADS)])
    l.buffer("r_max", "u32", data=[0x7000_0000] * THREADS)
    l.buffer("r_or", "u32", data=[0x8000_0000] * THREADS)
    l.buffer("r_xor", "u32", data=[0xFFFF] * THREADS)
    l.buffer("r_inc", "u32", data=[i % 3 for i in range(THREADS)])
    l.buffer("r_add64", "u64", data=[(1 << 40) + i for i in range(THREADS)])
    l.param("input", "r_add", "r_min", "r_max", "r_or", "r_xor", "r_inc", "r_add64")
    return l


def reference(l):
    inp = l.get("input").data
    add = list(l.get("r_add").data)
    mn = list(l.get("r_min").data)
    mx = list(l.get("r_max").data)
    or_ = list(l.get("r_or").data)
    xor = list(l.get("r_xor").data)
    inc = list(l.get("r_inc").data)
    add64 = list(l.get("r_add64").data)
    for cta in range(CTAS):
        for t in range(THREADS):
            v = inp[cta * THREADS + t]
            add[t] = u32(add[t] + v)
            mn[t] = min(mn[t], s32(v))
            mx[t] = max(mx[t], v ^ 0x5A5A)
            or_[t] |= (1 << cta) | (t << 4)
            xor[t] ^= v
            limit = t + 2
            inc[t] = 0 if inc[t] >= limit else inc[t] + 1   # start < limit: +1 mod limit+1
            add64[t] = (add64[t] + (v << 24)) % (1 << 64)
    return {"r_add": add, "r_min": mn, "r_max": mx, "r_or": or_, "r_xor": xor, "r_inc": inc,
            "r_add64": add64}
