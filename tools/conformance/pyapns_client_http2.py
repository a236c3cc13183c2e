"""Conformance: pyapns-client (pinned by tools/http2-front.sh), unmodified, against `pushsim serve`
behind the HTTP/2 + TLS front (nghttpx): an APNs client that speaks APNs' own wire, HTTP/2 over
TLS (httpx with `http2=True`, ALPN `h2`). Its overrides: its base URL (`APNSClient.BASE_URLS`,
which it hard-codes to api.push.apple.com:443) and its documented `root_cert_path`, here the
front's throwaway certificate. It signs its provider token (ES256, an `iat` with fractional seconds,
`time.time()`) with a key of its own, made here and registered through the control API
(POST /_pushsim/keys/apns) under a key id of its own; the served APNs verifies the signature.

Usage: python pyapns_client_http2.py <server port> <front port> <front certificate>
(the control API is reached on the server's own port, as in every conformance script)
"""
import sys
from pyapns_client import APNSClient, BadDeviceTokenException, IOSNotification, IOSPayload, IOSPayloadAlert, UnregisteredException
from pushsim_control import check, control, own_p8_key, shown

APNSClient.BASE_URLS[APNSClient.MODE_PROD] = f"https://127.0.0.1:{sys.argv[2]}"

info = control("GET", "/_pushsim/info")["apns"]
client = APNSClient(mode=APNSClient.MODE_PROD, root_cert_path=sys.argv[3], auth_key_path=own_p8_key("PYAPNSKEY1", info["teamId"]),
                    auth_key_id="PYAPNSKEY1", team_id=info["teamId"])

phone = control("POST", "/_pushsim/devices", {"name": "gus-iphone", "platform": "ios"})


def refusal(notification, device_token):
    """None when APNs accepts the push (pyapns-client returns nothing then), else the exception raised."""
    try:
        client.push(notification=notification, device_token=device_token)
        return None
    except Exception as e:  # noqa: BLE001 (any refusal is reported by the check)
        return e


alert = IOSPayloadAlert(title="Hi", body="from pyapns-client over HTTP/2")
refused = refusal(IOSNotification(payload=IOSPayload(alert=alert), topic=info["topic"]), phone["handle"])
check("the send is accepted (200) over HTTP/2 and TLS, its provider token's iat a fraction", refused is None, repr(refused))
texts = shown("gus-iphone")
check("the iPhone shows it", texts == ["Hi: from pyapns-client over HTTP/2"], texts)

background = IOSNotification(payload=IOSPayload(content_available=True, custom={"k": "v"}), topic=info["topic"], priority="5",
                             push_type="background", collapse_id="sync")
refused = refusal(background, phone["handle"])
check("a background push (priority 5, a collapse id) is accepted", refused is None, repr(refused))

try:
    client.push(notification=IOSNotification(payload=IOSPayload(alert=IOSPayloadAlert(body="x")), topic=info["topic"]), device_token="not-hex")
    check("a malformed token is refused", False, "accepted")
except BadDeviceTokenException as e:
    check("a malformed token is refused with 400 BadDeviceToken", e.status_code == 400, e.status_code)

control("POST", "/_pushsim/devices/gus-iphone/uninstall")
outcomes = []
for _ in range(2):
    try:
        client.push(notification=IOSNotification(payload=IOSPayload(alert=IOSPayloadAlert(body="late")), topic=info["topic"]), device_token=phone["handle"])
        outcomes.append("accepted")
    except UnregisteredException as e:
        outcomes.append((e.status_code, e.timestamp is not None))
    control("GET", "/_pushsim/devices/gus-iphone/notifications?settle=2s")
check("after an uninstall APNs answers 410 Unregistered with its timestamp", outcomes[-1] == (410, True), outcomes)
client.close()
