"""Conformance: APNs broadcast channels (iOS 18) against `pushsim serve`, over plain HTTP.
kalyke-apns 1.5.0, the pinned APNs client, has no broadcast API, so this script writes Apple's
channel management and broadcast requests itself (Citations §1.20), with a provider token signed
(ES256) by PyJWT, which kalyke-apns depends on, with a key of its own registered with the served
APNs (a key id of its own, so the 20-minute rule on new tokens does not meet kalyke's token).

Usage: python apns_broadcast_http.py <port>
"""
import json
import time
import urllib.error
import urllib.request
import jwt  # PyJWT, a dependency of kalyke-apns
from pushsim_control import BASE, check, control, own_p8_key

info = control("GET", "/_pushsim/info")["apns"]
bundle = info["topic"]
with open(own_p8_key("BCASTKEY01", info["teamId"])) as key_file:
    token = jwt.encode({"iss": info["teamId"], "iat": int(time.time())}, key_file.read(), algorithm="ES256",
                       headers={"kid": "BCASTKEY01"})


def apns(method, path, headers=None, body=None):
    """One request to the served APNs: (status, headers, body text)."""
    data = body.encode() if isinstance(body, str) else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(BASE + path, method=method, data=data,
                                     headers={"authorization": "bearer " + token, **(headers or {})})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


status, headers, _ = apns("POST", f"/1/apps/{bundle}/channels", body={"message-storage-policy": 1, "push-type": "LiveActivity"})
channel = headers.get("apns-channel-id")
check("a channel is created: 201 with apns-channel-id and apns-request-id",
      status == 201 and channel and headers.get("apns-request-id"), (status, dict(headers)))
status, _, text = apns("GET", f"/1/apps/{bundle}/channels", {"apns-channel-id": channel})
check("reading it gives its storage policy and push type", status == 200 and json.loads(text) == {"message-storage-policy": 1, "push-type": "LiveActivity"}, text)
status, _, text = apns("GET", f"/1/apps/{bundle}/all-channels")
check("the channel list has it", status == 200 and channel in json.loads(text)["channels"], text)

control("POST", "/_pushsim/devices", {"name": "bc-iphone", "platform": "ios", "os": 18})
# A second fan whose activity a push-to-start puts on the channel (aps.input-push-channel, iOS 18).
control("POST", "/_pushsim/devices", {"name": "bc-fan", "platform": "ios", "os": 18})
fan = control("POST", "/_pushsim/devices/bc-fan/observe-push-to-start", {"attributesType": "MatchAttributes"})
start_token = fan["pushToStartTokens"]["MatchAttributes"]
start = {"aps": {"timestamp": control("GET", "/_pushsim/clock")["unixSeconds"], "event": "start", "content-state": {"score": "0-0"},
                 "attributes-type": "MatchAttributes", "attributes": {"match": "final"}, "input-push-channel": channel}}
status, _, _ = apns("POST", f"/3/device/{start_token}",
                    {"apns-push-type": "liveactivity", "apns-topic": bundle + ".push-type.liveactivity", "apns-priority": "10"}, start)
check("a push-to-start naming input-push-channel is accepted: 200", status == 200, status)
control("POST", "/_pushsim/devices/bc-iphone/start-live-activity",
        {"attributesType": "MatchAttributes", "channel": channel, "contentState": {"score": "0-0"}})
# Newer than the activity's start, on the served world's clock.
update = {"aps": {"timestamp": control("GET", "/_pushsim/clock")["unixSeconds"] + 1, "event": "update", "content-state": {"score": "1-0"}}}
status, headers, _ = apns("POST", f"/4/broadcasts/apps/{bundle}", {"apns-channel-id": channel, "apns-push-type": "liveactivity"}, update)
check("a broadcast is accepted: 200 with apns-request-id", status == 200 and headers.get("apns-request-id"), status)
control("GET", "/_pushsim/devices/bc-iphone/notifications?settle=2s")
activities = control("GET", "/_pushsim/devices/bc-iphone")["liveActivities"]
check("the iPhone's Live Activity shows the broadcast's content state", activities[0]["contentState"] == {"score": "1-0"}, activities)
fan_activities = control("GET", "/_pushsim/devices/bc-fan")["liveActivities"]
check("the push-started activity is on the channel and shows the broadcast too",
      [(a["channel"], a["updateToken"], a["contentState"]) for a in fan_activities] == [(channel, None, {"score": "1-0"})], fan_activities)

status, _, text = apns("POST", f"/4/broadcasts/apps/{bundle}", {"apns-push-type": "liveactivity"}, update)
check("a broadcast without apns-channel-id is refused 400 MissingChannelId", status == 400 and json.loads(text) == {"reason": "MissingChannelId"}, text)
status, _, _ = apns("DELETE", f"/1/apps/{bundle}/channels", {"apns-channel-id": channel})
check("the channel is deleted: 204", status == 204, status)
status, _, text = apns("POST", f"/4/broadcasts/apps/{bundle}", {"apns-channel-id": channel, "apns-push-type": "liveactivity"}, update)
check("a broadcast on the deleted channel is refused 400 ChannelNotRegistered", status == 400 and json.loads(text) == {"reason": "ChannelNotRegistered"}, text)
