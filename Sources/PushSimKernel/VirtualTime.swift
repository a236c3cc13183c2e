/// A point on the simulation's virtual clock: whole microseconds since the run started.
///
/// Virtual time starts at zero and never goes back. Nothing inside the simulation reads the
/// wall clock; services that need calendar time (APNs `timestamp`, `apns-expiration`, JWT `iat`)
/// add `unixEpochMicroseconds` of their ``CalendarAnchor``.
///
/// Arithmetic saturates: a sum past the 64-bit range is ``distantFuture`` (or ``distantPast``),
/// never a trap. A time-to-live of 100,000 days, an expiry read off the wire near `Int64.max` or
/// a timer at the end of time all stay representable, and the run's time limit stops the run
/// before such an instant is ever reached.
public struct VirtualTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the start of the run.
    public var microseconds: Int64

    /// The instant `microseconds` after the start of the run (before it, if negative).
    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The start of the run.
    public static let zero = VirtualTime(microseconds: 0)
    /// The last representable instant (`Int64.max` µs, about 292,000 years): where sums saturate.
    public static let distantFuture = VirtualTime(microseconds: .max)
    /// The first representable instant (`Int64.min` µs).
    public static let distantPast = VirtualTime(microseconds: .min)

    @inlinable public static func < (a: VirtualTime, b: VirtualTime) -> Bool { a.microseconds < b.microseconds }
    /// `t + d`, saturating at ``distantFuture`` and ``distantPast``.
    @inlinable public static func + (t: VirtualTime, d: VirtualDuration) -> VirtualTime {
        VirtualTime(microseconds: saturatingSum(t.microseconds, d.microseconds))
    }
    /// The duration from `b` to `a`, saturating at the longest representable durations.
    @inlinable public static func - (a: VirtualTime, b: VirtualTime) -> VirtualDuration {
        VirtualDuration(microseconds: saturatingDifference(a.microseconds, b.microseconds))
    }

    /// `D+HH:MM:SS.mmm`, e.g. `0+00:00:05.120` or `91+00:00:03.000` (milliseconds, truncated).
    public var description: String {
        let us = microseconds
        let sign = us < 0 ? "-" : ""
        let a = us.magnitude   // UInt64: the magnitude of Int64.min has no Int64
        let ms = Int64((a / 1_000) % 1_000)
        let s = Int64((a / 1_000_000) % 60)
        let m = Int64((a / 60_000_000) % 60)
        let h = Int64((a / 3_600_000_000) % 24)
        let d = a / 86_400_000_000
        return "\(sign)\(d)+\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))"
    }
}

/// A length of virtual time in whole microseconds.
///
/// Built from a count of a unit (`.seconds(n)`, `.days(n)`), added or multiplied, a duration
/// saturates at the 64-bit range instead of trapping: a count read off the wire (a `ttl`, a
/// `Retry-After`) can be anything.
public struct VirtualDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The length in microseconds; negative for a span that runs backwards (`a - b` with `b` later).
    public var microseconds: Int64

    /// A duration of `microseconds` (taken as is).
    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    /// No time at all.
    public static let zero = VirtualDuration(microseconds: 0)
    /// The longest duration a scenario file may write: 36,500 days (100 years). Longer ones are
    /// refused where they are parsed, with a position and a hint.
    public static let longestWritten = VirtualDuration.days(36_500)

    /// `n` microseconds.
    public static func microseconds(_ n: Int64) -> VirtualDuration { VirtualDuration(microseconds: n) }
    /// `n` milliseconds, saturating at the 64-bit range of microseconds.
    public static func milliseconds(_ n: Int64) -> VirtualDuration { VirtualDuration(microseconds: saturatingProduct(n, 1_000)) }
    /// `n` seconds, saturating at the 64-bit range of microseconds.
    public static func seconds(_ n: Int64) -> VirtualDuration { VirtualDuration(microseconds: saturatingProduct(n, 1_000_000)) }
    /// `n` minutes, saturating at the 64-bit range of microseconds.
    public static func minutes(_ n: Int64) -> VirtualDuration { VirtualDuration(microseconds: saturatingProduct(n, 60_000_000)) }
    /// `n` hours, saturating at the 64-bit range of microseconds.
    public static func hours(_ n: Int64) -> VirtualDuration { VirtualDuration(microseconds: saturatingProduct(n, 3_600_000_000)) }
    /// `n` days of 24 hours, saturating at the 64-bit range of microseconds.
    public static func days(_ n: Int64) -> VirtualDuration { VirtualDuration(microseconds: saturatingProduct(n, 86_400_000_000)) }

    @inlinable public static func < (a: VirtualDuration, b: VirtualDuration) -> Bool { a.microseconds < b.microseconds }
    /// `a + b`, saturating.
    @inlinable public static func + (a: VirtualDuration, b: VirtualDuration) -> VirtualDuration {
        VirtualDuration(microseconds: saturatingSum(a.microseconds, b.microseconds))
    }
    /// `a × k`, saturating.
    @inlinable public static func * (a: VirtualDuration, k: Int64) -> VirtualDuration {
        VirtualDuration(microseconds: saturatingProduct(a.microseconds, k))
    }

    /// Whole seconds, rounded down.
    public var seconds: Int64 { microseconds / 1_000_000 }
    /// Whole seconds, rounded up (as `Retry-After` is written); never overflows.
    public var secondsRoundedUp: Int64 {
        let (whole, part) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        return part > 0 ? whole + 1 : whole
    }

    /// The shortest exact spelling in the scenario language's units: `250ms`, `5s`, `90d`, `1500us`.
    public var description: String {
        let us = microseconds
        if us == 0 { return "0s" }
        for (unit, size) in VirtualDuration.units.reversed() where us % size == 0 {
            return "\(us / size)\(unit)"
        }
        return "\(us)us"
    }

    /// Units of the scenario language, smallest first, with their size in microseconds.
    public static let units: [(String, Int64)] = [
        ("us", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000), ("d", 86_400_000_000),
    ]

    /// Parses a duration written as one or more `<digits><unit>` parts, largest unit first and
    /// each unit once (`250ms`, `90s`, `2h59s`, `1d12h`), with units `us`, `ms`, `s`, `m`, `h`,
    /// `d`. Returns nil if malformed or if the total overflows 64-bit microseconds.
    public static func parse(_ text: Substring) -> VirtualDuration? {
        if case .value(let d) = scan(text) { return d }
        return nil
    }

    /// What ``scan(_:)`` found in a written duration.
    public enum Scanned: Equatable, Sendable {
        /// Well formed, and this long.
        case value(VirtualDuration)
        /// Well formed, but longer than 64-bit microseconds can hold.
        case overflow
        /// Not `<digits><unit>…` with known units, largest first, each once.
        case malformed
    }

    /// Reads a written duration (see ``parse(_:)``), telling a malformed one from one too long.
    ///
    /// Read by UTF-8 bytes in place (see `scan(utf8:)`): the grapheme-cluster reading it replaces
    /// (`Character.isNumber`, `isLetter`, the units compared as strings) cost some 6,000
    /// instructions per duration, and a scenario reads one on nearly every line.
    public static func scan(_ text: Substring) -> Scanned {
        if let scanned = text.utf8.withContiguousStorageIfAvailable({ scan(utf8: $0) }) { return scanned }
        return Array(text.utf8).withUnsafeBufferPointer { scan(utf8: $0) }
    }

    /// ``scan(_:)`` on the UTF-8 bytes of a written duration.
    ///
    /// The same answers as reading grapheme clusters: a part's digits are `0`–`9` and its unit a
    /// run of ASCII letters; any other byte (a sign, a space, any non-ASCII byte, such as the
    /// start of a combining mark after a digit) ends the run and so makes the text malformed, as
    /// the cluster holding it is neither an ASCII digit nor an ASCII letter. Digits beyond what
    /// 64 bits hold make an overflow, as `Int64(_:)` failing on them did.
    package static func scan(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Scanned {
        let n = bytes.count
        guard n > 0 else { return .malformed }
        var i = 0, total: Int64 = 0, previousUnit = Int64.max, overflow = false
        while i < n {
            var count: Int64 = 0, digits = 0, countOverflows = false
            while i < n, bytes[i].isASCIIDigit {
                let (times10, o1) = count.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int64(bytes[i] &- UInt8(ascii: "0")))
                if o1 || o2 { countOverflows = true } else { count = sum }
                digits += 1
                i += 1
            }
            let unitStart = i
            while i < n, (bytes[i] | 0x20) &- UInt8(ascii: "a") < 26 { i += 1 }
            guard digits > 0, let size = unitSize(UnsafeBufferPointer(rebasing: bytes[unitStart..<i])), size < previousUnit else {
                return .malformed
            }
            previousUnit = size
            if countOverflows { overflow = true; continue }
            let (product, o1) = count.multipliedReportingOverflow(by: size)
            let (sum, o2) = total.addingReportingOverflow(product)
            if o1 || o2 { overflow = true } else { total = sum }
        }
        return overflow ? .overflow : .value(VirtualDuration(microseconds: total))
    }

    /// ``units`` with each name as UTF-8 bytes, for ``scan(utf8:)``.
    private static let unitsUTF8: [([UInt8], Int64)] = units.map { (Array($0.0.utf8), $0.1) }

    /// The size in microseconds of the unit named by `name`'s bytes, or nil if it names none.
    private static func unitSize(_ name: UnsafeBufferPointer<UInt8>) -> Int64? {
        for (unit, size) in unitsUTF8 where unit.count == name.count && unit.elementsEqual(name) { return size }
        return nil
    }
}

/// Maps virtual time zero to a calendar instant, for services whose wire format carries
/// wall-clock values (epoch seconds or milliseconds). The default is 2026-01-01T00:00:00Z.
public struct CalendarAnchor: Sendable, Hashable {
    /// Unix time, in seconds, of virtual time zero.
    public var unixSecondsAtZero: Int64
    /// Virtual time zero at Unix second `unixSecondsAtZero`; the default, 1,767,225,600, is
    /// 2026-01-01T00:00:00Z.
    public init(unixSecondsAtZero: Int64 = 1_767_225_600) { self.unixSecondsAtZero = unixSecondsAtZero }

    /// Unix epoch seconds at `t` (rounded down; saturating).
    public func unixSeconds(_ t: VirtualTime) -> Int64 { saturatingSum(unixSecondsAtZero, t.microseconds / 1_000_000) }
    /// Unix epoch milliseconds at `t` (rounded down; saturating).
    public func unixMilliseconds(_ t: VirtualTime) -> Int64 {
        saturatingSum(saturatingProduct(unixSecondsAtZero, 1_000), t.microseconds / 1_000)
    }
    /// The virtual time of a Unix epoch second. Any value read off the wire maps to an instant:
    /// those beyond the 64-bit range of microseconds saturate to ``VirtualTime/distantFuture``
    /// or ``VirtualTime/distantPast``.
    public func virtualTime(unixSeconds s: Int64) -> VirtualTime {
        VirtualTime(microseconds: saturatingProduct(saturatingDifference(s, unixSecondsAtZero), 1_000_000))
    }
}

/// `a + b`, clamped to `Int64.min ... Int64.max`.
@inlinable func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? .max : .min) : sum
}

/// `a - b`, clamped to `Int64.min ... Int64.max`.
@inlinable func saturatingDifference(_ a: Int64, _ b: Int64) -> Int64 {
    let (difference, overflow) = a.subtractingReportingOverflow(b)
    return overflow ? (b < 0 ? .max : .min) : difference
}

/// `a × b`, clamped to `Int64.min ... Int64.max`.
@inlinable func saturatingProduct(_ a: Int64, _ b: Int64) -> Int64 {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? ((a < 0) == (b < 0) ? .max : .min) : product
}

/// `n` in decimal, zero-padded to at least `width` digits; the digits are ASCII, so they are
/// counted as bytes (`String.count` would walk grapheme clusters, once per time written).
@usableFromInline package func pad(_ n: Int64, _ width: Int) -> String {
    let s = String(n)
    let digits = s.utf8.count
    return digits >= width ? s : String(repeating: "0", count: width - digits) + s
}

extension CalendarAnchor {
    /// `yyyy-MM-ddTHH:mm:ssZ` (UTC) for virtual time `t`, as Atom feeds and Azure write dates.
    public func iso8601(_ t: VirtualTime) -> String { CalendarAnchor.iso8601(unixSeconds: unixSeconds(t)) }

    /// `yyyy-MM-ddTHH:mm:ssZ` (UTC) for a Unix time (proleptic Gregorian, days-from-civil inverse).
    public static func iso8601(unixSeconds raw: Int64) -> String {
        let c = civil(unixSeconds: raw)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))Z"
    }

    /// The UTC calendar date and time of a Unix time (proleptic Gregorian), years 0001 to 9999:
    /// any other instant is clamped, so no value near the ends of Int64 can overflow the arithmetic.
    public static func civil(unixSeconds raw: Int64)
        -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        let unixSeconds = min(max(raw, -62_135_596_800), 253_402_300_799)
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondOfDay = unixSeconds - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d, secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// Parses `yyyy-MM-ddTHH:mm:ss` with an optional `Z` (UTC) into Unix seconds; nil if malformed.
    public static func unixSeconds(iso8601 text: String) -> Int64? {
        let t = text.hasSuffix("Z") ? String(text.dropLast()) : text
        let parts = t.split(whereSeparator: { "-T:".contains($0) }).map { Int64($0) }
        guard parts.count == 6, !parts.contains(where: { $0 == nil }) else { return nil }
        return unixSeconds(year: parts[0]!, month: parts[1]!, day: parts[2]!, hour: parts[3]!, minute: parts[4]!, second: parts[5]!)
    }

    /// The Unix second of a UTC calendar date and time (proleptic Gregorian), years 0001 to 9999;
    /// nil when a field is out of range. The inverse of ``civil(unixSeconds:)``.
    public static func unixSeconds(year y0: Int64, month m: Int64, day d: Int64, hour: Int64, minute: Int64, second: Int64) -> Int64? {
        guard (1...9999).contains(y0) else { return nil }   // a 12-digit year overflowed the day count
        guard (1...12).contains(m), (1...31).contains(d), (0...23).contains(hour), (0...59).contains(minute),
              (0...59).contains(second) else { return nil }
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }
}
