/// The hub's telemetry records, in the order notifications were accepted, with lookup by id.
///
/// Every copy of a notification updates its record once; a million-device fan-out did so through
/// a `[String: NotificationRecord]`, hashing the id and moving the record out and back on every
/// copy (~1,700 instructions). Here a notification carries its record's slot
/// (``HubNotification/recordSlot``), and a copy updates the record in place by index. Records are
/// never removed (the hub answers `GET /messages/{id}` for every notification it took), so slots
/// never move. Lookup by id stays for the REST API; the table is never iterated by key.
struct NotificationRecords {
    private var all: [NotificationRecord] = []
    private var slotByID: [String: Int] = [:]

    /// The slot of the record for `id`, if there is one.
    func slot(of id: String) -> Int? { slotByID[id] }

    /// The record for `id`; setting one adds it, or replaces the one with that id (setting nil
    /// is not supported: records stay).
    subscript(id: String) -> NotificationRecord? {
        get { slotByID[id].map { all[$0] } }
        set {
            guard let record = newValue else { preconditionFailure("telemetry records are never removed") }
            precondition(record.id == id, "record \(record.id) stored under \(id)")
            if let slot = slotByID[id] { all[slot] = record } else { add(record) }
        }
    }

    /// The id of the `n`th record added (from 1), or nil.
    func id(number n: Int) -> String? { n >= 1 && n <= all.count ? all[n - 1].id : nil }

    /// The record in `slot`, read and changed in place.
    subscript(slot slot: Int) -> NotificationRecord {
        get { all[slot] }
        _modify { yield &all[slot] }
    }

    /// Adds `record` (its id must be new) and returns its slot.
    @discardableResult mutating func add(_ record: NotificationRecord) -> Int {
        // One hash of the id: the insert tells whether it was there.
        let slot = all.count
        let earlier = slotByID.updateValue(slot, forKey: record.id)
        precondition(earlier == nil, "a record for \(record.id) exists")
        all.append(record)
        return slot
    }
}
