"""What every conformance script shares: the served world's address (the port is the script's first
argument), the control API, and one printed line per check (exit 1 at the first that fails)."""
import json
import sys
import urllib.request

BASE = f"http://127.0.0.1:{sys.argv[1]}"


def control(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, method=method, data=data)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def check(name, condition, detail=""):
    print(("ok    " if condition else "FAIL  ") + name + ("" if condition else f": {detail}"))
    if not condition:
        sys.exit(1)


def shown(device):
    """The texts a simulated device showed, after letting the world settle for 2 s."""
    return [n["text"] for n in control("GET", f"/_pushsim/devices/{device}/notifications?settle=2s")["notifications"]]


def throwaway_p8_key():
    """The path of a fresh EC P-256 private key in a `.p8` file (PKCS #8 PEM), for an APNs client
    to sign its provider tokens with: the served APNs checks their claims, not their signature."""
    import tempfile
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with tempfile.NamedTemporaryFile(suffix=".p8", delete=False) as key_file:
        key_file.write(key)
    return key_file.name
