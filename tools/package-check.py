"""The packaged pushsim's smoke check (tools/package.sh --check): against `pushsim serve` on the
port given, make a phone through the control API, push to it as an APNs provider would (an ES256
provider token with the server's key id and team id; the served APNs checks its claims), and read
back what the phone showed. Standard library only; exit 1 at the first check that fails."""
import base64
import json
import os
import sys
import time
import urllib.request

BASE = f"http://127.0.0.1:{sys.argv[1]}"


def call(method, path, body=None, headers=None):
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, method=method, data=data, headers=headers or {})
    with urllib.request.urlopen(request) as response:
        return response.status, response.read()


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def check(name, condition, detail=""):
    print(("ok    " if condition else "FAIL  ") + name + ("" if condition else f": {detail}"))
    if not condition:
        sys.exit(1)


info = json.loads(call("GET", "/_pushsim/info")[1])
status, body = call("POST", "/_pushsim/devices", {"name": "pkg-iphone", "platform": "ios"})
phone = json.loads(body)
check("a phone is made through the control API", status == 201 and phone.get("handle"), body)
header = b64url(json.dumps({"alg": "ES256", "kid": info["apns"]["keyId"]}).encode())
claims = b64url(json.dumps({"iss": info["apns"]["teamId"], "iat": int(time.time())}).encode())
token = f"{header}.{claims}.{b64url(os.urandom(64))}"
status, _ = call("POST", f"/3/device/{phone['handle']}", json.dumps({"aps": {"alert": "From the package"}}).encode(),
                 {"authorization": f"bearer {token}", "apns-topic": info["apns"]["topic"], "apns-push-type": "alert"})
check("APNs accepts the push (200)", status == 200, status)
shown = json.loads(call("GET", "/_pushsim/devices/pkg-iphone/notifications?settle=1s")[1])
check("the phone shows it", [n["text"] for n in shown["notifications"]] == ["From the package"], shown)
