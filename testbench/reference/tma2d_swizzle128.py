"""NVRTC: a 2D TMA load and store through two 128B-swizzled __grid_constant__ tensor maps
(testbench/cuda/tma2d_swizzle128.cu). The 32 x 8 float box at (40, 16) of a 64 x 20 tensor runs
over both far edges: `plain` is the box in row order (fill 0 outside the tensor), `out` holds
2v + 1 at the box's in-tensor positions (the store is clipped, PTX ISA §9.7.9.25.5.1)."""
from corpus import Launch, box_elements, f32, tensor_map_param

W, H = 64, 20                 # tensor (floats)
BW, BH = 32, 8                # box: 128-byte rows, the widest the 128B swizzle allows
X0, Y0 = 40, 16


def launch():
    tensor = [f32((i % 97) * 0.25 - 11.0) for i in range(W * H)]
    l = Launch(block=[64], entry="tma2d_swizzle128")
    l.buffer("input", "f32", data=tensor)
    l.buffer("out", "f32", length=W * H)
    l.buffer("plain", "f32", length=BW * BH)
    common = dict(data_type="float32", rank=2, dims=[W, H], strides=[4 * W], box=[BW, BH], swizzle="128B")
    l.param(tensor_map_param("input", **common), tensor_map_param("out", **common), "plain", {"s32": X0},
            {"s32": Y0})
    return l


def reference(l):
    return round_trip(l.get("input").data, [W, H], [BW, BH], [X0, Y0])


def round_trip(tensor, dims, box, start):
    """The kernel's effect (round_trip in testbench/cuda/include/tma.cuh): `plain` is the loaded box
    (zero fill outside the tensor), `out` holds 2v + 1 at the box's in-tensor elements only."""
    n = 1
    for d in dims:
        n *= d
    plain, out = [], [0.0] * n
    for at in box_elements(dims, box, start):
        v = tensor[at] if at is not None else 0.0
        plain.append(v)
        if at is not None:
            out[at] = f32(2.0 * v + 1.0)
    return {"plain": plain, "out": out}
