import PushSimKernel

// How the world finds the host behind a name quickly: the table entry a name leads to, and the
// two small memos of names lately resolved (callees, sub-addresses and callers).

/// Where a registered name (primary or alias) leads: the host serving it and its primary name.
struct HostAddress {
    let host: Host
    let primary: String
}

/// The last few names ``World`` resolved (see `resolve`): full names, and the host names before
/// the `#` of sub-addresses (`fleet` for `fleet#12`, which resolves to itself as primary name).
/// A ring: a new name takes the place of the oldest, so remembering moves no other entry. At
/// most one entry can match a name (a full name has no `#`, and two prefixes cannot both be
/// followed by `#` at the same place), so the order entries are tried in does not matter.
struct RecentNames {
    private struct Entry {
        var name: String
        /// `name`'s representation (see ``CallerNames``): a host that calls another by the same
        /// string each time (a constant, a stored endpoint) is found by comparing two words.
        var representation: (UInt64, UInt64)
        /// `name`'s UTF-8 length, kept so that most entries are passed over by comparing a number.
        var length: Int
        var host: Host
        var primary: String
        var isPrefix: Bool
    }
    private var entries: [Entry] = []
    /// The entry the next name replaces once ``kept`` are held.
    private var oldest = 0
    private static let kept = 8

    func find(_ name: String) -> (host: Host, primary: String)? {
        let length = name.utf8.count
        let representation = stringRepresentation(name)
        return entries.withUnsafeBufferPointer { entries -> (host: Host, primary: String)? in
            for i in entries.indices {
                if entries[i].isPrefix {
                    // `<prefix>#…`: longer than the prefix, the prefix's bytes, then `#`.
                    guard length > entries[i].length, Self.isSubAddress(name, of: entries[i].name, prefixLength: entries[i].length)
                    else { continue }
                    return (entries[i].host, name)
                } else if entries[i].representation == representation || (length == entries[i].length && entries[i].name == name) {
                    return (entries[i].host, entries[i].primary)
                }
            }
            return nil
        }
    }

    /// Whether `name` is `prefix#…` (its length already known to exceed the prefix's).
    private static func isSubAddress(_ name: String, of prefix: String, prefixLength n: Int) -> Bool {
        if let found = name.utf8.withContiguousStorageIfAvailable({ x in
            x[n] == UInt8(ascii: "#") && prefix.utf8.withContiguousStorageIfAvailable { p in bytesEqual(x.baseAddress!, p.baseAddress!, count: n) } == true
        }) { return found }
        return name.utf8.dropFirst(n).first == UInt8(ascii: "#") && name.hasBytePrefix(prefix)
    }

    mutating func remember(_ name: String, host: Host, primary: String, isPrefix: Bool) {
        let entry = Entry(name: name, representation: stringRepresentation(name), length: name.utf8.count,
                          host: host, primary: primary, isPrefix: isPrefix)
        guard entries.count == Self.kept else { return entries.append(entry) }
        entries[oldest] = entry
        oldest = (oldest + 1) % Self.kept
    }
}

/// The last few callers' names and their primary names (see `World.callerName`): a ring, like
/// ``RecentNames``, of registered names only (a fleet's members call from sub-addresses, which
/// are their own primary names and would only push the hosts out).
///
/// Names are matched by their representation, not their text: a host calls from the same
/// string every time (its `name` constant), and a string's two words are then the same, whether
/// it is stored inline (up to 15 UTF-8 bytes) or in a buffer it shares. A name spelt in another
/// string misses, is resolved as usual and remembered too. Comparing two words is a few
/// instructions; comparing strings as text, about 80 for the four entries.
struct CallerNames {
    private var names: [(UInt64, UInt64)] = []
    /// Each entry's name and primary name, kept alive so that a remembered representation stays
    /// that of the same text.
    private var strings: [(name: String, primary: String)] = []
    private var oldest = 0
    private static let kept = 4

    func primary(of name: String) -> String? {
        let bits = stringRepresentation(name)
        for i in names.indices where names[i] == bits { return strings[i].primary }
        return nil
    }

    mutating func remember(_ name: String, primary: String) {
        guard names.count == Self.kept else {
            names.append(stringRepresentation(name))
            strings.append((name, primary))
            return
        }
        names[oldest] = stringRepresentation(name)
        strings[oldest] = (name, primary)
        oldest = (oldest + 1) % Self.kept
    }
}

/// The two machine words a `String` value is made of: equal for two copies of one string (its
/// bytes when stored inline, its buffer otherwise). Only compared while the string is kept alive,
/// so that equal words always mean equal text.
private func stringRepresentation(_ s: String) -> (UInt64, UInt64) { unsafeBitCast(s, to: (UInt64, UInt64).self) }
