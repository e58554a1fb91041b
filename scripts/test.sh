#!/usr/bin/env bash
# The README's test command (CI runs it through .ci/run).
#
#   ./scripts/test.sh          the quick tier: every area (golden model and parser, each unit's
#                              random stream, lint of every config, the corpus and a fixed sample
#                              of generated programs under cosim on both configs, the FPGA flow's
#                              unit tests, explore on its smallest grid), short campaigns;
#                              <= 25 min on a fresh 2-core machine (docs/BENCHMARKS.md).
#   ./scripts/test.sh --full   the full tier (SMSYNC_TIER=full): the long campaigns (200 generated
#                              programs per config under cosim, 10,000 requests per unit stream,
#                              the 10,000-program golden campaign, the whole corpus through the
#                              UART bridge, ECP5 place and route) and every #[ignore]d test.
#
# Both tiers first install the external tools (idempotent) and check formatting and clippy.
# Any campaign can also be sized alone: smsync-testkit's docs (testkit/src/campaign.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

tier=quick
case "${1:-}" in
  "") ;;
  --full) tier=full ;;
  -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
  *) echo "usage: $0 [--full]" >&2; exit 2 ;;
esac

source scripts/setup-tools.sh

step() { echo; echo "== $* ($(date -u +%H:%M:%S))"; }

step "cargo fmt --check"
cargo fmt --all --check
step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --quiet -- -D warnings
export SMSYNC_TIER=$tier
# `cargo test --workspace`, two test binaries at a time (scripts/run-tests.py says why).
if [ "$tier" = full ]; then
  step "tests (full tier, ignored tests included)"
  python3 scripts/run-tests.py -- --include-ignored
else
  step "tests (quick tier)"
  python3 scripts/run-tests.py
fi
step "done ($tier tier)"
