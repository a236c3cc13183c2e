import PushSimKernel
import PushSimNetwork

/// What a push service can see of an encrypted body without decrypting it (Citations §9.4). It
/// holds no key to decrypt (RFC 8291 section 2: only the browser does), so it can only look at
/// the `Content-Encoding` and the headers beside it, and at the `aes128gcm` header in front of
/// the ciphertext (RFC 8188 section 2.1):
///
///     salt (16) || rs (uint32, big-endian) || idlen (1) || keyid (idlen) || ciphertext
///
/// RFC 8291 section 4 fixes `keyid` to the application server's uncompressed P-256 key
/// (`idlen` 65) and the whole body to one record; RFC 8188 section 2 makes 18 the smallest `rs`.
enum WebPushContentCoding {
    /// The two codings in use: `aes128gcm` (RFC 8291) and the draft's `aesgcm`, which Chrome,
    /// Firefox and pywebpush still know (WP-AUTOPUSH, WP-PYWEBPUSH).
    static let aes128gcm = "aes128gcm"
    static let aesgcm = "aesgcm"

    /// Why an `aes128gcm` body's header is unusable.
    enum HeaderProblem: Equatable {
        /// Shorter than the 21 bytes of salt, record size and key id length, plus the key id.
        case truncated
        /// A record size under 18 (RFC 8188 section 2).
        case recordSizeTooSmall(UInt32)
        /// A key id that is not 65 bytes (RFC 8291 section 4).
        case keyIDLength(Int)
        /// A key id that is not an uncompressed point (first byte 0x04).
        case keyIDNotAPoint
        /// No ciphertext after the header: less than the 16-byte tag and the padding delimiter.
        case noCiphertext
        /// More ciphertext than one record of `rs` bytes holds (RFC 8291 section 4: one record).
        case moreThanOneRecord
    }

    /// Checks the `aes128gcm` header at the front of `body`; nil when it is well formed.
    static func headerProblem(_ body: [UInt8]) -> HeaderProblem? {
        guard body.count >= 21 else { return .truncated }
        let rs = UInt32(body[16]) << 24 | UInt32(body[17]) << 16 | UInt32(body[18]) << 8 | UInt32(body[19])
        let idlen = Int(body[20])
        guard body.count >= 21 + idlen else { return .truncated }
        guard rs >= 18 else { return .recordSizeTooSmall(rs) }
        guard idlen == 65 else { return .keyIDLength(idlen) }
        guard body[21] == 0x04 else { return .keyIDNotAPoint }
        let ciphertext = body.count - 21 - idlen
        guard ciphertext >= 17 else { return .noCiphertext }
        guard UInt64(ciphertext) <= UInt64(rs) else { return .moreThanOneRecord }
        return nil
    }

    /// Autopush's checks of the headers around an encrypted body (WP-AUTOPUSH
    /// `notification_headers.rs`, `validate_encryption`), in its order; the message of its 400
    /// (errno 110) when one fails, nil when they pass.
    ///
    /// - `Content-Encoding` must be present and `aesgcm` or `aes128gcm`;
    /// - `aesgcm`: an `Encryption` header with a base64url `salt`; a `Crypto-Key`, if present,
    ///   with a base64url `dh`;
    /// - `aes128gcm`: no `salt` in `Encryption` and no `dh` in `Crypto-Key` (the keys travel in
    ///   the body).
    static func autopushProblem(_ headers: HTTPHeaders) -> String? {
        guard let encoding = headers["content-encoding"] else { return "Missing Content-Encoding header" }
        switch encoding {
        case aesgcm:
            if let problem = requireBase64Item("Encryption", headers["encryption"], key: "salt") { return problem }
            if let cryptoKey = headers["crypto-key"], let problem = requireBase64Item("Crypto-Key", cryptoKey, key: "dh") { return problem }
            return nil
        case aes128gcm:
            if let problem = forbidItem("aes128gcm Encryption", headers["encryption"], key: "salt") { return problem }
            return forbidItem("aes128gcm Crypto-Key", headers["crypto-key"], key: "dh")
        default:
            return "Unknown Content-Encoding header"
        }
    }

    private static func requireBase64Item(_ name: String, _ header: String?, key: String) -> String? {
        guard let header else { return "Missing \(name) header" }
        guard let items = WebPushParameterHeader.items(header) else { return "Invalid \(name) header" }
        guard let value = items[key] else { return "Missing \(key) value in \(name) header" }
        guard WebPushHeaderValues.isPaddedBase64URL(value) else { return "Invalid \(key) value in \(name) header" }
        return nil
    }

    private static func forbidItem(_ name: String, _ header: String?, key: String) -> String? {
        guard let header else { return nil }
        guard let items = WebPushParameterHeader.items(header) else { return "Invalid \(name) header" }
        return items[key] == nil ? nil : "Do not include '\(key)' header in \(name) header"
    }
}
