"""The app server's hub path (azure-notification-hub-unofficial 0.1.0): registrations expire after
a day in this suite's world (tests/world.scenario: hub ttl 1d)."""


def test_a_send_through_the_hub_reaches_the_phone(pushsim, hub_app):
    phone = pushsim.device("carol-iphone", "ios", user="carol")
    hub_app.register_ios("carol-iphone", phone.handle, "username:carol")
    hub_app.send_ios("username:carol", "Hello Carol")
    assert pushsim.notifications(phone).texts == ["Hello Carol"]


def test_an_expired_registration_is_replaced_after_410_gone(pushsim, hub_app):
    phone = pushsim.device("carol-iphone", "ios", user="carol")
    first = hub_app.register_ios("carol-iphone", phone.handle, "username:carol")
    hub_app.send_ios("username:carol", "Before")
    assert pushsim.notifications(phone).texts == ["Before"]

    pushsim.advance("2d")          # past the registration's one-day time to live
    assert pushsim.registrations()["registrations"] == [], "is tests/world.scenario (hub ttl 1d) loaded?"
    hub_app.send_ios("username:carol", "Into the void")
    assert pushsim.notifications(phone).texts == ["Before"]

    second = hub_app.register_ios("carol-iphone", phone.handle, "username:carol")   # the app starts again
    assert hub_app.gone == [first]
    assert second != first and hub_app.registrations == {"carol-iphone": second}
    gone = pushsim.journal(status=410)["entries"]
    assert len(gone) == 1 and first in gone[0]["url"]

    hub_app.send_ios("username:carol", "After")
    assert pushsim.notifications(phone).texts == ["Before", "After"]
