"""Plain checks of the pushsim-testing client itself."""

import json

import pytest

from pushsim_testing import PushSimError


def test_a_fault_used_as_a_context_manager_ends_on_exit(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android")
    with pushsim.fault("fcm", "SENDER_ID_MISMATCH", token=pixel.handle) as fault:
        assert [f["id"] for f in pushsim.faults()] == [fault.id]
        with pytest.raises(Exception) as refused:
            fcm_app.send(pixel.handle, "No", "sender")
        assert type(refused.value).__name__ == "SenderIdMismatchError"
    assert pushsim.faults() == []
    assert fcm_app.send(pixel.handle, "Yes", "sender") is not None
    assert pushsim.notifications(pixel).texts == ["Yes: sender"]


def test_the_journal_filters_by_status(pushsim, fcm_app):
    pixel = pushsim.device("ann-pixel", "android")
    fcm_app.send(pixel.handle, "One", "ok")
    with pushsim.fault("fcm", "internal-error", count=1) as fault:
        fcm_app.send(pixel.handle, "Two", "after a 500")
    everything = pushsim.journal()
    five_hundreds = pushsim.journal(status=500)
    oks = pushsim.journal(status=200)
    assert [e["status"] for e in five_hundreds["entries"]] == [500]
    assert five_hundreds["entries"][0]["injected"].startswith(fault.id + ": internal-error")   # the fault's label
    assert all(e["status"] == 200 for e in oks["entries"])
    answered = [e for e in everything["entries"] if "status" in e]   # pushes to a phone have no answer
    assert five_hundreds["matched"] + oks["matched"] == len(answered) < everything["matched"] == everything["total"]
    # firebase-admin retried the 500 itself: the FCM sends were 200, 500, 200.
    assert [e["status"] for e in pushsim.journal(path="/v1/projects/")["entries"]] == [200, 500, 200]
    # "failure" means a transport failure (no answer at all), not an error status.
    assert pushsim.journal(status="failure")["matched"] == 0


def test_expect_gives_the_verdict(pushsim):
    pushsim.device("dee-iphone", "ios")
    verdict = pushsim.expect('dee-iphone shows "Hi"')
    assert not verdict.holds
    assert verdict.verdict.startswith('FAIL  expect dee-iphone shows "Hi"') or verdict.verdict.startswith('FAIL  dee-iphone')
    with pytest.raises(AssertionError, match="FAIL"):
        verdict.assert_holds()
    assert pushsim.expect("dee-iphone shows nothing").holds
    with pytest.raises(PushSimError) as bad:
        pushsim.expect("dee-iphone glows")
    assert bad.value.status == 400 and "column" in bad.value.message


def test_the_clock_moves_only_when_told(pushsim):
    assert pushsim.clock_policy == "manual"
    before = pushsim.clock()["virtualMicroseconds"]
    pushsim.device("eve-pc", "windows")   # a device action settles 1 s (an advance)
    after_device = pushsim.clock()["virtualMicroseconds"]
    assert after_device > before
    assert pushsim.clock()["virtualMicroseconds"] == after_device
    pushsim.advance("91d")
    assert pushsim.clock()["virtualMicroseconds"] == after_device + 91 * 86_400 * 1_000_000
    pushsim.notifications("eve-pc", settle="0s")
    assert pushsim.clock()["virtualMicroseconds"] == after_device + 91 * 86_400 * 1_000_000


def test_the_world_is_reset_before_each_test(pushsim):
    assert pushsim.devices() == []
    assert pushsim.faults() == []
    assert pushsim.clock()["virtualMicroseconds"] == 0


def test_the_server_hands_out_its_signing_keys(pushsim):
    # The .p8 and the service-account file the server wrote: APNs and Google verify tokens signed with them.
    with open(pushsim.apns_key_file) as p8:
        assert p8.read().startswith("-----BEGIN PRIVATE KEY-----\n")
    with open(pushsim.fcm_service_account_file) as account:
        assert json.load(account)["private_key"].startswith("-----BEGIN PRIVATE KEY-----\n")
    assert pushsim.info()["signatures"] == "verify"
