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
