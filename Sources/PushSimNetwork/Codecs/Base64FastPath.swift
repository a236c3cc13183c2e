import PushSimKernel

/// `Convert.FromBase64String`, as ``Base64/decode(_:)`` models it (strict: padding to a multiple
/// of 4, nothing outside the alphabet), read in place: the tutorial backend decodes a Basic
/// credential on every request. Text made of the base64 alphabet and `=` only is decoded byte by
/// byte; any other text (whitespace, which `Base64.decode` drops, or anything it refuses) is
/// handed to `Base64.decode` itself.
///
/// Contract: ``decode(_:)`` answers what `Base64.decode` answers for every text (tested in
/// `CredentialMemoTests` with random and edge-case texts).
package enum Base64FastPath {
    /// The bytes `text` decodes to, or nil when `Base64.decode` refuses it.
    package static func decode(_ text: Substring) -> [UInt8]? {
        if let read = text.utf8.withContiguousStorageIfAvailable({ decodePlain($0) }), let answer = read { return answer }
        return Base64.decode(String(text))
    }

    /// The decoding of `text` when it is made of the base64 alphabet and `=` only: `.some(bytes)`,
    /// or `.some(nil)` for what `Base64.decode` refuses (a length not a multiple of 4, more than two
    /// `=`, an `=` before the end); nil for any other byte (then `Base64.decode` must decide).
    private static func decodePlain(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]?? {
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
}
