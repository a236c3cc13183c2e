/// What a backend worked out from one `Authorization` value, kept by the exact value: a device
/// sends the same Basic header on every call, and decoding it (base64, splitting on `:`) is the
/// same work each time. The memo holds only what the header's text alone decides (the backends
/// compare against accounts, which may change, after looking it up), so it changes no answer.
///
/// Bounded: when `capacity` values are held, it forgets them all and starts again (nothing is
/// ever iterated, so no answer depends on hash order).
struct CredentialMemo<Value> {
    static var capacity: Int { 65_536 }
    private var values: [String: Value] = [:]

    /// The value for `header`, from memory or made by `decode` and remembered.
    mutating func value(_ header: String, decode: (String) -> Value) -> Value {
        if let v = values[header] { return v }
        let v = decode(header)
        if values.count >= Self.capacity { values.removeAll(keepingCapacity: true) }
        values[header] = v
        return v
    }

    /// How many values are held (for tests).
    var count: Int { values.count }
}
