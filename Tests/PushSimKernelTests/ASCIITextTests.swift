import Testing
@testable import PushSimKernel

/// The byte readings of `ASCIIText` against the plain readings of the same text through the
/// `utf8` view.
struct ASCIITextTests {
    /// Texts of every shape the readings meet: empty, ASCII, multi-byte scalars at either end,
    /// bridged-looking and long ones.
    static let texts = ["", "a", "fans#7", "fans#", "#12", "fans#0123456789", "fans#12a", "été#3", "fans#3é", "a#1#2",
                        String(repeating: "x", count: 40) + "#42", "🎉#9", "fans#999999999", "fans#1000000000", "fans# 1"]

    /// The plain reading of `decimal(after:in:maxDigits:)`: the text after the first mark, 1 to
    /// `maxDigits` ASCII digits.
    static func plainDecimal(after mark: UInt8, in text: String, maxDigits: Int) -> Int? {
        guard let at = text.utf8.firstIndex(of: mark) else { return nil }
        let digits = text.utf8[text.utf8.index(after: at)...]
        guard (1...maxDigits).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    @Test(arguments: texts)
    func isASCIIAgreesWithTheUTF8View(_ text: String) {
        #expect(ASCIIText.isASCII(text) == text.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test(arguments: texts)
    func decimalAfterAMarkAgreesWithThePlainReading(_ text: String) {
        for maxDigits in [1, 2, 9] {
            #expect(ASCIIText.decimal(after: UInt8(ascii: "#"), in: text, maxDigits: maxDigits)
                        == Self.plainDecimal(after: UInt8(ascii: "#"), in: text, maxDigits: maxDigits), "\(text) \(maxDigits)")
        }
    }

    @Test func decimalReadsAFleetMembersNumber() {
        #expect(ASCIIText.decimal(after: UInt8(ascii: "#"), in: "fans#42", maxDigits: 9) == 42)
        #expect(ASCIIText.decimal(after: UInt8(ascii: "#"), in: "fans#999999999", maxDigits: 9) == 999_999_999)
        #expect(ASCIIText.decimal(after: UInt8(ascii: "#"), in: "fans#1000000000", maxDigits: 9) == nil)
    }
}
