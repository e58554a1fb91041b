// Warp shuffles as the CUDA intrinsics emit them (shfl.sync.up/down/bfly/idx with the width
// clamp operand). 2 CTAs x 64 threads:
//  - tree reduction with __shfl_down_sync (lane 0 gets the total; other lanes partial sums);
//  - butterfly all-reduce with __shfl_xor_sync (every lane gets the total);
//  - inclusive scan with __shfl_up_sync;
//  - an index gather __shfl_sync(v, (lane*5+3)&31);
//  - width-8 segments: __shfl_down_sync(v, 3, 8);
//  - a partial mask under divergence: lanes 0..15 exchange with __shfl_xor_sync(0xFFFF, v, 4).
extern "C" __global__ void shfl_reduce(const int *in, int *down_sum, int *xor_sum, int *scan,
                                       int *gather, int *seg_down, int *partial_xor)
{
    const unsigned full = 0xFFFFFFFFu;
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32u;
    int v = in[gid];

    int s = v;
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(full, s, o);
    down_sum[gid] = s;

    int x = v;
    for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(full, x, o);
    xor_sum[gid] = x;

    int p = v;
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(full, p, o);
        if (lane >= (unsigned)o)
            p += t;
    }
    scan[gid] = p;

    gather[gid] = __shfl_sync(full, v, (lane * 5u + 3u) & 31u);
    seg_down[gid] = __shfl_down_sync(full, v, 3, 8);

    int q = -1;
    if (lane < 16u)
        q = __shfl_xor_sync(0x0000FFFFu, v * 2, 4);
    partial_xor[gid] = q;
}
