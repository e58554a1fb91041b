#!/usr/bin/env python3
"""Assemble every PTX file of the corpus with NVIDIA's ptxas, so no kernel we test is invalid PTX.

Checks testbench/ptx/*.ptx and, if present, sim/tests/data/**/*.ptx (or the paths given on the
command line). The -arch of each file comes from its `.target` line (first target, e.g. sm_90a;
a file without one is assembled for sm_90). Files without a `.version` directive are not PTX
modules but fragment collections (e.g. sim/tests/data/seed_examples.ptx, one instruction per
seed example): they are listed as skipped, never counted as passed. ptxas comes from the pip package
nvidia-cuda-nvcc-cu12. Exits non-zero if ptxas is missing, if there is no PTX file at all, or if
any file fails; every failure is listed with ptxas's message.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIRS = ["testbench/ptx", "sim/tests/data"]
VERSION_RE = re.compile(r"^\s*\.version\s", re.MULTILINE)
TARGET_RE = re.compile(r"^\s*\.target\s+([A-Za-z0-9_]+)", re.MULTILINE)


def find_ptxas():
    try:
        import nvidia.cuda_nvcc
        path = os.path.join(list(nvidia.cuda_nvcc.__path__)[0], "bin", "ptxas")
        if os.access(path, os.X_OK):
            return path
    except ImportError:
        pass
    from shutil import which
    return which("ptxas")


def ptx_files(args):
    if args:
        return args
    files = []
    for d in DEFAULT_DIRS:
        files += glob.glob(os.path.join(REPO, d, "**", "*.ptx"), recursive=True)
    return sorted(files)


def arch_of(text):
    m = TARGET_RE.search(text)
    return m.group(1) if m else "sm_90"


def main():
    ptxas = find_ptxas()
    if ptxas is None:
        print("ptxas-check: ptxas not found (pip install nvidia-cuda-nvcc-cu12)", file=sys.stderr)
        return 2
    files = ptx_files(sys.argv[1:])
    if not files:
        print("ptxas-check: no .ptx files found", file=sys.stderr)
        return 2
    failures = []
    skipped = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            with open(path) as f:
                text = f.read()
            if not VERSION_RE.search(text):
                skipped.append(path)
                print(f"skip {os.path.relpath(path, REPO)} (no .version directive: not a PTX module)")
                continue
            arch = arch_of(text)
            result = subprocess.run([ptxas, f"-arch={arch}", path, "-o", os.path.join(tmp, "out.cubin")],
                                    capture_output=True, text=True)
            rel = os.path.relpath(path, REPO)
            if result.returncode != 0:
                failures.append((rel, arch, (result.stderr + result.stdout).strip()))
                print(f"FAIL {rel} (-arch={arch})")
            else:
                print(f"ok   {rel} (-arch={arch})")
    for rel, arch, message in failures:
        print(f"\n--- {rel} (-arch={arch}) ---\n{message}", file=sys.stderr)
    checked = len(files) - len(skipped)
    print(f"{checked - len(failures)} passed, {len(failures)} failed, {len(skipped)} skipped")
    if checked == 0:
        print("ptxas-check: no PTX module was checked", file=sys.stderr)
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
