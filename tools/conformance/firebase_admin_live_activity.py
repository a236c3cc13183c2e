"""Conformance: firebase-admin 6.9.0's `APNSConfig(live_activity_token=…)` (the first release with
it; the main venv keeps 6.5.0, pinned by tools/conformance.sh) against `pushsim serve`. An iPhone
app with the Firebase SDK starts a Live Activity; firebase-admin sends an update to the app's FCM
token naming the activity's update token, and FCM relays it through APNs to that token, so the
activity's content changes (Citations §2.10, F-LIVE). The same one-line FCM URL override as
firebase_admin_client.py.

Usage: python firebase_admin_live_activity.py <port>
"""

import firebase_admin
from firebase_admin import credentials, messaging
from pushsim_control import BASE, check, control, shown


info = control("GET", "/_pushsim/info")
firebase_admin.initialize_app(credentials.Certificate(info["fcmServiceAccountFile"]))
messaging._MessagingService.FCM_URL = BASE + "/v1/projects/{0}/messages:send"

phone = control("POST", "/_pushsim/devices", {"name": "max-iphone", "platform": "ios", "firebase": True, "os": 18})
check("the iPhone app has an FCM token", bool(phone.get("fcmToken")), phone)
control("POST", "/_pushsim/devices/max-iphone/start-live-activity",
        {"attributesType": "MatchAttributes", "contentState": {"home": 0, "away": 0}, "attributes": {"match": "final"}})
shown("max-iphone")  # lets the world settle for 2 s
activity = control("GET", "/_pushsim/devices/max-iphone")["liveActivities"][0]
check("the started activity has an update token", bool(activity.get("updateToken")), activity)

# The content's timestamp is the world's now (earlier clients advance the virtual clock past the
# wall clock, and ActivityKit ignores content older than what the activity shows).
now = control("GET", "/_pushsim/clock")["unixSeconds"]
update = messaging.APNSPayload(aps=messaging.Aps(custom_data={
    "timestamp": now, "event": "update", "content-state": {"home": 1, "away": 0}}))
name = messaging.send(messaging.Message(token=phone["fcmToken"], apns=messaging.APNSConfig(
    live_activity_token=activity["updateToken"], headers={"apns-priority": "10"}, payload=update)))
check("the send with live_activity_token is accepted", name.startswith("projects/"), name)
texts = shown("max-iphone")
after = control("GET", "/_pushsim/devices/max-iphone")["liveActivities"][0]
check("the activity shows the update, relayed through APNs to its token", after["contentState"] == {"home": 1, "away": 0}, after)
check("the app showed no notification for it", texts == [], texts)
