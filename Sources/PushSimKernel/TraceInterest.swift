/// The kinds of trace event somebody reads: every kind, some named kinds, or none.
///
/// A world whose trace is not kept builds only the events its observers read. A run of 10,000
/// devices records some 370,000 events, and its invariant checkers read about a fifth of them:
/// building, handing out and freeing the rest cost about a fifth of the run.
///
/// ``contains(_:)`` is asked for every event a host records, so the named kinds sit in a small
/// open-addressed table indexed by their names' stable hash (``TraceKind`` keeps it): a kind
/// nobody reads usually meets an empty slot at once, and a hit compares one hash and one name.
/// `Set<TraceKind>` would hash the hash again with SipHash on every question.
public struct TraceInterest: Sendable, Equatable {
    /// Whether every kind is read (a kept trace, or an observer that reads everything).
    public let isEveryKind: Bool
    /// The kinds read, when not every kind is.
    public let kinds: Set<TraceKind>
    /// ``kinds`` by hash, linear probing; a power of two in size, at most half full.
    private let table: [TraceKind?]

    /// Every kind is read.
    public static let everyKind = TraceInterest(isEveryKind: true, kinds: [])
    /// No kind is read.
    public static let nothing = TraceInterest(isEveryKind: false, kinds: [])

    /// Just these kinds are read.
    public init(_ kinds: Set<TraceKind>) { self.init(isEveryKind: false, kinds: kinds) }

    private init(isEveryKind: Bool, kinds: Set<TraceKind>) {
        self.isEveryKind = isEveryKind
        self.kinds = kinds
        var size = 8
        while size < 2 * kinds.count { size *= 2 }
        var table = [TraceKind?](repeating: nil, count: size)
        for kind in kinds {
            var i = Self.slot(of: kind, size: size)
            while table[i] != nil { i = (i + 1) & (size - 1) }
            table[i] = kind
        }
        self.table = table
    }

    /// Whether events of `kind` are read.
    @inline(__always) public func contains(_ kind: TraceKind) -> Bool {
        if isEveryKind { return true }
        return table.withUnsafeBufferPointer { slots in
            var i = Self.slot(of: kind, size: slots.count)
            while let held = slots[i] {
                if held == kind { return true }
                i = (i + 1) & (slots.count - 1)
            }
            return false
        }
    }

    /// Whether no kind is read.
    public var isEmpty: Bool { !isEveryKind && kinds.isEmpty }

    /// The kinds either reads.
    public func union(_ other: TraceInterest) -> TraceInterest {
        isEveryKind || other.isEveryKind ? .everyKind : TraceInterest(kinds.union(other.kinds))
    }

    /// By what is read (the table follows from the kinds).
    public static func == (a: TraceInterest, b: TraceInterest) -> Bool {
        a.isEveryKind == b.isEveryKind && a.kinds == b.kinds
    }

    /// Where `kind` starts its probe in a table of `size` slots (a power of two).
    @inline(__always) private static func slot(of kind: TraceKind, size: Int) -> Int {
        Int(UInt(bitPattern: kind.nameHash) & UInt(size - 1))
    }
}
