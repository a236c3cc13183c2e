/// Tests on eight bytes at once, read as one `UInt64` (SIMD within a register): the "has zero /
/// less / more" byte tests of Hacker's Delight §6-1, exact as yes-or-no answers for every byte
/// value. Scanners of request bodies use them to pass runs of ordinary bytes eight at a time;
/// the byte order of the load does not matter, as every test asks about any of the eight.
@usableFromInline package enum ByteWord {
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

    /// 0x80 in each byte of `word` that lies in `low...high`, 0 in the others (bytes and bounds
    /// below 128): adding `128 - low` sets a byte's high bit exactly when it is at least `low`,
    /// adding `127 - high` exactly when it is above `high`; with no byte of 128 or more, neither
    /// sum carries into the next byte.
    @inlinable @inline(__always) static func inRange(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        (word &+ ones &* UInt64(128 - low)) & ~(word &+ ones &* UInt64(127 - high)) & highs
    }

    /// `word` with each byte `A`–`Z` mapped to `a`–`z` (0x20 added) and every other byte as it
    /// is, bytes of 128 and above included: the range test runs on the low seven bits (so that no
    /// sum carries into the next byte), and bytes whose high bit is set are then left out.
    @inlinable @inline(__always) package static func asciiLowercased(_ word: UInt64) -> UInt64 {
        let upper = inRange(word & ~highs, 0x41, 0x5A) & ~word
        return word | upper >> 2
    }

    /// Whether any byte of `bytes` is an ASCII capital letter (`A`–`Z`), eight at a time: the range
    /// test of ``asciiLowercased(_:)``, bytes of 128 and above left out.
    @inlinable @inline(__always) package static func anyASCIIUppercase(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if inRange(word & ~highs, 0x41, 0x5A) & ~word != 0 { return true }
            i &+= 8
        }
        while i < bytes.count {
            if bytes[i] &- UInt8(ascii: "A") < 26 { return true }
            i &+= 1
        }
        return false
    }

    /// Whether every byte of `bytes` is ASCII (below 0x80; true for none), eight at a time: a
    /// word holds only ASCII exactly when none of its high bits is set. The scenario lexer asks it
    /// of every line it reads, the hub of every `$filter`.
    @inlinable @inline(__always) package static func allASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 8 <= bytes.count {
            if bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) & highs != 0 { return false }
            i &+= 8
        }
        while i < bytes.count {
            if bytes[i] >= 0x80 { return false }
            i &+= 1
        }
        return true
    }

    /// Whether every byte of `bytes` is a hex digit (`0-9`, `a-f`, `A-F`), eight at a time: the
    /// digit test ORs in 0x20, which maps `A-F` onto `a-f` and leaves digits as they are.
    @inlinable @inline(__always) package static func allHexDigits(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            guard word & highs == 0 else { return false }
            let hex = inRange(word, 0x30, 0x39) | inRange(word | ones &* 0x20, 0x61, 0x66)
            if hex != highs { return false }
            i &+= 8
        }
        while i < bytes.count {
            guard bytes[i].isASCIIHexDigit else { return false }
            i &+= 1
        }
        return true
    }

    /// The offset of the first byte in `bytes[start..<end]` that is `a` or `b` (pass the same byte
    /// twice to look for one), or nil; words of eight bytes holding neither are passed whole.
    @inlinable package static func firstOffset(ofEither a: UInt8, _ b: UInt8, in bytes: UnsafeRawBufferPointer,
                                               from start: Int, to end: Int) -> Int? {
        let (wa, wb) = (ones &* UInt64(a), ones &* UInt64(b))
        var i = start
        while i + 8 <= end {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if hasZeroByte(word ^ wa) || hasZeroByte(word ^ wb) { break }
            i &+= 8
        }
        while i < end {
            if bytes[i] == a || bytes[i] == b { return i }
            i &+= 1
        }
        return nil
    }

    /// The offset from `start` on where the first run of eight bytes begins that holds a quote,
    /// a backslash or a byte outside printable ASCII (below 0x20, or 0x7F and above), or where
    /// fewer than eight bytes are left: scanners of JSON strings and of push tokens pass the
    /// plain runs between those whole, and look at the rest byte by byte.
    @inlinable package static func skipPlainText(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        while i + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if hasByte(below: 0x20, in: word) || hasByte(above: 0x7E, in: word) || has(UInt8(ascii: "\""), in: word)
                || has(UInt8(ascii: "\\"), in: word) {
                break
            }
            i &+= 8
        }
        return i
    }

    /// The offset from `start` on where the first run of eight bytes holding any of `a`, `b`, `c`
    /// or `d` begins, or where fewer than eight bytes are left: a scanner looking for those bytes
    /// goes on byte by byte from there.
    @inlinable package static func skipWords(in bytes: UnsafeRawBufferPointer, from start: Int,
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
