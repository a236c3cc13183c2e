"""Conformance: the hub's answers for an expired registration, through the unmodified Notification
Hubs client (azure-notification-hub-unofficial) and its own request signing, after a clock advance
past the registration's time to live (90 days in tools/conformance/world.scenario).

The client has no call that creates registrations, so those two requests (create a registration
id, create or update the registration) are sent with the client's own HTTP session, URL builder
and SAS signer. Runs last: the advance ages every wall-clock stamp a later client would send.

Usage: python hub_expiry.py <port>
"""

from azure_notification_hub import AzureNHError, NotificationHubsClient
from azure_notification_hub.client import SubscriptionGoneError
from pushsim_control import check, control

info = control("GET", "/_pushsim/info")
client = NotificationHubsClient(info["hub"]["loopbackConnectionString"], info["hub"].get("name", "notifyusers"))
phone = control("POST", "/_pushsim/devices", {"name": "carol-iphone", "platform": "ios"})

created = client._client.post(client._request_url("/registrationIDs/"), headers=client._create_headers(), content=b"")
registration_id = created.headers.get("location", "").split("/registrationids/")[-1].split("?")[0]
check("the hub hands out a registration id (201 with its Location)", created.status_code == 201 and registration_id, created.status_code)

entry = ('<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">'
         '<AppleRegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" '
         'xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">'
         '<Tags>username:carol</Tags><DeviceToken>%s</DeviceToken></AppleRegistrationDescription></content></entry>') % phone["handle"]


def upsert():
    headers = client._create_headers({"Content-Type": "application/atom+xml;type=entry;charset=utf-8"})
    return client._client.put(client._request_url(f"/registrations/{registration_id}"), headers=headers, content=entry.encode())


first = upsert()
check("create or update registration: 200, as the live hub answers", first.status_code == 200, first.status_code)
read = client.get_registration(registration_id)
check("the client reads the registration back with its tag", read.get("Tags") == ["username:carol"], read)

control("POST", "/_pushsim/clock/advance", {"by": "91d"})
try:
    client.get_registration(registration_id)
    check("an expired registration is gone: get answers 404", False, "the registration was still there")
except AzureNHError as error:
    check("an expired registration is gone: get answers 404", error.status_code == 404, error.status_code)

again = upsert()
try:
    client._handle_response(again)
    check("create or update on the expired id: 410 Gone (SubscriptionGoneError)", False, again.status_code)
except SubscriptionGoneError:
    check("create or update on the expired id: 410 Gone (SubscriptionGoneError)", True)
