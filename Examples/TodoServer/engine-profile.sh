#!/usr/bin/env bash
# Where the request scope's cost goes inside the running server: profiles the scoped
# server under the load check's load (GET /todos with ten todos, wrk, 16 connections) with
# perf's call graphs, and prints the processor time per request spent under Stitcher's
# frames, split into the factories' own code and the engine (everything else under them),
# then the engine's time by the nearest Stitcher function and by the function sampled.
# Needs perf (apt-get install linux-perf), wrk and python3; run as root (or with
# perf_event_paranoid at -1).
#   SERVER (a todo-server binary to profile instead of building this one), SECONDS_PER_RUN
#   (default 4), FREQUENCY (samples per second, default 2000), TOP (rows, default 25).
set -euo pipefail
cd "$(dirname "$0")"
. ./load-helpers.sh
server=$(release_binary todo-server "${SERVER:-}")
duration=${SECONDS_PER_RUN:-4}
frequency=${FREQUENCY:-2000}
data=$(mktemp)
script=$(mktemp)
"$server" 8092 --quiet > /dev/null 2>&1 &
pid=$!
trap 'kill -INT "$pid" 2> /dev/null || true; rm -f "$data" "$script"' EXIT
prepare_server 8092
requests=$(record_under_load "$pid" "$data" 8092 "$duration" -F "$frequency" --call-graph dwarf,16384)
perf script -i "$data" -F ip,sym 2> /dev/null | swift demangle --simplified > "$script"
python3 - "$script" "$requests" "$frequency" "${TOP:-25}" << 'EOF'
import collections, re, sys

path, requests, frequency, top = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
# Stitcher's own frames, and the example's code that runs under them (factories, teardowns,
# the middleware's handler, which runs inside the scope).
engine = re.compile(r'\b(DependencyGraph|GraphEngine|GraphContext|ScopeStore|ScopeTeardown|IndexEntry|IndexSnapshot|'
                    r'DirectLookup|ThreadState|FrameStack|ResolutionStack|InheritedResolution|WaitRegistry|'
                    r'RegistrationRecord|DependencyFactory|Dependency\.init|TypedBox|HazardCell|ProcessLifetimeLock|'
                    r'InjectionArguments)\b')
user = re.compile(r'\b(RequestScopeMiddleware|UnitOfWork|RequestLogger|CurrentRequest|TodoService|'
                  r'InMemoryTodoRepository|UnitOfWorkOutcomes|Logger|UUID)\b')
samples, frames = [], []
for line in open(path):
    parts = line.split(None, 1)
    if not parts:
        if frames: samples.append(frames)
        frames = []
    else:
        frames.append(parts[1].strip() if len(parts) > 1 else '?')
if frames: samples.append(frames)
per_request = lambda count: count / frequency * 1e6 / requests
inside, factories = 0, 0
nearest, sampled = collections.Counter(), collections.Counter()
for frames in samples:
    depth = next((i for i, f in enumerate(frames) if engine.search(f)), None)
    if depth is None: continue
    inside += 1
    if any(user.search(f) for f in frames[:depth]) or user.search(frames[depth]):
        factories += 1
        continue
    nearest[frames[depth][:110]] += 1
    sampled[frames[0][:110]] += 1
print(f'{requests} requests, {len(samples)} samples: {per_request(len(samples)):.1f} µs of processor per request')
print(f'under Stitcher frames: {per_request(inside):.2f} µs per request; the example\'s code there (factories, '
      f'teardowns, the handler inside the scope) {per_request(factories):.2f} µs; the engine {per_request(inside - factories):.2f} µs')
for title, counts in (('engine, by the nearest Stitcher function', nearest), ('engine, by the function sampled', sampled)):
    print(f'{title} (µs per request):')
    for name, count in counts.most_common(top): print(f'  {per_request(count):5.2f}  {name}')
EOF
