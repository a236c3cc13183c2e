/// Byte-level tests on a string's UTF-8, read in place. Swift's `utf8` view iterator costs some
/// 40 instructions per byte; these read native and small strings as a buffer (~3 per byte), which
/// matters for handles and ids checked once per notification copy.
extension String {
    /// Whether any UTF-8 byte satisfies `predicate`.
    @inlinable package func containsByte(where predicate: (UInt8) -> Bool) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: predicate) }) { return found }
        return utf8.contains(where: predicate)
    }

    /// Whether every UTF-8 byte satisfies `predicate` (true for the empty string).
    @inlinable package func allBytes(_ predicate: (UInt8) -> Bool) -> Bool {
        !containsByte(where: { !predicate($0) })
    }

    /// Whether the UTF-8 bytes start with `prefix`'s.
    @inlinable package func hasBytePrefix(_ prefix: String) -> Bool {
        let n = prefix.utf8.count
        guard utf8.count >= n else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ x in
            prefix.utf8.withContiguousStorageIfAvailable { p in bytesEqual(x.baseAddress!, p.baseAddress!, count: n) }
        }), let same { return same }
        return utf8.starts(with: prefix.utf8)
    }

    /// Whether the UTF-8 bytes end with `suffix`'s.
    @inlinable package func hasByteSuffix(_ suffix: String) -> Bool {
        let n = suffix.utf8.count, m = utf8.count
        guard m >= n else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ x in
            suffix.utf8.withContiguousStorageIfAvailable { p in bytesEqual(x.baseAddress! + (m - n), p.baseAddress!, count: n) }
        }), let same { return same }
        return utf8.reversed().starts(with: suffix.utf8.reversed())
    }
}

extension String {
    /// The string from UTF-8 byte `offset` on (all of it for 0 or less, empty at or past the end),
    /// read in place: `/3/device/<token>` gives its token on every push.
    @inlinable package func utf8Suffix(from offset: Int) -> String {
        guard offset > 0 else { return self }
        guard offset < utf8.count else { return "" }
        if let tail = utf8.withContiguousStorageIfAvailable({ String(decoding: UnsafeBufferPointer(rebasing: $0[offset...]), as: UTF8.self) }) {
            return tail
        }
        return String(decoding: Array(utf8.dropFirst(offset)), as: UTF8.self)
    }

    /// Whether every byte is an ASCII hex digit, either case (true for the empty string), read
    /// eight bytes at a time: a device token is checked on every push.
    package var isAllHexDigits: Bool {
        var text = self
        return text.withUTF8 { ByteWord.allHexDigits(UnsafeRawBufferPointer($0)) }
    }

    /// Whether any byte is an ASCII capital letter (`A`–`Z`), read eight bytes at a time.
    package var containsASCIIUppercase: Bool {
        var text = self
        return text.withUTF8 { ByteWord.anyASCIIUppercase(UnsafeRawBufferPointer($0)) }
    }
}

extension String {
    /// `parts` joined, written with one allocation: on short pieces, `+`, `append` and
    /// interpolation cost several hundred instructions each, which hot paths (an id or a URL per
    /// notification copy) avoid.
    @inlinable package static func concatenating(_ parts: String...) -> String { concatenating(parts) }

    /// ``concatenating(_:)-(String...)`` of two parts, without the array a variadic call allocates
    /// (a channel URI, a message name: one per notification copy).
    @inlinable package static func concatenating(_ a: String, _ b: String) -> String {
        var (a, b) = (a, b)
        return a.withUTF8 { x in
            b.withUTF8 { y in
                String(unsafeUninitializedCapacity: x.count + y.count) { out in
                    if let p = x.baseAddress { out.baseAddress!.update(from: p, count: x.count) }
                    if let q = y.baseAddress { (out.baseAddress! + x.count).update(from: q, count: y.count) }
                    return x.count + y.count
                }
            }
        }
    }

    /// ``concatenating(_:)-(String...)`` of the strings in `parts`.
    @inlinable package static func concatenating(_ parts: [String]) -> String {
        var total = 0
        for p in parts { total += p.utf8.count }
        return String(unsafeUninitializedCapacity: total) { out in
            var i = 0
            for var p in parts {
                p.withUTF8 { bytes in
                    if let base = bytes.baseAddress { (out.baseAddress! + i).update(from: base, count: bytes.count) }
                    i += bytes.count
                }
            }
            return total
        }
    }
}

extension String {
    /// `lowercased()`, with ASCII strings (handles, ids) mapped byte by byte in one allocation.
    package func asciiLowercased() -> String { String.concatenating("", asciiLowercased: self) }

    /// `prefix` then `tail.lowercased()`, with an ASCII `tail` (a device token after `/3/device/`)
    /// mapped byte by byte and written with `prefix` in one allocation.
    package static func concatenating(_ prefix: String, asciiLowercased tail: String) -> String {
        var (prefix, tail) = (prefix, tail)
        let ascii = prefix.withUTF8 { head in
            tail.withUTF8 { bytes -> String? in
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
                return String(unsafeUninitializedCapacity: head.count + bytes.count) { out in
                    if let base = head.baseAddress { out.baseAddress!.update(from: base, count: head.count) }
                    // Written through a buffer of its own, so that the compiler vectorises the loop.
                    let tailOut = UnsafeMutableBufferPointer(rebasing: out[head.count...])
                    for i in bytes.indices { tailOut[i] = bytes[i] &- UInt8(ascii: "A") < 26 ? bytes[i] | 0x20 : bytes[i] }
                    return head.count + bytes.count
                }
            }
        }
        return ascii ?? prefix + tail.lowercased()
    }
}

extension String {
    /// `prefix` then `n` in decimal, zero-padded to at least `minimumDigits` digits
    /// (`reg-000042`), written in one go: ids built once per notification copy stay cheap.
    package static func decimal(_ n: Int, minimumDigits: Int = 1, prefix: String = "") -> String {
        guard n >= 0 else { return prefix + String(n) }
        let width = Swift.max(decimalDigitCount(n.magnitude), minimumDigits)
        var prefix = prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + width) { out in
                if let base = head.baseAddress { out.baseAddress!.update(from: base, count: head.count) }
                writeDecimal(n.magnitude, width: width, into: out, at: head.count)
                return head.count + width
            }
        }
    }
}

/// How many decimal digits `v` has (1 for 0).
private func decimalDigitCount(_ v: UInt) -> Int {
    var digits = 1, rest = v / 10
    while rest > 0 { digits += 1; rest /= 10 }
    return digits
}

/// Writes `v` in decimal into `out[start..<start + width]`, zero-padded on the left (`width` is at
/// least its digit count).
private func writeDecimal(_ v: UInt, width: Int, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
    var value = v, i = start + width - 1
    while i >= start {
        out[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
        value /= 10
        i -= 1
    }
}

extension String {
    /// A hash of the UTF-8 bytes that is the same in every process (`hashValue` is reseeded per
    /// process) and costs a few instructions per 8 bytes where `hashValue` (SipHash) costs ~15 per
    /// byte: for tables that look up a handle per notification copy. Not resistant to chosen keys;
    /// the tables using it confirm every match on the key itself.
    @inlinable package var stableHash: Int {
        if let h = utf8.withContiguousStorageIfAvailable({ stableHashOfBytes(UnsafeRawBufferPointer($0)) }) { return h }
        return Array(utf8).withUnsafeBytes { stableHashOfBytes($0) }
    }
}

/// The hash behind ``Swift/String/stableHash``: 8 bytes at a time, multiply and shift, then the
/// MurmurHash3 64-bit finaliser so that high and low bits both depend on every byte.
@inlinable package func stableHashOfBytes(_ bytes: UnsafeRawBufferPointer) -> Int {
    let k: UInt64 = 0x9E37_79B9_7F4A_7C15
    var h = k ^ UInt64(bytes.count)
    var i = 0
    let n = bytes.count
    while i &+ 8 <= n {
        h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
        h ^= h >> 29
        i &+= 8
    }
    if i < n {
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(bytes[i]) << shift
            shift &+= 8
            i &+= 1
        }
        h = (h ^ tail) &* k
        h ^= h >> 29
    }
    h ^= h >> 33
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h &*= 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return Int(bitPattern: UInt(h))
}

/// Whether `count` bytes at `a` and `b` are equal, compared eight at a time.
/// Eight bytes at a time, then the last eight again (overlapping); under eight bytes, in pieces of
/// four, two and one: most comparisons are of short markup and names, where a byte loop cost most.
@inlinable package func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    if count >= 8 {
        var i = 0
        while i &+ 8 <= count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i &+= 8
        }
        return i == count
            || a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    var i = 0
    if count & 4 != 0 {
        if a.loadUnaligned(as: UInt32.self) != b.loadUnaligned(as: UInt32.self) { return false }
        i = 4
    }
    if count & 2 != 0 {
        if a.loadUnaligned(fromByteOffset: i, as: UInt16.self) != b.loadUnaligned(fromByteOffset: i, as: UInt16.self) { return false }
        i &+= 2
    }
    return count & 1 == 0 || a.load(fromByteOffset: i, as: UInt8.self) == b.load(fromByteOffset: i, as: UInt8.self)
}

extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `text`, copied as one block when the string is contiguous
    /// (`+= text.utf8` goes through the generic sequence path, byte by byte).
    @inlinable package mutating func appendUTF8(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil { append(contentsOf: text.utf8) }
    }

    /// Appends `n` in decimal (a `-` first when negative), digit bytes written in place: no
    /// string is made for them (an FCM message id holds a 13-digit time per copy sent).
    package mutating func appendDecimal(_ n: Int) {
        if n < 0 { append(UInt8(ascii: "-")) }
        let digits = decimalDigitCount(n.magnitude), start = count
        append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        withUnsafeMutableBufferPointer { writeDecimal(n.magnitude, width: digits, into: $0, at: start) }
    }
}

extension String {
    /// Whether the UTF-8 bytes hold a quote, a backslash or a control character (below 0x20): the
    /// bytes a JSON string must escape. Runs of eight bytes of plain text are passed whole (tokens
    /// of 150 bytes go into a JSON body per notification copy).
    package var needsJSONEscape: Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            let raw = UnsafeRawBufferPointer(bytes)
            var i = 0
            while i < raw.count {
                i = ByteWord.skipPlainText(in: raw, from: i)
                // A word holding a byte to look at (which may be only a non-ASCII one), or the tail.
                let end = Swift.min(i + 8, raw.count)
                while i < end {
                    if raw[i].isJSONEscaped { return true }
                    i += 1
                }
            }
            return false
        }) { return found }
        return utf8.contains(where: \.isJSONEscaped)
    }
}

extension String {
    /// Whether the UTF-8 bytes equal `other`'s: `==` without Unicode normalisation, for ids and
    /// handles (ASCII) compared on hot paths, lengths first.
    @inlinable package func sameBytes(as other: String) -> Bool {
        let n = utf8.count
        guard other.utf8.count == n else { return false }
        if n == 0 { return true }
        if let same = utf8.withContiguousStorageIfAvailable({ x in
            other.utf8.withContiguousStorageIfAvailable { y in bytesEqual(x.baseAddress!, y.baseAddress!, count: n) }
        }), let same { return same }
        return utf8.elementsEqual(other.utf8)
    }
}

extension String {
    /// The offset in UTF-8 bytes of the first `byte`, or nil.
    @inlinable package func byteOffset(of byte: UInt8) -> Int? {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: byte) }) { return found }
        return utf8.firstIndex(of: byte).map { utf8.distance(from: utf8.startIndex, to: $0) }
    }

    /// The offset in UTF-8 bytes of the first occurrence of `needle`'s bytes, or nil; 0 for an
    /// empty needle. (`firstRange(of:)` and `contains(_:)` on strings compare characters through
    /// a generic searcher, some hundred times slower on the short texts read per request.)
    package func byteOffset(of needle: String) -> Int? {
        if let found = utf8.withContiguousStorageIfAvailable({ h in
            needle.utf8.withContiguousStorageIfAvailable { n in firstOffset(of: n, in: h) }
        }), let found { return found }
        return firstOffset(of: Array(needle.utf8)[...], in: Array(utf8)[...])
    }

    /// Whether the UTF-8 bytes equal `other`'s with ASCII letters compared without regard to case
    /// (header names, tokens such as `close` or `chunked`); other bytes must match exactly. Lengths
    /// first (O(1) for native strings), then the bytes in place.
    @inlinable package func sameBytesIgnoringASCIICase(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ x in
            other.utf8.withContiguousStorageIfAvailable { y in bytesEqualIgnoringASCIICase(x, y) }
        }), let same { return same }
        return utf8.elementsEqual(other.utf8) { $0 == $1 || $0.asciiLowercased == $1.asciiLowercased }
    }

    /// Whether the UTF-8 bytes start with `prefix`'s, ASCII letters compared without regard to case.
    @inlinable package func hasBytePrefixIgnoringASCIICase(_ prefix: String) -> Bool {
        let n = prefix.utf8.count
        guard utf8.count >= n else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ x in
            prefix.utf8.withContiguousStorageIfAvailable { y in bytesEqualIgnoringASCIICase(UnsafeBufferPointer(rebasing: x[..<n]), y) }
        }), let same { return same }
        return utf8.prefix(n).elementsEqual(prefix.utf8) { $0 == $1 || $0.asciiLowercased == $1.asciiLowercased }
    }
}

/// The offset of the first occurrence of `needle` in `haystack`; 0 for an empty needle.
@inlinable package func firstOffset<C: RandomAccessCollection>(of needle: C, in haystack: C) -> Int? where C.Element == UInt8, C.Index == Int {
    guard let first = needle.first else { return 0 }
    let n = needle.count, h = haystack.count
    guard h >= n else { return nil }
    var i = 0
    while i <= h - n {
        let at = haystack.startIndex + i
        if haystack[at] == first && haystack[at..<(at + n)].elementsEqual(needle) { return i }
        i += 1
    }
    return nil
}

/// Whether two byte buffers of equal length are equal, ASCII letters compared without regard to case.
/// Eight bytes at a time (``ByteWord/asciiLowercased(_:)``) while eight are left, then the rest.
@inlinable package func bytesEqualIgnoringASCIICase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    let n = x.count
    if n >= 8 {
        let a = UnsafeRawBufferPointer(x), b = UnsafeRawBufferPointer(y)
        while i &+ 8 <= n {
            let p = a.loadUnaligned(fromByteOffset: i, as: UInt64.self), q = b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if p != q && ByteWord.asciiLowercased(p) != ByteWord.asciiLowercased(q) { return false }
            i &+= 8
        }
        guard i < n else { return true }
        // The last eight bytes, overlapping some already compared.
        let p = a.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), q = b.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        return p == q || ByteWord.asciiLowercased(p) == ByteWord.asciiLowercased(q)
    }
    while i < n {
        let p = x[i], q = y[i]
        if p != q && p.asciiLowercased != q.asciiLowercased { return false }
        i &+= 1
    }
    return true
}

extension UInt8 {
    /// A quote, a backslash or a control character (below 0x20): the bytes a JSON string must escape.
    @inlinable package var isJSONEscaped: Bool { self < 0x20 || self == UInt8(ascii: "\"") || self == UInt8(ascii: "\\") }

    /// `A`–`Z` mapped to `a`–`z`; every other byte as it is.
    @inlinable package var asciiLowercased: UInt8 { self &- UInt8(ascii: "A") < 26 ? self | 0x20 : self }

    /// `0`–`9`.
    @inlinable package var isASCIIDigit: Bool { self &- UInt8(ascii: "0") < 10 }

    /// `0`–`9`, `a`–`f`, `A`–`F` (HEXDIG of RFC 5234 B.1, taken without regard to case as HTTP and
    /// APNs do).
    @inlinable package var isASCIIHexDigit: Bool { isASCIIDigit || (self | 0x20) &- UInt8(ascii: "a") < 6 }
}
