"""Hand PTX: shfl.sync up/down/bfly/idx with clamps, widths, odd clamp values and predicates."""
from corpus import Launch, shfl, u32

CTAS, THREADS = 2, 64
OPS = [("up", 3, 0x0), ("down", 5, 0x1F), ("bfly", 0x11, 0x1F), ("idx", None, 0x1F),
       ("down", 2, 0x181F), ("up", 1, 0x1800), ("down", 4, 0xC)]


def launch():
    data = [u32(i * 0x6F4F2A1 + 99) for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("out", "u32", length=CTAS * THREADS * 9)
    l.param("input", "out")
    return l


def reference(l):
    inp = l.get("input").data
    out = []
    for w in range(CTAS * THREADS // 32):
        v = inp[w * 32:(w + 1) * 32]
        for lane in range(32):
            vals, bits = [], 0
            for k, (mode, b, c) in enumerate(OPS):
                if b is None:
                    b = lane * 7
                x, p = shfl(mode, v, lane, b, c)
                vals.append(x)
                bits |= int(p) << k
            if lane < 16:
                x, p = shfl("bfly", v, lane, 3, 0x1F)
                vals.append(x)
                bits |= int(p) << 7
            else:
                vals.append(0)
            out += vals + [bits]
    return {"out": out}
