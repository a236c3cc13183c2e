/// The name of a trace event's field: `status`, `to`, `dead-handle`.
///
/// Each layer declares the names it records as constants (`TraceFieldName.status`, in its
/// `TraceFieldNames.swift`; a name several peers record lives in the lowest layer they share), and
/// emitters (`[.status: 200, .to: .string(caller)]`) and checkers (`event[.deadHandle]`) both use them: a checker reading a field that no emitter spells the same
/// way does not compile, where a string would silently read nothing. As with ``TraceKind``, there
/// is no string literal conversion on purpose; `init(_:)` is for names chosen at run time (a push
/// service's message-id field) and for reading a written trace back.
public struct TraceFieldName: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name as traces write it, e.g. `dead-handle`.
    public let name: String
    /// ``Swift/String/stableHash`` of the name, worked out once, as ``TraceKind`` keeps it: a
    /// checker looking a field up (`event[.defect]`) passes over the others by one integer
    /// comparison each.
    @usableFromInline let nameHash: Int
    /// The field name `name`.
    public init(_ name: String) {
        self.name = name
        self.nameHash = name.stableHash
    }
    /// ``name``.
    public var description: String { name }
    /// By name (the JSON trace writes fields sorted by name).
    public static func < (a: TraceFieldName, b: TraceFieldName) -> Bool { a.name < b.name }
    /// Same name, byte for byte; names that differ are nearly all told apart by their hashes.
    @inlinable public static func == (a: TraceFieldName, b: TraceFieldName) -> Bool {
        a.nameHash == b.nameHash && a.name.sameBytes(as: b.name)
    }
    /// By name, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(nameHash) }
}
