import PushSimKernel

/// One part of PushSim that takes untrusted bytes, as the fuzzer feeds it: a name, valid examples
/// to start from, an optional structure-aware generator, and a function that must return, never
/// crash, whatever the bytes are. The function answers a short outcome class (a status, an error
/// kind) so that a run can say how deep the mutated inputs reach.
public struct FuzzSurface: Sendable {
    /// The name `--surface` selects, and the fixture directory `Fixtures/fuzz/<name>/`.
    public let name: String
    /// One line: what the surface feeds, and what the real service does with such input.
    public let summary: String
    /// Valid examples the mutator starts from (each is also run once, unmutated, first).
    public let corpus: [[UInt8]]
    /// Builds a fresh input from scratch (deep nesting, odd numbers, long chains), or nil.
    public let generate: (@Sendable (inout SeededRandom) -> [UInt8])?
    /// One input in `generatorOdds` comes from ``generate`` (when there is one).
    public let generatorOdds: Int
    /// Inputs one process runs at most (a long run is cut into chunks, each in a child process):
    /// 10,000 for surfaces that build a world per input, since PushSim's worlds are never freed.
    public let inputsPerProcess: Int
    /// True for text formats read line by line (scenarios, HTTP heads): random bytes are then
    /// mostly printable ASCII, so that fewer inputs stop at the first UTF-8 or character check.
    public let prefersText: Bool
    /// Feeds one input; returns its outcome class (comma-separated parts for a multi-step input).
    /// Must never crash.
    public let run: @Sendable ([UInt8]) -> String

    /// A surface; see the properties for each argument.
    public init(name: String, summary: String, corpus: [[UInt8]], generate: (@Sendable (inout SeededRandom) -> [UInt8])? = nil,
                generatorOdds: Int = 8, prefersText: Bool = false, inputsPerProcess: Int = .max,
                run: @escaping @Sendable ([UInt8]) -> String) {
        self.inputsPerProcess = max(1, inputsPerProcess)
        self.generatorOdds = max(1, generatorOdds)
        self.name = name
        self.summary = summary
        self.corpus = corpus
        self.generate = generate
        self.prefersText = prefersText
        self.run = run
    }
}

/// Every surface the fuzzer knows, by name, in a fixed order; built on demand (the service and
/// scenario surfaces read files or make worlds).
public enum FuzzRegistry {
    /// The surface names, in the order `--surface all` runs them.
    public static let names = ["scenario", "hub", "apns", "fcm", "wns", "webpush", "json", "xml", "base64", "jwt", "aes128gcm", "vapid", "keys", "tags", "wire"]

    /// The surface called `name`, or nil. `repository` is the checkout's root (for `Scenarios/`).
    public static func surface(_ name: String, repository: String) -> FuzzSurface? {
        switch name {
        case "scenario": return ScenarioSurface.make(corpusDirectory: repository + "/Scenarios")
        case "hub": return HubSurface.make()
        case "apns": return PushServiceSurfaces.apns()
        case "fcm": return PushServiceSurfaces.fcm()
        case "wns": return PushServiceSurfaces.wns()
        case "webpush": return PushServiceSurfaces.webPush()
        case "json": return CodecSurfaces.json
        case "xml": return CodecSurfaces.xml
        case "base64": return CodecSurfaces.base64
        case "jwt": return CodecSurfaces.jwt
        case "aes128gcm": return CryptoSurfaces.aes128gcm
        case "vapid": return CryptoSurfaces.vapid
        case "keys": return CryptoSurfaces.keys
        case "tags": return CodecSurfaces.tags
        case "wire": return WireSurface.make()
        default: return nil
        }
    }

    /// Every surface, in ``names`` order.
    public static func all(repository: String) -> [FuzzSurface] {
        names.compactMap { surface($0, repository: repository) }
    }
}

/// A short, bounded outcome label: letters, digits and `-_.:` only, at most `limit` characters,
/// so that free text (a name echoed in an error) does not make every input its own class.
func outcomeLabel(_ text: String, limit: Int = 32) -> String {
    var out = ""
    for c in text.unicodeScalars {
        if out.count >= limit { break }
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ":": out.unicodeScalars.append(c)
        case " ": out += "-"
        default: break
        }
    }
    return out
}
