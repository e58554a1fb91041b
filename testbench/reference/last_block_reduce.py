"""Grid reduction with __threadfence + atomicInc ticket; the last CTA sums the partials."""
from corpus import Launch, u32

CTAS, THREADS = 5, 128


def launch():
    data = [u32(i * 0x2545F491 + 7) for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("partials", "u32", length=CTAS)
    l.buffer("counter", "u32", data=[0])
    l.buffer("result", "u32", length=1)
    l.param("input", "partials", "counter", "result")
    return l


def reference(l):
    inp = l.get("input").data
    partials = [u32(sum(inp[c * THREADS:(c + 1) * THREADS])) for c in range(CTAS)]
    return {"partials": partials, "counter": [0], "result": [u32(sum(partials))]}
