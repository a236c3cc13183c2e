import PushSimNetwork

/// What a device's answer to `POST /push` means to the service that pushed.
enum DeviceAnswer {
    /// 200: shown, or handed to the app.
    case shown
    /// 410 (or 404): the handle no longer belongs to an installed app.
    case handleGone
    /// Any other answer, or none: the device could not be reached.
    case unreachable

    init(_ result: CallResult) {
        switch result.status {
        case 200?: self = .shown
        case 410?, 404?: self = .handleGone
        default: self = .unreachable
        }
    }
}

/// The pushes a service has handed to devices and not yet heard back about, by call tag: what
/// the service needs to act on the answer, kept as values in a slab instead of in a closure per
/// push. The world answers every call exactly once (response, failure or timeout), so each tag
/// is taken exactly once.
struct PendingPushes<Push> {
    private var slots: [Push?] = []
    private var free: [UInt64] = []

    /// Keeps `push` and returns its tag (the push moves in: no copy of it is made).
    mutating func add(_ push: consuming Push) -> UInt64 {
        if let tag = free.popLast() {
            slots[Int(tag)] = consume push
            return tag
        }
        slots.append(consume push)
        return UInt64(slots.count - 1)
    }

    /// Takes back the push kept under `tag`.
    mutating func take(_ tag: UInt64) -> Push {
        let push = slots[Int(tag)].take()!
        free.append(tag)
        if free.count == slots.count && slots.count > 4096 { (slots, free) = ([], []) }   // a burst is over: give its memory back
        return push
    }
}
