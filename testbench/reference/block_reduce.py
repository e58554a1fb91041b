"""Block sum: redux.sync per warp + bar.sync + shfl.down in warp 0 + broadcast, 3 CTAs x 256."""
from corpus import Launch, u32

CTAS, THREADS = 3, 256


def launch():
    data = [u32(i * 0x01000193 + 12345) for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("block_sum", "u32", length=CTAS)
    l.buffer("others", "u32", length=CTAS * THREADS)
    l.param("input", "block_sum", "others")
    return l


def reference(l):
    inp = l.get("input").data
    sums, others = [], []
    for cta in range(CTAS):
        vals = inp[cta * THREADS:(cta + 1) * THREADS]
        total = u32(sum(vals))
        sums.append(total)
        others += [u32(total - v) for v in vals]
    return {"block_sum": sums, "others": others}
