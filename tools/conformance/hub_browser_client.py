"""Conformance: the unmodified azure-notification-hub-unofficial client (pinned by
tools/conformance.sh) registering a simulated browser with the hub and sending to it with the
browser format, against `pushsim serve`. The client has browser helpers of its own
(create_browser_installation, create_browser_notification); the browser subscribes with the hub's
VAPID public key, which the control API gives (the hub's browser credential), so that the push
service accepts the hub's signed requests; the hub encrypts each copy for the subscription, and
the browser decrypts and shows it.

Usage: python hub_browser_client.py <port>
"""
import json
import time

from azure_notification_hub import NotificationHubsClient, create_browser_installation
from azure_notification_hub.notifications import create_browser_notification
from pushsim_control import check, control, shown_by


def installation(client, name):
    """An installation read back. The hub labels its JSON `application/xml; charset=utf-8`, as the
    live hub does (NH-DOTNET's recordings), so this client hands it over as `_raw_xml` text."""
    read = client.get_installation(name)
    return json.loads(read["_raw_xml"]) if "_raw_xml" in read else read


info = control("GET", "/_pushsim/info")
client = NotificationHubsClient(info["hub"]["loopbackConnectionString"], info["hub"].get("name", "notifyusers"))
credential = control("GET", "/_pushsim/hub/browser-credential")
check("the hub has a browser credential", credential["vapidPublicKey"].startswith("B"), credential)

for name, vendor in [("eve-firefox", "firefox"), ("eve-chrome", "chrome")]:
    control("POST", "/_pushsim/browsers", {"name": name, "vendor": vendor, "applicationServerKey": credential["vapidPublicKey"]})
    subscription = control("GET", f"/_pushsim/browsers/{name}/subscription")
    channel = {"endpoint": subscription["endpoint"], **subscription["keys"]}
    client.create_or_update_installation(create_browser_installation(name, push_channel=channel, tags=[f"browser:{name}"]))
    stored = installation(client, name)
    check(f"{vendor}: the browser installation reads back with its channel",
          stored.get("platform") == "browser" and stored.get("pushChannel", {}).get("endpoint") == channel["endpoint"], stored)
    client.send_notification(create_browser_notification({"title": "Hub", "body": f"to {vendor}"}), tag_expression=f"browser:{name}")
    texts = shown_by(name, 1)
    check(f"{vendor}: the browser decrypted and showed the hub's send", texts == [f"Hub: to {vendor}"], texts)

# The Firefox gives its subscription up; the hub's next copy is answered 410 and the hub forgets
# the channel (the installation is kept, marked pushChannelExpired).
control("POST", "/_pushsim/browsers/eve-firefox/unsubscribe")
client.send_notification(create_browser_notification({"title": "Hub", "body": "after unsubscribe"}), tag_expression="browser:eve-firefox")
time.sleep(0.3)
stored = installation(client, "eve-firefox")
check("firefox: after the push service's 410 the installation's channel is expired", stored.get("pushChannelExpired") is True, stored)
check("firefox: nothing more is shown", shown_by("eve-firefox", 2, seconds=0.5) == ["Hub: to firefox"])
