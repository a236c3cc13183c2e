import Testing
@testable import PushSimKernel

@Suite("Trace and TraceFormat")
struct TraceTests {
    private final class Seen { var events: [TraceEvent] = [] }

    private func sampleTrace() -> Trace {
        var trace = Trace()
        trace.record(time: VirtualTime(microseconds: 5_120_000), layer: "apns", host: "api.push.apple.com",
                     kind: TraceKind("http.request"), correlation: "c0001", fields: [
                        .init(.status, 200),
                        .init(.body, "say \"hi\"\nbye"),
                        .init(.ok, true),
                        .init(.body, "second"),
                        .init(.ctl, "a\u{01}b\tc\rd\\e\u{1F}"),
                        .init(.text, "Café ☕"),
                        .init(.neg, -3),
                     ])
        trace.record(time: .zero + .days(91), layer: "device", host: "bob-iphone",
                     kind: TraceKind("notification.shown"), correlation: "", fields: [])
        return trace
    }

    @Test func recordAssignsSequenceAndKeepsFieldOrder() {
        let trace = sampleTrace()
        #expect(trace.events.map(\.sequence) == [0, 1])
        #expect(trace.events[0].fields.map(\.key.name) == ["status", "body", "ok", "body", "ctl", "text", "neg"])
        #expect(trace.events[0][.body] == "say \"hi\"\nbye")     // the first of duplicate keys
        #expect(trace.events[0][.status] == .int(200))
        #expect(trace.events[0][.missing] == nil)
    }

    @Test func jsonLinesExactBytes() {
        let expected =
            #"{"corr":"c0001","fields":{"body":"say \"hi\"\nbye","body":"second","ctl":"a\u0001b\tc\rd\\e\u001f","#
            + #""neg":-3,"ok":true,"status":200,"text":"Café ☕"},"host":"api.push.apple.com","kind":"http.request","#
            + #""layer":"apns","seq":0,"t_us":5120000}"# + "\n"
            + #"{"corr":"","fields":{},"host":"bob-iphone","kind":"notification.shown","layer":"device","#
            + #""seq":1,"t_us":7862400000000}"# + "\n"
        let got = TraceFormat.jsonLines(sampleTrace().events)
        #expect(got == expected)
        #expect(Array(got.utf8) == Array(expected.utf8))
        #expect(TraceFormat.jsonLines([]) == "")
    }

    @Test func jsonStringEscaping() {
        var out = ""
        appendJSONString("q\"b\\n\nr\rt\tz\u{0}\u{7}\u{1b}é", to: &out)
        #expect(out == #""q\"b\\n\nr\rt\tz\u0000\u0007\u001bé""#)
        // The returning form writes the same, with and without escapes.
        #expect(jsonString("q\"b\\n\nr\rt\tz\u{0}\u{7}\u{1b}é") == #""q\"b\\n\nr\rt\tz\u0000\u0007\u001bé""#)
        #expect(jsonString("plain-handle_0123456789abcdef") == #""plain-handle_0123456789abcdef""#)
        #expect(jsonString("") == #""""#)
    }

    @Test func timelineLineFormat() {
        let e = TraceEvent(sequence: 0, time: VirtualTime(microseconds: 5_120_000), layer: "device",
                           host: "bob-iphone", kind: TraceKind("notification.shown"), correlation: "c0004", fields: [
                            .init(.text, "From alice: Hi Bob"), .init(.badge, 1), .init(.sound, "default"),
                            .init(.empty, ""), .init(.flag, true), .init(.q, "a\"b"),
                           ])
        //            time(16)          layer(9)  host(16)        kind(28)                    corr(7)
        let expected = "0+00:00:05.120  device   bob-iphone      notification.shown          c0004  "
            + #"text="From alice: Hi Bob" badge=1 sound=default empty="" flag=true q="a\"b""#
        #expect(TraceFormat.timelineLine(e) == expected)
    }

    @Test func timelineWithoutFieldsOrCorrelation() {
        let e = TraceEvent(sequence: 3, time: .zero + .days(2) + .hours(3), layer: "scenario",
                           host: "a-very-long-host-name-that-overflows-its-column", kind: TraceKind("run.start"),
                           correlation: "", fields: [])
        let expected = "2+03:00:00.000  scenario a-very-long-host-name-that-overflows-its-column run.start                   -"
        #expect(TraceFormat.timelineLine(e) == expected)
        #expect(TraceFormat.timeline([e, e]) == expected + "\n" + expected + "\n")
    }

    @Test func timelineKeepsOneLinePerEventWhenFieldsHoldControlCharacters() {
        var trace = Trace()
        trace.record(time: .zero, layer: "hub", host: "hub", kind: TraceKind("log"), correlation: "c1",
                     fields: [.init(.msg, "line1\nline2"), .init(.tab, "a\tb")])
        let text = TraceFormat.timeline(trace.events)
        #expect(text.filter { $0 == "\n" }.count == 1)
        #expect(text.hasSuffix(#"msg="line1\nline2" tab="a\tb""# + "\n"))
    }

    @Test func observersSeeEveryEventInOrder() {
        let seen = Seen()
        var trace = Trace()
        trace.record(time: .zero, layer: "x", host: "h", kind: TraceKind("before"), correlation: "", fields: [])
        trace.observe { seen.events.append($0) }
        trace.record(time: .zero + .seconds(1), layer: "x", host: "h", kind: TraceKind("one"), correlation: "c1", fields: [])
        trace.record(time: .zero + .seconds(2), layer: "x", host: "h", kind: TraceKind("two"), correlation: "c1",
                     fields: [.init(.n, 2)])
        #expect(seen.events.map(\.kind.name) == ["one", "two"])
        #expect(seen.events == Array(trace.events.dropFirst()))
        #expect(seen.events.map(\.sequence) == [1, 2])
    }

    @Test func notRecordingRecordsNothing() {
        var trace = Trace()
        trace.isRecording = false
        for i in 0..<10 {
            trace.record(time: VirtualTime(microseconds: Int64(i)), layer: "x", host: "h", kind: TraceKind("k"),
                         correlation: "", fields: [.init(.i, TraceValue(i))])
        }
        #expect(trace.events.isEmpty)
        // Observers still see events while recording is off.
        let seen = Seen()
        trace.observe { seen.events.append($0) }
        trace.record(time: .zero, layer: "x", host: "h", kind: TraceKind("watched"), correlation: "", fields: [])
        #expect(trace.events.isEmpty)
        #expect(seen.events.map(\.kind.name) == ["watched"])
        // Turning recording back on records again.
        trace.isRecording = true
        trace.record(time: .zero, layer: "x", host: "h", kind: TraceKind("kept"), correlation: "", fields: [])
        #expect(trace.events.map(\.kind.name) == ["kept"])
    }

    @Test func traceValueLiteralsAndDescription() {
        let s: TraceValue = "hi", n: TraceValue = 42, b: TraceValue = false
        #expect(s == .string("hi") && n == .int(42) && b == .bool(false))
        #expect(TraceValue(7) == .int(7))
        #expect([s, n, b, TraceValue.bool(true)].map(\.description) == ["hi", "42", "false", "true"])
    }

    /// Kinds compare by name, byte for byte, through a hash worked out once.
    @Test func traceKindsAreEqualExactlyWhenTheirNamesAre() {
        expectEqualExactlyWhenNamesAre(TraceKind.init, ["hub.pns-accepted", "hub.pns-accepted ", "hub.pns-rejected", "http.request"])
        #expect(TraceKind("hub.pns-accepted").hashValue == TraceKind(String("hub.pns-" + "accepted")).hashValue)
    }

    /// Field names too, so that a lookup (`event[.defect]`) passes over other fields by a hash.
    @Test func traceFieldNamesAreEqualExactlyWhenTheirNamesAre() {
        expectEqualExactlyWhenNamesAre(TraceFieldName.init, ["registration-id", "registration-id ", "registration-ix", "status"])
        let event = TraceEvent(sequence: 0, time: .zero, layer: "l", host: "h", kind: TraceKind("k"), correlation: "c",
                               fields: [.init(TraceFieldName("status"), .int(200)), .init(TraceFieldName("defect"), "e")])
        #expect(event[TraceFieldName("defect")] == "e" && event[TraceFieldName("reason")] == nil)
    }
}

/// Values named by `make` are equal exactly when their names are the same bytes, and a name
/// made again from its bytes hashes alike (`names` plus the empty name, one letter, and the two
/// spellings of é, which String's `==` would call equal).
private func expectEqualExactlyWhenNamesAre<Named: Hashable>(_ make: (String) -> Named, _ names: [String]) {
    let names = names + ["a", "", "é", "e\u{301}"]
    for a in names {
        for b in names {
            #expect((make(a) == make(b)) == a.utf8.elementsEqual(b.utf8), "\(a) \(b)")
        }
        #expect(Set([make(a), make(String(decoding: Array(a.utf8), as: UTF8.self))]).count == 1)
    }
}

/// Field names for these tests (the layers above declare the real ones).
extension TraceFieldName {
    fileprivate static let badge = TraceFieldName("badge")
    fileprivate static let body = TraceFieldName("body")
    fileprivate static let ctl = TraceFieldName("ctl")
    fileprivate static let empty = TraceFieldName("empty")
    fileprivate static let flag = TraceFieldName("flag")
    fileprivate static let i = TraceFieldName("i")
    fileprivate static let missing = TraceFieldName("missing")
    fileprivate static let msg = TraceFieldName("msg")
    fileprivate static let n = TraceFieldName("n")
    fileprivate static let neg = TraceFieldName("neg")
    fileprivate static let ok = TraceFieldName("ok")
    fileprivate static let q = TraceFieldName("q")
    fileprivate static let sound = TraceFieldName("sound")
    fileprivate static let status = TraceFieldName("status")
    fileprivate static let tab = TraceFieldName("tab")
    fileprivate static let text = TraceFieldName("text")
}
