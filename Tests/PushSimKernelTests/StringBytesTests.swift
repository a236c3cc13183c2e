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
        // Two parts take the form without an array: the same strings, small, long and empty.
        for (a, b) in [("", ""), ("a", ""), ("", long), ("https://x/?token=", long), (long, "é"), ("é", "ü")] {
            #expect(String.concatenating(a, b) == a + b)
            #expect(String.concatenating([a, b, a]) == a + b + a)
        }
    }

    @Test func concatenatingALowercasedTailAgreesWithLowercased() {
        let token = "AB12CDEF" + String(repeating: "9F", count: 28)
        #expect(String.concatenating("/3/device/", asciiLowercased: token) == "/3/device/" + token.lowercased())
        #expect(String.concatenating("", asciiLowercased: "MiXeD-09_z") == "mixed-09_z")
        #expect(String.concatenating("/p/", asciiLowercased: "") == "/p/")
        // Outside ASCII, Unicode lower-casing applies to the tail only.
        #expect(String.concatenating("X/", asciiLowercased: "ÉCOLE") == "X/école")
        #expect("ÀB".asciiLowercased() == "àb")
    }

    @Test func decimalPadsToTheMinimumDigits() {
        #expect(String.decimal(42, minimumDigits: 6, prefix: "reg-") == "reg-000042")
        #expect(String.decimal(0, minimumDigits: 6, prefix: "ntf-") == "ntf-000000")
        #expect(String.decimal(1_234_567, minimumDigits: 6, prefix: "reg-") == "reg-1234567")
        #expect(String.decimal(7) == "7")
        #expect(String.decimal(Int.max) == String(Int.max))
        #expect(String.decimal(-5, minimumDigits: 3, prefix: "x") == "x-5")
        #expect(String.decimal(12, minimumDigits: 20, prefix: String(repeating: "p", count: 30)).utf8.count == 50)
    }

    @Test func appendDecimalWritesWhatStringDoes() {
        var random = SeededRandom(seed: 20261126)
        let edges = [0, 1, 9, 10, 99, 100, -1, -10, 1_764_158_400_123, Int.max, Int.min, Int.min + 1]
        for n in edges + (0..<2_000).map({ _ in Int(bitPattern: UInt(random.next())) >> random.int(below: 64) }) {
            var bytes = Array("x:".utf8)
            bytes.appendDecimal(n)
            #expect(bytes == Array("x:\(n)".utf8), "\(n)")
        }
    }

    /// Every byte value at every place of a string long enough to span several eight-byte words,
    /// against the plain definition (a quote, a backslash or a byte below 0x20).
    @Test func needsJSONEscapeAgreesWithThePlainTest() {
        let plain = Array("token_ABC-xyz:0123456789.abcdef".utf8)   // 31 bytes
        for b in 0...255 {
            for at in 0..<plain.count {
                var bytes = plain
                bytes[at] = UInt8(b)
                let text = String(decoding: bytes, as: UTF8.self)   // an invalid byte becomes U+FFFD (plain)
                let expected = text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
                #expect(text.needsJSONEscape == expected, "byte \(b) at \(at)")
            }
        }
        #expect(!"".needsJSONEscape && !"é–ü".needsJSONEscape && "é\n".needsJSONEscape)
    }

    /// The hash must not depend on the process (it is not seeded): pinned values (checked against an
    /// independent Python reference of the same steps) catch a change.
    @Test func stableHashIsPinnedAndSpreads() {
        #expect("".stableHash == "".stableHash)
        #expect("a".stableHash != "b".stableHash)
        #expect("fcm-token-1".stableHash != "fcm-token-2".stableHash)
        // Same bytes, whatever the string's storage (small, native, built).
        let long = String(repeating: "0123456789abcdef", count: 4)
        #expect(long.stableHash == String.concatenating(String(long.prefix(10)), String(long.dropFirst(10))).stableHash)
        #expect("reg-000042".stableHash == String.decimal(42, minimumDigits: 6, prefix: "reg-").stableHash)
        #expect("".stableHash == Self.pinnedEmpty && "abc".stableHash == Self.pinnedABC)
        // Top 32 bits (what tables use) differ for near-identical keys.
        let tops = Set((0..<1000).map { UInt64(UInt(bitPattern: "token-\($0)".stableHash)) >> 32 })
        #expect(tops.count == 1000)
    }
    static let pinnedEmpty = -7_160_610_219_483_255_062
    static let pinnedABC = -2_045_036_227_025_022_908

    @Test func bytesEqualComparesEveryByte() {
        let a = Array("0123456789abcdefghij".utf8)
        for n in 0...a.count {
            for flip in 0..<n {
                var b = a
                b[flip] ^= 1
                #expect(!bytesEqual(a, b, count: n))
            }
            #expect(bytesEqual(a, a.map { $0 }, count: n))
        }
    }

    @Test func sameBytesAndAppendUTF8AgreeWithTheUTF8View() {
        for a in Self.samples {
            for b in Self.samples { #expect(a.sameBytes(as: b) == a.utf8.elementsEqual(b.utf8)) }
            var bytes: [UInt8] = [1, 2]
            bytes.appendUTF8(a)
            #expect(bytes == [1, 2] + Array(a.utf8))
        }
        // Canonically equivalent, different bytes: `==` says equal, the bytes do not.
        #expect("\u{E9}" == "e\u{301}" && !"\u{E9}".sameBytes(as: "e\u{301}"))
    }

    @Test func byteOffsetFindsTheFirstByte() {
        for s in Self.samples {
            for probe: UInt8 in [UInt8(ascii: "a"), UInt8(ascii: "/"), UInt8(ascii: "%"), 0xc3, 0x0a] {
                #expect(s.byteOffset(of: probe) == Array(s.utf8).firstIndex(of: probe), "\(s) \(probe)")
            }
        }
    }

    @Test func byteOffsetOfANeedleIsTheFirstMatch() {
        #expect("https://h/?token=abc&token=d".byteOffset(of: "token=") == 11)
        #expect("sb://ns.servicebus.windows.net/".byteOffset(of: "://") == 2)
        #expect("abc".byteOffset(of: "") == 0)
        #expect("ab".byteOffset(of: "abc") == nil)
        #expect("aaab".byteOffset(of: "aab") == 1)
        #expect("café=x".byteOffset(of: "=") == 5)   // bytes: é is two
        for s in Self.samples {
            for needle in ["a", "/", "é", "%ab", s] {
                let reference = s.utf8.indices.first { s.utf8[$0...].starts(with: needle.utf8) }.map { s.utf8.distance(from: s.utf8.startIndex, to: $0) }
                #expect(s.byteOffset(of: needle) == (needle.isEmpty ? 0 : reference), "\(s) \(needle)")
            }
        }
    }

    @Test func caseInsensitiveComparisonFoldsASCIILettersOnly() {
        #expect("Content-Length".sameBytesIgnoringASCIICase(as: "content-LENGTH"))
        #expect("".sameBytesIgnoringASCIICase(as: ""))
        #expect(!"close".sameBytesIgnoringASCIICase(as: "closed"))
        // Only A–Z fold: `@` (0x40) and `` ` `` (0x60) differ by the same bit as a letter pair.
        #expect(!"@".sameBytesIgnoringASCIICase(as: "`"))
        #expect(!"[".sameBytesIgnoringASCIICase(as: "{"))
        #expect(!"É".sameBytesIgnoringASCIICase(as: "é"))
        #expect("X-WNS-Tag".hasBytePrefixIgnoringASCIICase("x-wns-"))
        #expect(!"X-WN".hasBytePrefixIgnoringASCIICase("x-wns-"))
        #expect(!"Proxy_".hasBytePrefixIgnoringASCIICase("proxy-"))
    }

    /// The word-at-a-time comparison against the byte-at-a-time rule, for every byte value in every
    /// position of names of 1 to 24 bytes (the lengths around one and two words), each byte paired
    /// with its own lower-cased and upper-cased form and with the byte 0x20 away from it.
    @Test func wordAtATimeCaseFoldingMatchesTheByteRule() {
        func byteRule(_ x: [UInt8], _ y: [UInt8]) -> Bool { zip(x, y).allSatisfy { $0 == $1 || $0.asciiLowercased == $1.asciiLowercased } }
        for length in 1...24 {
            for position in [0, length / 2, length - 1] {
                for b in UInt8.min...UInt8.max {
                    var x = Array(repeating: UInt8(ascii: "k"), count: length)
                    x[position] = b
                    for other in [b.asciiLowercased, b &- 0x20, b ^ 0x20, b | 0x80] {
                        var y = x
                        y[position] = other
                        let word = x.withUnsafeBufferPointer { p in y.withUnsafeBufferPointer { q in bytesEqualIgnoringASCIICase(p, q) } }
                        #expect(word == byteRule(x, y), "length \(length), byte \(b) against \(other) at \(position)")
                    }
                }
            }
        }
        for b in UInt8.min...UInt8.max {
            let word = ByteWord.asciiLowercased(UInt64(b) << 40 | 0x4141)
            #expect(UInt8(truncatingIfNeeded: word >> 40) == b.asciiLowercased && word & 0xFFFF == 0x6161, "\(b)")
        }
    }

    @Test func asciiByteClassesMatchTheirDefinitions() {
        for b in UInt8.min...UInt8.max {
            let c = Character(Unicode.Scalar(b))
            #expect(b.isASCIIDigit == ("0"..."9").contains(c))
            #expect(b.isASCIIHexDigit == (("0"..."9").contains(c) || ("a"..."f").contains(c) || ("A"..."F").contains(c)), "\(b)")
            #expect(b.asciiLowercased == (("A"..."Z").contains(c) ? b + 32 : b))
        }
    }
}
