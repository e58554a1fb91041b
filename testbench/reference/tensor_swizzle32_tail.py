"""Hand PTX: 32B-swizzled 2-D tensor load ending mid-line, its mbarrier right after the box."""
import struct

from corpus import Launch, tensor_map

COLS, ROWS = 8, 5            # u32; a row is 32 bytes, the 32B swizzle span
SWIZZLE_32B = 1              # the project's map field at byte 100 (docs/units/copy_engine.md)


def launch():
    tensor = [0xA000_0000 + 0x100 * r + c for r in range(ROWS) for c in range(COLS)]
    l = Launch(block=[64], grid=[1])
    l.buffer("map", "u8", length=128)
    l.buffer("tensor", "u32", data=tensor)
    l.buffer("out", "u32", length=COLS * ROWS)
    raw = tensor_map(l.address("tensor"), elem_bytes=4, tensor_size=[COLS, ROWS],
                     box_size=[COLS, ROWS], stride_bytes=[COLS * 4])
    raw[100:104] = list(struct.pack("<I", SWIZZLE_32B))
    l.set_data("map", raw)
    l.param("map", "out")
    return l


def reference(l):
    dense = l.get("tensor").data            # the box in row-major order = the whole tensor
    # PTX ISA §5.5.7, 32B swizzle: 16-byte chunk c of 128-byte line L (of a 256-byte aligned
    # destination) lands at chunk c ^ (L % 2), i.e. byte address bit 4 ^= bit 7. The mapping is
    # its own inverse, so shared word w holds dense word (w*4 ^ (((w*4 >> 7) & 1) << 4)) / 4.
    out = []
    for w in range(COLS * ROWS):
        a = w * 4
        out.append(dense[(a ^ (((a >> 7) & 1) << 4)) // 4])
    return {"out": out}
