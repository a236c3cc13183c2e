import PushSimCrypto
import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// The browser platform's channel (NH-BROWSER, RFC 8291 §3): read from an installation's
/// `pushChannel` object, its keys checked, and every refusal naming its field.
@Suite("Hub browser push channel")
struct BrowserPushChannelTests {
    static let endpoint = "https://fcm.googleapis.com/fcm/send/abc123"
    static let p256dh = Base64URL.encode((try? P256PrivateKey(derivedFrom: Array("browser-1".utf8)))?.publicKey.x963Representation ?? [])
    static let auth = Base64URL.encode([UInt8](repeating: 7, count: 16))

    private func read(_ text: String) -> Result<BrowserPushChannel, InstallationProblem> {
        guard let json = try? JSONParser.parse(Array(text.utf8)) else { return .failure(InstallationProblem("not JSON")) }
        do { return .success(try BrowserPushChannel(json: json)) } catch { return .failure(error) }
    }

    @Test func readsAnObjectAndWritesItBackSorted() throws {
        let c = try read(#"{"endpoint":"\#(Self.endpoint)","p256dh":"\#(Self.p256dh)","auth":"\#(Self.auth)"}"#).get()
        #expect(c.endpoint == Self.endpoint)
        #expect(c.authSecret == [UInt8](repeating: 7, count: 16))
        #expect(c.publicKey != nil)
        #expect(c.json.description.hasPrefix(#"{"auth":"#))
        #expect(try BrowserPushChannel(json: c.json) == c)
    }

    @Test func readsTheDotNetSDKsStringForm() throws {
        let inner = #"{"endpoint":"\#(Self.endpoint)","p256dh":"\#(Self.p256dh)","auth":"\#(Self.auth)"}"#
        let c = try BrowserPushChannel(json: .string(inner))
        #expect(c.endpoint == Self.endpoint)
    }

    @Test func thePNSHandleIsBase64OfTheOrderedObjectAndReadsBack() throws {
        let c = try BrowserPushChannel(endpoint: Self.endpoint, p256dh: Self.p256dh, auth: Self.auth)
        let text = String(decoding: Base64.decode(c.pnsHandle) ?? [], as: UTF8.self)
        #expect(text == #"{"endpoint":"\#(Self.endpoint)","p256dh":"\#(Self.p256dh)","auth":"\#(Self.auth)"}"#)
        #expect(try BrowserPushChannel(pnsHandle: c.pnsHandle) == c)
        #expect(throws: InstallationProblem.self) { try BrowserPushChannel(pnsHandle: "not base64!") }
    }

    static let refusals: [(String, String)] = [
        (#""not-an-object""#, "must be an object"),
        (#"{"p256dh":"P","auth":"A"}"#, "pushChannel.endpoint is required."),
        (#"{"endpoint":"http://x.example/1","p256dh":"P","auth":"A"}"#, "endpoint must be an absolute https URL."),
        (#"{"endpoint":"https://x.example/1","auth":"A"}"#, "pushChannel.p256dh is required."),
        (#"{"endpoint":"https://x.example/1","p256dh":"BAAA","auth":"A"}"#, "p256dh must be"),
        (#"{"endpoint":"https://x.example/1","p256dh":"\#(p256dh)","auth":7}"#, "pushChannel.auth is required."),
    ]

    @Test(arguments: refusals)
    func refusalsNameTheField(text: String, wording: String) {
        guard case .failure(let problem) = read(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(problem.description.contains(wording))
    }

    @Test func refusesAnAuthSecretOfTheWrongLength() {
        let short = Base64URL.encode([UInt8](repeating: 1, count: 15))
        #expect(throws: InstallationProblem("auth must be the base64url of a 16-byte secret.")) {
            try BrowserPushChannel(endpoint: Self.endpoint, p256dh: Self.p256dh, auth: short)
        }
    }

    @Test func refusesAPointOffTheCurve() {
        var bytes = Base64URL.decode(Self.p256dh) ?? []
        bytes[64] ^= 1
        #expect(throws: InstallationProblem.self) {
            try BrowserPushChannel(endpoint: Self.endpoint, p256dh: Base64URL.encode(bytes), auth: Self.auth)
        }
    }
}
