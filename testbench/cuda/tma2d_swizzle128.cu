// NVRTC 12.9 input of testbench/ptx/tma2d_swizzle128.ptx (cosim corpus; the same source as
// sim/tests/data/ptx/tma_swizzle.cu, whose golden-only tests run both entries).
// Regenerate: scripts/regen-corpus.sh (the launch and expected buffers: testbench/reference/tma2d_swizzle128.py)
// (checked with ptxas -arch=sm_90: python3 scripts/ptxas-check.py testbench/ptx/tma2d_swizzle128.ptx).
// 2D and 3D TMA loads and stores through __grid_constant__ tensor maps with the 128B swizzle, the
// way CUTLASS consumers read such tiles: element (row, col) of a tile whose rows are 128 bytes is
// at byte (row * 128 + col * 4) with bits 6:4 XORed by bits 9:7 (the pattern of PTX ISA §5.5.7).
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

// The 128B-swizzled byte offset of linear offset `o` in a 1024-byte-aligned tile.
__device__ __forceinline__ unsigned swz128(unsigned o) { return o ^ (((o >> 7) & 7u) << 4); }

// Loads the box at `c` into `tile` (TMA, 128B swizzle), hands every element to the caller in row
// order through `plain`, writes 2v + 1 swizzled into `res` and stores `res` at `c` (TMA store).
template <int N, int DIMS>
__device__ __forceinline__ void round_trip(const CUtensorMap* in_map, const CUtensorMap* out_map, float* plain,
                                           const int32_t (&c)[DIMS]) {
    __shared__ alignas(1024) float tile[N];
    __shared__ alignas(1024) float res[N];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, in_map, c, &bar);
    }
    wait_parity(&bar, 0);
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

// A 2D box of 8 rows x 32 floats (128-byte rows).
extern "C" __global__ void tma2d_swizzle128(const __grid_constant__ CUtensorMap in_map,
                                            const __grid_constant__ CUtensorMap out_map, float* plain, int x0, int y0) {
    const int32_t c[2] = {x0, y0};
    round_trip<8 * 32, 2>(&in_map, &out_map, plain, c);
}

// A 3D box of 2 planes x 4 rows x 32 floats.
extern "C" __global__ void tma3d_swizzle128(const __grid_constant__ CUtensorMap in_map,
                                            const __grid_constant__ CUtensorMap out_map, float* plain, int x0, int y0,
                                            int z0) {
    const int32_t c[3] = {x0, y0, z0};
    round_trip<2 * 4 * 32, 3>(&in_map, &out_map, plain, c);
}
