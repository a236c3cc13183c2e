"""The app server's FCM path (firebase-admin 6.5.0) under injected faults."""

import time


def fcm_requests(pushsim):
    """The FCM sends in the world's journal: (status, injected?) in order."""
    entries = pushsim.journal(path="/v1/projects/")["entries"]
    return [(e["status"], "injected" in e) for e in entries]


def test_a_send_reaches_the_phone(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android", user="ann")
    fcm_app.register(pixel.handle)
    name = fcm_app.send(pixel.handle, "Hi", "from the app server")
    assert name.startswith(f"projects/{pushsim.fcm_project_id}/messages/")
    assert pushsim.notifications(pixel).texts == ["Hi: from the app server"]
    assert fcm_requests(pushsim) == [(200, False)]


def test_an_outage_on_the_first_request_is_retried_by_firebase_admin(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android")
    # The first send gets 503 UNAVAILABLE (Retry-After: 1, which urllib3 under firebase-admin honours).
    outage = pushsim.fault("fcm", "outage", count=1, retry_after="1s")
    assert outage.does == "503 UNAVAILABLE with Retry-After: 1"

    assert fcm_app.send(pixel.handle, "Score", "2-1") is not None

    assert fcm_requests(pushsim) == [(503, True), (200, False)]
    inbox = pushsim.notifications(pixel, settle="2s")
    assert inbox.texts == ["Score: 2-1"]
    pushsim.expect("ann-pixel shows 1 notifications").assert_holds()
    pushsim.expect('ann-pixel shows "Score: 2-1"').assert_holds()
    assert pushsim.faults() == []   # its one request used up


def test_a_429_is_retried_after_retry_after_seconds_of_wall_time(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android")
    pushsim.fault("fcm", "throttle", count=1, retry_after="1s")
    started = time.monotonic()
    assert fcm_app.send(pixel.handle, "Later", "but once") is not None
    assert time.monotonic() - started >= 1.0
    assert fcm_requests(pushsim) == [(429, True), (200, False)]
    assert pushsim.notifications(pixel).texts == ["Later: but once"]
    # firebase-admin's transport (urllib3's Retry, respect_retry_after_header) slept and retried
    # this one itself: the app server's own Retry-After handling was not needed.
    assert fcm_app.retries == []


def test_the_app_server_honours_retry_after_when_firebase_admin_gives_up(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android")
    # firebase-admin retries a 429 with Retry-After at most 4 times (Retry(status=4)); the fifth
    # 429 reaches the app server as QuotaExceededError, which sleeps Retry-After and tries once more.
    pushsim.fault("fcm", "throttle", count=5, retry_after="1s")
    started = time.monotonic()
    assert fcm_app.send(pixel.handle, "Patience", "rewarded") is not None
    assert time.monotonic() - started >= 5.0
    assert fcm_app.retries == [1.0]
    assert fcm_requests(pushsim) == [(429, True)] * 5 + [(200, False)]
    pushsim.expect('ann-pixel shows "Patience: rewarded" by +1s').assert_holds()


def test_a_token_made_unregistered_by_a_fault_is_deleted(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android")
    other = pushsim.device("bob-pixel", "android")
    fcm_app.register(pixel.handle)
    fcm_app.register(other.handle)
    fault = pushsim.fault("fcm", "UNREGISTERED", token=pixel.handle)

    assert fcm_app.send(pixel.handle, "Gone?", "yes") is None
    assert fcm_app.send(other.handle, "Still", "here") is not None

    assert fcm_app.tokens == {other.handle}
    assert pushsim.notifications(pixel).texts == []
    assert pushsim.notifications(other).texts == ["Still: here"]
    refused = pushsim.journal(status=404)["entries"]
    assert [e["injected"].split(":")[0] for e in refused] == [fault.id]


def test_a_token_of_an_uninstalled_app_is_deleted(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android")
    token = pixel.handle
    fcm_app.register(token)
    pixel.uninstall()
    assert pixel.installed is False and pixel.handle is None
    # FCM learns of the uninstall from the phone; a send or two may still be accepted meanwhile.
    outcomes = []
    for _ in range(3):
        outcomes.append(fcm_app.send(token, "Anyone", "there?"))
        if outcomes[-1] is None:
            break
        pushsim.notifications(pixel, settle="2s")
    assert outcomes[-1] is None, outcomes
    assert fcm_app.tokens == set()
    assert pushsim.notifications(pixel).texts == []
    last = pushsim.journal(path="/v1/projects/")["entries"][-1]
    assert last["status"] == 404 and "injected" not in last
