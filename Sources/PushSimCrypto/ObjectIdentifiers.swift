/// The object identifiers of the keys read here, as the contents bytes of their DER encoding.
enum ObjectIdentifiers {
    /// id-ecPublicKey, 1.2.840.10045.2.1 (RFC 5480, 2.1.1).
    static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// secp256r1 / prime256v1 / P-256, 1.2.840.10045.3.1.7 (RFC 5480, 2.1.1.1).
    static let p256: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    /// rsaEncryption, 1.2.840.113549.1.1.1 (RFC 8017, A.1).
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]

    /// The dotted form of an identifier's contents, for messages ("1.3.132.0.34"); "?" when unreadable.
    static func dotted(_ contents: [UInt8]) -> String {
        guard let first = contents.first else { return "?" }
        var arcs = [first < 80 ? Int(first) / 40 : 2, first < 80 ? Int(first) % 40 : Int(first) - 80]
        var value = 0
        for byte in contents.dropFirst() {
            guard value < (1 << 48) else { return "?" }
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }
}
