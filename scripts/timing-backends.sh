#!/usr/bin/env bash
# The two timing back ends of issue 19 side by side on the conformance corpus: for every kernel
# of testbench/ptx, the SM timing model's kernel cycles with the golden units' timing back end
# (`smsync run --timing`) and with the Verilated RTL top (`smsync cosim --timing`), and their
# ratio. Prints a Markdown table (docs/TIMING.md, "The two back ends compared").
#
#   scripts/timing-backends.sh [--golden-model h100|rtl] [CONFIG]   # default: h100, configs/fpga-small.yaml
#
# --golden-model picks the golden back end's `timing.model` (docs/TIMING.md): `h100` (the config's
# H100-calibrated latencies, as the config says) or `rtl` (the profile that models the generated
# top); the RTL back end always runs the config as given. The golden side's config is then a copy
# of CONFIG with its `timing.model` set to rtl (a block-style `timing:` section's `model:` line
# replaced or added, or the section added).
#
# SMSYNC=path/to/smsync picks the binary (default: target/release/smsync, else target/debug/smsync).
# A kernel the timed cosim cannot finish shows its first error line instead of a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
model=h100
if [[ ${1:-} == --golden-model ]]; then
    model=${2:?--golden-model needs h100 or rtl}
    shift 2
fi
config=${1:-configs/fpga-small.yaml}
smsync=${SMSYNC:-}
if [[ -z $smsync ]]; then
    smsync=target/release/smsync
    [[ -x $smsync ]] || smsync=target/debug/smsync
fi
[[ -x $smsync ]] || { echo "no smsync binary ($smsync): cargo build --release -p smsync" >&2; exit 1; }
err=$(mktemp)
golden_config=$(mktemp --suffix=.yaml)
trap 'rm -f "$err" "$golden_config"' EXIT
cp "$config" "$golden_config"
case $model in
    h100) ;;
    rtl)
        if grep -Eq '^timing: *\{' "$config"; then
            echo "$config has a flow-style timing: section; set timing.model there instead of --golden-model" >&2
            exit 1
        elif grep -Eq '^  model: *[a-z0-9]+' "$config"; then
            sed -Ei 's/^(  model: *)[a-z0-9]+/\1rtl/' "$golden_config"
        elif grep -Eq '^timing: *(#.*)?$' "$config"; then
            sed -Ei 's/^(timing: *(#.*)?)$/\1\n  model: rtl/' "$golden_config"
        else
            printf '\ntiming:\n  model: rtl\n' >>"$golden_config"
        fi
        ;;
    *) echo "--golden-model: \`$model\` is not h100 or rtl" >&2; exit 1 ;;
esac
cycles() { python3 -c 'import json,sys; d=json.load(sys.stdin); t=d.get("result", d)["timing"]; print(t["cycles"])' 2>/dev/null; }
echo "| kernel | golden back end, $model profile (cycles) | RTL back end (cycles) | RTL / golden |"
echo "|---|---:|---:|---:|"
for launch in testbench/ptx/*.launch.yaml; do
    k=$(basename "$launch" .launch.yaml)
    g=$("$smsync" run "testbench/ptx/$k.ptx" --launch "$launch" --config "$golden_config" --timing 2>/dev/null | cycles) || g="error"
    if r=$("$smsync" cosim "testbench/ptx/$k.ptx" --launch "$launch" --config "$config" --timing --json 2>"$err" | cycles); then
        ratio=$(python3 -c "print(f'{$r / $g:.2f}')" 2>/dev/null || echo "-")
        echo "| $k | $g | $r | $ratio |"
    else
        why=$(grep -m1 'cosim divergence' "$err" | sed 's/.*cosim divergence at RTL cycle [0-9]*: //' | cut -c1-100 | tr '|' '/')
        echo "| $k | $g | fails: $why | - |"
    fi
done
