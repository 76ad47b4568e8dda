#!/usr/bin/env bash
# Load check: GET /todos (ten todos) over loopback with wrk, the request's dependency scope
# against the same handlers wired by hand, interleaved (this VM's speed moves by 2× within
# seconds: compare the rounds' ratios, not single figures). Needs wrk (apt-get install wrk).
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product todo-server
server="$(swift build -c release --show-bin-path)/todo-server"
rounds=${ROUNDS:-6}
for round in $(seq 1 "$rounds"); do
    for mode in stitcher hand; do
        flag=""
        [ "$mode" = hand ] && flag="--hand-wired"
        "$server" 8090 --quiet $flag > /dev/null 2>&1 &
        pid=$!
        sleep 1
        for i in $(seq 1 10); do curl -s -o /dev/null -X POST localhost:8090/todos -d "{\"title\":\"todo $i\"}"; done
        result=$(wrk -t1 -c16 -d5s --latency http://127.0.0.1:8090/todos)
        kill -INT "$pid"
        wait "$pid" 2> /dev/null || true
        echo "$round $mode $(echo "$result" | grep Requests/sec) p50 $(echo "$result" | awk '/ 50%/ {print $2}') p99 $(echo "$result" | awk '/ 99%/ {print $2}')"
    done
done
