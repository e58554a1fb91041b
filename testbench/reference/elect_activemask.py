"""Hand PTX: elect.sync with full/divergent/shrinking masks; activemask under divergence/loops.

Project rule (PTX ISA section 9.7.13.14 only asks for a deterministic leader): the lowest active lane of the mask.
activemask values assume the warp is converged at each branch point (bar.warp.sync before it)
and that the lanes taking the same path run together."""
from corpus import Launch

CTAS, THREADS = 2, 64
MOD3 = sum(1 << i for i in range(32) if i % 3 == 0)


def launch():
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("out", "u32", length=CTAS * THREADS * 10)
    l.param("out")
    return l


def lowest(mask):
    return (mask & -mask).bit_length() - 1


def reference(l):
    out = []
    for gid in range(CTAS * THREADS):
        lane = gid % 32
        o = [0] * 10
        o[0], o[1] = 0, int(lane == 0)
        o[2] = MOD3 if lane % 3 == 0 else (~MOD3 & 0xFFFF_FFFF)
        o[3] = lowest(o[2])
        o[4] = 0xFFFF_FFFF if lane < 4 else lane - 4
        trips = lane % 4 + 1
        for i in range(trips):
            o[5 + i] = sum(1 << j for j in range(32) if j % 4 + 1 > i)
        out += o
    return {"out": out}
