// __match_any_sync / __match_all_sync (match.any/all.sync.b64, PTX ISA §9.7.13.12) over every
// bit of a 64-bit key, in both polarities, on every lane: 1 CTA x 32 threads, ROUNDS rounds.
// Round r of match.any: lanes 2k and 2k+1 hold keys equal but for bit r % 64, set in the even
// lane for r < 64 and in the odd lane after; the pairs' other bits differ (a hash of r and k).
// Round r of match.all: every lane holds one key whose bit r % 64 is set for r < 64 and clear
// after. So any lane's key bit that reads as the wrong value, or a key compare that misses one
// bit, changes a mask. The keys are computed here (the host reference computes the same).
#define ROUNDS 128u

__device__ unsigned long long key_hash(unsigned r, unsigned k)
{
    unsigned long long x = (k + 1ull) * 0x9E3779B97F4A7C15ull + r * 0xD1B54A32D192ED03ull;
    return x ^ (x >> 29);
}

extern "C" __global__ void match_b64_bits(unsigned *any_out, unsigned *all_out, unsigned *all_pred)
{
    unsigned lane = threadIdx.x % 32u;
    for (unsigned r = 0; r < ROUNDS; ++r) {
        unsigned long long bit = 1ull << (r % 64u);
        bool set = (lane % 2u) == (r / 64u);
        unsigned long long any_key = (key_hash(r, lane / 2u) & ~bit) | (set ? bit : 0ull);
        unsigned long long all_key = (key_hash(r, 99u) & ~bit) | (r < 64u ? bit : 0ull);
        unsigned i = r * 32u + lane;
        any_out[i] = __match_any_sync(0xFFFFFFFFu, any_key);
        int pred = 0;
        all_out[i] = __match_all_sync(0xFFFFFFFFu, all_key, &pred);
        all_pred[i] = pred ? 1u : 0u;
    }
}
