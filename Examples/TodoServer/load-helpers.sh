# Shared by load-check.sh, engine-profile.sh, difference-profile.sh and runtime-calls.sh (sourced,
# not run).

# Prints the path of release product $1, built here, or $2 when it is set (another build,
# e.g. another commit's).
release_binary() {
    if [ -n "${2:-}" ]; then
        echo "$2"
    else
        swift build -c release --product "$1" >&2
        echo "$(swift build -c release --show-bin-path)/$1"
    fi
}

# Waits for the server on port $1, gives it the ten todos every measurement lists, and warms
# it up with wrk for a second ($2 connections, default 16).
prepare_server() {
    until curl -s -o /dev/null "localhost:$1/todos"; do sleep 0.1; done
    for i in $(seq 1 10); do curl -s -o /dev/null -X POST "localhost:$1/todos" -d "{\"title\":\"todo $i\"}"; done
    wrk -t1 -c"${2:-16}" -d1s "http://127.0.0.1:$1/todos" > /dev/null
}

# Records perf samples (cpu-clock) of process $1 into file $2 while wrk loads port $3 for $4
# seconds (16 connections); prints wrk's request count. Further arguments go to perf record
# (a frequency, call graphs).
record_under_load() {
    local pid=$1 data=$2 port=$3 duration=$4
    shift 4
    perf record -q -e cpu-clock "$@" -p "$pid" -o "$data" -- sleep "$((duration + 1))" > /dev/null 2>&1 &
    local recorder=$!
    sleep 0.2
    wrk -t1 -c16 -d"${duration}s" "http://127.0.0.1:$port/todos" | awk '/requests in/ { print $1 }'
    wait "$recorder"
}
