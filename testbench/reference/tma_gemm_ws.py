"""NVRTC: a warp-specialised producer/consumer GEMM tile loop (testbench/cuda/tma_gemm_ws.cu):
C (16 x 32) = A (16 x 96) * B^T (B: 32 x 96), K innermost in both, through 128B-swizzled 2D TMA
loads of 16 x 32 tiles into a 2-stage ring with full/empty mbarriers (3 k-tiles, so the
producer refills stage 0 after the consumers release it). Grid 2 x 1 blocks of 96 threads (one
producer warp, two consumer warps); block (x, 0) writes C's 16 x 16 tile at columns 16x.
The inputs are small integers, so every partial sum is exact in f32 and any FMA order gives the
same bits."""
from corpus import Launch, tensor_map_param

M, N, K = 16, 32, 96
BM, BN, BK = 16, 16, 32


def launch():
    a = [float((i * 7 + 3) % 11 - 5) for i in range(M * K)]
    b = [float((i * 5 + 1) % 9 - 4) for i in range(N * K)]
    l = Launch(block=[96], grid=[N // BN, M // BM], entry="gemm_ws")
    l.buffer("a", "f32", data=a)
    l.buffer("b", "f32", data=b)
    l.buffer("c", "f32", length=M * N)
    common = dict(data_type="float32", rank=2, strides=[4 * K], box=[BK, BM], swizzle="128B")
    l.param(tensor_map_param("a", dims=[K, M], **common), tensor_map_param("b", dims=[K, N], **common), "c",
            {"s32": N}, {"s32": K // BK})
    return l


def reference(l):
    a, b = l.get("a").data, l.get("b").data
    c = [sum(a[i * K + k] * b[j * K + k] for k in range(K)) for i in range(M) for j in range(N)]
    return {"c": c}
