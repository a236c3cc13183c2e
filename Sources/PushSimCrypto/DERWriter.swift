/// The DER encodings (ITU-T X.690, 10) the toolkit writes: what a signature's `SEQUENCE { r, s }`
/// and the key containers (PKCS#8, SEC 1, PKCS#1, SubjectPublicKeyInfo) are made of. Definite
/// lengths in their shortest form, single-byte tags: exactly what ``DERReader`` reads back.
enum DERWriter {
    /// A SEQUENCE of the given encoded parts.
    static func sequence(_ contents: [UInt8]) -> [UInt8] { [0x30] + length(contents.count) + contents }

    /// An INTEGER from big-endian magnitude bytes: leading zeros dropped, one zero put back when
    /// the top bit is set (so it reads as non-negative).
    static func unsignedInteger(_ magnitude: [UInt8]) -> [UInt8] {
        var significant = Array(magnitude.drop { $0 == 0 })
        if significant.isEmpty || significant[0] & 0x80 != 0 { significant.insert(0, at: 0) }
        return [0x02] + length(significant.count) + significant
    }

    /// A small non-negative INTEGER (a version number).
    static func smallInteger(_ value: UInt8) -> [UInt8] { unsignedInteger([value]) }

    /// An OCTET STRING holding `contents`.
    static func octetString(_ contents: [UInt8]) -> [UInt8] { [0x04] + length(contents.count) + contents }

    /// A BIT STRING of whole bytes (no unused bits).
    static func bitString(_ contents: [UInt8]) -> [UInt8] { [0x03] + length(contents.count + 1) + [0] + contents }

    /// An OBJECT IDENTIFIER from its contents bytes (``ObjectIdentifiers``).
    static func objectIdentifier(_ contents: [UInt8]) -> [UInt8] { [0x06] + length(contents.count) + contents }

    /// NULL.
    static let null: [UInt8] = [0x05, 0x00]

    /// A constructed context-specific element `[number]` around `contents` (explicit tagging).
    static func contextSpecific(_ number: UInt8, _ contents: [UInt8]) -> [UInt8] { [0xA0 | number] + length(contents.count) + contents }

    /// X.690 8.1.3: the short form below 128, else the long form in the fewest bytes.
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
