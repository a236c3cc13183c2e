@testable import PushSimHub
import Testing

@Suite("Hub telemetry records by slot")
struct NotificationRecordsTests {
    private func record(_ id: String) -> NotificationRecord {
        NotificationRecord(id: id, state: .enqueued, body: "{}", tags: nil)
    }

    @Test func slotsAndIDsNameTheSameRecord() {
        var records = NotificationRecords()
        let first = records.add(record("ntf-000001"))
        let second = records.add(record("ntf-000002"))
        #expect(first != second)
        #expect(records.slot(of: "ntf-000002") == second)
        #expect(records.slot(of: "ntf-000003") == nil)
        records[slot: second].pending = 3
        records[slot: second].count(.apple, .success)
        #expect(records["ntf-000002"]?.pending == 3)
        #expect(records["ntf-000002"]?.counts.map(\.count) == [1])
        records["ntf-000001"]?.state = .cancelled            // through the id, in place of the old one
        #expect(records[slot: first].state == .cancelled)
        records["ntf-000009"] = record("ntf-000009")         // a new id is added
        #expect(records.slot(of: "ntf-000009") == 2)
        #expect(records["ntf-000001"]?.pending == 0)
    }
}
