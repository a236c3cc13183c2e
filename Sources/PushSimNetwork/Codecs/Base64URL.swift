/// Base64url without padding (RFC 4648 §5), as JSON Web Tokens use it.
public enum Base64URL {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url, without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        if bytes.count - i == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
        } else if bytes.count - i == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The UTF-8 bytes of `text` in base64url, without padding.
    public static func encode(_ text: String) -> String { encode(Array(text.utf8)) }

    /// Decodes unpadded (or padded) base64url; nil on any character outside the alphabet.
    public static func decode(_ text: String) -> [UInt8]? {
        var values = [UInt8]()
        for c in text.utf8 where c != UInt8(ascii: "=") {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            values.append(UInt8(v))
        }
        if values.count % 4 == 1 { return nil }
        var out = [UInt8]()
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(i + 4, values.count)]
            var n: UInt32 = 0
            for (k, v) in chunk.enumerated() { n |= UInt32(v) << (18 - 6 * UInt32(k)) }
            out.append(UInt8(n >> 16 & 255))
            if chunk.count > 2 { out.append(UInt8(n >> 8 & 255)) }
            if chunk.count > 3 { out.append(UInt8(n & 255)) }
            i += 4
        }
        return out
    }
}

/// Standard base64 with padding (RFC 4648 §4), as HTTP Basic authentication uses it.
public enum Base64 {
    /// `bytes` in standard base64, padded with `=` to a multiple of 4 characters.
    public static func encode(_ bytes: [UInt8]) -> String {
        let url = Base64URL.encode(bytes)
        let std = String(url.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        return std + String(repeating: "=", count: (4 - std.count % 4) % 4)
    }

    /// Strict decoding: padding required to a multiple of 4, no characters outside the alphabet.
    /// (.NET's `Convert.FromBase64String` also skips white space; so does this.)
    public static func decode(_ text: String) -> [UInt8]? {
        let compact = text.filter { !$0.isWhitespace }
        guard compact.count % 4 == 0, !compact.contains("-"), !compact.contains("_") else { return nil }
        let trimmed = compact
        let padding = trimmed.reversed().prefix(while: { $0 == "=" }).count
        guard padding <= 2, !trimmed.dropLast(padding).contains("=") else { return nil }
        return Base64URL.decode(String(trimmed.dropLast(padding).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }))
    }
}
