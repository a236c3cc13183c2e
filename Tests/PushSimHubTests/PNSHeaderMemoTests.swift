import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

@Suite("Hub PNS header memo")
struct PNSHeaderMemoTests {
    private func notification(_ id: String) -> HubNotification {
        HubNotification(id: id, format: "apple", platform: .apple, payload: [], forwardedHeaders: [], acceptedAt: .zero,
                        fcmMessageTail: nil, properties: nil, recordSlot: 0)
    }

    @Test func headersAreBuiltOncePerNotificationPlatformAndCredential() {
        var memo = PNSHeaderMemo()
        var builds = 0
        func headers(_ n: HubNotification, _ platform: RegistrationPlatform, _ credential: String) -> String? {
            memo.headers(n, platform, credential: credential) {
                builds += 1
                return ["authorization": "bearer " + credential]
            }["authorization"]
        }
        let first = notification("ntf-1"), second = notification("ntf-2")
        #expect(headers(first, .apple, "jwt-1") == "bearer jwt-1")
        #expect(headers(first, .apple, "jwt-1") == "bearer jwt-1")
        #expect(builds == 1)
        #expect(headers(first, .fcmV1, "ya29") == "bearer ya29")          // another PNS: its own entry
        #expect(headers(first, .apple, "jwt-1") == "bearer jwt-1")        // apple's entry kept
        #expect(builds == 2)
        #expect(headers(first, .apple, "jwt-2") == "bearer jwt-2")        // renewed credential
        #expect(headers(second, .apple, "jwt-2") == "bearer jwt-2")       // another notification
        #expect(builds == 4)
        #expect(headers(second, .gcm, "x") == "bearer x")                 // retired: never remembered
        #expect(headers(second, .gcm, "x") == "bearer x")
        #expect(builds == 6)
    }
}
