#!/usr/bin/env bash
# Load check: GET /todos (ten todos) over loopback with wrk, the request's dependency scope
# against the same handlers wired by hand. Every round starts a fresh pair of servers (one
# process's speed differs from another's by up to 10%, for the same code: its hash seed,
# its threads' placement), loads one, then the other (which goes first alternates), and
# stops them. Each run gives requests/s, p50 and p99 latency, and the server's processor
# time per request (from /proc, so what wrk costs the shared cores does not count). Prints
# every round, then the medians of the rounds' ratios. Needs wrk (apt-get install wrk).
#   ROUNDS (default 20), SECONDS_PER_RUN (default 3), CONNECTIONS (default 16),
#   SERVER (a todo-server binary to check instead of building this one, e.g. another commit's),
#   SAME=1 (both servers hand-wired: what the method reads for no difference at all).
set -euo pipefail
cd "$(dirname "$0")"
. ./load-helpers.sh
server=$(release_binary todo-server "${SERVER:-}")
rounds=${ROUNDS:-20}
duration=${SECONDS_PER_RUN:-3}
connections=${CONNECTIONS:-16}
scoped_wiring=$([ -n "${SAME:-}" ] && echo --hand-wired || true)
ticks=$(getconf CLK_TCK)
pids=()
trap 'kill -INT "${pids[@]}" 2> /dev/null || true; wait 2> /dev/null || true' EXIT

# Processor time (user + system) of a process so far, in clock ticks.
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# One run against a port served by process $2: "requests/s p50 p99 cpu-µs-per-request".
run() {
    local before after
    before=$(cpu "$2")
    wrk -t1 -c"$connections" -d"${duration}s" --latency "http://127.0.0.1:$1/todos" > "$output"
    after=$(cpu "$2")
    awk -v ticks="$((after - before))" -v hz="$ticks" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec/ { rps = $2 } / 50%/ { p50 = ms($2) } / 99%/ { p99 = ms($2) } / requests in / { n = $1 }
        END { printf "%s %.3f %.3f %.1f\n", rps, p50, p99, ticks / hz * 1e6 / n }' "$output"
}

results=$(mktemp)
output=$(mktemp)
for round in $(seq 1 "$rounds"); do
    # shellcheck disable=SC2086
    "$server" 8090 --quiet $scoped_wiring > /dev/null 2>&1 &
    scoped=$!
    "$server" 8091 --quiet --hand-wired > /dev/null 2>&1 &
    hand=$!
    pids=("$scoped" "$hand")
    for port in 8090 8091; do prepare_server "$port" "$connections"; done
    if [ $((round % 2)) -eq 1 ]; then first=8090; else first=8091; fi
    for port in $first $((8090 + 8091 - first)); do
        if [ "$port" = 8090 ]; then scope=$(run 8090 "$scoped"); else byhand=$(run 8091 "$hand"); fi
    done
    kill -INT "$scoped" "$hand"
    wait "$scoped" "$hand" 2> /dev/null || true
    echo "$round $scope $byhand" | tee -a "$results" | awk '{
        printf "round %d: scope %s req/s (p50 %s, p99 %s ms, %s µs of processor per request), by hand %s req/s (p50 %s, p99 %s ms, %s µs), throughput ratio %.3f, processor ratio %.3f\n",
            $1, $2, $3, $4, $5, $6, $7, $8, $9, $2 / $6, $5 / $9 }'
done
awk '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    { n++; ratio[n] = $2 / $6; cpu[n] = $5 / $9; s[n] = $2; h[n] = $6; sp50[n] = $3; hp50[n] = $7; sp99[n] = $4; hp99[n] = $8; sc[n] = $5; hc[n] = $9 }
    END {
        printf "median of %d rounds: scope %.0f req/s, by hand %.0f req/s, throughput ratio %.3f (scope ÷ hand)\n", n, median(s, n), median(h, n), median(ratio, n)
        printf "processor time per request: scope %.1f µs, by hand %.1f µs, ratio %.3f\n", median(sc, n), median(hc, n), median(cpu, n)
        printf "p50 scope %.3f ms, by hand %.3f ms; p99 scope %.3f ms, by hand %.3f ms\n", median(sp50, n), median(hp50, n), median(sp99, n), median(hp99, n)
    }' "$results"
rm -f "$results" "$output"
