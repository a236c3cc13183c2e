/// AES-128 encryption written as FIPS 197 describes it, byte by byte: the S-box built from its
/// definition (the inverse in GF(2⁸) followed by the affine map, 5.1.1), `SubBytes`, `ShiftRows`,
/// `MixColumns`, `AddRoundKey` over 10 rounds, and the key expansion (5.2). Slow and obvious: the
/// yardstick `AES128FastPath` is tested against. Only the forward cipher: GCM never decrypts a block.
struct AES128Reference {
    /// The 44 words of the expanded key.
    let roundKeys: [UInt32]

    /// `key` must be 16 bytes (the callers check).
    init(key: [UInt8]) { roundKeys = AES128Reference.expand(key) }

    /// The substitution box, `S(a) = affine(a⁻¹)` with `0⁻¹` taken as 0.
    static let sBox: [UInt8] = (0..<256).map { value in
        let a = UInt8(value)
        let inverse = a == 0 ? 0 : (1..<256).map { UInt8($0) }.first { multiply(a, $0) == 1 } ?? 0
        var s = inverse
        for shift in 1...4 { s ^= inverse << UInt8(shift) | inverse >> UInt8(8 - shift) }
        return s ^ 0x63
    }

    /// Multiplication in GF(2⁸) modulo `x⁸ + x⁴ + x³ + x + 1` (FIPS 197, 4.2).
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var product: UInt8 = 0, x = a, y = b
        while y != 0 {
            if y & 1 == 1 { product ^= x }
            x = xtime(x)
            y >>= 1
        }
        return product
    }

    /// Multiplication by `x` (that is, 2) in GF(2⁸) (FIPS 197, 4.2.1).
    static func xtime(_ a: UInt8) -> UInt8 { a << 1 ^ (a & 0x80 != 0 ? 0x1B : 0) }

    /// KeyExpansion (FIPS 197, 5.2) for a 16-byte key: 44 big-endian words.
    static func expand(_ key: [UInt8]) -> [UInt32] {
        var words: [UInt32] = (0..<4).map { i in
            key[(4 * i)..<(4 * i + 4)].reduce(UInt32(0)) { word, byte in word << 8 | UInt32(byte) }
        }
        var roundConstant: UInt8 = 1
        for i in 4..<44 {
            var temp = words[i - 1]
            if i % 4 == 0 {
                temp = subWord(temp << 8 | temp >> 24) ^ UInt32(roundConstant) << 24
                roundConstant = xtime(roundConstant)
            }
            words.append(words[i - 4] ^ temp)
        }
        return words
    }

    private static func subWord(_ word: UInt32) -> UInt32 {
        (0..<4).reduce(0) { result, index in
            let shift = UInt32(24 - 8 * index)
            return result | UInt32(sBox[Int((word >> shift) & 0xFF)]) << shift
        }
    }

    /// The cipher (FIPS 197, 5.1) on one 16-byte block; the state is column-major, `state[r + 4c]`.
    func encrypt(_ block: [UInt8]) -> [UInt8] {
        var state = block
        addRoundKey(&state, round: 0)
        for round in 1...10 {
            state = state.map { AES128Reference.sBox[Int($0)] }
            state = (0..<16).map { index in
                let row = index % 4, column = index / 4
                return state[row + 4 * ((column + row) % 4)]
            }
            if round != 10 { state = mixColumns(state) }
            addRoundKey(&state, round: round)
        }
        return state
    }

    private func addRoundKey(_ state: inout [UInt8], round: Int) {
        for column in 0..<4 {
            let word = roundKeys[4 * round + column]
            for row in 0..<4 { state[row + 4 * column] ^= UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * row)) }
        }
    }

    /// Each column times the fixed polynomial `{03}x³ + {01}x² + {01}x + {02}` (5.1.3).
    private func mixColumns(_ state: [UInt8]) -> [UInt8] {
        var out = state
        for column in 0..<4 {
            let a = (0..<4).map { state[$0 + 4 * column] }
            for row in 0..<4 {
                out[row + 4 * column] = AES128Reference.multiply(a[row], 2) ^ AES128Reference.multiply(a[(row + 1) % 4], 3)
                    ^ a[(row + 2) % 4] ^ a[(row + 3) % 4]
            }
        }
        return out
    }
}
