// barrier.cluster (PTX ISA 9.7.13.3) on a one-CTA cluster (a launch without cluster dimensions):
// each round every thread publishes a value in shared memory, arrives (release), does work whose
// length differs per warp (warp 0 none, warp 3 the most), waits (acquire) and reads another
// warp's value; a second arrive/wait pair keeps the next round from overwriting it too early.
// 2 CTAs x 128 threads, 3 rounds. Early warps block in their wait; the last one to arrive finds
// its round complete.
extern "C" __global__ void cluster_sync(const unsigned *in, unsigned *out)
{
    __shared__ unsigned buf[128];
    unsigned t = threadIdx.x, w = t / 32u;
    unsigned acc = in[blockIdx.x * 128u + t];
    for (unsigned r = 0; r < 3u; r++) {
        buf[t] = acc;
        asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
        for (unsigned i = 0; i < w * 5u; i++)
            acc = acc * 1664525u + 1013904223u;
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
        unsigned nb = buf[(t + 37u) % 128u];
        asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
        asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
        acc ^= nb;
    }
    out[blockIdx.x * 128u + t] = acc;
}
