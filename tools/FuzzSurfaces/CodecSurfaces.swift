import PushSimKernel
import PushSimNetwork
import PushSimHub

/// The codecs every fake reads untrusted text with: JSON, XML, Base64 and Base64URL, JWTs, and
/// the hub's tag expressions.
public enum CodecSurfaces {
    public static var all: [FuzzSurface] { [json, xml, base64, jwt, tags] }

    public static let json = FuzzSurface(name: "json", corpus: [
        #"{"message":{"token":"t","notification":{"title":"a","body":"b"},"data":{"k":"v"}}}"#,
        #"[1,2.5e10,-3,true,false,null,"\u00e9\ud83d\ude00",{"a":[{}]}]"#, #"{"aps":{"alert":{"title":"T","body":"B"},"badge":3}}"#,
    ].map { Array($0.utf8) }) { bytes in
        (try? JSONParser.parse(bytes)).map { _ in "ok" } ?? "error"
    }

    public static let xml = FuzzSurface(name: "xml", corpus: [
        #"<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml"><AppleRegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"><Tags>a,b</Tags><DeviceToken>ABCD</DeviceToken></AppleRegistrationDescription></content></entry>"#,
        #"<toast><visual><binding template="ToastText01"><text id="1">Hi &amp; &#x41; <![CDATA[x]]></text></binding></visual></toast>"#,
    ].map { Array($0.utf8) }) { bytes in
        (try? XMLDocumentParser.parse(bytes)).map { _ in "ok" } ?? "error"
    }

    public static let base64 = FuzzSurface(name: "base64", corpus: ["aGVsbG8gd29ybGQ=", "YWJj", "_-8=", ""].map { Array($0.utf8) }) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        return "\(Base64.decode(text) == nil ? "error" : "ok")/\(Base64URL.decode(text) == nil ? "error" : "ok")"
    }

    public static let jwt = FuzzSurface(name: "jwt", corpus: [
        Array(JSONWebToken.make(header: .object([("alg", .string("ES256")), ("kid", .string("K"))]),
                                claims: .object([("iss", .string("T")), ("iat", .number(JSONNumber(1_767_225_600)))]), secret: "s").utf8),
    ]) { bytes in
        guard let jwt = JSONWebToken.parse(String(decoding: bytes, as: UTF8.self)) else { return "unparsed" }
        return jwt.isAccepted(with: "s", policy: .structureOnly, algorithm: "ES256") ? "accepted" : "refused"
    }

    public static let tags = FuzzSurface(name: "tags", corpus: ["(a && !b) || c", "$InstallationId:{x} || username:bob", "a || b || c"]
        .map { Array($0.utf8) }) { bytes in
        switch TagExpressionParser.parse(String(decoding: bytes, as: UTF8.self)) {
        case .success: return "ok"
        case .failure: return "refused"
        }
    }
}
