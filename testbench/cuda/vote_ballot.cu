// Warp votes with full and partial masks under divergence:
// __ballot_sync / __any_sync / __all_sync (vote.sync.ballot/any/all).
// 2 CTAs x 96 threads. Even lanes vote with mask 0x55555555; odd lanes vote in two separate
// groups (lanes 1,3,..,15 with 0x0000AAAA and lanes 17,..,31 with 0xAAAA0000).
extern "C" __global__ void vote_ballot(const unsigned *in, unsigned *full_ballot,
                                       unsigned *part_ballot, unsigned *any_out, unsigned *all_out)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31u;
    unsigned v = in[gid];
    full_ballot[gid] = __ballot_sync(0xFFFFFFFFu, v & 1u);
    if ((lane & 1u) == 0u) {
        const unsigned m = 0x55555555u;
        part_ballot[gid] = __ballot_sync(m, v & 2u);
        any_out[gid] = __any_sync(m, v > 200u) ? 1u : 0u;
        all_out[gid] = __all_sync(m, v > 10u) ? 1u : 0u;
    } else {
        unsigned m = lane < 16u ? 0x0000AAAAu : 0xAAAA0000u;
        part_ballot[gid] = __ballot_sync(m, v & 4u);
        any_out[gid] = __any_sync(m, v < 5u) ? 1u : 0u;
        all_out[gid] = __all_sync(m, (v % 3u) != 0u) ? 1u : 0u;
    }
}
