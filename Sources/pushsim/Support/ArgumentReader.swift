/// Reads a subcommand's flags one at a time; every mistake ends in the subcommand's `fail`
/// (a usage message and exit status 2).
struct ArgumentReader {
    /// The arguments not read yet, in order.
    private var remaining: [String]
    /// How a mistake ends the process (the subcommand's usage error).
    private let fail: (String) -> Never

    /// A reader of `arguments` (the words after the subcommand's name) whose mistakes end in `fail`.
    init(_ arguments: [String], fail: @escaping (String) -> Never) {
        self.remaining = arguments
        self.fail = fail
    }

    /// The next argument, if any.
    mutating func next() -> String? { remaining.isEmpty ? nil : remaining.removeFirst() }

    /// The value after `flag`; a missing one (or another flag) is a usage error.
    mutating func value(_ flag: String) -> String {
        guard let v = remaining.first, !v.hasPrefix("--") else { fail("\(flag) needs a value") }
        remaining.removeFirst()
        return v
    }

    /// A seed (`--seed`): a whole number from 0 to 2^64 - 1.
    mutating func seed(_ flag: String) -> UInt64 {
        guard let n = UInt64(value(flag)) else { fail("\(flag) needs a whole number from 0 to \(UInt64.max)") }
        return n
    }

    /// A whole number in `range`.
    mutating func number(_ flag: String, in range: ClosedRange<Int>) -> Int {
        guard let n = Int(value(flag)), range.contains(n) else { fail("\(flag) needs a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return n
    }

    /// A seed range `A..B` (or one seed `A`).
    mutating func seedRange(_ flag: String) -> ClosedRange<UInt64> {
        let text = value(flag)
        let parts = text.split(separator: ".", omittingEmptySubsequences: true)
        guard (parts.count == 1 || (parts.count == 2 && text.contains(".."))), let a = UInt64(parts[0]), let b = UInt64(parts.last!), a <= b else {
            fail("\(flag) takes a range of seeds such as 1..1000, not '\(text)'")
        }
        guard b - a < Self.maxSeeds else {
            fail("\(flag) takes at most \(Self.maxSeeds) seeds at once (about 65 minutes of exploring), not \(text); split it into ranges")
        }
        return a...b
    }

    /// The widest seed range one command takes: its seeds are listed in memory (8 bytes each), and
    /// a count past `Int.max` would not even fit.
    static let maxSeeds: UInt64 = 10_000_000
}
