import Testing
import PushSimKernel
@testable import PushSimScenario

/// ``PopulationPattern/fill(_:n:user:)`` fills ASCII text in one pass over its bytes; it must
/// give what the definition (two replacements by Characters) gives, for any text and any user.
@Suite("Population patterns: the one-pass fill agrees with the definition")
struct PopulationFillTests {
    @Test func onePassFillAgreesWithTheDefinitionOnGeneratedText() {
        let pieces = ["{", "}", "n", "u", "s", "e", "r", "{n}", "{user}", "{{", "}}", "x", " ", "{n", "user}", "é", "e\u{301}", "}\u{301}"]
        let users = ["bob", "", "{n}", "{user}", "fan-{n}", "zoë"]
        var random = SeededRandom(seed: 17)
        for _ in 0..<20_000 {
            let text = (0..<random.int(below: 8)).map { _ in pieces[random.int(below: pieces.count)] }.joined()
            let user = users[random.int(below: users.count)]
            let n = [0, 7, 10_000, -3][random.int(below: 4)]
            #expect(PopulationPattern.fill(text, n: n, user: user) == PopulationPattern.fillByCharacters(text, n: n, user: user),
                    "text \(text.debugDescription), user \(user.debugDescription), n \(n)")
        }
    }

    @Test func nonASCIITextIsFilledByCharacters() {
        #expect(PopulationPattern.fillASCII("zoë-{n}", n: 1, user: "u") == nil)
        #expect(PopulationPattern.fill("zoë-{n}", n: 1, user: "u") == "zoë-1")
        // A closing brace with a combining mark is another Character: not a placeholder.
        #expect(PopulationPattern.fill("{n}\u{301}", n: 1, user: "u") == "{n}\u{301}")
    }
}
