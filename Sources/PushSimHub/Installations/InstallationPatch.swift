import PushSimNetwork

/// One operation of an installation PATCH: a JSON Patch (RFC 6902) `{op, path, value}` as the hub
/// accepts it, sent as `application/json-patch+json` (Citations §4.3; NH-REST, NH-REG; the
/// SDK's `PartialUpdateOperation`).
///
/// Only `add`, `remove` and `replace` exist, on these paths (anything else is a 400):
///
/// | path | add | replace | remove |
/// |---|---|---|---|
/// | `/pushChannel` | set (string) | set | refused: an installation needs a channel |
/// | `/tags` | add one tag (string) or several (array) | set all (array or string) | remove all |
/// | `/tags/{tag}` | – | – | remove that tag (absent: nothing happens) |
/// | `/userId` | set (string) | set | clear |
/// | `/templates/{name}` | set (template object, or a string holding its JSON) | set | remove (absent: nothing happens) |
/// | `/templates/{name}/tags` | add one or several | set all | remove all |
/// | `/expirationTime` | set (string) | set | back to the hub's default |
///
/// Path segments are JSON Pointer tokens: `~1` stands for `/` and `~0` for `~`. The operations of
/// one PATCH are applied in order, all or none. Both of Microsoft's SDKs type an operation's value
/// as a string (`PartialUpdateOperation.Value`), so a template travels as a string holding its
/// JSON, as the Java SDK's end-to-end test patches a live hub (NH-JAVA `InstallationCrudsE2E`).
public struct InstallationPatchOperation: Sendable, Equatable {
    /// The JSON Patch operations the hub accepts.
    public enum Op: String, Sendable { case add, remove, replace }
    /// What to do.
    public var op: Op
    /// Where, as a JSON Pointer (see the table above).
    public var path: String
    /// The new value; nil for `remove`.
    public var value: JSONValue?

    /// An operation; `value` defaults to none, as `remove` needs.
    public init(_ op: Op, _ path: String, _ value: JSONValue? = nil) {
        self.op = op
        self.path = path
        self.value = value
    }

    /// `{"op": …, "path": …, "value": …}`.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("op", .string(op.rawValue)), ("path", .string(path))]
        if let value { members.append(("value", value)) }
        return .object(members)
    }

    /// The request body for a list of operations.
    public static func body(_ operations: [InstallationPatchOperation]) -> String {
        JSONValue.array(operations.map(\.json)).serialized()
    }

    /// Reads a PATCH body: a JSON array of operations.
    public static func parse(_ body: [UInt8]) -> Result<[InstallationPatchOperation], InstallationProblem> {
        guard let list = (try? JSONParser.parse(body))?.arrayValue else {
            return .failure(InstallationProblem("The patch must be a JSON array of operations."))
        }
        var out: [InstallationPatchOperation] = []
        for item in list {
            guard let opText = item["op"]?.stringValue, let path = item["path"]?.stringValue else {
                return .failure(InstallationProblem("Each patch operation needs a string op and path."))
            }
            guard let op = Op(rawValue: opText) else {
                return .failure(InstallationProblem("The patch operation '\(opText)' is not supported: use add, remove or replace."))
            }
            out.append(InstallationPatchOperation(op, path, item["value"]))
        }
        return .success(out)
    }

    /// Applies `operations` to `installation`, in order.
    public static func apply(_ operations: [InstallationPatchOperation], to installation: Installation)
        -> Result<Installation, InstallationProblem> {
        var i = installation
        do {
            for o in operations { try o.apply(to: &i) }
        } catch let p as InstallationProblem {
            return .failure(p)
        } catch {
            return .failure(InstallationProblem("\(error)"))
        }
        return .success(i)
    }

    private func apply(to i: inout Installation) throws {
        guard path.hasPrefix("/") else { throw bad("is not a JSON Pointer") }
        let tokens = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).replacing("~1", with: "/").replacing("~0", with: "~") }
        switch (op, tokens.first ?? "", tokens.count) {
        case (.remove, "pushChannel", 1): throw InstallationProblem("The pushChannel of an installation cannot be removed.")
        case (_, "pushChannel", 1) where i.platform.handleIsSubscription:
            // A browser's channel: the object or a string holding it (``BrowserPushChannel``).
            guard let value else { throw bad("needs a push channel as value") }
            i.pushChannel = try BrowserPushChannel(json: value).pnsHandle
        case (_, "pushChannel", 1): i.pushChannel = try string()
        case (.remove, "tags", 1): i.tags = []
        case (.add, "tags", 1): for t in try stringOrList() where !i.tags.contains(t) { i.tags.append(t) }
        case (.replace, "tags", 1): i.tags = try stringOrList()
        case (.remove, "tags", 2): i.tags.removeAll { $0 == tokens[1] }
        case (.remove, "userId", 1): i.userID = nil
        case (_, "userId", 1): i.userID = try string()
        case (.remove, "expirationTime", 1): i.expirationTime = nil
        case (_, "expirationTime", 1): i.expirationTime = try string()
        case (.remove, "templates", 2): i.templates[tokens[1]] = nil
        case (_, "templates", 2):
            guard let value else { throw bad("needs a template object as value") }
            // A string holding the template's JSON, as the SDKs send it, or the object itself.
            let template = value.stringValue.flatMap { try? JSONParser.parse(Array($0.utf8)) } ?? value
            i.templates[tokens[1]] = try InstallationJSON.template(template, name: tokens[1])
        case (_, "templates", 3) where tokens[2] == "tags":
            guard var t = i.templates[tokens[1]] else { throw InstallationProblem("The installation has no template '\(tokens[1])'.") }
            switch op {
            case .remove: t.tags = []
            case .add: for tag in try stringOrList() where !t.tags.contains(tag) { t.tags.append(tag) }
            case .replace: t.tags = try stringOrList()
            }
            i.templates[tokens[1]] = t
        default:
            throw InstallationProblem("The patch operation '\(op.rawValue)' on '\(path)' is not supported.")
        }
    }

    private func bad(_ why: String) -> InstallationProblem { InstallationProblem("The path '\(path)' \(why).") }

    private func string() throws -> String {
        guard let s = value?.stringValue else { throw InstallationProblem("The value for '\(path)' must be a string.") }
        return s
    }

    private func stringOrList() throws -> [String] {
        if let s = value?.stringValue { return [s] }
        guard let list = value?.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
            throw InstallationProblem("The value for '\(path)' must be a string or an array of strings.")
        }
        return list.compactMap(\.stringValue)
    }
}
