"""Hand PTX: bar.red.popc/and/or with thread counts 64/32/all, negated predicate, exited warp."""
from corpus import Launch

CTAS, THREADS = 2, 128


def launch():
    data = []
    for gid in range(CTAS * THREADS):
        cta, tid = divmod(gid, THREADS)
        warp, lane = divmod(tid, 32)
        if cta == 0:
            v = 2 * lane + 1 if warp < 2 else lane * 3   # warps 0-1 all odd -> and = 1
        else:
            v = 1000 if tid == 70 else tid * 5 + 2 * (lane == 9)   # one even 1000 in warp 2
        if warp == 3:
            v = 1000                                          # exited warp: never counted
        data.append(v)
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("out", "u32", length=CTAS * THREADS * 4)
    l.param("input", "out")
    return l


def reference(l):
    inp = l.get("input").data
    out = [0] * (CTAS * THREADS * 4)
    for cta in range(CTAS):
        base = cta * THREADS
        p = [inp[base + t] & 1 for t in range(THREADS)]
        q = [inp[base + t] == 1000 for t in range(THREADS)]
        live = range(96)
        or_all = int(any(q[t] for t in live))
        popc_all = sum(p[t] for t in live)
        w01 = range(64)
        w2 = range(64, 96)
        r01 = (sum(p[t] for t in w01), int(all(p[t] for t in w01)))
        r2 = (sum(1 - p[t] for t in w2), int(any(p[t] for t in w2)))
        for t in live:
            a, b = r01 if t < 64 else r2
            out[(base + t) * 4:(base + t) * 4 + 4] = [a, b, or_all, popc_all]
    return {"out": out}
