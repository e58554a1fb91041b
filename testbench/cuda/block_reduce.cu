// Block reduction: redux.sync per warp (__reduce_add_sync), bar.sync, then warp 0 combines the
// per-warp sums with __shfl_down_sync, and a second bar.sync broadcasts the block total.
// 3 CTAs x 256 threads (8 warps). Every thread writes total - own value; thread 0 writes the
// block total.
extern "C" __global__ void block_reduce(const unsigned *in, unsigned *block_sum, unsigned *others)
{
    __shared__ unsigned warp_sums[32];
    __shared__ unsigned total;
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
    unsigned v = in[gid];
    unsigned s = __reduce_add_sync(0xFFFFFFFFu, v);
    if (lane == 0u)
        warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0u) {
        unsigned t = lane < blockDim.x / 32u ? warp_sums[lane] : 0u;
        for (int o = 16; o > 0; o >>= 1)
            t += __shfl_down_sync(0xFFFFFFFFu, t, o);
        if (lane == 0u) {
            total = t;
            block_sum[blockIdx.x] = t;
        }
    }
    __syncthreads();
    others[gid] = total - v;
}
