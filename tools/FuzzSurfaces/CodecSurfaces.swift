import PushSimKernel
import PushSimCrypto
import PushSimNetwork
import PushSimHub

/// The codecs every fake reads untrusted text with: JSON, XML, Base64 and Base64URL, JWTs, and
/// the hub's tag expressions. Each surface parses, and what parses is written back and parsed
/// again: a value that does not survive its own round trip is reported as outcome `roundtrip-differs`
/// (not a crash, but a bug to look at).
public enum CodecSurfaces {
    /// JSON text into `JSONParser`: the bodies of FCM sends, APNs payloads, hub installations,
    /// templates' properties, OAuth answers. The real services answer malformed JSON with 400.
    public static let json = FuzzSurface(
        name: "json", summary: "bytes into JSONParser, then serialize and re-parse (FCM/APNs bodies, installations: 400 on bad JSON)",
        corpus: [
            #"{"message":{"token":"t","notification":{"title":"a","body":"b"},"data":{"k":"v"}}}"#,
            #"[1,2.5e10,-3,true,false,null,"\u00e9\ud83d\ude00",{"a":[{}]}]"#, #"{"aps":{"alert":{"title":"T","body":"B"},"badge":3}}"#,
            #"{"installationId":"i1","platform":"apns","pushChannel":"ab","tags":["a","b"],"templates":{"t":{"body":"{\"aps\":{}}"}}}"#,
            #"[{"op":"add","path":"/tags","value":"x"},{"op":"remove","path":"/templates/t"}]"#, "  \"\\\\\\\"\\/\\b\\f\\n\\r\\t\"  ",
        ].map { Array($0.utf8) },
        generate: Generators.json) { bytes in
        let value: JSONValue
        do throws(JSONParseError) { value = try JSONParser.parse(bytes) } catch { return "error:" + errorKind(error.message) }
        let again = try? JSONParser.parse(value.serialized())
        return again == value ? "ok" : "roundtrip-differs"
    }

    /// XML into `XMLDocumentParser`: the hub's Atom registration entries, WNS toast/tile/badge
    /// payloads, template bodies. The real hub answers unreadable XML with 400.
    public static let xml = FuzzSurface(
        name: "xml", summary: "bytes into XMLDocumentParser, then serialize and re-parse (Atom registrations, WNS toasts: 400 on bad XML)",
        corpus: [
            #"<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml"><AppleRegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"><Tags>a,b</Tags><DeviceToken>ABCD</DeviceToken></AppleRegistrationDescription></content></entry>"#,
            #"<toast launch="x"><visual><binding template="ToastText01"><text id="1">Hi &amp; &#x41; <![CDATA[x]]></text></binding></visual></toast>"#,
            #"<badge value="3"/>"#, #"<?xml version="1.0"?><!-- c --><a b='1' c="&quot;">t<b/><?pi d?></a>"#,
        ].map { Array($0.utf8) },
        generate: Generators.xml) { bytes in
        let document: XMLDocument
        do throws(XMLParseError) { document = try XMLDocumentParser.parse(bytes) } catch { return "error:" + errorKind(error.message) }
        let again = try? XMLDocumentParser.parse(document.root.serialized())
        return again?.root == document.root ? "ok" : "roundtrip-differs"
    }

    /// Text into `Base64.decode` and `Base64URL.decode`: SAS keys, JWT parts, FCM data. Decoded
    /// bytes are encoded again and must decode to the same bytes.
    public static let base64 = FuzzSurface(
        name: "base64", summary: "text into Base64/Base64URL decode, then encode and decode again (JWT parts, keys)",
        corpus: ["aGVsbG8gd29ybGQ=", "YWJj", "_-8=", "", "YQ==", "YWI=", "+/+/", "AAAA"].map { Array($0.utf8) },
        generate: Generators.base64) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        func check(_ decoded: [UInt8]?, _ encode: ([UInt8]) -> String, _ decode: (String) -> [UInt8]?) -> String {
            guard let decoded else { return "error" }
            return decode(encode(decoded)) == decoded ? "ok" : "roundtrip-differs"
        }
        return check(Base64.decode(text), Base64.encode, Base64.decode) + "/" + check(Base64URL.decode(text), Base64URL.encode, Base64URL.decode)
    }

    /// The keys the `jwt` surface's corpus is signed with and its inputs are checked against.
    static let jwtKeys = (es256: DerivedKeyMemo.p256Key(derivedFrom: DerivedKeyMemo.sampleAPNsKeySeed),
                          rs256: DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.sampleServiceAccountSeed))

    /// Text into `JSONWebToken.parse`, then the checks APNs (ES256 provider tokens, JOSE or DER
    /// signatures) and Google's OAuth endpoint (RS256 assertions) make, verifying included, and
    /// the calendar arithmetic on its `iat`/`exp`.
    public static let jwt = FuzzSurface(
        name: "jwt", summary: "text into JSONWebToken.parse and the ES256/RS256 checks, iat/exp through CalendarAnchor (APNs 403, OAuth invalid_grant)",
        corpus: [
            Array(JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string("K"))]),
                                    claims: .object([("iss", .string("T")), ("iat", .number(JSONNumber(1_767_225_600)))]),
                                    signingKey: jwtKeys.es256).utf8),
            Array(JSONWebToken.make(header: .object([("alg", .string("RS256"))]),
                                    claims: .object([("iss", .string("a@b")), ("iat", .string("1767225600")),
                                                     ("exp", .number(JSONNumber(9_223_372_036_854_775_807)))]),
                                    signingKey: jwtKeys.rs256).utf8),
        ],
        generate: Generators.jwt, generatorOdds: 2) { bytes in
        guard let jwt = JSONWebToken.parse(String(decoding: bytes, as: UTF8.self)) else { return "unparsed" }
        let anchor = CalendarAnchor()
        for claim in ["iat", "exp", "nbf"] {
            guard let seconds = jwt.claims[claim]?.int64Value ?? jwt.claims[claim]?.stringValue.flatMap({ Int64($0) }) else { continue }
            if KnownCrashes.skip && KnownCrashes.iso8601Traps(unixSeconds: seconds) { return "skipped-known" }
            let t = anchor.virtualTime(unixSeconds: seconds)
            _ = anchor.unixSeconds(t)
            _ = CalendarAnchor.iso8601(unixSeconds: seconds)
        }
        let shaped = ["ES256", "RS256"].filter { jwt.hasSignatureShape(algorithm: $0) }
        let signed = jwt.hasValidES256Signature(by: jwtKeys.es256.publicKey, acceptingDER: true)
            || jwt.hasValidRS256Signature(by: jwtKeys.rs256.publicKey)
        return (shaped.first ?? "refused") + (signed ? "+signed" : "")
    }

    /// The first three words of a parser's message, as an outcome label (the rest often quotes the input).
    static func errorKind(_ message: String) -> String { outcomeLabel(message.split(separator: " ").prefix(3).joined(separator: " ")) }

    /// Text into the hub's `TagExpressionParser` (the `ServiceBusNotification-Tags` header and
    /// tag-targeted scheduled sends). The real hub answers a refused expression with 400.
    public static let tags = FuzzSurface(
        name: "tags", summary: "text into TagExpressionParser (ServiceBusNotification-Tags: 400 when refused)",
        corpus: ["(a && !b) || c", "$InstallationId:{x} || username:bob", "a || b || c", "!a", "a&&b", "((a))"].map { Array($0.utf8) },
        generate: Generators.tagExpression, prefersText: true) { bytes in
        switch TagExpressionParser.parse(String(decoding: bytes, as: UTF8.self)) {
        case .success(let e): return e.usesOnlyOr ? "ok-or" : "ok"
        case .failure(let error): return "refused:" + outcomeLabel(error.message, limit: 24)
        }
    }
}
