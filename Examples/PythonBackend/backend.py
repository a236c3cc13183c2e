#!/usr/bin/env python3
"""An app backend for the "push notifications to specific users" flow, in Python's standard
library only: the example of a backend of your own, tested in PushSim's world.

It speaks the tutorial's contract to the phones (Basic auth, user name = password, as the
tutorial's demo authentication has it):
  POST   /api/register?handle=<h>        -> "<registration id>"   (reuses the handle's registration)
  PUT    /api/register/<id>              {"Platform": "apns|fcm|gcm|wns", "Handle": "...", "Tags": [...]}
  DELETE /api/register/<id>
  POST   /api/notifications?pns=<apns|fcm|gcm|wns>&to_tag=<user>   body: "message" (a JSON string)
and the Notification Hubs REST API (api-version 2015-01, SAS tokens) to the hub.

By default it is hardened: a hub 410 is passed on as 410 (the app starts over), a phone may ask
only for its own user tag and topic:* tags, a notification goes to the recipient's tag only, and
payloads are built by encoders. --as-written reproduces the tutorial's defects instead: 410 becomes
500 (defect e), requested tags are stored as they come (defect i), the sender's tag is OR'd into
the target (defect g), and the message is pasted into the payload unescaped (defect d).

  python3 backend.py --port 8080 \\
      --hub-connection-string "Endpoint=http://127.0.0.1:9310/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=hub-full-key-stand-in" \\
      --hub-name notifyusers [--as-written]
"""

import argparse, base64, hashlib, hmac, json, signal, sys, time, urllib.error, urllib.parse, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.etree import ElementTree
from xml.sax.saxutils import escape

ATOM = "{http://www.w3.org/2005/Atom}"
SB = "{http://schemas.microsoft.com/netservices/2010/10/servicebus/connect}"
PLATFORMS = {"apns": ("AppleRegistrationDescription", "DeviceToken"),
             "fcm": ("FcmV1RegistrationDescription", "FcmV1RegistrationId"),
             "gcm": ("FcmV1RegistrationDescription", "FcmV1RegistrationId"),
             "wns": ("WindowsRegistrationDescription", "ChannelUri")}


class Hub:
    """The few Notification Hubs REST calls the backend makes."""

    def __init__(self, connection_string, hub_name):
        parts = dict(p.split("=", 1) for p in connection_string.split(";") if "=" in p)
        endpoint = parts["Endpoint"].replace("sb://", "https://").rstrip("/")
        self.base = endpoint + "/" + hub_name
        self.key_name, self.key = parts["SharedAccessKeyName"], parts["SharedAccessKey"]

    def sas(self):
        uri = urllib.parse.quote(self.base.lower(), safe="")
        expiry = str(int(time.time()) + 3600)
        signature = hmac.new(self.key.encode(), (uri + "\n" + expiry).encode(), hashlib.sha256).digest()
        return "SharedAccessSignature sr=%s&sig=%s&se=%s&skn=%s" % (
            uri, urllib.parse.quote(base64.b64encode(signature).decode(), safe=""), expiry, self.key_name)

    def call(self, method, path, body=None, headers=None, query=""):
        url = self.base + path + "?api-version=2015-01" + query
        request = urllib.request.Request(url, data=body.encode() if body is not None else None, method=method)
        request.add_header("Authorization", self.sas())
        request.add_header("x-ms-version", "2015-01")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def registrations_with_handle(self, handle):
        query = "&$filter=" + urllib.parse.quote("ChannelUri eq '%s'" % handle) + "&$top=100"
        status, _, body = self.call("GET", "/registrations/", query=query)
        if status != 200:
            return status, []
        feed = ElementTree.fromstring(body)
        ids = [e.text for e in feed.iter(SB + "RegistrationId")]
        return status, ids

    def registration(self, registration_id):
        status, _, body = self.call("GET", "/registrations/" + registration_id)
        if status != 200:
            return status, None
        entry = ElementTree.fromstring(body)
        tags = next((e.text or "" for e in entry.iter(SB + "Tags")), "")
        handles = [e.text for e in entry.iter() if e.tag in (SB + h for _, h in PLATFORMS.values())]
        return status, {"tags": [t for t in tags.split(",") if t], "handle": (handles or [""])[0]}


class Backend(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    hub = None
    as_written = False

    def log_message(self, fmt, *args):
        sys.stderr.write("backend: %s\n" % (fmt % args))

    def answer(self, status, body=""):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def user(self):
        auth = self.headers.get("Authorization", "")
        if not auth.lower().startswith("basic "):
            return None
        try:
            name, _, password = base64.b64decode(auth[6:]).decode().partition(":")
        except Exception:
            return None
        return name if name and name == password else None

    def route(self, method):
        user = self.user()
        if user is None:
            return self.answer(401, '{"error":"authentication required"}')
        target = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(target.query))
        segments = [s for s in target.path.split("/") if s]
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        if segments[:2] == ["api", "register"] and method == "POST" and len(segments) == 2:
            return self.register(query.get("handle"))
        if segments[:2] == ["api", "register"] and len(segments) == 3 and method == "PUT":
            return self.upsert(segments[2], body, user)
        if segments[:2] == ["api", "register"] and len(segments) == 3 and method == "DELETE":
            return self.delete(segments[2], user)
        if segments == ["api", "notifications"] and method == "POST":
            return self.notify(query.get("pns"), query.get("to_tag"), body, user)
        return self.answer(404, '{"error":"no such route"}')

    def do_POST(self): self.route("POST")
    def do_PUT(self): self.route("PUT")
    def do_DELETE(self): self.route("DELETE")

    def register(self, handle):
        if not handle or "'" in handle:
            return self.answer(400, '{"error":"the handle query parameter is required"}')
        status, ids = self.hub.registrations_with_handle(handle)
        if status != 200:
            return self.answer(502)
        for extra in ids[1:]:
            self.hub.call("DELETE", "/registrations/" + extra, headers={"If-Match": "*"})
        if ids:
            return self.answer(200, json.dumps(ids[0]))
        status, headers, _ = self.hub.call("POST", "/registrationIDs/", body="")
        # The id is in Location, .../<hub>/registrationids/<id>?..., where Microsoft's SDKs read it.
        location = headers.get("Location") or ""
        if status != 201 or "/registrationids/" not in location.lower():
            return self.answer(502)
        start = location.lower().index("/registrationids/") + len("/registrationids/")
        return self.answer(200, json.dumps(location[start:].split("?")[0]))

    def upsert(self, registration_id, body, user):
        try:
            update = json.loads(body)
            kind = update["Platform"].lower()
            handle = update["Handle"]
            requested = update.get("Tags") or []
        except Exception:
            return self.answer(400, '{"error":"the body must be {\\"Platform\\", \\"Handle\\", \\"Tags\\"}"}')
        if kind not in PLATFORMS or not isinstance(handle, str) or not handle:
            return self.answer(400, '{"error":"Platform is apns, fcm or wns, and Handle is required"}')
        own = "username:" + user
        if not self.as_written:
            refused = [t for t in requested if t != own and not str(t).startswith("topic:")]
            if refused:
                return self.answer(403, json.dumps({"error": "the tag %s is not allowed" % refused[0]}))
            status, existing = self.hub.registration(registration_id)
            if status == 200 and own not in existing["tags"] and existing["handle"].lower() != handle.lower():
                return self.answer(403, '{"error":"the registration belongs to another user\'s device"}')
        tags = [own] + [t for t in requested if t != own]
        description, handle_element = PLATFORMS[kind]
        entry = ('<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://www.w3.org/2005/Atom">'
                 '<content type="application/xml"><%s xmlns:i="http://www.w3.org/2001/XMLSchema-instance" '
                 'xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">'
                 '<Tags>%s</Tags><%s>%s</%s></%s></content></entry>') % (
            description, escape(",".join(tags)), handle_element, escape(handle), handle_element, description)
        status, _, _ = self.hub.call("PUT", "/registrations/" + registration_id, body=entry,
                                     headers={"Content-Type": "application/atom+xml;type=entry;charset=utf-8"})
        if status in (200, 201):
            return self.answer(200)
        if status == 410:
            return self.answer(500 if self.as_written else 410)
        return self.answer(502)

    def delete(self, registration_id, user):
        if not self.as_written:
            status, existing = self.hub.registration(registration_id)
            if status == 404:
                return self.answer(200)
            if status != 200 or "username:" + user not in existing["tags"]:
                return self.answer(403 if status == 200 else 502)
        status, _, _ = self.hub.call("DELETE", "/registrations/" + registration_id, headers={"If-Match": "*"})
        return self.answer(200 if status in (200, 404) else 502)

    def notify(self, pns, to_tag, body, user):
        pns = (pns or "").lower()
        if pns not in PLATFORMS or not to_tag:
            return self.answer(400, '{"error":"pns and to_tag are required"}')
        if self.as_written:
            message = body[1:-1] if len(body) >= 2 else body       # "remove quotes", then pasted in: defect d
            target = "username:" + to_tag + " || from:" + user      # the sender's tag OR'd in: defect g
            text = "From " + user + ": " + message
            apple = '{"aps":{"alert":"%s"}}' % text
            fcm = '{"message":{"data":{"message":"%s"}}}' % text
        else:
            try:
                message = json.loads(body)
            except ValueError:
                return self.answer(400, '{"error":"the body must be the message as a JSON string"}')
            if not isinstance(message, str) or not all(c.isalnum() or c in "_@#.-" for c in to_tag):
                return self.answer(400, '{"error":"the message is a JSON string and to_tag a user name"}')
            target = "username:" + to_tag
            text = "From " + user + ": " + message
            apple = json.dumps({"aps": {"alert": text}})
            fcm = json.dumps({"message": {"data": {"message": text}}})
        toast = ('<toast><visual><binding template="ToastText01"><text id="1">%s</text></binding></visual></toast>'
                 % escape(text))
        formats = {"apns": ("apple", apple, "application/json;charset=utf-8", {}),
                   "fcm": ("fcmv1", fcm, "application/json;charset=utf-8", {}),
                   "gcm": ("fcmv1", fcm, "application/json;charset=utf-8", {}),
                   "wns": ("windows", toast, "application/xml", {"X-WNS-Type": "wns/toast"})}
        form, payload, content_type, extra = formats[pns]
        headers = {"ServiceBusNotification-Format": form, "ServiceBusNotification-Tags": target,
                   "Content-Type": content_type}
        headers.update(extra)
        status, _, _ = self.hub.call("POST", "/messages/", body=payload, headers=headers)
        return self.answer(200 if status in (200, 201) else 502)


def main():
    parser = argparse.ArgumentParser(description="An app backend for PushSim's external-backend scenarios.")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--hub-connection-string", required=True)
    parser.add_argument("--hub-name", default="notifyusers")
    parser.add_argument("--as-written", action="store_true", help="reproduce the tutorial's defects")
    options = parser.parse_args()
    Backend.hub = Hub(options.hub_connection_string, options.hub_name)
    Backend.as_written = options.as_written
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Backend)
    signal.signal(signal.SIGTERM, lambda *_: (server.server_close(), sys.exit(0)))
    sys.stderr.write("backend: listening on 127.0.0.1:%d (%s)\n" % (options.port, "as written" if options.as_written else "hardened"))
    server.serve_forever()


if __name__ == "__main__":
    main()
