import PushSimKernel

/// A change to one row of a state table on the teaching page: `cells` nil removes the row.
/// Rows are kept sorted by `key` in the page (keys are chosen so that this order reads well).
package struct TeachingRowChange: Sendable, Equatable {
    /// `hub`, `apns`, `fcm`, `wns` or `devices`.
    package var panel: String
    /// The row's key within its table (a registration id, `service|id`, a device name).
    package var key: String
    /// The row's cells, left to right; nil removes the row.
    package var cells: [String]?
}

/// Turns what ``TeachingState/apply(_:)`` touched into row changes, listing at most `maxRows`
/// entries per table; the rest are counted in one `… N more` row, so that a page of a run with
/// 10,000 phones stays small.
struct TeachingRows {
    /// The tables, in the order the page shows them, with their column titles.
    static let panels: [(id: String, title: String, columns: [String])] = [
        ("devices", "Devices: what each phone holds and shows", ["device", "app", "push handle", "user", "stored registration id", "network", "shown"]),
        ("hub", "Notification hub: registrations", ["id", "platform", "handle", "tags", "expires", "state"]),
        ("apns", "APNs: kept for offline devices, dead tokens", ["what", "id or handle", "device", "why"]),
        ("fcm", "FCM: kept for offline devices, dead tokens", ["what", "id or handle", "device", "why"]),
        ("wns", "WNS: cached for offline devices, dead channels", ["what", "id or handle", "device", "why"]),
    ]
    static let moreKey = "~more"

    let maxRows: Int
    /// Device name → its row key (declaration order, zero-padded), for devices that have a row.
    private var deviceKeys: [String: String] = [:]
    private var listed: [String: Set<String>] = [:]    // panel → keys with a row (looked up only)
    private var unlisted: [String: Set<String>] = [:]  // panel → live keys counted in the `more` row

    init(maxRows: Int, devices: [String]) {
        self.maxRows = maxRows
        let width = String(devices.count).count
        for (i, name) in devices.enumerated() where i < maxRows {
            deviceKeys[name] = "d" + String(repeating: "0", count: width - String(i).count) + String(i)
        }
    }

    /// The rows that show every declared device before anything happened.
    mutating func initial(_ state: TeachingState, devices: [String]) -> [TeachingRowChange] {
        devices.flatMap { changes(for: .device($0), in: state) }
    }

    mutating func changes(for touched: TeachingState.Touched, in state: TeachingState) -> [TeachingRowChange] {
        switch touched {
        case .registration(let id):
            let r = state.registrations[id]
            return set("hub", id, r.map { [$0.id, $0.platform, $0.handle, $0.tags, $0.expires, $0.gone ? "gone (410)" : "live"] })
        case .held(let service, let id):
            let h = state.held[service + "|" + id]
            return set(service, "k:" + id, h.map { ["keeps", $0.id, $0.device, "offline"] })
        case .dead(let service, let key):
            let d = state.dead[service + "|" + key]
            return set(service, "x:" + key, d.map { ["dead handle", $0.handle, $0.device, $0.why] })
        case .device(let name):
            guard let d = state.devices[name] else { return [] }
            let shown = d.shown.isEmpty ? "nothing" : "\(d.shown.count): " + d.shown.suffix(3).map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ")
            let cells = [name, d.installed ? "installed" : "not installed", d.handle ?? "—", d.user ?? "—", d.registration ?? "—",
                         d.online ? "online" : "offline", shown]
            return set("devices", deviceKeys[name] ?? name, cells)
        }
    }

    /// Sets or removes one row, or counts it in the panel's `more` row past `maxRows`.
    private mutating func set(_ panel: String, _ key: String, _ cells: [String]?) -> [TeachingRowChange] {
        if listed[panel, default: []].contains(key) {
            if cells == nil { listed[panel, default: []].remove(key) }
            return [TeachingRowChange(panel: panel, key: key, cells: cells)]
        }
        if cells != nil, listed[panel, default: []].count < maxRows, !unlisted[panel, default: []].contains(key) {
            listed[panel, default: []].insert(key)
            return [TeachingRowChange(panel: panel, key: key, cells: cells)]
        }
        let before = unlisted[panel, default: []].count
        if cells == nil { unlisted[panel, default: []].remove(key) } else { unlisted[panel, default: []].insert(key) }
        let after = unlisted[panel, default: []].count
        guard after != before else { return [] }
        let width = TeachingRows.panels.first { $0.id == panel }?.columns.count ?? 1
        let note = "… and \(after) more not listed (the page lists \(maxRows))"
        return [TeachingRowChange(panel: panel, key: Self.moreKey, cells: after == 0 ? nil : [note] + Array(repeating: "", count: width - 1))]
    }
}
