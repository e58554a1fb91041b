"""Hand PTX: 3-stage full/empty mbarrier pipeline, arrive.expect_tx + cp.async.bulk, 10 chunks."""
from corpus import Launch, u32

CTAS, THREADS, CHUNKS, CHUNK = 2, 96, 10, 64


def launch():
    data = [u32(i * 2246822519 + 374761393) for i in range(CTAS * CHUNKS * CHUNK)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("acc", "u32", length=CTAS * CHUNK)
    l.buffer("copy", "u32", length=CTAS * CHUNKS * CHUNK)
    l.param("input", "acc", "copy")
    return l


def reference(l):
    inp = l.get("input").data
    acc = [0] * (CTAS * CHUNK)
    copy = [0] * (CTAS * CHUNKS * CHUNK)
    for cta in range(CTAS):
        for c in range(CHUNKS):
            chunk = inp[(cta * CHUNKS + c) * CHUNK:(cta * CHUNKS + c + 1) * CHUNK]
            for i in range(CHUNK):
                a = acc[cta * CHUNK + i]
                acc[cta * CHUNK + i] = u32(a * 3 + chunk[i] - chunk[CHUNK - 1 - i])
                copy[(cta * CHUNKS + c) * CHUNK + i] = chunk[i]
    return {"acc": acc, "copy": copy}
