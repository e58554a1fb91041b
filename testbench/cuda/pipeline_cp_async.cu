// cp.async through the CUDA pipeline primitives: __pipeline_memcpy_async (with zero fill),
// __pipeline_commit and __pipeline_wait_prior, 3-deep per-thread software pipeline.
// 2 CTAs x 64 threads, 8 chunks of 64 x 16-byte vectors (int4) per CTA. Thread t copies its
// int4 of each chunk into stage (c % 3); chunk elements whose index is a multiple of 5 are
// copied with src_size zero fill of 8 bytes (only the first 8 bytes come from global memory).
// After wait_prior(2) (chunk c complete) the thread adds its vector into an accumulator.
#include <cuda_pipeline.h>

extern "C" __global__ void pipeline_cp_async(const int4 *in, int4 *acc_out)
{
    constexpr int STAGES = 3, CHUNKS = 8, CHUNK = 64;
    __shared__ int4 stage[STAGES][CHUNK];
    const int4 *src = in + blockIdx.x * CHUNKS * CHUNK;
    unsigned t = threadIdx.x;
    int4 acc = make_int4(0, 0, 0, 0);
    auto issue = [&](int c) {
        size_t zfill = ((c * CHUNK + t) % 5u == 0u) ? 8 : 0;
        __pipeline_memcpy_async(&stage[c % STAGES][t], &src[c * CHUNK + t], sizeof(int4), zfill);
        __pipeline_commit();
    };
    for (int c = 0; c < STAGES - 1; ++c)
        issue(c);
    for (int c = 0; c < CHUNKS; ++c) {
        if (c + STAGES - 1 < CHUNKS)
            issue(c + STAGES - 1);
        else
            __pipeline_commit();          // empty group keeps the wait_prior count uniform
        __pipeline_wait_prior(STAGES - 1);
        int4 x = stage[c % STAGES][t];
        acc.x += x.x; acc.y += x.y; acc.z += x.z * (c + 1); acc.w ^= x.w;
    }
    acc_out[blockIdx.x * CHUNK + t] = acc;
}
