import Testing
import PushSimKernel

@Suite struct StringBytesTests {
    // Small (≤ 15 bytes, stored inline), native and non-ASCII strings take the same answers.
    static let samples = ["", "a", "apns-id", "/3/device/0123456789abcdef0123456789abcdef",
                          "projects/demo/messages/0:1700000000000%abcdef", "héllo wörld", "x\"y\\z\n"]

    @Test func containsByteAndAllBytesAgreeWithTheUTF8View() {
        for s in Self.samples {
            for probe: UInt8 in [UInt8(ascii: "a"), UInt8(ascii: "\""), 0x0a, 0xc3, UInt8(ascii: "/")] {
                #expect(s.containsByte(where: { $0 == probe }) == s.utf8.contains(probe), "\(s) \(probe)")
            }
            #expect(s.allBytes { $0 < 0x80 } == s.utf8.allSatisfy { $0 < 0x80 })
        }
        #expect("".allBytes { _ in false })
    }

    @Test func prefixesAndSuffixesAreByteExact() {
        for s in Self.samples {
            for n in 0...s.utf8.count {
                let head = String(decoding: s.utf8.prefix(n), as: UTF8.self), tail = String(decoding: s.utf8.suffix(n), as: UTF8.self)
                // A cut inside a multi-byte character decodes to a replacement character: not a prefix then.
                #expect(s.hasBytePrefix(head) == s.utf8.starts(with: head.utf8))
                #expect(s.hasByteSuffix(tail) == s.utf8.reversed().starts(with: tail.utf8.reversed()))
            }
        }
        #expect(!"ab".hasBytePrefix("abc"))
        #expect(!"ab".hasByteSuffix("cab"))
        #expect("com.example.app.voip".hasByteSuffix(".voip"))
    }

    @Test func concatenatingJoinsInOrder() {
        #expect(String.concatenating() == "")
        #expect(String.concatenating("a") == "a")
        #expect(String.concatenating("/3/device/", "ab12", "") == "/3/device/ab12")
        let long = String(repeating: "x", count: 40)
        #expect(String.concatenating(long, "é", long) == long + "é" + long)
    }
}
