import PushSimNetwork

/// The tutorial's `AuthenticationTestHandler`, step by step (NH-NOTIFY; Citations §T
/// "Authentication in the tutorial"): it reads the first `Authorization` value (throwing when
/// there is none — defect c), requires the `Basic ` scheme, base64-decodes, splits on `:` and
/// accepts only when user name and password are the same string. Refusals are 403.
enum TutorialAuthentication {
    enum Outcome: Equatable {
        case user(String)
        /// 403 Forbidden, as the handler's `Unauthorized()` helper answers.
        case forbidden
        /// An exception escapes the handler: 500. The text names it, for the trace.
        case exception(String)
    }

    static func authenticate(_ headers: HTTPHeaders) -> Outcome {
        // `request.Headers.GetValues("Authorization").First()` throws when the header is absent.
        guard let header = headers["Authorization"] else {
            return .exception("InvalidOperationException: the Authorization header is missing (defect c)")
        }
        return authenticate(header: header)
    }

    /// The rest of the handler, on the first `Authorization` value: what that text alone decides
    /// (so ``TutorialBackend`` keeps it in a ``CredentialMemo``).
    static func authenticate(header: String) -> Outcome {
        let credentials: Substring
        if header.allBytes({ $0 < 0x80 }) {
            // ASCII text: "basic " is six one-byte characters, so the test and the cut are made on
            // bytes, as lower-casing a copy and counting characters would decide.
            guard header.hasBytePrefixIgnoringASCIICase("basic ") else { return .forbidden }
            credentials = Substring(header.utf8.dropFirst(6))
        } else {
            guard header.lowercased().hasPrefix("basic ") else { return .forbidden }
            credentials = header.dropFirst("Basic ".count)
        }
        // `Convert.FromBase64String` throws FormatException on malformed input.
        guard let bytes = fromBase64String(credentials) else {
            return .exception("FormatException: the credentials are not valid base64")
        }
        // `Split(':')[1]` throws IndexOutOfRangeException when there is no colon. The pieces are cut
        // at the colon's byte, which is never part of another character's UTF-8, so each piece is
        // what splitting the decoded text gives.
        let colon = UInt8(ascii: ":")
        guard let first = bytes.firstIndex(of: colon) else { return .exception("IndexOutOfRangeException: no ':' in the credentials") }
        let second = bytes[(first + 1)...].firstIndex(of: colon) ?? bytes.endIndex
        let user = String(decoding: bytes[..<first], as: UTF8.self), password = String(decoding: bytes[(first + 1)..<second], as: UTF8.self)
        // C#'s `==` on strings is ordinal (code unit by code unit): `é` and `e` + U+0301 differ,
        // where Swift's `==` would call them equal.
        return user.sameBytes(as: password) ? .user(user) : .forbidden
    }
}

/// `Convert.FromBase64String`, as `Base64.decode` models it (strict: padding to a multiple of 4,
/// nothing outside the alphabet). Credentials are base64 alphabet and `=` only, which this reads
/// byte by byte; any other text (whitespace, which `Base64.decode` drops, or anything it refuses)
/// is handed to `Base64.decode` itself, so the answer is always its answer.
func fromBase64String(_ text: Substring) -> [UInt8]? {
    if let read = text.utf8.withContiguousStorageIfAvailable({ decodePlainBase64($0) }), let answer = read { return answer }
    return Base64.decode(String(text))
}

/// The decoding of `text` when it is made of the base64 alphabet and `=` only: `.some(bytes)`,
/// or `.some(nil)` for what `Base64.decode` refuses (a length not a multiple of 4, more than two
/// `=`, an `=` before the end); nil for any other byte (then `Base64.decode` must decide).
private func decodePlainBase64(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]?? {
    func value(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(c - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
    for c in text where c != UInt8(ascii: "=") && value(c) == nil { return nil }
    guard text.count % 4 == 0 else { return .some(nil) }
    var padding = 0
    while padding < text.count && text[text.count - 1 - padding] == UInt8(ascii: "=") { padding += 1 }
    let count = text.count - padding
    guard padding <= 2, !text[..<count].contains(UInt8(ascii: "=")) else { return .some(nil) }
    var out: [UInt8] = []
    out.reserveCapacity(count * 3 / 4)
    var i = 0
    while i < count {
        let n = min(4, count - i)
        var bits: UInt32 = 0
        for k in 0..<n { bits |= value(text[i + k])! << (18 - 6 * UInt32(k)) }
        out.append(UInt8(bits >> 16 & 255))
        if n > 2 { out.append(UInt8(bits >> 8 & 255)) }
        if n > 3 { out.append(UInt8(bits & 255)) }
        i += 4
    }
    return .some(out)
}
