// Integer atomics on contended global addresses, 4 CTAs x 64 threads, partly under divergence:
// atomicAdd/Sub (32 and 64 bit), atomicOr/And/Xor, atomicInc/atomicDec with wrap-around,
// atomicMin/Max (signed, unsigned, 64-bit), an atomicCAS add-loop, a CAS claim and an
// atomicExch on a shared slot. All final values are independent of the order of the atomics:
// the CAS/Exch kernels record only "how many threads saw the initial value" (always 1).
extern "C" __global__ void atomics_global(const int *in, int *acc, unsigned *bits,
                                          unsigned *incdec, int *smin_max, unsigned *umin_max,
                                          unsigned long long *wide, unsigned *cas_exch)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid];
    atomicAdd(&acc[0], v);                       // sum over all threads
    atomicAdd(&acc[1 + (gid & 3u)], 1);          // 4-bin histogram
    if (v & 1)
        atomicSub(&acc[5], v);                   // divergent: odd values only
    atomicOr(&bits[0], 1u << (gid % 32u));
    atomicAnd(&bits[1], ~(1u << (gid % 29u)));
    atomicXor(&bits[2], (unsigned)v);
    atomicInc(&incdec[0], 37u);                  // ((old >= 37) ? 0 : old + 1)
    if (threadIdx.x < 40u)
        atomicDec(&incdec[1], 50u);              // ((old == 0 || old > 50) ? 50 : old - 1)
    atomicMin(&smin_max[0], v);
    atomicMax(&smin_max[1], v);
    atomicMin(&umin_max[0], (unsigned)v);
    atomicMax(&umin_max[1], (unsigned)v);
    atomicAdd(&wide[0], (unsigned long long)(unsigned)v << 20);
    atomicMax(&wide[1], (unsigned long long)gid * 0x100000001ull);
    // CAS loop: adds v*v to cas_exch[0] by compare-and-swap retries.
    unsigned old = cas_exch[0], seen;
    do {
        seen = old;
        old = atomicCAS(&cas_exch[0], seen, seen + (unsigned)(v * v));
    } while (old != seen);
    // Exactly one thread claims the flag; count the claimers.
    if (atomicCAS(&cas_exch[1], 0u, 1u) == 0u)
        atomicAdd(&cas_exch[2], 1u);
    // Everybody exchanges 5 into slot 3 (initial 9); exactly one thread gets the 9 back.
    if (atomicExch(&cas_exch[3], 5u) == 9u)
        atomicAdd(&cas_exch[4], 1u);
}
