"""Hand PTX: barrier.sync reached by a diverged warp's lanes in 2-3 parts, 6 rounds, 2 CTAs x 128 threads."""
from corpus import Launch

CTAS, THREADS, ROUNDS = 2, 128, 6
MASK = 0xFFFFFFFF


def launch():
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("out", "u32", length=CTAS * THREADS)
    l.param("out")
    return l


def value(cta, rnd, tid):
    return (cta * 1000003 + rnd * 7919 + tid * 31 + 1) & MASK


def reference(l):
    out = []
    for cta in range(CTAS):
        for tid in range(THREADS):
            acc = 0
            for rnd in range(ROUNDS):
                src = (tid * 7 + rnd * 13 + 1) % THREADS
                acc = (acc * 3 + value(cta, rnd, src)) & MASK
            out.append(acc)
    return {"out": out}
