import PushSimNetwork

/// A header sent with a template's notification: WNS headers such as `X-WNS-Type` for Windows
/// templates (NH-REG: "for Windows Store … an additional set of headers can be part of the
/// template"). The value may be a template expression (NH-DOTNET validates header values with
/// the same `ExpressionEvaluator`).
public struct TemplateHeader: Sendable, Equatable {
    /// The header's name, e.g. `X-WNS-Type`.
    public var name: String
    /// A literal value or a template expression.
    public var value: String
    /// A header `name: value`.
    public init(_ name: String, _ value: String) { self.name = name; self.value = value }
}

/// The template of a template registration: the fields the SDK's `AppleTemplateRegistrationDescription`,
/// `FcmV1TemplateRegistrationDescription` and `WindowsTemplateRegistrationDescription` add to a
/// native description (`BodyTemplate`, `Expiry`, `TemplateName`, `WnsHeaders`; NH-DOTNET).
public struct RegistrationTemplate: Sendable, Equatable {
    /// JSON for APNs and FCM v1 (the FCM v1 body is `{"message":{…}}` without a token), XML for WNS.
    public var bodyTemplate: String
    /// The `TemplateName`; nil: unnamed.
    public var templateName: String?
    /// Windows only; `X-WNS-Type` may be left out for `toast`, `tile` and `badge` bodies.
    public var wnsHeaders: [TemplateHeader]
    /// Apple only: the SDK's `Expiry`, as written (the live hub gives it back so, e.g.
    /// `2019-05-14T20:11:57.6477694+03:00`): a date, `0` or a template expression, sent to APNs
    /// as each notification's `apns-expiration` (see `TemplateExpiry`). Nil: none.
    public var expiry: String?
    /// Apple only: the SDK's `ApnsHeaders`, sent with each notification the template makes, their
    /// values template expressions like WNS headers'. Each name starts with `apns-`; a literal
    /// `apns-priority` is a byte and a literal `apns-expiration` an integer, as the SDK's
    /// `AppleTemplateRegistrationDescription.OnValidate` checks (NH-DOTNET).
    public var apnsHeaders: [TemplateHeader]

    /// A template, unnamed and without headers or expiry unless given.
    public init(bodyTemplate: String, templateName: String? = nil, wnsHeaders: [TemplateHeader] = [], expiry: String? = nil,
                apnsHeaders: [TemplateHeader] = []) {
        self.bodyTemplate = bodyTemplate
        self.templateName = templateName
        self.wnsHeaders = wnsHeaders
        self.expiry = expiry
        self.apnsHeaders = apnsHeaders
    }

    /// The headers the template's platform sends with it: `apnsHeaders` for Apple, `wnsHeaders`
    /// otherwise (only Windows has any).
    func headers(for platform: RegistrationPlatform) -> [TemplateHeader] { platform == .apple ? apnsHeaders : wnsHeaders }

    /// Why the hub refuses these `ApnsHeaders`, in the SDK's terms, or nil (see ``apnsHeaders``).
    static func apnsHeaderProblem(_ headers: [TemplateHeader]) -> String? {
        for h in headers {
            guard h.name.hasBytePrefixIgnoringASCIICase("apns-") else { return "The ApnsHeader '\(h.name)' is not an APNs header (apns-…)." }
            guard case .success(let e) = TemplateExpression.parse(h.value), case .literal = e else { continue }
            if h.name.sameBytesIgnoringASCIICase(as: "apns-priority"), UInt8(h.value) == nil {
                return "The ApnsHeader apns-priority must be a number from 0 to 255."
            }
            if h.name.sameBytesIgnoringASCIICase(as: "apns-expiration"), Int32(h.value) == nil {
                return "The ApnsHeader apns-expiration must be an integer."
            }
        }
        return nil
    }
}

/// A template as the hub keeps it: compiled, checked for its platform, ready to render.
struct HubTemplate: Sendable, Equatable {
    var name: String?
    /// The `expiry` it was written with, as written (read back); nil: none.
    var expiry: String? = nil
    /// Apple only: the expiry compiled, sent as each copy's `apns-expiration`; nil: none (or
    /// another platform, whose template keeps its expiry only to give it back).
    var apnsExpiry: TemplateExpiry? = nil
    var compiled: CompiledTemplate
    var headers: [Header]
    /// Installation templates only: tags that apply to this template in addition to the
    /// installation's own (NH-REG).
    var tags: [String]

    struct Header: Sendable, Equatable { var name: String; var value: TemplateExpression; var source: String }

    /// Checks `body` for `platform` by its ``TemplateBodyRule``: APNs needs a JSON object, FCM v1
    /// a JSON object with a `message` member, WNS an XML document whose `X-WNS-Type` is given or
    /// follows from its root (`toast`, `tile`, `badge`, as the SDK's `WindowsNotification` infers
    /// it, NH-DOTNET).
    ///
    /// An Apple template's `ApnsHeaders` are checked as the SDK checks them
    /// (``RegistrationTemplate/apnsHeaderProblem(_:)``) and its expiry as ``TemplateExpiry``
    /// reads it; another platform's expiry is kept as written.
    ///
    /// `jsonForWNS`: an installation's Windows template may have a JSON body when its headers give
    /// `X-WNS-Type`. The .NET SDK's recording of a live hub shows one taken and read back (a
    /// `{"aps":…}` body with `X-WNS-Type: wns/toast`, `CreateOrUpdateInstallationAsync_CreateInstallationWithHeadersInTemplate…`,
    /// NH-DOTNET); WNS then judges the body of each send. A registration's Windows template must be
    /// XML, as the SDK checks before it sends one.
    static func make(platform: RegistrationPlatform, body: String, name: String?, headers: [TemplateHeader],
                     tags: [String] = [], expiry: String? = nil, jsonForWNS: Bool = false) -> Result<HubTemplate, TemplateError> {
        let traits = platform.traits
        var apnsExpiry: TemplateExpiry?
        if platform == .apple {
            if let problem = RegistrationTemplate.apnsHeaderProblem(headers) { return .failure(TemplateError(problem)) }
            if let expiry {
                switch TemplateExpiry.compile(expiry) {
                case .failure(let e): return .failure(e)
                case .success(let compiled): apnsExpiry = compiled
                }
            }
        }
        let format: CompiledTemplate.Format = traits.templateBody == .xmlWithWNSType ? .xml : .json
        let typed = headers.contains { sameFieldName($0.name, "X-WNS-Type") }
        let compiled: CompiledTemplate
        switch CompiledTemplate.compile(body, format: format) {
        case .failure(let e):
            guard format == .xml, jsonForWNS, typed, case .success(let c) = CompiledTemplate.compile(body, format: .json) else {
                return .failure(e)
            }
            compiled = c
        case .success(let c): compiled = c
        }
        var checked: [Header] = []
        for h in headers {
            switch TemplateExpression.parse(h.value) {
            case .failure(let e): return .failure(e)
            case .success(let e): checked.append(Header(name: h.name, value: e, source: h.value))
            }
        }
        switch traits.templateBody {
        case .jsonObject:
            guard compiled.jsonRootKeys != nil else { return .failure(TemplateError("\(traits.templateNoun) must be a JSON object")) }
        case .jsonMessageObject:
            guard compiled.jsonRootKeys?.contains("message") == true else {
                return .failure(TemplateError("\(traits.templateNoun) must be a JSON object with a \"message\" object"))
            }
        case .xmlWithWNSType:
            if !typed {
                guard let root = compiled.xmlRootName, ["toast", "tile", "badge"].contains(root) else {
                    return .failure(TemplateError("\(traits.templateNoun) needs an X-WNS-Type header unless its root is toast, tile or badge"))
                }
                checked.insert(Header(name: "X-WNS-Type", value: .literal("wns/\(root)"), source: "wns/\(root)"), at: 0)
            }
        case .retired:
            return .failure(TemplateError("\(platform.rawValue) is retired"))
        }
        return .success(HubTemplate(name: name, expiry: expiry, apnsExpiry: apnsExpiry, compiled: compiled, headers: checked, tags: tags))
    }

    /// The payload and headers for one send: the template's headers rendered, then an Apple
    /// template's `apns-expiration` from its expiry unless its headers give one; the copy is
    /// dropped when the expiry renders as no date (``TemplateExpiry``).
    func render(_ properties: TemplateProperties) -> Result<(body: [UInt8], headers: [(String, String)]), PNSRequestProblem> {
        var rendered = headers.map { ($0.name, $0.value.evaluate(properties)) }
        if let apnsExpiry, !rendered.contains(where: { sameFieldName($0.0, "apns-expiration") }) {
            switch apnsExpiry.apnsExpiration(properties) {
            case .failure(let problem): return .failure(problem)
            case .success(let seconds): rendered.append(("apns-expiration", seconds))
            }
        }
        return .success((Array(compiled.render(properties).utf8), rendered))
    }

    /// The headers as registered (for reading a registration or installation back).
    var sourceHeaders: [TemplateHeader] { headers.map { TemplateHeader($0.name, $0.source) } }
}
