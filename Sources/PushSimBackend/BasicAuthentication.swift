import PushSimNetwork

/// The tutorial's `AuthenticationTestHandler`, step by step (NH-NOTIFY; tutorial-system.md
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
        guard let header = headers.values("Authorization").first else {
            return .exception("InvalidOperationException: the Authorization header is missing (defect c)")
        }
        guard header.lowercased().hasPrefix("basic ") else { return .forbidden }
        // `Convert.FromBase64String` throws FormatException on malformed input.
        guard let bytes = Base64.decode(String(header.dropFirst("Basic ".count))) else {
            return .exception("FormatException: the credentials are not valid base64")
        }
        let pair = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        // `Split(':')[1]` throws IndexOutOfRangeException when there is no colon.
        guard pair.count >= 2 else { return .exception("IndexOutOfRangeException: no ':' in the credentials") }
        let user = String(pair[0]), password = String(pair[1])
        return user == password ? .user(user) : .forbidden
    }
}
