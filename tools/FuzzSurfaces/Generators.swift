import PushSimKernel
import PushSimNetwork

/// Structure-aware inputs, built from scratch from a ``SeededRandom``: they are mostly well formed,
/// so they get past the first checks that random bytes rarely pass (nesting, numbers at the limits,
/// long operator chains, claims with extreme times). The ``Mutator`` then damages some of them.
enum Generators {
    static let extremeNumbers = ["0", "-0", "1", "-1", "3599", "3600", "3601", "1767225600", "9223372036854775807",
                                 "-9223372036854775808", "9223372036854775808", "99999999999999", "1e308", "1e400",
                                 "-1e-400", "0.5", "1.0", "2147483648", "-2147483649", "18446744073709551615", "1767225600.5"]
    static let words = ["a", "b", "aps", "alert", "body", "title", "data", "token", "message", "iat", "exp", "iss",
                        "kid", "alg", "sub", "aud", "scope", "badge", "sound", "x", "", "é", "😀", "\\u0000", "\\\"", "\\ud800"]

    // MARK: JSON

    /// A JSON text: a random value, sometimes nested thousands deep.
    static func json(_ r: inout SeededRandom) -> [UInt8] {
        if r.int(below: 10) == 0 {   // deep nesting, past the parser's depth limit or just under it
            let depth = r.pick([JSONParser.maxDepth - 1, JSONParser.maxDepth, JSONParser.maxDepth + 1, 5_000, 20_000])!
            let open = r.int(below: 2) == 0 ? "[" : "{\"a\":"
            return Array(String(repeating: open, count: depth).utf8) + Array("1".utf8)
                + Array(String(repeating: open == "[" ? "]" : "}", count: r.int(below: 2) == 0 ? depth : depth / 2).utf8)
        }
        var out: [UInt8] = []
        jsonValue(&r, depth: 6, into: &out)
        return out
    }

    static func jsonValue(_ r: inout SeededRandom, depth: Int, into out: inout [UInt8]) {
        switch r.int(below: depth > 0 ? 9 : 6) {
        case 0: out += Array(r.pick(["null", "true", "false", "nul", "tru"])!.utf8)
        case 1, 2: out += Array(r.pick(extremeNumbers)!.utf8)
        case 3, 4, 5: out += Array("\"\(r.pick(words)!)\"".utf8)
        case 6:
            out.append(UInt8(ascii: "["))
            for i in 0..<r.int(below: 4) {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                jsonValue(&r, depth: depth - 1, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        default:
            out.append(UInt8(ascii: "{"))
            for i in 0..<r.int(below: 5) {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out += Array("\"\(r.pick(words)!)\":".utf8)
                jsonValue(&r, depth: depth - 1, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    // MARK: XML

    /// An XML document: random elements, attributes, entities, CDATA, comments, sometimes deep.
    static func xml(_ r: inout SeededRandom) -> [UInt8] {
        if r.int(below: 10) == 0 {
            let depth = r.pick([XMLDocumentParser.maxDepth - 1, XMLDocumentParser.maxDepth, XMLDocumentParser.maxDepth + 1, 5_000])!
            return Array((String(repeating: "<a>", count: depth) + "x" + String(repeating: "</a>", count: depth)).utf8)
        }
        var out = r.int(below: 2) == 0 ? "<?xml version=\"1.0\" encoding=\"utf-8\"?>" : ""
        xmlElement(&r, depth: 5, into: &out)
        return Array(out.utf8)
    }

    static func xmlElement(_ r: inout SeededRandom, depth: Int, into out: inout String) {
        let name = r.pick(["toast", "visual", "binding", "text", "entry", "content", "Tags", "DeviceToken", "a", "x:y", "é"])!
        out += "<" + name
        for _ in 0..<r.int(below: 3) {
            out += " \(r.pick(["id", "template", "xmlns", "xmlns:i", "type", "launch"])!)=\"\(r.pick(["1", "&amp;", "&#x41;", "&lt;", "\u{301}", ""])!)\""
        }
        if r.int(below: 5) == 0 { out += "/>"; return }
        out += ">"
        for _ in 0..<r.int(below: depth > 0 ? 4 : 1) {
            switch r.int(below: 5) {
            case 0 where depth > 0: xmlElement(&r, depth: depth - 1, into: &out)
            case 1: out += r.pick(["<![CDATA[<x>&]]>", "<!-- c -->", "<?pi x?>", "&#0;", "&#x10FFFF;", "&unknown;"])!
            default: out += r.pick(["Hi", "&amp;", "&#65;", "a,b,c", " ", "\u{301}"])!
            }
        }
        out += "</\(name)>"
    }

    // MARK: Tag expressions

    /// A tag expression: tags joined by `&&` and `||`, negated and parenthesized, sometimes very
    /// long or very deep.
    static func tagExpression(_ r: inout SeededRandom) -> [UInt8] {
        switch r.int(below: 12) {
        case 0: return Array((String(repeating: "!", count: r.pick([19, 20, 21, 2_000, 10_000])!) + "x").utf8)
        case 1:
            let n = r.pick([5, 6, 7, 100, 2_000])!
            return Array((String(repeating: "(", count: n) + "x" + String(repeating: ")", count: n)).utf8)
        case 2: return Array(("x" + String(repeating: r.pick([" && x", " || x", "&&x"])!, count: r.pick([5, 19, 20, 21, 5_000])!)).utf8)
        default:
            var out = ""
            tag(&r, depth: 4, into: &out)
            return Array(out.utf8)
        }
    }

    static func tag(_ r: inout SeededRandom, depth: Int, into out: inout String) {
        switch r.int(below: depth > 0 ? 6 : 2) {
        case 0, 1: out += r.pick(["x", "username:bob", "$InstallationId:{i1}", "$UserId:{u}", "a_b@c.d#e", "é", "1", "tag-" + String(repeating: "a", count: 121)])!
        case 2: out += "!"; tag(&r, depth: depth - 1, into: &out)
        case 3: out += "("; tag(&r, depth: depth - 1, into: &out); out += ")"
        default:
            tag(&r, depth: depth - 1, into: &out)
            out += r.pick([" && ", " || ", "&&", "||", " & ", " | "])!
            tag(&r, depth: depth - 1, into: &out)
        }
    }

    // MARK: Base64 and JWT

    /// Base64 or Base64URL-looking text: alphabet characters, padding in odd places, whitespace.
    static func base64(_ r: inout SeededRandom) -> [UInt8] {
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_"
        var text = r.string(count: r.int(below: 64), from: alphabet)
        for _ in 0..<r.int(below: 3) {
            let at = text.index(text.startIndex, offsetBy: r.int(below: text.count + 1))
            text.insert(contentsOf: r.pick(["=", "==", "===", " ", "\n", "\u{0}", "é"])!, at: at)
        }
        return Array(text.utf8)
    }

    /// A three-part token: random JSON header and claims (times at the 64-bit limits among them),
    /// Base64URL-encoded, with a random signature; sometimes a part missing or extra.
    static func jwt(_ r: inout SeededRandom) -> [UInt8] {
        func number() -> String { r.pick(extremeNumbers)! }
        let header = "{\"alg\":\"\(r.pick(["ES256", "RS256", "none", "HS256", ""])!)\",\"kid\":\"\(r.pick(["PSIMKEY001", "K", ""])!)\"}"
        let claims = "{\"iss\":\"\(r.pick(["PSIMTEAM01", "T", "hub@pushsim-notifyusers.iam.gserviceaccount.com"])!)\","
            + "\"iat\":\(r.int(below: 3) == 0 ? "\"\(number())\"" : number()),\"exp\":\(number())}"
        var parts = [Base64URL.encode(header), Base64URL.encode(claims), Base64URL.encode((0..<r.int(below: 64)).map { _ in UInt8(truncatingIfNeeded: r.next()) })]
        if r.int(below: 6) == 0 { parts.removeLast() }
        if r.int(below: 6) == 0 { parts.append("x") }
        return Array(parts.joined(separator: ".").utf8)
    }
}
