"""Hand PTX: cp.async.bulk.tensor.2d tile loads with OOB boxes (zero and all-ones fill)."""
from corpus import Launch, tensor_map

CTAS, THREADS = 4, 64
COLS, ROWS, PITCH = 20, 12, 24          # elements; pitch = 96 bytes
BOX_W, BOX_H = 8, 4
# (x, y, map) per box, two boxes per CTA
BOXES = [
    [(0, 0, 0), (12, 8, 0)],            # in bounds
    [(16, 10, 0), (16, 10, 1)],         # partly OOB in x and y, zero and all-ones fill
    [(-4, -2, 0), (-8, 11, 1)],         # negative coordinates (legal for loads)
    [(24, 0, 0), (4, -4, 1)],           # entirely OOB; entirely OOB above
]


def launch():
    tensor = [0x1000 * r + c if c < COLS else 0xDEAD for r in range(ROWS) for c in range(PITCH)]
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("map0", "u8", length=128)
    l.buffer("map1", "u8", length=128)
    l.buffer("tensor", "u32", data=tensor)
    coords = []
    for boxes in BOXES:
        for x, y, m in boxes:
            coords += [x, y, m, 0]
    l.buffer("coords", "s32", data=coords)
    l.buffer("out", "u32", length=CTAS * THREADS)
    base = l.address("tensor")
    common = dict(elem_bytes=4, tensor_size=[COLS, ROWS], box_size=[BOX_W, BOX_H],
                  stride_bytes=[PITCH * 4])
    l.set_data("map0", tensor_map(base, oob_fill=0, **common))
    l.set_data("map1", tensor_map(base, oob_fill=1, **common))
    l.param("map0", "map1", "coords", "out")
    return l


def reference(l):
    tensor = l.get("tensor").data
    out = []
    for boxes in BOXES:
        for x0, y0, m in boxes:
            fill = 0 if m == 0 else 0xFFFF_FFFF
            for by in range(BOX_H):
                for bx in range(BOX_W):
                    x, y = x0 + bx, y0 + by
                    inside = 0 <= x < COLS and 0 <= y < ROWS
                    out.append(tensor[y * PITCH + x] if inside else fill)
    return {"out": out}
