/// Settings for hub behaviours that Microsoft's sources leave open or contradict. Each type says
/// what the sources say, with their addresses, and why its default is the one `HubConfiguration`
/// takes. The rules themselves are written where they apply: `createOrUpdate` and `delete`
/// (`NotificationHub.swift`, with ``IfMatch``), `send` and `readSend` (`NotificationHub+Send.swift`).

/// The status of an accepted send to tags or to everyone: native, template, and test sends
/// (`POST /{hub}/messages`, `?test`). Direct and batch direct sends answer 201 whatever this says.
///
/// The sources disagree:
/// - The REST reference page of each such send lists **200** "Message successfully sent":
///   Send an APNS native notification (https://learn.microsoft.com/en-us/rest/api/notificationhubs/send-apns-native-notification),
///   Send a template notification (…/send-template-notification), Send a WNS native notification
///   (…/send-wns-native-notification), Send a GCM native notification (…/send-gcm-native-notification) and
///   the FCM v1 one (…/send-fcm-native-notification). The Direct send page
///   (https://learn.microsoft.com/en-us/rest/api/notificationhubs/direct-send) lists **201** for its success.
/// - The .NET SDK accepts either, 200 or 201, for sends and test sends (`SendNotificationImplAsync`,
///   https://github.com/Azure/azure-notificationhubs-dotnet/blob/main/src/Microsoft.Azure.NotificationHubs/NotificationHubClient.cs),
///   so it does not settle it; its batch direct send accepts only 201.
/// - What the service actually answered: the .NET SDK's test recordings, captured from a live hub,
///   show **201** with a `Location` for native, template, direct, batch and scheduled sends
///   (`src/Microsoft.Azure.NotificationHubs.Tests/MockData/SendNotificationAsync_*.http` in the same repository).
///   The Java SDK (https://github.com/Azure/azure-notificationhubs-java-backend, `NotificationHub.java`) and
///   the JavaScript SDK (https://github.com/Azure/azure-sdk-for-js, `notification-hubs/src/api/internal/_sendNotification.ts`,
///   test sends included) treat anything but 201 as a failure, and Microsoft's Python how-to
///   (https://learn.microsoft.com/en-us/azure/notification-hubs/notification-hubs-python-push-notification-tutorial)
///   says a successful send is "HTTP 201 - Created".
///
/// The pages do not disagree with each other (each send page says 200, the direct send page 201);
/// they disagree with the service's observed answers and with two of the three SDKs. PushSim
/// follows the observed wire: default ``created``; ``ok`` gives what the reference pages say.
/// No source gives a test send a status of its own: it follows this setting too.
public enum SendAcceptedStatus: Int, Sendable, CaseIterable {
    /// 201 Created: the live service (recorded), the Java and JavaScript SDKs, the Python how-to.
    case created = 201
    /// 200 OK: the REST reference pages of the native and template sends.
    case ok = 200
}

/// The status of a successful registration write (`PUT /{hub}/registrations/{id}`, with or without
/// `If-Match`).
///
/// The sources disagree:
/// - The Create or Update Registration page
///   (https://learn.microsoft.com/en-us/rest/api/notificationhubs/create-update-registration) and the
///   Update Registration page (https://learn.microsoft.com/en-us/rest/api/notificationhubs/update-registration)
///   list **201** "Registration updated successfully".
/// - What the service actually answered: the .NET SDK's recordings of a live hub
///   (`src/Microsoft.Azure.NotificationHubs.Tests/MockData/CreateOrUpdateRegistrationAsync_*.http` and
///   `UpdateRegistrationAsync_UpdateAppleNativeRegistration_*.http` in
///   https://github.com/Azure/azure-notificationhubs-dotnet) show **200** with the entry and its new
///   weak ETag for every create-or-update and update.
/// - The .NET SDK accepts 200 and 201 alike, so it does not settle it.
///
/// PushSim follows the observed wire, as for sends: default ``ok``; ``created`` gives the pages' answer.
/// The same recordings show a PUT to an id the client made up (`123-234-1`) creating the
/// registration; PushSim answers 410 to an id it never handed out (see `createOrUpdate`), and
/// does not model client-chosen registration ids.
public enum RegistrationWriteStatus: Int, Sendable, CaseIterable {
    /// 200 OK: the live service (recorded).
    case ok = 200
    /// 201 Created: the REST reference pages.
    case created = 201
}

/// A registration PUT carrying `If-Match` for an id that holds no registration yet (handed out by
/// Create Registration ID, never written).
///
/// - The Update Registration page (https://learn.microsoft.com/en-us/rest/api/notificationhubs/update-registration)
///   takes `If-Match` (an ETag, or `*` to overwrite) and answers 404 "No registration exists at this location".
/// - HTTP itself (RFC 9110 §13.1.1, https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1) makes
///   an `If-Match` false, hence 412, when there is no current representation.
/// - Microsoft's older Android client (https://github.com/Azure/azure-notificationhubs-android,
///   `NotificationHub.java` before its upsert rewrite) updated with `If-Match: *` and created the
///   registration anew on a 404: the page's answer.
///
/// Default ``notFound``, the operation's own page.
public enum IfMatchWithoutRegistration: Sendable, CaseIterable {
    /// 404, as the Update Registration page says.
    case notFound
    /// 412 Precondition Failed, as RFC 9110 §13.1.1 says for an `If-Match` with nothing to match.
    case preconditionFailed
}

/// A registration DELETE that carries no `If-Match`.
///
/// - The Delete Registration page (https://learn.microsoft.com/en-us/rest/api/notificationhubs/delete-registration)
///   lists `If-Match` (an ETag, or `*`) among its "required and optional" headers without saying which
///   it is, and lists 412 for "the current version of the registration does not have specified ETag".
/// - Every Microsoft SDK sends it (.NET `DeleteRegistrationImplAsync`: `*` or the quoted ETag; Java:
///   `*`; Android: `*`), so none shows what happens without it.
/// - Two third-party clients disagree: ByteSmith's Xamarin client
///   (https://github.com/SaschaDittmann/Xamarin.NotificationHub/commit/d9d098d5e0d17d8a23d9d0fa1ca91bb0572ffb96)
///   added `If-Match: *` because, its commit says, the hub otherwise answers 412 "ETag header missing
///   or invalid"; azure-notification-hub-unofficial 0.1.0 (PyPI) deletes with no `If-Match` at all.
///
/// Unsettled: default ``deletes``, PushSim's behaviour before this rule; ``preconditionFailed`` gives
/// the 412 the Xamarin client reports.
public enum DeleteWithoutIfMatch: Sendable, CaseIterable {
    /// The registration is deleted (200), as if `If-Match: *` had been sent.
    case deletes
    /// 412 "ETag header missing or invalid", as ByteSmith's commit reports.
    case preconditionFailed
}

/// A native APNs send (`ServiceBusNotification-Format: apple`, to tags, to everyone, direct or
/// batch, scheduled) whose body is not a JSON object.
///
/// - The Send an APNS native notification page
///   (https://learn.microsoft.com/en-us/rest/api/notificationhubs/send-apns-native-notification) answers
///   400 when "the request is malformed (for example, … bad message format)", and its body is the JSON
///   Apple specifies; the Direct send page (…/direct-send) says the same for direct sends.
/// - The hub checks an APNs payload when the send is made, not after: in .NET SDK issue #194
///   (https://github.com/Azure/azure-notificationhubs-dotnet/issues/194) a send whose `aps.sound` was a
///   dictionary failed at once, from the send call, with "The supplied notification payload is invalid."
///   (that check was stricter than Apple's; PushSim checks only that the body is a JSON object).
///
/// Default ``refused`` (400 with that detail). ``passedToAPNs`` is PushSim's earlier behaviour: the hub
/// accepts the send and hands the bytes to APNs as they are.
public enum InvalidAPNsPayload: Sendable, CaseIterable {
    /// 400 "The supplied notification payload is invalid.", nothing sent to APNs.
    case refused
    /// Accepted; APNs and the device decide.
    case passedToAPNs
}

/// Which generation of the live service the registration answers imitate, header by header and
/// byte by byte. The service changed between two sets of recordings of the same SDK tests, and the
/// REST reference pages still describe the older answers.
///
/// - **`current`**: the live hub as the JavaScript SDK's tests recorded it in August 2023
///   (https://github.com/Azure/azure-sdk-for-js, `sdk/notificationhubs/notification-hubs/recordings/node/`,
///   `Server: Kestrel`): no `ETag` header on any answer (the ETag only in the body, `p1:etag`, and
///   in the description's `<ETag>`), no `Content-Location` on a create; Create Registration ID's
///   `Location` without a query and `Content-Type: application/atom+xml; type=entry; charset=utf-8`;
///   a create or update answered with an entry whose `id` and self link are under
///   `https://<namespace>.notificationhub.windows.net/<hub>/registrations/<id>`; a read and every
///   listing answered `Content-Type: application/xml`, their entries (and a listing's own `id`)
///   under `https://<namespace>.servicebus.windows.net/<hub>/resources[/<id>]`, whatever path was
///   asked (a listing by tag too); the entry's ETag attribute prefixed `p1` (`p2` in a feed) and
///   declared before the Atom namespace; empty elements written `<link … />`; the description's
///   `xmlns:i` before its `xmlns`; a registration that never expires at
///   `9999-12-31T23:59:59.9999999`, with `Z` on reads and listings and without it on a create or
///   update.
/// - **`classic`**: the live hub as the same tests recorded it in December 2022 and as the .NET
///   SDK's tests recorded it in 2018 and 2019 (https://github.com/Azure/azure-notificationhubs-dotnet,
///   `src/Microsoft.Azure.NotificationHubs.Tests/MockData/`, `Server: Microsoft-HTTPAPI/2.0`), which
///   is also what the REST pages describe (https://learn.microsoft.com/en-us/rest/api/notificationhubs/create-registration,
///   …/read-registration, …/create-registration-id): `ETag: W/"n"` on every entry answer and
///   `Content-Location` on a create; Create Registration ID's `Location` with the request's
///   `?api-version=`, a `Content-Location` under `registrations` as the page shows it, and the
///   page's `application/atom+xml;type=entry;charset=utf-8`; every entry and feed
///   `application/atom+xml; type=entry|feed; charset=utf-8` under the address that was asked
///   (`…/registrations/<id>`, `…/tags/<tag>/registrations`); `a:etag` after the Atom namespace;
///   `<link …/>`; the description's `xmlns` before `xmlns:i`; never-expiring at
///   `9999-12-31T23:59:59.999` (with `Z` on reads).
///
/// Both answer the same statuses and the same registration ids and notification ids (every
/// recording shows the same forms). PushSim answers as the service does today: default
/// ``current``. A client that takes the ETag from the `ETag` header, or the id from
/// `Content-Location`, passes against ``classic`` and breaks against the service; Microsoft's .NET
/// SDK reads the ETag from the description's `<ETag>` and the id from the `Location` path, and
/// works with both (NH-DOTNET `RegistrationDescription.ETag`, `CreateRegistrationIdAsync`), as
/// PushSim's own client does.
public enum HubAnswerShape: Sendable, CaseIterable {
    /// As the service answers since 2023 (recorded August 2023).
    case current
    /// As the service answered until 2022, and as the REST pages describe.
    case classic
}

/// An `If-Match` request header as the hub reads it on registrations: `*`, or a list of entity
/// tags. SDKs write the registration's ETag (`<ETag>n</ETag>`, header `ETag: W/"n"`) in different
/// forms: .NET and JavaScript `"n"`, Java `W/"n"`, and all expect an update to go through. RFC 9110
/// §13.1.1 asks for the strong comparison, under which the hub's own weak ETags could never match;
/// the live hub does not apply it: the .NET SDK sends `If-Match: "1"` for a registration whose ETag
/// is `W/"1"`, and its recording of a live hub (`UpdateRegistrationAsync_UpdateAppleNativeRegistration_*.http`)
/// shows that update answered with the new `W/"2"`. So PushSim compares
/// weakly (§8.8.3.2, https://www.rfc-editor.org/rfc/rfc9110#section-8.8.3.2):
/// the `W/` prefix and the quotes are dropped and the opaque values compared. A bare `n` is taken
/// too. A value with no entity tag in it (empty) matches nothing.
enum IfMatch: Equatable {
    case any
    case tags([String])

    /// The header's meaning, or nil when the request has none.
    init?(_ header: String?) {
        guard let header else { return nil }
        let trimmed = Self.trimmed(header[...])
        if trimmed == "*" { self = .any; return }
        self = .tags(trimmed.split(separator: ",").map { Self.opaque($0) }.filter { !$0.isEmpty })
    }

    /// `W/"2"`, `"2"` or `2` → `2`.
    static func opaque(_ tag: Substring) -> String {
        var t = Self.trimmed(tag)[...]
        if t.hasPrefix("W/") || t.hasPrefix("w/") { t = t.dropFirst(2) }
        if t.count >= 2, t.first == "\"", t.last == "\"" { t = t.dropFirst().dropLast() }
        return String(t)
    }

    /// The text without leading and trailing spaces and tabs.
    private static func trimmed(_ s: Substring) -> String {
        var s = s
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }

    /// Whether a registration whose ETag is `etag` satisfies the header.
    func matches(etag: Int) -> Bool {
        switch self {
        case .any: return true
        case .tags(let tags): return tags.contains(String(etag))
        }
    }
}
