"""redux.sync add/min/max via __reduce_*_sync with three partial masks per warp."""
from corpus import Launch, u32, s32

CTAS, THREADS = 2, 64


def launch():
    data = [u32(i * 0x9E3779B9 + 0x7F4A7C15) for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("add_out", "u32", length=CTAS * THREADS)
    l.buffer("min_out", "u32", length=CTAS * THREADS)
    l.buffer("max_out", "s32", length=CTAS * THREADS)
    l.param("input", "add_out", "min_out", "max_out")
    return l


def reference(l):
    inp = l.get("input").data
    n = len(inp)
    add, mn, mx = [0] * n, [0] * n, [0] * n
    for w in range(n // 32):
        vals = inp[w * 32:(w + 1) * 32]
        for mask, low in ((0x000FFFFF, True), (0xAAA00000, False), (0x55500000, False)):
            lanes = [i for i in range(32) if mask >> i & 1]
            if low:
                a = u32(sum(vals[i] for i in lanes))
                m = min(vals[i] for i in lanes)
                x = max(s32(vals[i]) for i in lanes)
            else:
                a = u32(sum(vals[i] ^ 5 for i in lanes))
                m = min(vals[i] >> 1 for i in lanes)
                x = max(s32(vals[i] >> 3) for i in lanes)
            for i in lanes:
                add[w * 32 + i], mn[w * 32 + i], mx[w * 32 + i] = a, m, x
    return {"add_out": add, "min_out": mn, "max_out": mx}
