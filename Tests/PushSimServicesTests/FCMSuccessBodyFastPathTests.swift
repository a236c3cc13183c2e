import PushSimKernel
@testable import PushSimServices
import Testing

/// `FCMSuccessBodyFastPath` writes what the plain way writes, drawing the same random numbers.
@Suite struct FCMSuccessBodyFastPathTests {
    @Test(arguments: ["pushsim-demo", "p", "my-project-123456", "a.b_c"])
    func writesWhatThePlainWayWrites(project: String) {
        var fastRandom = SeededRandom(seed: 7), plainRandom = SeededRandom(seed: 7)
        for milliseconds: Int64 in [0, 1, 1_764_288_000_123, 9_999_999_999_999] {
            let fast = FCMSuccessBodyFastPath.write(project: project, milliseconds: milliseconds, random: &fastRandom)
            let plain = FCMSuccessBody.plain(project: project, messageID: "0:\(milliseconds)%" + plainRandom.hex(bytes: 8))
            #expect(fast.name == plain.name)
            #expect(fast.body == plain.body)
        }
        #expect(fastRandom.next() == plainRandom.next())
    }
}
