// __reduce_add_sync / __reduce_min_sync / __reduce_max_sync (redux.sync, sm_80+) with partial
// masks under divergence. 2 CTAs x 64 threads. In each warp: lanes 0..19 reduce with mask
// 0x000FFFFF; odd lanes 21..31 with 0xAAA00000; even lanes 20..30 with 0x55500000.
// add wraps at 32 bits (the inputs are large), max is signed, min is unsigned.
extern "C" __global__ void warp_reduce_sync(const unsigned *in, unsigned *add_out,
                                            unsigned *min_out, int *max_out)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32u;
    unsigned v = in[gid];
    unsigned mask;
    if (lane < 20u)
        mask = 0x000FFFFFu;
    else if (lane & 1u)
        mask = 0xAAA00000u;
    else
        mask = 0x55500000u;
    if (lane < 20u) {
        add_out[gid] = __reduce_add_sync(mask, v);
        min_out[gid] = __reduce_min_sync(mask, v);
        max_out[gid] = __reduce_max_sync(mask, (int)v);
    } else {
        add_out[gid] = __reduce_add_sync(mask, v ^ 0x5u);
        min_out[gid] = __reduce_min_sync(mask, v >> 1);
        max_out[gid] = __reduce_max_sync(mask, (int)(v >> 3));
    }
}
