// __match_any_sync / __match_all_sync (match.any/all.sync.b32/.b64), full and partial masks.
// 2 CTAs x 64 threads. match_any over the full warp on 32-bit keys; match_all in two groups
// (lanes 0..23 with 0x00FFFFFF, lanes 24..31 with 0xFF000000) returning the mask and the
// predicate; match_any on 64-bit keys among lanes 0,3,6,..,30 (mask 0x49249249), the other
// lanes skip it (divergence) and keep 0xFFFFFFFF in that output.
extern "C" __global__ void match_sync(const unsigned *keys, const unsigned long long *keys64,
                                      unsigned *any_out, unsigned *all_out, unsigned *all_pred,
                                      unsigned *any64_out)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32u;
    unsigned k = keys[gid];
    any_out[gid] = __match_any_sync(0xFFFFFFFFu, k);
    int pred = 0;
    unsigned m = lane < 24u ? 0x00FFFFFFu : 0xFF000000u;
    all_out[gid] = __match_all_sync(m, k, &pred);
    all_pred[gid] = pred ? 1u : 0u;
    unsigned r = 0xFFFFFFFFu;
    if (lane % 3u == 0u)
        r = __match_any_sync(0x49249249u, keys64[gid]);
    any64_out[gid] = r;
}
