// NVRTC 12.9 input of tma_grid_constant.ptx (run by sim/tests/exec_tensor_map_launch.rs).
// Regenerate: python3 scripts/nvrtc.py sim/tests/data/ptx/tma_grid_constant.cu -o sim/tests/data/ptx/tma_grid_constant.ptx
// (checked with ptxas -arch=sm_90).
// cuda.h's definition (NVRTC cannot include cuda.h, which needs the host C library)
typedef struct CUtensorMap_st {
    alignas(64) unsigned long long opaque[16];
} CUtensorMap;
#include <cuda/ptx>
namespace ptx = cuda::ptx;

__device__ __forceinline__ void wait_parity(unsigned long long* bar, unsigned parity) {
    unsigned addr = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("{\n\t.reg .pred P1;\n"
                 "WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@!P1 bra WAIT;\n}" :: "r"(addr), "r"(parity) : "memory");
}

// A 2D TMA load of an 8 x 16 float tile at (x0, y0) into shared memory, then copied to out.
__device__ __forceinline__ void load_tile(const CUtensorMap* tmap, float* out, int x0, int y0) {
    __shared__ alignas(128) float tile[8 * 16];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        const int32_t coords[2] = {x0, y0};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, tmap, coords, &bar);
    }
    wait_parity(&bar, 0);
    for (int i = threadIdx.x; i < 8 * 16; i += blockDim.x) out[i] = tile[i];
}

// The map by value as a __grid_constant__ parameter, the way the CUDA Programming Guide writes
// it: its generic address comes from mov + cvta.param.
extern "C" __global__ void tma_2d_grid_constant(const __grid_constant__ CUtensorMap tmap, float* out, int x0, int y0) {
    load_tile(&tmap, out, x0, y0);
}

// The map in global memory, passed by address.
extern "C" __global__ void tma_2d_global_map(const CUtensorMap* tmap, float* out, int x0, int y0) {
    load_tile(tmap, out, x0, y0);
}
