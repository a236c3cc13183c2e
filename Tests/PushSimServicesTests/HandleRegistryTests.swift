import Testing
import PushSimKernel
import PushSimNetwork
@testable import PushSimServices

/// The compact handle registry keeps every field of a record as given, re-issues by install,
/// and the payload memo never lets a bad payload through.
@Suite("Handle registry and payload memo")
struct HandleRegistryTests {
    private func record(_ device: String, install: Int = 1, app: String = "com.example.notify",
                        expires: VirtualTime? = nil) -> HandleRecord {
        HandleRecord(device: device, app: app, install: install, environment: "production", issuedAt: .zero + .seconds(5),
                     invalidatedAt: nil, expiresAt: expires, lastActiveAt: .zero + .seconds(5))
    }

    @Test func aRecordComesBackAsIssuedAndChangesInPlace() {
        var r = HandleRegistry()
        r.issue("h1", record("phone", expires: .zero + .days(30)))
        r.issue("h2", record("fleet#7", install: 2, app: "com.example.other"))
        #expect(r.count == 2)
        #expect(r["h1"] == record("phone", expires: .zero + .days(30)))
        #expect(r["h2"] == record("fleet#7", install: 2, app: "com.example.other"))
        #expect(r["h3"] == nil)
        r.touch("h1", at: .zero + .seconds(9))
        r.invalidate("h2", at: .zero + .seconds(10))
        r.invalidate("h2", at: .zero + .seconds(20)) // the first time it was found dead stays
        #expect(r["h1"]?.lastActiveAt == .zero + .seconds(9))
        #expect(r["h2"]?.invalidatedAt == .zero + .seconds(10))
    }

    /// A handle's place stands for it from the lookup on: read and touched there, it is the same
    /// record as by the handle, also after more handles were issued and one was re-issued.
    @Test func aPlaceStandsForItsHandle() {
        var r = HandleRegistry()
        r.issue("h1", record("phone"))
        guard let place = r.place(of: "h1") else { Issue.record("h1 has no place"); return }
        #expect(r.place(of: "h9") == nil)
        for i in 2...50 { r.issue("h\(i)", record("phone\(i)", install: i)) }
        r.issue("h1", record("phone", expires: .zero + .days(2)))
        #expect(r.recordReadInPlace(at: place) == r["h1"])
        r.touch(at: place, time: .zero + .seconds(40))
        #expect(r["h1"]?.lastActiveAt == .zero + .seconds(40))
        #expect(r["h2"]?.lastActiveAt == .zero + .seconds(5))
    }

    @Test func theHandleOfAnInstallIsFoundByDeviceAppAndInstall() {
        var r = HandleRegistry()
        r.issue("old", record("phone", install: 1))
        r.issue("new", record("phone", install: 2))
        #expect(r.handle(device: "phone", app: "com.example.notify", install: 1) == "old")
        #expect(r.handle(device: "phone", app: "com.example.notify", install: 2) == "new")
        #expect(r.handle(device: "phone", app: "com.example.notify", install: 3) == nil)
        #expect(r.handle(device: "phone", app: "com.example.unknown", install: 1) == nil)
        #expect(r.handle(device: "tablet", app: "com.example.notify", install: 1) == nil)
    }

    // Found by pushsim-fuzz (wns surface, Tests/PushSimTests/Fixtures/fuzz/wns/install-number-past-32-bits.bin): an
    // install number read off the device channel was narrowed to the row's 32 bits with a trap.
    @Test func anInstallNumberPast32BitsIsNeverFoundNorIssued() {
        var r = HandleRegistry()
        r.issue("h1", record("phone"))
        for install in [Int(Int32.max) + 1, Int(Int32.min) - 1, Int.min, Int.max] {
            #expect(r.handle(device: "phone", app: "com.example.notify", install: install) == nil)
            #expect(!r.canIssue(app: "com.example.notify", install: install, environment: "production"))
        }
        #expect(r.canIssue(app: "com.example.notify", install: Int(Int32.max), environment: "production"))
        #expect(r.canIssue(app: "com.example.new", install: 1, environment: "sandbox"))
    }

    @Test(arguments: [Int64.min, Int64.max, Int64(Int32.max) + 1])
    func aDeviceChannelRegisterWithAnInstallNumberPast32BitsIsRefused(_ install: Int64) {
        let bench = WNSBench()
        let body = #"{"app":"\#(bench.app.packageFamily)","install":\#(install),"environment":"production"}"#
        var status: Int?
        bench.world.call(HTTPRequest(method: "POST", authority: WNSService.deviceHost, path: DeviceChannel.registerPath, body: Array(body.utf8)),
                         from: bench.pc.name) { status = $0.status }
        bench.world.run()
        #expect(status == 400)
    }

    @Test func theMemoOnlyRemembersWhatPassedAndComparesBytes() {
        var memo = PayloadCheckMemo()
        let good = Array("<toast/>".utf8)
        #expect(!memo.isKnownGood(good, as: "toast"))
        memo.remember(good, as: "toast")
        #expect(memo.isKnownGood(good, as: "toast"))
        #expect(memo.isKnownGood(Array("<toast/>".utf8), as: "toast"))   // same bytes, other storage
        #expect(!memo.isKnownGood(good, as: "tile"))
        #expect(!memo.isKnownGood(Array("<toast>".utf8), as: "toast"))
    }

    @Test func splitTargetKeepsItsBehaviour() {
        let (path, query) = splitTarget("/?token=Aw%2BY&empty&&x=a+b")
        #expect(path == "/")
        #expect(query.map(\.0) == ["token", "empty", "x"])
        #expect(query.map(\.1) == ["Aw+Y", "", "a b"])
        #expect(splitTarget("/plain").path == "/plain")
        #expect(splitTarget("/plain").query.isEmpty)
    }

    @Test func bearerTokensAreReadCaseInsensitively() {
        #expect(bearerToken("Bearer abc") == "abc")
        #expect(bearerToken("bearer abc def") == "abc def")
        #expect(bearerToken("Basic abc") == nil)
        #expect(bearerToken("Bearer ") == nil)
        #expect(bearerToken(nil) == nil)
    }
}

@Suite("Handle registry re-issue")
struct HandleRegistryReissueTests {
    private func record(install: Int) -> HandleRecord {
        HandleRecord(device: "phone", app: "com.example.notify", install: install, environment: "production",
                     issuedAt: .zero, invalidatedAt: nil, expiresAt: nil, lastActiveAt: .zero)
    }

    /// A new handle for the same install (the old one died) replaces it in the install index.
    @Test func aNewHandleForTheSameInstallReplacesTheOld() {
        var r = HandleRegistry()
        r.issue("first", record(install: 1))
        r.invalidate("first", at: .zero + .seconds(1))
        r.issue("second", record(install: 1))
        #expect(r.handle(device: "phone", app: "com.example.notify", install: 1) == "second")
        #expect(r["first"]?.invalidatedAt == .zero + .seconds(1))
        #expect(r.count == 2)
    }

    @Test func manyHandlesStayFindable() {
        var r = HandleRegistry()
        for i in 0..<5_000 { r.issue("h\(i)", HandleRecord(device: "d\(i % 100)", app: "app", install: i / 100, environment: "e",
                                                           issuedAt: .zero, invalidatedAt: nil, expiresAt: nil, lastActiveAt: .zero)) }
        for i in stride(from: 0, to: 5_000, by: 7) {
            #expect(r["h\(i)"]?.device == "d\(i % 100)")
            #expect(r.handle(device: "d\(i % 100)", app: "app", install: i / 100) == "h\(i)")
        }
        #expect(r["h5000"] == nil)
    }
}

@Suite("Slot table")
struct SlotTableTests {
    @Test func keysSpreadOverTheTableAndAreFoundBack() {
        var table = SlotTable()
        let keys = (0..<20_000).map { "key-\($0)" }
        for (i, k) in keys.enumerated() { table.insert(Int32(i), hash: k.hashValue) }
        #expect(table.averageDisplacement < 4) // linear probing at most 3/4 full: about 1.5
        for i in stride(from: 0, to: keys.count, by: 13) {
            #expect(table.slot(hash: keys[i].hashValue) { keys[Int($0)] == keys[i] } == Int32(i))
        }
        #expect(table.slot(hash: "absent".hashValue) { keys[Int($0)] == "absent" } == nil)
        table.set(5, hash: keys[7].hashValue) { keys[Int($0)] == keys[7] }
        #expect(table.slot(hash: keys[7].hashValue) { $0 == 5 } == 5)
    }
}
