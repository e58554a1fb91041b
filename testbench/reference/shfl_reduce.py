"""__shfl_*_sync reductions, scan, gather, width-8 segments and a partial-mask exchange."""
from corpus import Launch, s32, shfl

CTAS, THREADS = 2, 64
FULL_C = 0x1F            # c operand for width 32 (down/bfly/idx)
UP_C = 0                 # c operand of __shfl_up_sync, width 32
SEG8_C = ((32 - 8) << 8) | 0x1F


def launch():
    data = [((i * 613) % 1001) - 500 for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "s32", data=data)
    for name in ("down_sum", "xor_sum", "scan", "gather", "seg_down", "partial_xor"):
        l.buffer(name, "s32", length=CTAS * THREADS)
    l.param("input", "down_sum", "xor_sum", "scan", "gather", "seg_down", "partial_xor")
    return l


def step(mode, vals, b, c):
    return [shfl(mode, vals, lane, b, c)[0] for lane in range(32)]


def reference(l):
    inp = l.get("input").data
    out = {k: [] for k in ("down_sum", "xor_sum", "scan", "gather", "seg_down", "partial_xor")}
    for w in range(len(inp) // 32):
        v = inp[w * 32:(w + 1) * 32]
        s = list(v)
        for o in (16, 8, 4, 2, 1):
            t = step("down", s, o, FULL_C)
            s = [s32(a + b) for a, b in zip(s, t)]
        x = list(v)
        for o in (16, 8, 4, 2, 1):
            t = step("bfly", x, o, FULL_C)
            x = [s32(a + b) for a, b in zip(x, t)]
        p = list(v)
        for o in (1, 2, 4, 8, 16):
            t = step("up", p, o, UP_C)
            p = [s32(p[i] + t[i]) if i >= o else p[i] for i in range(32)]
        gather = [shfl("idx", v, lane, (lane * 5 + 3) & 31, FULL_C)[0] for lane in range(32)]
        seg = step("down", v, 3, SEG8_C)
        doubled = [s32(a * 2) for a in v]
        part = [shfl("bfly", doubled, lane, 4, FULL_C)[0] if lane < 16 else -1 for lane in range(32)]
        out["down_sum"] += s
        out["xor_sum"] += x
        out["scan"] += p
        out["gather"] += gather
        out["seg_down"] += seg
        out["partial_xor"] += part
    return out
