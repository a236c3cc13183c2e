#!/usr/bin/env bash
# serve-load: `pushsim serve` under a real load generator, side by side with nginx answering a
# fixed 200 on the same machine (issue 41, item 5).
#
#   tools/serve-load.sh [seconds per run, default 10]
#
# Installs Debian's nghttp2-client (h2load) and nginx-light with apt-get when they are missing
# (test tooling only: the product depends on neither), builds a release `pushsim`, starts it with
# the default wall clock, and nginx with one worker and a fixed 200 answer on free loopback ports
# (config and logs under .build/serve-load/). Then, for 8 and 64 keep-alive connections, runs
# `h2load --h1` with the same FCM HTTP v1 send against both (an access token from the fake's
# /token endpoint; a device made through the control API), and prints one line per measurement:
# requests/s of pushsim and of nginx, their ratio, pushsim's resident memory (VmRSS of
# /proc/<pid>/status). Last, it opens 10,000 idle connections to each server (a small Python
# client), checks how many are still held a second later, and prints the RSS before, while they
# are held and after; how long one request on another connection took meanwhile; and the
# requests/s at 64 connections while they are held.
#
# Environment: PUSHSIM=<binary> measures another build (the script does not build then);
# NGINX_WORKERS (default 1: one event loop, as pushsim has); CONNECTIONS (default "8 64");
# IDLE (default 10000); H2LOAD_THREADS (default 1). The machine's fd limit must allow IDLE
# connections on each side (ulimit -n is raised to its hard limit here).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-10}
workers=${NGINX_WORKERS:-1}
connection_counts=${CONNECTIONS:-"8 64"}
idle=${IDLE:-10000}
threads=${H2LOAD_THREADS:-1}
dir=.build/serve-load
mkdir -p "$dir"
ulimit -n "$(ulimit -Hn)"

missing=()
command -v h2load >/dev/null || missing+=(nghttp2-client)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ ${#missing[@]} -gt 0 ]; then
  echo "serve-load: installing ${missing[*]} with apt-get"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >"$dir/apt.log" 2>&1; then
    echo "serve-load: SKIPPED, could not install ${missing[*]} (see $dir/apt.log)"
    exit 0
  fi
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)

if [ -z "${PUSHSIM:-}" ]; then
  swift build -c release --product pushsim >/dev/null
  PUSHSIM=.build/release/pushsim
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# pushsim serve, default clock (wall).
"$PUSHSIM" serve --port 0 > "$dir/pushsim.log" 2>&1 &
pushsim_pid=$!
pids+=("$pushsim_pid")
for _ in $(seq 1 100); do grep -q "listening on" "$dir/pushsim.log" && break; sleep 0.1; done
port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$dir/pushsim.log" | head -1)
[ -n "$port" ] || { echo "serve-load: pushsim serve did not start"; cat "$dir/pushsim.log"; exit 1; }
base="http://127.0.0.1:$port"

# The FCM send: a phone, an access token for an assertion signed (RS256, by openssl) with the
# service-account key the server wrote, the request body.
python3 - "$base" "$dir" <<'PY' || { echo "serve-load: could not set up the FCM send$(kill -0 "$pushsim_pid" 2>/dev/null || echo ": pushsim serve is no longer running, see $dir/pushsim.log")"; exit 1; }
import base64, json, subprocess, sys, time, urllib.request
base, out = sys.argv[1], sys.argv[2]
def call(method, path, body=None, headers={}):
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())
info = call("GET", "/_pushsim/info")
phone = call("POST", "/_pushsim/devices", json.dumps({"name": "load-pixel", "platform": "android"}).encode(),
             {"Content-Type": "application/json"})
b64 = lambda d: base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=").decode()
now = int(time.time())
signing_input = ".".join([b64({"alg": "RS256", "typ": "JWT"}),
                          b64({"iss": info["fcm"]["serviceAccount"], "scope": "https://www.googleapis.com/auth/firebase.messaging",
                               "aud": info["fcm"]["tokenURI"], "iat": now, "exp": now + 3600})])
open(out + "/sa-key.pem", "w").write(json.load(open(info["fcmServiceAccountFile"]))["private_key"])
signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", out + "/sa-key.pem"], input=signing_input.encode(),
                           capture_output=True, check=True).stdout
assertion = signing_input + "." + base64.urlsafe_b64encode(signature).rstrip(b"=").decode()
form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
token = call("POST", "/token", form.encode(), {"Content-Type": "application/x-www-form-urlencoded"})["access_token"]
open(out + "/token", "w").write(token)
open(out + "/path", "w").write("/v1/projects/%s/messages:send" % info["fcm"]["projectId"])
json.dump({"message": {"token": phone["handle"], "data": {"k": "v"}}}, open(out + "/body.json", "w"))
PY
token=$(cat "$dir/token")
path=$(cat "$dir/path")

# nginx: one fixed answer of the same shape, every request, keep-alive without limit.
nginx_port=$(free_port)
cat > "$dir/nginx.conf" <<EOF
daemon off;
worker_processes $workers;
worker_rlimit_nofile 20000;
pid $PWD/$dir/nginx.pid;
error_log $PWD/$dir/nginx-error.log;
events { worker_connections 16384; }
http {
  access_log off;
  client_body_temp_path $PWD/$dir/nginx-body;
  keepalive_requests 100000000;
  keepalive_timeout 120s;
  server {
    listen 127.0.0.1:$nginx_port backlog=1024;
    default_type application/json;
    location / { return 200 '{"name":"projects/pushsim-demo/messages/0:1767225600000000%31bd1c9631bd1c96"}'; }
  }
}
EOF
"$nginx" -p "$PWD/$dir" -c "$PWD/$dir/nginx.conf" -e "$PWD/$dir/nginx-error.log" &
pids+=($!)
for _ in $(seq 1 50); do [ -s "$dir/nginx.pid" ] && break; sleep 0.1; done
nginx_worker() { pgrep -P "$(cat "$dir/nginx.pid")" | head -1; }

# req/s of one h2load run; "failed (…)" and status 1 when not every request got a 2xx.
load() {   # url connections
  local out ok failed rate
  out=$(timeout $((seconds + 30)) h2load --h1 -t "$threads" -c "$2" -D "$seconds" --warm-up-time=1 -d "$dir/body.json" \
          -H "Authorization: Bearer $token" -H "Content-Type: application/json" "$1" 2>&1) || true
  echo "$out" > "$dir/h2load-$2.log"
  rate=$(echo "$out" | sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p')
  failed=$(echo "$out" | sed -n 's/^requests: .* \([0-9]*\) failed.*/\1/p')
  ok=$(echo "$out" | sed -n 's/^status codes: \([0-9]*\) 2xx.*/\1/p')
  if [ -z "$rate" ] || [ "${failed:-1}" != 0 ] || [ "${ok:-0}" = 0 ]; then
    local summary
    summary=$(echo "$out" | grep -E '^(requests|status codes):' | tr '\n' ' ' | sed 's/  */ /g; s/ $//')
    echo "failed (${summary:-no result from h2load within $((seconds + 30)) s})"
    return 1
  fi
  printf '%.0f' "$rate"
}

echo "serve-load: pushsim serve ($PUSHSIM) on $base, nginx ($workers worker) on 127.0.0.1:$nginx_port; h2load --h1, ${seconds}s per run, FCM sends"
for c in $connection_counts; do
  p=$(load "$base$path" "$c") || { echo "serve-load: h2load against pushsim, $c connections: $p"; exit 1; }
  n=$(load "http://127.0.0.1:$nginx_port$path" "$c") || { echo "serve-load: h2load against nginx, $c connections: $n"; exit 1; }
  printf 'connections=%-5s pushsim %7s req/s  nginx %7s req/s  ratio %.3f  pushsim RSS %s MiB\n' \
    "$c" "$p" "$n" "$(awk -v p="$p" -v n="$n" 'BEGIN { print p / n }')" "$(mib "$(rss_kib "$pushsim_pid")")"
done

# Idle connections: open them, hold them, see how many the server keeps and what it costs (the
# client reads the server's VmRSS itself: before, while it holds them, after they closed), how
# long a request on another connection takes meanwhile, and the 64-connection load while held.
idle_run() {   # name base-url port pid
  rm -f "$dir/idle-ready" "$dir/idle-done"
  python3 - "$1" "$3" "$4" "$idle" "$dir" > "$dir/idle-$1.txt" <<'PY' &
import os, select, socket, sys, time
name, port, pid, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
def rss():
    for line in open("/proc/%s/status" % pid):
        if line.startswith("VmRSS:"): return int(line.split()[1]) / 1024
before = rss()
socks = []
for i in range(count):
    s = socket.socket()
    s.connect(("127.0.0.1", port))
    socks.append(s)
time.sleep(1.0)
poller = select.poll()
for s in socks: poller.register(s, select.POLLIN)
closed = len(poller.poll(0))   # readable: an answer (503) or the server's close
held = rss()
t = time.monotonic()
c = socket.create_connection(("127.0.0.1", port))
c.sendall(b"GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
answer = b""
while True:
    d = c.recv(65536)
    if not d: break
    answer += d
ms = (time.monotonic() - t) * 1000
open(out + "/idle-ready", "w").close()
for _ in range(1200):
    if os.path.exists(out + "/idle-done"): break
    time.sleep(0.1)
loaded = rss()
for s in socks: s.close()
time.sleep(1.0)
print("idle=%-6d %-7s held %5d  RSS %.1f -> %.1f MiB held (%.1f after the load, %.1f after they closed)  one request meanwhile: %s in %.1f ms"
      % (count, name, count - closed, before, held, loaded, rss(), answer[9:12].decode() or "none", ms))
PY
  local holder=$!
  for _ in $(seq 1 600); do [ -e "$dir/idle-ready" ] || [ ! -e "/proc/$holder" ] && break; sleep 0.1; done
  local rate=failed
  if [ -e "$dir/idle-ready" ]; then rate=$(load "$2$path" 64) || true; fi
  touch "$dir/idle-done"
  wait "$holder" || true
  case $rate in failed*) ;; *) rate="$rate req/s" ;; esac
  echo "$(cat "$dir/idle-$1.txt")  64 connections meanwhile: $rate"
}
idle_run pushsim "$base" "$port" "$pushsim_pid"
idle_run nginx "http://127.0.0.1:$nginx_port" "$nginx_port" "$(nginx_worker)"
