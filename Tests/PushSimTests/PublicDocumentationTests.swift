import Foundation
import Testing

/// Every public or open declaration in `Sources/` carries a doc comment (design rule 14), so
/// `import PushSim` brings nothing a user has to guess at. Protocol witnesses whose meaning the
/// protocol gives (`==`, `<`, `description`, `hash(into:)`, `makeIterator()`, `next()`, literal
/// initialisers, `encode(to:)`, `init(from:)`) are exempt.
@Suite("Public documentation")
struct PublicDocumentationTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// `public` or `open` starting a declaration, after attributes and modifiers.
    static let declaration = try! NSRegularExpression(pattern:
        #"^\s*(@\w+(\([^)]*\))?\s+)*((override|final|static|nonisolated|convenience|required|mutating)\s+)*(public|open)\s+(?!import)"#
        + #"((static|final|override|mutating|nonisolated|convenience|required|indirect|class|lazy|private\(set\)|internal\(set\)|package\(set\)|public\(set\))\s+)*"#
        + #"(func|var|let|init|subscript|struct|class|enum|protocol|typealias|actor)\b"#)
    /// A line holding attributes only (`@inlinable`), between a doc comment and its declaration.
    static let attributesOnly = try! NSRegularExpression(pattern: #"^\s*(@\w+(\([^)]*\))?\s*)+$"#)
    static let witness = try! NSRegularExpression(pattern:
        #"(static func (==|<)|var description\b|var debugDescription\b|func hash\(into|func makeIterator\(|func next\(\)|init\(dictionaryLiteral|init\(stringLiteral|init\(integerLiteral|func encode\(to|init\(from)"#)

    static func matches(_ regex: NSRegularExpression, _ line: String) -> Bool {
        regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }

    /// `file:line: declaration` for each public declaration without a doc comment.
    static func undocumented() -> (found: [String], declarations: Int) {
        var found: [String] = [], declarations = 0
        guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return ([], 0) }
        let files = walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let lines = text.components(separatedBy: "\n")
            for (i, line) in lines.enumerated() where matches(declaration, line) {
                declarations += 1
                if matches(witness, line) { continue }
                var j = i - 1
                while j >= 0 && matches(attributesOnly, lines[j]) { j -= 1 }
                let above = j >= 0 ? lines[j].trimmingCharacters(in: .whitespaces) : ""
                if !(above.hasPrefix("///") || above.hasSuffix("*/")) {
                    let path = file.path.replacingOccurrences(of: sources.deletingLastPathComponent().path + "/", with: "")
                    found.append("\(path):\(i + 1): \(line.trimmingCharacters(in: .whitespaces).prefix(100))")
                }
            }
        }
        return (found, declarations)
    }

    @Test func everyPublicDeclarationHasADocComment() {
        let (found, declarations) = Self.undocumented()
        #expect(declarations > 1_000, "the scan found only \(declarations) public declarations: is it reading Sources/?")
        let list = found.prefix(40).joined(separator: "\n")
        #expect(found.isEmpty, "\(found.count) public declaration(s) without a doc comment:\n\(list)")
    }
}
