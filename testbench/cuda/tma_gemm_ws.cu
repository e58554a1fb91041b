// NVRTC 12.9 input of testbench/ptx/tma_gemm_ws.ptx (cosim corpus; sim/tests/exec_nvrtc_tma.rs also
// runs it on the golden model with a larger grid).
// Regenerate: scripts/regen-corpus.sh (the launch and expected buffers: testbench/reference/tma_gemm_ws.py)
// (checked with ptxas -arch=sm_90: python3 scripts/ptxas-check.py testbench/ptx/tma_gemm_ws.ptx).
// A warp-specialised producer/consumer GEMM tile loop in the CUTLASS style, with plain FMA instead
// of tensor cores: C (M x N) = A (M x K, K innermost) * B^T (B is N x K, K innermost). Warp 0 is
// the producer: one lane fills a ring of STAGES shared-memory stages with 2D TMA loads (128B
// swizzle, PTX ISA §5.5.7) and signals each stage's `full` mbarrier through complete-tx; the
// consumer warps wait on `full` (parity), accumulate, and release the stage through its `empty`
// mbarrier (one arrive per consumer warp); the producer waits on `empty` before it refills a
// stage. Each block computes one BM x BN tile of C: c[(m0 + row) * n + n0 + col].
#include "tma.cuh"  // CUtensorMap, wait_parity, swz128

constexpr int BM = 16, BN = 16, BK = 32, STAGES = 2, CONSUMERS = 2;

// Elements k .. k+3 (k a multiple of 4) of row `row` of a 128B-swizzled tile with 128-byte rows
// (BK floats): the swizzle permutes whole 16-byte chunks, so the four stay together (one
// ld.shared.v4).
__device__ __forceinline__ float4 at4(const float* tile, int row, int k) {
    return *reinterpret_cast<const float4*>(reinterpret_cast<const char*>(tile) + swz128(row * 128u + k * 4u));
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
    // consumers: thread t of the 64 computes outputs (row, col0 .. col0 + 3) of the 16 x 16 tile
    const int t = threadIdx.x - 32, row = t * 4 / BN, col0 = t * 4 % BN;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % STAGES;
        wait_parity(&full[s], (kt / STAGES) & 1);
        for (int k = 0; k < BK; k += 4) {
            const float4 a = at4(sa[s], row, k);
            for (int j = 0; j < 4; ++j) {
                const float4 b = at4(sb[s], col0 + j, k);
                acc[j] = fmaf(a.x, b.x, acc[j]);
                acc[j] = fmaf(a.y, b.y, acc[j]);
                acc[j] = fmaf(a.z, b.z, acc[j]);
                acc[j] = fmaf(a.w, b.w, acc[j]);
            }
        }
        __syncwarp();
        if (lane == 0) ptx::mbarrier_arrive(&empty[s]);
    }
    for (int j = 0; j < 4; ++j) c[(m0 + row) * n + n0 + col0 + j] = acc[j];
}
