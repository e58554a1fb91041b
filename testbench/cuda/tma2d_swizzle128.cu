// NVRTC 12.9 input of testbench/ptx/tma2d_swizzle128.ptx (cosim corpus; sim/tests/exec_nvrtc_tma.rs
// also runs it on the golden model at more box positions). The 3D form: tma3d_swizzle128.cu.
// Regenerate: scripts/regen-corpus.sh (the launch and expected buffers: testbench/reference/tma2d_swizzle128.py)
// (checked with ptxas -arch=sm_90: python3 scripts/ptxas-check.py testbench/ptx/tma2d_swizzle128.ptx).
// A 2D TMA load and store through __grid_constant__ tensor maps with the 128B swizzle, the
// way CUTLASS consumers read such tiles: element (row, col) of a tile whose rows are 128 bytes is
// at byte (row * 128 + col * 4) with bits 6:4 XORed by bits 9:7 (the pattern of PTX ISA §5.5.7).
#include "tma.cuh"  // CUtensorMap, wait_parity, swz128, round_trip

// A 2D box of 8 rows x 32 floats (128-byte rows).
extern "C" __global__ void tma2d_swizzle128(const __grid_constant__ CUtensorMap in_map,
                                            const __grid_constant__ CUtensorMap out_map, float* plain, int x0, int y0) {
    const int32_t c[2] = {x0, y0};
    round_trip<8 * 32, 2>(&in_map, &out_map, plain, c);
}
