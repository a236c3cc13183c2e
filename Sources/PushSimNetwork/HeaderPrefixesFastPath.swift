import PushSimKernel

/// Answers whether a header name starts with one of a few prefixes, ignoring ASCII case: what
/// `name.lowercased().hasPrefix(p)` for some lower-cased prefix `p` answers (the plain way, which
/// `HeaderPrefixesFastPathTests` holds it to), without lower-casing a copy. Most names a request
/// carries differ from every prefix in their first letter, whatever its case, so that letter is
/// looked at first; ASCII names (all real ones) are then compared in place.
package struct HeaderPrefixesFastPath: Sendable {
    /// The prefixes, lower-cased.
    private let prefixes: [String]
    /// The first byte of each prefix.
    private let firstLetters: Set<UInt8>
    /// Whether one prefix is empty (then every name matches).
    private let matchesAll: Bool

    /// A matcher for `prefixes` (any case; kept lower-cased).
    package init(_ prefixes: [String]) {
        self.prefixes = prefixes.map { $0.lowercased() }
        firstLetters = Set(self.prefixes.compactMap(\.utf8.first))
        matchesAll = prefixes.contains("")
    }

    /// Whether `name` starts with one of ``prefixes``, ignoring case.
    package func matches(_ name: String) -> Bool {
        if matchesAll { return true }
        guard let first = name.utf8.first else { return false }
        if first < 0x80 && !firstLetters.contains(first &- 0x41 < 26 ? first | 0x20 : first) { return false }   // A–Z lower-cased
        if name.allBytes({ $0 < 0x80 }) { return prefixes.contains { fieldName(name, hasPrefix: $0) } }
        let lower = name.lowercased()
        return prefixes.contains { lower.hasPrefix($0) }
    }
}
