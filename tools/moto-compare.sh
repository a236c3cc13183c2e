#!/usr/bin/env bash
# PushSim against moto's in-process SNS, side by side, in one run. moto's own workload: N endpoints
# (default 10,000), one message published to each.
#   moto:     tools/moto_workload.py (@mock_aws): one platform application, N platform endpoints,
#             one publish per endpoint (moto pinned below, installed from PyPI into a throwaway venv
#             at .build/moto-venv);
#   PushSim, like for like: endpoint-bench (release): an app server's hub SDK client creates one
#             registration per device handle (one call, POST /registrations, as moto's one
#             create_platform_endpoint) and sends one native notification to each, which the hub
#             routes and the push service delivers to exactly one device (checked). Timed: the run
#             without the devices' handle set-up (moto is given its tokens); the whole run, set-up
#             included, is given beside it;
#   PushSim, the tutorial's full path: registration-bench (release): N simulated devices install the
#             app, log in and register through the tutorial backend and the hub, then each sends one
#             targeted notification that is delivered to exactly one device (every layer, verified).
# All figures are wall times with the creation of the simulation / the mock included, in rounds
# (default 3) that each run moto and then both PushSim benchmarks; the ratios are given per round
# and as their median.
# Usage: tools/moto-compare.sh [--devices N] [--platforms ios,android,windows] [--rounds N]
set -euo pipefail
cd "$(dirname "$0")/.."

MOTO_VERSION="5.2.1"
BOTO3_VERSION="1.40.76"
DEVICES=10000
PLATFORMS="ios,android,windows"
ROUNDS=3
while [ $# -gt 0 ]; do
    case "$1" in
        --devices) DEVICES="$2"; shift 2 ;;
        --platforms) PLATFORMS="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        *) echo "usage: $0 [--devices N] [--platforms ios,android,windows] [--rounds N]" >&2; exit 2 ;;
    esac
done

VENV=.build/moto-venv
if ! "$VENV/bin/python" -c "import moto, boto3, sys; sys.exit(0 if moto.__version__ == '$MOTO_VERSION' and boto3.__version__ == '$BOTO3_VERSION' else 1)" 2>/dev/null; then
    echo "== installing moto[sns]==$MOTO_VERSION and boto3==$BOTO3_VERSION into $VENV"
    mkdir -p .build
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "moto[sns]==$MOTO_VERSION" "boto3==$BOTO3_VERSION"
fi

SCRATCH="${PUSHSIM_SCRATCH:-.build}"
echo "== building endpoint-bench and registration-bench (release, scratch path $SCRATCH)"
swift build -c release --scratch-path "$SCRATCH" --product endpoint-bench 2>&1 | tail -1
swift build -c release --scratch-path "$SCRATCH" --product registration-bench 2>&1 | tail -1

# Rounds alternate moto and PushSim, so that each ratio compares runs made minutes apart: this
# machine's speed moves from hour to hour, and moto's (Python) more than PushSim's.
MOTO_ALL=(); ENDPOINT_ALL=(); ENDPOINT_WHOLE_ALL=(); PUSHSIM_ALL=()
for round in $(seq 1 "$ROUNDS"); do
    echo "== round $round of $ROUNDS"
    echo "== moto: $DEVICES endpoints, one publish each"
    MOTO_OUT=$("$VENV/bin/python" tools/moto_workload.py --endpoints "$DEVICES")
    echo "$MOTO_OUT" | grep -v '^RESULT'
    echo "== PushSim, like for like: $DEVICES registrations through the hub SDK, one send each, delivered"
    ENDPOINT_OUT=$("$SCRATCH/release/endpoint-bench" --devices "$DEVICES" --platforms "$PLATFORMS" --reps 3)
    echo "$ENDPOINT_OUT" | grep -v '^RESULT'
    echo "== PushSim, the tutorial's full path: $DEVICES devices (install, login, register through the backend and the hub), one targeted send each"
    PUSHSIM_OUT=$("$SCRATCH/release/registration-bench" --devices "$DEVICES" --platforms "$PLATFORMS" --reps 3)
    echo "$PUSHSIM_OUT" | grep -v '^RESULT'
    MOTO_ALL+=("$(echo "$MOTO_OUT" | sed -n 's/^RESULT .*seconds=\([0-9.]*\).*/\1/p')")
    ENDPOINT_ALL+=("$(echo "$ENDPOINT_OUT" | sed -n 's/^RESULT .*workload_s=\([0-9.]*\).*/\1/p')")
    ENDPOINT_WHOLE_ALL+=("$(echo "$ENDPOINT_OUT" | sed -n 's/^RESULT .*whole_s=\([0-9.]*\).*/\1/p')")
    PUSHSIM_ALL+=("$(echo "$PUSHSIM_OUT" | sed -n 's/^RESULT .*whole_s=\([0-9.]*\).*/\1/p')")
done

python3 - "$DEVICES" "${MOTO_ALL[*]}" "${ENDPOINT_ALL[*]}" "${ENDPOINT_WHOLE_ALL[*]}" "${PUSHSIM_ALL[*]}" <<'PY'
import statistics, sys
n = int(sys.argv[1])
moto, endpoint, endpoint_whole, pushsim = ([float(x) for x in a.split()] for a in sys.argv[2:6])
print("== side by side, %d devices / endpoints, one message each (PushSim: best of three reps in each round)" % n)
for k, (m, e, w, p) in enumerate(zip(moto, endpoint, endpoint_whole, pushsim), 1):
    print("round %d: moto %8.3f s; PushSim like for like %6.3f s (%4.0f×; with the handle set-up %6.3f s, %4.0f×); "
          "the tutorial's path %6.3f s (%4.0f×)" % (k, m, e, m / e, w, m / w, p, m / p))
like, whole, path = [m / e for m, e in zip(moto, endpoint)], [m / w for m, w in zip(moto, endpoint_whole)], [m / p for m, p in zip(moto, pushsim)]
print("moto (in-process SNS):            %8.3f s  %8.2f µs per endpoint (median of rounds)" % (statistics.median(moto), statistics.median(moto) * 1e6 / n))
print("PushSim, like for like (hub SDK): %.0f× faster than moto (median of %d rounds; %.0f–%.0f×)" % (statistics.median(like), len(like), min(like), max(like)))
print("  the same with the devices' handle set-up timed too: %.0f× (%.0f–%.0f×)" % (statistics.median(whole), min(whole), max(whole)))
print("PushSim, the tutorial's path:     %.0f× faster than moto (median of %d rounds; %.0f–%.0f×)" % (statistics.median(path), len(path), min(path), max(path)))
print("(goal ≥ 150×)")
PY
