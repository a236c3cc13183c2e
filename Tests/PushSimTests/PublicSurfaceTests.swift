import Foundation
import Testing

/// `import PushSim` adds nothing to the standard library's types (issue 42, item 5): the byte
/// toolkit's helpers on `String`, `Array` and `UInt8` are `package`, visible to PushSim's own
/// layers only. Read off the recorded listing, `tools/api/PushSim.api`, which `tools/docc-check.sh`
/// holds equal to the symbol graphs (one line per symbol: kind, `Type.member` path, declaration).
@Suite("Public surface")
struct PublicSurfaceTests {
    /// Types a user's code already has, which a library must not extend behind its back.
    static let standardTypes: Set<String> = [
        "String", "Substring", "Character", "Array", "ArraySlice", "ContiguousArray", "Dictionary", "Set", "Optional",
        "UInt8", "UInt16", "UInt32", "UInt64", "Int", "Int32", "Int64", "Double", "Bool", "Sequence", "Collection",
        "Unicode", "Data", "URL",
    ]

    @Test func importPushSimExtendsNoStandardType() throws {
        let listing = try String(contentsOf: Repo.root.appendingPathComponent("tools/api/PushSim.api"), encoding: .utf8)
        let lines = listing.split(separator: "\n")
        #expect(lines.count > 1_000, "the listing holds only \(lines.count) lines")
        let extending = lines.filter { line in
            // `method String.allBytes(_:): …`: the path is the second word, its type before the first dot.
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count > 1, let dot = words[1].firstIndex(of: ".") else { return false }
            return Self.standardTypes.contains(String(words[1][..<dot]))
        }
        #expect(extending.isEmpty, "public extensions of standard types:\n\(extending.joined(separator: "\n"))")
    }
}
