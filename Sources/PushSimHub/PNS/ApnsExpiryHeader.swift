import PushSimKernel

/// `ServiceBusNotification-Apns-Expiry`: the expiry a native Apple send may carry, which the hub
/// hands to APNs as `apns-expiration` (Unix seconds), so that APNs keeps the notification for an
/// offline device until then (Citations §4.6).
///
/// The page gives it in W3C DTF, `YYYY-MM-DDThh:mmTZD` (`1997-07-16T19:20+01:00`; NH-REST "Send an
/// APNS native notification"). Microsoft's SDKs write it otherwise: the .NET SDK as
/// `DateTime.ToString(CultureInfo.InvariantCulture)`, `11/07/2018 16:18:32`, and the Java SDK as
/// `MM/dd/yyyy hh:mm:ss` in UTC, whose `hh` gives afternoon hours as morning ones (NH-DOTNET
/// `AppleNotification.cs`, NH-JAVA `AppleNotification.java`); the live hub takes what they send,
/// so it reads both forms. A time without a zone is read as UTC.
enum ApnsExpiryHeader {
    static let name = "ServiceBusNotification-Apns-Expiry"

    /// The Unix second `text` names, or nil when it is neither form.
    static func unixSeconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-") { return w3c(bytes) }
        if bytes.count >= 10, bytes[2] == UInt8(ascii: "/") { return invariant(bytes) }
        return nil
    }

    /// `YYYY-MM-DD`, then optionally `Thh:mm`, `:ss`, a fraction, and `Z` or `±hh:mm`.
    private static func w3c(_ b: [UInt8]) -> Int64? {
        guard let date = digits(b, 0, 4), b[4] == UInt8(ascii: "-"), let month = digits(b, 5, 2), b.count >= 10,
              b[7] == UInt8(ascii: "-"), let day = digits(b, 8, 2) else { return nil }
        var i = 10, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, offset: Int64 = 0
        if i < b.count {
            guard b[i] == UInt8(ascii: "T"), let h = digits(b, i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"),
                  let m = digits(b, i + 4, 2) else { return nil }
            (hour, minute, i) = (h, m, i + 6)
            if i < b.count, b[i] == UInt8(ascii: ":") {
                guard let s = digits(b, i + 1, 2) else { return nil }
                (second, i) = (s, i + 3)
                if i < b.count, b[i] == UInt8(ascii: ".") {
                    i += 1
                    let start = i
                    while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
                    guard i > start else { return nil }
                }
            }
            if i < b.count {
                if b[i] == UInt8(ascii: "Z") {
                    i += 1
                } else {
                    guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), let oh = digits(b, i + 1, 2), i + 3 < b.count,
                          b[i + 3] == UInt8(ascii: ":"), let om = digits(b, i + 4, 2), oh <= 23, om <= 59 else { return nil }
                    offset = (oh * 3_600 + om * 60) * (b[i] == UInt8(ascii: "+") ? 1 : -1)
                    i += 6
                }
            }
            guard i == b.count else { return nil }
        }
        return civil(date, month, day, hour, minute, second).map { $0 - offset }
    }

    /// `MM/dd/yyyy HH:mm:ss`, as the SDKs write it.
    private static func invariant(_ b: [UInt8]) -> Int64? {
        guard b.count == 19, let month = digits(b, 0, 2), b[2] == UInt8(ascii: "/"), let day = digits(b, 3, 2),
              b[5] == UInt8(ascii: "/"), let year = digits(b, 6, 4), b[10] == UInt8(ascii: " "), let hour = digits(b, 11, 2),
              b[13] == UInt8(ascii: ":"), let minute = digits(b, 14, 2), b[16] == UInt8(ascii: ":"), let second = digits(b, 17, 2)
        else { return nil }
        return civil(year, month, day, hour, minute, second)
    }

    /// The Unix second of a UTC civil time, or nil when a field is out of range.
    private static func civil(_ y: Int64, _ mo: Int64, _ d: Int64, _ h: Int64, _ mi: Int64, _ s: Int64) -> Int64? {
        CalendarAnchor.unixSeconds(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    }

    /// The decimal number in `b[start..<start + count]`, all digits, or nil.
    private static func digits(_ b: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        guard start >= 0, start + count <= b.count else { return nil }
        var n: Int64 = 0
        for k in start..<start + count {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[k]) else { return nil }
            n = n * 10 + Int64(b[k] - UInt8(ascii: "0"))
        }
        return n
    }
}
