import PushSimKernel
import PushSimNetwork

/// The RFC 8030 request headers as each push service reads them (Citations §9.3): `TTL`
/// (section 5.2), `Urgency` (5.3), `Topic` (5.4). What a vendor does with an odd value is the
/// vendor's rule; these only read.
enum WebPushHeaderValues {
    /// What a `TTL` header says.
    enum TTL: Equatable {
        /// No `TTL` header.
        case missing
        /// Not a whole number a 64-bit integer holds.
        case unreadable
        /// A number of seconds (maybe negative).
        case seconds(Int64)
    }

    /// Reads `TTL` as Rust's `i64::from_str` does (autopush's reading, WP-AUTOPUSH
    /// `notification_headers.rs`): an optional `+` or `-`, then decimal digits only.
    static func ttl(_ headers: HTTPHeaders) -> TTL {
        guard let text = headers["ttl"] else { return .missing }
        return Int64(text).map(TTL.seconds) ?? .unreadable
    }

    /// Whether `text` is a whole positive number in plain digits (Apple's `BadTtl` asks for "a
    /// positive number", WP-APPLE).
    static func isPositiveDecimal(_ text: String) -> Bool {
        !text.isEmpty && text.allBytes(\.isASCIIDigit) && (Int64(text).map { $0 > 0 } ?? true)
    }

    /// The four `Urgency` values of RFC 8030 section 5.3.
    static let urgencies: Set<String> = ["very-low", "low", "normal", "high"]

    /// Whether `text` is base64url digits, then only `=` padding: autopush's `VALID_BASE64_URL`,
    /// `^[0-9A-Za-z\-_]+=*$` (WP-AUTOPUSH `notification_headers.rs`).
    static func isPaddedBase64URL(_ text: String) -> Bool {
        let digits = text.utf8.prefix { Base64URL.isDigit($0) }
        return !digits.isEmpty && text.utf8.dropFirst(digits.count).allSatisfy { $0 == UInt8(ascii: "=") }
    }

    /// Whether Apple takes `topic` (WP-APPLE, WP-APPLE-TOPIC): one to 32 base64url characters, no
    /// padding, and a length that base64url can have (Apple decodes it: a length of 4n + 1,
    /// like `frenz-ai-done`'s 13, is refused live with `BadWebPushTopic`).
    static func isAppleTopic(_ topic: String) -> Bool {
        let count = topic.utf8.count
        return (1...32).contains(count) && count % 4 != 1 && topic.utf8.allSatisfy(Base64URL.isDigit)
    }
}
