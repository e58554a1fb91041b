"""Hand PTX: cp.async.bulk.tensor.4d load of a 4 x 1 x 1 x 260 box (index past 255), 10 rows OOB."""
from corpus import Launch, tensor_map

SIZE = [4, 1, 1, 300]
BOX = [4, 1, 1, 260]
START = [0, 0, 0, 50]
ROW_BYTES = 16


def launch():
    tensor = [0x1000_0000 + 0x100 * r + c for r in range(SIZE[3]) for c in range(SIZE[0])]
    l = Launch(block=[128], grid=[1])
    l.buffer("map", "u8", length=128)
    l.buffer("tensor", "u32", data=tensor)
    l.buffer("out", "u32", length=BOX[0] * BOX[3])
    l.set_data("map", tensor_map(l.address("tensor"), elem_bytes=4, tensor_size=SIZE, box_size=BOX,
                                 stride_bytes=[ROW_BYTES, ROW_BYTES, ROW_BYTES]))
    l.param("map", "out")
    return l


def reference(l):
    tensor = l.get("tensor").data
    out = []
    # Box element (c, 0, 0, r) is tensor element (START[0] + c, 0, 0, START[3] + r), dimension 0
    # fastest in shared memory; an element outside the tensor is filled with zero (oob_fill 0,
    # PTX ISA §5.5.5).
    for r in range(BOX[3]):
        y = START[3] + r
        for c in range(BOX[0]):
            x = START[0] + c
            out.append(tensor[y * SIZE[0] + x] if 0 <= x < SIZE[0] and 0 <= y < SIZE[3] else 0)
    return {"out": out}
