import PushSimKernel
import PushSimBackend
import PushSimDevices

/// `device <name> ios|android|windows [user <name>] [client tutorial|recommended] [backend tutorial|hardened|external "<address>"] [os <n>] [firebase]`
extension ScenarioParser.Session {
    /// Declares a device. Its name must be unique and must not be a statement keyword;
    /// `user` and `client` may come in either order, each at most once; the client defaults to `tutorial`.
    mutating func deviceStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write device <name> ios|android|windows [user <name>] [client tutorial|recommended]"
        let name = try t.word("a device name such as bob-iphone", hint: usage)
        try ScenarioParser.checkFreeName(name, t, kind: "device", example: "bob-iphone")
        if let line = declaredLines[name.text] {
            let member = Population.member(name.text).flatMap { m in populations[m.population].map { (m.population, $0.line) } }
            let also = member.map { $0.1 == line ? " as a member of population \"\($0.0)\"" : "" } ?? ""
            throw ScenarioDiagnostic(location: t.location(name),
                                     message: "device \(name.quoted) is already declared on line \(line)\(also)",
                                     hint: member == nil ? "give each device its own name" : "rename the device or the population")
        }
        // A population of the same name is refused where it is declared: device names are known
        // before the first line is read.
        let platform = try t.choice(DevicePlatform.self, what: "platform", plural: "platforms")
        var user: String?
        var client: ClientFlavour?
        var backend: BackendChoice?
        var os: Int?
        var firebase = false
        var seen: [String] = []
        while let option = try t.option(among: ["user", "client", "backend", "os", "firebase"], seen: &seen, in: "device declaration") {
            switch option.text {
            case "user": user = try t.word("a user name such as bob", hint: usage).text
            case "client": client = try t.choice(ClientFlavour.self, what: "client", plural: "clients")
            case "backend": backend = try t.backendChoice()
            case "firebase":
                // The Firebase SDK's APNs relay is an iOS app's: an Android app's FCM token is its handle already.
                guard platform == .ios else {
                    throw ScenarioDiagnostic(location: t.location(option), message: "firebase is for an iOS device: \(platform.rawValue) apps get their FCM or WNS handle directly",
                                             hint: "write firebase after device <name> ios, for an iPhone app with the Firebase Messaging SDK")
                }
                firebase = true
            default:
                os = try t.osVersion()
            }
        }
        try t.finish(hint: "a device declaration may end with user <name>, client tutorial|recommended, backend tutorial|hardened|external \"<address>\", os <version> and firebase")
        declaredLines[name.text] = t.line.number
        var declaration = DeviceDeclaration(name: name.text, platform: platform, user: user,
                                            client: client ?? .tutorial, location: t.location(t.line.tokens[0]),
                                            backend: backend?.flavour, osVersion: os, externalBackend: backend?.external)
        declaration.firebase = firebase
        devices.append(declaration)
    }

    /// `account <user> password <password>`: an account on the hardened backend.
    mutating func accountStatement(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        _ = t.next()
        let usage = "write account <user> password <password>"
        let user = try t.word("a user name after account", hint: usage)
        try t.keyword("password", hint: usage)
        let password = try t.text("a password", hint: usage)
        try t.finish(hint: usage)
        settings.append(.account(user: user.text, password: password.text))
    }
}

extension ScenarioParser {
    /// Refuses `name` for a new device, browser or application server (`kind`) when it is a
    /// statement keyword or a host of the world; `example` is the name the hint suggests.
    static func checkFreeName(_ name: ScenarioToken, _ t: Tokens, kind: String, example: String) throws(ScenarioDiagnostic) {
        // A host's name (`apns`, also a statement word) is refused as a host: the deeper reason.
        if worldHostNames.contains(name.text) {
            throw ScenarioDiagnostic(location: t.location(name),
                                     message: "\(name.quoted) is a host of the world (a push service, the hub or a backend) and cannot name a \(kind)",
                                     hint: "choose another name, e.g. \(example)")
        }
        if statementKeywords.contains(name.text) {
            throw ScenarioDiagnostic(location: t.location(name), message: "\(name.quoted) is a statement keyword and cannot name a \(kind)",
                                     hint: "choose another name, e.g. \(example)")
        }
    }
}
