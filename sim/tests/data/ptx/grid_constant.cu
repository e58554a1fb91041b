// NVRTC 12.9 input of grid_constant.ptx (the golden model runs it in sim/tests/exec_kernel_params.rs).
// Regenerate: python3 scripts/nvrtc.py sim/tests/data/ptx/grid_constant.cu -o sim/tests/data/ptx/grid_constant.ptx
// (checked with ptxas -arch=sm_90).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

struct __align__(16) Params {
    float scale;
    int shift;
    float bias[4];
    double offset;
};

// Not inlined: its pointer argument must be a generic address, so the caller takes the parameter's
// address with mov + cvta.param.
__device__ __noinline__ float pick(const float* v, int k) { return v[k & 3]; }

// __floats2half2_rn / __floats2bfloat162_rn pack two floats (the three-operand cvt), and a
// __grid_constant__ struct parameter read through its address (mov + cvta.param + generic ld).
extern "C" __global__ void pack_and_grid_constant(const __grid_constant__ Params p, __half2* h, __nv_bfloat162* b, float* f) {
    int i = threadIdx.x;
    float x = p.scale * (float)i + p.bias[i & 3];
    float y = -0.5f * x;
    h[i] = __floats2half2_rn(x, y);
    b[i] = __floats2bfloat162_rn(x, y);
    f[i] = pick(p.bias, i + p.shift) + (float)p.offset;
}
