"""Conformance: the unmodified Firebase Admin SDK for Python (pinned by tools/conformance.sh)
against `pushsim serve`. Its one documented override: the FCM send URL, which the SDK hard-codes
(`messaging._MessagingService.FCM_URL`, firebase-admin-python has no option for it); the OAuth
token endpoint comes from the service-account file the server wrote (`token_uri`).

Usage: python firebase_admin_client.py <port>
"""

import datetime

import firebase_admin
from firebase_admin import credentials, messaging
from pushsim_control import BASE, check, control, shown


info = control("GET", "/_pushsim/info")
firebase_admin.initialize_app(credentials.Certificate(info["fcmServiceAccountFile"]))
messaging._MessagingService.FCM_URL = BASE + "/v1/projects/{0}/messages:send"

pixel = control("POST", "/_pushsim/devices", {"name": "ann-pixel", "platform": "android"})
name = messaging.send(messaging.Message(token=pixel["handle"],
                                        notification=messaging.Notification(title="Hi", body="from firebase-admin")))
check("the send is accepted with a message name", name.startswith("projects/"), name)
texts = shown("ann-pixel")
check("the phone shows it", texts == ["Hi: from firebase-admin"], texts)

# Android and APNs options as the SDK encodes them (a TTL in seconds, lower-case priority, an APNs
# block FCM validates but does not use for an Android token), and a dry run.
name = messaging.send(messaging.Message(
    token=pixel["handle"],
    android=messaging.AndroidConfig(ttl=datetime.timedelta(hours=1), priority="high", collapse_key="score",
                                    notification=messaging.AndroidNotification(title="Goal", body="2-1", channel_id="scores")),
    apns=messaging.APNSConfig(headers={"apns-priority": "10"}, payload=messaging.APNSPayload(aps=messaging.Aps(badge=1)))))
check("a message with Android and APNs options is accepted", name.startswith("projects/"), name)
texts = shown("ann-pixel")
check("the phone shows the Android notification", texts[-1:] == ["Goal: 2-1"], texts)
name = messaging.send(messaging.Message(token=pixel["handle"], notification=messaging.Notification(body="dry")), dry_run=True)
check("a dry run is accepted and shows nothing", shown("ann-pixel")[-1:] == ["Goal: 2-1"], shown("ann-pixel"))
batch = messaging.send_each([messaging.Message(token=pixel["handle"], data={"k": "v"}), messaging.Message(token="not-a-token", data={"k": "v"})])
check("send_each: one accepted, one refused", [r.success for r in batch.responses] == [True, False],
      [(r.success, repr(r.exception)) for r in batch.responses])

try:
    messaging.send(messaging.Message(token="not-a-token", data={"a": "b"}))
    check("a malformed token is refused", False, "accepted")
except messaging.exceptions.InvalidArgumentError:
    check("a malformed token is refused with INVALID_ARGUMENT", True)

control("POST", "/_pushsim/devices/ann-pixel/uninstall")
outcomes = []
for _ in range(2):
    try:
        messaging.send(messaging.Message(token=pixel["handle"], data={"after": "uninstall"}))
        outcomes.append("accepted")
    except messaging.UnregisteredError:
        outcomes.append("UNREGISTERED")
    control("GET", "/_pushsim/devices/ann-pixel/notifications?settle=2s")
check("after an uninstall FCM answers UNREGISTERED once it has found out", outcomes[-1] == "UNREGISTERED", outcomes)

# Topics: firebase-admin subscribes tokens through the Instance ID API (POST /iid/v1:batchAdd and
# :batchRemove with access_token_auth: true; its IID_URL is the one other URL it hard-codes), and a
# topic send and a condition send reach exactly the subscribed phones.
messaging._MessagingService.IID_URL = BASE
ida = control("POST", "/_pushsim/devices", {"name": "ida-pixel", "platform": "android"})
jo = control("POST", "/_pushsim/devices", {"name": "jo-pixel", "platform": "android"})
kim = control("POST", "/_pushsim/devices", {"name": "kim-pixel", "platform": "android"})
r = messaging.subscribe_to_topic([ida["handle"], jo["handle"], "not-a-token"], "news")
check("subscribe_to_topic: two subscribed, the third refused as INVALID_ARGUMENT",
      (r.success_count, r.failure_count, [(e.index, e.reason) for e in r.errors]) == (2, 1, [(2, "INVALID_ARGUMENT")]),
      (r.success_count, r.failure_count, [(e.index, e.reason) for e in r.errors]))
r = messaging.subscribe_to_topic(jo["handle"], "/topics/sport")
check("subscribe_to_topic with the /topics/ prefix", r.success_count == 1, r.errors)

name = messaging.send(messaging.Message(topic="news", notification=messaging.Notification(title="News", body="for subscribers")))
check("a topic send is named projects/<id>/messages/<number>", name.split("/")[-1].isdigit(), name)
check("the topic reaches both subscribers", shown("ida-pixel")[-1:] == ["News: for subscribers"]
      and shown("jo-pixel")[-1:] == ["News: for subscribers"], (shown("ida-pixel"), shown("jo-pixel")))
check("and no one else", shown("kim-pixel") == [], shown("kim-pixel"))

messaging.send(messaging.Message(condition="'news' in topics && 'sport' in topics",
                                 notification=messaging.Notification(title="Derby", body="tonight")))
check("a condition reaches only the phone that meets it", shown("jo-pixel")[-1:] == ["Derby: tonight"]
      and "Derby: tonight" not in shown("ida-pixel") and shown("kim-pixel") == [], (shown("ida-pixel"), shown("jo-pixel")))

r = messaging.unsubscribe_from_topic([jo["handle"]], "news")
check("unsubscribe_from_topic", r.success_count == 1, r.errors)
messaging.send(messaging.Message(topic="news", data={"message": "late news"}))
check("after unsubscribing, the topic reaches only the one left", shown("ida-pixel")[-1:] == ["late news"]
      and "late news" not in shown("jo-pixel"), (shown("ida-pixel"), shown("jo-pixel")))

try:
    messaging.send(messaging.Message(condition="'news' in topics &&", data={"a": "b"}))
    check("an invalid condition is refused", False, "accepted")
except messaging.exceptions.InvalidArgumentError as e:
    check("an invalid condition is refused with INVALID_ARGUMENT", "invalid argument" in str(e).lower(), str(e))

# The FCM → APNs relay: an iPhone app with the Firebase SDK has an FCM token bound to its APNs
# token; firebase-admin sends to it like any token, FCM relays it through APNs with the project's
# APNs auth key. Without the key, or with a wrong-team one, the SDK raises ThirdPartyAuthError
# (FcmError THIRD_PARTY_AUTH_ERROR, 401); once APNs knows the app is gone, UnregisteredError.
iphone = control("POST", "/_pushsim/devices", {"name": "lea-iphone", "platform": "ios", "firebase": True})
check("the iPhone app has an FCM token", bool(iphone.get("fcmToken")), iphone)
name = messaging.send(messaging.Message(token=iphone["fcmToken"], notification=messaging.Notification(title="Relay", body="via APNs"),
                                        data={"k": "v"}, apns=messaging.APNSConfig(headers={"apns-collapse-id": "relay"})))
check("a send to the iPhone's FCM token is accepted", name.startswith("projects/"), name)
check("the iPhone shows it, through APNs", shown("lea-iphone") == ["Relay: via APNs"], shown("lea-iphone"))
for state in ["missing", "wrong-team"]:
    control("POST", "/_pushsim/fcm/apns-key", {"state": state})
    try:
        messaging.send(messaging.Message(token=iphone["fcmToken"], notification=messaging.Notification(body="no key")))
        check("the relay without a usable APNs key is refused (" + state + ")", False, "accepted")
    except messaging.ThirdPartyAuthError:
        check("the relay without a usable APNs key raises ThirdPartyAuthError (" + state + ")", True)
control("POST", "/_pushsim/fcm/apns-key", {"state": "uploaded"})
control("POST", "/_pushsim/devices/lea-iphone/uninstall")
outcomes = []
for _ in range(2):
    try:
        messaging.send(messaging.Message(token=iphone["fcmToken"], notification=messaging.Notification(body="after uninstall")))
        outcomes.append("accepted")
    except messaging.UnregisteredError:
        outcomes.append("UNREGISTERED")
    control("GET", "/_pushsim/devices/lea-iphone/notifications?settle=2s")
check("after an uninstall the relay answers UNREGISTERED once APNs has found out", outcomes == ["accepted", "UNREGISTERED"], outcomes)
