"""match.any / match.all with full and partial masks on 32- and 64-bit keys."""
from corpus import Launch

CTAS, THREADS = 2, 64


def launch():
    keys, keys64 = [], []
    for gid in range(CTAS * THREADS):
        w, lane = gid // 32, gid % 32
        if w == 0:
            k = lane % 5                              # five classes
        elif w == 1:
            k = 7 if lane < 24 else 8 + (lane == 30)  # lanes 0..23 all equal; 24..31 not
        elif w == 2:
            k = 3 if lane >= 24 else lane // 2        # lanes 24..31 all equal
        else:
            k = 42                                    # whole warp equal
        keys.append(k)
        # 64-bit keys differing only in the high word for some lanes
        keys64.append(((lane % 2) << 40) | (lane % 4 // 2) | (w << 60))
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("keys", "u32", data=keys)
    l.buffer("keys64", "u64", data=keys64)
    for name in ("any_out", "all_out", "all_pred", "any64_out"):
        l.buffer(name, "u32", length=CTAS * THREADS)
    l.param("keys", "keys64", "any_out", "all_out", "all_pred", "any64_out")
    return l


def reference(l):
    keys = l.get("keys").data
    keys64 = l.get("keys64").data
    n = len(keys)
    any_o, all_o, all_p, any64 = [0] * n, [0] * n, [0] * n, [0xFFFF_FFFF] * n
    for w in range(n // 32):
        b = w * 32
        for i in range(32):
            any_o[b + i] = sum(1 << j for j in range(32) if keys[b + j] == keys[b + i])
        for mask in (0x00FFFFFF, 0xFF000000):
            lanes = [i for i in range(32) if mask >> i & 1]
            equal = len({keys[b + i] for i in lanes}) == 1
            for i in lanes:
                all_o[b + i] = mask if equal else 0
                all_p[b + i] = int(equal)
        lanes = [i for i in range(32) if i % 3 == 0]
        for i in lanes:
            any64[b + i] = sum(1 << j for j in lanes if keys64[b + j] == keys64[b + i])
    return {"any_out": any_o, "all_out": all_o, "all_pred": all_p, "any64_out": any64}
