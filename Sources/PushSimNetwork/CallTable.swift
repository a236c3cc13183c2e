/// The calls in flight, in a slab: an array of slots reused through a free list, addressed by
/// an id that packs the slot (low 32 bits) with the slot's generation (high 32 bits).
///
/// A dictionary keyed by call id would hash and rehash on every call; a slab costs one array
/// access, and the generation makes a stale id (an event for a call that already finished and
/// whose slot was reused) miss, as a removed dictionary key would.
struct CallTable {
    private var slots: [PendingCall?] = []
    private var generations: [UInt32] = []
    private var free: [UInt32] = []

    /// Stores `call` and returns its id.
    mutating func insert(_ call: PendingCall) -> UInt64 {
        let slot: Int
        if let reused = free.popLast() {
            slot = Int(reused)
            slots[slot] = call
        } else {
            slot = slots.count
            slots.append(call)
            generations.append(0)
        }
        return UInt64(generations[slot]) << 32 | UInt64(slot)
    }

    /// The slot of `id`, if the call it names is still stored.
    private func slot(_ id: UInt64) -> Int? {
        let slot = Int(id & 0xFFFF_FFFF)
        guard slot < slots.count, generations[slot] == UInt32(id >> 32), slots[slot] != nil else { return nil }
        return slot
    }

    subscript(id: UInt64) -> PendingCall? { slot(id).flatMap { slots[$0] } }

    /// Changes the stored call `id` in place (it must be stored).
    mutating func update(_ id: UInt64, _ change: (inout PendingCall) -> Void) {
        let s = slot(id)!
        change(&slots[s]!)
    }

    /// Whether `id` is still stored with no transport failure on its way, so that its timeout
    /// would fire (a response that arrives after the timeout is then ignored).
    func awaitsTimeout(_ id: UInt64) -> Bool {
        guard let s = slot(id) else { return false }
        return slots[s]!.failure == nil
    }

    /// Removes and returns the stored call `id` (it must be stored); its slot is reused later
    /// under a new generation.
    mutating func remove(_ id: UInt64) -> PendingCall {
        let s = slot(id)!
        let call = slots[s]!
        slots[s] = nil
        generations[s] &+= 1
        free.append(UInt32(s))
        return call
    }

    /// Every call in flight, in slot order (callers sort them for output).
    var pending: [PendingCall] { slots.compactMap { $0 } }
}
