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
STITCHER_RESULTS_DATE="$(date -u +%Y-%m-%d)" \
STITCHER_RESULTS_MACHINE="$(uname -sm), $(nproc 2>/dev/null || sysctl -n hw.ncpu) cores${model:+, $model}" \
STITCHER_RESULTS_TOOLCHAIN="$(swift --version 2>/dev/null | head -1)" \
STITCHER_RESULTS_REFERENCES="Swinject $(version swinject), swift-dependencies $(version swift-dependencies)" \
STITCHER_RESULTS_COMMIT="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Benchmarks/Sources || echo ' with local changes')" \
    Benchmarks/.build/release/Profile record Benchmarks/Results/results.tsv "${1:-3}"
swift Scripts/render-results.swift
