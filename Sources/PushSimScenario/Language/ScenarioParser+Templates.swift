import PushSimNetwork
import PushSimDevices

/// A part of an installation template that only some push services take (an `apns-*` or
/// `X-WNS-*` header, an expiry), noted where it is written and checked against the device's
/// platform once the whole file is read (a device may be declared after the line that uses it).
struct TemplatePlatformUse {
    enum Part {
        /// `header "<name>" "<value>"`.
        case header(String)
        /// `expiry "<value>"`.
        case expiry
    }

    var device: String
    var part: Part
    var location: SourceLocation
}

/// Installation templates: `template "<name>" body "<body>" [header "<name>" "<value>"]…
/// [expiry "<value>"] [tags <tag>,…]`, the parts after the body in any order.
extension ScenarioParser.Session {
    static let templateUsage = "write template \"<name>\" body \"<body>\" [header \"<name>\" \"<value>\"]… [expiry \"<value>\"] [tags <tag>,…]"

    /// The parts of an installation template after `template`, for `device`'s installation. The
    /// body and the values are the hub's to check (a body or a literal expiry it refuses is its 400
    /// to see); the name may not be empty (the hub's key for the template), a header's name must
    /// be an HTTP field name starting `apns-` or `X-WNS-` and given once, and an expiry and the
    /// tags are given at most once, the expiry not empty (the SDK refuses an empty one before it
    /// sends, NH-DOTNET `AppleTemplateRegistrationDescription.OnValidate`).
    mutating func namedTemplate(_ t: inout ScenarioParser.Tokens, device: String, usage: String) throws(ScenarioDiagnostic) -> NamedTemplate {
        let name = try t.string("the template's name in double quotes, e.g. \"alert\"", hint: usage)
        guard !name.text.isEmpty else { throw ScenarioDiagnostic(location: t.location(name), message: "a template's name cannot be empty", hint: usage) }
        try t.keyword("body", hint: usage)
        let body = try t.string("the template's body in double quotes, e.g. \"{\\\"aps\\\":{\\\"alert\\\":\\\"$(message)\\\"}}\"", hint: usage)
        var template = NamedTemplate(name: name.text, body: body.text)
        var tagsGiven = false
        while let word = t.peek, word.isWord {
            switch word.text {
            case "header":
                _ = t.next()
                template.headers.append(try templateHeader(&t, device: device, given: template.headers))
            case "expiry":
                _ = t.next()
                let hint = "write expiry \"2026-01-01T01:00:00Z\" (a date), expiry \"0\" (try once) or expiry \"$(until)\" (from the send)"
                guard template.expiry == nil else {
                    throw ScenarioDiagnostic(location: t.location(word), message: "the template's expiry is given twice", hint: hint)
                }
                let value = try t.string("the expiry in double quotes: a date, 0 or an expression such as $(until)", hint: hint)
                guard !value.text.isEmpty else {
                    throw ScenarioDiagnostic(location: t.location(value), message: "a template's expiry cannot be empty", hint: hint)
                }
                template.expiry = value.text
                templateUses.append(TemplatePlatformUse(device: device, part: .expiry, location: t.location(word)))
            case "tags":
                _ = t.next()
                guard !tagsGiven else {
                    throw ScenarioDiagnostic(location: t.location(word), message: "the template's tags are given twice",
                                             hint: "list them once, separated by commas: tags en,sports")
                }
                tagsGiven = true
                template.tags = try t.tagList(hint: usage)
            default:
                return template
            }
        }
        return template
    }

    /// `"<name>" "<value>"` after `header` in a template.
    private mutating func templateHeader(_ t: inout ScenarioParser.Tokens, device: String,
                                         given: [SendHeader]) throws(ScenarioDiagnostic) -> SendHeader {
        let prefixes = PushServiceDescriptor.all.compactMap(\.hubHeaderPrefix)
        let usage = "write header \"apns-priority\" \"5\" (an iPhone's template) or header \"X-WNS-Type\" \"wns/raw\" (a PC's)"
        let name = try t.string("the header's name in double quotes, e.g. \"X-WNS-Type\"", hint: usage)
        let nameColumn = name.column + 1
        if let bad = name.text.unicodeScalars.firstIndex(where: { !Self.isFieldNameCharacter($0) }) {
            let offset = name.text.unicodeScalars.distance(from: name.text.unicodeScalars.startIndex, to: bad)
            throw ScenarioDiagnostic(location: t.location(column: nameColumn + offset),
                                     message: "a header's name takes letters, digits and !#$%&'*+-.^_`|~, not \"\(name.text.unicodeScalars[bad])\"",
                                     hint: usage)
        }
        let lower = name.text.lowercased()
        guard prefixes.contains(where: { lower.hasPrefix($0.lowercased()) && lower.count > $0.count }) else {
            throw ScenarioDiagnostic(location: t.location(name),
                                     message: "the hub sends a template's \(prefixes.map { "\($0)*" }.joined(separator: " and ")) headers, not \"\(name.text)\"",
                                     hint: usage)
        }
        guard !given.contains(where: { $0.name.lowercased() == lower }) else {
            throw ScenarioDiagnostic(location: t.location(name), message: "header \"\(name.text)\" is given twice in this template",
                                     hint: "a template's headers are a JSON object: one value per name")
        }
        let value = try t.string("the header's value in double quotes, e.g. \"wns/raw\" or \"$(priority)\"", hint: usage)
        templateUses.append(TemplatePlatformUse(device: device, part: .header(name.text), location: t.location(name)))
        return SendHeader(name.text, value.text)
    }

    /// An HTTP field name's characters (RFC 9110 §5.1, `tchar`).
    private static func isFieldNameCharacter(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(c)
    }

    /// One diagnostic per template header or expiry the device's push service does not take: APNs
    /// takes `apns-*` headers and an expiry, WNS `X-WNS-*` headers, FCM v1 neither (its options are
    /// in the body). A device the file never declares is reported elsewhere.
    func templatePlatformProblems() -> [ScenarioDiagnostic] {
        guard !templateUses.isEmpty else { return [] }
        var platforms: [String: DevicePlatform] = [:]   // looked up only
        for d in devices { platforms[d.name] = d.platform }
        var found: [ScenarioDiagnostic] = []
        for use in templateUses {
            guard let platform = platforms[use.device] else { continue }
            let service = platform.service
            switch use.part {
            case .header(let name):
                guard let prefix = service.hubHeaderPrefix else {
                    found.append(ScenarioDiagnostic(location: use.location, message: "\(use.device)'s template goes to \(service.displayName), "
                                                    + "which takes no template headers",
                                                    hint: "FCM v1 takes its options in the template's body, e.g. \"android\":{\"priority\":\"high\"}"))
                    continue
                }
                if !name.lowercased().hasPrefix(prefix.lowercased()) {
                    found.append(ScenarioDiagnostic(location: use.location, message: "\(use.device)'s template goes to \(service.displayName), "
                                                    + "which takes \(prefix)* headers, not \"\(name)\"",
                                                    hint: "apns-* headers are for ios devices, X-WNS-* headers for windows devices"))
                }
            case .expiry:
                if service != .apns {
                    found.append(ScenarioDiagnostic(location: use.location, message: "\(use.device)'s template goes to \(service.displayName): "
                                                    + "an expiry is for APNs templates only",
                                                    hint: "WNS takes header \"X-WNS-TTL\" \"<seconds>\"; FCM v1 a ttl in the template's body"))
                }
            }
        }
        return found
    }
}
