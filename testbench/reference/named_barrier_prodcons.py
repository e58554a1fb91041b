"""Hand PTX: bar.sync/bar.arrive producer-consumer pairs on barriers 1-4 with 64 threads each."""
from corpus import Launch

CTAS, THREADS, ROUNDS = 2, 128, 4


def launch():
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("out", "u32", length=CTAS * ROUNDS * 64)
    l.buffer("last", "u32", length=CTAS * THREADS)
    l.param("out", "last")
    return l


def value(cta, pair, rnd, lane):
    return cta * 100000 + pair * 10000 + rnd * 100 + lane


def reference(l):
    out = [0] * (CTAS * ROUNDS * 64)
    last = []
    for cta in range(CTAS):
        for rnd in range(ROUNDS):
            for pair in range(2):
                for lane in range(32):
                    out[(cta * ROUNDS + rnd) * 64 + pair * 32 + lane] = value(cta, pair, rnd, 31 - lane)
        for tid in range(THREADS):
            lane = tid % 32
            last.append(value(cta, 0, ROUNDS - 1, lane) + value(cta, 1, ROUNDS - 1, lane))
    return {"out": out, "last": last}
