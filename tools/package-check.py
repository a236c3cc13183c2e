"""The packaged pushsim's smoke check (tools/package.sh --check): against `pushsim serve` on the
port given, make a phone through the control API, push to it as an APNs provider would (an ES256
provider token with the server's key id and team id, signed by `openssl dgst` with the `.p8` the
server wrote: a DER signature, which APNs takes as well as JOSE's), and read back what the phone
showed; a token with a random signature must be refused. Standard library and the openssl command
only; exit 1 at the first check that fails."""
import base64
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

BASE = f"http://127.0.0.1:{sys.argv[1]}"


def call(method, path, body=None, headers=None):
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, method=method, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


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
signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", info["apnsKeyFile"]], input=f"{header}.{claims}".encode(),
                           capture_output=True, check=True).stdout


def push(token, text):
    return call("POST", f"/3/device/{phone['handle']}", json.dumps({"aps": {"alert": text}}).encode(),
                {"authorization": f"bearer {token}", "apns-topic": info["apns"]["topic"], "apns-push-type": "alert"})


status, body = push(f"{header}.{claims}.{b64url(os.urandom(64))}", "forged")
check("APNs refuses a token whose signature does not verify (403 InvalidProviderToken)", status == 403 and b"InvalidProviderToken" in body, body)
status, _ = push(f"{header}.{claims}.{b64url(signature)}", "From the package")
check("APNs accepts the push signed with the server's .p8 (200)", status == 200, status)
shown = json.loads(call("GET", "/_pushsim/devices/pkg-iphone/notifications?settle=1s")[1])
check("the phone shows it", [n["text"] for n in shown["notifications"]] == ["From the package"], shown)
