// Shared by the NVRTC kernels that use TMA (testbench/cuda/tma*.cu, sim/tests/data/ptx/tma_*.cu and
// gen.py's tma_bulk there); scripts/nvrtc.py and gen.py put testbench/cuda/include on the include
// path.
// NVRTC has no host C library (no cuda.h, stdlib.h or <utility>): only what is below, libcu++
// (cuda::std::, cuda::ptx::) and the CUDA runtime's device headers.
#pragma once

// cuda.h's definition of the driver's opaque tensor map (NVRTC cannot include cuda.h, which needs
// the host C library). The launch file builds its content from cuTensorMapEncodeTiled's fields.
typedef struct CUtensorMap_st {
    alignas(64) unsigned long long opaque[16];
} CUtensorMap;
#include <cuda/ptx>
namespace ptx = cuda::ptx;

// Waits until the mbarrier's phase with parity `parity` has completed (PTX ISA §9.7.13.15.16,
// mbarrier.try_wait.parity in a loop).
__device__ __forceinline__ void wait_parity(unsigned long long* bar, unsigned parity) {
    unsigned addr = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("{\n\t.reg .pred P1;\n"
                 "WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@!P1 bra WAIT;\n}" :: "r"(addr), "r"(parity) : "memory");
}

// The 128B-swizzled byte offset of linear offset `o` in a 1024-byte-aligned tile: bits 6:4 XORed
// by bits 9:7 (the 128B pattern of PTX ISA §5.5.7).
__device__ __forceinline__ unsigned swz128(unsigned o) { return o ^ (((o >> 7) & 7u) << 4); }

// One TMA load of the box at `c` into `dst` (`bytes` long), completed on the fresh mbarrier `bar`
// through complete-tx (PTX ISA §9.7.9.25.5.2): thread 0 initialises `bar` and issues the copy;
// every thread of the block waits for phase 0.
template <int DIMS>
__device__ __forceinline__ void load_box(void* dst, unsigned bytes, const CUtensorMap* map, const int32_t (&c)[DIMS],
                                         unsigned long long* bar) {
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar, bytes);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, map, c, bar);
    }
    wait_parity(bar, 0);
}

// Loads the box at `c` into `tile` (TMA, 128B swizzle), hands every element to the caller in row
// order through `plain`, writes 2v + 1 swizzled into `res` and stores `res` at `c` (TMA store).
template <int N, int DIMS>
__device__ __forceinline__ void round_trip(const CUtensorMap* in_map, const CUtensorMap* out_map, float* plain,
                                           const int32_t (&c)[DIMS]) {
    __shared__ alignas(1024) float tile[N];
    __shared__ alignas(1024) float res[N];
    __shared__ alignas(8) unsigned long long bar;
    load_box(tile, sizeof(tile), in_map, c, &bar);
    const char* t = reinterpret_cast<const char*>(tile);
    char* r = reinterpret_cast<char*>(res);
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        unsigned o = swz128(4u * i);
        float v = *reinterpret_cast<const float*>(t + o);
        plain[i] = v;
        *reinterpret_cast<float*>(r + o) = 2.0f * v + 1.0f;
    }
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, out_map, c, res);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}
