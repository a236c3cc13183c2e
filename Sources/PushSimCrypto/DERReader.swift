/// A strict reader of the DER encoding (ITU-T X.690, 10) for the few structures keys and
/// signatures use: SEQUENCE, INTEGER, OCTET STRING, BIT STRING, OBJECT IDENTIFIER, NULL and
/// context-specific tags. Definite lengths only, in their shortest form, never past the end; a
/// single-byte tag. Anything else is ``CryptoError/malformedDER(_:)``, never a crash.
struct DERReader {
    /// The universal tags read here.
    enum Tag: UInt8 {
        case integer = 0x02, bitString = 0x03, octetString = 0x04, null = 0x05, objectIdentifier = 0x06, sequence = 0x30
    }

    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    /// Fails unless every byte has been read; `place` says where, for the message.
    func expectEnd(_ place: String) throws {
        guard isAtEnd else { throw CryptoError.malformedDER("\(bytes.endIndex - position) unexpected bytes \(place)") }
    }

    /// The tag byte of the next element, or nil at the end.
    var nextTag: UInt8? { isAtEnd ? nil : bytes[position] }

    /// Reads one element whose tag byte is `tag` and answers its contents.
    mutating func read(tag: UInt8) throws -> ArraySlice<UInt8> {
        guard let found = nextTag else { throw CryptoError.malformedDER("ended where tag 0x\(hex(tag)) was expected") }
        guard found == tag else { throw CryptoError.malformedDER("tag 0x\(hex(found)) where 0x\(hex(tag)) was expected") }
        guard found & 0x1F != 0x1F else { throw CryptoError.malformedDER("multi-byte tags are not used by these keys") }
        position += 1
        let length = try readLength()
        guard length <= bytes.endIndex - position else {
            throw CryptoError.malformedDER("a length of \(length) runs past the end (\(bytes.endIndex - position) bytes left)")
        }
        let contents = bytes[position..<(position + length)]
        position += length
        return contents
    }

    /// X.690 8.1.3 with DER's 10.1: the short form below 128, else the long form in the fewest
    /// bytes; the indefinite form (0x80) is BER only.
    private mutating func readLength() throws -> Int {
        guard !isAtEnd else { throw CryptoError.malformedDER("ended before a length") }
        let first = bytes[position]
        position += 1
        if first < 0x80 { return Int(first) }
        let count = Int(first & 0x7F)
        guard count != 0 else { throw CryptoError.malformedDER("indefinite length (BER, not DER)") }
        guard count <= 4 else { throw CryptoError.malformedDER("a length of \(count) bytes") }
        guard count <= bytes.endIndex - position else { throw CryptoError.malformedDER("ended inside a length") }
        var length = 0
        for byte in bytes[position..<(position + count)] { length = length << 8 | Int(byte) }
        guard bytes[position] != 0, length >= 0x80 else { throw CryptoError.malformedDER("a length not in its shortest form") }
        position += count
        return length
    }

    mutating func read(_ tag: Tag) throws -> ArraySlice<UInt8> { try read(tag: tag.rawValue) }

    /// A SEQUENCE, as a reader of its contents.
    mutating func readSequence() throws -> DERReader { DERReader(try read(.sequence)) }

    /// A reader of the contents of `der`, which must be one SEQUENCE and nothing after it;
    /// `what` names the structure for the message.
    static func onlySequence(_ der: [UInt8], _ what: String) throws -> DERReader {
        var outer = DERReader(der)
        let sequence = try outer.readSequence()
        try outer.expectEnd("after the \(what)")
        return sequence
    }

    /// A non-negative INTEGER's magnitude, big-endian without the sign byte; refused when
    /// negative or not in its shortest form (X.690 8.3.2).
    mutating func readUnsignedInteger() throws -> ArraySlice<UInt8> {
        let contents = try read(.integer)
        guard let first = contents.first else { throw CryptoError.malformedDER("an INTEGER with no contents") }
        guard first & 0x80 == 0 else { throw CryptoError.malformedDER("a negative INTEGER") }
        if contents.count > 1 && first == 0 {
            guard contents[contents.startIndex + 1] & 0x80 != 0 else { throw CryptoError.malformedDER("an INTEGER not in its shortest form") }
            return contents.dropFirst()
        }
        return contents
    }

    /// A small non-negative INTEGER (a version number).
    mutating func readSmallInteger() throws -> Int {
        let magnitude = try readUnsignedInteger()
        guard magnitude.count <= 4 else { throw CryptoError.malformedDER("an INTEGER too large for a version") }
        return magnitude.reduce(0) { $0 << 8 | Int($1) }
    }

    /// An OBJECT IDENTIFIER's contents (compared whole against the known ones in `ObjectIdentifier`).
    mutating func readObjectIdentifier() throws -> [UInt8] { Array(try read(.objectIdentifier)) }

    mutating func readOctetString() throws -> ArraySlice<UInt8> { try read(.octetString) }

    /// A BIT STRING of whole bytes (the leading "unused bits" byte must be 0, as keys have it).
    mutating func readBitString() throws -> ArraySlice<UInt8> {
        let contents = try read(.bitString)
        guard contents.first == 0 else { throw CryptoError.malformedDER("a BIT STRING that is not whole bytes") }
        return contents.dropFirst()
    }

    mutating func readNull() throws {
        guard try read(.null).isEmpty else { throw CryptoError.malformedDER("a NULL with contents") }
    }

    private func hex(_ byte: UInt8) -> String { (byte < 16 ? "0" : "") + String(byte, radix: 16) }
}
