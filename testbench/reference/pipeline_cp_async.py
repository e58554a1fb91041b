"""cp.async via __pipeline_memcpy_async (zero fill) + commit + wait_prior, 3 stages x 8 chunks."""
from corpus import Launch, s32

CTAS, THREADS, CHUNKS, CHUNK = 2, 64, 8, 64


def launch():
    n = CTAS * CHUNKS * CHUNK * 4
    data = [((i * 2654435761) % 100003) - 50000 for i in range(n)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "s32", data=data)          # int4 vectors, 4 ints each
    l.buffer("acc_out", "s32", length=CTAS * CHUNK * 4)
    l.param("input", "acc_out")
    return l


def reference(l):
    inp = l.get("input").data
    out = []
    for cta in range(CTAS):
        for t in range(THREADS):
            ax = ay = az = aw = 0
            for c in range(CHUNKS):
                vec = (cta * CHUNKS + c) * CHUNK + t
                x, y, z, w = inp[vec * 4:vec * 4 + 4]
                if (c * CHUNK + t) % 5 == 0:   # src_size 8: bytes 8..15 are zero-filled
                    z, w = 0, 0
                ax, ay = s32(ax + x), s32(ay + y)
                az = s32(az + z * (c + 1))
                aw ^= w
            out += [ax, ay, az, s32(aw)]
    return {"acc_out": out}
