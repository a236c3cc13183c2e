/// Splitting, searching and reading request text by bytes (the hub, its SDK client, the backends,
/// the devices), behind names rule code may call: no pointer appears outside this file.
///
/// Swift's `split(separator:)` on a `String` compares grapheme clusters, which is slow for text
/// read on every request (paths, `Location` URLs, `$filter`s, tag lists). For text whose bytes are
/// all ASCII the clusters are the bytes (only CR LF forms a two-byte cluster, and no separator used
/// here is CR or LF), so splitting the bytes gives exactly what `split` gives. These functions
/// answer nil for any other text; callers then use `split` itself, so no answer ever differs.
package enum ASCIIText {
    /// `text.split(separator: separator, omittingEmptySubsequences: omittingEmpty)` as strings,
    /// for ASCII text and an ASCII separator other than CR and LF; nil for other text.
    package static func split(_ text: String, separator: UInt8, omittingEmpty: Bool) -> [String]? {
        precondition(separator < 0x80 && separator != 0x0D && separator != 0x0A, "an ASCII separator other than CR and LF")
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            // One pass to count the pieces (and refuse non-ASCII), so that the array is allocated once.
            var separators = 0
            for b in bytes {
                if b >= 0x80 { return nil }
                if b == separator { separators += 1 }
            }
            var out: [String] = []
            out.reserveCapacity(separators + 1)
            var start = 0
            for i in 0..<bytes.count {
                let b = bytes[i]
                if b == separator {
                    if !omittingEmpty || i > start { out.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)) }
                    start = i + 1
                }
            }
            if !omittingEmpty || bytes.count > start {
                out.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]), as: UTF8.self))
            }
            return out
        }
    }

    /// The last path segment of a URL: the text before the first `?`, after its last `/`, when
    /// that is not empty; as `url.split(separator: "?").first?.split(separator: "/").last` gives
    /// it (both splits omit empty pieces), for ASCII text. Nil when there is none; `.some(nil)`
    /// never: non-ASCII text answers `nonASCII`.
    package static func lastPathSegment(_ url: String) -> LastSegment {
        var url = url
        return url.withUTF8 { bytes -> LastSegment in
            // The first non-empty piece before a `?` (leading `?`s give empty pieces, omitted).
            var i = 0
            while i < bytes.count && bytes[i] == UInt8(ascii: "?") { i += 1 }
            var end = i
            while end < bytes.count && bytes[end] != UInt8(ascii: "?") {
                if bytes[end] >= 0x80 { return .nonASCII }
                end += 1
            }
            for b in bytes[end...] where b >= 0x80 { return .nonASCII }
            guard end > i else { return .none }
            // Its last non-empty piece between `/`s.
            var stop = end
            while stop > i && bytes[stop - 1] == UInt8(ascii: "/") { stop -= 1 }
            guard stop > i else { return .none }
            var from = stop
            while from > i && bytes[from - 1] != UInt8(ascii: "/") { from -= 1 }
            return .segment(String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<stop]), as: UTF8.self))
        }
    }

    /// What ``lastPathSegment(_:)`` found.
    package enum LastSegment: Equatable {
        /// The segment.
        case segment(String)
        /// No non-empty segment.
        case none
        /// The text is not ASCII: ask `split`.
        case nonASCII
    }

    /// Whether every byte of `text` is ASCII (true for ""), read in place eight bytes at a time
    /// (``ByteWord/allASCII(_:)``): `text.utf8.allSatisfy { $0 < 0x80 }`, without the view's cost per byte.
    public static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { ByteWord.allASCII(UnsafeRawBufferPointer($0)) }
    }

    /// The number written after the first `mark` byte of `text`, when everything after it is 1 to
    /// `maxDigits` ASCII digits; nil otherwise (no mark, nothing after it, another byte, more
    /// digits). Read in place: a fleet reads its member's number out of `<name>#<n>` on every push.
    public static func decimal(after mark: UInt8, in text: String, maxDigits: Int) -> Int? {
        precondition(maxDigits >= 1 && maxDigits <= 18, "1 to 18 digits, which an Int holds")
        var text = text
        return text.withUTF8 { bytes -> Int? in
            guard let at = bytes.firstIndex(of: mark), at + 1 < bytes.count, bytes.count - at - 1 <= maxDigits else { return nil }
            var n = 0
            for b in bytes[(at + 1)...] {
                guard b &- UInt8(ascii: "0") < 10 else { return nil }
                n = n * 10 + Int(b &- UInt8(ascii: "0"))
            }
            return n
        }
    }

    /// The `key=value` pieces of `text` between `separator`s, in order (a connection string's
    /// `;`, a SAS token's `&`): split at the first `=` of each piece; pieces without one and
    /// empty pieces are skipped. Any text, ASCII read by bytes.
    package static func keyValuePairs(_ text: String, separator: UInt8) -> [(key: String, value: String)] {
        let pieces = split(text, separator: separator, omittingEmpty: true)
            ?? text.split(separator: Character(Unicode.Scalar(separator))).map(String.init)
        return pieces.compactMap { piece in
            guard let eq = piece.byteOffset(of: UInt8(ascii: "=")) else { return nil }
            let bytes = Array(piece.utf8)
            return (String(decoding: bytes[..<eq], as: UTF8.self), String(decoding: bytes[(eq + 1)...], as: UTF8.self))
        }
    }
}
