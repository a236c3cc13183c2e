/// Tests on eight bytes at once, read as one `UInt64` (SIMD within a register): the "has zero /
/// less / more" byte tests of Hacker's Delight §6-1, exact as yes-or-no answers for every byte
/// value. Scanners of request bodies use them to pass runs of ordinary bytes eight at a time;
/// the byte order of the load does not matter, as every test asks about any of the eight.
package enum ByteWord {
    /// 0x01 in every byte (constants, not stored globals: each read of a global goes through its
    /// lazy initialiser's check, which costs more than the test).
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// 0x80 in every byte.
    @inlinable static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// Whether any byte of `word` is zero.
    @inlinable @inline(__always) package static func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }

    /// Whether any byte of `word` equals `byte`.
    @inlinable @inline(__always) package static func has(_ byte: UInt8, in word: UInt64) -> Bool { hasZeroByte(word ^ (ones &* UInt64(byte))) }

    /// Whether any byte of `word` is below `bound` (which must be at most 128).
    @inlinable @inline(__always) package static func hasByte(below bound: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(bound)) & ~word & highs != 0
    }

    /// Whether any byte of `word` is above `bound` (which must be at most 127).
    @inlinable @inline(__always) package static func hasByte(above bound: UInt8, in word: UInt64) -> Bool {
        ((word &+ ones &* UInt64(127 - bound)) | word) & highs != 0
    }

    /// Whether every byte of `bytes` is printable ASCII (0x20 to 0x7E), eight at a time.
    @inlinable @inline(__always) package static func allPrintableASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if hasByte(below: 0x20, in: word) || hasByte(above: 0x7E, in: word) { return false }
            i &+= 8
        }
        while i < bytes.count {
            if bytes[i] < 0x20 || bytes[i] > 0x7E { return false }
            i &+= 1
        }
        return true
    }

    /// The offset from `start` on where the first run of eight bytes holding any of `a`, `b`, `c`
    /// or `d` begins, or where fewer than eight bytes are left: a scanner looking for those bytes
    /// goes on byte by byte from there.
    package static func skipWords(in bytes: UnsafeRawBufferPointer, from start: Int,
                                  whileNoneOf a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int {
        let (wa, wb, wc, wd) = (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c), ones &* UInt64(d))
        var i = start
        while i + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if hasZeroByte(word ^ wa) || hasZeroByte(word ^ wb) || hasZeroByte(word ^ wc) || hasZeroByte(word ^ wd) { break }
            i &+= 8
        }
        return i
    }
}
