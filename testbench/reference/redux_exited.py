"""Hand PTX: redux.sync add/min/max/and/or/xor, partial masks, exited lanes in the mask."""
from corpus import Launch, u32, s32

CTAS, THREADS = 2, 64


def launch():
    data = [u32((i * 0x27D4EB2F) ^ (i << 28)) for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("out", "u32", length=CTAS * THREADS * 8)
    l.param("input", "out")
    return l


def reference(l):
    inp = l.get("input").data
    out = [0] * (CTAS * THREADS * 8)
    for w in range(CTAS * THREADS // 32):
        base = w * 32
        live = list(range(29)) if w % 2 == 1 else list(range(32))
        v = inp[base:base + 32]
        lv = [v[i] for i in live]
        and_, or_, xor = 0xFFFF_FFFF, 0, 0
        for x in lv:
            and_ &= x
            or_ |= x
            xor ^= x
        full = [u32(sum(lv)), min(lv), u32(max(s32(x) for x in lv)), and_, or_, xor]
        odd = [i for i in live if i % 2 == 1]
        even = [i for i in live if i % 2 == 0]
        odd_min = u32(min(s32(v[i]) for i in odd))
        even_max = max(v[i] for i in even)
        mid = u32(sum(u32(v[i] * 3) for i in range(8, 16)))
        for i in live:
            o = full + [odd_min if i % 2 else even_max, mid if 8 <= i < 16 else 0]
            out[(base + i) * 8:(base + i) * 8 + 8] = o
    return {"out": out}
