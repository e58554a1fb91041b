"""Hand PTX: 14 cp.async.bulk.tensor.1d loads, one through a map of each element type (codes 1-14), maps at odd offsets, one across a 1 MiB boundary."""
from corpus import Launch, tensor_map

# The map's element type (offset 96): the DataType code + 1 (contract/src/encoding.rs), and its
# size in bytes: b16 b32 b64 b128 u32 u64 s32 s64 f32 f64 f16 bf16 f16x2 bf16x2.
TYPE_BYTES = {1: 2, 2: 4, 3: 8, 4: 16, 5: 4, 6: 8, 7: 4, 8: 8, 9: 4, 10: 8, 11: 2, 12: 2, 13: 4, 14: 4}
MAPS = len(TYPE_BYTES)
ROW = 16                          # bytes each map's tensor holds and its box loads
# Map m is at byte 112 + 128m + 4(m % 2) of its buffer: the even maps 16-byte aligned but not
# 32, the odd ones not even 8-byte aligned (the fetch's beats straddle two port words; no rule
# of the PTX ISA or of the project's map format asks more than byte alignment). The buffer starts
# 256 bytes before a 1 MiB boundary (after a pad buffer), so map 1 starts 12 bytes before it:
# its fetch's address counts across bits 3..20 after its first beats, and a fetch that lost a
# bit there would read its sizes and boxes from elsewhere.
PAD = (1 << 20) - 256


def map_offset(m):
    return 112 + 128 * m + 4 * (m % 2)


def launch():
    words = [0x7100_0000 + 0x100 * m + w for m in range(MAPS) for w in range(ROW // 4)]
    l = Launch(block=[64], grid=[1])
    l.buffer("pad", "u8", length=PAD)
    l.buffer("maps", "u8", length=112 + 128 * MAPS + 4)
    l.buffer("tensor", "u32", data=words)
    l.buffer("out", "u32", length=len(words))
    assert (l.address("maps") + 256) % (1 << 20) == 0
    raw = [0] * (112 + 128 * MAPS + 4)
    for m, (code, eb) in enumerate(sorted(TYPE_BYTES.items())):
        n = ROW // eb
        at = map_offset(m)
        raw[at:at + 128] = tensor_map(l.address("tensor") + ROW * m, elem_bytes=eb, tensor_size=[n], box_size=[n],
                          stride_bytes=[], elem_type=code)
    l.set_data("maps", raw)
    l.param("pad", "maps", "out")
    return l


def reference(l):
    # Every map is valid (its type's size is its element size), so load m brings tensor bytes
    # 16m..16m+15 to shared bytes 16m..16m+15 (PTX ISA §9.7.9.25.5.2), copied out unchanged.
    return {"out": list(l.get("tensor").data)}
