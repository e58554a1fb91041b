"""Hand PTX: 128-bit atomics (PTX ISA §9.7.13.5, atom .b128, sm_90): atom.cas.b128 and
atom.exch.b128 on global and on shared memory. One CTA of 64 threads; thread t owns element t
of each array (two u64 words, low word first), so the order of the atomics cannot change a
result. Five atomics per thread and element, each returning the old element:
1. cas(cmp, new): cmp is the element (a third of the threads) or the element with one bit
   flipped in its low or high word (no swap);
2. exch(x); 3. cas(x, ~x); 4. cas(~x, x); 5. exch(~x), x random. Steps 2-5 always swap, and
every bit of the compare, new and exchange operands is 0 in one of them and 1 in another."""
from corpus import Launch

THREADS = 64
MASK = (1 << 64) - 1
STEPS = 5


def words(seed, n):
    x, out = seed, []
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & MASK
        out.append(x ^ (x >> 29))
    return out


def compares(a):
    """Thread t's first compare value: the element (t % 3 == 0) or it with bit (7t mod 128)
    flipped."""
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
        l.buffer(name + "c", "u64", data=compares(a))          # step 1's compare values
        l.buffer(name + "n", "u64", data=words(seed + 10, 2 * THREADS))  # step 1's new values
        l.buffer(name + "x", "u64", data=words(seed + 20, 2 * THREADS))  # x of steps 2-5
        l.buffer(name + "o", "u64", length=2 * STEPS * THREADS)  # old values, [t][step][2]
        l.buffer(name + "r", "u64", length=2 * THREADS)        # the element at the end
    l.param("g", "gc", "gn", "gx", "go", "gr", "s", "sc", "sn", "sx", "so", "sr")
    return l


def reference(l):
    out = {}
    for name in ["g", "s"]:
        a, c, n, x = (l.get(name + k).data for k in ["", "c", "n", "x"])
        olds, r = [], []
        for t in range(THREADS):
            pair = lambda v, i=t: v[2 * i:2 * i + 2]  # noqa: E731
            xs, nx = pair(x), [w ^ MASK for w in pair(x)]
            cur = pair(a)

            def cas(cmp, new):
                nonlocal cur
                olds.extend(cur)
                if cmp == cur:
                    cur = new

            def exch(v):
                nonlocal cur
                olds.extend(cur)
                cur = v

            cas(pair(c), pair(n))
            exch(xs)
            cas(xs, nx)
            cas(nx, xs)
            exch(nx)
            r += cur
        out[name + "o"], out[name + "r"] = olds, r
        if name == "g":
            out["g"] = r
    return out
