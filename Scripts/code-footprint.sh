#!/usr/bin/env bash
# The code and data one operation of a Profile workload touches, counted by callgrind's cache
# simulator: first-level caches of 16 KB, fully associative (256 lines of 64 bytes, least
# recently used first out). An operation whose code spans more than 256 lines misses on each
# of them every time, so the instruction misses per operation are the lines of code it runs;
# one that fits misses none. A server's request runs the engine's code cold (the rest of the
# request evicts it), so these lines, more than the instructions, are what it pays in place.
# Deterministic: the same binary gives the same counts whatever else the machine does.
#
# Usage: Scripts/code-footprint.sh PROFILE_BINARY "WORKLOAD ARGS" [N1 N2]
#   e.g. Scripts/code-footprint.sh Benchmarks/.build/release/Profile "server-request stitcher"
# Prints, per operation (the difference of an N1 and an N2 run over N2 - N1): instructions,
# code lines missed, data lines missed. Needs valgrind; a minute or two.
set -euo pipefail
binary=$1 workload=$2 n1=${3:-10000} n2=${4:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read Swift 6.3's debug information: run a stripped copy.
strip --strip-debug "$binary" -o "$work/profile"
# Hashing seeded the same in every run: a dictionary probe may otherwise take more steps in
# one process than in the next, and the counts differ between runs of the same binary.
export SWIFT_DETERMINISTIC_HASHING=1
run() { # operations -> "instructions code-misses data-misses"
    # shellcheck disable=SC2086 # the workload is words
    valgrind --tool=callgrind --cache-sim=yes --I1=16384,256,64 --D1=16384,256,64 --LL=262144,8,64 \
        --callgrind-out-file="$work/$1.out" "$work/profile" $workload "$1" 2>&1 > /dev/null \
        | awk '/Collected/ { print $4, $7, $8 + $9; exit }'
}
read -r i1 c1 d1 <<< "$(run "$n1")"
read -r i2 c2 d2 <<< "$(run "$n2")"
awk -v n="$((n2 - n1))" -v i="$((i2 - i1))" -v c="$((c2 - c1))" -v d="$((d2 - d1))" -v w="$workload" \
    'BEGIN { printf "%s: %.0f instructions, %.0f code lines, %.0f data lines missed per operation\n", w, i / n, c / n + 0, d / n + 0 }'
