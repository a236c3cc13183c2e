"""Conformance: the unmodified kalyke-apns client (pinned by tools/conformance.sh) against
`pushsim serve`. Its one override: the APNs base URL (`ApnsClient._base_url`, which the client
hard-codes to api.push.apple.com). It signs its provider token (ES256) with the `.p8` the server
wrote, whose signature the served APNs verifies; a client signing with a key Apple does not have
for that key id is refused 403 InvalidProviderToken.

Usage: python kalyke_apns_client.py <port>
"""
import asyncio
import tempfile
from cryptography.hazmat.primitives import serialization  # kalyke depends on cryptography
from cryptography.hazmat.primitives.asymmetric import ec
from kalyke import ApnsClient, ApnsConfig, Payload, PayloadAlert
from kalyke.exceptions import BadDeviceToken, InvalidProviderToken, Unregistered
from pushsim_control import BASE, check, control, served_key_files, shown

ApnsClient._base_url = property(lambda self: BASE)


info = control("GET", "/_pushsim/info")["apns"]
p8, _ = served_key_files()
client = ApnsClient(use_sandbox=False, team_id=info["teamId"], auth_key_id=info["keyId"], auth_key_filepath=p8)
config = ApnsConfig(topic=info["topic"])

phone = control("POST", "/_pushsim/devices", {"name": "cy-iphone", "platform": "ios"})

# A key of another account under the same key id: its signature does not verify.
with tempfile.NamedTemporaryFile(suffix=".p8", delete=False) as other:
    other.write(ec.generate_private_key(ec.SECP256R1()).private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                                      serialization.NoEncryption()))
forger = ApnsClient(use_sandbox=False, team_id=info["teamId"], auth_key_id=info["keyId"], auth_key_filepath=other.name)
try:
    asyncio.run(forger.send_message(device_token=phone["handle"], payload=Payload(alert="forged"), apns_config=config))
    check("a token signed with a key Apple does not have is refused", False, "accepted")
except InvalidProviderToken:
    check("a token signed with a key Apple does not have is refused with 403 InvalidProviderToken", True)
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
