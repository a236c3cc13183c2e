import Testing
@testable import PushSimNetwork

@Suite struct BasicCredentialsTests {
    func request(_ authorization: String?) -> HTTPRequest {
        HTTPRequest(method: "GET", authority: "backend", path: "/",
                    headers: HTTPHeaders(authorization.map { [("Authorization", $0)] } ?? []))
    }

    @Test func userAndPasswordSplitAtTheFirstColon() throws {
        // base64("bob:pa:ss") — RFC 7617: the password may hold colons, the user name may not.
        let credentials = try #require(request("Basic Ym9iOnBhOnNz").basicCredentials)
        #expect(credentials.user == "bob")
        #expect(credentials.password == "pa:ss")
    }

    @Test func theSchemeNameIsCaseInsensitive() {
        #expect(request("basic Ym9iOmJvYg==").basicCredentials?.user == "bob")
        #expect(request("BASIC Ym9iOmJvYg==").basicCredentials?.password == "bob")
    }

    @Test func anythingElseIsNoCredentials() {
        #expect(request(nil).basicCredentials == nil)
        #expect(request("Bearer Ym9iOmJvYg==").basicCredentials == nil)
        #expect(request("Basic ").basicCredentials == nil)
        #expect(request("Basic not-base64!").basicCredentials == nil)
        #expect(request("Basic Ym9i").basicCredentials == nil)           // "bob": no colon
        #expect(request("Basic Ym9iOmJvYg").basicCredentials == nil)     // unpadded
    }
}
