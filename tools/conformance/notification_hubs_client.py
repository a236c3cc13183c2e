"""Conformance: an unmodified Notification Hubs client (azure-notification-hub-unofficial, pinned by
tools/conformance.sh) against `pushsim serve`. Standard library only besides that client.

Usage: python notification_hubs_client.py <port>
Prints one line per check and exits 1 at the first that fails.
"""

from azure_notification_hub import AzureNHError, NotificationHubsClient
from azure_notification_hub.notifications import create_apple_notification, create_fcm_v1_notification
from pushsim_control import check, control, shown


info = control("GET", "/_pushsim/info")
connection = info["hub"]["loopbackConnectionString"]
hub = info["hub"]["name"] if "name" in info["hub"] else "notifyusers"
client = NotificationHubsClient(connection, hub)

phone = control("POST", "/_pushsim/devices", {"name": "bob-iphone", "platform": "ios"})
pixel = control("POST", "/_pushsim/devices", {"name": "bob-pixel", "platform": "android"})
client.create_or_update_installation({"installationId": "bob-iphone", "platform": "apns",
                                      "pushChannel": phone["handle"], "tags": ["username:bob"]})
client.create_or_update_installation({"installationId": "bob-pixel", "platform": "fcmv1",
                                      "pushChannel": pixel["handle"], "tags": ["username:bob"]})
check("installations created through the client", True)

client.send_notification(create_apple_notification({"aps": {"alert": "Hello iPhone"}}), tag_expression="username:bob")
client.send_notification(create_fcm_v1_notification({"message": {"notification": {"body": "Hello Pixel"}}}),
                         tag_expression="username:bob")
shown_phone = shown("bob-iphone")
shown_pixel = shown("bob-pixel")
check("the iPhone shows the APNs send", shown_phone == ["Hello iPhone"], shown_phone)
check("the Pixel shows the FCM v1 send", shown_pixel == ["Hello Pixel"], shown_pixel)

wrong = NotificationHubsClient(connection.replace("SharedAccessKey=", "SharedAccessKey=x"), hub)
try:
    wrong.send_notification(create_apple_notification({"aps": {"alert": "nope"}}), tag_expression="username:bob")
    check("a wrong SAS key is refused with 401", False, "the send was accepted")
except AzureNHError as error:
    check("a wrong SAS key is refused with 401", error.status_code == 401, error.status_code)
