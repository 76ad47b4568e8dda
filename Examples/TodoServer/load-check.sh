#!/usr/bin/env bash
# Load check: GET /todos (ten todos) over loopback with wrk, the request's dependency scope
# against the same handlers wired by hand. Both servers run side by side for the whole
# check and wrk loads one, then the other, in short alternating runs (this VM's speed moves
# by 2× within seconds: compare the rounds' ratios, not single figures). Prints each
# round, then the median ratios. Needs wrk (apt-get install wrk).
#   ROUNDS (default 20), SECONDS_PER_RUN (default 3), CONNECTIONS (default 16),
#   SERVER (a todo-server binary to check instead of building this one, e.g. another commit's)
set -euo pipefail
cd "$(dirname "$0")"
if [ -n "${SERVER:-}" ]; then
    server=$SERVER
else
    swift build -c release --product todo-server
    server="$(swift build -c release --show-bin-path)/todo-server"
fi
rounds=${ROUNDS:-20}
duration=${SECONDS_PER_RUN:-3}
connections=${CONNECTIONS:-16}

"$server" 8090 --quiet > /dev/null 2>&1 &
stitcher=$!
"$server" 8091 --quiet --hand-wired > /dev/null 2>&1 &
hand=$!
trap 'kill -INT $stitcher $hand 2> /dev/null || true; wait 2> /dev/null || true' EXIT
sleep 2
for port in 8090 8091; do
    for i in $(seq 1 10); do curl -s -o /dev/null -X POST "localhost:$port/todos" -d "{\"title\":\"todo $i\"}"; done
    wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$port/todos" > /dev/null  # warm-up
done

# One run against a port: "requests/s p50 p99" (latencies in ms).
run() {
    wrk -t1 -c"$connections" -d"${duration}s" --latency "http://127.0.0.1:$1/todos" | awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec/ { rps = $2 } / 50%/ { p50 = ms($2) } / 99%/ { p99 = ms($2) }
        END { printf "%s %.3f %.3f\n", rps, p50, p99 }'
}

results=$(mktemp)
for round in $(seq 1 "$rounds"); do
    # Which runs first alternates, so that neither always follows the other.
    if [ $((round % 2)) -eq 1 ]; then first=8090; else first=8091; fi
    for port in $first $((8090 + 8091 - first)); do
        if [ "$port" = 8090 ]; then scope=$(run 8090); else byhand=$(run 8091); fi
    done
    echo "$round $scope $byhand" | tee -a "$results" | awk '{printf "round %d: scope %s req/s (p50 %s, p99 %s ms), by hand %s req/s (p50 %s, p99 %s ms), ratio %.3f\n", $1, $2, $3, $4, $5, $6, $7, $2 / $5}'
done
awk '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    { n++; ratio[n] = $2 / $5; s[n] = $2; h[n] = $5; sp50[n] = $3; hp50[n] = $6; sp99[n] = $4; hp99[n] = $7 }
    END {
        printf "median of %d rounds: scope %.0f req/s, by hand %.0f req/s, throughput ratio %.3f (scope ÷ hand)\n", n, median(s, n), median(h, n), median(ratio, n)
        printf "p50 scope %.3f ms, by hand %.3f ms; p99 scope %.3f ms, by hand %.3f ms\n", median(sp50, n), median(hp50, n), median(sp99, n), median(hp99, n)
    }' "$results"
rm -f "$results"
