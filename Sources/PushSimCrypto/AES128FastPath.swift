/// AES-128 encryption with T-tables (the "fast implementation" of the Rijndael proposal, Daemen
/// and Rijmen, 1999, 5.2.1): each round's SubBytes, ShiftRows and MixColumns become four table
/// look-ups and XORs per column; the four tables of 256 words are built from
/// `AES128Reference.sBox` at first use.
///
/// Not constant time (table look-ups by secret bytes leak through the cache: a simulator's tool).
/// Contract: ``encrypt(_:_:_:_:)`` gives the same block as `AES128Reference.encrypt(_:)` for
/// every key and block (tested in `AESTests` with seeded random keys and blocks).
struct AES128FastPath: Sendable {
    /// The 44 words of the expanded key (FIPS 197, 5.2).
    let roundKeys: [UInt32]
    /// `T0`, `T1`, `T2`, `T3` and the S-box as words, one after the other (5 × 256 words), held
    /// here so that a block reads them without the global's once-check.
    private let tables: [UInt32]

    /// `key` must be 16 bytes (the callers check).
    init(key: [UInt8]) {
        roundKeys = AES128Reference.expand(key)
        tables = AES128FastPath.t0 + AES128FastPath.t1 + AES128FastPath.t2 + AES128FastPath.t3 + AES128FastPath.sBoxWords
    }

    /// `T0[a]` = the MixColumns column of `S(a)` in row 0: `(2·S(a), S(a), S(a), 3·S(a))`.
    static let t0: [UInt32] = AES128Reference.sBox.map { s in
        UInt32(AES128Reference.multiply(s, 2)) << 24 | UInt32(s) << 16 | UInt32(s) << 8 | UInt32(AES128Reference.multiply(s, 3))
    }
    /// `T1`, `T2`, `T3`: `T0` rotated right by one, two, three bytes (rows 1, 2, 3).
    static let t1: [UInt32] = t0.map { $0 >> 8 | $0 << 24 }
    static let t2: [UInt32] = t0.map { $0 >> 16 | $0 << 16 }
    static let t3: [UInt32] = t0.map { $0 >> 24 | $0 << 8 }
    /// The S-box as words, for the last round.
    static let sBoxWords: [UInt32] = AES128Reference.sBox.map { UInt32($0) }

    /// Encrypts one block given as four big-endian column words. The tables and round keys are
    /// read through unsafe buffers: every index is a byte (below 256) plus a fixed table offset,
    /// or a round-key index below 44, so none can fall outside, and the checks cost a third of
    /// the block.
    @inline(__always)
    func encrypt(_ c0: UInt32, _ c1: UInt32, _ c2: UInt32, _ c3: UInt32) -> (UInt32, UInt32, UInt32, UInt32) {
        tables.withUnsafeBufferPointer { t in
            roundKeys.withUnsafeBufferPointer { k in
                AES128FastPath.rounds(c0, c1, c2, c3, t, k)
            }
        }
    }

    @inline(__always)
    private static func rounds(_ c0: UInt32, _ c1: UInt32, _ c2: UInt32, _ c3: UInt32,
                               _ t: UnsafeBufferPointer<UInt32>, _ k: UnsafeBufferPointer<UInt32>) -> (UInt32, UInt32, UInt32, UInt32) {
        @inline(__always) func t0(_ x: UInt32) -> UInt32 { t[Int(x >> 24)] }
        @inline(__always) func t1(_ x: UInt32) -> UInt32 { t[256 + Int(x >> 16 & 0xFF)] }
        @inline(__always) func t2(_ x: UInt32) -> UInt32 { t[512 + Int(x >> 8 & 0xFF)] }
        @inline(__always) func t3(_ x: UInt32) -> UInt32 { t[768 + Int(x & 0xFF)] }
        @inline(__always) func s(_ x: UInt32) -> UInt32 { t[1024 + Int(x & 0xFF)] }
        var s0 = c0 ^ k[0], s1 = c1 ^ k[1], s2 = c2 ^ k[2], s3 = c3 ^ k[3]
        for round in 1..<10 {
            let r = 4 * round
            let n0 = t0(s0) ^ t1(s1) ^ t2(s2) ^ t3(s3) ^ k[r]
            let n1 = t0(s1) ^ t1(s2) ^ t2(s3) ^ t3(s0) ^ k[r + 1]
            let n2 = t0(s2) ^ t1(s3) ^ t2(s0) ^ t3(s1) ^ k[r + 2]
            let n3 = t0(s3) ^ t1(s0) ^ t2(s1) ^ t3(s2) ^ k[r + 3]
            (s0, s1, s2, s3) = (n0, n1, n2, n3)
        }
        @inline(__always) func last(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ key: UInt32) -> UInt32 {
            (s(a >> 24) << 24 | s(b >> 16) << 16 | s(c >> 8) << 8 | s(d)) ^ key
        }
        return (last(s0, s1, s2, s3, k[40]), last(s1, s2, s3, s0, k[41]), last(s2, s3, s0, s1, k[42]), last(s3, s0, s1, s2, k[43]))
    }
}
