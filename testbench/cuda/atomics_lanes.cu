// Integer atomics on shared memory, one per thread on its own element (PTX ISA §9.7.13.5,
// atom): the elements are consecutive, so the lanes of a warp that share a 16-byte line are
// served in one step by the atomic unit's lane groups (four 4-byte or two 8-byte lanes per
// line), and the order of the atomics cannot change a result.
//   32-bit: add.u32 (carries across each bit in turn), inc.u32 / dec.u32 (at, under and over
//   the limit), min/max.u32 and .s32, and/or/xor.b32, exch.b32, cas.b32 (threads with
//   ((t >> 2) + (t >> 5)) even swap, the others compare with the complement);
//   64-bit: add.u64, min/max.u64 and .s64, and/or/xor.b64, exch.b64, cas.b64.
// The arrays are copied into shared memory, updated there, and copied back with every old value.
#define N 64
#define OP32(k) (old32 + (k) * N + t)
#define OP64(k) (old64 + (k) * N + t)

extern "C" __global__ void atomics_lanes(unsigned *w, const unsigned *w_arg, unsigned long long *d,
                                         const unsigned long long *d_arg, unsigned *old32,
                                         unsigned long long *old64)
{
    __shared__ unsigned sw[12 * N];
    __shared__ unsigned long long sd[10 * N];
    unsigned t = threadIdx.x;
    for (unsigned k = 0; k < 12; k++)
        sw[k * N + t] = w[k * N + t];
    for (unsigned k = 0; k < 10; k++)
        sd[k * N + t] = d[k * N + t];
    __syncthreads();

    unsigned a = w_arg[t];
    *OP32(0) = atomicAdd(&sw[0 * N + t], w_arg[N + t]);
    *OP32(1) = atomicInc(&sw[1 * N + t], a & 15u);
    *OP32(2) = atomicDec(&sw[2 * N + t], a & 15u);
    *OP32(3) = atomicMin(&sw[3 * N + t], a);
    *OP32(4) = atomicMax(&sw[4 * N + t], a);
    *OP32(5) = (unsigned)atomicMin((int *)&sw[5 * N + t], (int)a);
    *OP32(6) = (unsigned)atomicMax((int *)&sw[6 * N + t], (int)a);
    *OP32(7) = atomicAnd(&sw[7 * N + t], a);
    *OP32(8) = atomicOr(&sw[8 * N + t], a);
    *OP32(9) = atomicXor(&sw[9 * N + t], a);
    *OP32(10) = atomicExch(&sw[10 * N + t], a);
    unsigned odd = ((t >> 2) + (t >> 5)) & 1u;
    unsigned expect = odd ? ~w[11 * N + t] : w[11 * N + t];
    *OP32(11) = atomicCAS(&sw[11 * N + t], expect, a);

    unsigned long long v = d_arg[N + t];
    *OP64(0) = atomicAdd(&sd[0 * N + t], d_arg[t]);
    *OP64(1) = atomicMin(&sd[1 * N + t], v);
    *OP64(2) = atomicMax(&sd[2 * N + t], v);
    *OP64(3) = (unsigned long long)atomicMin((long long *)&sd[3 * N + t], (long long)v);
    *OP64(4) = (unsigned long long)atomicMax((long long *)&sd[4 * N + t], (long long)v);
    *OP64(5) = atomicAnd(&sd[5 * N + t], v);
    *OP64(6) = atomicOr(&sd[6 * N + t], v);
    *OP64(7) = atomicXor(&sd[7 * N + t], v);
    *OP64(8) = atomicExch(&sd[8 * N + t], v);
    unsigned long long expect64 = odd ? ~d[9 * N + t] : d[9 * N + t];
    *OP64(9) = atomicCAS(&sd[9 * N + t], expect64, v);

    __syncthreads();
    for (unsigned k = 0; k < 12; k++)
        w[k * N + t] = sw[k * N + t];
    for (unsigned k = 0; k < 10; k++)
        d[k * N + t] = sd[k * N + t];
}
