/// A lookup table from keys to slot numbers that stores no keys: each entry is 8 bytes (the top
/// 32 bits of the key's hash and the slot), and a match is confirmed by reading the key back from
/// the caller's own storage (`keyMatches`). For a million handles it costs about 12 bytes per key
/// where a `[String: Int32]` costs about 30 (a 16-byte key and a 4-byte value in a table at most
/// 3/4 full), and the key text is stored once, by the caller.
///
/// Open addressing with linear probing; the home position comes from the stored hash bits, so the
/// table grows without hashing keys again. Entries are never removed (handle registries only
/// add). Callers choose the hash: handles use `stableHash` (a few instructions per 8 bytes, the
/// same in every process), installations `Hasher` (seeded per process). Either way the table is
/// looked up and never iterated, so where entries sit never shows.
package struct SlotTable {
    @usableFromInline var entries: [UInt64] = []   // 0: empty; else hash bits << 32 | (slot + 1)
    private var used = 0

    /// An empty table.
    package init() {}

    /// The slot whose key has hash `hash` and for which `keyMatches` is true.
    @inlinable package func slot(hash: Int, keyMatches: (Int32) -> Bool) -> Int32? {
        guard !entries.isEmpty else { return nil }
        let bits = Self.bits(hash)
        var i = home(bits)
        while entries[i] != 0 {
            let e = entries[i]
            if e >> 32 == bits, keyMatches(Int32(truncatingIfNeeded: e & 0xFFFF_FFFF) - 1) {
                return Int32(truncatingIfNeeded: e & 0xFFFF_FFFF) - 1
            }
            i = i + 1 == entries.count ? 0 : i + 1
        }
        return nil
    }

    /// Makes the key with hash `hash` (recognised by `keyMatches`) point to `slot`: replaces the
    /// entry of an existing key, or adds one.
    package mutating func set(_ slot: Int32, hash: Int, keyMatches: (Int32) -> Bool) {
        if !entries.isEmpty {
            let bits = Self.bits(hash)
            var i = home(bits)
            while entries[i] != 0 {
                if entries[i] >> 32 == bits, keyMatches(Int32(truncatingIfNeeded: entries[i] & 0xFFFF_FFFF) - 1) {
                    entries[i] = bits << 32 | UInt64(UInt32(slot + 1))
                    return
                }
                i = i + 1 == entries.count ? 0 : i + 1
            }
        }
        insert(slot, hash: hash)
    }

    /// Adds `slot` under `hash` (the caller has checked that its key is not present).
    package mutating func insert(_ slot: Int32, hash: Int) {
        if (used + 1) * 4 > entries.count * 3 { grow() }
        place(Self.bits(hash) << 32 | UInt64(UInt32(slot + 1)))
        used += 1
    }

    /// How far entries sit from their home position, on average (0 when none is displaced): a
    /// check that keys spread over the table (tests).
    package var averageDisplacement: Double {
        var total = 0, count = 0
        for (i, e) in entries.enumerated() where e != 0 {
            let h = home(e >> 32)
            total += i >= h ? i - h : i + entries.count - h
            count += 1
        }
        return count == 0 ? 0 : Double(total) / Double(count)
    }

    @usableFromInline static func bits(_ hash: Int) -> UInt64 { UInt64(UInt(bitPattern: hash)) >> 32 }
    @usableFromInline func home(_ bits: UInt64) -> Int { Int((bits * UInt64(entries.count)) >> 32) }

    private mutating func place(_ e: UInt64) {
        var i = home(e >> 32)
        while entries[i] != 0 { i = i + 1 == entries.count ? 0 : i + 1 }
        entries[i] = e
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: 0, count: max(16, old.count * 2))
        for e in old where e != 0 { place(e) }
    }
}
