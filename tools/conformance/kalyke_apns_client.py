"""Conformance: the unmodified kalyke-apns client (pinned by tools/conformance.sh) against
`pushsim serve`. Its one override: the APNs base URL (`ApnsClient._base_url`, which the client
hard-codes to api.push.apple.com). It signs its provider token with a real ES256 key made here;
the served APNs checks the token's structure and claims (kid, iss, iat), not the signature.

Usage: python kalyke_apns_client.py <port>
"""
import asyncio
from kalyke import ApnsClient, ApnsConfig, Payload, PayloadAlert
from kalyke.exceptions import BadDeviceToken, Unregistered
from pushsim_control import BASE, check, control, shown, throwaway_p8_key

ApnsClient._base_url = property(lambda self: BASE)


info = control("GET", "/_pushsim/info")["apns"]
client = ApnsClient(use_sandbox=False, team_id=info["teamId"], auth_key_id=info["keyId"], auth_key_filepath=throwaway_p8_key())
config = ApnsConfig(topic=info["topic"])

phone = control("POST", "/_pushsim/devices", {"name": "cy-iphone", "platform": "ios"})
apns_id = asyncio.run(client.send_message(device_token=phone["handle"], payload=Payload(alert=PayloadAlert(title="Hi", body="from kalyke")),
                                  apns_config=config))
check("the send is accepted with an apns-id", len(apns_id) == 36, apns_id)
texts = shown("cy-iphone")
check("the iPhone shows it", texts == ["Hi: from kalyke"], texts)

try:
    asyncio.run(client.send_message(device_token="not-hex", payload=Payload(alert="x"), apns_config=config))
    check("a malformed token is refused", False, "accepted")
except BadDeviceToken:
    check("a malformed token is refused with 400 BadDeviceToken", True)

control("POST", "/_pushsim/devices/cy-iphone/uninstall")
outcomes = []
for _ in range(2):
    try:
        asyncio.run(client.send_message(device_token=phone["handle"], payload=Payload(alert="after uninstall"), apns_config=config))
        outcomes.append("accepted")
    except Unregistered as error:
        outcomes.append("Unregistered" + (" with timestamp" if "timestamp" in error.error else ""))
    control("GET", "/_pushsim/devices/cy-iphone/notifications?settle=2s")
check("after an uninstall APNs answers 410 Unregistered with its timestamp", outcomes[-1] == "Unregistered with timestamp", outcomes)
