#!/usr/bin/env bash
# Where the whole difference between the two wirings goes, inside Stitcher or not: profiles
# the scoped server and the hand-wired one in turn under the load check's load (GET /todos
# with ten todos, wrk, 16 connections), and prints the processor time per request of each,
# the difference by where the code lives (Stitcher, the example, the Swift and concurrency
# runtimes, the C library, the kernel, the rest), and the functions whose time per request
# grew or shrank the most. Flat samples (no call graphs): a runtime function called by
# Stitcher counts as the runtime's; `engine-profile.sh` splits the time under Stitcher's
# frames instead. Needs perf (apt-get install linux-perf), wrk and python3; run as root.
#   SERVER (a todo-server binary to profile instead of building this one), ROUNDS (pairs of
#   runs, which goes first alternating; default 6: one pair of processes can differ by 10%
#   whatever their wiring), SECONDS_PER_RUN (default 4), FREQUENCY (samples per second,
#   default 2000), TOP (rows, default 15).
set -euo pipefail
cd "$(dirname "$0")"
. ./load-helpers.sh
server=$(release_binary todo-server "${SERVER:-}")
rounds=${ROUNDS:-6}
duration=${SECONDS_PER_RUN:-4}
frequency=${FREQUENCY:-2000}
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -INT "$pid" 2> /dev/null; rm -rf "$work"' EXIT

# Profiles one server ($2: scope or hand) under load; writes its samples by function and
# its request count under $work/$1.
profile() {
    "$server" 8094 --quiet $([ "$2" = hand ] && echo --hand-wired) > /dev/null 2>&1 &
    pid=$!
    prepare_server 8094
    record_under_load "$pid" "$work/$1.data" 8094 "$duration" -F "$frequency" > "$work/$1.requests"
    kill -INT "$pid"
    wait "$pid" 2> /dev/null || true
    pid=
    perf report -i "$work/$1.data" --no-children --sort dso,sym -F sample,dso,sym --stdio 2> /dev/null \
        | grep -v '^#' | grep -v '^$' > "$work/$1.samples"
}

for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then order="scope hand"; else order="hand scope"; fi
    for wiring in $order; do profile "$wiring-$round" "$wiring"; done
done

python3 - "$work" "$rounds" "$frequency" "${TOP:-15}" << 'EOF'
import collections, subprocess, sys

work, rounds, frequency, top = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def place(dso, symbol):
    if dso.startswith('[kernel'): return 'kernel'
    if '8Stitcher' in symbol: return 'Stitcher'
    if '10TodoServer' in symbol: return 'the example'
    if dso.startswith('libswiftCore'): return 'Swift runtime'
    if dso.startswith('libswift_Concurrency') or dso.startswith('libdispatch'): return 'concurrency runtime'
    if dso.startswith('libc.so') or dso.startswith('libm.so') or dso.startswith('ld-linux'): return 'C library'
    return 'the rest (Hummingbird, NIO, Foundation)'

def load(wiring):
    """Microseconds of processor per request, by function, averaged over the rounds."""
    total = collections.Counter()
    for round in range(1, rounds + 1):
        requests = int(open(f'{work}/{wiring}-{round}.requests').read())
        for line in open(f'{work}/{wiring}-{round}.samples'):
            parts = line.split(None, 3)
            if len(parts) < 4: continue
            total[(parts[1], parts[3].strip())] += int(parts[0]) / frequency * 1e6 / requests / rounds
    return total

scope, hand = load('scope'), load('hand')
keys = set(scope) | set(hand)
print(f'processor time per request: scope {sum(scope.values()):.1f} µs, by hand {sum(hand.values()):.1f} µs, '
      f'difference {sum(scope.values()) - sum(hand.values()):+.1f} µs ({rounds} runs each)')
places = collections.Counter()
for key in keys: places[place(*key)] += scope[key] - hand[key]
print('difference by where the code lives (µs per request):')
for name, value in sorted(places.items(), key=lambda item: -item[1]): print(f'  {value:+6.2f}  {name}')
demangle = lambda name: subprocess.run(['swift', 'demangle', '--simplified', '--compact', name], capture_output=True, text=True).stdout.strip()
ranked = sorted(keys, key=lambda key: scope[key] - hand[key])
for title, chosen in (('grew the most', reversed(ranked[-top:])), ('shrank the most', ranked[:top // 3])):
    print(f'functions that {title} (µs per request: difference, scope, by hand):')
    for key in chosen:
        print(f'  {scope[key] - hand[key]:+5.2f}  {scope[key]:5.2f} {hand[key]:5.2f}  {demangle(key[1])[:100]}')
EOF
