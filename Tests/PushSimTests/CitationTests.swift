import Foundation
import Testing

/// Every citation in the repository can be followed by a reader of a clone. Doc comments cite a
/// section of the DocC article `Sources/PushSim/PushSim.docc/Citations.md` (`Citations §1.7`, then
/// often bare `§4.9` in the same comment) and source keys such as `A-RESP` or `NH-DOTNET`. Each
/// section cited must have a `## §… ` heading in that article, each key a row in its key table, and
/// nothing may point at the private notes the article was written from, which a clone does not have.
@Suite("Citations")
struct CitationTests {
    /// The package root, three levels above this file.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Each service family's sections live in an article of their own beside it
    /// (`CitationsAPNs.md`, `CitationsFCM.md`, …, `CitationsWebPush.md` with its own key table):
    /// every `Citations*.md` of the catalog is read, in name order.
    static let articlePaths: [String] = files.map(\.path)
        .filter { $0.hasPrefix("Sources/PushSim/PushSim.docc/Citations") && $0.hasSuffix(".md") }

    /// A text file of the repository, by path relative to the root, split into lines.
    struct TextFile: Sendable {
        let path: String
        let lines: [String]
        var isSwift: Bool { path.hasSuffix(".swift") }
    }

    /// What a clone holds besides build output: these folders (recursively) and files.
    static let scannedRoots = ["Sources", "Tests", "tools", "Scenarios", "Examples", ".ci", "README.md", "Package.swift"]
    /// Binary files are not read (fuzz inputs, images, compiled Python).
    static let binaryExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "ico", "pdf", "pyc", "bin", "bytes", "zip", "gz", "p12", "der"]
    static let skippedFolders: Set<String> = [".git", ".swiftpm", "__pycache__", "node_modules"]

    static let files: [TextFile] = loadFiles()

    static func loadFiles() -> [TextFile] {
        var paths: [String] = []
        let fm = FileManager.default
        for entry in scannedRoots {
            let url = root.appendingPathComponent(entry)
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            guard isFolder.boolValue else { paths.append(entry); continue }
            guard let walk = fm.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey]) else { continue }
            for case let item as URL in walk {
                let name = item.lastPathComponent
                if (try? item.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
                    if name.hasPrefix(".build") || skippedFolders.contains(name) { walk.skipDescendants() }
                    continue
                }
                if binaryExtensions.contains(item.pathExtension.lowercased()) { continue }
                let relative = String(item.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                paths.append(relative)
            }
        }
        return paths.sorted().compactMap { path in
            guard let data = try? Data(contentsOf: root.appendingPathComponent(path)), !data.contains(0) else { return nil }
            let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            return TextFile(path: path, lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
    }

    static func regex(_ pattern: String, _ options: NSRegularExpression.Options = []) -> NSRegularExpression {
        try! NSRegularExpression(pattern: pattern, options: options)
    }

    static func matches(_ re: NSRegularExpression, in line: String) -> [(range: Range<String.Index>, groups: [String?])] {
        re.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap { m in
            guard let whole = Range(m.range, in: line) else { return nil }
            let groups = (0..<m.numberOfRanges).map { i in Range(m.range(at: i), in: line).map { String(line[$0]) } }
            return (whole, groups)
        }
    }

    // MARK: The article

    static let article: [String] = articlePaths.flatMap { path in files.first { $0.path == path }?.lines ?? [] }

    /// The `X` of every `## §X Title` heading.
    static var headings: Set<String> {
        Set(article.compactMap { line in
            guard line.hasPrefix("## §") else { return nil }
            let rest = line.dropFirst(4)
            guard let space = rest.firstIndex(of: " ") else { return nil }
            return String(rest[..<space])
        })
    }

    /// The rows of the table under `## Source keys`: key, where, what.
    static var keyTable: [(key: String, cells: [String])] {
        var inSection = false
        var rows: [(String, [String])] = []
        for line in article {
            if line.hasPrefix("## ") { inSection = line == "## Source keys"; continue }
            guard inSection, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = cells.first, first != "key", !first.hasPrefix("---") else { continue }
            rows.append((first.replacingOccurrences(of: "`", with: ""), Array(cells)))
        }
        return rows
    }

    // MARK: Finding citations

    /// A cited section: where, and its number (`1.7`, `4`, `T`).
    struct Cited: Hashable { let file: String; let line: Int; let name: String }

    /// Section references in one file. A `§` belongs to an RFC rather than to the article when the
    /// last of "Citations" or "RFC nnnn" before it in the same comment block is an RFC (so
    /// "RFC 9110 §13.1.1" and a later bare "§8.8.3.2" are skipped). `§6-1` (a book's numbering) is
    /// not a section of the article either.
    static func sectionReferences(in file: TextFile) -> [Cited] {
        let token = regex(#"(Citations)|((?i:rfc) ?[0-9]+)|§([0-9]+(?:\.[0-9]+)*|T)(?![A-Za-z0-9])(?!-[0-9])"#)
        var found: [Cited] = []
        var lastAnchorIsRFC = false
        var previousWasComment = false
        for (index, line) in file.lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // A comment block: consecutive `//` lines in Swift, a paragraph elsewhere.
            let isComment = file.isSwift ? trimmed.hasPrefix("//") : !trimmed.isEmpty
            if !(isComment && previousWasComment) { lastAnchorIsRFC = false }
            previousWasComment = isComment
            for m in matches(token, in: line) {
                if m.groups[1] != nil { lastAnchorIsRFC = false }
                else if m.groups[2] != nil { lastAnchorIsRFC = true }
                else if let name = m.groups[3], !lastAnchorIsRFC {
                    found.append(Cited(file: file.path, line: index + 1, name: name))
                }
            }
        }
        return found
    }

    /// Words shaped like source keys that are not keys: WNS's `MS-CV` header, and the placeholders
    /// of the fuzz request scripts (`tools/FuzzSurfaces`). `X-WNS-…` headers never match the pattern.
    static let notKeys: Set<String> = ["MS-CV", "SAS-LISTEN", "IOS-UPPER", "IOS-FCM", "WNS-SID", "WNS-SECRET", "WNS-BEARER",
                                       "FCM-BEARER", "FCM-ASSERTION", "APNS-JWT"]

    /// Source keys in one file: a family prefix, a dash and an upper-case name (`NH-DOTNET`,
    /// `A-FORUM-806522`), not glued to a longer word (`X-WNS-TTL`), plus the one-word keys. A forum
    /// key followed by `, -745902` cites a second thread.
    static func keyReferences(in file: TextFile) -> [Cited] {
        let prefixes = "A|A2|APNS2|AZ|F|FA|FCM|FIOS|GCM|IOS|M|MPNS|MS|NH|PT|SAS|W|WNS|WP"
        let key = regex(#"(?<![A-Za-z0-9_\-\[])(?:"# + prefixes + #")-[A-Z0-9]{2,}(?:-[0-9]+)?(?![A-Za-z0-9_\-])"#)
        let word = regex(#"\b(?:APNSWIFT|PINPOINT|SIMCTL|IOS13|PUSHIKO)\b"#)
        let moreThreads = regex(#"^(?:,\s*-[0-9]+)+"#)
        let placeholder = regex(#"\{\{[^}]*\}\}"#)
        var found: [Cited] = []
        for (index, raw) in file.lines.enumerated() {
            let line = placeholder.stringByReplacingMatches(in: raw, range: NSRange(raw.startIndex..., in: raw), withTemplate: "")
            func add(_ name: String) { found.append(Cited(file: file.path, line: index + 1, name: name)) }
            for m in matches(key, in: line) {
                let name = String(line[m.range])
                if notKeys.contains(name) { continue }
                add(name)
                guard name.hasPrefix("A-FORUM-") else { continue }
                let after = String(line[m.range.upperBound...])
                for extra in matches(moreThreads, in: after) {
                    for number in String(after[extra.range]).split(separator: "-").dropFirst() {
                        add("A-FORUM-" + number.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
                    }
                }
            }
            for m in matches(word, in: line) { add(String(line[m.range])) }
        }
        return found
    }

    /// Files whose citations are checked: everything scanned except the article itself.
    static var citingFiles: [TextFile] { files.filter { !articlePaths.contains($0.path) } }

    // MARK: Tests

    @Test func nothingPointsAtNotesOutsideTheRepository() {
        // Spelled in pieces so that this file does not contain them.
        let forbidden = ["../" + "shared", "/work/" + "shared", "pns-" + "fidelity", "tutorial-" + "system.md",
                         "what-users-" + "expect.md", "reference/" + "style.md", "fact " + "sheet"]
        #expect(Self.files.count > 300, "the scan found only \(Self.files.count) files under \(Self.root.path)")
        for file in Self.files {
            for (index, line) in file.lines.enumerated() {
                for word in forbidden where line.range(of: word, options: .caseInsensitive) != nil {
                    Issue.record("\(file.path):\(index + 1): mentions \"\(word)\", which a reader of a clone cannot follow; cite the Citations article instead")
                }
            }
        }
    }

    @Test func everyCitedSectionHasAHeading() {
        let headings = Self.headings
        #expect(headings.count >= 40, "Citations.md has only \(headings.count) '## §… ' headings")
        let cited = Self.citingFiles.flatMap(Self.sectionReferences)
        let literal = Self.citingFiles.reduce(0) { n, f in n + f.lines.reduce(0) { $0 + $1.components(separatedBy: "Citations §").count - 1 } }
        #expect(literal >= 30, "only \(literal) 'Citations §' references found: is the scan reading the sources?")
        #expect(Set(cited.map(\.name)).count >= 20, "only \(Set(cited.map(\.name)).count) distinct sections cited")
        for c in cited where !headings.contains(c.name) {
            Issue.record("\(c.file):\(c.line): cites §\(c.name), but \(Self.articlePaths.joined(separator: " or ")) has no heading '## §\(c.name) …'")
        }
    }

    @Test func everyCitedKeyHasARowInTheKeyTable() {
        let table = Self.keyTable
        let keys = Set(table.map(\.key))
        #expect(table.count >= 40, "the key table of \(Self.articlePaths.joined(separator: " or ")) has only \(table.count) rows")
        #expect(keys.count == table.count, "a key has two rows in the key table")
        let cited = Self.citingFiles.flatMap(Self.keyReferences)
        #expect(Set(cited.map(\.name)).count >= 40, "only \(Set(cited.map(\.name)).count) distinct source keys cited")
        for c in cited where !keys.contains(c.name) {
            Issue.record("\(c.file):\(c.line): cites source key \(c.name), which has no row in the table under '## Source keys' in \(Self.articlePaths.joined(separator: " or "))")
        }
    }

    @Test func everyKeySaysWhereToReadIt() {
        for row in Self.keyTable {
            #expect(row.cells.count == 3, "key \(row.key): a row needs three cells (key, where, what)")
            let place = row.cells.count > 1 ? row.cells[1] : ""
            #expect(place.contains("https://") || place.contains("github.com/"),
                    "key \(row.key): the 'where' cell gives no address")
            #expect(row.cells.count > 2 && !row.cells[2].isEmpty, "key \(row.key): say what PushSim takes from it")
        }
    }
}
