import PushSimNetwork

/// A registration's or an installation's push variables: named strings the client attaches
/// (the SDK's `RegistrationDescription.PushVariables` and `Installation.PushVariables`, NH-DOTNET).
///
/// A registration carries them in its description as `<PushVariables>`, a JSON object of strings
/// (the SDK writes the dictionary with `JsonConvert.SerializeObject` and reads it back as
/// `Dictionary<string, string>`), after `Tags`; an installation as its `pushVariables` member. The
/// live hub gives them back so (`<PushVariables>{"var1":"value1"}</PushVariables>` in the .NET
/// SDK's recordings, NH-DOTNET `…Tests/MockData/*.http`). PushSim keeps and gives them back; how
/// the live hub uses them in sends is not documented, and PushSim does not.
enum PushVariables {
    /// The variables as the description's `<PushVariables>` text: a compact JSON object, names
    /// sorted (so the bytes never depend on a dictionary's order).
    static func json(_ variables: [String: String]) -> String {
        object(variables).serialized()
    }

    /// The variables as a JSON object, names sorted.
    static func object(_ variables: [String: String]) -> JSONValue {
        .object(variables.keys.sorted().map { ($0, .string(variables[$0]!)) })
    }

    /// Reads a `<PushVariables>` text: a JSON object whose members are strings. Nil for anything
    /// else (the SDK could not read it back as a dictionary of strings either). An empty text is
    /// no variables.
    static func parse(_ text: String) -> [String: String]? {
        guard !text.isEmpty else { return [:] }
        return (try? JSONParser.parse(Array(text.utf8))).flatMap(strings)
    }

    /// The variables in a JSON value (a `<PushVariables>` text's or an installation's
    /// `pushVariables` member): an object whose members are strings; nil for anything else.
    static func strings(_ value: JSONValue) -> [String: String]? {
        guard let members = value.objectMembers else { return nil }
        var out: [String: String] = [:]
        for (name, value) in members {
            guard let s = value.stringValue else { return nil }
            out[name] = s
        }
        return out
    }
}
