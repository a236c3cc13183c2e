"""A tiny "app server", as a team would write it, built on the real SDKs: firebase-admin for FCM
sends and azure-notification-hub-unofficial for the hub. The tests point it at PushSim only
through configuration: a service-account file, firebase-admin's FCM URL, a connection string.

- `FcmSender` sends to Android tokens it keeps in its own store; it deletes a token when FCM says
  UNREGISTERED, and on 429 it sleeps for Retry-After and tries once more.
- `HubRegistrar` keeps one hub registration per device; when the hub answers 410 Gone to an update
  (the registration expired), it forgets the id and creates a new registration.
"""

import itertools
import time

import firebase_admin
from azure_notification_hub import NotificationHubsClient
from azure_notification_hub.client import SubscriptionGoneError
from azure_notification_hub.notifications import create_apple_notification
from firebase_admin import credentials, exceptions, messaging

_apps = itertools.count(1)


class FcmSender:
    def __init__(self, service_account_file, fcm_url_template, sleep=time.sleep):
        # firebase-admin hard-codes the send URL; this class attribute is read when an app's
        # messaging service is made (its first send), so set it first.
        messaging._MessagingService.FCM_URL = fcm_url_template
        # A firebase app of its own: its OAuth token cache starts empty (a world reset forgets tokens).
        self.app = firebase_admin.initialize_app(credentials.Certificate(service_account_file),
                                                 name=f"app-server-{next(_apps)}")
        self.tokens = set()
        self.sleep = sleep
        self.retries = []   # the Retry-After values this app server slept for

    def register(self, token):
        self.tokens.add(token)

    def send(self, token, title, body):
        """Sends one notification: the message name, or None when FCM says the token is gone."""
        message = messaging.Message(token=token, notification=messaging.Notification(title=title, body=body))
        for attempt in (1, 2):
            try:
                return messaging.send(message, app=self.app)
            except messaging.UnregisteredError:
                self.tokens.discard(token)
                return None
            except exceptions.ResourceExhaustedError as error:   # 429 (QuotaExceededError is one)
                if attempt == 2:
                    raise
                wait = float(error.http_response.headers.get("Retry-After", "1"))
                self.retries.append(wait)
                self.sleep(wait)

    def close(self):
        firebase_admin.delete_app(self.app)


class HubRegistrar:
    """Registrations through the hub's REST API. azure-notification-hub-unofficial has no call that
    creates a registration, so those two requests use its own HTTP session, URLs and SAS signing."""

    def __init__(self, connection_string, hub_name):
        self.client = NotificationHubsClient(connection_string, hub_name)
        self.registrations = {}   # device name -> registration id
        self.gone = []            # registration ids the hub said were gone (410)

    def register_ios(self, device, token, tag):
        """Creates or updates the device's registration; a 410 for an expired one makes a new one."""
        registration_id = self.registrations.get(device)
        if registration_id is None:
            registration_id = self._new_id()
        try:
            self._upsert(registration_id, token, tag)
        except SubscriptionGoneError:
            self.gone.append(registration_id)
            del self.registrations[device]
            registration_id = self._new_id()
            self._upsert(registration_id, token, tag)
        self.registrations[device] = registration_id
        return registration_id

    def send_ios(self, tag, alert):
        return self.client.send_notification(create_apple_notification({"aps": {"alert": alert}}), tag_expression=tag)

    def _new_id(self):
        answer = self.client._client.post(self.client._request_url("/registrationIDs/"),
                                          headers=self.client._create_headers(), content=b"")
        self.client._handle_response(answer)
        return answer.headers["location"].split("/registrationids/")[-1].split("?")[0]

    def _upsert(self, registration_id, token, tag):
        entry = ('<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://www.w3.org/2005/Atom">'
                 '<content type="application/xml"><AppleRegistrationDescription '
                 'xmlns:i="http://www.w3.org/2001/XMLSchema-instance" '
                 'xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">'
                 f'<Tags>{tag}</Tags><DeviceToken>{token}</DeviceToken></AppleRegistrationDescription>'
                 '</content></entry>')
        headers = self.client._create_headers({"Content-Type": "application/atom+xml;type=entry;charset=utf-8"})
        answer = self.client._client.put(self.client._request_url(f"/registrations/{registration_id}"),
                                         headers=headers, content=entry.encode())
        return self.client._handle_response(answer)

    def close(self):
        self.client.close()
