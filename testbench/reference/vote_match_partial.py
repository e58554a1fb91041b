"""Hand PTX: vote.sync uni/all/any/ballot and match.all b32/b64 with partial masks, exited lanes."""
from corpus import Launch

CTAS, THREADS = 2, 64


def launch():
    data = []
    for gid in range(CTAS * THREADS):
        cta, tid = divmod(gid, THREADS)
        warp, lane = divmod(tid, 32)
        if cta == 0 and warp == 0:
            v = lane * 3                              # all < 100, keys differ
        elif cta == 0:
            v = 40 + lane * 5 if lane % 2 else 33     # odd lanes cross 100; even lanes equal
        elif warp == 0:
            v = 200 + (lane >= 16) * 16 + lane % 4    # q all false; match.all groups equal
        else:
            v = 64 + lane % 2 if lane < 16 else 7 * lane
        data.append(v)
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    l.buffer("out", "u32", length=CTAS * THREADS * 8)
    l.param("input", "out")
    return l


def lanes_of(mask, live):
    return [i for i in range(32) if mask >> i & 1 and i in live]


def reference(l):
    inp = l.get("input").data
    out = [0] * (CTAS * THREADS * 8)
    for w in range(CTAS * THREADS // 32):
        base = w * 32
        live = set(range(28)) if w % 2 == 1 else set(range(32))
        v = inp[base:base + 32]
        q = [x < 100 for x in v]
        full = lanes_of(0xFFFF_FFFF, live)
        uni = int(len({q[i] for i in full}) == 1)
        all_nq = int(all(not q[i] for i in full))
        any_q = int(any(q[i] for i in full))
        ballot_nq = sum(1 << i for i in full if not q[i])
        even = lanes_of(0x5555_5555, live)
        odd = lanes_of(0xAAAA_AAAA, live)
        uni_even = int(len({v[i] & 1 for i in even}) == 1)
        ballot_odd = sum(1 << i for i in odd if q[i])
        cta = w // 2
        b64 = lanes_of(0x0303_0303, live)
        key64 = [(v[i] >> 5) | (cta << 40) for i in range(32)]
        m64 = sum(1 << i for i in b64) if len({key64[i] for i in b64}) == 1 else 0
        for i in live:
            o = out[(base + i) * 8:(base + i) * 8 + 8]
            o[0:4] = [uni, all_nq, any_q, ballot_nq]
            o[4] = uni_even if i % 2 == 0 else ballot_odd
            group = lanes_of(0x0000_FFFF if i < 16 else 0xFFFF_0000, live)
            equal = len({v[j] >> 4 for j in group}) == 1
            o[5] = sum(1 << j for j in group) if equal else 0
            o[6] = int(equal)
            o[7] = m64 if i in b64 else 0xFFFF_FFFF
            out[(base + i) * 8:(base + i) * 8 + 8] = o
    return {"out": out}
