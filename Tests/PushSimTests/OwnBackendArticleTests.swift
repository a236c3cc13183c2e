import Foundation
import Testing

/// The DocC article "Testing your own backend" shows the example package `Examples/OwnBackend`
/// (which CI builds and tests): its code blocks must be that package's files, word for word.
@Suite("The article's code")
struct OwnBackendArticleTests {
    @Test func theArticleShowsTheExamplePackagesFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        func read(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }
        let article = try read("Sources/PushSim/PushSim.docc/TestingYourOwnBackend.md")
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```").first! }
        #expect(blocks == [try read("Examples/OwnBackend/Tests/OwnBackendTests/MyBackend.swift"),
                           try read("Examples/OwnBackend/Tests/OwnBackendTests/MyApp.swift"),
                           try read("Examples/OwnBackend/Tests/OwnBackendTests/MyBackendTests.swift")],
                "copy the example package's files into the article's code blocks")
    }
}
