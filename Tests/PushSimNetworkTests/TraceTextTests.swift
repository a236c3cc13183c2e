import Testing
@testable import PushSimNetwork

/// How the network layer writes handles and correlation ids into the trace: both are read by
/// their first few characters or bytes only, and must agree with the plain definitions.
@Suite("Trace text: short handles and correlation ids")
struct TraceTextTests {
    /// A handle longer than 12 characters is its first 8 and an ellipsis, counted in characters
    /// (what `String.count` counts), whatever its length in bytes.
    @Test(arguments: ["", "abc", "123456789012", "1234567890123", String(repeating: "f", count: 160),
                      "éééééééééééé", "ééééééééééééé", "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}x"])
    func shortTokenCutsByCharacters(token: String) {
        let expected = token.count > 12 ? String(token.prefix(8)) + "…" : token
        #expect(shortToken(token) == expected)
    }

    /// Correlation ids are zero-padded to four digits and grow past them.
    @Test func pad4PadsToFourDigits() {
        #expect([0, 7, 42, 999, 1000, 12345].map(pad4) == ["0000", "0007", "0042", "0999", "1000", "12345"])
    }
}
