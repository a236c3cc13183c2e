import PushSimKernel
import PushSimNetwork
import PushSimServices

/// What the operator does in a step, straight through the hub with its key, as a marketing
/// tool or an operations backend would (`at 5s operator send apple "{…}" to "username:bob"`).
public enum OperatorAction: Equatable, Sendable {
    /// `operator send apple|fcmv1|windows "<payload>" [to "<expression>"] [header "<name>"
    /// "<value>"]…`; the hub passes `apns-*` and `X-WNS-*` headers on to the push service (NH-REST).
    case send(format: String, payload: String, tagExpression: String?, headers: [SendHeader] = [])
    /// `operator schedule <format> "<payload>" at <time> [to "<expression>"] [header …]…`
    case schedule(format: String, payload: String, at: VirtualTime, tagExpression: String?, headers: [SendHeader] = [])
    /// `operator cancel scheduled`: cancels the most recent scheduled send.
    case cancelScheduled
    /// `operator update|delete registration of <device> [if-match current|stale|any]`: the
    /// operator reads the registration whose id the device's app stored, then updates it (a PUT
    /// with `If-Match`, as the SDK's `UpdateRegistrationAsync`) or deletes it (a DELETE with
    /// `If-Match`); checked with `expect operator register|unregister status <status>`.
    case registration(device: String, delete: Bool, ifMatch: IfMatchChoice)
    /// `operator put|patch|delete installation of <device> …`: the operator writes the installation
    /// whose id is the device's name, with the device's platform and current push handle
    /// (`PUT|PATCH|DELETE /installations/<id>`, NH-REST); checked with `expect operator
    /// installation status <status>` and `expect hub has <n> installation(s)`.
    case installation(device: String, change: InstallationChange)
    /// `operator list registrations [for "<tag>"]`: `GET /registrations` or `GET
    /// /tags/<tag>/registrations` (NH-REST), every page; checked with `expect operator listed <n>
    /// registration(s)` and `expect operator list status <status>`.
    case listRegistrations(tag: String?)
    /// `operator test-send <format> "<payload>" [to "<expression>"] [header …]…`
    case testSend(format: String, payload: String, tagExpression: String?, headers: [SendHeader] = [])
    /// `operator key full|listen|policy "<name>"`: the operator's later calls are signed with that
    /// policy's key (see ``HubKey``).
    case useKey(HubKey)
    /// `operator send fcm "<v1 body>" to topic "<name>"|condition "<expression>"`: straight to FCM's
    /// `messages:send` with the project's service account, as a backend using the Firebase Admin
    /// SDK sends, the target put into the body's `message` (the hub knows no topics).
    case fcmSend(body: String, target: FCMSendTarget)
    /// `operator send fcm "<v1 body>" to token of <device> with live activity token of <device>`
    /// (or `with push-to-start token "<Type>" of <device>`): to the device's FCM token, with the
    /// Live Activity token read when the step runs put into `message.apns.live_activity_token`
    /// (F-LIVE), so that FCM relays it to APNs for that token.
    case fcmLiveActivitySend(body: String, device: String, token: LiveActivityTokenReference)
    /// `operator send apns "<payload>" to live activity token of <device> ["<Type>"] [header …]…`
    /// (or `to push-to-start token "<Type>" of <device>`): straight to APNs' provider API with the
    /// team's key, as a backend sends ActivityKit pushes; `apns-push-type: liveactivity` and the
    /// `.push-type.liveactivity` topic unless headers say otherwise.
    case apnsSend(payload: String, token: LiveActivityTokenReference, headers: [SendHeader])
    /// `operator create channel "<name>" storage none|most-recent`: an APNs broadcast channel for
    /// the scenario's app, known in the file by its name (Citations §1.20).
    case createChannel(name: String, policy: BroadcastMessageStoragePolicy)
    /// `operator delete channel "<name>"`
    case deleteChannel(name: String)
    /// `operator broadcast "<payload>" on channel "<name>"|without channel-id [header "<name>" "<value>"]…`:
    /// `POST /4/broadcasts/apps/<bundle id>` straight to APNs.
    case broadcast(payload: String, channel: String?, headers: [SendHeader] = [])

    /// The step as the run labels it after `operator` (`send apple to "username:bob"`): no payload.
    var label: String {
        func audience(_ expression: String?) -> String { expression.map { "\"\($0)\"" } ?? "everyone" }
        switch self {
        case .send(let format, _, let expression, _): return "send \(format) to \(audience(expression))"
        case .schedule(let format, _, let when, let expression, _): return "schedule \(format) at \(when) to \(audience(expression))"
        case .cancelScheduled: return "cancel scheduled"
        case .registration(let device, let delete, let ifMatch):
            return "\(delete ? "delete" : "update") registration of \(device) if-match \(ifMatch.rawValue)"
        case .installation(let device, let change): return change.statement(device: device)
        case .listRegistrations(let tag): return "list registrations" + (tag.map { " for \"\($0)\"" } ?? "")
        case .testSend(let format, _, let expression, _): return "test-send \(format) to \(audience(expression))"
        case .useKey(let key): return key.statement
        case .fcmSend(_, let target): return "send fcm to \(target.label)"
        case .fcmLiveActivitySend(_, let device, let token): return "send fcm to token of \(device) with \(token.label)"
        case .apnsSend(_, let token, _): return "send apns to \(token.label)"
        case .createChannel(let name, let policy): return "create channel \(jsonString(name)) storage \(policy.word)"
        case .deleteChannel(let name): return "delete channel \(jsonString(name))"
        case .broadcast(_, let channel, _): return "broadcast " + (channel.map { "on channel \(jsonString($0))" } ?? "without channel-id")
        }
    }
}

/// A header an operator send carries to the hub (`header "apns-priority" "5"`), which passes it on
/// to the push service: `apns-*` for APNs, `X-WNS-*` for WNS (FCM v1 takes its options in the
/// body). An installation template carries its own the same way, their values template
/// expressions rendered with each template send's properties.
public struct SendHeader: Equatable, Sendable {
    /// The header's name, as written.
    public var name: String
    /// Its value.
    public var value: String
    /// A header named `name` with `value`.
    public init(_ name: String, _ value: String) { self.name = name; self.value = value }
}

/// A named template of an installation, as the operator writes it (`template "alert" body
/// "{\"aps\":{\"alert\":\"$(message)\"}}" [header "<name>" "<value>"]… [expiry "<value>"] [tags
/// <tag>,…]`): the hub fills its body and its headers' values with a template send's properties
/// and sends the result natively, an APNs template's expiry as `apns-expiration` (NH-TPL, NH-REG,
/// NH-REST).
public struct NamedTemplate: Equatable, Sendable {
    /// The template's name, its key under the installation's `templates`.
    public var name: String
    /// The body, with `$(property)` expressions: JSON for APNs and FCM v1, XML for WNS.
    public var body: String
    /// Tags that select this template besides the installation's own.
    public var tags: [String]
    /// Headers sent with each notification the template makes, in the order written: `apns-*`
    /// for an iPhone's template (`apns-priority`), `X-WNS-*` for a PC's (`X-WNS-Type`, `X-WNS-Tag`).
    public var headers: [SendHeader]
    /// An APNs template's expiry: a date, `0` or an expression (`$(until)`); nil: none.
    public var expiry: String?
    /// A template named `name` with `body`, and `tags`, `headers` and `expiry` when given.
    public init(name: String, body: String, tags: [String] = [], headers: [SendHeader] = [], expiry: String? = nil) {
        self.name = name; self.body = body; self.tags = tags; self.headers = headers; self.expiry = expiry
    }

    /// As written after `template` (`"alert" body … header "apns-priority" "5" expiry "0" tags a,b`), the body elided.
    var statement: String {
        "\"\(name)\" body …" + headers.map { " header \"\($0.name)\" \"\($0.value)\"" }.joined()
            + (expiry.map { " expiry \"\($0)\"" } ?? "") + (tags.isEmpty ? "" : " tags \(tags.joined(separator: ","))")
    }
}

/// What `operator put|patch|delete installation of <device>` does to the device's installation.
public enum InstallationChange: Equatable, Sendable {
    /// `put installation of <device> [with tags <tag>,…] [user <id>] [template "<name>" body
    /// "<body>" [header …]… [expiry …] [tags <tag>,…]]…`: create or replace it whole.
    case put(tags: [String], userID: String?, templates: [NamedTemplate] = [])
    /// `patch installation of <device> add tag <tag>`: a JSON Patch `add` on `/tags`.
    case addTag(String)
    /// `patch installation of <device> remove tag <tag>`: a JSON Patch `remove` on `/tags/<tag>`.
    case removeTag(String)
    /// `patch installation of <device> add template "<name>" body "<body>" [header …]… [expiry …] [tags <tag>,…]`: a JSON
    /// Patch `add` on `/templates/<name>` with the template object (NH-REST Patch Installation).
    case addTemplate(NamedTemplate)
    /// `patch installation of <device> remove template "<name>"`: a JSON Patch `remove` on `/templates/<name>`.
    case removeTemplate(String)
    /// `patch installation of <device> replace channel`: a JSON Patch `replace` on `/pushChannel`
    /// with the device's current handle (after a `refresh-handle`, say).
    case replaceChannel
    /// `delete installation of <device>`: 204, also when there was none.
    case delete

    /// As written after `operator` (`put installation of bob with tags news`).
    func statement(device: String) -> String {
        switch self {
        case .put(let tags, let user, let templates):
            return "put installation of \(device)" + (tags.isEmpty ? "" : " with tags \(tags.joined(separator: ","))")
                + (user.map { " user \($0)" } ?? "") + templates.map { " template \($0.statement)" }.joined()
        case .addTag(let tag): return "patch installation of \(device) add tag \(tag)"
        case .removeTag(let tag): return "patch installation of \(device) remove tag \(tag)"
        case .addTemplate(let template): return "patch installation of \(device) add template \(template.statement)"
        case .removeTemplate(let name): return "patch installation of \(device) remove template \"\(name)\""
        case .replaceChannel: return "patch installation of \(device) replace channel"
        case .delete: return "delete installation of \(device)"
        }
    }
}

/// The `If-Match` an operator's registration update or delete sends.
public enum IfMatchChoice: String, Equatable, Sendable, CaseIterable {
    /// The ETag the hub just gave (`"3"`): the write goes through.
    case current
    /// One version older than the hub's (`"2"` when it holds `W/"3"`; `"0"` for a first version):
    /// the hub answers 412 Precondition Failed.
    case stale
    /// `*`: any version (deletes only).
    case any
}

/// Who an operator's send straight to FCM is for (`to topic "news"`, `to condition "…"`).
public enum FCMSendTarget: Equatable, Sendable {
    /// The word after `operator send` that sends straight to FCM.
    static let service = "fcm"
    /// `message.topic`: the devices subscribed to the topic.
    case topic(String)
    /// `message.condition`: the devices whose topics meet it.
    case condition(String)
    /// `to token of <device>`: the device's newest FCM token (an Android app's, or an iOS app's
    /// with the Firebase SDK), read when the step runs; becomes ``token(_:)``.
    case tokenOf(String)
    /// `message.token`: one app instance's FCM registration token.
    case token(String)

    /// As written after `to` (`topic "news"`).
    var label: String {
        switch self {
        case .topic(let name): return "topic \(jsonString(name))"
        case .condition(let text): return "condition \(jsonString(text))"
        case .tokenOf(let device): return "token of \(device)"
        case .token(let token): return "token \(shortToken(token))"
        }
    }
}
