"""Integer atomics on shared memory, one per thread on its own consecutive element (PTX ISA
§9.7.13.5, atom), so
the lanes of a warp that share a 16-byte line are served together by the atomic unit's lane
groups: add.u32 / add.u64 (operands that carry across each bit position in turn),
inc.u32 / dec.u32 (old values at, under and over the limit, and 0), min/max .u32 / .s32 /
.u64 / .s64 (pairs that differ only in the upper or only in the lower half), and/or/xor,
exch and cas (half the threads swap, the others compare with the complement and do not) on 32 and
64 bits; every old value returned. Each case reaches every lane position of a 4-lane step. The elements are distinct, so each ends as op(a[t], b[t])
whatever the order of the atomics."""
import random

from corpus import Launch

THREADS = 64
OPS32 = ["add", "inc", "dec", "umin", "umax", "smin", "smax", "and", "or", "xor", "exch", "cas"]
OPS64 = ["add", "umin", "umax", "smin", "smax", "and", "or", "xor", "exch", "cas"]


def signed(x, bits):
    return x - (1 << bits) if x >> (bits - 1) else x


def variant(t):
    """0 or 1, alternating every 4 threads and flipped for threads 32..63: each lane position of
    a 4-lane step, and each bit k of the carry pairs, sees both."""
    return (t // 4 + t // 32) % 2


def carry_pairs(rng, bits):
    """Thread t, k = t mod bits: variant 0, random bits above k + 1 over 2^k - 1, plus 1 (a carry
    through bits 0..k-1 into k, the upper bits kept); variant 1, ones from bit k up plus 2^k
    and random bits below k (a carry out of the top: the sum is the random low bits). So every
    bit of every lane position's sum is 0 in some lanes and 1 in others."""
    mask = (1 << bits) - 1
    old, arg = [], []
    for t in range(THREADS):
        k = t % bits
        r = rng.getrandbits(bits)
        if variant(t) == 0:
            old.append((r & ~((2 << k) - 1) & mask) | ((1 << k) - 1))
            arg.append(1)
        else:
            old.append(mask ^ ((1 << k) - 1))
            arg.append((1 << k) | (r & ((1 << k) - 1)))
    return old, arg


def near(rng, bits, operands):
    """Values that differ from the operand only in its upper half (variant 0) or lower half (1)."""
    half = bits // 2
    low = (1 << half) - 1
    out = []
    for t, o in enumerate(operands):
        r = rng.getrandbits(bits)
        out.append((o & ~low | r & low) if variant(t) else (r & ~low | o & low))
    return out


def apply(op, old, arg, bits, t):
    mask = (1 << bits) - 1
    if op == "add":
        return (old + arg) & mask
    if op == "inc":  # PTX ISA §9.7.13.5: (old >= b) ? 0 : old + 1
        return 0 if old >= arg else old + 1
    if op == "dec":  # ((old == 0) || (old > b)) ? b : old - 1
        return arg if old == 0 or old > arg else old - 1
    if op in ("umin", "umax"):
        return (min if op == "umin" else max)(old, arg)
    if op in ("smin", "smax"):
        return ((min if op == "smin" else max)(signed(old, bits), signed(arg, bits))) & mask
    if op == "and":
        return old & arg
    if op == "or":
        return old | arg
    if op == "xor":
        return old ^ arg
    if op == "exch":
        return arg
    assert op == "cas"
    return arg if variant(t) == 0 else old


def blocks(rng, ops, bits, operands):
    """Per op, the n old values (and the add's own operands)."""
    old = {}
    for op in ops:
        if op == "add":
            old[op], add_arg = carry_pairs(rng, bits)
        elif op in ("inc", "dec"):
            limits = [o & 15 for o in operands]
            old[op] = [[lim, max(lim - 1, 0), lim + 1, 0][(t + t // 4) % 4] for t, lim in enumerate(limits)]
        elif op in ("umin", "umax", "smin", "smax"):
            old[op] = near(rng, bits, operands)
        else:
            old[op] = [rng.getrandbits(bits) for _ in range(THREADS)]
    return old, add_arg


def launch():
    rng = random.Random(2026)
    ops32 = [rng.getrandbits(32) for _ in range(THREADS)]
    ops64 = [rng.getrandbits(64) for _ in range(THREADS)]
    w, add32 = blocks(rng, OPS32, 32, ops32)
    d, add64 = blocks(rng, OPS64, 64, ops64)
    l = Launch(block=[THREADS], grid=[1])
    l.buffer("w", "u32", data=sum((w[op] for op in OPS32), []))
    l.buffer("w_arg", "u32", data=ops32 + add32)
    l.buffer("d", "u64", data=sum((d[op] for op in OPS64), []))
    l.buffer("d_arg", "u64", data=add64 + ops64)
    l.buffer("old32", "u32", length=len(OPS32) * THREADS)
    l.buffer("old64", "u64", length=len(OPS64) * THREADS)
    l.param("w", "w_arg", "d", "d_arg", "old32", "old64")
    return l


def reference(l):
    w, w_arg = list(l.get("w").data), list(l.get("w_arg").data)
    d, d_arg = list(l.get("d").data), list(l.get("d_arg").data)
    n = THREADS
    out_w, out_d = [], []
    for k, op in enumerate(OPS32):
        for t in range(n):
            arg = w_arg[n + t] if op == "add" else (w_arg[t] & 15 if op in ("inc", "dec") else w_arg[t])
            out_w.append(apply(op, w[k * n + t], arg, 32, t))
    for k, op in enumerate(OPS64):
        for t in range(n):
            arg = d_arg[t] if op == "add" else d_arg[n + t]
            out_d.append(apply(op, d[k * n + t], arg, 64, t))
    return {"w": out_w, "d": out_d, "old32": w, "old64": d}
