"""NVRTC: a 2D TMA load and store through two 128B-swizzled __grid_constant__ tensor maps
(testbench/cuda/tma2d_swizzle128.cu). The 32 x 8 float box at (40, 16) of a 64 x 20 tensor runs
over both far edges: `plain` is the box in row order (fill 0 outside the tensor), `out` holds
2v + 1 at the box's in-tensor positions (the store is clipped, PTX ISA §9.7.9.25.5.1)."""
from corpus import Launch, f32, fmt_number

W, H = 64, 20                 # tensor (floats)
BW, BH = 32, 8                # box: 128-byte rows, the widest the 128B swizzle allows
X0, Y0 = 40, 16


class TensorMapLaunch(Launch):
    """corpus.Launch plus by-value tensor-map parameters written with cuTensorMapEncodeTiled's
    fields (the launch-file form of README.md, `{tensor_map: {...}}`)."""

    def to_yaml(self, comment):
        text = super().to_yaml(comment)
        head, _ = text.rsplit("params: ", 1)
        params = []
        for p in self.params:
            if isinstance(p, str):
                params.append(f"  - {p}")
            else:
                (ty, v), = p.items()
                if ty == "tensor_map":
                    fields = ", ".join(f"{k}: {fmt(v2)}" for k, v2 in v.items())
                    params.append(f"  - {{tensor_map: {{{fields}}}}}")
                else:
                    params.append(f"  - {{{ty}: {v}}}")
        return head + "params:\n" + "\n".join(params) + "\n"


def fmt(v):
    if isinstance(v, list):
        return "[" + ", ".join(fmt_number(x) for x in v) + "]"
    return str(v)


def launch():
    tensor = [f32((i % 97) * 0.25 - 11.0) for i in range(W * H)]
    l = TensorMapLaunch(block=[64], entry="tma2d_swizzle128")
    l.buffer("input", "f32", data=tensor)
    l.buffer("out", "f32", length=W * H)
    l.buffer("plain", "f32", length=BW * BH)
    common = dict(data_type="float32", rank=2, dims=[W, H], strides=[4 * W], box=[BW, BH], swizzle="128B")
    l.param({"tensor_map": dict(global_="input", **common)}, {"tensor_map": dict(global_="out", **common)},
            "plain", {"s32": X0}, {"s32": Y0})
    for p in l.params[:2]:
        p["tensor_map"] = {("global" if k == "global_" else k): v for k, v in p["tensor_map"].items()}
    return l


def reference(l):
    tensor = l.get("input").data
    plain, out = [], [0.0] * (W * H)
    for r in range(BH):
        for c in range(BW):
            x, y = X0 + c, Y0 + r
            inside = x < W and y < H
            v = tensor[y * W + x] if inside else 0.0
            plain.append(v)
            if inside:
                out[y * W + x] = f32(2.0 * v + 1.0)
    return {"plain": plain, "out": out}
