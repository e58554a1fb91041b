"""Hand PTX: cp.async.bulk.tensor.5d load at coordinates past 2^16 (dim 2) and 2^24 (dim 3), OOB in dims 2-4."""
from corpus import Launch, tensor_map

SIZE = [8, 3, 1 << 16, (1 << 24) + 3, 3]
BOX = [4, 2, 3, 2, 2]
START = [4, 1, (1 << 16) - 2, (1 << 24) + 2, 2]
STRIDES = [32, 64, 16, 16]       # bytes of one step of dimensions 1, 2, 3, 4
ELEM = 4
# The tensor's elements inside the box are dimension 0's of the four rows (1..2, 65534..65535)
# at dims 3, 4 = (2^24 + 2, 2). The map's base is placed so that the first of them,
# (0, 1, 65534, 2^24 + 2, 2), is the buffer's first word. The buffer goes on past them (64
# words, none zero): a row the copy took for inside by mistake (dimension 2 at 65536, 3 at
# 2^24 + 3 or 4 at 3, each below the buffer's end) reads non-zero words, not the zero fill.
FIRST = [0, START[1], START[2], START[3], START[4]]
WORDS = 64


def offset(c):
    return c[0] * ELEM + sum(c[d] * STRIDES[d - 1] for d in range(1, 5))


def box_count():
    n = 1
    for b in BOX:
        n *= b
    return n


def launch():
    tensor = [0xFA00_0000 + 0x100 * (w // 8) + w % 8 for w in range(WORDS)]
    l = Launch(block=[128], grid=[1])
    l.buffer("map", "u8", length=128)
    l.buffer("tensor", "u32", data=tensor)
    l.buffer("out", "u32", length=box_count())
    base = l.address("tensor") - offset(FIRST)
    assert base > 0
    l.set_data("map", tensor_map(base, elem_bytes=ELEM, tensor_size=SIZE, box_size=BOX,
                                 stride_bytes=STRIDES))
    l.param("map", "out")
    return l


def reference(l):
    tensor = l.get("tensor").data
    out = []
    # Box element i (dimension 0 fastest) is the tensor element START + its box index; outside
    # [0, SIZE) in any dimension it is filled with zero (oob_fill 0, PTX ISA §5.5.5). Inside,
    # its address is base + sum(coordinate * stride) (PTX ISA §5.5.3, tiled mode).
    for i in range(box_count()):
        c, rest = [], i
        for d in range(5):
            c.append(START[d] + rest % BOX[d])
            rest //= BOX[d]
        if all(0 <= c[d] < SIZE[d] for d in range(5)):
            at = offset(c) - offset(FIRST)
            assert 0 <= at < WORDS * ELEM
            out.append(tensor[at // ELEM])
        else:
            out.append(0)
    return {"out": out}
