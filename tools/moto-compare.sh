#!/usr/bin/env bash
# PushSim against moto's in-process SNS, side by side, in one run. moto's own workload: N endpoints
# (default 10,000), one message published to each.
#   moto:     tools/moto_workload.py (@mock_aws): one platform application per platform of
#             --platforms (APNS, GCM, WNS), N platform endpoints taking them in turn, one publish
#             per endpoint (moto pinned below, installed from PyPI into a throwaway venv
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
# and as their median. moto's figure is one run of a minute or more, so it averages this machine's
# speed over that minute (which moves by half from one minute to the next); PushSim's is therefore
# the mean of --reps runs (default 40, about as long), and the best of them is given beside.
# Usage: tools/moto-compare.sh [--devices N] [--platforms ios,android,windows] [--rounds N] [--reps R]
set -euo pipefail
cd "$(dirname "$0")/.."

MOTO_VERSION="5.2.1"
BOTO3_VERSION="1.40.76"
DEVICES=10000
PLATFORMS="ios,android,windows"
ROUNDS=3
REPS=40
while [ $# -gt 0 ]; do
    case "$1" in
        --devices) DEVICES="$2"; shift 2 ;;
        --platforms) PLATFORMS="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --reps) REPS="$2"; shift 2 ;;
        *) echo "usage: $0 [--devices N] [--platforms ios,android,windows] [--rounds N] [--reps R]" >&2; exit 2 ;;
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
MOTO_ALL=(); ENDPOINT=(); ENDPOINT_BEST=(); ENDPOINT_WHOLE=(); PUSHSIM=(); PUSHSIM_BEST=()
field() { echo "$1" | sed -n "s/^RESULT .* $2=\([0-9.]*\).*/\1/p"; }
for round in $(seq 1 "$ROUNDS"); do
    echo "== round $round of $ROUNDS"
    echo "== moto: $DEVICES endpoints, one publish each"
    MOTO_OUT=$("$VENV/bin/python" tools/moto_workload.py --endpoints "$DEVICES" --platforms "$PLATFORMS")
    echo "$MOTO_OUT" | grep -v '^RESULT'
    echo "== PushSim, like for like: $DEVICES registrations through the hub SDK, one send each, delivered ($REPS reps)"
    ENDPOINT_OUT=$("$SCRATCH/release/endpoint-bench" --devices "$DEVICES" --platforms "$PLATFORMS" --reps "$REPS")
    echo "$ENDPOINT_OUT" | grep -v -e '^RESULT' -e '^rep '
    echo "== PushSim, the tutorial's full path: $DEVICES devices (install, login, register through the backend and the hub), one targeted send each ($REPS reps)"
    PUSHSIM_OUT=$("$SCRATCH/release/registration-bench" --devices "$DEVICES" --platforms "$PLATFORMS" --reps "$REPS")
    echo "$PUSHSIM_OUT" | grep -v -e '^RESULT' -e '^rep '
    MOTO_ALL+=("$(field "$MOTO_OUT" seconds)")
    ENDPOINT+=("$(field "$ENDPOINT_OUT" workload_mean_s)"); ENDPOINT_BEST+=("$(field "$ENDPOINT_OUT" workload_s)")
    ENDPOINT_WHOLE+=("$(field "$ENDPOINT_OUT" whole_mean_s)")
    PUSHSIM+=("$(field "$PUSHSIM_OUT" whole_mean_s)"); PUSHSIM_BEST+=("$(field "$PUSHSIM_OUT" whole_s)")
done

python3 - "$DEVICES" "$REPS" "${MOTO_ALL[*]}" "${ENDPOINT[*]}" "${ENDPOINT_BEST[*]}" "${ENDPOINT_WHOLE[*]}" "${PUSHSIM[*]}" "${PUSHSIM_BEST[*]}" <<'PY'
import statistics, sys
n, reps = int(sys.argv[1]), int(sys.argv[2])
moto, endpoint, endpoint_best, endpoint_whole, pushsim, pushsim_best = ([float(x) for x in a.split()] for a in sys.argv[3:9])
print("== side by side, %d devices / endpoints, one message each (PushSim: the mean of %d reps in each round, and the best of them)" % (n, reps))
for k, (m, e, eb, w, p, pb) in enumerate(zip(moto, endpoint, endpoint_best, endpoint_whole, pushsim, pushsim_best), 1):
    print("round %d: moto %8.3f s; PushSim like for like %6.3f s (%4.0f×; best %.3f s, %4.0f×; with the handle set-up %6.3f s, %4.0f×); "
          "the tutorial's path %6.3f s (%4.0f×; best %.3f s, %4.0f×)" % (k, m, e, m / e, eb, m / eb, w, m / w, p, m / p, pb, m / pb))
def ratios(a): return [m / x for m, x in zip(moto, a)]
def line(label, r): print("%s %.0f× faster than moto (median of %d rounds; %.0f–%.0f×)" % (label, statistics.median(r), len(r), min(r), max(r)))
print("moto (in-process SNS):            %8.3f s  %8.2f µs per endpoint (median of rounds)" % (statistics.median(moto), statistics.median(moto) * 1e6 / n))
line("PushSim, like for like (hub SDK):", ratios(endpoint))
line("  the same, best rep of each round:", ratios(endpoint_best))
line("  the same with the devices' handle set-up timed too:", ratios(endpoint_whole))
line("PushSim, the tutorial's path:    ", ratios(pushsim))
line("  the same, best rep of each round:", ratios(pushsim_best))
print("(goal ≥ 150×, like for like)")
PY
