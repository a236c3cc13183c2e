import PushSimKernel

/// HTTP Basic authentication (RFC 7617) as a backend reads it: `Authorization: Basic
/// base64(user ":" password)`. The scheme name is case-insensitive; the user name is everything
/// before the first colon, the password everything after it (RFC 7617 §2: a user name cannot
/// contain a colon, a password can).
extension HTTPRequest {
    /// The user name and password of a `Basic` `Authorization` header, or nil when there is no
    /// such header, the scheme is another one, the credentials are not valid base64 (padded, as
    /// RFC 7617 requires) or they hold no colon.
    public var basicCredentials: (user: String, password: String)? {
        headers["Authorization"].flatMap(Self.basicCredentials(header:))
    }

    /// The user name and password of one `Authorization` value (`Basic …`), by the same rules.
    public static func basicCredentials(header: String) -> (user: String, password: String)? {
        guard header.count > 6, header.prefix(6).lowercased() == "basic ",
              let bytes = Base64.decode(String(header.dropFirst(6))),
              let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return (String(decoding: bytes[..<colon], as: UTF8.self), String(decoding: bytes[(colon + 1)...], as: UTF8.self))
    }
}
