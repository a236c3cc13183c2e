import PushSimKernel

/// One part of PushSim that takes untrusted bytes, as the fuzzer feeds it: a name, valid examples
/// to start from, and a function that must return, never crash, whatever the bytes are. It
/// answers a short outcome class (a status, an error kind) so that a run can say how deep the
/// mutated inputs reach.
public struct FuzzSurface: Sendable {
    public let name: String
    public let corpus: [[UInt8]]
    public let run: @Sendable ([UInt8]) -> String

    public init(name: String, corpus: [[UInt8]], run: @escaping @Sendable ([UInt8]) -> String) {
        self.name = name
        self.corpus = corpus
        self.run = run
    }
}

/// Byte-level mutations of corpus entries, every choice from a ``SeededRandom``: flip a bit,
/// insert, delete or duplicate a block, splice two entries, or insert a token known to stress
/// parsers (deep nesting, huge numbers, invalid UTF-8, control characters, combining marks).
public struct Mutator {
    private var random: SeededRandom
    private let maxLength: Int

    public init(seed: UInt64, surface: String, maxLength: Int) {
        random = SeededRandom(seed: seed).fork("fuzz-" + surface)
        self.maxLength = max(16, maxLength)
    }

    static let tokens: [[UInt8]] = [
        Array(String(repeating: "(", count: 2_000).utf8), Array(String(repeating: "!", count: 2_000).utf8),
        Array(String(repeating: "[", count: 2_000).utf8), Array(String(repeating: "{\"a\":", count: 600).utf8),
        Array(String(repeating: "<a>", count: 600).utf8), Array("9223372036854775807".utf8), Array("-9223372036854775808".utf8),
        Array("99999999999999d".utf8), Array("1e999999".utf8), [0xFF, 0xFE], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x1B, 0x5D],
        [0x00], [0x0D, 0x0A, 0x0D, 0x0A], Array("\"\u{301}".utf8), Array("\\\u{301}".utf8), Array("%00%ff%".utf8),
        Array("Transfer-Encoding: chunked\r\n".utf8), Array("Content-Length: 99999999999999999999\r\n".utf8),
    ]

    /// A mutated copy of an entry of `corpus` (or of nothing, if the corpus is empty).
    public mutating func next(_ corpus: [[UInt8]]) -> [UInt8] {
        var bytes = corpus.isEmpty ? [] : corpus[random.int(below: corpus.count)]
        for _ in 0..<(1 + random.int(below: 4)) {
            let at = bytes.isEmpty ? 0 : random.int(below: bytes.count + 1)
            switch random.int(below: 7) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= UInt8(1 << random.int(below: 8))
            case 1: bytes.insert(contentsOf: (0..<(1 + random.int(below: 8))).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
            case 2 where !bytes.isEmpty:
                let end = min(bytes.count, at + 1 + random.int(below: 32))
                bytes.removeSubrange(min(at, bytes.count - 1)..<end)
            case 3 where !bytes.isEmpty:
                let start = random.int(below: bytes.count)
                let block = bytes[start..<min(bytes.count, start + 1 + random.int(below: 64))]
                bytes.insert(contentsOf: block, at: at)
            case 4 where !corpus.isEmpty:
                let other = corpus[random.int(below: corpus.count)]
                bytes = Array(bytes.prefix(at)) + other.suffix(from: random.int(below: other.count + 1))
            default: bytes.insert(contentsOf: Self.tokens[random.int(below: Self.tokens.count)], at: at)
            }
        }
        return bytes.count > maxLength ? Array(bytes.prefix(maxLength)) : bytes
    }
}
