import PushSimKernel

/// The instant a scenario's `epoch` setting names, written as RFC 3339 writes a UTC date and time
/// to the second (RFC 3339 §5.6: `date-time` with the `Z` offset, no fraction; Citations §8): exactly
/// `YYYY-MM-DDTHH:MM:SSZ`, upper-case `T` and `Z` (the form Azure's feeds and PushSim's traces
/// write). Every field is checked against the calendar (February 29th only in a leap year); a
/// leap second (`:60`) is refused, as Unix time, which the fakes' wall-clock values count, has none.
enum EpochText {
    /// What is wrong with the text: `offset` counts characters from its start.
    struct Problem: Error, Equatable {
        var offset: Int
        var message: String
    }

    static let example = "2026-01-01T00:00:00Z"

    /// The Unix second the text names, or where and why it is not a strict RFC 3339 UTC instant.
    static func unixSeconds(_ text: String) -> Result<Int64, Problem> {
        let c = Array(text.unicodeScalars)
        let shape = Array(example.unicodeScalars)
        func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
        // The time of day must end at the seconds, with Z: a fraction or an offset is named as such.
        if c.count > 19, c.prefix(19).indices.allSatisfy({ isDigit(shape[$0]) == isDigit(c[$0]) }) {
            if c[19] == "." { return .failure(Problem(offset: 19, message: "the epoch is whole seconds: drop the fraction")) }
            if c[19] == "+" || c[19] == "-" || (c[19] == "Z" && c.count > 20) {
                return .failure(Problem(offset: 19, message: "the epoch is in UTC: end it with Z, not an offset"))
            }
        }
        for i in 0..<min(c.count, shape.count) where isDigit(shape[i]) ? !isDigit(c[i]) : c[i] != shape[i] {
            return .failure(Problem(offset: i, message: "expected an RFC 3339 UTC time such as \(example), found \"\(text)\""))
        }
        guard c.count == shape.count else {
            return .failure(Problem(offset: min(c.count, shape.count),
                                    message: "expected an RFC 3339 UTC time such as \(example), found \"\(text)\""))
        }
        func field(_ at: Int, _ width: Int) -> Int64 { c[at..<(at + width)].reduce(0) { $0 * 10 + Int64($1.value - 48) } }
        let (year, month, day) = (field(0, 4), field(5, 2), field(8, 2))
        let (hour, minute, second) = (field(11, 2), field(14, 2), field(17, 2))
        if year == 0 { return .failure(Problem(offset: 0, message: "year 0000 is out of range: years are 0001 to 9999")) }
        guard (1...12).contains(month) else { return .failure(Problem(offset: 5, message: "month \(month) does not exist")) }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days: Int64 = month == 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
        guard (1...days).contains(day) else {
            return .failure(Problem(offset: 8, message: "day \(day) does not exist in month \(month) of \(year), which has \(days) days"))
        }
        guard hour <= 23 else { return .failure(Problem(offset: 11, message: "hour \(hour) is out of range: hours are 00 to 23")) }
        guard minute <= 59 else { return .failure(Problem(offset: 14, message: "minute \(minute) is out of range: minutes are 00 to 59")) }
        guard second <= 59 else {
            return .failure(Problem(offset: 17, message: "second \(second) is out of range: seconds are 00 to 59 (Unix time has no leap seconds)"))
        }
        guard let seconds = CalendarAnchor.unixSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            return .failure(Problem(offset: 0, message: "expected an RFC 3339 UTC time such as \(example), found \"\(text)\""))
        }
        return .success(seconds)
    }
}
