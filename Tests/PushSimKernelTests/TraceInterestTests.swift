import Testing
@testable import PushSimKernel

/// ``TraceInterest`` answers membership from an open-addressed table of the kinds' hashes: it must
/// agree with the set's own answer for every kind, including kinds that start at the same slot.
@Suite struct TraceInterestTests {
    /// Kind names of the shape traces use, many enough that mask bits collide.
    private static let names: [String] = (0..<600).map { "layer\($0 % 7).kind-\($0)" }

    @Test func membershipAgreesWithTheSetOfKinds() {
        var random = SeededRandom(seed: 11)
        let kinds = Self.names.map { TraceKind($0) }
        for round in 0..<40 {
            let chosen = Set(kinds.filter { _ in random.next() % UInt64(2 + round % 9) == 0 })
            let interest = TraceInterest(chosen)
            for kind in kinds {
                #expect(interest.contains(kind) == chosen.contains(kind), "\(kind) in round \(round)")
            }
            #expect(interest.isEmpty == chosen.isEmpty)
        }
        // 600 kinds start at the same slot of a table of at most 1,024 in many places: probing was exercised.
        #expect(Set(kinds.map { UInt(bitPattern: $0.nameHash) & 1023 }).count < kinds.count)
    }

    @Test func everyKindNothingAndUnion() {
        let a = TraceInterest([TraceKind("app.login"), TraceKind("hub.pns-request")])
        let b = TraceInterest([TraceKind("notification.shown")])
        #expect(TraceInterest.everyKind.contains(TraceKind("anything.at-all")))
        #expect(!TraceInterest.nothing.contains(TraceKind("app.login")) && TraceInterest.nothing.isEmpty)
        let both = a.union(b)
        #expect(both == TraceInterest([TraceKind("app.login"), TraceKind("hub.pns-request"), TraceKind("notification.shown")]))
        #expect(both.contains(TraceKind("notification.shown")) && !both.contains(TraceKind("http.request")))
        #expect(a.union(.everyKind) == .everyKind && TraceInterest.nothing.union(a) == a)
    }

    @Test func aKeptTraceWantsEveryKindAnUnkeptOneWhatItsObserversRead() {
        var trace = Trace()
        #expect(trace.interest == .everyKind)
        trace.isRecording = false
        #expect(trace.interest.isEmpty)
        trace.observe(reading: TraceInterest([TraceKind("app.login")])) { _ in }
        trace.observe(reading: TraceInterest([TraceKind("app.logout")])) { _ in }
        #expect(trace.interest == TraceInterest([TraceKind("app.login"), TraceKind("app.logout")]))
        trace.observe { _ in }   // an observer that names no kinds reads every kind
        #expect(trace.interest == .everyKind)
    }
}
