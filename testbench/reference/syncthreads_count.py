"""__syncthreads_count / _and / _or over 3 CTAs x 96 threads with per-CTA predicates."""
from corpus import Launch

CTAS, THREADS = 3, 96


def launch():
    data = []
    for cta in range(CTAS):
        for t in range(THREADS):
            if cta == 0:
                v = (t * 7 + 3) % 50 + 4          # all >= 4 before the odd-lane transform
            elif cta == 1:
                v = 77 if t == 40 else t % 19 + 5  # one even lane holds 77 (stays 77)
            else:
                v = t % 4                          # some values < 4 on even lanes
            data.append(v)
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "u32", data=data)
    for name in ("count_out", "and_out", "or_out"):
        l.buffer(name, "u32", length=CTAS * THREADS)
    l.param("input", "count_out", "and_out", "or_out")
    return l


def reference(l):
    inp = l.get("input").data
    count, and_, or_ = [], [], []
    for cta in range(CTAS):
        vals = []
        for t in range(THREADS):
            v = inp[cta * THREADS + t]
            if t & 1:
                v = (v * 3 + 1) & 0xFFFF_FFFF
            vals.append(v)
        c = sum(1 for v in vals if v & 1)
        a = int(all(v >= 4 for v in vals))
        o = int(any(v == 77 for v in vals))
        count += [c] * THREADS
        and_ += [a] * THREADS
        or_ += [o] * THREADS
    return {"count_out": count, "and_out": and_, "or_out": or_}
