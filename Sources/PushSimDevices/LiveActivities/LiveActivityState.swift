/// Where a Live Activity is in its life, as ActivityKit's `ActivityState` names it (A-LA-STATE):
/// active, stale (its `stale-date` passed with no newer content), ended (it shows its last
/// content but takes no more updates) and dismissed (gone from the Lock Screen).
public enum LiveActivityState: String, Sendable, CaseIterable {
    /// Visible and taking updates.
    case active
    /// Visible, taking updates, but its content is out of date: its stale date has passed.
    case stale
    /// Ended by the app, a push or the system; still on the Lock Screen until dismissed.
    case ended
    /// Removed from the Lock Screen; its update token no longer reaches the device.
    case dismissed
}
