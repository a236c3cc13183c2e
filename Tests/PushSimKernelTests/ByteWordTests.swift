import Testing
@testable import PushSimKernel

/// The eight-bytes-at-once tests against the byte-by-byte answers, for every byte value in
/// every position of the word.
struct ByteWordTests {
    /// A word of printable filler with `byte` at `position`.
    private func word(with byte: UInt8, at position: Int) -> UInt64 {
        var bytes = [UInt8](repeating: UInt8(ascii: "m"), count: 8)
        bytes[position] = byte
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    @Test func everyByteInEveryPositionAnswersAsByteByByte() {
        for position in 0..<8 {
            for value in 0...255 {
                let b = UInt8(value), w = word(with: b, at: position)
                #expect(ByteWord.hasZeroByte(w) == (b == 0))
                #expect(ByteWord.has(UInt8(ascii: "<"), in: w) == (b == UInt8(ascii: "<")))
                #expect(ByteWord.has(UInt8(ascii: "m"), in: w))
                #expect(ByteWord.hasByte(below: 0x20, in: w) == (b < 0x20))
                #expect(ByteWord.hasByte(above: 0x7E, in: w) == (b > 0x7E))
            }
        }
    }

    /// `allASCII` answers as the plain reading, `allSatisfy { $0 < 0x80 }`, for every byte value in
    /// every position of buffers of every length up to 17 (words and tails), and for none.
    @Test func allASCIIAnswersAsByteByByte() {
        for length in 1...17 {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "m"), count: length)
                    bytes[position] = UInt8(value)
                    let plain = bytes.allSatisfy { $0 < 0x80 }
                    #expect(bytes.withUnsafeBytes { ByteWord.allASCII($0) } == plain, "\(length) \(position) \(value)")
                }
            }
        }
        #expect([UInt8]().withUnsafeBytes { ByteWord.allASCII($0) })
    }

    /// `anyASCIIUppercase` answers as a byte-by-byte search, for every byte value in every
    /// position of buffers of every length up to 17 (words and tails).
    @Test func anyUppercaseAnswersAsByteByByte() {
        for length in 1...17 {
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "m"), count: length)
                    bytes[position] = UInt8(value)
                    let plain = bytes.contains { (0x41...0x5A).contains($0) }
                    #expect(bytes.withUnsafeBytes { ByteWord.anyASCIIUppercase($0) } == plain, "\(length) \(position) \(value)")
                }
            }
        }
        #expect(!"".utf8.withContiguousStorageIfAvailable { ByteWord.anyASCIIUppercase(UnsafeRawBufferPointer($0)) }!)
        #expect("abc0123456789defABC".containsASCIIUppercase && !"ab\u{C0}c0123456789def".containsASCIIUppercase)
    }

    @Test func printableASCIIOverBuffersOfEveryLengthAndTail() {
        for length in 0..<20 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(plain.withUnsafeBytes { ByteWord.allPrintableASCII($0) })
            for position in 0..<length {
                for bad: UInt8 in [0x00, 0x09, 0x1F, 0x7F, 0x80, 0xFF] {
                    var bytes = plain
                    bytes[position] = bad
                    #expect(!bytes.withUnsafeBytes { ByteWord.allPrintableASCII($0) })
                }
                var edges = plain
                edges[position] = position % 2 == 0 ? 0x20 : 0x7E
                #expect(edges.withUnsafeBytes { ByteWord.allPrintableASCII($0) })
            }
        }
    }
}

extension ByteWordTests {
    @Test func skipWordsStopsAtTheWordHoldingAnyOfTheBytes() {
        let text = Array("0123456789abcdefghij<klmnopqrstuvwxyz".utf8)   // '<' at 20
        text.withUnsafeBytes { b in
            let skip = { (from: Int) in ByteWord.skipWords(in: b, from: from, whileNoneOf: 0x3C, 0x26, 0x3E, 0x5D) }
            #expect(skip(0) == 16)    // words 0..<8 and 8..<16 are clear; 16..<24 holds '<'
            #expect(skip(3) == 19)    // 3..<11, 11..<19 clear; 19..<27 holds it
            #expect(skip(21) == 37)   // past it: 21..<29, 29..<37 clear; 1 byte left
            #expect(skip(37) == 37)
        }
        let none = Array("abcdefgh&".utf8)
        #expect(none.withUnsafeBytes { ByteWord.skipWords(in: $0, from: 0, whileNoneOf: 0x3C, 0x26, 0x3E, 0x5D) } == 8)
        #expect(none.withUnsafeBytes { ByteWord.skipWords(in: $0, from: 1, whileNoneOf: 0x3C, 0x26, 0x3E, 0x5D) } == 1)
    }
}

extension ByteWordTests {
    /// Every byte value in every position of a word, and in the byte-by-byte tail after it,
    /// answers as `isASCIIHexDigit` does.
    @Test func hexDigitsAnswerAsByteByByteForEveryByteInEveryPosition() {
        let filler = Array("0aF9fA3c".utf8) + Array("b7E".utf8)   // one word, then a tail of three
        #expect(filler.withUnsafeBytes { ByteWord.allHexDigits($0) })
        for position in filler.indices {
            for value in 0...255 {
                var bytes = filler
                bytes[position] = UInt8(value)
                #expect(bytes.withUnsafeBytes { ByteWord.allHexDigits($0) } == UInt8(value).isASCIIHexDigit,
                        "byte \(value) at \(position)")
            }
        }
        #expect([UInt8]().withUnsafeBytes { ByteWord.allHexDigits($0) })
    }
}

extension ByteWordTests {
    /// Against a byte-by-byte search, over ranges of every start and end in a buffer where the
    /// bytes looked for sit at word boundaries, inside words and in the tail.
    @Test func firstOffsetAgreesWithAByteByByteSearch() {
        let text = Array("abcdefg&ijklmnopqrs%uvwxyz0123+56789ABCDEF&".utf8)
        text.withUnsafeBytes { b in
            for start in 0...text.count {
                for end in start...text.count {
                    for (x, y) in [(UInt8(ascii: "&"), UInt8(ascii: "&")), (UInt8(ascii: "%"), UInt8(ascii: "+")), (UInt8(ascii: "!"), UInt8(ascii: "!"))] {
                        let expected = (start..<end).first { text[$0] == x || text[$0] == y }
                        #expect(ByteWord.firstOffset(ofEither: x, y, in: b, from: start, to: end) == expected)
                    }
                }
            }
        }
    }
}

extension ByteWordTests {
    /// Every byte value in every position of the second word: the scan stops at that word exactly
    /// when the byte is a quote, a backslash or outside printable ASCII.
    @Test func plainTextStopsAtTheWordHoldingAByteThatNeedsALook() {
        let plain = Array("abcdefgh01234567xyz".utf8)   // two words and a tail of three
        #expect(plain.withUnsafeBytes { ByteWord.skipPlainText(in: $0, from: 0) } == 16)
        #expect(plain.withUnsafeBytes { ByteWord.skipPlainText(in: $0, from: 5) } == 13)
        for position in 8..<16 {
            for value in 0...255 {
                var bytes = plain
                bytes[position] = UInt8(value)
                let stops = value < 0x20 || value >= 0x7F || value == 0x22 || value == 0x5C
                #expect(bytes.withUnsafeBytes { ByteWord.skipPlainText(in: $0, from: 0) } == (stops ? 8 : 16), "byte \(value) at \(position)")
            }
        }
    }
}
