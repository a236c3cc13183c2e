"""Conformance: PyFCM (pinned by tools/conformance.sh), unmodified, against `pushsim serve`. Its
one override: the FCM base URL (`FCMNotification.FCM_END_POINT_BASE`, which PyFCM hard-codes to
fcm.googleapis.com). It signs with a service account of its own: a key made here, registered
through the control API (POST /_pushsim/keys/fcm), in a service-account file whose `token_uri` is
the server's; Google's auth library takes the OAuth token endpoint from it. A service account
whose key was never registered is refused: Google answers 400 invalid_grant "Invalid JWT
Signature.", which PyFCM raises as InvalidDataError.

PyFCM keeps its access token for 30 minutes of its own clock and, when FCM answers 401, renews
it only if the error's details carry Google's `ErrorInfo` with reason `ACCESS_TOKEN_EXPIRED`
(`_is_access_token_expired`). After the world's clock is advanced two hours, the token it holds
has run out in the world while PyFCM's clock says it is fresh: the send goes through only if the
served FCM answers that 401 as the live one does.

Usage: python pyfcm_client.py <port>
"""
from pyfcm import FCMNotification
from pyfcm.errors import FCMNotRegisteredError, InvalidDataError
from pushsim_control import BASE, check, control, own_service_account, shown

FCMNotification.FCM_END_POINT_BASE = BASE + "/v1/projects"

info = control("GET", "/_pushsim/info")
stranger = FCMNotification(service_account_file=own_service_account("stranger@pushsim-notifyusers.iam.gserviceaccount.com", register=False),
                           project_id=info["fcm"]["projectId"])
try:
    stranger.notify(fcm_token="x", notification_body="x")
    check("a service account whose key Google does not have is refused", False, "accepted")
except InvalidDataError as error:
    check("a service account whose key Google does not have is refused (invalid_grant, Invalid JWT Signature.)",
          "Invalid JWT Signature." in str(error), error)

fcm = FCMNotification(service_account_file=own_service_account("pyfcm@pushsim-notifyusers.iam.gserviceaccount.com"),
                      project_id=info["fcm"]["projectId"])

tab = control("POST", "/_pushsim/devices", {"name": "eve-tablet", "platform": "android"})
answer = fcm.notify(fcm_token=tab["handle"], notification_title="Hi", notification_body="from PyFCM")
check("the send is accepted with a message name", answer.get("name", "").startswith("projects/"), answer)
texts = shown("eve-tablet")
check("the tablet shows it", texts == ["Hi: from PyFCM"], texts)

answer = fcm.notify(fcm_token=tab["handle"], data_payload={"score": "3:1"})
check("a data message is accepted", answer.get("name", "").startswith("projects/"), answer)

try:
    fcm.notify(fcm_token="not-a-token", notification_body="x")
    check("a malformed token is refused", False, "accepted")
except InvalidDataError:
    check("a malformed token is refused with 400 (InvalidDataError)", True)

control("POST", "/_pushsim/clock/advance", {"by": "2h"})
answer = fcm.notify(fcm_token=tab["handle"], notification_title="Later", notification_body="after the token ran out")
check("after the access token ran out, PyFCM renews it on ACCESS_TOKEN_EXPIRED and the send goes through",
      answer.get("name", "").startswith("projects/"), answer)
check("the tablet shows it", shown("eve-tablet")[-1:] == ["Later: after the token ran out"], shown("eve-tablet"))

control("POST", "/_pushsim/devices/eve-tablet/uninstall")
outcomes = []
for _ in range(2):
    try:
        fcm.notify(fcm_token=tab["handle"], data_payload={"after": "uninstall"})
        outcomes.append("accepted")
    except FCMNotRegisteredError:
        outcomes.append("404")
    control("GET", "/_pushsim/devices/eve-tablet/notifications?settle=2s")
check("after an uninstall FCM answers 404 UNREGISTERED once it has found out", outcomes[-1] == "404", outcomes)
