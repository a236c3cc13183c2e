"""Conformance: the unmodified kalyke-apns client (pinned by tools/conformance.sh) against
`pushsim serve`. Its one override: the APNs base URL (`ApnsClient._base_url`, which the client
hard-codes to api.push.apple.com). It signs its provider token (ES256) with the `.p8` the server
wrote, whose signature the served APNs verifies; a client signing with a key Apple does not have
for that key id is refused 403 InvalidProviderToken.

Its Live Activity client (LiveActivityClient, the liveactivity push type and topic): a start to
an iOS 18 phone's push-to-start token is accepted but starts nothing, because kalyke 1.5.0 sends
no attributes-type nor attributes; an update to an activity the app started reaches it, with its
alert (tokens read from the device's JSON); a liveactivity push to the app's own device token is
refused 400 DeviceTokenNotForTopic.

Usage: python kalyke_apns_client.py <port>
"""
import asyncio
import tempfile
from datetime import datetime, timezone
from cryptography.hazmat.primitives import serialization  # kalyke depends on cryptography
from cryptography.hazmat.primitives.asymmetric import ec
from kalyke import (ApnsClient, ApnsConfig, LiveActivityApnsConfig, LiveActivityClient, LiveActivityEvent, LiveActivityPayload,
                    Payload, PayloadAlert)
from kalyke.exceptions import BadDeviceToken, DeviceTokenNotForTopic, InvalidProviderToken, Unregistered
from pushsim_control import BASE, check, control, served_key_files, shown

ApnsClient._base_url = property(lambda self: BASE)  # LiveActivityClient inherits it


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

# Live Activities: kalyke's LiveActivityClient, timestamps from the served world's clock.
def server_time():
    return datetime.fromtimestamp(control("GET", "/_pushsim/clock")["unixSeconds"], tz=timezone.utc)


live = LiveActivityClient(use_sandbox=False, team_id=info["teamId"], auth_key_id=info["keyId"], auth_key_filepath=p8)
live_config = LiveActivityApnsConfig(topic=info["topic"] + ".push-type.liveactivity")
fan = control("POST", "/_pushsim/devices", {"name": "eve-iphone", "platform": "ios", "os": 18})
fan = control("POST", "/_pushsim/devices/eve-iphone/observe-push-to-start", {"attributesType": "MatchAttributes"})
start = LiveActivityPayload(timestamp=server_time(), event=LiveActivityEvent.START, content_state={"home": 0, "away": 0},
                            attributes_type="MatchAttributes", attributes={"match": "Lyon-Nantes"},
                            alert=PayloadAlert(title="Kick-off", body="0-0"))
asyncio.run(live.send_message(device_token=fan["pushToStartTokens"]["MatchAttributes"], payload=start, apns_config=live_config))
control("GET", "/_pushsim/devices/eve-iphone/notifications?settle=2s")
# kalyke 1.5.0's LiveActivityPayload.dict() leaves attributes-type and attributes out of the payload,
# so APNs accepts the start and ActivityKit (here the phone) starts nothing.
activities = control("GET", "/_pushsim/devices/eve-iphone")["liveActivities"]
check("kalyke's start (no attributes-type nor attributes in its payload) is accepted and starts nothing", activities == [], activities)
fan = control("POST", "/_pushsim/devices/eve-iphone/start-live-activity",
              {"attributesType": "MatchAttributes", "contentState": {"home": 0, "away": 0}, "attributes": {"match": "Lyon-Nantes"}})
activities = fan["liveActivities"]
check("the app starts one itself and gets an update token", len(activities) == 1 and activities[0]["updateToken"], activities)
update = LiveActivityPayload(timestamp=server_time(), event=LiveActivityEvent.UPDATE, content_state={"home": 1, "away": 0},
                             alert=PayloadAlert(title="Goal", body="1-0"))
asyncio.run(live.send_message(device_token=activities[0]["updateToken"], payload=update, apns_config=live_config))
control("GET", "/_pushsim/devices/eve-iphone/notifications?settle=2s")
activity = control("GET", "/_pushsim/devices/eve-iphone")["liveActivities"][0]
check("an update reaches it, with its alert", activity["contentState"] == {"home": 1, "away": 0} and "Goal: 1-0" in activity["alerts"], activity)
try:
    asyncio.run(live.send_message(device_token=fan["handle"], payload=update, apns_config=live_config))
    check("a liveactivity push to the app's device token is refused", False, "accepted")
except DeviceTokenNotForTopic:
    check("a liveactivity push to the app's device token is refused with 400 DeviceTokenNotForTopic", True)
