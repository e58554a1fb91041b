// Float atomicAdd, one per thread on its own element of consecutive arrays (PTX ISA §9.7.13.5,
// atom), so the lanes of a warp that share a 16-byte line are served in one step: the lead
// element takes lane 0 of each line, the atomic unit's lane groups (their own f32 adders) lanes
// 1..3 of an f32 line; an f64 line (two elements) is the lead's alone. The operand pairs
// (testbench/reference/atomics_float_lanes.py) are exact cancellations x + (-x), the four
// signed-zero sums, equal magnitudes of opposite sign in both orders, massive cancellations
// (a + -(a + ulp)) and sums needing every normalising shift, subnormal results, infinities and
// overflow, each at every lane position of a line:
//   f32 on shared memory (subnormals kept) and the same pairs on global memory (subnormal inputs
//   and results flushed to sign-preserving zero), f32 NaN operands on shared memory, f64 on
//   shared memory with and without NaN operands.
// Every element holds a bit pattern (unsigned): the arrays are copied into shared memory,
// updated there (each atomic returns its old value) and copied back.
#define N 64
#define K32 7  // f32 arrays (shared, and global in place)
#define KN 1   // f32 arrays with NaN operands (shared)
#define K64 4  // f64 arrays (shared)
#define KDN 1  // f64 arrays with NaN operands (shared)

extern "C" __global__ void atomics_float_lanes(unsigned *f, const unsigned *fb, unsigned *fo, unsigned *fn,
                                               const unsigned *fnb, unsigned *fno, unsigned *g,
                                               const unsigned *gb, unsigned *go, unsigned long long *d,
                                               const unsigned long long *db, unsigned long long *dold,
                                               unsigned long long *dn, const unsigned long long *dnb,
                                               unsigned long long *dno)
{
    __shared__ __align__(16) unsigned sf[K32 * N];
    __shared__ __align__(16) unsigned sn[KN * N];
    __shared__ __align__(16) unsigned long long sd[K64 * N];
    __shared__ __align__(16) unsigned long long sdn[KDN * N];
    unsigned t = threadIdx.x;
    for (unsigned k = 0; k < K32; k++)
        sf[k * N + t] = f[k * N + t];
    for (unsigned k = 0; k < KN; k++)
        sn[k * N + t] = fn[k * N + t];
    for (unsigned k = 0; k < K64; k++)
        sd[k * N + t] = d[k * N + t];
    for (unsigned k = 0; k < KDN; k++)
        sdn[k * N + t] = dn[k * N + t];
    __syncthreads();

    for (unsigned k = 0; k < K32; k++) {
        unsigned i = k * N + t;
        fo[i] = __float_as_uint(atomicAdd((float *)&sf[i], __uint_as_float(fb[i])));
        go[i] = __float_as_uint(atomicAdd((float *)&g[i], __uint_as_float(gb[i])));
    }
    for (unsigned k = 0; k < KN; k++) {
        unsigned i = k * N + t;
        fno[i] = __float_as_uint(atomicAdd((float *)&sn[i], __uint_as_float(fnb[i])));
    }
    for (unsigned k = 0; k < K64; k++) {
        unsigned i = k * N + t;
        dold[i] = (unsigned long long)__double_as_longlong(
            atomicAdd((double *)&sd[i], __longlong_as_double((long long)db[i])));
    }
    for (unsigned k = 0; k < KDN; k++) {
        unsigned i = k * N + t;
        dno[i] = (unsigned long long)__double_as_longlong(
            atomicAdd((double *)&sdn[i], __longlong_as_double((long long)dnb[i])));
    }

    __syncthreads();
    for (unsigned k = 0; k < K32; k++)
        f[k * N + t] = sf[k * N + t];
    for (unsigned k = 0; k < KN; k++)
        fn[k * N + t] = sn[k * N + t];
    for (unsigned k = 0; k < K64; k++)
        d[k * N + t] = sd[k * N + t];
    for (unsigned k = 0; k < KDN; k++)
        dn[k * N + t] = sdn[k * N + t];
}
