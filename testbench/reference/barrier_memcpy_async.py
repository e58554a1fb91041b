"""cuda::barrier + cuda::memcpy_async (bulk copy + expect_tx on sm_90), 3 rounds, 2 CTAs."""
from corpus import Launch, f32

CTAS, THREADS, TILE, ROUNDS = 2, 128, 128, 3


def launch():
    data = [((i * 37) % 201 - 100) * 0.25 for i in range(CTAS * ROUNDS * TILE)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "f32", data=data)
    l.buffer("output", "f32", length=CTAS * ROUNDS * TILE)
    l.param("input", "output")
    return l


def reference(l):
    inp = l.get("input").data
    out = [0.0] * (CTAS * ROUNDS * TILE)
    for cta in range(CTAS):
        for r in range(ROUNDS):
            base = (cta * ROUNDS + r) * TILE
            for t in range(THREADS):
                out[base + t] = f32(inp[base + (t + r) % TILE] * 2.0 + r)
    return {"output": out}
