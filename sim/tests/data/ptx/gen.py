#!/usr/bin/env python3
"""Regenerates the real-compiler PTX inputs of the front-end tests with NVRTC.

Uses the pip packages nvidia-cuda-nvrtc-cu12 (libnvrtc), nvidia-cuda-runtime-cu12 and
nvidia-cuda-cccl-cu12 (headers). Run from anywhere:  python3 sim/tests/data/ptx/gen.py
Each kernel below is compiled for compute_90 and written next to this script as <name>.ptx.
"""
import ctypes
import os
import sys

import nvidia.cuda_cccl
import nvidia.cuda_nvrtc
import nvidia.cuda_runtime

HERE = os.path.dirname(os.path.abspath(__file__))
NVRTC = os.path.join(list(nvidia.cuda_nvrtc.__path__)[0], "lib", "libnvrtc.so.12")
INCLUDES = [
    # the project's shared kernel headers (tma.cuh: CUtensorMap, wait_parity, ...)
    os.path.join(HERE, "..", "..", "..", "..", "testbench", "cuda", "include"),
    os.path.join(list(nvidia.cuda_runtime.__path__)[0], "include"),
    os.path.join(list(nvidia.cuda_cccl.__path__)[0], "include"),
]

KERNELS = {
    "warp_reduce": r"""
extern "C" __global__ void warp_reduce(const int* in, int* out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
""",
    "warp_intrinsics": r"""
extern "C" __global__ void warp_intrinsics(const unsigned* in, unsigned* out) {
    unsigned tid = threadIdx.x;
    unsigned v = in[tid];
    unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
    unsigned any = __any_sync(0xffffffffu, v > 7);
    unsigned all = __all_sync(0xffffffffu, v != 0);
    unsigned match = __match_any_sync(0xffffffffu, v);
    int pred;
    unsigned mall = __match_all_sync(0xffffffffu, v, &pred);
    unsigned sum = __reduce_add_sync(0xffffffffu, v);
    unsigned mx = __reduce_max_sync(0xffffffffu, v);
    unsigned a = __activemask();
    __syncwarp(a);
    out[tid] = ballot ^ any ^ all ^ match ^ mall ^ pred ^ sum ^ mx ^ a;
}
""",
    "block_sync": r"""
extern "C" __global__ void block_sync(const int* in, int* out, float* f, double* d) {
    __shared__ int buf[256];
    buf[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    int c = __syncthreads_count(buf[threadIdx.x ^ 1] > 0);
    int a = __syncthreads_and(buf[threadIdx.x] > 0);
    int o = __syncthreads_or(buf[threadIdx.x] < 0);
    __threadfence_block();
    __threadfence();
    atomicAdd(f, 1.5f);
    atomicAdd(d, 2.0);
    atomicCAS(out + 1, 0, c);
    atomicExch(out + 2, a);
    atomicInc((unsigned*)out + 3, 17u);
    atomicMax(out + 4, o);
    atomicMin((unsigned long long*)(out + 6), 3ull);
    out[threadIdx.x + 8] = c + a + o;
}
""",
    "cuda_barrier": r"""
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cuda_barrier(const int* in, int* out) {
    __shared__ alignas(16) int smem[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, smem, in, sizeof(smem), bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = smem[threadIdx.x] * 2;
}
""",
    "pipeline": r"""
#include <cuda_pipeline.h>
extern "C" __global__ void pipeline(const int4* in, int4* out) {
    __shared__ int4 s[128];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(int4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}
""",
    "tma_bulk": r"""
#include "tma.cuh"
extern "C" __global__ void tma_bulk(const int4* in, int4* out, int* counter) {
    __shared__ alignas(16) int4 s[64];
    __shared__ alignas(8) unsigned long long bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(s));
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, in, sizeof(s), &bar);
    }
    wait_parity(&bar, 0);
    wait_parity(&bar, 0);
    out[threadIdx.x] = s[threadIdx.x];
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + 64, s, sizeof(s));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
    unsigned leader;
    asm volatile("{\n\t.reg .pred P1;\n\telect.sync %0|P1, %1;\n}" : "=r"(leader) : "r"(0xffffffffu));
    if (threadIdx.x == leader) atomicAdd(counter, 1);
}
""",
    "device_calls": r"""
__device__ __noinline__ int helper(int a, int b) { return a * b + __popc(a) + __clz(b); }
extern "C" __global__ void device_calls(int* out, float x) {
    int t = threadIdx.x;
    out[t] = helper(t, blockIdx.x) + (int)(sqrtf(x) * __fdividef(1.0f, x + 1.0f));
}
""",
}


def check(lib, res, prog=None):
    if res != 0:
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        msg = lib.nvrtcGetErrorString(res).decode()
        if prog is not None:
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            lib.nvrtcGetProgramLog(prog, log)
            msg += "\n" + log.value.decode()
        raise RuntimeError(msg)


def compile_one(lib, name, src):
    prog = ctypes.c_void_p()
    check(lib, lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), f"{name}.cu".encode(), 0, None, None))
    opts = [b"--gpu-architecture=compute_90", b"-std=c++17", b"-default-device"]
    opts += [b"-I" + p.encode() for p in INCLUDES]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    check(lib, lib.nvrtcCompileProgram(prog, len(opts), arr), prog)
    size = ctypes.c_size_t()
    check(lib, lib.nvrtcGetPTXSize(prog, ctypes.byref(size)))
    buf = ctypes.create_string_buffer(size.value)
    check(lib, lib.nvrtcGetPTX(prog, buf))
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return buf.value.decode()


def main():
    lib = ctypes.CDLL(NVRTC)
    only = set(sys.argv[1:])
    for name, src in KERNELS.items():
        if only and name not in only:
            continue
        ptx = compile_one(lib, name, src)
        with open(os.path.join(HERE, f"{name}.ptx"), "w") as f:
            f.write(ptx)
        print(f"{name}.ptx: {len(ptx)} bytes")


if __name__ == "__main__":
    main()
