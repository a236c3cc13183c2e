import Testing
@testable import PushSimKernel

@Suite("VirtualTime")
struct VirtualTimeTests {
    @Test func timeDescription() {
        #expect(VirtualTime.zero.description == "0+00:00:00.000")
        #expect(VirtualTime(microseconds: 5_120_000).description == "0+00:00:05.120")
        #expect((VirtualTime.zero + .days(91) + .seconds(3)).description == "91+00:00:03.000")
        #expect((VirtualTime.zero + .hours(23) + .minutes(59) + .seconds(59) + .milliseconds(999)).description
                == "0+23:59:59.999")
        #expect((VirtualTime.zero + .days(1) + .hours(2) + .minutes(3) + .seconds(4)).description
                == "1+02:03:04.000")
        // Milliseconds are truncated, not rounded.
        #expect(VirtualTime(microseconds: 1_999).description == "0+00:00:00.001")
        #expect(VirtualTime(microseconds: 999).description == "0+00:00:00.000")
        #expect(VirtualTime(microseconds: -5_120_000).description == "-0+00:00:05.120")
    }

    @Test func durationDescriptionIsShortestExactUnit() {
        #expect(VirtualDuration.zero.description == "0s")
        #expect(VirtualDuration.milliseconds(250).description == "250ms")
        #expect(VirtualDuration.seconds(5).description == "5s")
        #expect(VirtualDuration.days(90).description == "90d")
        #expect(VirtualDuration.microseconds(1_500).description == "1500us")
        #expect(VirtualDuration.minutes(90).description == "90m")
        #expect(VirtualDuration.minutes(120).description == "2h")
        #expect(VirtualDuration.hours(48).description == "2d")
        #expect(VirtualDuration.milliseconds(1_000).description == "1s")
    }

    @Test(arguments: [
        ("7us", Int64(7)), ("250ms", 250_000), ("5s", 5_000_000), ("3m", 180_000_000),
        ("2h", 7_200_000_000), ("90d", 7_776_000_000_000), ("0s", 0), ("007ms", 7_000),
        ("9223372036854775807us", Int64.max),
    ])
    func parseEveryUnit(text: String, microseconds: Int64) {
        #expect(VirtualDuration.parse(Substring(text)) == VirtualDuration(microseconds: microseconds))
    }

    @Test(arguments: ["5x", "s", "-1s", "99999999999999999d", "99999999999999999999s", "", "5", "5 s",
                      " 5s", "5S", "1.5s", "+5s", "5sec", "5ss", "9223372036854775808us", "١s"])
    func parseRejects(text: String) {
        #expect(VirtualDuration.parse(Substring(text)) == nil)
    }

    @Test func parseWorksOnSubstringSlices() {
        let line = "after 250ms send"
        let slice = line.split(separator: " ")[1]
        #expect(VirtualDuration.parse(slice) == .milliseconds(250))
    }

    /// The former reading of a duration, by grapheme clusters: the reference the byte reading
    /// (``VirtualDuration/scan(utf8:)``) must agree with.
    private static func scanByCharacters(_ text: Substring) -> VirtualDuration.Scanned {
        var rest = text, total: Int64 = 0, previousUnit = Int64.max, overflow = false
        guard !rest.isEmpty else { return .malformed }
        while !rest.isEmpty {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix(while: { $0.isASCII && $0.isLetter })
            rest = rest.dropFirst(unit.count)
            guard !digits.isEmpty, let size = VirtualDuration.units.first(where: { $0.0 == unit })?.1, size < previousUnit else { return .malformed }
            previousUnit = size
            guard let n = Int64(digits) else { overflow = true; continue }
            let (product, o1) = n.multipliedReportingOverflow(by: size)
            let (sum, o2) = total.addingReportingOverflow(product)
            if o1 || o2 { overflow = true } else { total = sum }
        }
        return overflow ? .overflow : .value(VirtualDuration(microseconds: total))
    }

    /// Bytes and grapheme clusters read durations alike: well formed, too long (digits past 64
    /// bits, or a sum past them) and malformed ones, with signs, spaces, upper case, combining
    /// marks after a digit or a unit, non-ASCII digits and letters, CR LF, and in slices.
    @Test func scanByBytesAgreesWithScanByCharacters() {
        let pieces = ["0", "1", "7", "25", "999", "9223372036854775807", "99999999999999999999", "000",
                      "us", "ms", "s", "m", "h", "d", "S", "x", "sec", "+", "-", " ", ".", ",",
                      "\u{301}", "é", "e\u{301}", "١", "\r\n", "\t", "ﬀ", "😀", "\u{200D}"]
        var texts = ["", "5s", "2h59s", "1d12h", "1m30s500ms", "30s1m", "1s1s", "1h30", "99999999999999999999d1s",
                     "9223372036854775807us", "9223372036854775808us", "106751991d", "106751992d", "5\u{301}s", "5s\u{301}",
                     "+5s", "١s", "5\r\n"]
        var r = SeededRandom(seed: 2026)
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<(1 + r.int(below: 6)) {
                // Mostly well-formed parts (digits then a unit), sometimes anything.
                text += r.chance(Ratio(3, 4)) ? pieces[r.int(below: 8)] + pieces[8 + r.int(below: 6)] : pieces[r.int(below: pieces.count)]
            }
            texts.append(text)
        }
        for text in texts {
            #expect(VirtualDuration.scan(Substring(text)) == Self.scanByCharacters(Substring(text)), "\(text.debugDescription)")
            let framed = "at " + text + " x"
            let slice = framed.dropFirst(3).dropLast(2)
            #expect(VirtualDuration.scan(slice) == Self.scanByCharacters(slice), "\(text.debugDescription) in a slice")
        }
    }

    @Test func descriptionRoundTripsThroughParse() {
        var fixed: [VirtualDuration] = [.zero, .microseconds(1), .microseconds(1_500), .milliseconds(250),
                                        .seconds(59), .minutes(61), .hours(25), .days(3_650),
                                        VirtualDuration(microseconds: Int64.max)]
        var r = SeededRandom(seed: 77)
        for _ in 0..<1_000 {
            let (_, size) = VirtualDuration.units[r.int(below: VirtualDuration.units.count)]
            fixed.append(VirtualDuration(microseconds: r.int(in: 0...100_000) * size + (r.chance(Ratio(1, 3)) ? 1 : 0)))
        }
        for d in fixed {
            #expect(VirtualDuration.parse(Substring(d.description)) == d, "\(d.microseconds)us -> \(d)")
        }
    }

    @Test func arithmeticAndOrder() {
        let a = VirtualTime.zero + .seconds(5)
        let b = a + .milliseconds(120)
        #expect(b.microseconds == 5_120_000)
        #expect(b - a == .milliseconds(120))
        #expect(a < b && !(b < a))
        #expect(VirtualDuration.minutes(2) == .seconds(120))
        #expect(VirtualDuration.hours(1) == .minutes(60))
        #expect(VirtualDuration.days(1) == .hours(24))
        #expect(VirtualDuration.seconds(2) + .milliseconds(5) == .microseconds(2_005_000))
        #expect(VirtualDuration.seconds(3) * 4 == .seconds(12))
        #expect(VirtualDuration.milliseconds(2_999).seconds == 2)
        #expect(VirtualDuration.milliseconds(1) < .seconds(1))
    }

    @Test func calendarAnchorDefaultIs2026() {
        let anchor = CalendarAnchor()
        #expect(anchor.unixSecondsAtZero == 1_767_225_600)   // 2026-01-01T00:00:00Z
        #expect(anchor.unixSeconds(.zero) == 1_767_225_600)
        #expect(anchor.unixMilliseconds(.zero) == 1_767_225_600_000)
    }

    @Test func calendarAnchorConversions() {
        let anchor = CalendarAnchor(unixSecondsAtZero: 1_000)
        let t = VirtualTime.zero + .seconds(5) + .milliseconds(999) + .microseconds(999)
        #expect(anchor.unixSeconds(t) == 1_005)               // rounded down
        #expect(anchor.unixMilliseconds(t) == 1_005_999)      // rounded down
        #expect(anchor.virtualTime(unixSeconds: 1_005) == VirtualTime.zero + .seconds(5))
        #expect(anchor.virtualTime(unixSeconds: 1_000) == .zero)
        let later = VirtualTime.zero + .days(90)
        #expect(anchor.virtualTime(unixSeconds: anchor.unixSeconds(later)) == later)
        #expect(CalendarAnchor(unixSecondsAtZero: 1_000) != CalendarAnchor())
    }

    // MARK: Saturation (these trapped before: a crash lost every report of the run)

    @Test func sumsSaturateAtTheEndsOfTime() {
        let nearEnd = VirtualTime(microseconds: .max - 5)
        #expect(nearEnd + .seconds(10) == .distantFuture)
        #expect(VirtualTime.distantFuture + .days(1) == .distantFuture)
        #expect(VirtualTime(microseconds: .min + 5) + .microseconds(-10) == .distantPast)
        #expect(VirtualTime.distantFuture - VirtualTime.distantPast == VirtualDuration(microseconds: .max))
        #expect(VirtualTime.distantPast - VirtualTime.distantFuture == VirtualDuration(microseconds: .min))
        #expect(VirtualDuration(microseconds: .max) + .seconds(1) == VirtualDuration(microseconds: .max))
        #expect(VirtualDuration.seconds(1) * .max == VirtualDuration(microseconds: .max))
        #expect(VirtualDuration.seconds(-1) * .max == VirtualDuration(microseconds: .min))
    }

    @Test func unitConstructorsSaturate() {
        #expect(VirtualDuration.days(.max) == VirtualDuration(microseconds: .max))
        #expect(VirtualDuration.days(.min) == VirtualDuration(microseconds: .min))
        #expect(VirtualDuration.milliseconds(.max / 10) == VirtualDuration(microseconds: .max))
        #expect(VirtualDuration.hours(2) == .minutes(120))
        #expect(VirtualDuration.longestWritten == .days(36_500))
    }

    @Test func secondsRoundedUpNeverOverflows() {
        #expect(VirtualDuration.milliseconds(1).secondsRoundedUp == 1)
        #expect(VirtualDuration.seconds(3).secondsRoundedUp == 3)
        #expect(VirtualDuration(microseconds: .max).secondsRoundedUp == .max / 1_000_000 + 1)
    }

    @Test func extremeInstantsDescribeThemselves() {
        #expect(VirtualTime.distantPast.description == "-106751991+04:00:54.775")
        #expect(VirtualTime.distantFuture.description == "106751991+04:00:54.775")
    }

    /// Wall-clock values read off the wire (`apns-expiration`, a JWT `iat`, a SAS `se`) can be any
    /// 64-bit number.
    @Test func calendarConversionsOfWireValuesSaturate() {
        let anchor = CalendarAnchor()
        #expect(anchor.virtualTime(unixSeconds: .max) == .distantFuture)
        #expect(anchor.virtualTime(unixSeconds: .min) == .distantPast)
        #expect(anchor.unixSeconds(.distantFuture) == .max / 1_000_000 + anchor.unixSecondsAtZero)
        #expect(anchor.unixMilliseconds(.distantFuture) == .max / 1_000 + anchor.unixSecondsAtZero * 1_000)
        #expect(CalendarAnchor(unixSecondsAtZero: .max).unixMilliseconds(.zero) == .max)
    }

    /// Found by pushsim-fuzz: a 12-digit year in a hub ScheduleTime header or an installation's
    /// expirationTime overflowed, and one request ended pushsim serve.
    @Test func calendarTextOutsideYears1To9999IsRefusedOrClamped() {
        #expect(CalendarAnchor.unixSeconds(iso8601: "999999999999-01-01T00:00:00Z") == nil)
        #expect(CalendarAnchor.unixSeconds(iso8601: "0000-01-01T00:00:00Z") == nil)
        #expect(CalendarAnchor.unixSeconds(iso8601: "9999-12-31T23:59:59Z") == 253_402_300_799)
        #expect(CalendarAnchor.iso8601(unixSeconds: .min) == "0001-01-01T00:00:00Z")
        #expect(CalendarAnchor.iso8601(unixSeconds: .max) == "9999-12-31T23:59:59Z")
    }
}
