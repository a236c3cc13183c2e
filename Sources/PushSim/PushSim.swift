import Foundation
@_exported import PushSimKernel
@_exported import PushSimCrypto
@_exported import PushSimNetwork
@_exported import PushSimServices
@_exported import PushSimHub
@_exported import PushSimBackend
@_exported import PushSimDevices
@_exported import PushSimScenario

/// Entry points for using PushSim from your own code and tests: load scenario files, find them
/// in folders, run them. For building a world by hand, see ``Simulation``.
public enum PushSim {
    /// This release of PushSim (`pushsim --version`; the git tag has the same name).
    public static let version = "0.13.0"

    /// A scenario file that could not be read or parsed.
    public enum LoadError: Error, CustomStringConvertible {
        /// The file at `path` does not exist or cannot be read; `reason` says why.
        case unreadable(path: String, reason: String)
        /// The file was read but refused (not UTF-8, not valid scenario language, or settings the
        /// world cannot take before the run), with its diagnostics.
        case invalid(ScenarioParseFailure)

        /// `<path>: error: …` for an unreadable file (control characters escaped), or every
        /// diagnostic of an invalid one.
        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "\(path): error: cannot read the file: \(reason)".escapingControlCharacters
            case .invalid(let failure): return failure.description
            }
        }

        /// The error as ``description`` says it, with at most `limit` diagnostics followed by
        /// `… and N more mistakes in <file>`.
        public func rendered(limit: Int) -> String {
            switch self {
            case .unreadable: return description
            case .invalid(let failure): return failure.rendered(limit: limit)
            }
        }
    }

    /// Reads and parses one `.scenario` file.
    public static func loadScenario(path: String) -> Result<Scenario, LoadError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(.unreadable(path: path, reason: "no such file, or not readable"))
        }
        switch ScenarioSource.decode([UInt8](data), path: path) {
        case .failure(let diagnostic): return .failure(.invalid(ScenarioParseFailure(diagnostics: [diagnostic])))
        case .success(let text): return ScenarioParser.parse(text, path: path).mapError { .invalid($0) }
        }
    }

    /// The `.scenario` files named by `paths`: files as given, folders searched recursively,
    /// each folder's files sorted by path so the order never depends on the file system.
    public static func scenarioFiles(in paths: [String]) -> (files: [String], missing: [String]) {
        var files: [String] = []
        var missing: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { missing.append(path); continue }
            guard isDirectory.boolValue else { files.append(path); continue }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = (fm.enumerator(atPath: base)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".scenario") }
                .map { base + "/" + $0 }
            files += found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        return (files, missing)
    }

    /// Loads and runs one file; the seed given wins over the file's own. Without `keepingTrace`
    /// the report's ``ScenarioReport/trace`` is empty: expectations, invariants and defect marks
    /// are judged as events are recorded, so the verdicts are the same, and a large run skips
    /// storing every event (pages, timelines, diagrams and `--trace` files need it kept).
    public static func run(path: String, seed: UInt64? = nil, externalBackends: ExternalBackendConnector? = nil,
                           keepingTrace: Bool = true) -> Result<ScenarioReport, LoadError> {
        loadScenario(path: path).flatMap { scenario in
            ScenarioRunner.run(scenario, seed: seed, externalBackends: externalBackends, keepingTrace: keepingTrace).mapError { .invalid($0) }
        }
    }
}
