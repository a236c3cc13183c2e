/// The targets of one send, in fan-out order, each built only when asked for: the matching
/// registrations as numbers, read back from the registration columns as they were when the send
/// was accepted (``RegistrationColumns``, a copy-on-write snapshot), then the other targets
/// (installations, handles of a direct send) as built.
///
/// A broadcast to a million registrations so holds 4 bytes for each instead of a built target,
/// and reads each registration once, when its copy goes out, instead of once to build the list,
/// again to send and again to free it: what made a broadcast's cost per device grow with the
/// population (the reads miss the processor's caches once the registrations outgrow them). What
/// each target is, and so every copy and trace, is the same as with a built list.
struct SendTargets {
    private let numbers: [Int32]
    private let columns: RegistrationColumns
    private let others: [SendTarget]
    /// The platforms of the targets in order of first appearance (what the notification's
    /// telemetry lists).
    let platforms: [RegistrationPlatform]

    /// Registrations `numbers` (ascending) read from `columns`, then `others`; all of `platform`
    /// when it is given (a native send's), so their platforms need not be looked up.
    init(registrations numbers: [Int32], of columns: RegistrationColumns, then others: [SendTarget],
         allOf platform: RegistrationPlatform? = nil) {
        self.numbers = numbers
        self.columns = columns
        self.others = others
        if let platform {
            platforms = numbers.isEmpty && others.isEmpty ? [] : [platform]
            return
        }
        var platforms: [RegistrationPlatform] = []
        func note(_ p: RegistrationPlatform) { if !platforms.contains(p) { platforms.append(p) } }
        for n in numbers {
            note(columns.states[Int(n)].platform)
            if platforms.count == RegistrationPlatform.allCases.count { break }
        }
        for t in others { note(t.platform) }
        self.platforms = platforms
    }

    /// Targets already built (a direct send's handles).
    init(_ targets: [SendTarget]) {
        self.init(registrations: [], of: Self.noColumns, then: targets)
    }

    /// No targets at all.
    static let none = SendTargets([])
    private static let noColumns = RegistrationColumns()

    var count: Int { numbers.count + others.count }
    var isEmpty: Bool { numbers.isEmpty && others.isEmpty }

    /// Target `k` (from 0), with `k` as its ordinal.
    subscript(k: Int) -> SendTarget {
        var t = k < numbers.count ? columns.sendTarget(Int(numbers[k])) : others[k - numbers.count]
        t.ordinal = k
        return t
    }

    /// ``subscript(_:)``, for a list held in a class (a fan-out's cursor): Swift copies a struct
    /// stored in a class, retaining each of its arrays, to call a non-mutating method on it, but
    /// hands it over in place to a mutating one. Nothing is changed.
    mutating func readInPlace(_ k: Int) -> SendTarget { self[k] }

    /// The first `n` targets.
    func prefix(_ n: Int) -> SendTargets {
        let kept = min(n, numbers.count)
        return SendTargets(registrations: Array(numbers.prefix(kept)), of: columns, then: Array(others.prefix(max(0, n - kept))))
    }
}
