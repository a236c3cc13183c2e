/// The simulation's only source of randomness: xoshiro256** seeded through SplitMix64.
///
/// A run has one root generator made from its seed. Each part of the world takes a named fork
/// (`"network"`, `"apns"`, `"device/bob-iphone"`). A fork depends only on the root seed and its
/// name, not on how many numbers anyone drew before, so a new draw in one part never shifts
/// another part's numbers. Never use the standard library's random APIs, random UUIDs or the system
/// generator inside the simulation (design rule 4).
public struct SeededRandom: Sendable {
    /// The seed this stream was created from (for a fork: derived from the parent and the name).
    public let seed: UInt64
    @usableFromInline var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// The root stream of `seed`: xoshiro's 256-bit state is expanded from it by SplitMix64, so
    /// every seed, 0 included, gives a usable stream.
    public init(seed: UInt64) {
        self.seed = seed
        var sm = SplitMix64(state: seed)
        s0 = sm.next(); s1 = sm.next(); s2 = sm.next(); s3 = sm.next()
    }

    /// An independent stream named `name`, derived from this stream's seed (not its position).
    public func fork(_ name: String) -> SeededRandom {
        var sm = SplitMix64(state: seed ^ fnv1a64(name.utf8))
        return SeededRandom(seed: sm.next())
    }

    /// The next 64 random bits (xoshiro256**).
    @inlinable public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    /// A uniformly distributed integer in `0..<bound` (Lemire's unbiased multiply-and-reject).
    public mutating func int(below bound: Int) -> Int {
        precondition(bound > 0, "int(below:) needs a positive bound, got \(bound)")
        return Int(uint64(below: UInt64(bound)))
    }

    /// A uniformly distributed integer in `0..<n`, `n > 0` (Lemire's unbiased multiply-and-reject).
    mutating func uint64(below n: UInt64) -> UInt64 {
        var m = next().multipliedFullWidth(by: n)
        if m.low < n {
            let threshold = (0 &- n) % n
            while m.low < threshold { m = next().multipliedFullWidth(by: n) }
        }
        return m.high
    }

    /// A uniformly distributed integer in `range`.
    public mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if width == 0 { return Int64(bitPattern: next()) } // the full 64-bit range
        return range.lowerBound &+ Int64(bitPattern: uint64(below: width))
    }

    /// True with probability `ratio` (an integer ratio such as 1/200, design rule 5).
    public mutating func chance(_ ratio: Ratio) -> Bool {
        if ratio.numerator <= 0 { return false }
        if ratio.numerator >= ratio.denominator { return true }
        return int(below: Int(ratio.denominator)) < Int(ratio.numerator)
    }

    /// A uniformly chosen element, or nil for an empty collection.
    public mutating func pick<C: Collection>(_ elements: C) -> C.Element? {
        guard !elements.isEmpty else { return nil }
        return elements[elements.index(elements.startIndex, offsetBy: int(below: elements.count))]
    }

    /// Fisher–Yates shuffle in place.
    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) {
            array.swapAt(i, int(below: i + 1))
        }
    }

    /// `count` random bytes (keys, salts, secrets, ids): each draw gives 8 bytes, highest first
    /// (network order), and a last partial word is used from its top; `ceil(count / 8)` draws in all.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            let word = next()
            for shift in stride(from: 56, through: 0, by: -8) where out.count < count {
                out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return out
    }

    /// `count` random bytes as hex digits (2 per byte).
    public mutating func hex(bytes count: Int, uppercase: Bool = false) -> String {
        String(unsafeUninitializedCapacity: count * 2) { out in
            writeHex(bytes: count, uppercase: uppercase, into: out)
            return count * 2
        }
    }

    /// Appends `count` random bytes as hex digits to `bytes`: the same draws and digits as
    /// ``hex(bytes:uppercase:)``, for ids written straight into a body.
    public mutating func appendHex(bytes count: Int, uppercase: Bool = false, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count * 2) { out in
            writeHex(bytes: count, uppercase: uppercase, into: out)
            bytes.append(contentsOf: out)
        }
    }

    /// Writes `count` random bytes as hex digits into the first `2 * count` bytes of `out`.
    private mutating func writeHex(bytes count: Int, uppercase: Bool, into out: UnsafeMutableBufferPointer<UInt8>) {
        let letterBase: UInt8 = uppercase ? UInt8(ascii: "A") - 10 : UInt8(ascii: "a") - 10
        func digit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : letterBase + v }
        var word: UInt64 = 0
        for i in 0..<count {
            if i % 8 == 0 { word = next() }
            let byte = UInt8(truncatingIfNeeded: word >> (UInt64(i % 8) * 8))
            out[2 * i] = digit(byte >> 4)
            out[2 * i + 1] = digit(byte & 0xf)
        }
    }

    /// `count` characters drawn from `alphabet`.
    public mutating func string(count: Int, from alphabet: String) -> String {
        var alphabet = alphabet
        return alphabet.withUTF8 { ascii in
            // Printable ASCII, read in place eight bytes at a time: one byte per character, the
            // same draws as by characters, written straight into the string.
            guard ByteWord.allPrintableASCII(UnsafeRawBufferPointer(ascii)) else {
                let chars = Array(String(decoding: ascii, as: UTF8.self))
                return String((0..<count).map { _ in chars[int(below: chars.count)] })
            }
            return String(unsafeUninitializedCapacity: count) { out in
                for i in 0..<count { out[i] = ascii[int(below: ascii.count)] }
                return count
            }
        }
    }

    /// A version-4 UUID in canonical lower-case form (`8-4-4-4-12` hex digits), drawn from this
    /// stream: 16 random bytes with the version digit set to 4 and the variant digit drawn from `89ab`.
    public mutating func uuidString() -> String {
        let (low, high) = (next(), next())   // the 16 bytes, lowest first
        let variant = UInt8(int(below: 4))   // one of "89ab"
        // Written in one pass: two digits per byte, a dash before bytes 4, 6, 8 and 10.
        return String(unsafeUninitializedCapacity: 36) { out in
            func digit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") - 10 + v }
            var j = 0
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 { out[j] = UInt8(ascii: "-"); j += 1 }
                let byte = UInt8(truncatingIfNeeded: (i < 8 ? low : high) >> (UInt64(i % 8) * 8))
                out[j] = digit(byte >> 4)
                out[j + 1] = digit(byte & 0xf)
                j += 2
            }
            out[14] = UInt8(ascii: "4")      // the version digit (hex digit 12)
            out[19] = variant < 2 ? UInt8(ascii: "8") + variant : UInt8(ascii: "a") + variant - 2   // hex digit 16
            return 36
        }
    }
}

@inlinable func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

/// SplitMix64: used to expand one 64-bit seed into xoshiro's 256-bit state.
@usableFromInline struct SplitMix64 {
    @usableFromInline var state: UInt64
    @usableFromInline init(state: UInt64) { self.state = state }
    @usableFromInline mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// A probability as an integer ratio, e.g. `Ratio(1, 200)`; written `1/200` in scenario files.
public struct Ratio: Hashable, Sendable, CustomStringConvertible {
    /// The favourable part: at 0 or less the event never happens, at ``denominator`` or more it always does.
    public var numerator: Int64
    /// The whole; positive.
    public var denominator: Int64
    /// `numerator`/`denominator`, kept as given, not reduced (`Ratio(2, 400)` prints `2/400`).
    /// Traps unless `denominator` is positive.
    public init(_ numerator: Int64, _ denominator: Int64) {
        precondition(denominator > 0, "a ratio needs a positive denominator")
        self.numerator = numerator
        self.denominator = denominator
    }
    /// Probability 0 (`0/1`): ``SeededRandom/chance(_:)`` is always false and draws nothing.
    public static let never = Ratio(0, 1)
    /// Probability 1 (`1/1`): ``SeededRandom/chance(_:)`` is always true and draws nothing.
    public static let always = Ratio(1, 1)
    /// `1/200`, as scenario files write it.
    public var description: String { "\(numerator)/\(denominator)" }
}
