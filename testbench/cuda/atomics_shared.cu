// Atomics on contended shared-memory addresses (atom.shared.*), 3 CTAs x 128 threads, partly
// under divergence; thread 0 copies the CTA's shared results to global after a barrier.
// Float/double adds use values with few significant bits, so every order gives the same sum.
extern "C" __global__ void atomics_shared(const int *in, int *iout, unsigned *uout,
                                          float *fout, double *dout)
{
    __shared__ int s_i[6];
    __shared__ unsigned s_u[5];
    __shared__ float s_f;
    __shared__ double s_d;
    if (threadIdx.x == 0) {
        for (int i = 0; i < 6; ++i) s_i[i] = 0;
        s_i[4] = 0x7FFFFFFF;          // min accumulator
        s_i[5] = (int)0x80000000;     // max accumulator
        s_u[0] = 0; s_u[1] = 2; s_u[2] = 0; s_u[3] = 0; s_u[4] = 0;
        s_f = 0.0f;
        s_d = 1.0;
    }
    __syncthreads();
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid];
    atomicAdd(&s_i[0], v);
    atomicAdd(&s_i[1 + (threadIdx.x % 3u)], 1);
    atomicMin(&s_i[4], v);
    atomicMax(&s_i[5], v);
    atomicInc(&s_u[0], 10u);                 // 128 increments modulo 11
    if (threadIdx.x % 4u == 1u)
        atomicDec(&s_u[1], 6u);              // 32 decrements modulo 7, starting at 2
    atomicOr(&s_u[2], 1u << (threadIdx.x % 32u));
    unsigned old = s_u[3], seen;
    do {                                     // CAS loop: s_u[3] += tid
        seen = old;
        old = atomicCAS(&s_u[3], seen, seen + threadIdx.x);
    } while (old != seen);
    if (v > 0)
        atomicExch(&s_u[4], 77u);            // some thread of every CTA has v > 0
    atomicAdd(&s_f, (float)(v & 0xFF) * 0.25f);
    atomicAdd(&s_d, (double)v * 0.5);
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int i = 0; i < 6; ++i) iout[blockIdx.x * 6 + i] = s_i[i];
        for (int i = 0; i < 5; ++i) uout[blockIdx.x * 5 + i] = s_u[i];
        fout[blockIdx.x] = s_f;
        dout[blockIdx.x] = s_d;
    }
}
