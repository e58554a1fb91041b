"""cuda::pipeline, block scope, 1 producer warp / 2 consumer warps, 2 stages x 6 chunks."""
from corpus import Launch, s32

CTAS, THREADS, CHUNK, CHUNKS = 2, 96, 64, 6


def launch():
    data = [((i * 7919) % 1999) - 999 for i in range(CTAS * CHUNKS * CHUNK)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "s32", data=data)
    l.buffer("sums", "s32", length=CTAS * CHUNK)
    l.buffer("copies", "s32", length=CTAS * CHUNKS * CHUNK)
    l.param("input", "sums", "copies")
    return l


def reference(l):
    inp = l.get("input").data
    sums = [0] * (CTAS * CHUNK)
    copies = [0] * (CTAS * CHUNKS * CHUNK)
    for cta in range(CTAS):
        for c in range(CHUNKS):
            chunk = inp[(cta * CHUNKS + c) * CHUNK:(cta * CHUNKS + c + 1) * CHUNK]
            for t in range(CHUNK):
                sums[cta * CHUNK + t] = s32(sums[cta * CHUNK + t] + chunk[t] + chunk[CHUNK - 1 - t])
                copies[(cta * CHUNKS + c) * CHUNK + t] = chunk[t]
    return {"sums": sums, "copies": copies}
