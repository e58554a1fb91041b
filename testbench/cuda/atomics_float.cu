// Global float/double atomicAdd across 4 CTAs x 64 threads.
//  exact[0..3]: f32 adds of multiples of 1/8 (exact in any order) into 4 bins;
//  dexact[0..1]: f64 adds of multiples of 1/1024 (exact in any order);
//  inexact[0]: f32 sum of (gid+1)/10, whose rounding depends on the order of the atomics:
//              compared with a relative tolerance of 1e-4 (stated in the reference).
extern "C" __global__ void atomics_float(const float *in, float *exact, double *dexact,
                                         float *inexact)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[gid];
    atomicAdd(&exact[gid % 4u], v);
    if (gid % 2u == 0u)
        atomicAdd(&dexact[0], (double)gid / 1024.0);
    else
        atomicAdd(&dexact[1], -(double)v);
    atomicAdd(&inexact[0], (float)(gid + 1u) / 10.0f);
}
