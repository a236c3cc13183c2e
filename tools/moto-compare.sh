#!/usr/bin/env bash
# PushSim against moto's in-process SNS, side by side, in one run. moto's own workload: N endpoints
# (default 10,000), one message published to each.
#   moto:     tools/moto_workload.py (@mock_aws): one platform application, N platform endpoints,
#             one publish per endpoint (moto pinned below, installed from PyPI into a throwaway venv
#             at .build/moto-venv);
#   PushSim, like for like: endpoint-bench (release): an app server's hub SDK client creates one
#             registration per device handle (registration id, then the registration: two calls
#             where moto makes one) and sends one native notification to each, which the hub routes
#             and the push service delivers to exactly one device (checked);
#   PushSim, the tutorial's full path: registration-bench (release): N simulated devices install the
#             app, log in and register through the tutorial backend and the hub, then each sends one
#             targeted notification that is delivered to exactly one device (every layer, verified).
# All figures are whole-run wall times (creating the simulation / the mock included).
# Usage: tools/moto-compare.sh [--devices N] [--platforms ios,android,windows]
set -euo pipefail
cd "$(dirname "$0")/.."

MOTO_VERSION="5.2.1"
BOTO3_VERSION="1.40.76"
DEVICES=10000
PLATFORMS="ios,android,windows"
while [ $# -gt 0 ]; do
    case "$1" in
        --devices) DEVICES="$2"; shift 2 ;;
        --platforms) PLATFORMS="$2"; shift 2 ;;
        *) echo "usage: $0 [--devices N] [--platforms ios,android,windows]" >&2; exit 2 ;;
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

echo "== moto: $DEVICES endpoints, one publish each"
MOTO_OUT=$("$VENV/bin/python" tools/moto_workload.py --endpoints "$DEVICES")
echo "$MOTO_OUT" | grep -v '^RESULT'
echo "== PushSim, like for like: $DEVICES registrations through the hub SDK, one send each, delivered"
ENDPOINT_OUT=$("$SCRATCH/release/endpoint-bench" --devices "$DEVICES" --platforms "$PLATFORMS" --reps 3)
echo "$ENDPOINT_OUT" | grep -v '^RESULT'
echo "== PushSim, the tutorial's full path: $DEVICES devices (install, login, register through the backend and the hub), one targeted send each"
PUSHSIM_OUT=$("$SCRATCH/release/registration-bench" --devices "$DEVICES" --platforms "$PLATFORMS" --reps 3)
echo "$PUSHSIM_OUT" | grep -v '^RESULT'

MOTO_S=$(echo "$MOTO_OUT" | sed -n 's/^RESULT .*seconds=\([0-9.]*\).*/\1/p')
ENDPOINT_S=$(echo "$ENDPOINT_OUT" | sed -n 's/^RESULT .*whole_s=\([0-9.]*\).*/\1/p')
PUSHSIM_S=$(echo "$PUSHSIM_OUT" | sed -n 's/^RESULT .*whole_s=\([0-9.]*\).*/\1/p')
python3 - "$DEVICES" "$MOTO_S" "$ENDPOINT_S" "$PUSHSIM_S" <<'PY'
import sys
n, moto, endpoint, pushsim = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
print("== side by side, %d devices / endpoints, one message each" % n)
print("moto (in-process SNS):            %8.3f s  %8.2f µs per endpoint" % (moto, moto * 1e6 / n))
print("PushSim, like for like (hub SDK): %8.3f s  %8.2f µs per endpoint: %.0f× faster than moto" % (endpoint, endpoint * 1e6 / n, moto / endpoint))
print("PushSim, the tutorial's path:     %8.3f s  %8.2f µs per device:   %.0f× faster than moto" % (pushsim, pushsim * 1e6 / n, moto / pushsim))
print("(goal ≥ 150×)")
PY
