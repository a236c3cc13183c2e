/// A 256-bit unsigned integer in four 64-bit words, least significant first: the numbers of P-256
/// (coordinates, scalars, the field prime `p` and the group order `n`).
///
/// Plain integer arithmetic only (compare, add and subtract with a carry, bytes in and out); the
/// modular arithmetic built on it is ``FieldElement`` (through `MontgomeryFastPath`).
struct UInt256: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bits 0–63.
    var w0: UInt64
    /// Bits 64–127.
    var w1: UInt64
    /// Bits 128–191.
    var w2: UInt64
    /// Bits 192–255.
    var w3: UInt64

    /// The number `w3·2¹⁹² + w2·2¹²⁸ + w1·2⁶⁴ + w0`.
    @inline(__always)
    init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        self.w0 = w0; self.w1 = w1; self.w2 = w2; self.w3 = w3
    }

    /// A number below 2⁶⁴.
    @inline(__always)
    init(_ small: UInt64) { self.init(small, 0, 0, 0) }

    static let zero = UInt256(0, 0, 0, 0)

    /// The number that big-endian `bytes` spell (at most 32 of them; fewer are read as if
    /// zero-padded on the left, as SEC 1's Octet-String-to-Integer does); nil for more than 32
    /// bytes unless the extra leading bytes are zero (DER integers carry a leading zero byte).
    init?<Bytes: Collection>(bigEndian bytes: Bytes) where Bytes.Element == UInt8 {
        var significant = bytes[...]
        while significant.count > 32, significant.first == 0 { significant = significant.dropFirst() }
        guard significant.count <= 32 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (position, byte) in significant.reversed().enumerated() {
            words[position / 8] |= UInt64(byte) << UInt64(8 * (position % 8))
        }
        self.init(words[0], words[1], words[2], words[3])
    }

    /// The 32 big-endian bytes of the number (SEC 1's Integer-to-Octet-String with 32 octets).
    var bigEndianBytes: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for word in [w3, w2, w1, w0] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return bytes
    }

    /// Whether the number is zero.
    @inline(__always)
    var isZero: Bool { (w0 | w1 | w2 | w3) == 0 }

    /// Word `index` (0 the least significant), for `index` in 0..<4.
    @inline(__always)
    func word(_ index: Int) -> UInt64 {
        switch index {
        case 0: return w0
        case 1: return w1
        case 2: return w2
        default: return w3
        }
    }

    /// Bit `index` (0 is the least significant), for `index` in 0..<256.
    func bit(_ index: Int) -> Bool { (word(index >> 6) >> UInt64(index & 63)) & 1 == 1 }

    /// The four bits `4·index …< 4·index + 4` as a number 0–15, for `index` in 0..<64: the digits
    /// of a fixed-window scalar multiplication.
    func nibble(_ index: Int) -> Int { Int((word(index >> 4) >> UInt64(4 * (index & 15))) & 0xF) }

    /// The number of significant bits (0 for zero).
    var bitWidth: Int {
        if w3 != 0 { return 256 - w3.leadingZeroBitCount }
        if w2 != 0 { return 192 - w2.leadingZeroBitCount }
        if w1 != 0 { return 128 - w1.leadingZeroBitCount }
        return 64 - w0.leadingZeroBitCount
    }

    /// `self + other` modulo 2²⁵⁶, and whether it overflowed.
    @inline(__always)
    func addingReportingCarry(_ other: UInt256) -> (sum: UInt256, carry: Bool) {
        let (s0, c0) = w0.addingReportingOverflow(other.w0)
        let (s1, c1) = Self.add(w1, other.w1, c0)
        let (s2, c2) = Self.add(w2, other.w2, c1)
        let (s3, c3) = Self.add(w3, other.w3, c2)
        return (UInt256(s0, s1, s2, s3), c3)
    }

    /// `self − other` modulo 2²⁵⁶, and whether it went below zero.
    @inline(__always)
    func subtractingReportingBorrow(_ other: UInt256) -> (difference: UInt256, borrow: Bool) {
        let (d0, b0) = w0.subtractingReportingOverflow(other.w0)
        let (d1, b1) = Self.subtract(w1, other.w1, b0)
        let (d2, b2) = Self.subtract(w2, other.w2, b1)
        let (d3, b3) = Self.subtract(w3, other.w3, b2)
        return (UInt256(d0, d1, d2, d3), b3)
    }

    /// The number shifted right by one bit.
    var halved: UInt256 {
        UInt256(w0 >> 1 | w1 << 63, w1 >> 1 | w2 << 63, w2 >> 1 | w3 << 63, w3 >> 1)
    }

    @inline(__always)
    static func add(_ a: UInt64, _ b: UInt64, _ carry: Bool) -> (UInt64, Bool) {
        let (s, c1) = a.addingReportingOverflow(b)
        let (t, c2) = s.addingReportingOverflow(carry ? 1 : 0)
        return (t, c1 || c2)
    }

    @inline(__always)
    static func subtract(_ a: UInt64, _ b: UInt64, _ borrow: Bool) -> (UInt64, Bool) {
        let (d, b1) = a.subtractingReportingOverflow(b)
        let (e, b2) = d.subtractingReportingOverflow(borrow ? 1 : 0)
        return (e, b1 || b2)
    }

    @inline(__always)
    static func < (a: UInt256, b: UInt256) -> Bool {
        if a.w3 != b.w3 { return a.w3 < b.w3 }
        if a.w2 != b.w2 { return a.w2 < b.w2 }
        if a.w1 != b.w1 { return a.w1 < b.w1 }
        return a.w0 < b.w0
    }

    /// 64 lower-case hex digits, most significant first.
    var description: String {
        bigEndianBytes.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }
}
