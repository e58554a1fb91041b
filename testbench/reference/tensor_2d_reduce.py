"""Hand PTX: cp.reduce.async.bulk.tensor.2d tile reductions (add, max, xor) into an untyped u32
map, one op per CTA on its own box, the last box partly past the tensor's edges. An untyped
map reduces as u32 (add, max) and b32 (xor), the element size's unsigned type."""
import tensor_2d_store
from tensor_2d_store import BOX_H, BOX_W, COLS, PITCH, ROWS

COORDS = [(0, 0), (8, 4), (16, 10)]     # add; max; xor past the right and bottom edges
MASK = 0xFFFF_FFFF


def value(cta, t):
    return [1000 + t, 0xAAAA_0060 + 3 * t, 0x5555_0000 | t][cta]


def launch():
    """tensor_2d_store's launch (the same tensor, map and grid) with this kernel's boxes."""
    return tensor_2d_store.launch(COORDS)


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
