"""Conformance: async-firebase (pinned by tools/conformance.sh), unmodified, against `pushsim
serve`. Its overrides: the FCM base URL (`AsyncFirebaseClient.BASE_URL`) and the OAuth token URL
(`async_firebase._credentials.TOKEN_URL`), both hard-coded to Google's hosts; the service account
is the file the server wrote. Unlike firebase-admin it sends Android and APNs options as the
library builds them (`AndroidConfig.build`: a TTL in seconds, lower-case `priority`), and the
`X-GOOG-API-FORMAT-VERSION: 2` and `X-Request-Id` headers.

Usage: python async_firebase_client.py <port>
"""
import asyncio

import async_firebase._credentials
from async_firebase import AsyncFirebaseClient
from async_firebase.messages import AndroidConfig, Message, MulticastMessage, Notification
from pushsim_control import BASE, check, control, shown

AsyncFirebaseClient.BASE_URL = BASE
async_firebase._credentials.TOKEN_URL = BASE + "/token"

info = control("GET", "/_pushsim/info")
phone = control("POST", "/_pushsim/devices", {"name": "hal-pixel", "platform": "android"})


async def run():
    client = AsyncFirebaseClient()
    client.creds_from_service_account_file(info["fcmServiceAccountFile"])

    android = AndroidConfig.build(priority="high", ttl=3600, collapse_key="score", title="Hi", body="from async-firebase")
    response = await client.send(Message(token=phone["handle"], android=android))
    check("a message with the library's Android options is accepted", response.success,
          response.exception and response.exception.message)
    texts = shown("hal-pixel")
    check("the phone shows it", texts == ["Hi: from async-firebase"], texts)

    response = await client.send(Message(token=phone["handle"], notification=Notification(title="Dry", body="run")), dry_run=True)
    check("a dry run (validate_only) is accepted", response.success, response.exception and response.exception.message)
    check("and shows nothing", shown("hal-pixel") == ["Hi: from async-firebase"], shown("hal-pixel"))

    response = await client.send(Message(token="not-a-token", data={"a": "b"}))
    check("a malformed token is refused with INVALID_ARGUMENT",
          not response.success and type(response.exception).__name__ == "InvalidArgumentError", repr(response.exception))

    batch = await client.send_each_for_multicast(MulticastMessage(tokens=[phone["handle"], "not-a-token"], data={"k": "v"}))
    check("a multicast goes out as one send per token: one accepted, one refused",
          [r.success for r in batch.responses] == [True, False], [(r.success, repr(r.exception)) for r in batch.responses])
    await client.close()


asyncio.run(run())
