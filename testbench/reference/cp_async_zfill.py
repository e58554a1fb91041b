"""Hand PTX: cp.async src-size zero fill, ignore-src, three groups retired by wait_group 2/1/0."""
from corpus import Launch

CTAS, THREADS = 2, 64


def launch():
    data = [(i * 151 + 7) % 251 + 1 for i in range(CTAS * THREADS * 48)]   # never 0 or 0xEE
    data = [0x11 if b == 0xEE else b for b in data]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u8", data=data)
    l.buffer("out", "u8", length=CTAS * THREADS * 48)
    l.param("input", "out")
    return l


def copy(dst, src, off, cp_size, src_size):
    for k in range(cp_size):
        dst[off + k] = src[off + k] if k < src_size else 0


def reference(l):
    inp = l.get("input").data
    out = []
    for gid in range(CTAS * THREADS):
        tid = gid % THREADS
        src = inp[gid * 48:(gid + 1) * 48]
        mem = [0xEE] * 48
        copy(mem, src, 0, 4, 4)
        copy(mem, src, 8, 8, tid % 9)
        copy(mem, src, 16, 16, tid % 17)
        copy(mem, src, 32, 16, 0 if tid % 3 == 0 else 16)
        out += mem
    return {"out": out}
