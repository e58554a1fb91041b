#!/usr/bin/env bash
# The test command of the README: install the external tools (idempotent), then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup-tools.sh
cargo test --workspace
