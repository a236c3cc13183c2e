import Foundation
import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimScenario
@testable import PushSimServer
import Testing

/// The server on a real loopback socket, driven by URLSession as an SDK would drive the real services.
@Suite(.serialized) struct ServeEndToEndTests {
    @Test func registerThroughTheHubSendAndReadTheNotificationBack() async throws {
        let s = try TestServer()
        let created = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"bob-iphone","platform":"ios"}"#)
        #expect(created.status == 201)
        let handle = try #require(created.value["handle"]?.stringValue)

        let sas = s.hubSAS(unixNow: try await s.unixNow())
        let id = try await s.request("POST", "/notifyusers/registrationIDs?api-version=2015-01", headers: ["Authorization": sas])
        #expect(id.status == 201)
        let location = try #require(id.headers["location"])
        let registrationID = try #require(location.split(separator: "/").last?.split(separator: "?").first).description

        let entry = String(decoding: AtomRegistration.requestBody(RegistrationDescription(platform: .apple, handle: handle, tags: ["username:bob"])),
                           as: UTF8.self)
        let put = try await s.request("PUT", "/notifyusers/registrations/\(registrationID)?api-version=2015-01",
                                      headers: ["Authorization": sas, "Content-Type": "application/atom+xml;type=entry;charset=utf-8"], body: entry)
        #expect(put.status == 200, "\(put.body)")   // create-or-update that creates (200, as the live hub answers)

        let registrations = try await s.json("GET", "/_pushsim/hub/registrations")
        #expect(registrations.value["count"]?.int64Value == 1)
        #expect(registrations.value["registrations"]?.arrayValue?.first?["tags"] == .array(["username:bob"]))

        let send = try await s.request("POST", "/notifyusers/messages?api-version=2015-01", headers: [
            "Authorization": sas, "ServiceBusNotification-Format": "apple", "ServiceBusNotification-Tags": "username:bob",
            "Content-Type": "application/json;charset=utf-8"], body: #"{"aps":{"alert":"Hello Bob"}}"#)
        #expect(send.status == 201, "\(send.body)")

        let shown = try await s.json("GET", "/_pushsim/devices/bob-iphone/notifications?settle=1s")
        let first = try #require(shown.value["notifications"]?.arrayValue?.first)
        #expect(first["text"]?.stringValue == "Hello Bob")
        #expect(first["service"]?.stringValue == "apns")
    }

    @Test func fcmSendWithAnOAuthTokenFromTheTokenEndpoint() async throws {
        let s = try TestServer()
        let created = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"ann-pixel","platform":"android"}"#)
        let handle = try #require(created.value["handle"]?.stringValue)
        let form = "grant_type=\(percentEncode("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(s.googleAssertion(unixNow: try await s.unixNow()))"
        let token = try await s.request("POST", "/token", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form)
        #expect(token.status == 200, "\(token.body)")
        let accessToken = try #require(try JSONParser.parse(token.body)["access_token"]?.stringValue)

        let send = try await s.request("POST", "/v1/projects/\(s.identity.fcmProjectID)/messages:send",
                                       headers: ["Authorization": "Bearer \(accessToken)", "Content-Type": "application/json"],
                                       body: #"{"message":{"token":"\#(handle)","notification":{"title":"Hi","body":"From FCM"}}}"#)
        #expect(send.status == 200, "\(send.body)")
        #expect(send.body.contains("projects/\(s.identity.fcmProjectID)/messages/"))

        let shown = try await s.json("GET", "/_pushsim/devices/ann-pixel/notifications?settle=1s")
        let texts = shown.value["notifications"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(texts.count == 1)
        #expect(texts.first?.contains("From FCM") == true)

        let refused = try await s.request("POST", "/v1/projects/\(s.identity.fcmProjectID)/messages:send",
                                          headers: ["Authorization": "Bearer not-a-token"], body: "{}")
        #expect(refused.status == 401)
    }

    /// firebase-admin 7.5 sends `{"message":{"fid":…}}` (issue 41 item 8): the device read-back
    /// gives the phone's Firebase installation ID, and a send to it is shown on the phone. An
    /// iPhone has none.
    @Test func fcmSendToTheFIDTheDeviceReadBackGives() async throws {
        let s = try TestServer()
        let created = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"ann-pixel","platform":"android"}"#)
        let fid = try #require(created.value["fid"]?.stringValue)
        #expect(fid.utf8.count == 22 && "cdef".contains(fid.first ?? "x"))
        let iphone = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"bob-iphone","platform":"ios"}"#)
        #expect(iphone.value["fid"] == .null)
        let form = "grant_type=\(percentEncode("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(s.googleAssertion(unixNow: try await s.unixNow()))"
        let token = try await s.request("POST", "/token", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form)
        let accessToken = try #require(try JSONParser.parse(token.body)["access_token"]?.stringValue)
        let send = try await s.request("POST", "/v1/projects/\(s.identity.fcmProjectID)/messages:send",
                                       headers: ["Authorization": "Bearer \(accessToken)", "Content-Type": "application/json"],
                                       body: #"{"message":{"fid":"\#(fid)","notification":{"title":"Hi","body":"By FID"}}}"#)
        #expect(send.status == 200, "\(send.body)")
        let shown = try await s.json("GET", "/_pushsim/devices/ann-pixel/notifications?settle=1s")
        let texts = shown.value["notifications"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(texts.count == 1 && texts.first?.contains("By FID") == true, "\(texts)")
    }

    /// firebase-admin's topic management goes to `/iid/v1:batchAdd` on the server's one port: it
    /// reaches the Instance ID API, the device read-back lists the token's topics, and a topic
    /// send is shown on the phone.
    @Test func topicSubscriptionThroughTheInstanceIDPath() async throws {
        let s = try TestServer()
        let created = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"ann-pixel","platform":"android"}"#)
        let handle = try #require(created.value["handle"]?.stringValue)
        #expect(created.value["topics"] == .array([]))
        let form = "grant_type=\(percentEncode("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(s.googleAssertion(unixNow: try await s.unixNow()))"
        let token = try await s.request("POST", "/token", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form)
        let accessToken = try #require(try JSONParser.parse(token.body)["access_token"]?.stringValue)
        let auth = ["Authorization": "Bearer \(accessToken)", "Content-Type": "application/json", "access_token_auth": "true"]
        let add = try await s.request("POST", "/iid/v1:batchAdd", headers: auth,
                                      body: #"{"to":"/topics/news","registration_tokens":["\#(handle)"]}"#)
        #expect(add.status == 200 && add.body == #"{"results":[{}]}"#, "\(add.body)")
        let device = try await s.json("GET", "/_pushsim/devices/ann-pixel")
        #expect(device.value["topics"] == .array(["news"]))
        let send = try await s.request("POST", "/v1/projects/\(s.identity.fcmProjectID)/messages:send", headers: auth,
                                       body: #"{"message":{"topic":"news","notification":{"title":"Hi","body":"topic"}}}"#)
        #expect(send.status == 200, "\(send.body)")
        let shown = try await s.json("GET", "/_pushsim/devices/ann-pixel/notifications?settle=1s")
        #expect(shown.value["notifications"]?.arrayValue?.count == 1)
    }

    @Test func apnsSendOverHTTP1() async throws {
        let s = try TestServer()
        let created = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"cy-iphone","platform":"ios"}"#)
        let handle = try #require(created.value["handle"]?.stringValue)
        let send = try await s.request("POST", "/3/device/\(handle)", headers: [
            "authorization": "bearer \(s.apnsToken(unixNow: try await s.unixNow()))", "apns-topic": s.identity.app.bundleID,
            "apns-push-type": "alert"], body: #"{"aps":{"alert":"Direct to APNs"}}"#)
        #expect(send.status == 200, "\(send.body)")
        #expect(send.headers["apns-id"] != nil)
        let shown = try await s.json("GET", "/_pushsim/devices/cy-iphone/notifications?settle=1s")
        #expect(shown.value["notifications"]?.arrayValue?.first?["text"]?.stringValue == "Direct to APNs")

        let bad = try await s.request("POST", "/3/device/\(handle)", headers: ["apns-topic": s.identity.app.bundleID], body: "{}")
        #expect(bad.status == 403)
        #expect(bad.body == #"{"reason":"MissingProviderToken"}"#)
    }

    @Test func controlAPIErrorsAreJSON() async throws {
        let s = try TestServer()
        for (method, path, body, status) in [
            ("GET", "/_pushsim/devices/nobody", nil, 404), ("POST", "/_pushsim/devices", #"{"name":"x"}"#, 400),
            ("POST", "/_pushsim/devices", "not json", 400), ("POST", "/_pushsim/clock/advance", #"{"by":"soon"}"#, 400),
            ("DELETE", "/_pushsim/clock", nil, 405), ("GET", "/_pushsim/nothing", nil, 404), ("GET", "/elsewhere", nil, 404),
        ] as [(String, String, String?, Int)] {
            let r = try await s.request(method, path, body: body)
            #expect(r.status == status, "\(method) \(path)")
            #expect(try JSONParser.parse(r.body)["error"]?["message"]?.stringValue?.isEmpty == false, "\(method) \(path)")
        }
        _ = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"dup","platform":"windows"}"#)
        #expect(try await s.json("POST", "/_pushsim/devices", body: #"{"name":"dup","platform":"windows"}"#).status == 409)
        #expect(try await s.json("POST", "/_pushsim/devices", body: #"{"name":"hub","platform":"ios"}"#).status == 409)
        #expect(try await s.json("POST", "/_pushsim/devices/dup/fly", body: nil).status == 404)
    }

    @Test func clockAdvanceAndDeviceActions() async throws {
        let s = try TestServer()
        _ = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"dee-pc","platform":"windows"}"#)
        let before = try await s.json("GET", "/_pushsim/clock").value["virtualMicroseconds"]!.int64Value!
        let after = try await s.json("POST", "/_pushsim/clock/advance", body: #"{"by":"91d"}"#)
        #expect(after.value["virtualMicroseconds"]!.int64Value! == before + 91 * 86_400_000_000)
        let offline = try await s.json("POST", "/_pushsim/devices/dee-pc/offline")
        #expect(offline.value["online"] == .bool(false))
        let online = try await s.json("POST", "/_pushsim/devices/dee-pc/online")
        #expect(online.value["online"] == .bool(true))
        let old = online.value["handle"]?.stringValue
        let refreshed = try await s.json("POST", "/_pushsim/devices/dee-pc/refresh-handle")
        #expect(refreshed.value["handle"]?.stringValue != nil)
        #expect(refreshed.value["handle"]?.stringValue != old)
        let uninstalled = try await s.json("POST", "/_pushsim/devices/dee-pc/uninstall")
        #expect(uninstalled.value["installed"] == .bool(false))
        let journal = try await s.json("GET", "/_pushsim/journal")
        #expect((journal.value["total"]?.int64Value ?? 0) > 0)
        let reset = try await s.json("POST", "/_pushsim/reset")
        #expect(reset.status == 200)
        #expect(try await s.json("GET", "/_pushsim/devices").value["devices"] == .array([]))
    }

    /// After an advance, a client outside the world still stamps its own (wall) clock: the tokens
    /// it signs just then are judged by that clock, and are fresh; what the world stores has aged.
    /// (Before: every SAS token, provider token and assertion signed after a 91-day advance was
    /// 91 days stale, and an unmodified client got 401 for everything.)
    @Test func tokensSignedOutsideAreJudgedByTheOutsideClockAfterAnAdvance() async throws {
        let s = try TestServer()
        let outsideNow = try await s.unixNow()   // the clients' clock, which an advance does not move
        _ = try await s.json("POST", "/_pushsim/clock/advance", body: #"{"by":"91d"}"#)
        let hub = try await s.request("GET", "/\(s.identity.hubName)/registrations/?api-version=2015-01",
                                      headers: ["Authorization": s.hubSAS(unixNow: outsideNow)])
        #expect(hub.status == 200)
        let stale = try await s.request("GET", "/\(s.identity.hubName)/registrations/?api-version=2015-01",
                                        headers: ["Authorization": s.hubSAS(unixNow: outsideNow - 7_200)])
        #expect(stale.status == 401, "a token that expired by the client's own clock is still refused")
        let phone = try await s.json("POST", "/_pushsim/devices", body: #"{"name":"fay-iphone","platform":"ios"}"#)
        let token = try #require(phone.value["handle"]?.stringValue)
        let push = try await s.request("POST", "/3/device/\(token)",
                                       headers: ["authorization": "bearer " + s.apnsToken(unixNow: outsideNow), "apns-topic": s.identity.app.bundleID],
                                       body: #"{"aps":{"alert":"fresh"}}"#)
        #expect(push.status == 200, "\(push.body)")
    }
}
