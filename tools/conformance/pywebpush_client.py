"""Conformance: the unmodified pywebpush (pinned by tools/conformance.sh), an application server
sending Web Push, against `pushsim serve`. A simulated Firefox and a simulated Chrome subscribe
with the script's VAPID public key; pywebpush encrypts for each subscription (RFC 8291,
aes128gcm, then the older aesgcm draft) and signs its VAPID token (RFC 8292, ES256); the push services verify the token for
real and the browsers decrypt and show the text. pywebpush's one override: the endpoint's origin
becomes the server's address (the path is kept, which is how the server routes a push service),
so the token's `aud` is given as the real origin, as the push service checks it.

Usage: python pywebpush_client.py <port>
"""
import base64
import json
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization  # pywebpush depends on cryptography
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush
from pushsim_control import BASE, check, control, shown_by


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


vapid = Vapid02()
vapid.generate_keys()
server_key = b64url(vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
claims = {"sub": "mailto:ops@example.com"}
served_by_vendor, origin_by_vendor = {}, {}

for name, vendor in [("dee-firefox", "firefox"), ("dee-chrome", "chrome")]:
    control("POST", "/_pushsim/browsers", {"name": name, "vendor": vendor, "applicationServerKey": server_key})
    subscription = control("GET", f"/_pushsim/browsers/{name}/subscription")
    endpoint = urlsplit(subscription["endpoint"])
    check(f"{vendor}: the subscription has p256dh and auth", set(subscription["keys"]) == {"p256dh", "auth"}, subscription)
    served = {"endpoint": BASE + endpoint.path + (f"?{endpoint.query}" if endpoint.query else ""), "keys": subscription["keys"]}
    origin = f"{endpoint.scheme}://{endpoint.netloc}"
    served_by_vendor[vendor], origin_by_vendor[vendor] = served, origin

    answer = webpush(served, json.dumps({"title": "Score", "body": "2-1"}), vapid_private_key=vapid,
                     vapid_claims=dict(claims, aud=origin), ttl=60)
    check(f"{vendor}: pywebpush's push is accepted (201)", answer.status_code == 201, answer.status_code)
    texts = shown_by(name, 1)
    check(f"{vendor}: the browser decrypted and showed it", texts == ["Score: 2-1"], texts)

    try:
        webpush(served, "for someone else", vapid_private_key=vapid, vapid_claims=dict(claims, aud="https://push.example.net"), ttl=60)
        check(f"{vendor}: a token for another origin is refused", False, "accepted")
    except WebPushException as refused:
        status = refused.response.status_code if refused.response is not None else None
        check(f"{vendor}: a token for another origin is refused ({status})", status in (401, 403), status)
    check(f"{vendor}: nothing more is shown", shown_by(name, 2, seconds=0.5) == ["Score: 2-1"])

    # The older aesgcm coding (salt in Encryption, the sender's key in Crypto-Key), which
    # pywebpush still sends when asked and Chrome and Firefox still decrypt.
    answer = webpush(served, json.dumps({"title": "Score", "body": "3-1"}), vapid_private_key=vapid,
                     vapid_claims=dict(claims, aud=origin), ttl=60, content_encoding="aesgcm")
    check(f"{vendor}: pywebpush's aesgcm push is accepted (201)", answer.status_code == 201, answer.status_code)
    texts = shown_by(name, 2)
    check(f"{vendor}: the browser decrypted the aesgcm push and showed it", texts == ["Score: 2-1", "Score: 3-1"], texts)

# The browser unsubscribes (the push service is told): the same push is now answered 410 Gone.
control("POST", "/_pushsim/browsers/dee-firefox/unsubscribe")
try:
    webpush(served_by_vendor["firefox"], "after unsubscribe", vapid_private_key=vapid,
            vapid_claims=dict(claims, aud=origin_by_vendor["firefox"]), ttl=60)
    check("firefox: a push after unsubscribe is refused", False, "accepted")
except WebPushException as gone:
    status = gone.response.status_code if gone.response is not None else None
    check(f"firefox: a push after unsubscribe is refused ({status})", status in (404, 410), status)
