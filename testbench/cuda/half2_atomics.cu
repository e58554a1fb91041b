// NVRTC 12.9 input of testbench/ptx/half2_atomics.ptx (cosim corpus; sim/tests/exec_nvrtc_tma.rs
// also runs it on the golden model).
// Regenerate: scripts/regen-corpus.sh (the launch and expected buffers: testbench/reference/half2_atomics.py)
// (checked with ptxas -arch=sm_90: python3 scripts/ptxas-check.py testbench/ptx/half2_atomics.ptx).
// half2 / bf16x2 atomics the way half-precision kernels write them: the pair is packed with
// __floats2half2_rn / __floats2bfloat162_rn (the three-operand cvt.rn.f16x2.f32 / .bf16x2.f32 of
// PTX ISA §9.7.9.21, whose first source becomes the upper half: the intrinsic's first argument, .x,
// is the lower half) and added with atomicAdd (atom.add.noftz.f16x2 / .bf16x2, PTX ISA §9.7.13.5),
// in global and in shared memory.
// Thread g of the grid (g = blockIdx.x * blockDim.x + threadIdx.x) adds the pair (x[2g], x[2g+1])
// into h[g % 16], (x[2g], -x[2g+1]) into b[g % 16] and (x[2g+1], x[2g]) into its block's hs[tid % 4];
// hs_out[4 * blockIdx.x + j] = the block's hs[j] at the end.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void half2_atomics(const float* x, __half2* h, __nv_bfloat162* b, __half2* hs_out) {
    __shared__ __half2 hs[4];
    const int i = threadIdx.x, g = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 4) hs[i] = __floats2half2_rn(0.0f, 0.0f);
    __syncthreads();
    const float lo = x[2 * g], hi = x[2 * g + 1];
    atomicAdd(&h[g % 16], __floats2half2_rn(lo, hi));
    atomicAdd(&b[g % 16], __floats2bfloat162_rn(lo, -hi));
    atomicAdd(&hs[i % 4], __floats2half2_rn(hi, lo));
    __syncthreads();
    if (i < 4) hs_out[4 * blockIdx.x + i] = hs[i];
}
