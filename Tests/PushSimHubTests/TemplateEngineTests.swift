import PushSimNetwork
@testable import PushSimHub
import Testing

/// The template expression language and the JSON/XML renderer (Citations §4.5, NH-TPL;
/// grammar from NH-DOTNET `ExpressionEvaluator.cs`).
@Suite("Template engine")
struct TemplateEngineTests {
    private let props = TemplateProperties([("message", "Hello"), ("title", "This is the title line"), ("badge", "40"),
                                            ("user", "Al \"the\" <b>&</b> \\ x"), ("q", "a b&c/é"), ("Name", "Ann"), ("name", "ignored")])

    private func value(_ expression: String, _ p: TemplateProperties? = nil) -> String? {
        guard case .success(let e) = TemplateExpression.parse(expression) else { return nil }
        return e.evaluate(p ?? props)
    }

    private func json(_ template: String, _ p: TemplateProperties? = nil) -> String? {
        guard case .success(let t) = CompiledTemplate.compile(template, format: .json) else { return nil }
        return t.render(p ?? props)
    }

    private func xml(_ template: String) -> String? {
        guard case .success(let t) = CompiledTemplate.compile(template, format: .xml) else { return nil }
        return t.render(props)
    }

    private func problem(_ template: String, _ format: CompiledTemplate.Format = .json) -> String? {
        guard case .failure(let e) = CompiledTemplate.compile(template, format: format) else { return nil }
        return e.description
    }

    // MARK: Each form

    @Test func dollarIsThePropertyAndMissingIsEmpty() {
        #expect(value("$(message)") == "Hello")
        #expect(value("$(nothing)") == "")
        #expect(value("$( message )") == "Hello")
    }

    @Test func propertyNamesIgnoreCaseAndTheFirstOfTwoWins() {
        #expect(value("$(MESSAGE)") == "Hello")
        #expect(value("$(name)") == "Ann")
    }

    @Test func dollarWithLengthClips() {
        #expect(value("$(title, 7)") == "This is")
        #expect(value("$(message, 20)") == "Hello")
        #expect(value("$(message, 0)") == "")
    }

    @Test func dotClipsWithThreeDotsInsideTheLimit() {
        // The example of NH-TPL: 20 characters at most, dots included.
        #expect(value(".(title, 20)") == "This is the title...")
        #expect(value(".(title, 20)")?.count == 20)
        #expect(value(".(message, 5)") == "Hello")   // not clipped: no dots
        #expect(value(".(message, 2)") == "..")
    }

    @Test func percentURIEncodes() {
        #expect(value("%(q)") == "a%20b%26c%2F%C3%A9")
    }

    @Test func literalsAndConcatenation() {
        #expect(value("{'From ' + $(Name) + \": \" + $(message)}") == "From Ann: Hello")
        #expect(value("{'it''s'}") == "it's")
        #expect(value("$(message) + '!'") == "Hello!")
        #expect(value("plain text $(message)") == "plain text $(message)") // not an expression: a literal
    }

    @Test func defaultsStandInForMissingProperties() {
        #expect(value("$(nothing:{fallback, with comma})") == "fallback, with comma")
        #expect(value("$(message:{unused})") == "Hello")
    }

    @Test func hashIsABareNumberOnlyWhenWholeAndNumeric() {
        #expect(json(##"{"aps":{"badge":"#(badge)"}}"##) == ##"{"aps":{"badge":40}}"##)
        #expect(json(##"{"n":"#(x)"}"##, TemplateProperties([("x", "1.5e3")])) == ##"{"n":1.5e3}"##)
        #expect(json(##"{"n":"#(x)"}"##, TemplateProperties([("x", "-1")])) == ##"{"n":"-1"}"##)   // no sign in the regex
        #expect(json(##"{"n":"#(x)"}"##, TemplateProperties([("x", "forty")])) == ##"{"n":"forty"}"##)
        #expect(json(##"{"n":"#(missing)"}"##) == ##"{"n":""}"##)
        #expect(json(##"{"n":"{#(badge)}"}"##) == ##"{"n":"40"}"##)   // inside { } it stays a string
        #expect(CompiledTemplate.isJSONNumber("0") && CompiledTemplate.isJSONNumber("10.25E-2"))
        #expect(!CompiledTemplate.isJSONNumber("01") && !CompiledTemplate.isJSONNumber("1.") && !CompiledTemplate.isJSONNumber(""))
    }

    // MARK: Escaping and placement

    @Test func jsonValuesAreEscaped() throws {
        let out = try #require(json(#"{"aps":{"alert":"{'From ' + $(user)}"}}"#))
        #expect(out == #"{"aps":{"alert":"From Al \"the\" <b>&</b> \\ x"}}"#)
        let parsed = try JSONParser.parse(out)
        #expect(parsed["aps"]?["alert"]?.stringValue == "From Al \"the\" <b>&</b> \\ x")
    }

    @Test func xmlTextAndAttributesAreEscaped() throws {
        let template = #"<toast launch="$(user)"><visual><binding template="ToastGeneric"><text>{'From ' + $(user)}</text></binding></visual></toast>"#
        let out = try #require(xml(template))
        #expect(out.contains(#"launch="Al &quot;the&quot; &lt;b&gt;&amp;&lt;/b&gt; \ x""#))
        #expect(out.contains("<text>From Al \"the\" &lt;b&gt;&amp;&lt;/b&gt; \\ x</text>"))
        let doc = try XMLDocumentParser.parse(out)
        #expect(doc.root.attribute("launch") == "Al \"the\" <b>&</b> \\ x")
    }

    @Test func onlyStringValuesAndLeafTextAreExpressions() {
        #expect(json(#"{"a":1,"b":[true,null,"$(message)"],"c":"$(message)"}"#) == #"{"a":1,"b":[true,null,"Hello"],"c":"Hello"}"#)
        #expect(problem(#"{"$(message)":"x"}"#)?.contains("expressions are allowed only in string values") == true)
        // Text beside child elements is not a leaf's text: left alone.
        #expect(xml("<a>$(message)<b>$(message)</b></a>") == "<a>$(message)<b>Hello</b></a>")
    }

    // MARK: Refusals

    @Test(arguments: [
        (#"{"a":"$(message"}"#, "no closing ')'"),
        (#"{"a":"$message"}"#, "must be followed by '('"),
        (#"{"a":".(title)"}"#, ".( ) needs a length"),
        (#"{"a":"%(q, 3)"}"#, "%( ) takes no length"),
        (##"{"a":"#(badge, 2)"}"##, "#( ) takes no length"),
        (#"{"a":"$(title, -1)"}"#, "is not a non-negative integer"),
        (#"{"a":"$(bad-name)"}"#, "is not a property name"),
        (#"{"a":"{$(message)"}"#, "no closing '}'"),
        (#"{"a":"{$(message) $(title)}"}"#, "expected '+'"),
        (#"{"a":"{'open}"}"#, "the literal has no closing"),
        (##"{"a":"{#(badge) + 'x'}"}"##, "concatenates #( )"),
        (#"{"a":"$body"}"#, "$body is not supported"),
        ("not json", "not valid JSON"),
    ])
    func malformedTemplatesAreRefused(template: String, expected: String) {
        let why = problem(template)
        #expect(why?.contains(expected) == true, "\(why ?? "accepted")")
    }

    @Test func malformedXMLIsRefused() {
        #expect(problem("<toast><binding $(x)></toast>", .xml)?.contains("not well-formed XML") == true)
        #expect(problem(#"<toast a="$(x"/>"#, .xml)?.contains("no closing ')'") == true)
    }
}
