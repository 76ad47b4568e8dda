#!/usr/bin/env bash
# Model-checks the Promela models (spin, from Debian's package): each protocol as the code
# runs it (or, for scope-slot.pml, as docs/scope-slots.md designs it) must pass, and each
# broken variant must fail. Run from anywhere.
set -euo pipefail
models="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
check() {
    local model=$1 expected=$2; shift 2
    spin "$@" -a "$models/$model" >/dev/null
    gcc -O2 -w -o pan pan.c
    local errors
    errors=$(./pan -m100000 | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
    if [[ $expected == pass && $errors != 0 ]] || [[ $expected == fail && $errors == 0 ]]; then
        echo "$model ${*:-(no variant)}: expected to $expected, found $errors errors" >&2
        exit 1
    fi
    echo "$model ${*:-(no variant)}: as expected, $expected ($errors errors)"
    rm -f ./*.trail
}
# The hazard-cell read against retirement (docs/Reclamation.md).
check hazard.pml pass
check hazard.pml pass -DSYMMETRIC
check hazard.pml fail -DRETAIN_AFTER_CLEAR
check hazard.pml fail -DNO_BARRIER
# A request scope's numbered slot, read and built by its owner without the lock (docs/scope-slots.md).
check scope-slot.pml pass
check scope-slot.pml fail -DPLAIN_STORE
check scope-slot.pml fail -DCOUNT_AFTER_READ
check scope-slot.pml fail -DOTHER_READS_WITHOUT_LOCK
check scope-slot.pml fail -DTAKE_AFTER_CLOSE
