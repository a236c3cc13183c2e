import Foundation
import Testing
import FuzzSurfaces
import PushSim

/// The fuzzer's finds, from the tests: every input saved under `Fixtures/fuzz/<surface>/` (the
/// crashers `pushsim-fuzz` found, shrunk, and hostile inputs worth keeping) is run again through
/// the same surface code the tool runs (the `FuzzSurfaces` target), and must come back with an
/// outcome instead of a trap. Crashes still being fixed elsewhere are stepped around as the
/// tool's `--skip-known` does (``KnownCrashes``); their fixtures replay the fixed code once the
/// entry there is gone.
@Suite struct FuzzFindsTests {
    private static let ready: Void = { KnownCrashes.skip = true }()

    private static func surface(_ name: String) throws -> FuzzSurface {
        _ = ready
        return try #require(FuzzRegistry.surface(name, repository: Repo.root.path))
    }

    @Test func everySavedFindReplaysWithoutACrash() throws {
        let root = Repo.fixtures + "/fuzz"
        let directories = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        var replayed = 0
        for name in directories {
            #expect(FuzzRegistry.names.contains(name), "Fixtures/fuzz/\(name) is named after no surface")
            guard FuzzRegistry.names.contains(name) else { continue }
            let surface = try Self.surface(name)
            for file in try FileManager.default.contentsOfDirectory(atPath: root + "/" + name).sorted() {
                let bytes = try #require(FileManager.default.contents(atPath: "\(root)/\(name)/\(file)"))
                #expect(!surface.run([UInt8](bytes)).isEmpty, "\(name)/\(file)")
                replayed += 1
            }
        }
        #expect(replayed >= 8)
    }

    @Test(arguments: FuzzRegistry.names)
    func aSeededSmokeDoesNotCrash(_ name: String) throws {
        let surface = try Self.surface(name)
        var mutator = Mutator(seed: 7, surface: surface, maxLength: 2_048)
        let count = ["scenario": 30, "hub": 60, "apns": 60, "fcm": 60, "wns": 60, "webpush": 40, "wire": 100][name] ?? 400
        var classes = Set<String>()
        for _ in 0..<count { classes.insert(surface.run(mutator.next())) }
        #expect(classes.count >= 2, "\(name): \(classes.sorted())")
    }

    @Test(arguments: ["hub", "apns", "fcm", "wns"])
    func theServiceCorpusReachesADevice(_ name: String) throws {
        // The seed inputs are valid: at least one of them gets a notification shown on a phone,
        // so mutations start from requests that pass every check.
        let surface = try Self.surface(name)
        let outcomes = surface.corpus.map(surface.run)
        #expect(outcomes.contains { $0.hasSuffix("+shown") }, "\(name): \(outcomes)")
    }

    @Test func theCryptoCorpusPassesAndIsRefusedAsExpected() throws {
        // Each crypto surface starts from inputs that pass (and one that is refused), so that
        // mutations start deep inside the decoder, the verifier and the key readers.
        let outcomes = try ["aes128gcm", "vapid", "keys"].map { name in try Self.surface(name).corpus.map(Self.surface(name).run) }
        #expect(outcomes[0] == ["ok", "ok-empty"])
        #expect(outcomes[1] == ["verified", "refused:expiryTooFar", "refused:keyLength3"])
        #expect(outcomes[2].prefix(3) == ["pem:private:p256", "pem:public:p256", "jwk:p256"])
        #expect(outcomes[2].last?.hasPrefix("jwk:") == true)
    }

    @Test func theMutatorIsDeterministic() throws {
        let surface = try Self.surface("json")
        var a = Mutator(seed: 3, surface: surface, maxLength: 512), b = Mutator(seed: 3, surface: surface, maxLength: 512)
        var c = Mutator(seed: 4, surface: surface, maxLength: 512)
        let first = (0..<200).map { _ in a.next() }
        #expect(first == (0..<200).map { _ in b.next() })
        #expect(first != (0..<200).map { _ in c.next() })
    }

    @Test func aRequestScriptReadsCRLFHeadersBodiesAndWaits() {
        let text = "POST https://h.example/p/q?x=1&y=%41 HTTP/1.1\r\nA: b\r\nC:d\r\n\r\nbody\u{1}{{T}}\n~~~\nWAIT 2h\n~~~\nGET /only-a-path"
        let steps = RequestScript.steps(Array(text.utf8), defaultAuthority: "default.example", substitutions: [(name: "T", value: Array("tok".utf8))])
        #expect(steps.count == 3)
        guard steps.count == 3, case .request(let r) = steps[0], case .wait(let d) = steps[1], case .request(let g) = steps[2] else { return }
        #expect(r.method == "POST" && r.authority == "h.example" && r.path == "/p/q")
        #expect(r.queryValue("x") == "1" && r.queryValue("y") == "A")
        #expect(r.headers.fields.map { "\($0.name)=\($0.value)" } == ["A=b", "C=d"])
        #expect(r.bodyText == "body\u{1}tok")
        #expect(d == .hours(2))
        #expect(g.method == "GET" && g.authority == "default.example" && g.path == "/only-a-path")
    }
}
