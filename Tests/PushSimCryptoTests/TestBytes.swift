import PushSimKernel

/// Hex and base64url text to bytes and back, for writing vectors as their sources print them.
enum TestBytes {
    /// The bytes of `text`'s hex digits (any case; spaces and line breaks skipped). A vector typo
    /// gives an odd digit count or a bad digit: those come back empty, so the test fails visibly.
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        guard digits.count % 2 == 0 else { return [] }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return [] }
            bytes.append(byte)
        }
        return bytes
    }

    /// Lower-case hex of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The bytes of unpadded base64url text (white space skipped), empty when it is not base64url.
    static func base64url(_ text: String) -> [UInt8] {
        Base64URL.decode(String(text.filter { !$0.isWhitespace })) ?? []
    }

    /// `count` bytes from a seeded stream.
    static func random(_ count: Int, _ random: inout SeededRandom) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }
}
