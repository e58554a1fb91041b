// cuda::pipeline with block scope and producer/consumer roles (libcu++), 2 stages, 6 chunks.
// 2 CTAs x 96 threads: warp 0 produces (memcpy_async of 64 ints per chunk into a stage buffer),
// warps 1 and 2 consume (each consumer thread adds chunk[tid] + chunk[63 - tid] into its
// running sum, per chunk). The pipeline's shared state holds one full and one empty barrier per
// stage, so this exercises mbarrier phases across 3 reuses of each stage.
// Output: per consumer thread the final sum (and per chunk a copy of its element).
#include <cuda/pipeline>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void pipeline_stages(const int *in, int *sums, int *copies)
{
    constexpr int STAGES = 2;
    constexpr int CHUNK = 64;
    constexpr int CHUNKS = 6;
    __shared__ alignas(16) int stage_buf[STAGES][CHUNK];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;

    auto block = cg::this_thread_block();
    const bool producer = threadIdx.x < 32;
    auto role = producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(block, &state, role);
    const int *src = in + blockIdx.x * CHUNKS * CHUNK;

    if (producer) {
        for (int c = 0; c < CHUNKS; ++c) {
            pipe.producer_acquire();
            int *dst = stage_buf[c % STAGES];
            // Each producer thread copies two ints.
            cuda::memcpy_async(&dst[threadIdx.x], &src[c * CHUNK + threadIdx.x], sizeof(int), pipe);
            cuda::memcpy_async(&dst[threadIdx.x + 32], &src[c * CHUNK + threadIdx.x + 32], sizeof(int), pipe);
            pipe.producer_commit();
        }
    } else {
        const int tid = threadIdx.x - 32;   // 0..63
        int sum = 0;
        for (int c = 0; c < CHUNKS; ++c) {
            pipe.consumer_wait();
            const int *buf = stage_buf[c % STAGES];
            sum += buf[tid] + buf[CHUNK - 1 - tid];
            copies[(blockIdx.x * CHUNKS + c) * CHUNK + tid] = buf[tid];
            pipe.consumer_release();
        }
        sums[blockIdx.x * CHUNK + tid] = sum;
    }
}
