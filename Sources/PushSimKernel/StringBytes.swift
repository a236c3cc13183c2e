/// Byte-level tests on a string's UTF-8, read in place. Swift's `utf8` view iterator costs some
/// 40 instructions per byte; these read native and small strings as a buffer (~3 per byte), which
/// matters for handles and ids checked once per notification copy.
extension String {
    /// Whether any UTF-8 byte satisfies `predicate`.
    @inlinable public func containsByte(where predicate: (UInt8) -> Bool) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: predicate) }) { return found }
        return utf8.contains(where: predicate)
    }

    /// Whether every UTF-8 byte satisfies `predicate` (true for the empty string).
    @inlinable public func allBytes(_ predicate: (UInt8) -> Bool) -> Bool {
        !containsByte(where: { !predicate($0) })
    }

    /// Whether the UTF-8 bytes start with `prefix`'s.
    @inlinable public func hasBytePrefix(_ prefix: String) -> Bool {
        let n = prefix.utf8.count
        guard utf8.count >= n else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ x in
            prefix.utf8.withContiguousStorageIfAvailable { p in memcmpEqual(x.baseAddress!, p.baseAddress!, n) }
        }), let same { return same }
        return utf8.starts(with: prefix.utf8)
    }

    /// Whether the UTF-8 bytes end with `suffix`'s.
    @inlinable public func hasByteSuffix(_ suffix: String) -> Bool {
        let n = suffix.utf8.count, m = utf8.count
        guard m >= n else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ x in
            suffix.utf8.withContiguousStorageIfAvailable { p in memcmpEqual(x.baseAddress! + (m - n), p.baseAddress!, n) }
        }), let same { return same }
        return utf8.reversed().starts(with: suffix.utf8.reversed())
    }
}

@usableFromInline @inline(__always)
func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i < n {
        if a[i] != b[i] { return false }
        i &+= 1
    }
    return true
}

extension String {
    /// `parts` joined, written with one allocation: on short pieces, `+`, `append` and
    /// interpolation cost several hundred instructions each, which hot paths (an id or a URL per
    /// notification copy) avoid.
    @inlinable public static func concatenating(_ parts: String...) -> String {
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
    public func asciiLowercased() -> String {
        var copy = self
        let ascii = copy.withUTF8 { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                for i in bytes.indices { out[i] = bytes[i] &- UInt8(ascii: "A") < 26 ? bytes[i] | 0x20 : bytes[i] }
                return bytes.count
            }
        }
        return ascii ?? lowercased()
    }
}
