#!/usr/bin/env bash
# Measures the benchmark rows the documentation shows and writes them to
# Benchmarks/Results/results.tsv, with the date, machine, toolchain and commit; then renders
# the README's and the Performance article's tables from it. Commit the three together.
#
# Usage: Scripts/record-results.sh [RUNS]   (3 unless told; about 20 s a run on 2 cores)
# Run it on an otherwise idle machine; the runs alternate each workload with its baseline,
# so that a change in the machine's speed cancels out of the ratios.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
swift build -c release --package-path Benchmarks --product Profile
# The versions of the reference libraries the benchmark package resolved.
version() { awk -v id="\"$1\"" '$0 ~ "\"identity\" : " id { found = 1 } found && /"version"/ { gsub(/[",]/, "", $3); print $3; exit }' Benchmarks/Package.resolved; }
model="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)"
runs="${1:-3}"
out=Benchmarks/Results/results.tsv
profile=Benchmarks/.build/release/Profile
# The DocC catalog is left out: the Performance article is rendered from this file.
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources ':(exclude)Sources/*.docc/*' Benchmarks/Sources || echo ' with local changes')"
{
    echo "# Stitcher's benchmark results, written by Scripts/record-results.sh; rendered by Scripts/render-results.swift."
    printf '# date\t%s\n' "$(date -u +%Y-%m-%d)"
    printf '# machine\t%s\n' "$(uname -sm), $(nproc 2>/dev/null || sysctl -n hw.ncpu) cores${model:+, $model}"
    printf '# toolchain\t%s\n' "$(swift --version 2>/dev/null | head -1)"
    printf '# references\t%s\n' "Swinject $(version swinject), swift-dependencies $(version swift-dependencies)"
    printf '# commit\t%s\n' "$commit"
    printf '# method\t%s\n' "Release build; each table in a process of its own (Profile ratios, Profile shapes, Profile server-request, Profile memory), $runs runs of each, one after the other. A row times its workload and its hand-written baseline (and Swinject and swift-dependencies where they do the same work) in alternating bursts of about a millisecond, 61 rounds (activation: 15; the server request: 40), and keeps the medians; the ratio is the median of the per-round ratios."
    printf 'table\trow\trun\tbaseline\tstitcher\tratio\tswinject_factor\tswift_dependencies_factor\n'
} > "$out"
# Profile prints Markdown rows (name | baseline | Stitcher | ratio× | Swinject | ÷ | swift-dependencies | ÷),
# and one line for the server request; they become rows of the file. Profile itself is
# left as measured: recording inside its timing loops' function moved baselines by up to 40%.
rows() { # TABLE RUN
    awk -F'|' -v table="$1" -v run="$2" '
        function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
        function plain(s) { s = trim(s); sub(/×$/, "", s); return (s == "—" ? "" : s) }
        NF >= 6 && trim($5) ~ /×$/ {
            swinject = (NF >= 8) ? plain($7) : ""; dependencies = (NF >= 10) ? plain($9) : ""
            printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", table, trim($2), run, plain($3), plain($4), plain($5), swinject, dependencies
        }'
}
server_row() { # RUN
    sed -nE 's/^(11b server request) \(async scope, autowired\): by hand ([0-9.]+) ns, Stitcher ([0-9.]+) ns, ratio ([0-9.]+)×.*, ([0-9.]+)× Stitcher.s$/server\t\1: an asynchronous scope, 3 scoped, an autowired service, teardown (made by hand, bound to the task)\t'"$1"'\t\2\t\3\t\4\t\t\5/p'
}
# Heap bytes per registration (`Profile memory`: glibc's mallinfo2 before and after 100,000
# registrations), each Stitcher form against the dictionary of closures it replaces.
memory_rows() { # RUN
    "$profile" memory | sed -nE 's/^(.*): ([0-9]+) B per registration on the heap.*/\1\t\2/p' | awk -F'\t' -v run="$1" '
        $1 == "[String: closure]" { plain = $2 }
        $1 == "capturing [String: closure]" { capturing = $2 }
        function out(name, base, bytes) { printf "memory\t%s\t%s\t%s\t%s\t%.2f\t\t\n", name, run, base, bytes, bytes / base }
        $1 ~ /^Stitcher, workload 7/ { out("7 a named registration, empty graph (`[String: closure]`), B", plain, $2) }
        $1 ~ /^Stitcher, capturing factories \(empty/ { out("7 a registration whose factory captures a value, empty graph (capturing `[String: closure]`), B", capturing, $2) }
        $1 ~ /^Stitcher, capturing factories \(process-wide/ { out("7 the same beside another container (capturing `[String: closure]`), B", capturing, $2) }'
}
for run in $(seq 1 "$runs"); do
    "$profile" ratios | rows ratios "$run" >> "$out"
    "$profile" shapes | rows shapes "$run" >> "$out"
    "$profile" server-request | server_row "$run" >> "$out"
    memory_rows "$run" >> "$out"
done
swift Scripts/render-results.swift
