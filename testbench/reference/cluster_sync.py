"""barrier.cluster arrive/wait rounds on one-CTA clusters: 2 CTAs x 128 threads, 3 rounds."""
from corpus import Launch

CTAS, THREADS, ROUNDS = 2, 128, 3
M = 0xFFFF_FFFF


def launch():
    data = [(i * 2654435761 + 12345) & M for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("out", "u32", length=CTAS * THREADS)
    l.param("input", "out")
    return l


def reference(l):
    inp = l.get("input").data
    out = []
    for cta in range(CTAS):
        acc = inp[cta * THREADS:(cta + 1) * THREADS]
        for _ in range(ROUNDS):
            buf = list(acc)
            for t in range(THREADS):
                for _ in range((t // 32) * 5):
                    acc[t] = (acc[t] * 1664525 + 1013904223) & M
            acc = [acc[t] ^ buf[(t + 37) % THREADS] for t in range(THREADS)]
        out += acc
    return {"out": out}
