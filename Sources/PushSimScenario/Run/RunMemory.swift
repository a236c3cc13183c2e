import PushSimKernel
import PushSimDevices
import PushSimBackend

/// What a scenario's expectations and the explorer need from the trace, gathered while the run
/// records it (like the invariant checkers, from outside), so that judging a run never searches
/// the trace and a run may go without keeping it: who is logged in on each device and from when,
/// the badges the app set, its background wakes, and the tutorial defects marked (`defect=e`).
///
/// Each device's changes are kept in the order recorded, which is virtual-time order, so "at or
/// before `time`" is a walk back from the end.
final class RunMemory {
    /// A device's logged-in user from `time` on (nil: nobody).
    private struct Login { var time: VirtualTime; var user: String? }
    /// What a badge update at `time` did: showed a badge or cleared it.
    private struct Badge { var time: VirtualTime; var setting: AppBadge.Setting }

    private var logins: [String: [Login]] = [:]   // device → changes in order (looked up only)
    private var badges: [String: [Badge]] = [:]   // device → badges set, in order (looked up only)
    private var wakes: [String: [VirtualTime]] = [:]   // device → times woken, in order (looked up only)
    private var defectMarks: Set<String> = []

    /// The kinds of event that carry a tutorial defect mark (a `defect` field): the tutorial
    /// client's and backend's. A new mark on another kind must be added here, or a run that does
    /// not keep its trace misses it (`RunMemoryTests` checks every marked kind in the library).
    static let defectMarkingKinds: Set<TraceKind> = [.appRegistrationFailed, .appRetry, .backendUnknownPNS, .backendException,
                                                      .backendTagsUnchecked, .backendErrorSwallowed]
    /// The kinds of event it reads: while a run's trace is not kept, events nobody reads are not built.
    static let reads: Set<TraceKind> = defectMarkingKinds.union([.appLogin, .appLogout, .deviceUninstall, .deviceClearData, .deviceInstall,
                                                                 .deviceRestore, .appBadgeUpdated, .appWoken])

    /// Takes in one recorded event.
    func observe(_ e: TraceEvent) {
        switch e.kind {   // the kind before the layer: a hash comparison before a string one
        case .appLogin where e.layer == "device":
            logins[e.host, default: []].append(Login(time: e.time, user: e[.user]?.description))
        case .appLogout where e.layer == "device", .deviceUninstall where e.layer == "device", .deviceClearData where e.layer == "device",
             .deviceInstall where e.layer == "device", .deviceRestore where e.layer == "device":
            logins[e.host, default: []].append(Login(time: e.time, user: nil))
        case .appBadgeUpdated:
            // The value as the notification wrote it (`3`, `0`, `none`, `alert`); the device
            // records only values it could read.
            if let setting = e[.badge].flatMap({ AppBadge.setting($0.description) }) {
                badges[e.host, default: []].append(Badge(time: e.time, setting: setting))
            }
        case .appWoken:
            wakes[e.host, default: []].append(e.time)
        default: break
        }
        if let defect = e[.defect] { defectMarks.insert(defect.description) }
    }

    /// The user logged in on `device` at `time`: the last login at or before it not followed by
    /// a logout, an uninstall, a reinstall or a restore.
    func user(on device: String, at time: VirtualTime) -> String? {
        logins[device]?.last { $0.time <= time }?.user ?? nil
    }

    /// The last badge update on `device` at or before `time`: the badge it showed, or `.clear`;
    /// nil when nothing set a badge by then.
    func badge(on device: String, by time: VirtualTime) -> AppBadge.Setting? {
        badges[device]?.last { $0.time <= time }?.setting
    }

    /// How many background pushes woke the app on `device` at or before `time`.
    func wakeCount(on device: String, by time: VirtualTime) -> Int {
        wakes[device]?.lazy.filter { $0 <= time }.count ?? 0
    }

    /// The tutorial defects marked in the trace so far, sorted.
    var defects: [String] { defectMarks.sorted() }
}
