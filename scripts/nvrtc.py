#!/usr/bin/env python3
"""Compile CUDA C++ to PTX with NVRTC (no nvcc, no GPU needed).

NVRTC comes from the pip package nvidia-cuda-nvrtc-cu12 and is called through ctypes. The CUDA
runtime headers (nvidia-cuda-runtime-cu12) and libcu++ (nvidia-cuda-cccl-cu12, for <cuda/barrier>
and <cuda/pipeline>) are put on the include path.

    scripts/nvrtc.py KERNEL.cu [-o KERNEL.ptx] [--arch compute_90]

The PTX is written without the NVRTC banner's build-specific lines changing between runs, so a
regeneration that changes nothing leaves `git diff` empty.
"""
import argparse
import ctypes
import glob
import os
import sys


def package_dir(module_name):
    """Directory of a namespace package such as nvidia.cuda_nvrtc (they have no __file__)."""
    import importlib
    module = importlib.import_module(module_name)
    return list(module.__path__)[0]


def load_nvrtc():
    lib_dir = os.path.join(package_dir("nvidia.cuda_nvrtc"), "lib")
    candidates = sorted(glob.glob(os.path.join(lib_dir, "libnvrtc.so*")))
    # Prefer the plain library over the ".alt" build (which differs only in its C++ runtime).
    candidates = [c for c in candidates if ".alt." not in c] or candidates
    if not candidates:
        sys.exit(f"nvrtc.py: no libnvrtc.so in {lib_dir} (pip install nvidia-cuda-nvrtc-cu12)")
    return ctypes.CDLL(candidates[0])


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def include_dirs():
    # the project's shared kernel headers (testbench/cuda/include/tma.cuh), then the CUDA ones
    dirs = [os.path.join(REPO, "testbench", "cuda", "include")]
    for module_name in ("nvidia.cuda_runtime", "nvidia.cuda_cccl"):
        try:
            dirs.append(os.path.join(package_dir(module_name), "include"))
        except ImportError:
            sys.exit(f"nvrtc.py: python module {module_name} missing "
                     f"(pip install {module_name.split('.')[1].replace('_', '-')}-cu12)")
    return dirs


def check(nvrtc, status, what, program=None):
    if status == 0:
        return
    nvrtc.nvrtcGetErrorString.restype = ctypes.c_char_p
    message = nvrtc.nvrtcGetErrorString(status).decode()
    log = ""
    if program is not None:
        size = ctypes.c_size_t()
        nvrtc.nvrtcGetProgramLogSize(program, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetProgramLog(program, buf)
        log = buf.value.decode(errors="replace")
    sys.exit(f"nvrtc.py: {what} failed: {message}\n{log}")


def compile_to_ptx(source_path, arch, extra_options=()):
    nvrtc = load_nvrtc()
    with open(source_path, "rb") as f:
        source = f.read()
    program = ctypes.c_void_p()
    name = os.path.basename(source_path).encode()
    check(nvrtc, nvrtc.nvrtcCreateProgram(ctypes.byref(program), source, name, 0, None, None),
          "nvrtcCreateProgram")
    # No -default-device: with it, libcu++'s constexpr statics become module-scope .global
    # variables that only clutter the PTX.
    options = [f"--gpu-architecture={arch}", "--std=c++17"]
    options += [f"--include-path={d}" for d in include_dirs()]
    options += list(extra_options)
    c_options = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    status = nvrtc.nvrtcCompileProgram(program, len(options), c_options)
    check(nvrtc, status, f"compiling {source_path}", program)
    size = ctypes.c_size_t()
    check(nvrtc, nvrtc.nvrtcGetPTXSize(program, ctypes.byref(size)), "nvrtcGetPTXSize")
    buf = ctypes.create_string_buffer(size.value)
    check(nvrtc, nvrtc.nvrtcGetPTX(program, buf), "nvrtcGetPTX")
    nvrtc.nvrtcDestroyProgram(ctypes.byref(program))
    return buf.value.decode()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="CUDA C++ file (.cu)")
    parser.add_argument("-o", "--output", help="PTX file (default: print to stdout)")
    parser.add_argument("--arch", default="compute_90",
                        help="virtual architecture, e.g. compute_90 or sm_90a (default compute_90)")
    parser.add_argument("-D", action="append", default=[], help="preprocessor define")
    args = parser.parse_args()
    ptx = compile_to_ptx(args.source, args.arch, [f"-D{d}" for d in args.D])
    if args.output:
        with open(args.output, "w") as f:
            f.write(ptx)
    else:
        sys.stdout.write(ptx)


if __name__ == "__main__":
    main()
