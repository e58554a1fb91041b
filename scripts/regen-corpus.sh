#!/usr/bin/env bash
# Regenerate the conformance corpus:
#   1. every testbench/cuda/<name>.cu -> testbench/ptx/<name>.ptx with NVRTC (scripts/nvrtc.py);
#      the arch is compute_90 unless the .cu has a line `// nvrtc-arch: <arch>`;
#   2. every testbench/ptx/<name>.launch.yaml and .expected.json from testbench/reference/<name>.py
#      (the host reference; never from smsync);
#   3. every sim/tests/data/ptx/<name>.cu -> <name>.ptx beside it (golden-only kernels whose
#      expected buffers are computed in their sim tests);
#   4. scripts/ptxas-check.py over all PTX.
# Hand-written PTX (testbench/ptx/<name>.ptx without a .cu) is not touched by step 1.
set -euo pipefail
cd "$(dirname "$0")/.."

for cu in testbench/cuda/*.cu; do
    name=$(basename "$cu" .cu)
    arch=$(sed -n 's|^// nvrtc-arch: *\([A-Za-z0-9_]*\).*|\1|p' "$cu" | head -n1)
    arch=${arch:-compute_90}
    echo "nvrtc $name ($arch)"
    python3 scripts/nvrtc.py "$cu" --arch "$arch" -o "testbench/ptx/$name.ptx"
done

python3 testbench/reference/regen.py

for cu in sim/tests/data/ptx/*.cu; do
    echo "nvrtc $(basename "$cu" .cu) (golden-only, sim/tests/data/ptx)"
    python3 scripts/nvrtc.py "$cu" -o "${cu%.cu}.ptx"
done

python3 scripts/ptxas-check.py
