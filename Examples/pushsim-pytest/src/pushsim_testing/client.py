"""A client for the control API of `pushsim serve` (`/_pushsim/`), standard library only.

Every call is one HTTP request; an answer that is not 2xx raises `PushSimError` with the server's
own message (`{"error":{"status":…,"message":…}}`).
"""

from __future__ import annotations

import datetime
import json
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["PushSim", "PushSimError", "Device", "Fault", "Expectation", "Inbox", "duration"]


class PushSimError(Exception):
    """A control request the server refused: `status` and the server's `message` (and the whole `body`)."""

    def __init__(self, status, message, body=None, request=""):
        super().__init__(f"{request}: {status} {message}" if request else f"{status} {message}")
        self.status = status
        self.message = message
        self.body = body


def duration(value):
    """A duration as the control API writes it: "91d", "500ms" pass through; a number is seconds;
    a `datetime.timedelta` is converted (to whole microseconds)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime.timedelta):
        micro = round(value.total_seconds() * 1_000_000)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        micro = round(value * 1_000_000)
    else:
        raise TypeError(f"not a duration: {value!r} (give \"30s\", seconds or a timedelta)")
    if micro % 1_000_000 == 0:
        return f"{micro // 1_000_000}s"
    if micro % 1_000 == 0:
        return f"{micro // 1_000}ms"
    return f"{micro}us"


class Device:
    """A simulated phone or PC. `handle` is its push handle (APNs token, FCM registration token or
    WNS channel URI) as of the last answer about it; `data` is that whole answer."""

    def __init__(self, sim, data):
        self._sim = sim
        self.data = data

    name = property(lambda self: self.data["name"])
    platform = property(lambda self: self.data["platform"])
    handle = property(lambda self: self.data.get("handle"))
    installed = property(lambda self: self.data.get("installed"))
    online = property(lambda self: self.data.get("online"))
    user = property(lambda self: self.data.get("user"))
    # An iPhone Firebase app's FCM token (bound to its APNs token, relayed by FCM); None elsewhere.
    fcm_token = property(lambda self: self.data.get("fcmToken"))
    # The app's notification permission: not-determined, denied, authorized or provisional.
    permission = property(lambda self: self.data.get("permission"))
    # How many notifications were delivered but kept off screen by the user's settings.
    suppressed = property(lambda self: self.data.get("suppressed"))

    def _act(self, action, body=None):
        self.data = self._sim._call("POST", f"/_pushsim/devices/{_quote(self.name)}/{action}", body)
        return self

    def install(self): return self._act("install")
    def uninstall(self): return self._act("uninstall")
    def launch(self): return self._act("launch")
    def go_offline(self): return self._act("offline")
    def go_online(self): return self._act("online")
    def refresh_handle(self): return self._act("refresh-handle")

    def deny_notifications(self): return self._act("deny-notifications")
    def allow_notifications(self, provisionally=False):
        return self._act("allow-notifications-provisionally" if provisionally else "allow-notifications")
    def disable_channel(self, channel): return self._act("disable-channel", {"channel": channel})
    def enable_channel(self, channel): return self._act("enable-channel", {"channel": channel})

    # Live Activities (an iPhone made with os=16 or later; push-to-start needs os=17).
    # `live_activities` lists each activity (id, attributesType, state, contentState, updateToken,
    # alerts); `push_to_start_tokens` maps an attributes type to its token.
    live_activities = property(lambda self: self.data.get("liveActivities", []))
    push_to_start_tokens = property(lambda self: self.data.get("pushToStartTokens", {}))

    def observe_push_to_start(self, attributes_type):
        return self._act("observe-push-to-start", {"attributesType": attributes_type})

    def start_live_activity(self, attributes_type, content_state, attributes=None, stale_after=None, channel=None):
        """The app starts a Live Activity; with `channel` (the `apns-channel-id` APNs gave, iOS 18)
        it listens on that broadcast channel instead of taking an update token."""
        body = {"attributesType": attributes_type, "contentState": content_state, "attributes": attributes or {}}
        if stale_after is not None:
            body["staleAfter"] = stale_after
        if channel is not None:
            body["channel"] = channel
        return self._act("start-live-activity", body)

    def end_live_activity(self, attributes_type=None, dismiss_after=None):
        body = {}
        if attributes_type is not None:
            body["attributesType"] = attributes_type
        if dismiss_after is not None:
            body["dismissAfter"] = dismiss_after
        return self._act("end-live-activity", body)

    def refresh(self):
        """Reads the device again (its handle may have changed)."""
        self.data = self._sim._call("GET", f"/_pushsim/devices/{_quote(self.name)}")
        return self

    def notifications(self, **kwargs):
        return self._sim.notifications(self, **kwargs)

    def __repr__(self):
        return f"Device({self.name!r}, {self.platform!r}, handle={self.handle!r})"


class Browser:
    """A simulated browser: its push subscription (`subscription()`, what pywebpush's
    `subscription_info` takes) and what its service worker decrypted and showed."""

    def __init__(self, sim, data):
        self._sim = sim
        self.data = data

    name = property(lambda self: self.data["name"])
    vendor = property(lambda self: self.data.get("vendor"))
    permission = property(lambda self: self.data.get("permission"))

    def _act(self, action, body=None):
        self._sim._call("POST", f"/_pushsim/browsers/{_quote(self.name)}/{action}", body)
        return self.refresh()

    def subscribe(self, application_server_key): return self._act("subscribe", {"applicationServerKey": application_server_key})
    def unsubscribe(self): return self._act("unsubscribe")
    def clear_profile(self): return self._act("clear-profile")
    def go_offline(self): return self._act("offline")
    def go_online(self): return self._act("online")

    def refresh(self):
        self.data = self._sim._call("GET", f"/_pushsim/browsers/{_quote(self.name)}")
        return self

    def subscription(self):
        """`PushSubscription.toJSON()`: `{"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}`."""
        return self._sim._call("GET", f"/_pushsim/browsers/{_quote(self.name)}/subscription")

    def notifications(self):
        """The texts its service worker showed, decrypted, in order."""
        answer = self._sim._call("GET", f"/_pushsim/browsers/{_quote(self.name)}/notifications")
        return [n["text"] for n in answer["notifications"]]

    def __repr__(self):
        return f"Browser({self.name!r}, {self.vendor!r})"


class Fault:
    """An injected fault (`id`, `data` as the server answered). Use it as a context manager to end
    it on exit: `with pushsim.fault("fcm", "outage", count=1): …`."""

    def __init__(self, sim, data):
        self._sim = sim
        self.data = data

    id = property(lambda self: self.data["id"])
    does = property(lambda self: self.data.get("does"))

    def end(self):
        """Ends the fault (DELETE); a fault already over or gone is not an error."""
        try:
            return self._sim._call("DELETE", f"/_pushsim/faults/{_quote(self.id)}")
        except PushSimError as error:
            if error.status == 404:
                return None
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.end()
        return False

    def __repr__(self):
        return f"Fault({self.data.get('label') or self.id!r})"


class Expectation:
    """One expectation judged by the server: `holds`, `seen`, `verdict` (the line a scenario run prints)."""

    def __init__(self, data):
        self.data = data
        self.holds = bool(data["holds"])
        self.seen = data.get("seen", "")
        self.verdict = data.get("verdict", "")
        self.clock = data.get("clock")

    def assert_holds(self):
        if not self.holds:
            raise AssertionError(self.verdict)
        return self

    def __bool__(self):
        return self.holds

    def __repr__(self):
        return f"Expectation({self.verdict!r})"


class Inbox:
    """What a device showed: `notifications` (dicts with "text", "service", "virtualTime", …),
    `texts`, `shown` (how many since the device was made), `dropped`, and `reached` when a count
    was asked for."""

    def __init__(self, data, count=None):
        self.data = data
        self.notifications = data["notifications"]
        self.texts = [n["text"] for n in self.notifications]
        self.shown = data.get("shown", len(self.notifications))
        self.dropped = data.get("dropped", 0)
        waited = data.get("waited")
        if waited is not None:
            self.reached = bool(waited.get("reached"))
        else:
            self.reached = None if count is None else self.shown >= count

    def __len__(self):
        return len(self.notifications)

    def __iter__(self):
        return iter(self.notifications)

    def __repr__(self):
        return f"Inbox(shown={self.shown}, texts={self.texts!r})"


def _quote(part):
    return urllib.parse.quote(str(part), safe="")


class PushSim:
    """The control API of one `pushsim serve`, at `base_url` (`http://127.0.0.1:<port>`).

    `clock` is the server's clock policy ("manual" or "wall"); it decides what `notifications()`
    does by default (see there). Left out, it is read from `GET /_pushsim/clock` when first needed.
    """

    #: How far a notifications read runs the world under the manual clock when not told.
    default_settle = "1s"

    def __init__(self, base_url, clock=None, timeout=330.0, control_token=None):
        self.base_url = base_url.rstrip("/")
        self._clock_policy = clock
        self.timeout = timeout
        self._control_token = control_token
        self._info = None

    @property
    def clock_policy(self):
        """"manual" or "wall", as the server says."""
        if self._clock_policy is None:
            self._clock_policy = self.clock().get("policy", "wall")
        return self._clock_policy

    # -- HTTP

    def _call(self, method, path, body=None, query=None):
        url = self.base_url + path
        if query:
            pairs = [(k, str(v)) for k, v in query.items() if v is not None]
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self._control_token:
            request.add_header("Authorization", "Bearer " + self._control_token)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                answer = json.loads(raw)
                message = answer.get("error", {}).get("message", raw.decode(errors="replace"))
            except ValueError:
                answer, message = None, raw.decode(errors="replace")
            raise PushSimError(error.code, message, answer, f"{method} {path}") from None
        return json.loads(raw) if raw else None

    def page(self):
        """`GET /_pushsim/page`: the session since the last reset as a teaching page (HTML text):
        swim-lanes, a step-through of every host's state, what each phone showed."""
        request = urllib.request.Request(self.base_url + "/_pushsim/page")
        if self._control_token:
            request.add_header("Authorization", "Bearer " + self._control_token)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.read().decode()
        except urllib.error.HTTPError as error:
            raise PushSimError(error.code, error.read().decode(errors="replace"), None, "GET /_pushsim/page") from None

    # -- what SDKs need

    def info(self, refresh=False):
        """`GET /_pushsim/info`: the hub's connection strings, FCM project, APNs key id, … (cached)."""
        if self._info is None or refresh:
            self._info = self._call("GET", "/_pushsim/info")
        return self._info

    hub_connection_string = property(lambda self: self.info()["hub"]["loopbackConnectionString"],
                                     doc="The hub's full-rights connection string, its endpoint this server.")
    hub_name = property(lambda self: self.info()["hub"]["name"])
    hub_rest_base = property(lambda self: self.info()["hub"]["restBase"])
    fcm_project_id = property(lambda self: self.info()["fcm"]["projectId"])
    fcm_service_account_file = property(lambda self: self.info()["fcmServiceAccountFile"],
                                        doc="The service-account JSON the server wrote; its token_uri points here.")
    fcm_token_uri = property(lambda self: self.info()["fcm"]["tokenURI"])
    fcm_send_url = property(lambda self: self.info()["fcm"]["sendURL"])
    #: The send URL with `{0}` for the project, the form of firebase-admin's `_MessagingService.FCM_URL`.
    fcm_send_url_template = property(lambda self: self.base_url + "/v1/projects/{0}/messages:send")
    apns_base_url = property(lambda self: self.base_url, doc="Where an APNs client sends `/3/device/{token}` (HTTP/1.1).")
    apns_key_id = property(lambda self: self.info()["apns"]["keyId"])
    apns_team_id = property(lambda self: self.info()["apns"]["teamId"])
    apns_key_file = property(lambda self: self.info()["apnsKeyFile"],
                             doc="The APNs signing key the server wrote (AuthKey_<key id>.p8); APNs verifies tokens signed with it.")
    apns_topic = property(lambda self: self.info()["apns"]["topic"])
    wns_package_sid = property(lambda self: self.info()["wns"]["packageSID"])
    wns_client_secret = property(lambda self: self.info()["wns"]["clientSecret"])
    wns_token_url = property(lambda self: self.info()["wns"]["tokenURL"])

    def apns_send_url(self, token):
        return f"{self.base_url}/3/device/{token}"

    # -- the world

    def clock(self):
        """`GET /_pushsim/clock`: virtual now, its Unix time, the sum of advances."""
        return self._call("GET", "/_pushsim/clock")

    def advance(self, by):
        """Moves virtual time (`"91d"`, seconds, or a timedelta); everything due runs."""
        return self._call("POST", "/_pushsim/clock/advance", {"by": duration(by)})

    def reset(self):
        """A fresh world from the server's setup: no devices, faults, registrations or access tokens."""
        return self._call("POST", "/_pushsim/reset")

    def device(self, name, platform, user=None, client=None, firebase=False, os=None):
        """Makes a device with its app installed (201) and returns it, with its push handle.
        `firebase=True` makes an iPhone app with the Firebase SDK: it also gets an FCM token,
        which FCM relays to APNs with the project's APNs key (see `fcm_apns_key`)."""
        body = {"name": name, "platform": platform}
        if user is not None:
            body["user"] = user
        if client is not None:
            body["client"] = client
        if firebase:
            body["firebase"] = True
        if os is not None:
            body["os"] = os
        return Device(self, self._call("POST", "/_pushsim/devices", body))

    def apns_broadcast(self, enabled=None):
        """The app's APNs Broadcast capability: with no argument, reads it (`{"enabled": …}`);
        `enabled=False` turns it off, so channel management and broadcasts answer 400
        `FeatureNotEnabled`."""
        if enabled is None:
            return self._call("GET", "/_pushsim/apns/broadcast")
        return self._call("POST", "/_pushsim/apns/broadcast", {"enabled": bool(enabled)})

    def fcm_apns_key(self, state=None, key_id=None, team_id=None, p8=None):
        """The Firebase project's APNs key, which FCM relays iPhone sends with: with no argument,
        reads it; `state` sets `uploaded`, `missing` or `wrong-team`; `key_id`, `team_id` and
        `p8` upload a key of your own (APNs must know it too)."""
        if state is None and p8 is None:
            return self._call("GET", "/_pushsim/fcm/apns-key")
        body = {"state": state} if state is not None else {"keyId": key_id, "teamId": team_id, "p8": p8}
        return self._call("POST", "/_pushsim/fcm/apns-key", body)

    def browser(self, name, vendor, application_server_key=None, permission=None, prompt=None):
        """Makes a simulated browser (`chrome`, `firefox`, `safari` or `edge`, 201); with your VAPID
        public key (base64url) it subscribes at once, as a page calling `pushManager.subscribe()`."""
        body = {"name": name, "vendor": vendor}
        for key, value in (("applicationServerKey", application_server_key), ("permission", permission), ("prompt", prompt)):
            if value is not None:
                body[key] = value
        return Browser(self, self._call("POST", "/_pushsim/browsers", body))

    def get_device(self, name):
        return Device(self, self._call("GET", f"/_pushsim/devices/{_quote(name)}"))

    def devices(self):
        return [Device(self, d) for d in self._call("GET", "/_pushsim/devices")["devices"]]

    def notifications(self, device, wait=None, count=None, settle=None):
        """What `device` (a name or a `Device`) showed, as an `Inbox`.

        - `settle="2s"`: the world runs 2 s further first (under the manual clock, an advance).
        - `wait="5s", count=2`: under the wall clock, a long poll on WALL time until the device has
          shown 2 notifications since it was made. Under the manual clock waiting cannot help (only
          requests move virtual time), so `wait` becomes a settle of that much virtual time, and
          `Inbox.reached` says whether the count was reached.
        - neither: under the manual clock a settle of `default_settle` (1 s), so that a delivery
          that follows a send has run; `settle="0s"` reads without moving time. Under the wall
          clock, a plain read (or, with `count`, a 5 s wait).
        """
        name = device.name if isinstance(device, Device) else device
        manual = self.clock_policy == "manual"
        if settle is not None and wait is not None:
            raise ValueError("give settle or wait, not both")
        if settle is None and manual:
            settle = wait if wait is not None else self.default_settle
            wait = None
        if settle is None and wait is None and count is not None:
            wait = "5s"
        query = {"settle": duration(settle)} if settle is not None else {}
        if wait is not None:
            query = {"wait": duration(wait), "count": count}
        data = self._call("GET", f"/_pushsim/devices/{_quote(name)}/notifications", query=query)
        return Inbox(data, count=count if count is not None else (1 if wait is not None else None))

    # -- faults

    _fault_names = {"for_": "for", "duration": "for", "retry_after": "retryAfter"}

    def fault(self, service, kind, **options):
        """Injects a fault now and returns it (also a context manager that ends it on exit).

        Options as the API names them, with Python spellings allowed: `for_="30s"` (or
        `duration=`), `count=1`, `token=` | `device=` | `app=`, `probability="1/4"`,
        `retry_after="1s"` (or `retryAfter=`), `delay="2s"`. Durations may be seconds or timedeltas.
        Under the manual clock a fault bounded by `for` ends only when virtual time passes it:
        use `count` for "fail the first N requests".
        """
        body = {"service": service, "kind": kind}
        for key, value in options.items():
            if value is None:
                continue
            key = self._fault_names.get(key, key)
            if key in ("for", "retryAfter", "delay"):
                value = duration(value)
            if key in ("token", "device") and isinstance(value, Device):
                value = value.handle if key == "token" else value.name
            body[key] = value
        return Fault(self, self._call("POST", "/_pushsim/faults", body))

    def faults(self):
        """The faults not yet over (dicts: id, service, kind, does, remainingCount, …)."""
        return self._call("GET", "/_pushsim/faults")["faults"]

    def end_faults(self):
        """Ends every fault; answers how many were still active."""
        return self._call("DELETE", "/_pushsim/faults")["ended"]

    # -- checks

    def expect(self, text):
        """One expectation in the scenario language, judged now (or, with `by`, run up to then)."""
        return Expectation(self._call("POST", "/_pushsim/expect", {"expect": text}))

    def journal(self, host=None, path=None, status=None, since=None, to=None, **more):
        """`GET /_pushsim/journal`, filtered (`host`, `path` prefix, `status` code or "failure",
        `from_`/`to` virtual times, `since` journal number): {"total","dropped","matched","next","entries"}."""
        query = {"host": host, "path": path, "status": status, "since": since, "to": to}
        if "from_" in more:
            query["from"] = more.pop("from_")
        query.update(more)
        return self._call("GET", "/_pushsim/journal", query=query)

    def journal_all(self, **filters):
        """Every journal entry (following the pages), filters as for `journal`."""
        entries, since, page = [], filters.pop("since", None), None
        while True:
            page = self.journal(since=since, **filters)
            entries.extend(page["entries"])
            nxt = page.get("next")
            if nxt is None or nxt == since or not page["entries"]:
                break
            since = nxt
        result = dict(page)
        result["entries"] = entries
        return result

    def registrations(self, top=100):
        """The hub's live registrations (`GET /_pushsim/hub/registrations`)."""
        return self._call("GET", "/_pushsim/hub/registrations", query={"top": top})

    def __repr__(self):
        return f"PushSim({self.base_url!r}, clock={self.clock_policy!r})"
