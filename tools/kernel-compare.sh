#!/usr/bin/env bash
# PushSim's event queue against a plain C binary heap, side by side, in one run: kernel-bench
# (PushSimKernel's EventQueue, release) and tools/kernel-baseline/hold_heap.c (compiled here with
# the system's cc at -O2) run the same hold model with the same random stream. Rounds alternate
# the two, so each ratio compares runs made seconds apart (this machine's speed moves from minute
# to minute); each run gives the median of its reps, and the ratio is given per round and as the
# median of rounds. The two must print the same checksum of popped times, or the script fails.
# Usage: tools/kernel-compare.sh [--rounds N] [--ops N] [--pending N] [--reps N]
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=3; OPS=10000000; PENDING=1000000; REPS=3
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) ROUNDS="$2"; shift 2 ;;
        --ops) OPS="$2"; shift 2 ;;
        --pending) PENDING="$2"; shift 2 ;;
        --reps) REPS="$2"; shift 2 ;;
        *) echo "usage: $0 [--rounds N] [--ops N] [--pending N] [--reps N]" >&2; exit 2 ;;
    esac
done

SCRATCH="${PUSHSIM_SCRATCH:-.build}"
echo "== building kernel-bench (release, scratch path $SCRATCH) and the C heap (cc -O2)"
swift build -c release --scratch-path "$SCRATCH" --product kernel-bench 2>&1 | tail -1
mkdir -p "$SCRATCH"
cc -O2 -o "$SCRATCH/hold-heap" tools/kernel-baseline/hold_heap.c
cc --version | head -1

ARGS=(--ops "$OPS" --pending "$PENDING" --reps "$REPS")
field() { echo "$1" | sed -n "s/^$2 *\([0-9.]*\)M.*/\1/p"; }
checksum() { echo "$1" | sed -n "s/^checksum of popped times: \(0x[0-9a-f]*\).*/\1/p"; }
SWIFT=(); C=()
for round in $(seq 1 "$ROUNDS"); do
    echo "== round $round of $ROUNDS"
    C_OUT=$("$SCRATCH/hold-heap" "${ARGS[@]}")
    SWIFT_OUT=$("$SCRATCH/release/kernel-bench" "${ARGS[@]}")
    c_sum=$(checksum "$C_OUT")
    s_sum=$(checksum "$SWIFT_OUT")
    if [ -z "$c_sum" ] || [ "$c_sum" != "$s_sum" ]; then
        echo "the two did different work: checksums $c_sum (C) and $s_sum (EventQueue)" >&2
        exit 1
    fi
    C+=("$(field "$C_OUT" "median:")"); SWIFT+=("$(field "$SWIFT_OUT" "median:")")
    echo "C binary heap: ${C[-1]}M events/s; EventQueue: ${SWIFT[-1]}M events/s (median of $REPS reps each; checksum $c_sum in both)"
done

python3 - "${C[*]}" "${SWIFT[*]}" <<'PY'
import statistics, sys
c, s = ([float(x) for x in a.split()] for a in sys.argv[1:3])
ratios = [y / x for x, y in zip(c, s)]
print("== side by side: EventQueue %.2fM events/s against the C binary heap's %.2fM (medians of rounds)" % (statistics.median(s), statistics.median(c)))
print("EventQueue / C heap: ×%.2f (median of %d rounds; ×%.2f–×%.2f)" % (statistics.median(ratios), len(ratios), min(ratios), max(ratios)))
PY
