// NVRTC 12.9 input of half2_atomics.ptx (run by sim/tests/exec_nvrtc_tma.rs).
// Regenerate: python3 scripts/nvrtc.py sim/tests/data/ptx/half2_atomics.cu -o sim/tests/data/ptx/half2_atomics.ptx
// (checked with ptxas -arch=sm_90: python3 scripts/ptxas-check.py sim/tests/data/ptx/half2_atomics.ptx).
// half2 / bf16x2 atomics the way half-precision kernels write them: the pair is packed with
// __floats2half2_rn / __floats2bfloat162_rn (the three-operand cvt) and added with atomicAdd
// (atom.add.noftz.f16x2 / .bf16x2), in global and in shared memory.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void half2_atomics(const float* x, __half2* h, __nv_bfloat162* b, __half2* hs_out) {
    __shared__ __half2 hs[4];
    const int i = threadIdx.x;
    if (i < 4) hs[i] = __floats2half2_rn(0.0f, 0.0f);
    __syncthreads();
    const float lo = x[2 * i], hi = x[2 * i + 1];
    atomicAdd(&h[i % 4], __floats2half2_rn(lo, hi));
    atomicAdd(&b[i % 4], __floats2bfloat162_rn(lo, -hi));
    atomicAdd(&hs[i % 4], __floats2half2_rn(hi, lo));
    __syncthreads();
    if (i < 4) hs_out[i] = hs[i];
}
