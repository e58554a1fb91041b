"""Hand PTX: cp.async + cp.async.mbarrier.arrive (.noinc and not) on two mbarriers, 2 phases."""
from corpus import Launch, u32

CTAS, THREADS = 2, 64


def launch():
    data = [u32(i * 0x01000193 ^ 0xA5A5A5A5) for i in range(CTAS * THREADS * 8)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("out", "u32", length=CTAS * THREADS * 8)
    l.param("input", "out")
    return l


def reference(l):
    inp = l.get("input").data
    out = []
    for gid in range(CTAS * THREADS):
        cta, tid = divmod(gid, THREADS)
        src = (cta * THREADS + (tid ^ 1)) * 8     # the neighbour's 32 input bytes
        w = inp[src:src + 8]
        out += [w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]
    return {"out": out}
