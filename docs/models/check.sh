#!/usr/bin/env bash
# Model-checks hazard.pml (spin, from Debian's package): the two modes the code runs in must
# pass, the two broken variants must fail. Run from anywhere.
set -euo pipefail
model="$(cd "$(dirname "$0")" && pwd)/hazard.pml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
check() {
    local expected=$1; shift
    spin "$@" -a "$model" >/dev/null
    gcc -O2 -w -o pan pan.c
    local errors
    errors=$(./pan -m100000 | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
    if [[ $expected == pass && $errors != 0 ]] || [[ $expected == fail && $errors == 0 ]]; then
        echo "hazard.pml ${*:-(asymmetric)}: expected to $expected, found $errors errors" >&2
        exit 1
    fi
    echo "hazard.pml ${*:-(asymmetric)}: as expected, $expected ($errors errors)"
    rm -f ./*.trail
}
check pass
check pass -DSYMMETRIC
check fail -DRETAIN_AFTER_CLEAR
check fail -DNO_BARRIER
