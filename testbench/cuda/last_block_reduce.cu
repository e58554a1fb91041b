// "Last block" grid reduction (threadFenceReduction pattern): each CTA reduces its slice in
// shared memory with a bar.sync tree, thread 0 publishes the partial sum, __threadfence()s and
// takes a ticket with atomicInc; the CTA that draws the last ticket sums all partials and
// resets the counter. 5 CTAs x 128 threads. The final buffers do not depend on CTA order.
extern "C" __global__ void last_block_reduce(const unsigned *in, volatile unsigned *partials,
                                             unsigned *counter, unsigned *result)
{
    __shared__ unsigned s[128];
    __shared__ bool am_last;
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2u; stride > 0u; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0u) {
        partials[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(counter, gridDim.x);
        am_last = (ticket == gridDim.x - 1u);
    }
    __syncthreads();
    if (am_last) {
        unsigned x = t < gridDim.x ? partials[t] : 0u;
        x = __reduce_add_sync(0xFFFFFFFFu, x) ;
        if (t == 0u) {
            result[0] = x;
            counter[0] = 0u;
        }
    }
}
