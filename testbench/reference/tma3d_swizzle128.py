"""NVRTC: a 3D TMA load and store through two 128B-swizzled __grid_constant__ tensor maps
(testbench/cuda/tma3d_swizzle128.cu). The 32 x 4 x 2 float box at (32, 3, 1) of a 64 x 6 x 3 tensor
runs over the far edges of dims 1 and 2: `plain` is the box in row order (fill 0 outside the
tensor), `out` holds 2v + 1 at the box's in-tensor positions (the store is clipped, PTX ISA
§9.7.9.25.5.1)."""
from corpus import Launch, f32, tensor_map_param
from tma2d_swizzle128 import round_trip

W, H, D = 64, 6, 3            # tensor (floats)
BW, BH, BD = 32, 4, 2         # box: 128-byte rows, the widest the 128B swizzle allows
X0, Y0, Z0 = 32, 3, 1


def launch():
    tensor = [f32((i % 97) * 0.25 - 11.0) for i in range(W * H * D)]
    l = Launch(block=[64], entry="tma3d_swizzle128")
    l.buffer("input", "f32", data=tensor)
    l.buffer("out", "f32", length=W * H * D)
    l.buffer("plain", "f32", length=BW * BH * BD)
    common = dict(data_type="float32", rank=3, dims=[W, H, D], strides=[4 * W, 4 * W * H], box=[BW, BH, BD],
                  swizzle="128B")
    l.param(tensor_map_param("input", **common), tensor_map_param("out", **common), "plain", {"s32": X0},
            {"s32": Y0}, {"s32": Z0})
    return l


def reference(l):
    return round_trip(l.get("input").data, [W, H, D], [BW, BH, BD], [X0, Y0, Z0])
