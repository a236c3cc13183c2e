import Testing
import PushSimCrypto

/// SHA-256 against FIPS 180-4's examples and HMAC-SHA256 against RFC 4231's test cases.
@Suite("SHA-256 and HMAC-SHA256")
struct HMACSHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256MatchesFIPS180(message: Swift.String, digest: Swift.String) {
        #expect(TestBytes.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func sha256OfAMillionAs() {
        #expect(TestBytes.hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// RFC 4231 test cases 1, 2, 3, 4, 6 and 7 (case 5 truncates the output).
    @Test(arguments: [
        ("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ("4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (Swift.String(repeating: "aa", count: 20), Swift.String(repeating: "dd", count: 50), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        ("0102030405060708090a0b0c0d0e0f10111213141516171819", Swift.String(repeating: "cd", count: 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (Swift.String(repeating: "aa", count: 131), "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374", "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (Swift.String(repeating: "aa", count: 131), "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e", "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func hmacMatchesRFC4231(key: Swift.String, data: Swift.String, mac: Swift.String) {
        #expect(TestBytes.hex(HMACSHA256.authenticationCode(TestBytes.hex(data), key: TestBytes.hex(key))) == mac)
    }

    @Test func equalComparesWholeCodes() {
        #expect(HMACSHA256.equal([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.equal([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.equal([1, 2], [1, 2, 3]))
    }

    /// Messages whose padding falls on each side of a block boundary (55, 56, 63, 64 bytes and
    /// their two-block twins): digests of `a` repeated, as Python's hashlib gives them.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
    ])
    func paddingAroundBlockBoundaries(length: Int, digest: String) {
        let bytes = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: length))
        #expect(TestBytes.hex(bytes) == digest)
    }
}
