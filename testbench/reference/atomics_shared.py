"""Shared-memory atomics (int/unsigned/float/double), 3 CTAs x 128 threads, per-CTA results."""
from corpus import Launch, u32, s32

CTAS, THREADS = 3, 128


def launch():
    data = [((i * 40503) % 4001) - 2000 for i in range(CTAS * THREADS)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("input", "s32", data=data)
    l.buffer("iout", "s32", length=CTAS * 6)
    l.buffer("uout", "u32", length=CTAS * 5)
    l.buffer("fout", "f32", length=CTAS)
    l.buffer("dout", "f64", length=CTAS)
    l.param("input", "iout", "uout", "fout", "dout")
    return l


def reference(l):
    inp = l.get("input").data
    iout, uout, fout, dout = [], [], [], []
    for cta in range(CTAS):
        vals = inp[cta * THREADS:(cta + 1) * THREADS]
        si = [0, 0, 0, 0, 0x7FFF_FFFF, -0x8000_0000]
        su = [0, 2, 0, 0, 0]
        sf, sd = 0.0, 1.0
        for t, v in enumerate(vals):
            si[0] = s32(si[0] + v)
            si[1 + t % 3] += 1
            si[4] = min(si[4], v)
            si[5] = max(si[5], v)
            su[0] = 0 if su[0] >= 10 else su[0] + 1
            if t % 4 == 1:
                su[1] = 6 if (su[1] == 0 or su[1] > 6) else su[1] - 1
            su[2] |= 1 << (t % 32)
            su[3] = u32(su[3] + t)
            if v > 0:
                su[4] = 77
            sf += (v & 0xFF) * 0.25     # exact in f32: < 2^24 quarter steps
            sd += v * 0.5               # exact in f64
        iout += si
        uout += su
        fout.append(sf)
        dout.append(sd)
    return {"iout": iout, "uout": uout, "fout": fout, "dout": dout}
