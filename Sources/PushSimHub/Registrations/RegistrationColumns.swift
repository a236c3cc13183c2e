import PushSimKernel

/// The hub's registrations column by column, one array per field indexed by registration number
/// (see ``RegistrationStore`` for the layout and its cost per registration), and how one is read
/// back as a value.
///
/// A value type of arrays, so a copy is a snapshot: taking one copies nothing, and a column
/// written while a copy is held is copied once, by the write. A fan-out keeps one (see
/// ``SendTargets``) to read its registrations as they were when the send was accepted.
struct RegistrationColumns {
    /// Per number: what its slot holds (slot 0 is unused).
    var states: [SlotState] = [.gone]
    /// Per number: the PNS handle of a live registration ("" otherwise).
    var handles: [String] = [""]
    /// Per number: the tags of a live registration, unique, in the order given (empty otherwise).
    var tagLists: [[String]] = [[]]
    /// Per number: when it was last written, in microseconds of virtual time.
    var updateTimes: [Int64] = [0]
    /// Per number: when it expires, in microseconds of virtual time; ``never`` for no expiry.
    var expiryTimes: [Int64] = [0]
    var etags: [Int32] = [0]
    /// Templates of the live template registrations, by number (looked up, never iterated).
    var templates: [Int32: HubTemplate] = [:]
    /// Creation times (microseconds of virtual time) of live registrations written more than
    /// once, by number (looked up, never iterated); a registration its last write created has
    /// none, so a store that is only ever created into keeps this empty.
    var creationTimes: [Int32: Int64] = [:]
    /// Push variables of live registrations written with some, by number (looked up, never
    /// iterated); normally empty.
    var pushVariables: [Int32: [String: String]] = [:]

    /// The expiry of a registration that never expires.
    static let never = Int64.max

    /// What a slot holds, in one byte: gone (deleted, or never written), issued by Create
    /// Registration ID but not used yet, or live, with the platform and whether it is a template
    /// registration, and whether its tags were given out of order (bit 7 live, bit 6 tags
    /// unsorted, bits 3…1 platform, bit 0 template).
    struct SlotState: Equatable {
        var bits: UInt8
        static let gone = SlotState(bits: 0)
        static let issuedUnused = SlotState(bits: 1)
        static func live(_ platform: RegistrationPlatform, template: Bool, tagsUnsorted: Bool = false) -> SlotState {
            SlotState(bits: 0x80 | (tagsUnsorted ? 0x40 : 0) | platform.storageCode << 1 | (template ? 1 : 0))
        }
        var isLive: Bool { bits & 0x80 != 0 }
        var tagsUnsorted: Bool { bits & 0x40 != 0 }
        var isTemplate: Bool { bits & 1 != 0 }
        var platform: RegistrationPlatform { RegistrationPlatform(storageCode: bits >> 1 & 7) }
    }

    /// The id of registration `n`.
    func id(_ n: Int) -> String { RegistrationStore.id(n) }

    /// Live registration `n` as a value.
    func registration(_ n: Int) -> StoredRegistration {
        let state = states[n]
        let expiry = expiryTimes[n]
        return StoredRegistration(number: n, id: id(n), platform: state.platform, handle: handles[n],
                                  tags: state.tagsUnsorted ? tagLists[n].sorted() : tagLists[n],
                                  updatedAt: VirtualTime(microseconds: updateTimes[n]),
                                  expiresAt: expiry == Self.never ? nil : VirtualTime(microseconds: expiry),
                                  etag: Int(etags[n]), template: state.isTemplate ? templates[Int32(n)] : nil,
                                  createdAt: creationTimes.isEmpty ? nil : creationTimes[Int32(n)].map { VirtualTime(microseconds: $0) },
                                  pushVariables: pushVariables.isEmpty ? [:] : pushVariables[Int32(n)] ?? [:])
    }

    /// Live registration `n` as a send's target, reading only the columns a target holds (not
    /// the tags, the expiry or the etag).
    func sendTarget(_ n: Int) -> SendTarget {
        let state = states[n]
        let id = id(n)
        return SendTarget(owner: .registration(id), label: id, platform: state.platform, handle: handles[n],
                          template: state.isTemplate ? templates[Int32(n)] : nil,
                          updatedAt: VirtualTime(microseconds: updateTimes[n]))
    }
}
