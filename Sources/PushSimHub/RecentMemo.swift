/// A memory of the last few values worked out, by key: a fixed number of slots, searched in
/// order, the oldest replaced first. For keys that repeat in runs (a SAS token, the current
/// second), where comparing a handful of keys is cheaper than hashing one, and where nothing may
/// depend on hash order. A memo changes no answer, only what a repeated key costs.
struct RecentMemo<Key: Equatable, Value> {
    /// Most keys remembered.
    let capacity: Int
    private var keys: [Key] = []
    private var values: [Value] = []
    /// The slot the next new key replaces, once the memo is full.
    private var next = 0

    init(capacity: Int) { self.capacity = capacity }

    /// The value for `key`, remembered or worked out by `compute` and remembered.
    mutating func value(for key: Key, compute: (Key) -> Value) -> Value {
        for i in keys.indices where keys[i] == key { return values[i] }
        let value = compute(key)
        if keys.count < capacity {
            keys.append(key)
            values.append(value)
        } else {
            keys[next] = key
            values[next] = value
            next = (next + 1) % capacity
        }
        return value
    }

    /// How many keys are remembered.
    var count: Int { keys.count }
}
