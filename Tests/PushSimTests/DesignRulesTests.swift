import Foundation
import Testing

/// The design rules of `DesignRules.md` that a reading of `Sources/` can check, checked on every
/// `swift test`, so a rule is broken only on purpose (by changing the rule and this test together).
@Suite("Design rules, read off the sources")
struct DesignRulesTests {
    /// Every Swift file under `Sources/`, as (path from the repository root, text), in path order.
    static let sourceFiles: [(path: String, text: String)] = {
        let sources = Repo.root.appendingPathComponent("Sources")
        guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
            .compactMap { url in
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
                return (url.path.replacingOccurrences(of: Repo.root.path + "/", with: ""), text)
            }
    }()

    /// `path:line: text` for each line of code (comments left out) containing one of `words`.
    static func lines(containing words: [String], in files: [(path: String, text: String)]) -> [String] {
        var found: [String] = []
        for file in files {
            for (i, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                let beforeComment = code.components(separatedBy: " //").first ?? code
                if words.contains(where: { beforeComment.contains($0) }) { found.append("\(file.path):\(i + 1): \(code.prefix(100))") }
            }
        }
        return found
    }

    /// The name a `var` or `let` declaration on `code` declares (`hot` in `@exclusivity(unchecked)
    /// private var hot: HotState`), or nil.
    static func declaredName(_ code: String) -> String? {
        let words = code.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "=" })
        guard let at = words.firstIndex(where: { $0 == "var" || $0 == "let" }), at + 1 < words.count else { return nil }
        return String(words[at + 1])
    }

    /// The twin check of ``speedLivesBehindNamedDoors()`` reads the declared names it pairs.
    @Test func declaredNamesAreRead() {
        #expect(Self.declaredName("@exclusivity(unchecked) private var hot: HotState") == "hot")
        #expect(Self.declaredName("private var deadlines = CallDeadlines()") == "deadlines")
        #expect(Self.declaredName("@exclusivity(unchecked) private var issued = HandleRegistry()") == "issued")
        #expect(Self.declaredName("return x") == nil)
    }

    @Test func theScanReadsTheSources() {
        #expect(Self.sourceFiles.count > 200, "only \(Self.sourceFiles.count) files under Sources/")
    }

    /// Rule 2: nothing reads the calendar clock but the served world's anchor (one
    /// `clock_gettime(CLOCK_REALTIME)` in `WorldState.wallAnchor`); the loopback server waits on the
    /// monotonic clock (`DispatchTime`), never on a `Date`.
    @Test func noCalendarClock() {
        let found = Self.lines(containing: ["Date()", "Date(timeIntervalSinceNow", "Date.now", "NSCondition", "CFAbsoluteTimeGetCurrent",
                                            "gettimeofday", "CLOCK_REALTIME"], in: Self.sourceFiles)
        let allowed = found.filter { $0.hasPrefix("Sources/PushSimServer/WorldState.swift:") && $0.hasSuffix("clock_gettime(CLOCK_REALTIME, &ts)") }
        #expect(allowed.count == 1 && found.count == 1, "calendar clock read at:\n\(found.joined(separator: "\n"))")
    }

    /// Rule 16: rule code (the fakes, the hub, the backends, the devices) holds no pointer, not
    /// even one a `withUTF8` closure is handed; those live in the byte toolkit, the codecs, the wire formats, and files named `…Memo` or
    /// `…FastPath`. An `@exclusivity(unchecked)` declaration is always the release-build twin of a
    /// checked one: in the `#else` branch of an `#if DEBUG` whose first branch declares the same name.
    @Test func speedLivesBehindNamedDoors() {
        let ruleFolders = ["Sources/PushSimServices/", "Sources/PushSimHub/", "Sources/PushSimBackend/", "Sources/PushSimDevices/"]
        let ruleFiles = Self.sourceFiles.filter { file in
            ruleFolders.contains { file.path.hasPrefix($0) } && !file.path.contains("/WireFormats/")
                && !file.path.hasSuffix("Memo.swift") && !file.path.hasSuffix("FastPath.swift")
        }
        #expect(ruleFiles.count > 100, "only \(ruleFiles.count) rule files found")
        // `withUTF8` (and `withUTF8Buffer`) and `withContiguousStorage…` hand a closure a buffer
        // pointer without the word `Unsafe` appearing at the call.
        let found = Self.lines(containing: ["Unsafe", "ByteWord.", "loadUnaligned", "withUTF8", "withContiguousStorage"], in: ruleFiles)
        #expect(found.isEmpty, "pointers in rule code:\n\(found.joined(separator: "\n"))")
        var unpaired: [String] = [], unchecked = 0
        for file in Self.sourceFiles {
            var branch = "", checked: Set<String> = []   // the names the `#if DEBUG` branch declares
            for (i, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code == "#if DEBUG" { (branch, checked) = ("debug", []) } else if code == "#else" && branch == "debug" { branch = "release" }
                else if code == "#endif" { branch = "" }
                if branch == "debug", let name = Self.declaredName(code) { checked.insert(name) }
                guard code.hasPrefix("@exclusivity(unchecked)") else { continue }
                unchecked += 1
                if branch != "release" || !checked.contains(Self.declaredName(code) ?? "") { unpaired.append("\(file.path):\(i + 1): \(code)") }
            }
        }
        #expect(unchecked > 0, "no unchecked declaration found: is the scan reading Sources/?")
        #expect(unpaired.isEmpty, "@exclusivity(unchecked) without a checked twin in #if DEBUG … #else:\n\(unpaired.joined(separator: "\n"))")
    }
}
