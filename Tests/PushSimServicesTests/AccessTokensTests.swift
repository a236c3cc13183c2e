import Testing
import PushSimKernel
@testable import PushSimServices

@Suite("Access tokens")
struct AccessTokensTests {
    @Test func anAuthorizationHeaderIsCheckedAgainOnEveryUseEvenWhenRemembered() {
        var tokens = AccessTokens()
        let issuedAt = VirtualTime(microseconds: 0)
        tokens.issue("ya29.abc", to: "sender@example", expiresAt: issuedAt + .seconds(60))
        let header = "Bearer ya29.abc"
        #expect(tokens.check(authorization: header, now: issuedAt) == .valid(principal: "sender@example"))
        #expect(tokens.check(authorization: header, now: issuedAt + .seconds(59)) == .valid(principal: "sender@example"))
        #expect(tokens.check(authorization: header, now: issuedAt + .seconds(60)) == .expired)
        #expect(tokens.check(authorization: "bearer ya29.abc", now: issuedAt) == .valid(principal: "sender@example"))
        #expect(tokens.check(authorization: "Bearer ya29.other", now: issuedAt) == .unknown)
        #expect(tokens.check(authorization: "key=AAAA", now: issuedAt) == nil)
        #expect(tokens.check(authorization: nil, now: issuedAt) == nil)
    }
}
