/// AES-128 in Galois/Counter Mode (NIST SP 800-38D): authenticated encryption with a 16-byte key,
/// a nonce (the IV), optional additional authenticated data, and a 16-byte tag. What Web Push
/// encrypts every payload with (`aes128gcm`, RFC 8188 and RFC 8291).
///
/// The block cipher is `AES128FastPath` and the hash `GHASHFastPath`, each tested against its
/// plain reference. Not constant time (see the PushSimCrypto article).
public struct AES128GCM: Sendable {
    private let cipher: AES128FastPath
    private let hash: GHASHFastPath

    /// The tag length: the full 128 bits (SP 800-38D allows shorter ones; RFC 8188 uses these).
    public static let tagLength = 16

    /// A cipher for `key`, which must be 16 bytes.
    public init(key: [UInt8]) throws {
        guard key.count == 16 else { throw CryptoError.invalidLength("an AES-128 key is 16 bytes, not \(key.count)") }
        cipher = AES128FastPath(key: key)
        let h = cipher.encrypt(0, 0, 0, 0)
        hash = GHASHFastPath(hashKey: GCMBlock(high: UInt64(h.0) << 32 | UInt64(h.1), low: UInt64(h.2) << 32 | UInt64(h.3)))
    }

    /// Encrypts `plaintext` and authenticates it with `additionalData` (SP 800-38D Algorithm 4,
    /// authenticated encryption): the ciphertext (as long as the plaintext) and the 16-byte tag.
    public func seal(_ plaintext: [UInt8], nonce: [UInt8], authenticating additionalData: [UInt8] = []) throws
        -> (ciphertext: [UInt8], tag: [UInt8]) {
        try checkLengths(nonce: nonce, text: plaintext)
        let counter0 = preCounterBlock(nonce)
        let ciphertext = counterMode(plaintext, from: counter0)
        return (ciphertext, tag(counter0, additionalData, ciphertext))
    }

    /// Checks `tag` and decrypts (Algorithm 5, authenticated decryption): the plaintext, or
    /// ``CryptoError/authenticationFailed`` (and no plaintext) when the tag does not match.
    public func open(_ ciphertext: [UInt8], tag: [UInt8], nonce: [UInt8], authenticating additionalData: [UInt8] = []) throws -> [UInt8] {
        try checkLengths(nonce: nonce, text: ciphertext)
        guard tag.count == AES128GCM.tagLength else {
            throw CryptoError.invalidLength("a GCM tag is \(AES128GCM.tagLength) bytes here, not \(tag.count)")
        }
        let counter0 = preCounterBlock(nonce)
        guard self.tag(counter0, additionalData, ciphertext) == tag else { throw CryptoError.authenticationFailed }
        return counterMode(ciphertext, from: counter0)
    }

    private func checkLengths(nonce: [UInt8], text: [UInt8]) throws {
        guard !nonce.isEmpty else { throw CryptoError.invalidLength("a GCM nonce cannot be empty") }
        // SP 800-38D 5.2.1.1: at most 2³² − 2 blocks, or the 32-bit counter would repeat.
        guard text.count <= (1 << 32 - 2) * 16 else { throw CryptoError.invalidLength("more than 2³² − 2 blocks") }
    }

    /// J₀ (7.1 step 2): the 96-bit nonce followed by the counter 1, or GHASH of any other nonce
    /// padded and followed by its length in bits.
    private func preCounterBlock(_ nonce: [UInt8]) -> GCMBlock {
        if nonce.count == 12 {
            return GCMBlock(high: GCMBlocks.word(nonce, at: 0), low: GCMBlocks.word(nonce, at: 8) | 1)
        }
        var y = GCMBlock.zero
        absorb(nonce, into: &y)
        return hash.multiply(y ^ GCMBlock(high: 0, low: UInt64(nonce.count) &* 8))
    }

    /// GCTR (Algorithm 3) from inc32(J₀): each 16 bytes XORed with the cipher of the next counter.
    private func counterMode(_ input: [UInt8], from counter0: GCMBlock) -> [UInt8] {
        var output = input
        var counter = UInt32(truncatingIfNeeded: counter0.low)
        var offset = 0
        while offset < input.count {
            counter &+= 1
            let stream = keyStream(counter0, counter)
            if offset + 16 <= input.count {
                GCMBlocks.store(GCMBlocks.fullBlock(input, at: offset) ^ stream, into: &output, at: offset)
            } else {
                let streamBytes = GCMBlocks.bytes(stream)
                for index in offset..<input.count { output[index] ^= streamBytes[index - offset] }
            }
            offset += 16
        }
        return output
    }

    /// The cipher of the counter block: J₀'s first 96 bits, then `counter`.
    @inline(__always)
    private func keyStream(_ counter0: GCMBlock, _ counter: UInt32) -> GCMBlock {
        let words = cipher.encrypt(UInt32(truncatingIfNeeded: counter0.high >> 32), UInt32(truncatingIfNeeded: counter0.high),
                                   UInt32(truncatingIfNeeded: counter0.low >> 32), counter)
        return GCMBlock(high: UInt64(words.0) << 32 | UInt64(words.1), low: UInt64(words.2) << 32 | UInt64(words.3))
    }

    /// The tag (Algorithm 4 steps 5–6): GHASH of the padded data, the padded ciphertext and their
    /// lengths in bits, XORed with the cipher of J₀.
    private func tag(_ counter0: GCMBlock, _ additionalData: [UInt8], _ ciphertext: [UInt8]) -> [UInt8] {
        var y = GCMBlock.zero
        absorb(additionalData, into: &y)
        absorb(ciphertext, into: &y)
        y = hash.multiply(y ^ GCMBlock(high: UInt64(additionalData.count) &* 8, low: UInt64(ciphertext.count) &* 8))
        return GCMBlocks.bytes(y ^ keyStream(counter0, UInt32(truncatingIfNeeded: counter0.low)))
    }

    /// GHASH over `bytes` zero-padded to whole blocks, continuing from `y`.
    private func absorb(_ bytes: [UInt8], into y: inout GCMBlock) {
        var offset = 0
        while offset + 16 <= bytes.count {
            y = hash.multiply(y ^ GCMBlocks.fullBlock(bytes, at: offset))
            offset += 16
        }
        if offset < bytes.count { y = hash.multiply(y ^ GCMBlocks.block(bytes, at: offset)) }
    }
}

/// Bytes to GCM blocks and back (big-endian, zero-padded at the end).
enum GCMBlocks {
    /// The 8 bytes at `offset` as a big-endian word; bytes past the end count as zero.
    static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in offset..<(offset + 8) {
            word = word << 8 | (index < bytes.count ? UInt64(bytes[index]) : 0)
        }
        return word
    }

    static func block(_ bytes: [UInt8], at offset: Int) -> GCMBlock {
        GCMBlock(high: word(bytes, at: offset), low: word(bytes, at: offset + 8))
    }

    /// The 16 bytes at `offset`, all of which exist.
    @inline(__always)
    static func fullBlock(_ bytes: [UInt8], at offset: Int) -> GCMBlock {
        var high: UInt64 = 0, low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[offset + index])
            low = low << 8 | UInt64(bytes[offset + 8 + index])
        }
        return GCMBlock(high: high, low: low)
    }

    /// Writes `block` over the 16 bytes at `offset`, all of which exist.
    @inline(__always)
    static func store(_ block: GCMBlock, into bytes: inout [UInt8], at offset: Int) {
        for index in 0..<8 {
            let shift = UInt64(56 - 8 * index)
            bytes[offset + index] = UInt8(truncatingIfNeeded: block.high >> shift)
            bytes[offset + 8 + index] = UInt8(truncatingIfNeeded: block.low >> shift)
        }
    }

    static func bytes(_ block: GCMBlock) -> [UInt8] {
        [block.high, block.low].flatMap { word in
            stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> UInt64($0)) }
        }
    }
}
