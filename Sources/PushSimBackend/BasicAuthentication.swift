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
        guard let bytes = Base64FastPath.decode(credentials) else {
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
