/// Crashes the fuzzer found whose fix is in files other engineers are changing: with `skip` on
/// (`pushsim-fuzz --skip-known`, and the regression test), a surface answers `skipped-known`
/// instead of feeding such an input to the code that traps, so that a long run can go on past
/// them. Each entry goes once its fix is in (then its fixture replays the fixed code).
public enum KnownCrashes {
    /// Set once, before any input runs (the tool's flag, or the test); read only after.
    nonisolated(unsafe) public static var skip = false

    /// `CalendarAnchor.iso8601(unixSeconds:)` (Sources/PushSimKernel/VirtualTime.swift) traps on
    /// `unixSeconds - 86_399` for a time within a day of `Int64.min` (fixture
    /// `Fixtures/fuzz/jwt/iat-near-int64-min.bin`).
    /// Fixed (the calendar clamps to years 1–9999): kept as a hook, never true.
    static func iso8601Traps(unixSeconds: Int64) -> Bool { false }

    /// `CalendarAnchor.unixSeconds(iso8601:)` (VirtualTime.swift:192) traps on `days * 86_400`
    /// for a year of 12 digits or more, and the hub feeds it `ServiceBusNotification-ScheduleTime`
    /// (NotificationHub+Scheduled.swift:28) and an installation's `expirationTime`
    /// (NotificationHub+Installations.swift:106) as they come (fixtures
    /// `Fixtures/fuzz/hub/schedule-time-year-past-int64-seconds.bin`,
    /// `installation-expiration-year-past-int64-seconds.bin`; through `pushsim serve`, one request
    /// ends the server: `Fixtures/fuzz/wire/schedule-time-year-past-int64-seconds.bin`). True when `bytes` hold a run of 12
    /// or more digits followed by `-`, the shape of such a date.
    /// Fixed (years outside 1–9999 are refused): kept as a hook, never true.
    static func iso8601YearTraps(_ bytes: [UInt8]) -> Bool { false }
}
