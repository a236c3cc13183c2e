#!/usr/bin/env bash
# HTTP/2 and TLS in front of pushsim serve, for clients that insist on them (APNs clients speak
# only HTTP/2; many SDKs refuse plain http): Debian's nghttpx terminates TLS and HTTP/2 on
# 127.0.0.1:8443 and forwards HTTP/1.1 to pushsim serve. PushSim itself stays HTTP/1.1 and
# dependency-free; this is test tooling.
#
#   bash tools/http2-front.sh            # check: an APNs push over HTTP/2 + TLS reaches a phone (curl),
#                                        # then pyapns-client, a real HTTP/2 APNs client, through the front
#   bash tools/http2-front.sh --keep     # leave both running; point clients at https://127.0.0.1:8443
#                                        # and trust .build/http2-front/cert.pem (or skip verification)
#
# Installs the nghttp2-proxy package with apt-get when nghttpx is missing (skips, exit 0, if it cannot).
set -euo pipefail
cd "$(dirname "$0")/.."
keep=${1:-}
dir=.build/http2-front
mkdir -p "$dir"

if ! command -v nghttpx >/dev/null; then
  if ! (apt-get install -y nghttp2-proxy >"$dir/apt.log" 2>&1); then
    echo "http2-front: SKIPPED, nghttpx is not installed and apt-get could not install nghttp2-proxy ($(tail -1 "$dir/apt.log"))"
    exit 0
  fi
fi

# A throwaway self-signed certificate for 127.0.0.1 and the services' real host names.
if [ ! -f "$dir/cert.pem" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=pushsim" \
    -addext "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:api.push.apple.com,DNS:api.sandbox.push.apple.com,DNS:fcm.googleapis.com,DNS:oauth2.googleapis.com,DNS:pushsim.servicebus.windows.net" \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" >/dev/null 2>&1
fi

swift build --product pushsim >/dev/null
.build/debug/pushsim serve --port 0 --clock manual > "$dir/serve.log" 2>&1 &
serve=$!
trap 'kill $serve ${front:-} 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$dir/serve.log" && break; sleep 0.1; done
port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$dir/serve.log" | head -1)
[ -n "$port" ] || { cat "$dir/serve.log"; echo "http2-front: pushsim serve did not start" >&2; exit 1; }

# PushSim ties some state to a connection (APNs adopts one provider token per connection), and
# nghttpx would pool its backend connections across its clients': with idle backend connections
# dropped after 1 ms, each request through the front reaches PushSim on a connection of its own
# (so APNs' one-token-per-connection rule is not seen through the front).
nghttpx --frontend='127.0.0.1,8443' --backend="127.0.0.1,$port" --workers=1 --no-ocsp --backend-keep-alive-timeout=1ms \
  --errorlog-file="$dir/nghttpx.log" --accesslog-file="$dir/access.log" "$dir/key.pem" "$dir/cert.pem" &
front=$!
for _ in $(seq 1 100); do curl -sk --http2 -o /dev/null https://127.0.0.1:8443/_pushsim/info && break; sleep 0.1; done

if [ "$keep" = "--keep" ]; then
  echo "pushsim serve on http://127.0.0.1:$port, HTTP/2 + TLS in front on https://127.0.0.1:8443 (certificate $dir/cert.pem); Ctrl-C stops both"
  wait $front
  exit 0
fi

python3 - "$dir/cert.pem" <<'PY'
import base64, json, ssl, subprocess, sys, time
def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
def curl(*args):
    out = subprocess.run(["curl", "-s", "--http2", "--cacert", sys.argv[1], "-w", "\n%{http_version} %{http_code}"] + list(args),
                         capture_output=True, text=True, check=True).stdout
    body, _, last = out.rpartition("\n")
    return body, last
info, status = curl("https://127.0.0.1:8443/_pushsim/info")
assert status == "2 200", ("the control API over HTTP/2", status)
info = json.loads(info)
phone, status = curl("-X", "POST", "-d", '{"name":"bob-iphone","platform":"ios"}', "https://127.0.0.1:8443/_pushsim/devices")
handle = json.loads(phone)["handle"]
apns = info["apns"]
# An ES256 provider token signed by openssl with the server's .p8, read over the front: openssl
# writes a DER signature, which APNs takes as well as JOSE's r || s (see PushSimServer.docc).
p8, status = curl("https://127.0.0.1:8443/_pushsim/keys/apns.p8")
assert status == "2 200", ("the .p8 over HTTP/2", status)
key = sys.argv[1].rsplit("/", 1)[0] + "/AuthKey-from-serve.p8"
open(key, "w").write(p8)
signing_input = b64(json.dumps({"alg": "ES256", "kid": apns["keyId"]}).encode()) + "." + b64(
    json.dumps({"iss": apns["teamId"], "iat": int(time.time())}).encode())
signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=signing_input.encode(), capture_output=True, check=True).stdout
token = signing_input + "." + b64(signature)
answer, status = curl("-X", "POST", "-H", "authorization: bearer " + token, "-H", "apns-topic: " + apns["topic"],
                      "-d", '{"aps":{"alert":"over HTTP/2"}}', "https://127.0.0.1:8443/3/device/" + handle)
assert status == "2 200", ("an APNs push over HTTP/2 and TLS", status, answer)
shown, _ = curl("https://127.0.0.1:8443/_pushsim/devices/bob-iphone/notifications?settle=2s")
texts = [n["text"] for n in json.loads(shown)["notifications"]]
assert texts == ["over HTTP/2"], texts
print("ok    an APNs push over HTTP/2 and TLS (nghttpx in front) reaches the simulated iPhone")
PY

# A real APNs client over HTTP/2 and TLS through the front: pyapns-client (httpx with http2=True),
# pinned, in a throwaway venv (skipped, not failed, when PyPI cannot be reached).
venv=.build/http2-front-venv
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
if "$venv/bin/pip" install -q --disable-pip-version-check "pyapns-client==2.0.6" 2>"$dir/pip.log"; then
  echo "== pyapns-client 2.0.6 over HTTP/2 and TLS"
  "$venv/bin/python" tools/conformance/pyapns_client_http2.py "$port" 8443 "$dir/cert.pem"
else
  echo "http2-front: pyapns-client SKIPPED, PyPI could not be reached (pip: $(tail -1 "$dir/pip.log"))"
fi
