import PushSimNetwork

/// A template body checked once, when its registration or installation is written, and rendered
/// for each template send (Citations §4.5, NH-TPL).
///
/// - Templates are JSON (APNs, FCM v1) or XML (WNS) documents (NH-TPL "Templates are limited to
///   XML or JSON document formats"). A body that does not parse, or holds a malformed expression,
///   is refused with a 400 when it is registered, never at send time.
/// - Expressions may stand only in JSON string values, XML attribute values and the text of XML
///   elements without child elements (NH-TPL; NH-DOTNET `WindowsTemplateRegistrationDescription`
///   validates leaf text and attributes). An expression in a JSON key is refused.
/// - Substituted values are escaped for the target format: the rendered document is written by
///   PushSim's JSON and XML writers, so a quote, backslash, `<` or `&` in a property can never
///   break the payload or inject markup (the fix for the tutorial's hand-built payloads, §5.2 d).
///   The rendered JSON is compact (whitespace of the template is not kept); the rendered XML has
///   no declaration.
/// - A whole-value `#(prop)` whose value is a JSON number (`0|[1-9][0-9]*`, optional fraction
///   and exponent, no sign: the regex NH-TPL gives) is written as a bare number; otherwise as a string.
package struct CompiledTemplate: Sendable, Equatable {
    /// JSON bodies (APNs, FCM v1) or XML bodies (WNS).
    public enum Format: String, Sendable { case json, xml }

    /// The body as registered.
    public let source: String
    /// How the body is read and rendered.
    public let format: Format
    private let root: Node

    indirect enum Node: Sendable, Equatable {
        case fixed(JSONValue)
        case string(TemplateExpression)
        case array([Node])
        case object([Member])
        case element(name: String, attributes: [Attribute], children: [Node])
        case text(TemplateExpression)
    }
    struct Member: Sendable, Equatable { var key: String; var value: Node }
    struct Attribute: Sendable, Equatable { var name: String; var value: TemplateExpression }

    /// Parses and checks `source` as a `format` document.
    public static func compile(_ source: String, format: Format) -> Result<CompiledTemplate, TemplateError> {
        do {
            switch format {
            case .json:
                guard let json = try? JSONParser.parse(source) else { throw TemplateError("the template is not valid JSON") }
                return .success(CompiledTemplate(source: source, format: format, root: try compileJSON(json)))
            case .xml:
                guard let doc = try? XMLDocumentParser.parse(source) else { throw TemplateError("the template is not well-formed XML") }
                return .success(CompiledTemplate(source: source, format: format, root: try compileXML(doc.root)))
            }
        } catch let e as TemplateError {
            return .failure(e)
        } catch {
            return .failure(TemplateError("\(error)"))
        }
    }

    /// The document filled in with `properties`.
    public func render(_ properties: TemplateProperties) -> String {
        switch root {
        case .element: return Self.renderXML(root, properties).serialized()
        default: return Self.renderJSON(root, properties).serialized()
        }
    }

    /// The JSON root when the template is JSON (for checks such as "has a `message` object").
    var jsonRootKeys: [String]? { if case .object(let m) = root { return m.map(\.key) } else { return nil } }

    /// The XML root element's name when the template is XML.
    var xmlRootName: String? { if case .element(let name, _, _) = root { return name } else { return nil } }

    // MARK: JSON

    private static func compileJSON(_ v: JSONValue) throws -> Node {
        switch v {
        case .string(let s):
            let e = try parseExpression(s)
            if case .literal = e { return .fixed(v) }
            return .string(e)
        case .array(let items): return .array(try items.map(compileJSON))
        case .object(let members):
            return .object(try members.map { key, value in
                if let first = key.first, "$.%#{".contains(first), case .success(let e) = TemplateExpression.parse(key), e != .literal(key) {
                    throw TemplateError("the key '\(key)' holds an expression; expressions are allowed only in string values")
                }
                return Member(key: key, value: try compileJSON(value))
            })
        default: return .fixed(v)
        }
    }

    private static func renderJSON(_ node: Node, _ p: TemplateProperties) -> JSONValue {
        switch node {
        case .fixed(let v): return v
        case .string(let e):
            let value = e.evaluate(p)
            return e.isNumeric && isJSONNumber(value) ? .number(JSONNumber(text: value)) : .string(value)
        case .array(let items): return .array(items.map { renderJSON($0, p) })
        case .object(let members): return .object(members.map { ($0.key, renderJSON($0.value, p)) })
        case .element, .text: return .null
        }
    }

    /// `(0|[1-9][0-9]*)(\.[0-9]+)?((e|E)(+|-)?[0-9]+)?` (NH-TPL), matched by hand.
    static func isJSONNumber(_ s: String) -> Bool {
        var u = Array(s.utf8)[...]
        func digits() -> Int { let n = u.prefix(while: { $0 >= 48 && $0 <= 57 }).count; u = u.dropFirst(n); return n }
        guard let first = u.first, first >= 48, first <= 57 else { return false }
        if first == 48 { u = u.dropFirst() } else { _ = digits() }
        if u.first == UInt8(ascii: ".") { u = u.dropFirst(); guard digits() > 0 else { return false } }
        if u.first == UInt8(ascii: "e") || u.first == UInt8(ascii: "E") {
            u = u.dropFirst()
            if u.first == UInt8(ascii: "+") || u.first == UInt8(ascii: "-") { u = u.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return u.isEmpty
    }

    // MARK: XML

    private static func compileXML(_ e: XMLElement) throws -> Node {
        let attributes = try e.attributes.map { a in
            Attribute(name: a.name, value: try parseExpression(a.value))
        }
        let leaf = e.elements.isEmpty
        let children: [Node] = try e.children.map { child in
            switch child {
            case .element(let c): return try compileXML(c)
            case .text(let t): return .text(leaf ? try parseExpression(t) : .literal(t))
            }
        }
        return .element(name: e.name, attributes: attributes, children: children)
    }

    private static func renderXML(_ node: Node, _ p: TemplateProperties) -> XMLElement {
        guard case .element(let name, let attributes, let children) = node else { return XMLElement(name: "invalid") }
        return XMLElement(name: name, attributes: attributes.map { (name: $0.name, value: $0.value.evaluate(p)) },
                          children: children.map { child in
                              if case .text(let e) = child { return .text(e.evaluate(p)) }
                              return .element(renderXML(child, p))
                          })
    }

    // MARK: Shared

    private static func parseExpression(_ text: String) throws -> TemplateExpression {
        switch TemplateExpression.parse(text) {
        case .success(let e): return e
        case .failure(let why): throw why
        }
    }
}
