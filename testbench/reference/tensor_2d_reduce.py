"""Hand PTX: cp.reduce.async.bulk.tensor.2d tile reductions (add, max, xor) into an untyped u32
map, one op per CTA on its own box, the last box partly past the tensor's edges. An untyped
map reduces as u32 (add, max) and b32 (xor), the element size's unsigned type."""
from corpus import Launch, tensor_map

CTAS, THREADS = 3, 32
COLS, ROWS, PITCH = 20, 12, 24
BOX_W, BOX_H = 8, 4
COORDS = [(0, 0), (8, 4), (16, 10)]     # add; max; xor past the right and bottom edges
MASK = 0xFFFF_FFFF


def value(cta, t):
    return [1000 + t, 0xAAAA_0060 + 3 * t, 0x5555_0000 | t][cta]


def launch():
    tensor = [0xAAAA_0000 + i for i in range(ROWS * PITCH)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("tensor", "u32", data=tensor)
    l.buffer("map", "u8", length=128)
    l.buffer("coords", "s32", data=[v for xy in COORDS for v in xy])
    l.set_data("map", tensor_map(l.address("tensor"), elem_bytes=4, tensor_size=[COLS, ROWS],
                                 box_size=[BOX_W, BOX_H], stride_bytes=[PITCH * 4]))
    l.param("map", "coords")
    return l


def reference(l):
    tensor = list(l.get("tensor").data)
    ops = [lambda a, b: (a + b) & MASK, max, lambda a, b: a ^ b]
    for cta, (x0, y0) in enumerate(COORDS):
        for t in range(BOX_W * BOX_H):
            x, y = x0 + t % BOX_W, y0 + t // BOX_W
            if 0 <= x < COLS and 0 <= y < ROWS:
                i = y * PITCH + x
                tensor[i] = ops[cta](tensor[i], value(cta, t))
    return {"tensor": tensor}
