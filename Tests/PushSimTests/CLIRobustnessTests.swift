import Foundation
import Testing

/// What the command line does with hostile or broken input: it never loses what it already found.
@Suite struct CLIRobustnessTests {
    private func file(_ name: String, _ bytes: [UInt8]) -> String {
        let path = temporaryPath(name)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    /// A 100,000-line bad file printed 13.7 MB of errors.
    @Test func aFileOfMistakesPrintsTwentyAndACount() throws {
        let path = file("many.scenario", Array(("scenario \"m\"\n" + (1...100_000).map { "bogus \($0)\n" }.joined()).utf8))
        let r = try runPushsim(["check", path])
        #expect(r.status == 2)
        #expect(r.err.contains("… and 99980 more mistakes in \(path)"))
        #expect(r.err.utf8.count < 10_000)
        let three = try runPushsim(["check", path, "--max-errors", "3"])
        #expect(three.err.contains("… and 99997 more mistakes"))
    }

    @Test func controlCharactersNeverReachTheTerminal() throws {
        let path = file("ctl.scenario", Array("scenario \"x\"\ndevice a ios\nat 1s a install\u{1B}]0;pwned\u{07}\n".utf8))
        let r = try runPushsim(["check", path])
        #expect(r.status == 2)
        #expect(r.err.contains("\(path):3:16: error: control character U+001B in the file"))
        #expect(!r.err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func aFileThatIsNotUTF8GetsLineAndColumn() throws {
        let path = file("latin1.scenario", Array("scenario \"x\"\ndevice a ios # caf".utf8) + [0xE9, 0x0A])
        let r = try runPushsim(["check", path])
        #expect(r.status == 2)
        #expect(r.err.contains("\(path):2:19: error: the file is not UTF-8 text"))
    }

    /// The reports keep every scenario that ran when another cannot be read.
    @Test func reportsAreWrittenWhenAFileCannotBeParsed() throws {
        let bad = file("bad.scenario", Array("scenario \"bad\"\nbogus\n".utf8))
        let junit = temporaryPath("robust.xml"), trace = temporaryPath("robust.jsonl")
        let r = try runPushsim(["run", Repo.scenarios + "/tutorial/alice-notifies-bob.scenario", bad, "--junit", junit, "--trace", trace])
        #expect(r.status == 2)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("errors=\"1\""))
        #expect(xml.contains("name=\"parse\""))
        #expect(xml.contains("Alice notifies Bob"))
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("alice-notifies-bob.scenario") == true)
        #expect(lines.count > 10)
    }
}
