/// Base64url without padding (RFC 4648 §5), as JSON Web Tokens use it.
package enum Base64URL {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url, without padding.
    package static func encode(_ bytes: [UInt8]) -> String {
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
    package static func encode(_ text: String) -> String { encode(Array(text.utf8)) }

    /// Decodes unpadded (or padded) base64url; nil on any character outside the alphabet.
    package static func decode(_ text: String) -> [UInt8]? {
        var digits = [UInt8]()
        digits.reserveCapacity(text.utf8.count)
        for c in text.utf8 where c != UInt8(ascii: "=") {
            let v = urlDigitValues[Int(c)]
            guard v != invalidDigit else { return nil }
            digits.append(v)
        }
        return bytes(fromDigits: digits)
    }

    /// Whether `byte` is one of base64url's 64 digits (`A–Z a–z 0–9 - _`).
    package static func isDigit(_ byte: UInt8) -> Bool { urlDigitValues[Int(byte)] != invalidDigit }

    /// Marks a byte outside the alphabet in the digit tables.
    static let invalidDigit: UInt8 = 0xFF
    /// The value (0–63) of each byte as a base64url digit, or ``invalidDigit``.
    static let urlDigitValues = digitValues(alphabet)
    /// The same for standard base64, whose last two digits are `+` and `/`.
    static let standardDigitValues = digitValues(Array(alphabet.dropLast(2)) + [UInt8(ascii: "+"), UInt8(ascii: "/")])

    private static func digitValues(_ digits: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: invalidDigit, count: 256)
        for (value, digit) in digits.enumerated() { table[Int(digit)] = UInt8(value) }
        return table
    }

    /// The bytes that 6-bit `digits` (values 0–63) spell: each 4 give 3 bytes, a tail of 2 or 3
    /// gives 1 or 2; nil for a tail of 1, which spells no whole byte.
    static func bytes(fromDigits digits: [UInt8]) -> [UInt8]? {
        if digits.count % 4 == 1 { return nil }
        var out = [UInt8]()
        out.reserveCapacity(digits.count * 3 / 4)
        var i = 0
        while i < digits.count {
            let k = min(4, digits.count - i)
            var n: UInt32 = 0
            for j in 0..<k { n |= UInt32(digits[i + j]) << (18 - 6 * UInt32(j)) }
            out.append(UInt8(n >> 16 & 255))
            if k > 2 { out.append(UInt8(n >> 8 & 255)) }
            if k > 3 { out.append(UInt8(n & 255)) }
            i += 4
        }
        return out
    }
}

/// Standard base64 with padding (RFC 4648 §4), as HTTP Basic authentication uses it.
package enum Base64 {
    /// `bytes` in standard base64, padded with `=` to a multiple of 4 characters.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out = Array(Base64URL.encode(bytes).utf8)
        for i in out.indices {
            if out[i] == UInt8(ascii: "-") { out[i] = UInt8(ascii: "+") } else if out[i] == UInt8(ascii: "_") { out[i] = UInt8(ascii: "/") }
        }
        out += repeatElement(UInt8(ascii: "="), count: (4 - out.count % 4) % 4)
        return String(decoding: out, as: UTF8.self)
    }

    /// Strict decoding: padding required to a multiple of 4, no characters outside the alphabet.
    /// (.NET's `Convert.FromBase64String` also skips white space; so does this: any character
    /// with Unicode's White_Space property.)
    package static func decode(_ text: String) -> [UInt8]? {
        var compact = [UInt8]()
        compact.reserveCapacity(text.utf8.count)
        if text.allBytes({ $0 < 0x80 }) {
            for b in text.utf8 where !(b == 0x20 || (0x09...0x0D).contains(b)) { compact.append(b) }
        } else {
            for c in text.unicodeScalars where !c.properties.isWhitespace {
                guard c.isASCII else { return nil }   // outside the alphabet
                compact.append(UInt8(c.value))
            }
        }
        guard compact.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < compact.count, compact[compact.count - 1 - padding] == UInt8(ascii: "=") { padding += 1 }
        guard padding <= 2 else { return nil }
        var digits = [UInt8]()
        digits.reserveCapacity(compact.count)
        for b in compact.dropLast(padding) {
            let v = Base64URL.standardDigitValues[Int(b)]
            guard v != Base64URL.invalidDigit else { return nil }   // `=` inside, `-`, `_`, or any other
            digits.append(v)
        }
        return Base64URL.bytes(fromDigits: digits)
    }
}
