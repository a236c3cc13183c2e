"""Today's push from a test: a user who denies notifications, an iPhone app whose FCM token FCM
relays to APNs, a browser's Web Push subscription, and an iPhone's Live Activity."""

import pytest

from pushsim_testing import PushSimError

# P-256's base point, uncompressed and base64url: a valid public key (of the private key 1), good
# enough as an application server key when nothing is sent with it.
BASE_POINT = "BGsX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKWT-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU"


def test_a_denied_phone_gets_the_message_but_shows_nothing_until_allowed(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android").deny_notifications()
    assert pixel.permission == "denied"
    assert fcm_app.send(pixel.handle, "Hidden", "denied") is not None   # FCM accepts and delivers
    assert pushsim.notifications(pixel, settle="2s").texts == []
    assert pixel.refresh().suppressed == 1
    pixel.allow_notifications()
    fcm_app.send(pixel.handle, "Shown", "allowed")
    assert pushsim.notifications(pixel, settle="2s").texts == ["Shown: allowed"]


def test_fcm_relays_to_an_iphone_only_with_the_projects_apns_key(pushsim, fcm_app):
    iphone = pushsim.device("cy-iphone", "ios", firebase=True)
    assert iphone.fcm_token and iphone.fcm_token != iphone.handle
    assert pushsim.fcm_apns_key()["state"] == "uploaded"
    fcm_app.send(iphone.fcm_token, "Relayed", "through APNs")
    assert pushsim.notifications(iphone, settle="2s").texts == ["Relayed: through APNs"]
    pushsim.fcm_apns_key(state="missing")
    with pytest.raises(Exception) as refused:
        fcm_app.send(iphone.fcm_token, "Lost", "no key")
    assert type(refused.value).__name__ == "ThirdPartyAuthError"


def test_a_browser_subscription_reads_like_push_subscription_to_json(pushsim):
    firefox = pushsim.browser("dee-firefox", "firefox", application_server_key=BASE_POINT)
    subscription = firefox.subscription()
    assert subscription["endpoint"].startswith("https://updates.push.services.mozilla.com/")
    assert set(subscription["keys"]) == {"p256dh", "auth"}
    assert firefox.notifications() == []
    firefox.unsubscribe()
    with pytest.raises(PushSimError) as none:
        firefox.subscription()
    assert none.value.status == 404


def test_an_iphone_starts_and_ends_a_live_activity(pushsim):
    iphone = pushsim.device("eve-iphone", "ios", os=18)
    assert iphone.live_activities == []
    iphone.observe_push_to_start("MatchAttributes")
    assert iphone.push_to_start_tokens["MatchAttributes"]
    iphone.start_live_activity("MatchAttributes", {"home": 0, "away": 0}, attributes={"match": "Lyon-Nantes"}, stale_after="10m")
    activity = iphone.live_activities[0]
    assert activity["state"] == "active" and activity["contentState"] == {"home": 0, "away": 0}
    assert activity["updateToken"] and activity["updateToken"] != iphone.push_to_start_tokens["MatchAttributes"]
    iphone.end_live_activity(dismiss_after="5m")
    assert iphone.live_activities[0]["state"] == "ended"


def test_the_broadcast_capability_can_be_turned_off(pushsim):
    assert pushsim.apns_broadcast() == {"enabled": True}
    assert pushsim.apns_broadcast(False) == {"enabled": False}
    assert pushsim.apns_broadcast(True) == {"enabled": True}
