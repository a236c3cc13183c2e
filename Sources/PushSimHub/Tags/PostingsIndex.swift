/// Per key (a tag, a PNS handle), the numbers of the registrations holding it, ascending: the
/// registration store's tag and handle indexes, laid out for a million mostly-unique keys.
///
/// A `[String: [Int]]` costs about 100 bytes per key: a 16-byte key and an 8-byte value in a
/// table at most 3/4 full with a power-of-two capacity, plus a heap array per key. Most keys here
/// have one member (a `username:` tag, a device's handle), so this index keeps no key for them:
/// the 8-byte entry names the member and where the key sits in that member's key list, and a
/// lookup reads the key back from the registration (`keyOf`) to compare. A key with two or more
/// members gets a shared record: the key and an ascending `[Int32]`. A key costs one 8-byte entry
/// in a table 42–85% full (it doubles past 85%): 9.4 to 19 bytes, 9.4 after a bulk import sized
/// the table for its keys.
///
/// Entries sit in one open-addressing table (linear probing). Each carries the top 25 bits of its
/// key's hash; they alone choose the home position, so the table grows, and removes entries by
/// shifting the ones after them back (no tombstones), without hashing any key again, and a probe
/// skips other keys without reading them. (25 bits give 33M distinct homes: past some tens of
/// millions of keys, runs would lengthen.) `String.hashValue` is seeded per process: that only
/// moves entries around, since the index is looked up and never iterated.
struct PostingsIndex {
    // Entry bits: 63…39 fingerprint (top of the key's hash), 38 shared flag, 37…32 the key's
    // position in the member's key list, 31…0 the member's number (flag clear) or the shared
    // record's index (flag set). 0 marks an empty position (numbers start at 1).
    private static let fingerprintShift: UInt64 = 39
    private static let fingerprintBits: UInt64 = 25
    private static let sharedFlag: UInt64 = 1 << 38
    private static let positionShift: UInt64 = 32
    /// Key positions fit in 6 bits (a registration has at most 60 tags, `TagRules`).
    static let maxPosition = 63
    /// Most entries per 100 positions before the table doubles.
    private static let maxLoadPercent = 85

    /// A key with two or more members.
    private struct Shared {
        var key: String
        var members: [Int32]   // ascending
    }

    private var table: [UInt64] = []
    private var used = 0
    private var shared: [Shared] = []
    /// Indexes of `shared` records no key uses any more, reused first.
    private var freeShared: [Int32] = []

    /// Registration `n`'s key at `position` (its handle; the `position`-th of its tags as stored).
    typealias KeyOf = (_ n: Int32, _ position: Int) -> String

    /// The members holding `key`, ascending (empty when none).
    func members(of key: String, keyOf: KeyOf) -> [Int32] {
        let fingerprint = Self.fingerprint(key)
        guard let i = find(key, fingerprint, keyOf) else { return [] }
        let e = table[i]
        return e & Self.sharedFlag != 0 ? shared[Self.low32(e)].members : [Int32(Self.low32(e))]
    }

    /// Records that registration `n` holds `key`, which is `keyOf(n, position)`.
    mutating func add(_ n: Int32, position: Int, key: String, keyOf: KeyOf) {
        precondition(n > 0 && position >= 0 && position <= Self.maxPosition)
        let fingerprint = Self.fingerprint(key)
        let single = fingerprint << Self.fingerprintShift | UInt64(position) << Self.positionShift | UInt64(UInt32(n))
        guard let i = find(key, fingerprint, keyOf) else { return insert(single) }
        let e = table[i]
        if e & Self.sharedFlag != 0 {
            Self.insertAscending(n, into: &shared[Self.low32(e)].members)
            return
        }
        let m = Int32(Self.low32(e))
        if m == n { table[i] = single; return }
        let record = Shared(key: key, members: m < n ? [m, n] : [n, m])
        let s: Int
        if let free = freeShared.popLast() { s = Int(free); shared[s] = record } else { s = shared.count; shared.append(record) }
        table[i] = fingerprint << Self.fingerprintShift | Self.sharedFlag | UInt64(s)
    }

    /// Records that registration `n` no longer holds `key`. When one member is left, `positionIn`
    /// gives where `key` sits in that member's key list.
    mutating func remove(_ n: Int32, key: String, keyOf: KeyOf, positionIn: (Int32) -> Int) {
        let fingerprint = Self.fingerprint(key)
        guard let i = find(key, fingerprint, keyOf) else { return }
        let e = table[i]
        guard e & Self.sharedFlag != 0 else {
            if Int32(Self.low32(e)) == n { removeEntry(at: i) }
            return
        }
        let s = Self.low32(e)
        let at = SortedMerge.lowerBound(shared[s].members, n)
        guard at < shared[s].members.count && shared[s].members[at] == n else { return }
        shared[s].members.remove(at: at)
        if shared[s].members.count == 1 {
            let m = shared[s].members[0]
            table[i] = fingerprint << Self.fingerprintShift | UInt64(positionIn(m)) << Self.positionShift | UInt64(UInt32(m))
            shared[s] = Shared(key: "", members: [])
            freeShared.append(Int32(s))
        }
    }

    /// Makes room for `keys` more keys, so that adding them never regrows the table. Like
    /// `Array.reserveCapacity`, it sizes the table exactly: for large batches, not in a loop.
    mutating func reserveCapacity(_ keys: Int) {
        let needed = Self.capacity(for: used + keys)
        if needed > table.count { resize(to: needed) }
    }

    /// Gives back the room a generous `reserveCapacity` left unused: when more than an eighth of
    /// the table is spare, it shrinks to fit its keys, as full as it may be.
    mutating func shrinkToFit() {
        let fit = Self.capacity(for: used)
        if fit + fit / 8 < table.count { resize(to: fit) }
    }

    /// The smallest table that holds `keys` keys at most `maxLoadPercent` full.
    private static func capacity(for keys: Int) -> Int { max(16, keys * 100 / maxLoadPercent + 1) }

    // MARK: Table

    private static func fingerprint(_ key: String) -> UInt64 {
        UInt64(bitPattern: Int64(key.hashValue)) >> (64 - fingerprintBits)
    }

    private static func low32(_ e: UInt64) -> Int { Int(UInt32(truncatingIfNeeded: e)) }

    /// The home position of a fingerprint: `fingerprint × capacity / 2^25`, spreading the
    /// fingerprints evenly over a table of any size.
    private func home(_ fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint &* UInt64(table.count)) >> Self.fingerprintBits)
    }

    private func next(_ i: Int) -> Int { i + 1 == table.count ? 0 : i + 1 }

    private func find(_ key: String, _ fingerprint: UInt64, _ keyOf: KeyOf) -> Int? {
        guard !table.isEmpty else { return nil }
        var i = home(fingerprint)
        while true {
            let e = table[i]
            if e == 0 { return nil }
            if e >> Self.fingerprintShift == fingerprint {
                let stored = e & Self.sharedFlag != 0 ? shared[Self.low32(e)].key
                    : keyOf(Int32(Self.low32(e)), Int(e >> Self.positionShift & UInt64(Self.maxPosition)))
                if stored == key { return i }
            }
            i = next(i)
        }
    }

    /// Puts a new entry at the first empty position from its home, growing the table first when
    /// it would be more than `maxLoadPercent` full.
    private mutating func insert(_ entry: UInt64) {
        if (used + 1) * 100 > table.count * Self.maxLoadPercent { resize(to: max(16, table.count * 2)) }
        var i = home(entry >> Self.fingerprintShift)
        while table[i] != 0 { i = next(i) }
        table[i] = entry
        used += 1
    }

    /// Empties position `hole`, then moves back each following entry of the run that may move
    /// (its home is not between the hole and where it sits), so every entry stays reachable
    /// from its home without crossing an empty position (Knuth, TAOCP vol. 3, algorithm 6.4R).
    private mutating func removeEntry(at position: Int) {
        var hole = position
        var j = position
        while true {
            j = next(j)
            let e = table[j]
            if e == 0 { break }
            let h = home(e >> Self.fingerprintShift)
            let staysPut = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
            if !staysPut { table[hole] = e; hole = j }
        }
        table[hole] = 0
        used -= 1
    }

    private mutating func resize(to capacity: Int) {
        let old = table
        table = [UInt64](repeating: 0, count: capacity)
        for e in old where e != 0 {
            var i = home(e >> Self.fingerprintShift)
            while table[i] != 0 { i = next(i) }
            table[i] = e
        }
    }

    /// Inserts `n` into an ascending array (appending when it is the largest, the common case).
    private static func insertAscending(_ n: Int32, into list: inout [Int32]) {
        if let last = list.last, last >= n {
            let i = SortedMerge.lowerBound(list, n)
            if i < list.count && list[i] == n { return }
            list.insert(n, at: i)
        } else {
            list.append(n)
        }
    }
}
