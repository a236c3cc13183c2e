import PushSimKernel
import PushSimNetwork

/// A named template of an installation: body, extra tags, (Windows) headers and (APNs) expiry
/// (NH-REG: `templates: {"name": {body, tags, headers}}`; NH-DOTNET `InstallationTemplate.cs`).
public struct InstallationTemplate: Sendable, Equatable {
    /// The body template: JSON for APNs and FCM v1, XML for WNS.
    public var body: String
    /// Tags that select this template in addition to the installation's own (the SDK marks them
    /// obsolete). The hub gives a template written without any its name as its one tag, which a
    /// send may then select, as the live hub does.
    public var tags: [String]
    /// Headers sent with each notification the template makes, their values template
    /// expressions: `X-WNS-*` for Windows (e.g. `X-WNS-Type: wns/raw`, NH-REST), `apns-*` for
    /// APNs (e.g. `apns-priority: 5`), which the hub lists as the template registration's
    /// `ApnsHeaders` and checks as the SDK checks those (Citations §4.3, §4.5).
    public var headers: [TemplateHeader]
    /// The SDK's `Expiry`, for notifications bound for APNs: a date, `0` or a template
    /// expression, as written (the live hub gives it back as it was sent, e.g.
    /// `2018-11-07T16:18:32.6641371-08:00`). An APNs template sends it as each notification's
    /// `apns-expiration` (`TemplateExpiry`); another platform's is kept and read back only. Nil: none.
    public var expiry: String?

    /// A template with no extra tags, headers or expiry unless given.
    public init(body: String, tags: [String] = [], headers: [TemplateHeader] = [], expiry: String? = nil) {
        self.body = body
        self.tags = tags
        self.headers = headers
        self.expiry = expiry
    }
}

/// An installation, as the hub's installation REST API and the SDK's `Installation` class carry it
/// (Citations §4.1, §4.3; NH-REG, NH-REST, NH-DOTNET `Installation.cs`): a client-chosen id,
/// one platform and push channel, tags, named templates, an optional user id and expiry.
public struct Installation: Sendable, Equatable {
    /// The client-chosen id; the installation also carries the tag ``installationTag(_:)`` of it.
    public var installationID: String
    /// The push service its channel belongs to.
    public var platform: RegistrationPlatform
    /// The PNS handle: APNs device token, FCM registration token, WNS channel URI, or a browser's
    /// subscription as ``BrowserPushChannel/pnsHandle`` (its JSON reads and writes the object).
    /// The hub keeps APNs tokens upper-cased, as it does for registrations (NH-REST).
    public var pushChannel: String
    /// The installation's own tags (the implicit `$InstallationId` and `$UserId` tags not included).
    public var tags: [String]
    /// Templates by name; encoded with sorted names.
    public var templates: [String: InstallationTemplate]
    /// The user id; when set, the installation also carries the tag ``userTag(_:)`` of it. Nil: none.
    public var userID: String?
    /// The SDK's `PushVariables`: named strings the installation keeps and gives back (NH-DOTNET
    /// `Installation.cs` and its recordings). PushSim keeps them; it does not use them in sends.
    public var pushVariables: [String: String] = [:]
    /// `yyyy-MM-ddTHH:mm:ssZ`. Nil when written means "the hub's default" (no expiry, or the hub's
    /// time to live); the hub reports ``neverExpires`` for never (NH-REG, NH-DN530747, and the .NET
    /// SDK's recordings for the seven fractional digits).
    public var expirationTime: String?
    /// Set by the hub, never by the client: true once a PNS reported the push channel dead (the
    /// SDK's read-only `PushChannelExpired`, NH-DOTNET). Cleared by a PUT (which rewrites the whole
    /// installation) or a PATCH that changes `/pushChannel`; other PATCHes keep it.
    public var pushChannelExpired: Bool

    /// An installation as a client writes it: no tags, templates, user id or expiry unless given,
    /// and the push channel not expired.
    public init(installationID: String, platform: RegistrationPlatform, pushChannel: String, tags: [String] = [],
                templates: [String: InstallationTemplate] = [:], userID: String? = nil, expirationTime: String? = nil) {
        self.installationID = installationID
        self.platform = platform
        self.pushChannel = pushChannel
        self.tags = tags
        self.templates = templates
        self.userID = userID
        self.expirationTime = expirationTime
        self.pushChannelExpired = false
    }

    /// The `expirationTime` the live hub reads back for an installation that never expires.
    public static let neverExpires = "9999-12-31T23:59:59.9999999Z"

    /// `$InstallationId:{id}`: the tag every installation carries (NH-REG; the braces are part of the tag).
    public static func installationTag(_ id: String) -> String { installationTagPrefix + "{\(id)}" }
    /// What every ``installationTag(_:)`` starts with.
    public static let installationTagPrefix = "$InstallationId:"
    /// `$UserId:{userId}`: the tag an installation with a user id carries (NH-REG).
    public static func userTag(_ userID: String) -> String { "$UserId:{\(userID)}" }
}

/// Why an installation body or patch was refused, in the words of the hub's 400.
public struct InstallationProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    /// A problem worded as `description`.
    public init(_ description: String) { self.description = description }
}

/// The installation JSON of the REST API (NH-REST "Create or overwrite an installation"; field names
/// from NH-DOTNET `Installation.cs`). Written with sorted keys, so output never depends on order.
public enum InstallationJSON {
    /// The body the SDK sends (no `pushChannelExpired`, which only the hub sets).
    public static func encode(_ i: Installation) -> String {
        var members: [(String, JSONValue)] = [
            ("installationId", .string(i.installationID)), ("platform", .string(i.platform.installationPlatform)),
            ("pushChannel", pushChannelJSON(i)), ("tags", .array(i.tags.map { .string($0) })),
        ]
        if !i.templates.isEmpty {
            members.append(("templates", .object(i.templates.keys.sorted().map { ($0, templateObject(i.templates[$0]!, emptyTags: true)) })))
        }
        if !i.pushVariables.isEmpty { members.append(("pushVariables", PushVariables.object(i.pushVariables))) }
        if let u = i.userID { members.append(("userId", .string(u))) }
        if let e = i.expirationTime { members.append(("expirationTime", .string(e))) }
        return JSONValue.object(members).serializedSortedKeys()
    }

    /// The installation as the hub's GET answers it, in the live hub's order (the .NET SDK's
    /// recordings, NH-DOTNET `…Tests/MockData/*Installation*.http`): `installationId`,
    /// `pushChannel`, `pushChannelExpired`, `platform`, `expirationTime` (``Installation/neverExpires``
    /// for never), then `tags`, `pushVariables` (names sorted) and `templates` only when there are
    /// any, then `userId` when set (the recordings never show it together with tags or templates;
    /// PushSim puts it last). A template is `body`, `headers` and `expiry` when it has them, then
    /// `tags` (a template written without any has its name as its tag, as the hub stores it).
    static func hubAnswer(_ i: Installation) -> String {
        var members: [(String, JSONValue)] = [
            ("installationId", .string(i.installationID)), ("pushChannel", pushChannelJSON(i)),
            ("pushChannelExpired", .bool(i.pushChannelExpired)), ("platform", .string(i.platform.installationPlatform)),
        ]
        if let e = i.expirationTime { members.append(("expirationTime", .string(e))) }
        if !i.tags.isEmpty { members.append(("tags", .array(i.tags.map { .string($0) }))) }
        if !i.pushVariables.isEmpty { members.append(("pushVariables", PushVariables.object(i.pushVariables))) }
        if !i.templates.isEmpty {
            members.append(("templates", .object(i.templates.keys.sorted().map { ($0, templateObject(i.templates[$0]!, emptyTags: false)) })))
        }
        if let u = i.userID { members.append(("userId", .string(u))) }
        return JSONValue.object(members).serialized()
    }

    /// The `pushChannel` as written: the handle, or a browser's channel as the object
    /// `{"auth", "endpoint", "p256dh"}` (NH-JS `BrowserPushChannel`; that the hub answers the
    /// object rather than the .NET SDK's string is unconfirmed, Citations §7).
    private static func pushChannelJSON(_ i: Installation) -> JSONValue {
        guard i.platform.handleIsSubscription, let channel = try? BrowserPushChannel(pnsHandle: i.pushChannel) else {
            return .string(i.pushChannel)
        }
        return channel.json
    }

    /// A template as the live hub writes it: `body`, `headers` and `expiry` when it has them, then
    /// `tags`, an empty list too when `emptyTags` (the SDK's body; its keys are sorted anyway).
    private static func templateObject(_ t: InstallationTemplate, emptyTags: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [("body", .string(t.body))]
        if !t.headers.isEmpty { fields.append(("headers", .object(t.headers.map { ($0.name, .string($0.value)) }))) }
        if let e = t.expiry { fields.append(("expiry", .string(e))) }
        if emptyTags || !t.tags.isEmpty { fields.append(("tags", .array(t.tags.map { .string($0) }))) }
        return .object(fields)
    }

    /// A JSON object of strings, names sorted.
    /// Reads a body. `installationId` may be left out (the URL names the installation).
    public static func decode(_ body: [UInt8], id: String) -> Result<Installation, InstallationProblem> {
        guard let json = try? JSONParser.parse(body), json.objectMembers != nil else {
            return .failure(InstallationProblem("The installation must be a JSON object."))
        }
        return decode(json, id: id)
    }

    static func decode(_ json: JSONValue, id: String) -> Result<Installation, InstallationProblem> {
        if let given = json["installationId"], given.stringValue != id {
            return .failure(InstallationProblem("The installationId in the body does not match the one in the URL."))
        }
        guard let platformText = json["platform"]?.stringValue else { return .failure(InstallationProblem("platform is required.")) }
        guard let platform = RegistrationPlatform(installationPlatform: platformText) else {
            return .failure(InstallationProblem("The platform '\(platformText)' is not supported: use apns, fcmV1, wns or browser."))
        }
        let channel: String
        if platform.handleIsSubscription, let given = json["pushChannel"], given != .null {
            do { channel = try BrowserPushChannel(json: given).pnsHandle } catch { return .failure(error) }
        } else {
            guard let text = json["pushChannel"]?.stringValue, !text.isEmpty else {
                return .failure(InstallationProblem("pushChannel is required."))
            }
            channel = text
        }
        var out = Installation(installationID: id, platform: platform, pushChannel: channel)
        do {
            out.tags = try strings(json["tags"], "tags")
            if let templates = json["templates"], templates != .null {
                guard let members = templates.objectMembers else { throw InstallationProblem("templates must be an object of named templates.") }
                for (name, value) in members { out.templates[name] = try template(value, name: name) }
            }
            if let u = json["userId"], u != .null {
                guard let s = u.stringValue else { throw InstallationProblem("userId must be a string.") }
                out.userID = s
            }
            if let v = json["pushVariables"], v != .null {
                guard let variables = PushVariables.strings(v) else { throw InstallationProblem("pushVariables must be an object of strings.") }
                out.pushVariables = variables
            }
            if let e = json["expirationTime"], e != .null {
                guard let s = e.stringValue else { throw InstallationProblem("expirationTime must be a string.") }
                out.expirationTime = s
            }
        } catch let p as InstallationProblem {
            return .failure(p)
        } catch {
            return .failure(InstallationProblem("\(error)"))
        }
        return .success(out)
    }

    /// `{"body": …, "tags": […], "headers": {…}}`.
    static func template(_ value: JSONValue, name: String) throws -> InstallationTemplate {
        guard value.objectMembers != nil, let body = value["body"]?.stringValue else {
            throw InstallationProblem("The template '\(name)' must be an object with a string body.")
        }
        var headers: [TemplateHeader] = []
        if let h = value["headers"], h != .null {
            guard let members = h.objectMembers, members.allSatisfy({ $0.1.stringValue != nil }) else {
                throw InstallationProblem("The headers of template '\(name)' must be an object of strings.")
            }
            headers = members.map { TemplateHeader($0.0, $0.1.stringValue!) }
        }
        var expiry: String?
        if let e = value["expiry"], e != .null {
            guard let s = e.stringValue else { throw InstallationProblem("The expiry of template '\(name)' must be a string.") }
            expiry = s
        }
        return InstallationTemplate(body: body, tags: try strings(value["tags"], "tags of template '\(name)'"), headers: headers, expiry: expiry)
    }

    static func strings(_ value: JSONValue?, _ what: String) throws -> [String] {
        guard let value, value != .null else { return [] }
        guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
            throw InstallationProblem("\(what) must be an array of strings.")
        }
        return list.compactMap(\.stringValue)
    }
}
