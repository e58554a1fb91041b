// cuda::barrier<thread_scope_block> + cuda::memcpy_async (libcu++ from CCCL), 3 phases.
// 2 CTAs x 128 threads. In each of 3 rounds thread 0 starts one 16-byte-aligned async copy of a
// 128-float tile into shared memory (on sm_90 libcu++ lowers it to an mbarrier transaction
// count); every thread then arrives and waits on the barrier, reads its element and writes
// tile[(tid + round) % 128] * 2 + round to the output. A second arrive_and_wait closes the round
// so the tile is not overwritten while others still read it.
#include <cuda/barrier>

extern "C" __global__ void barrier_memcpy_async(const float *in, float *out)
{
    constexpr int TILE = 128;
    constexpr int ROUNDS = 3;
    __shared__ alignas(16) float tile[TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();

    for (int round = 0; round < ROUNDS; ++round) {
        const float *src = in + (blockIdx.x * ROUNDS + round) * TILE;
        if (threadIdx.x == 0)
            cuda::memcpy_async(tile, src, cuda::aligned_size_t<16>(sizeof(tile)), bar);
        bar.arrive_and_wait();
        unsigned idx = (threadIdx.x + round) % TILE;
        out[(blockIdx.x * ROUNDS + round) * TILE + threadIdx.x] = tile[idx] * 2.0f + (float)round;
        bar.arrive_and_wait();
    }
}
