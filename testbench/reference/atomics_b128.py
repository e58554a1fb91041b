"""Hand PTX: 128-bit atomics (PTX ISA §9.7.13.5, atom .b128, sm_90): atom.cas.b128 and
atom.exch.b128 on global and on shared memory. One CTA of 64 threads; thread t owns element t
of each array (two u64 words, low word first), so the order of the atomics cannot change a
result. CAS compares all 128 bits: a third of the threads compare with the element itself
(the swap happens), the others with the element with one bit flipped, in its low or high
word (no swap); every thread gets the old element back. Operand words are random 64-bit
values, so every bit of both halves is exercised."""
from corpus import Launch

THREADS = 64
MASK = (1 << 64) - 1


def words(seed, n):
    x, out = seed, []
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & MASK
        out.append(x ^ (x >> 29))
    return out


def compares(a):
    """Thread t's compare value: the element (t % 3 == 0) or it with bit (7t mod 128) flipped."""
    out = []
    for t in range(THREADS):
        lo, hi = a[2 * t], a[2 * t + 1]
        if t % 3:
            bit = (7 * t) % 128
            if bit < 64:
                lo ^= 1 << bit
            else:
                hi ^= 1 << (bit - 64)
        out += [lo, hi]
    return out


def launch():
    l = Launch(block=[THREADS], grid=[1])
    for name, seed in [("g", 31), ("s", 32)]:
        a = words(seed, 2 * THREADS)
        l.buffer(name, "u64", data=a)                          # the elements (g: atomics act on it)
        l.buffer(name + "c", "u64", data=compares(a))          # CAS compare values
        l.buffer(name + "n", "u64", data=words(seed + 10, 2 * THREADS))  # CAS new values
        l.buffer(name + "x", "u64", data=words(seed + 20, 2 * THREADS))  # exch values
        l.buffer(name + "co", "u64", length=2 * THREADS)       # CAS old values
        l.buffer(name + "xo", "u64", length=2 * THREADS)       # exch old values
        l.buffer(name + "r", "u64", length=2 * THREADS)        # the element after both
    l.param("g", "gc", "gn", "gx", "gco", "gxo", "gr", "s", "sc", "sn", "sx", "sco", "sxo", "sr")
    return l


def reference(l):
    out = {}
    for name in ["g", "s"]:
        a, c, n, x = (l.get(name + k).data for k in ["", "c", "n", "x"])
        co, xo, r = [], [], []
        for t in range(THREADS):
            cur = a[2 * t:2 * t + 2]
            co += cur
            if c[2 * t:2 * t + 2] == cur:
                cur = n[2 * t:2 * t + 2]
            xo += cur
            r += x[2 * t:2 * t + 2]
        out[name + "co"], out[name + "xo"], out[name + "r"] = co, xo, r
        if name == "g":
            out["g"] = r
    return out
