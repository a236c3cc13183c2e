/// HKDF with HMAC-SHA256 (RFC 5869): derives keys from a shared secret. Web Push uses it twice
/// per message (RFC 8291, 3.4: the ECDH secret and the subscription's auth secret make the input
/// keying material; RFC 8188, 2.2: that and the salt make the content key and nonce).
package enum HKDF {
    /// HKDF-Extract (RFC 5869, 2.2): the 32-byte pseudorandom key `HMAC-SHA256(salt, ikm)`; an
    /// empty salt stands for 32 zero bytes, as the RFC says.
    package static func extract(salt: [UInt8], inputKeyingMaterial ikm: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(ikm, key: salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt)
    }

    /// HKDF-Expand (RFC 5869, 2.3): `length` bytes of `T(1) || T(2) || …`, where
    /// `T(i) = HMAC-SHA256(prk, T(i−1) || info || i)`. At most 255 × 32 = 8160 bytes.
    package static func expand(pseudorandomKey prk: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        guard (0...(255 * 32)).contains(length) else {
            throw CryptoError.invalidLength("HKDF-SHA256 gives 0 to 8160 bytes, not \(length)")
        }
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = HMACSHA256.authenticationCode(block + info + [counter], key: prk)
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// Extract then expand: `length` bytes of keying material.
    package static func deriveKey(inputKeyingMaterial ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        try expand(pseudorandomKey: extract(salt: salt, inputKeyingMaterial: ikm), info: info, length: length)
    }
}
