#!/usr/bin/env bash
# Conformance: real, unmodified client libraries against `pushsim serve`, over loopback.
#
# Makes a throwaway venv in .build/conformance-venv, installs pinned clients from PyPI, starts
# `pushsim serve` on a free port with --record, runs each client's script under
# tools/conformance/, then stops the server and replays the record with `pushsim replay`. Python
# is test tooling only: the product depends on nothing. If PyPI cannot be reached, it says so and
# skips (exit 0); any failing check fails the script.
#
# Covered: azure-notification-hub-unofficial (installations, APNs and FCM v1 sends through the hub,
# a wrong SAS key: 401), firebase-admin (OAuth with an RS256 assertion, a send shown on a phone,
# Android and APNs options as it encodes them, a dry run, send_each, INVALID_ARGUMENT, UNREGISTERED
# after an uninstall; subscribe_to_topic and unsubscribe_from_topic through the Instance ID API, a
# topic send and a condition send shown on exactly the subscribed phones, an invalid condition; a send
# to an iPhone Firebase app's FCM token relayed through APNs, ThirdPartyAuthError without the
# project's APNs key and with a wrong-team one, UnregisteredError after an uninstall), kalyke-apns (an ES256 provider token, a
# send shown on a phone, 400 BadDeviceToken, 410 Unregistered with its timestamp after an
# uninstall; its LiveActivityClient: a start it sends without attributes starts nothing, an update
# reaches an activity the app started, a liveactivity push to the device token is 400
# DeviceTokenNotForTopic; firebase-admin 6.5.0 has no APNSConfig live_activity_token, so 6.9.0, in
# a venv of its own, sends an update with one, which FCM relays through APNs to the activity), django-push-notifications' WNS sender (a Live access token per send, toast, XML
# schema and raw notifications, 404 for an unknown channel, 410 after an uninstall, 400 from the
# token endpoint for a wrong secret), PyFCM (a send shown on a tablet, a data message, 400 for a
# malformed token, its token renewal on 401 ACCESS_TOKEN_EXPIRED after a two-hour clock advance,
# 404 after an uninstall), async-firebase (Android options as it builds them, shown on a phone; a
# dry run; INVALID_ARGUMENT; a multicast as one send per token), and the hub again after a 91-day clock advance (an expired
# registration: 404 to a read, 410 to create-or-update). The served fakes verify RS256 and ES256 signatures: kalyke-apns,
# firebase-admin and async-firebase sign with the .p8 and the service-account file pushsim serve writes; PyFCM with a
# service account of its own, its key registered through the control API (and one never registered is refused);
# kalyke-apns checks that a key Apple does not have is refused (see Sources/PushSimServer/PushSimServer.docc); pywebpush
# sends Web Push to simulated browsers, which decrypt what it encrypted; the hub client also writes browser installations
# and sends with the browser format, which the hub encrypts and signs with its VAPID key for simulated browsers.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/conformance-venv
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
if ! "$venv/bin/pip" install -q "azure-notification-hub-unofficial==0.1.0" "firebase-admin==6.5.0" "kalyke-apns==1.5.0" \
     "django-push-notifications==3.3.0" "Django==5.2.8" "pyfcm==2.1.1" "async-firebase==6.4.0" "pywebpush==2.5.0" \
     2>/tmp/pushsim-conformance-pip.log; then
  echo "conformance: SKIPPED, PyPI could not be reached (pip: $(tail -1 /tmp/pushsim-conformance-pip.log))"
  exit 0
fi

swift build --product pushsim >/dev/null
log=$(mktemp)
record=.build/conformance-record.jsonl
.build/debug/pushsim serve --port 0 --clock wall --scenario tools/conformance/world.scenario --record "$record" > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do grep -q "listening on" "$log" && break; sleep 0.1; done
port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$log" | head -1)
[ -n "$port" ] || { echo "conformance: pushsim serve did not start"; cat "$log"; exit 1; }

# One client script: its heading, then the script against the server (a failing check exits 1).
client() { echo "== $1"; "$venv/bin/python" "tools/conformance/$2" "$port"; }
client "azure-notification-hub-unofficial 0.1.0 against pushsim serve on port $port" notification_hubs_client.py
client "firebase-admin 6.5.0" firebase_admin_client.py
client "kalyke-apns 1.5.0" kalyke_apns_client.py
client "APNs broadcast channels over plain HTTP (kalyke-apns 1.5.0 has no broadcast API; PyJWT signs)" apns_broadcast_http.py
client "django-push-notifications 3.3.0 (its WNS sender)" django_push_notifications_wns_client.py
client "async-firebase 6.4.0" async_firebase_client.py
client "PyFCM 2.1.1 (advances the clock two hours)" pyfcm_client.py
client "pywebpush 2.5.0 (an application server; simulated browsers decrypt)" pywebpush_client.py
client "azure-notification-hub-unofficial 0.1.0: browser installations and the browser format" hub_browser_client.py
# firebase-admin 6.9.0, the first with APNSConfig.live_activity_token, in a venv of its own so that
# the other clients keep the 6.5.0 they were checked with.
venv69=.build/conformance-venv-firebase-admin-6.9
if [ ! -x "$venv69/bin/python" ]; then python3 -m venv "$venv69"; fi
if "$venv69/bin/pip" install -q "firebase-admin==6.9.0" 2>>/tmp/pushsim-conformance-pip.log; then
  echo "== firebase-admin 6.9.0: live_activity_token, relayed by FCM through APNs to a Live Activity"
  "$venv69/bin/python" tools/conformance/firebase_admin_live_activity.py "$port"
else
  echo "conformance: firebase-admin 6.9.0 could not be installed; its live_activity_token check SKIPPED"
fi
client "the hub's 410 for an expired registration, after a clock advance (azure-notification-hub-unofficial's signing)" hub_expiry.py

echo "== pushsim replay: the same requests at the same virtual times get the same answers"
kill -TERM $server; wait $server || true
trap - EXIT
.build/debug/pushsim replay "$record" --html .build/conformance-page.html
grep -q "ann-pixel" .build/conformance-page.html || { echo "conformance: the replay's teaching page does not show the session's phones"; exit 1; }
echo "the session's teaching page: .build/conformance-page.html ($(wc -c < .build/conformance-page.html) bytes)"
