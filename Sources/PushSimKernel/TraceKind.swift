/// What a trace event says happened, dotted lower case: `http.request`, `notification.shown`.
///
/// Each layer declares the kinds it records as constants (`TraceKind.httpRequest`, in its
/// `TraceKinds.swift`), and emitters and checkers both use them: a checker waiting for a kind that
/// no emitter spells the same way does not compile, where a string would silently never match.
/// There is no string literal conversion on purpose; `init(_:)` is for reading a kind back from a
/// written trace.
public struct TraceKind: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kind as traces write it, e.g. `hub.pns-accepted`.
    public let name: String
    /// ``Swift/String/stableHash`` of the name, worked out once: kinds that differ (nearly every
    /// comparison a checker makes) are told apart by one integer comparison.
    @usableFromInline let nameHash: Int
    /// The kind named `name`.
    public init(_ name: String) {
        self.name = name
        self.nameHash = name.stableHash
    }
    /// ``name``.
    public var description: String { name }
    /// By name.
    public static func < (a: TraceKind, b: TraceKind) -> Bool { a.name < b.name }
    /// Same name, byte for byte: checkers compare every event's kind with several of theirs, and
    /// names of 16 bytes or more (`hub.pns-accepted`) that differ otherwise go through the
    /// standard library's general comparison; the hashes settle nearly all at once.
    @inlinable public static func == (a: TraceKind, b: TraceKind) -> Bool {
        a.nameHash == b.nameHash && a.name.sameBytes(as: b.name)
    }
    /// By name, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(nameHash) }
}
