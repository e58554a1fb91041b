// NVRTC 12.9 input of testbench/ptx/tma3d_swizzle128.ptx (cosim corpus; sim/tests/exec_nvrtc_tma.rs
// also runs it on the golden model at more box positions). The 2D form: tma2d_swizzle128.cu.
// Regenerate: scripts/regen-corpus.sh (the launch and expected buffers: testbench/reference/tma3d_swizzle128.py)
// (checked with ptxas -arch=sm_90: python3 scripts/ptxas-check.py testbench/ptx/tma3d_swizzle128.ptx).
// A 3D TMA load and store (cp.async.bulk.tensor.3d, PTX ISA §9.7.9.25.5.2) through two
// __grid_constant__ tensor maps with the 128B swizzle: the box's 128-byte rows are stacked row after
// row, plane after plane, and element (z, y, col) is at byte ((z * BH + y) * 128 + col * 4) with
// bits 6:4 XORed by bits 9:7 (the pattern of PTX ISA §5.5.7).
#include "tma.cuh"  // CUtensorMap, round_trip

// A 3D box of 2 planes x 4 rows x 32 floats.
extern "C" __global__ void tma3d_swizzle128(const __grid_constant__ CUtensorMap in_map,
                                            const __grid_constant__ CUtensorMap out_map, float* plain, int x0, int y0,
                                            int z0) {
    const int32_t c[3] = {x0, y0, z0};
    round_trip<2 * 4 * 32, 3>(&in_map, &out_map, plain, c);
}
