"""Conformance: the WNS sender of django-push-notifications (`push_notifications.wns`, pinned by
tools/conformance.sh), unmodified, against `pushsim serve`. Its overrides are its own settings:
`WNS_ACCESS_URL` pointed at the server's token endpoint, and the package SID and secret the
server hands out. The library posts to whatever channel URI it is given, so the script gives it
the device's channel URI with the server's address in place of `cloud.notify.windows.com` (a client
whose DNS pointed that host here would need no change).

Usage: python django_push_notifications_wns_client.py <port>
"""
import django
from django.conf import settings
from pushsim_control import BASE, check, control, shown

wns = control("GET", "/_pushsim/info")["wns"]
settings.configure(INSTALLED_APPS=["push_notifications"], PUSH_NOTIFICATIONS_SETTINGS={
    "WNS_PACKAGE_SECURITY_ID": wns["packageSID"], "WNS_SECRET_KEY": wns["clientSecret"], "WNS_ACCESS_URL": wns["tokenURL"]})
django.setup()

from push_notifications.wns import WNSAuthenticationError, WNSNotificationResponseError, wns_send_message  # noqa: E402


def loopback(channel_uri):
    """The channel URI with this server's address in place of the WNS host."""
    return BASE + channel_uri[channel_uri.index("/", len("https://")):]


pc = control("POST", "/_pushsim/devices", {"name": "dee-pc", "platform": "windows"})
answer = wns_send_message(loopback(pc["handle"]), message="from django-push-notifications")
check("the toast is accepted (200, empty body)", answer == "", answer)
texts = shown("dee-pc")
check("the PC shows it", texts == ["from django-push-notifications"], texts)

text = {"attrs": {"id": "1"}, "children": "from an XML tree"}
binding = {"attrs": {"template": "ToastText01"}, "children": {"text": [text]}}
wns_send_message(loopback(pc["handle"]), xml_data={"toast": {"children": {"visual": {"children": {"binding": binding}}}}})
texts = shown("dee-pc")
check("a toast built from the library's XML schema is shown", texts[-1:] == ["from an XML tree"], texts)
answer = wns_send_message(loopback(pc["handle"]), raw_data="raw bytes for the app")
check("a raw notification (application/octet-stream, wns/raw) is accepted", answer == "", answer)

try:
    wns_send_message(BASE + "/?token=not-a-channel", message="x")
    check("an unknown channel URI is refused", False, "accepted")
except WNSNotificationResponseError as e:
    check("an unknown channel URI is refused with 404", str(e).startswith("HTTP 404"), str(e))

control("POST", "/_pushsim/devices/dee-pc/uninstall")
outcomes = []
for _ in range(2):
    try:
        wns_send_message(loopback(pc["handle"]), message="after uninstall")
        outcomes.append("accepted")
    except WNSNotificationResponseError as e:
        outcomes.append(str(e).split(":")[0])
    control("GET", "/_pushsim/devices/dee-pc/notifications?settle=2s")
check("after an uninstall WNS answers 410 once it has found out", outcomes[-1] == "HTTP 410", outcomes)

# The library reads its settings once, into push_notifications.settings, at import.
from push_notifications.settings import PUSH_NOTIFICATIONS_SETTINGS  # noqa: E402
PUSH_NOTIFICATIONS_SETTINGS["WNS_SECRET_KEY"] = "wrong"
try:
    wns_send_message(loopback(pc["handle"]), message="x")
    check("a wrong client secret is refused", False, "accepted")
except WNSAuthenticationError as e:
    check("a wrong client secret is refused at the token endpoint (400)", True, str(e))
