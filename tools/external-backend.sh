#!/usr/bin/env bash
# Runs the external-backend scenarios (Examples/external-scenarios) against the example backend in
# Python's standard library (Examples/PythonBackend/backend.py), over loopback:
#   1. the hardened backend: every scenario must pass;
#   2. the same backend with the tutorial's defects (--as-written): the run must fail, and the
#      failures must be the defects' (the tag-injection and stale-registration stories).
# Needs python3 (no packages). Ports: the backend on 127.0.0.1:8080 (the scenarios name it), the
# hub served by pushsim run on 127.0.0.1:9310.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product pushsim >/dev/null
pushsim="$(swift build --show-bin-path)/pushsim"
hub="Endpoint=http://127.0.0.1:9310/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=hub-full-key-stand-in"
out=.build/external-backend
mkdir -p "$out"
backend_pid=""
trap '[ -n "$backend_pid" ] && kill "$backend_pid" 2>/dev/null || true' EXIT

start_backend() {   # $@: extra flags
  python3 Examples/PythonBackend/backend.py --port 8080 --hub-connection-string "$hub" --hub-name notifyusers "$@" \
    2>"$out/backend$*.log" &
  backend_pid=$!
  python3 - <<'PY'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", 8080), timeout=1).close(); sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit("the example backend did not start listening on 127.0.0.1:8080")
PY
}

stop_backend() { kill "$backend_pid"; wait "$backend_pid" 2>/dev/null || true; backend_pid=""; }

echo "-- the hardened example backend: every scenario passes"
start_backend
"$pushsim" run --listen 127.0.0.1:9310 Examples/external-scenarios --check-determinism | tee "$out/hardened.txt"
stop_backend

echo "-- the example backend as the tutorial wrote it: its defects are caught"
start_backend --as-written
if "$pushsim" run --listen 127.0.0.1:9310 Examples/external-scenarios --format json > "$out/as-written.json"; then
  echo "the defects of the as-written backend were not caught" >&2; exit 1
fi
stop_backend
python3 - "$out/as-written.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
failed = {s["name"]: [e["source"] for e in s["expectations"] if not e["passed"]] for s in summary["scenarios"] if not s["passed"]}
for name, expectations in failed.items():
    print("caught: %s" % name)
    for e in expectations:
        print("    failed: %s" % e)
wanted = ["External backend: a phone cannot take another user's tag", "External backend: an expired registration is replaced"]
missing = [w for w in wanted if w not in failed]
if missing:
    sys.exit("expected these stories to fail against the as-written backend: %s" % missing)
PY
echo "ok: the hardened backend passes; the as-written one fails where the tutorial's defects e and i are"
