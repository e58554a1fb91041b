"""Hand PTX: cp.async.bulk.tensor.2d stores, boxes partly past the upper bounds, bulk groups."""
from corpus import Launch, tensor_map

CTAS, THREADS = 3, 32
COLS, ROWS, PITCH = 20, 12, 24
BOX_W, BOX_H = 8, 4
COORDS = [(0, 0), (16, 2), (4, 10)]     # in bounds; past the right edge; past the bottom edge


def launch(coords=COORDS):
    """The launch for boxes at `coords` (one per CTA; tensor_2d_reduce uses it with its own)."""
    tensor = [0xAAAA_0000 + i for i in range(ROWS * PITCH)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("tensor", "u32", data=tensor)
    l.buffer("map", "u8", length=128)
    l.buffer("coords", "s32", data=[v for xy in coords for v in xy])
    l.set_data("map", tensor_map(l.address("tensor"), elem_bytes=4, tensor_size=[COLS, ROWS],
                                 box_size=[BOX_W, BOX_H], stride_bytes=[PITCH * 4]))
    l.param("map", "coords")
    return l


def reference(l):
    tensor = list(l.get("tensor").data)
    for cta, (x0, y0) in enumerate(COORDS):
        for t in range(BOX_W * BOX_H):
            x, y = x0 + t % BOX_W, y0 + t // BOX_W
            if 0 <= x < COLS and 0 <= y < ROWS:
                tensor[y * PITCH + x] = (cta + 1) * 1000 + t
    return {"tensor": tensor}
