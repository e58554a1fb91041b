// Block-wide predicate reductions: __syncthreads_count / __syncthreads_and / __syncthreads_or
// (bar.red.popc / bar.red.and / bar.red.or on barrier 0 with all threads of the CTA).
// 3 CTAs x 96 threads (3 warps); the predicates differ per thread and per CTA, and the code
// before each barrier diverges inside the warp. Every thread stores what it received.
extern "C" __global__ void syncthreads_count(const unsigned *in, unsigned *count_out,
                                             unsigned *and_out, unsigned *or_out)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[gid];
    // Divergent work before the barrier: odd lanes transform their value.
    if (threadIdx.x & 1)
        v = v * 3u + 1u;
    unsigned count = __syncthreads_count(v & 1u);
    unsigned all = __syncthreads_and(v >= 4u);
    unsigned any = __syncthreads_or(v == 77u);
    count_out[gid] = count;
    and_out[gid] = all ? 1u : 0u;
    or_out[gid] = any ? 1u : 0u;
}
