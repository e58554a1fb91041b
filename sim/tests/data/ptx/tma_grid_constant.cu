// NVRTC 12.9 input of tma_grid_constant.ptx (run by sim/tests/exec_tensor_map_launch.rs).
// Regenerate: python3 scripts/nvrtc.py sim/tests/data/ptx/tma_grid_constant.cu -o sim/tests/data/ptx/tma_grid_constant.ptx
// (checked with ptxas -arch=sm_90).
#include "tma.cuh"  // CUtensorMap, load_box

// A 2D TMA load of an 8 x 16 float tile at (x0, y0) into shared memory, then copied to out.
__device__ __forceinline__ void load_tile(const CUtensorMap* tmap, float* out, int x0, int y0) {
    __shared__ alignas(128) float tile[8 * 16];
    __shared__ alignas(8) unsigned long long bar;
    const int32_t coords[2] = {x0, y0};
    load_box(tile, sizeof(tile), tmap, coords, &bar);
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
