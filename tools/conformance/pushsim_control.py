"""What every conformance script shares: the served world's address (the port is the script's first
argument), the control API, and one printed line per check (exit 1 at the first that fails)."""
import json
import sys
import time
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


def shown_by(browser, want, seconds=5.0):
    """The texts a simulated browser showed, once `want` of them are there or `seconds` of wall time passed."""
    deadline = time.monotonic() + seconds
    while True:
        texts = [n["text"] for n in control("GET", f"/_pushsim/browsers/{browser}/notifications")["notifications"]]
        if len(texts) >= want or time.monotonic() > deadline:
            return texts
        time.sleep(0.1)


def served_key_files():
    """The key files `pushsim serve` wrote: (the APNs `.p8`, the Google service-account JSON). The
    served APNs and Google verify signatures made with them."""
    info = control("GET", "/_pushsim/info")
    return info["apnsKeyFile"], info["fcmServiceAccountFile"]


def own_p8_key(key_id, team_id):
    """The path of a fresh EC P-256 key in a `.p8` file (PKCS #8 PEM), made here, its public key
    registered with the served APNs under `key_id` and `team_id` (POST /_pushsim/keys/apns), as a
    developer's own key is registered with Apple."""
    import tempfile
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    registered = control("POST", "/_pushsim/keys/apns", {"keyId": key_id, "teamId": team_id, "publicKey": public})
    check(f"APNs key {key_id} of our own is registered", registered.get("keyId") == key_id, registered)
    with tempfile.NamedTemporaryFile(suffix=".p8", delete=False) as key_file:
        key_file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return key_file.name


def own_service_account(client_email, register=True):
    """The path of a service-account file for a fresh RSA key made here, `token_uri` the served
    /token. With `register`, its public key is registered with the served Google token endpoint
    (POST /_pushsim/keys/fcm), as creating a key in the Cloud console does; without, Google has
    never heard of the key."""
    import tempfile
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    if register:
        public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
        registered = control("POST", "/_pushsim/keys/fcm", {"clientEmail": client_email, "publicKey": public})
        check(f"service-account key of {client_email} is registered", registered.get("clientEmail") == client_email, registered)
    info = control("GET", "/_pushsim/info")["fcm"]
    account = {"type": "service_account", "project_id": info["projectId"], "private_key_id": "0" * 40, "private_key": private,
               "client_email": client_email, "client_id": "1", "token_uri": info["tokenURI"]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as account_file:
        json.dump(account, account_file)
    return account_file.name
