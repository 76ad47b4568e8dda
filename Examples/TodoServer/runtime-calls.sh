#!/usr/bin/env bash
# What the request scope makes the runtime do, counted exactly: runs `todo-scope-cost scope 1`
# and `todo-scope-cost hand 1` (2,000 requests each through the router, in process) under
# perf with uprobes on the Swift runtime, the concurrency runtime and the C library, and
# prints each function's calls per request in both wirings and their difference. Counts do
# not move with the machine's speed, so they show a change too small for the load check.
# Needs perf with uprobes (apt-get install linux-perf) and root; uprobes make each call slow,
# so a run takes a minute or two.
#   BINARY (a todo-scope-cost binary to count instead of building this one).
set -euo pipefail
cd "$(dirname "$0")"
. ./load-helpers.sh
binary=$(release_binary todo-scope-cost "${BINARY:-}")
library() { ldd "$binary" | awk -v name="$1" '$1 ~ name { print $3 }'; }
core=$(library libswiftCore.so)
concurrency=$(library libswift_Concurrency.so)
libc=$(library libc.so.6)
probes=()
add() { # library, function: probes the function (unless it is probed already) and names the event
    local event
    event=$(perf probe -x "$1" -a "$2" 2>&1 | awk '/Added new event/ { getline; print $1 }')
    if [ -n "$event" ]; then probes+=("$event"); fi
}
trap 'for probe in "${probes[@]}"; do perf probe -q -d "$probe" > /dev/null 2>&1 || true; done' EXIT
for function in swift_retain swift_release swift_allocObject swift_dynamicCast swift_getGenericMetadata; do add "$core" "$function"; done
for function in swift_task_localValueGet swift_task_localValuePush swift_task_switch swift_task_alloc; do add "$concurrency" "$function"; done
for function in malloc pthread_mutex_lock pthread_cond_broadcast; do add "$libc" "$function"; done
events=$(perf probe -l 2> /dev/null | awk '{ print $1 }' | grep -E 'probe_(libswiftCore|libswift_Concurrency|libc):' | paste -sd,)
scope=$(mktemp)
hand=$(mktemp)
perf stat -x, -e "$events" -o "$scope" "$binary" scope 1 > /dev/null
perf stat -x, -e "$events" -o "$hand" "$binary" hand 1 > /dev/null
echo "calls per request (2,000 requests each, start-up included, so only the difference is exact):"
paste -d, "$scope" "$hand" | awk -F, '/probe_/ {
    name = $3; sub(/^probe_[^:]*:/, "", name)
    printf "  %-28s scope %8.2f  by hand %8.2f  difference %+8.2f\n", name, $1 / 2000, $8 / 2000, ($1 - $8) / 2000 }'
rm -f "$scope" "$hand"
