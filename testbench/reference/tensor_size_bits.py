"""Hand PTX: cp.async.bulk.tensor.5d loads whose box straddles each dimension's size: 56 maps,
sizes 2^k in dimensions 1-4 (maps 0-27: k = 0..27 in each dimension), then sizes of random bits
below such a top bit (maps 28-55), the box's two rows per dimension at S - 1 (inside) and S
(outside), PTX ISA §9.7.9.25.5.2 and §5.5.5."""
from corpus import Launch, tensor_map

MAPS = 56
POWERS = 28                      # maps 0..27: powers of two; 28..55: random sizes
BOX = [4, 2, 2, 2, 2]
ELEM = 4
STRIDE = 16                      # bytes of one step of each of dimensions 1-4
BOX_WORDS = 64
# Tensor words: map m's one row inside its box is words 4m..4m+3; the rows just outside (a
# dimension's coordinate at its size) are 16 bytes on per dimension, so they land on the next
# maps' words and the spare rows after them: none is zero, so a row taken for inside by mistake
# reads a non-zero word, not the zero fill.
TENSOR_WORDS = 4 * (MAPS + 4)


def exponents(m):
    """Dimension d's size is 2^k: map m = 7 r + g (m < 28) gets [27 - 4g, 26 - 4g, 25 - 4g, 24 - 4g]
    rotated by r, so each dimension meets every k in 0..27 once and the sizes sum to < 2^28
    (the map's base stays above 0: the one row inside is 16 * sum(S - 1) bytes past it)."""
    r, g = divmod(m, 7)
    ks = [27 - 4 * g, 26 - 4 * g, 25 - 4 * g, 24 - 4 * g]
    return [ks[(d + r) % 4] for d in range(4)]


def sizes(m):
    """Maps 0..27: 2^k. Maps 28..55: 2^(k - 1) with random bits below it (1 for k = 0), so the
    rows S - 1 and S differ in varied bit patterns, the sum still below 2^28."""
    if m < POWERS:
        return [4] + [1 << k for k in exponents(m)]
    x = 0x9E37_79B9 * (m + 1)
    out = [4]
    for d, k in enumerate(exponents(m - POWERS)):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append(1 if k == 0 else 1 << (k - 1) | (x >> 32) % (1 << (k - 1)))
    return out


def start(m):
    return [0] + [s - 1 for s in sizes(m)[1:]]


def launch():
    tensor = [0xC000_0000 + 0x100 * (w // 4) + w % 4 for w in range(TENSOR_WORDS)]
    l = Launch(block=[128], grid=[1])
    l.buffer("maps", "u8", length=128 * MAPS)
    l.buffer("coords", "u32", data=[c for m in range(MAPS) for c in start(m)[1:]])
    l.buffer("tensor", "u32", data=tensor)
    l.buffer("out", "u32", length=BOX_WORDS * MAPS)
    maps = []
    for m in range(MAPS):
        inside = sum((s - 1) * STRIDE for s in sizes(m)[1:])
        base = l.address("tensor") + 16 * m - inside
        assert base > 0 and base % 16 == 0
        maps += tensor_map(base, elem_bytes=ELEM, tensor_size=sizes(m), box_size=BOX,
                           stride_bytes=[STRIDE] * 4)
    l.set_data("maps", maps)
    l.param("maps", "coords", "out")
    return l


def reference(l):
    tensor = l.get("tensor").data
    out = []
    # Box element i (dimension 0 fastest) is the tensor element start + its box index; outside
    # [0, size) in any dimension it is zero (oob_fill 0, PTX ISA §5.5.5). Inside: the one row at
    # (0..3, S1 - 1, .., S4 - 1), the map's tensor words 4m..4m+3.
    for m in range(MAPS):
        size, first = sizes(m), start(m)
        for i in range(BOX_WORDS):
            c, rest = [], i
            for d in range(5):
                c.append(first[d] + rest % BOX[d])
                rest //= BOX[d]
            inside = all(0 <= c[d] < size[d] for d in range(5))
            out.append(tensor[4 * m + c[0]] if inside else 0)
    return {"out": out}
