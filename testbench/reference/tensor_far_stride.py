"""Hand PTX: 2-D tensor load from (0, -16) with a row stride of 3 * 2^57 bytes; one row inside."""
from corpus import Launch, tensor_map

COLS, BOX_ROWS, START_ROW = 4, 17, -16
STRIDE = 3 << 57             # bytes; the tensor's only row is reached with coordinate 0


def launch():
    tensor = [0xC0DE_0000 + c for c in range(COLS)]
    l = Launch(block=[96], grid=[1])
    l.buffer("map", "u8", length=128)
    l.buffer("tensor", "u32", data=tensor)
    l.buffer("out", "u32", length=COLS * BOX_ROWS)
    l.set_data("map", tensor_map(l.address("tensor"), elem_bytes=4, tensor_size=[COLS, 1],
                                 box_size=[COLS, BOX_ROWS], stride_bytes=[STRIDE]))
    l.param("map", "out")
    return l


def reference(l):
    tensor = l.get("tensor").data
    out = []
    # Box row r is tensor row START_ROW + r; only row 0 is inside [0, 1), the others are
    # filled with zeros (oob_fill 0, PTX ISA §5.5.5).
    for r in range(BOX_ROWS):
        y = START_ROW + r
        out += tensor if y == 0 else [0] * COLS
    return {"out": out}
