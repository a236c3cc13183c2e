/// What the callee of a call needs when its request arrives. A struct rather than a tuple: Swift
/// copies large tuples through their type metadata, which cost ~5% of a broadcast.
struct ArrivingRequest {
    var request: HTTPRequest
    var caller: String
    var callee: String
    var host: Host
    var correlation: String
}

/// The calls in flight, in a slab: an array of slots reused through a free list, addressed by
/// an id that packs the slot (low 32 bits) with the slot's generation (high 32 bits).
///
/// A dictionary keyed by call id would hash and rehash on every call; a slab costs one array
/// access, and the generation makes a stale id (an event for a call that already finished and
/// whose slot was reused) miss, as a removed dictionary key would.
///
/// When the last call in flight finishes, a slab grown past ``keptSlots`` (a million devices
/// registering at one instant) is given back; slots made later start at a generation above any
/// handed out before, so ids of calls from before still miss.
struct CallTable {
    private var slots: [PendingCall?] = []
    private var generations: [UInt32] = []
    private var free: [UInt32] = []
    private var live = 0
    /// The generation new slots start at: above every generation handed out before a release.
    private var generationFloor: UInt32 = 0
    private var highestGeneration: UInt32 = 0
    private static let keptSlots = 4096

    /// Stores `call` and returns its id.
    mutating func insert(_ call: consuming PendingCall) -> UInt64 {
        let slot: Int
        if let reused = free.popLast() {
            slot = Int(reused)
            slots[slot] = consume call
        } else {
            slot = slots.count
            slots.append(consume call)
            generations.append(generationFloor)
        }
        live += 1
        return UInt64(generations[slot]) << 32 | UInt64(slot)
    }

    /// The slot of `id`, if the call it names is still stored. The generation alone tells: a
    /// slot's generation moves on when its call is removed, so an id matches only while its call is
    /// stored (and testing the slot itself would copy the whole call).
    private func slot(_ id: UInt64) -> Int? {
        let slot = Int(id & 0xFFFF_FFFF)
        guard slot < slots.count, generations[slot] == UInt32(id >> 32) else { return nil }
        return slot
    }

    /// Whether the call `id` is still stored (no copy of it is made).
    func contains(_ id: UInt64) -> Bool { slot(id) != nil }

    /// What the callee needs when the request of stored call `id` arrives: the request moves out
    /// of the slab (the callee may make calls of its own, which change the slab), the rest is copied.
    mutating func takeArrivingRequest(_ id: UInt64) -> ArrivingRequest {
        let s = slot(id)!
        return ArrivingRequest(request: slots[s]!.request.take()!, caller: slots[s]!.caller, callee: slots[s]!.callee!,
                               host: slots[s]!.calleeHost!, correlation: slots[s]!.correlation)
    }

    /// Whether stored call `id` has not been answered yet.
    func isAwaitingResponse(_ id: UInt64) -> Bool {
        guard let s = slot(id) else { return false }
        return slots[s]!.response == nil
    }

    /// The callee and caller of stored call `id` (it must be stored).
    func endpoints(_ id: UInt64) -> (callee: String, caller: String) {
        let s = slot(id)!
        return (slots[s]!.callee ?? "?", slots[s]!.caller)
    }

    /// The journal number of stored call `id`, or nil when it is not stored or not journalled.
    func journalIndex(_ id: UInt64) -> Int? {
        guard let s = slot(id) else { return nil }
        return slots[s]!.journalIndex
    }

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
        // Moved out in place and the slot set to nil (no copy of the call on the way).
        let call = slots.withUnsafeMutableBufferPointer { p -> PendingCall in
            let e = p.baseAddress! + s
            let taken = e.move()
            e.initialize(to: nil)
            return taken.unsafelyUnwrapped
        }
        generations[s] &+= 1
        highestGeneration = max(highestGeneration, generations[s])
        free.append(UInt32(s))
        live -= 1
        if live == 0 && slots.count > Self.keptSlots { release() }
        return call
    }

    /// Gives back an empty slab; later slots start above every generation handed out so far.
    private mutating func release() {
        generationFloor = highestGeneration &+ 1
        highestGeneration = generationFloor
        slots = []
        generations = []
        free = []
    }

    /// Every call in flight, in slot order (callers sort them for output).
    var pending: [PendingCall] { slots.compactMap { $0 } }
}
