// NVRTC 12.9 input of tma_gemm_ws.ptx (golden model only: the RTL copy engine has no swizzle yet,
// issue 16/18; run by sim/tests/exec_nvrtc_tma.rs).
// Regenerate: python3 scripts/nvrtc.py sim/tests/data/ptx/tma_gemm_ws.cu -o sim/tests/data/ptx/tma_gemm_ws.ptx
// (checked with ptxas -arch=sm_90: python3 scripts/ptxas-check.py sim/tests/data/ptx/tma_gemm_ws.ptx).
// A warp-specialised producer/consumer GEMM tile loop in the CUTLASS style, with plain FMA instead
// of tensor cores: C (M x N) = A (M x K, K innermost) * B^T (B is N x K, K innermost). Warp 0 is
// the producer: one lane fills a ring of STAGES shared-memory stages with TMA loads (128B
// swizzle) and signals each stage's `full` mbarrier through complete-tx; the consumer warps wait
// on `full`, accumulate, and release the stage through its `empty` mbarrier (one arrive per
// consumer warp). Each block computes one BM x BN tile of C.
#include "tma.cuh"  // CUtensorMap, wait_parity, swz128

constexpr int BM = 16, BN = 16, BK = 32, STAGES = 2, CONSUMERS = 2;

// Element (row, k) of a 128B-swizzled tile with 128-byte rows (BK floats).
__device__ __forceinline__ float at(const float* tile, int row, int k) {
    return *reinterpret_cast<const float*>(reinterpret_cast<const char*>(tile) + swz128(row * 128u + k * 4u));
}

extern "C" __global__ void gemm_ws(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                                   float* c, int n, int k_tiles) {
    __shared__ alignas(1024) float sa[STAGES][BM * BK];
    __shared__ alignas(1024) float sb[STAGES][BN * BK];
    __shared__ alignas(8) unsigned long long full[STAGES], empty[STAGES];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], CONSUMERS);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (warp == 0) {
        if (lane == 0) {
            for (int kt = 0; kt < k_tiles; ++kt) {
                const int s = kt % STAGES;
                // a fresh barrier's preceding phase (parity 1) counts as complete: the first
                // pass over the ring does not wait
                wait_parity(&empty[s], ((kt / STAGES) & 1) ^ 1);
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                               sizeof(sa[s]) + sizeof(sb[s]));
                const int32_t ca[2] = {kt * BK, m0};
                const int32_t cb[2] = {kt * BK, n0};
                ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, sa[s], &a_map, ca, &full[s]);
                ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, sb[s], &b_map, cb, &full[s]);
            }
        }
        return;
    }
    // consumers: thread t of the 64 computes 4 outputs of the 16 x 16 tile
    const int t = threadIdx.x - 32;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % STAGES;
        wait_parity(&full[s], (kt / STAGES) & 1);
        for (int j = 0; j < 4; ++j) {
            const int e = t * 4 + j, row = e / BN, col = e % BN;
            for (int k = 0; k < BK; ++k) acc[j] = fmaf(at(sa[s], row, k), at(sb[s], col, k), acc[j]);
        }
        __syncwarp();
        if (lane == 0) ptx::mbarrier_arrive(&empty[s]);
    }
    for (int j = 0; j < 4; ++j) {
        const int e = t * 4 + j;
        c[(m0 + e / BN) * n + n0 + e % BN] = acc[j];
    }
}
