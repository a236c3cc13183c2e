import Testing
import PushSimKernel
@testable import PushSimScenario

/// The operator's send for a format the SDK has no typed payload for goes to the hub as given,
/// with its headers, instead of being dropped.
@Suite("Operator payloads")
struct OperatorPayloadTests {
    @Test func typedFormatsAndOthers() {
        #expect(OperatorConsole.payload("apple", "{}")?.format == "apple")
        #expect(OperatorConsole.payload("windows", "<notification/>") == nil)   // the SDK refuses it; the send goes as given
        #expect(OperatorConsole.payload("windows", "<raw/>")?.headers.map(\.1) == ["wns/raw"])   // a root the SDK takes as raw
        let other = OperatorConsole.payload("hms", #"{"message":{}}"#, headers: [("X-HMS-TTL", "60")])
        #expect(other?.format == "hms" && other?.body == #"{"message":{}}"#)
        #expect(other?.headers.map(\.0) == ["X-HMS-TTL"])
    }
}
