import PushSimKernel
import PushSimBackend
import PushSimDevices

/// `device <name> ios|android|windows [user <name>] [client tutorial|recommended]`
extension ScenarioParser.Session {
    /// Declares a device. Its name must be unique and must not be a statement keyword;
    /// `user` and `client` may come in either order, each at most once; the client defaults to `tutorial`.
    mutating func deviceStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write device <name> ios|android|windows [user <name>] [client tutorial|recommended]"
        let name = try t.word("a device name such as bob-iphone", hint: usage)
        if ScenarioParser.statementKeywords.contains(name.text) {
            throw ScenarioDiagnostic(location: t.location(name),
                                     message: "\(name.quoted) is a statement keyword and cannot name a device",
                                     hint: "choose another name, e.g. bob-iphone")
        }
        if let earlier = devices.first(where: { $0.name == name.text }) {
            throw ScenarioDiagnostic(location: t.location(name),
                                     message: "device \(name.quoted) is already declared on line \(earlier.location.line)",
                                     hint: "give each device its own name")
        }
        let platform = try t.choice(DevicePlatform.self, what: "platform", plural: "platforms")
        var user: String?
        var client: ClientFlavour?
        while let option = t.peek, option.isWord("user") || option.isWord("client") {
            _ = t.next()
            if option.text == "user" {
                guard user == nil else { throw twice(option, t) }
                user = try t.word("a user name such as bob", hint: usage).text
            } else {
                guard client == nil else { throw twice(option, t) }
                client = try t.choice(ClientFlavour.self, what: "client", plural: "clients")
            }
        }
        try t.finish(hint: "a device declaration may end with user <name> and client tutorial|recommended")
        devices.append(DeviceDeclaration(name: name.text, platform: platform, user: user,
                                         client: client ?? .tutorial, location: t.location(t.line.tokens[0])))
    }

    private func twice(_ option: ScenarioToken, _ t: ScenarioParser.Tokens) -> ScenarioDiagnostic {
        ScenarioDiagnostic(location: t.location(option), message: "\(option.text) is given twice in one device declaration",
                           hint: "keep one of them")
    }
}
