"""__ballot_sync/__any_sync/__all_sync with full and partial masks, 2 CTAs x 3 warps."""
from corpus import Launch

CTAS, THREADS = 2, 96


def launch():
    data = []
    for gid in range(CTAS * THREADS):
        warp = gid // 32
        lane = gid % 32
        if warp == 0:
            v = (gid * 37 + 11) % 256          # mixed
        elif warp == 1:
            v = 300 + lane * 3 + (1 if lane % 2 else 2)  # even lanes all > 200 and > 10
        elif warp == 2:
            v = 11 + lane if lane % 2 == 0 else 3 * lane + 1  # odd lanes: v%3 == 1 -> all true
        elif warp == 3:
            v = 2 if lane == 17 else 100 + lane  # one odd high lane < 5
        elif warp == 4:
            v = lane * 6 + 3 if lane % 2 else 5  # odd lanes multiples of 3 -> all false
        else:
            v = 201 if lane == 30 else lane      # one even lane > 200, some <= 10
        data.append(v)
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    for name in ("full_ballot", "part_ballot", "any_out", "all_out"):
        l.buffer(name, "u32", length=CTAS * THREADS)
    l.param("input", "full_ballot", "part_ballot", "any_out", "all_out")
    return l


def reference(l):
    inp = l.get("input").data
    n = len(inp)
    full, part, any_, all_ = [0] * n, [0] * n, [0] * n, [0] * n
    for w in range(n // 32):
        vals = inp[w * 32:(w + 1) * 32]
        full_b = sum(1 << i for i, v in enumerate(vals) if v & 1)
        groups = [
            (0x55555555, lambda v: v & 2, lambda v: v > 200, lambda v: v > 10),
            (0x0000AAAA, lambda v: v & 4, lambda v: v < 5, lambda v: v % 3 != 0),
            (0xAAAA0000, lambda v: v & 4, lambda v: v < 5, lambda v: v % 3 != 0),
        ]
        for mask, pb, pany, pall in groups:
            lanes = [i for i in range(32) if mask >> i & 1]
            ballot = sum(1 << i for i in lanes if pb(vals[i]))
            a = int(any(pany(vals[i]) for i in lanes))
            b = int(all(pall(vals[i]) for i in lanes))
            for i in lanes:
                part[w * 32 + i] = ballot
                any_[w * 32 + i] = a
                all_[w * 32 + i] = b
        for i in range(32):
            full[w * 32 + i] = full_b
    return {"full_ballot": full, "part_ballot": part, "any_out": any_, "all_out": all_}
