/// A value carried in a trace event's fields. Kept typed so the JSON trace writes numbers as numbers.
///
/// Emitters write literals as they are (`"dropped"`, `"after \(delay)"`, `200`, `true`) and other
/// values by their type (`.string(caller)`, `.int(response.status)`, `.bool(changed)`): a field's
/// JSON type is visible where it is recorded, and nothing is boxed on the way to the trace.
public enum TraceValue: Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    /// Text; the JSON trace writes it as a string.
    case string(String)
    /// A whole number; the JSON trace writes it as a number.
    case int(Int64)
    /// A flag; the JSON trace writes `true` or `false`.
    case bool(Bool)

    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A string value written with interpolations (`"after \(delay)"`).
    public init(stringInterpolation: DefaultStringInterpolation) { self = .string(String(stringInterpolation: stringInterpolation)) }
    /// An integer value.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An `Int` as an integer value (widened to `Int64`).
    public init(_ value: Int) { self = .int(Int64(value)) }
    /// An `Int` as an integer value (widened to `Int64`): `[.status: .int(response.status)]`.
    public static func int(_ value: Int) -> TraceValue { .int(Int64(value)) }

    /// The value as the timeline writes it: the text itself (unquoted), the decimal number, `true` or `false`.
    public var description: String {
        switch self {
        case .string(let s): return s
        case .int(let n): return String(n)
        case .bool(let b): return b ? "true" : "false"
        }
    }
}

/// One structured step of a run: when, which layer and host, what happened, which causal chain
/// (correlation id) it belongs to, and named fields. Fields keep the order they were given in;
/// the JSON writer sorts them by key.
public struct TraceEvent: Sendable, Equatable {
    /// Position in the trace, from 0.
    public var sequence: Int
    /// When it happened, in virtual time.
    public var time: VirtualTime
    /// The layer that recorded it: `network`, `apns`, `fcm`, `wns`, `hub`, `backend`, `device`, `scenario`, ...
    public var layer: String
    /// The host (or part) that recorded it.
    public var host: String
    /// What happened, dotted lower case: `http.request`, `notification.shown`, `fault.injected`.
    public var kind: TraceKind
    /// The causal chain this step belongs to, e.g. `c0007`; empty when none.
    public var correlation: String
    /// Named values, in the order recorded (a name may repeat: ``subscript(_:)`` finds the first).
    public var fields: [Field]

    /// An event from its parts (``Trace/record(time:layer:host:kind:correlation:fields:)``
    /// numbers the events it records itself).
    public init(sequence: Int, time: VirtualTime, layer: String, host: String, kind: TraceKind, correlation: String, fields: [Field]) {
        self.sequence = sequence
        self.time = time
        self.layer = layer
        self.host = host
        self.kind = kind
        self.correlation = correlation
        self.fields = fields
    }

    /// One named value of an event: `status=200`, `to=hub`.
    public struct Field: Sendable, Equatable {
        /// The field's name, e.g. `status`.
        public var key: TraceFieldName
        /// The field's value, typed.
        public var value: TraceValue
        /// The field `key` with `value`.
        public init(_ key: TraceFieldName, _ value: TraceValue) { self.key = key; self.value = value }
    }

    /// The value of the first field named `name`.
    public subscript(_ name: TraceFieldName) -> TraceValue? { fields.first(where: { $0.key == name })?.value }
}

/// The run's trace: every recorded ``TraceEvent`` in order, plus observers that see each event
/// as it is recorded (invariant checkers observe; they are never called by services).
public struct Trace {
    /// Every event kept, in order (events recorded while ``isRecording`` is false are not kept).
    public private(set) var events: [TraceEvent] = []
    /// When false, `record` does nothing (for benchmarks of very large runs).
    public var isRecording = true
    /// Sequence number the next event gets (counts events seen by observers even when not recording).
    private var nextSequence = 0
    private var observers: [(TraceEvent) -> Void] = []
    /// The kinds the observers read, together.
    private var observersInterest = TraceInterest.nothing

    /// An empty trace that records and has no observers.
    public init() {}

    /// The kinds of event worth recording: every kind while the trace is kept, else those the
    /// observers read. An event of another kind would be neither kept nor read, so hosts need
    /// not build it (``record(time:layer:host:kind:correlation:fields:)`` still takes it).
    public var interest: TraceInterest { isRecording ? .everyKind : observersInterest }

    /// Adds an observer that is called with every event recorded from now on.
    public mutating func observe(_ observer: @escaping (TraceEvent) -> Void) { observe(reading: .everyKind, observer) }

    /// Adds an observer that reads only events of the kinds in `interest`. It may still be called
    /// with events of other kinds (those another observer reads, or all of them while the trace
    /// is kept), and must ignore them; it is promised every event of its own kinds.
    public mutating func observe(reading interest: TraceInterest, _ observer: @escaping (TraceEvent) -> Void) {
        observers.append(observer)
        observersInterest = observersInterest.union(interest)
    }

    /// Records one event.
    public mutating func record(time: VirtualTime, layer: String, host: String, kind: TraceKind,
                                correlation: String, fields: [TraceEvent.Field]) {
        guard isRecording || !observers.isEmpty else { return }
        let event = TraceEvent(sequence: nextSequence, time: time, layer: layer, host: host, kind: kind,
                               correlation: correlation, fields: fields)
        nextSequence += 1
        for observer in observers { observer(event) }
        if isRecording { events.append(event) }
    }
}
