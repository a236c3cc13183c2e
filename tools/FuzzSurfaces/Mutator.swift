import PushSimKernel

/// Makes the inputs of one surface's run, every choice from one ``SeededRandom`` forked for the
/// surface (`fuzz/<surface>` off the `--seed`): the same seed gives the same inputs in any process.
///
/// Each input is a corpus entry (or, one time in eight by default, the surface's generator's output) with one
/// to five byte-level mutations: flip a bit, replace or insert random bytes, delete a block,
/// duplicate a block, splice in the tail of another entry, or insert a token known to stress
/// parsers (``tokens``). ``remember(_:)`` adds an input that reached a new outcome (a part of an
/// outcome class not seen before) to the corpus, so mutations build on the inputs that got furthest.
public struct Mutator {
    private var random: SeededRandom
    private let maxLength: Int
    private let generate: (@Sendable (inout SeededRandom) -> [UInt8])?
    private let prefersText: Bool
    private let generatorOdds: Int
    /// The corpus as it grows: the surface's entries, then inputs that reached a new outcome.
    public private(set) var corpus: [[UInt8]]
    /// How many inputs ``remember(_:)`` may add (the rest are dropped).
    public static let learnedLimit = 512
    private var learned = 0

    /// The input stream of `surface` for `seed` (`fuzz/<surface>`; chunk `c > 0` of a long run
    /// has its own, `fuzz/<surface>/<c>`); inputs are cut to `maxLength` bytes (at least 16).
    public init(seed: UInt64, surface: FuzzSurface, maxLength: Int, chunk: Int = 0) {
        random = SeededRandom(seed: seed).fork("fuzz/" + surface.name + (chunk == 0 ? "" : "/\(chunk)"))
        self.maxLength = max(16, maxLength)
        corpus = surface.corpus
        generate = surface.generate
        prefersText = surface.prefersText
        generatorOdds = surface.generatorOdds
    }

    /// A random byte: for a text surface, printable ASCII three times in four.
    private mutating func randomByte() -> UInt8 {
        if prefersText, random.int(below: 4) != 0 { return UInt8(0x20 + random.int(below: 0x5F)) }
        return UInt8(truncatingIfNeeded: random.next())
    }

    /// Keeps `input` as a corpus entry to mutate further (up to ``learnedLimit`` of them).
    public mutating func remember(_ input: [UInt8]) {
        guard learned < Self.learnedLimit, input.count <= maxLength else { return }
        corpus.append(input)
        learned += 1
    }

    /// Bytes that stress parsers: deep nesting, long operator runs, numbers at and past the
    /// 64-bit limits, durations near `Int64.max`, invalid and overlong UTF-8, surrogates, NUL,
    /// control characters, combining marks after quotes and backslashes, HTTP framing.
    public static let tokens: [[UInt8]] = [
        "((((((((((((((((((((((((((((((((", "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        String(repeating: "(", count: 3_000), String(repeating: "!", count: 3_000), String(repeating: "[", count: 3_000),
        String(repeating: "{\"a\":", count: 800), String(repeating: "<a>", count: 1_000), String(repeating: " && x", count: 500),
        String(repeating: " || x", count: 500), "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "18446744073709551616", "99999999999999d", "99999999999d", "9999999999999999999999s", "-1", "-0", "0x7fffffff",
        "1e999999", "-1e-999999", "1.7976931348623157e309", "NaN", "Infinity", "\u{0}", "\r\n", "\r\n\r\n", "\t", "\u{1B}[31m",
        "\u{7F}", "\u{FEFF}", "\"\u{301}", "\\\u{301}", "'\u{301}", "\u{301}\u{301}\u{301}", "\u{202E}", "😀", "é", "\\u0000",
        "\\ud800", "\\udfff\\ud800", "&#0;", "&#x110000;", "&#xFFFFFFFFFF;", "&amp", "<![CDATA[", "]]>", "<!DOCTYPE x [<!ENTITY a \"b\">]>",
        "<?xml version=\"1.0\"?>", "%00", "%ff", "%", "%%", "=", "==", "===", ".", "..", "...", "Transfer-Encoding: chunked\r\n",
        "Content-Length: 99999999999999999999\r\n", "ServiceBusNotification-Tags: ", "$InstallationId:{", "{{", "}}",
        String(repeating: "A", count: 1_100), "\n~~~\n", "\nWAIT 91d\n", "\nWAIT 1h\n",
    ].map { Array($0.utf8) } + [[0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                 [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xEF, 0xBF, 0xBF]]

    /// The next input.
    public mutating func next() -> [UInt8] {
        var bytes: [UInt8]
        if let generate, random.int(below: generatorOdds) == 0 {
            bytes = generate(&random)
            if random.int(below: 2) == 0 { return clipped(bytes) }
        } else {
            bytes = corpus.isEmpty ? [] : corpus[random.int(below: corpus.count)]
        }
        for _ in 0..<(1 + random.int(below: 5)) { mutate(&bytes) }
        return clipped(bytes)
    }

    private func clipped(_ bytes: [UInt8]) -> [UInt8] { bytes.count > maxLength ? Array(bytes.prefix(maxLength)) : bytes }

    /// One random mutation of `bytes`.
    private mutating func mutate(_ bytes: inout [UInt8]) {
        let at = random.int(below: bytes.count + 1)
        switch random.int(below: 10) {
        case 0 where !bytes.isEmpty:   // flip one bit
            let i = min(at, bytes.count - 1)
            bytes[i] ^= UInt8(1 << random.int(below: 8))
        case 1 where !bytes.isEmpty:   // replace a few bytes with random ones, or with "interesting" bytes
            for _ in 0..<(1 + random.int(below: 4)) {
                let i = random.int(below: bytes.count)
                bytes[i] = random.int(below: 2) == 0 ? randomByte() : random.pick(Self.interestingBytes)!
            }
        case 2:   // insert random bytes
            let count = 1 + random.int(below: 8)
            bytes.insert(contentsOf: (0..<count).map { _ in randomByte() }, at: at)
        case 3 where !bytes.isEmpty:   // delete a block
            let start = min(at, bytes.count - 1)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.int(below: 64)))
        case 4 where !bytes.isEmpty:   // duplicate a block, sometimes many times (long chains, deep nesting)
            let start = random.int(below: bytes.count)
            let block = Array(bytes[start..<min(bytes.count, start + 1 + random.int(below: 48))])
            let times = random.int(below: 4) == 0 ? 1 + random.int(below: 200) : 1
            var copies: [UInt8] = []
            copies.reserveCapacity(block.count * times)
            for _ in 0..<times { copies += block }
            bytes.insert(contentsOf: copies, at: at)
        case 5 where !corpus.isEmpty:   // splice: this input's head, another entry's tail
            let other = corpus[random.int(below: corpus.count)]
            bytes = Array(bytes.prefix(at)) + other.suffix(from: random.int(below: other.count + 1))
        case 6 where !bytes.isEmpty:   // replace a digit run with an extreme number
            if let run = digitRun(in: bytes, near: at) {
                bytes.replaceSubrange(run, with: random.pick(Self.numbers)!)
            } else {
                bytes.insert(contentsOf: random.pick(Self.numbers)!, at: at)
            }
        default:   // insert a token
            bytes.insert(contentsOf: Self.tokens[random.int(below: Self.tokens.count)], at: at)
        }
    }

    static let interestingBytes: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x22, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2C, 0x2E,
                                            0x2F, 0x3A, 0x3C, 0x3E, 0x3D, 0x5B, 0x5C, 0x5D, 0x7B, 0x7D, 0x7F, 0x80, 0xBF, 0xC0, 0xFF]
    static let numbers: [[UInt8]] = ["0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                                     "99999999999999", "4294967296", "1e308", "1e-400", "00000000000000000001", "2147483648"]
        .map { Array($0.utf8) }

    /// The run of ASCII digits at or after `index` (within 32 bytes), if any.
    private func digitRun(in bytes: [UInt8], near index: Int) -> Range<Int>? {
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        var i = min(index, bytes.count - 1)
        let limit = min(bytes.count, i + 32)
        while i < limit, !isDigit(bytes[i]) { i += 1 }
        guard i < limit else { return nil }
        var start = i
        while start > 0, isDigit(bytes[start - 1]) { start -= 1 }
        var end = i
        while end < bytes.count, isDigit(bytes[end]) { end += 1 }
        return start..<end
    }
}
