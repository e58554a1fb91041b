"""f32/f64 atomicAdd in global memory: order-independent bins plus one toleranced sum."""
from corpus import Launch, f32

CTAS, THREADS = 4, 64
N = CTAS * THREADS

# The f32 sum of 256 values (gid+1)/10 rounds differently for each order of the atomics; the
# worst-case error is far below 1e-4 relative (the sum is ~3290, each step errs < 2^-12 * 3290).
TOLERANCE = {"inexact": {"epsilon": 0.0, "max_relative": 1e-4}}


def launch():
    data = [((i * 29) % 97 - 48) / 8.0 for i in range(N)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "f32", data=data)
    l.buffer("exact", "f32", length=4)
    l.buffer("dexact", "f64", length=2)
    l.buffer("inexact", "f32", length=1)
    l.param("input", "exact", "dexact", "inexact")
    return l


def reference(l):
    inp = l.get("input").data
    exact = [0.0] * 4
    dexact = [0.0, 0.0]
    for gid, v in enumerate(inp):
        exact[gid % 4] += v
        if gid % 2 == 0:
            dexact[0] += gid / 1024.0
        else:
            dexact[1] -= v
    inexact = sum(f32((g + 1) / 10.0) for g in range(N))   # exact sum of the f32 addends
    return {"exact": exact, "dexact": dexact, "inexact": [inexact]}
