import PushSimKernel
import PushSimNetwork
@testable import PushSimBackend
import Testing

/// The backends' Basic-credential memo and base64 reading give the answers of the handler's steps.
@Suite("Credential memo")
struct CredentialMemoTests {
    static let samples = ["", "=", "==", "YQ==", "YWI=", "YWJj", "Ym9iOmJvYg==", "Ym9iOmJvYg", "Ym9i\nOmJvYg==", "Ym9i OmJvYg==",
                          "Ym9iOmJvYg===", "Y=9iOmJvYg==", "YWJj-_==", "YWJ+", "YW/+", "////", "++++", "ü===", "YWJjZA==", "YWJjZA=",
                          "YQ", "Y", "YWJjZGVm", "dTE6dTE=", "dTE6", "OnUx", "dTF1MQ=="]

    @Test func base64ReadsAsBase64Decode() {
        for s in Self.samples {
            #expect(Base64FastPath.decode(Substring(s)) == Base64.decode(s), "\(s.debugDescription)")
            #expect(Base64FastPath.decode(("Basic " + s).dropFirst(6)) == Base64.decode(s))
        }
    }

    /// `Split(':')` cuts at every colon, as .NET's does, even one a combining mark follows (which
    /// Swift's `split` on characters would not cut at); `[1]` is the piece between the first two.
    @Test func credentialsSplitAtEveryColonAsDotNetDoes() {
        func outcome(_ credentials: String) -> TutorialAuthentication.Outcome {
            TutorialAuthentication.authenticate(header: "Basic " + Base64.encode(Array(credentials.utf8)))
        }
        #expect(outcome("bob:bob") == .user("bob"))
        #expect(outcome("bob:bob:extra") == .user("bob"))
        #expect(outcome("::") == .user(""))
        #expect(outcome("bob:\u{301}bob") == .forbidden)   // the password is "\u{301}bob"
        #expect(outcome("\u{301}:\u{301}") == .user("\u{301}"))
        #expect(outcome("bob") == .exception("IndexOutOfRangeException: no ':' in the credentials"))
        // Compared ordinally, as C#'s `==` compares: the same text in two Unicode forms differs.
        #expect(outcome("\u{E9}:e\u{301}") == .forbidden)
        #expect(TutorialAuthentication.authenticate(header: "Basic " + Base64.encode([0x62, 0xE2, 0x3A, 0x62, 0xE2])) == .user("b\u{FFFD}"))
    }

    /// The scheme is read on bytes for ASCII headers: the same answers as lower-casing a copy,
    /// testing its prefix and dropping six characters, which non-ASCII headers still go through.
    @Test func schemeIsReadAsLowercasingAndCountingCharactersWould() {
        func reference(_ header: String) -> TutorialAuthentication.Outcome {
            guard header.lowercased().hasPrefix("basic ") else { return .forbidden }
            let s = String(header.dropFirst("Basic ".count))
            return TutorialAuthentication.authenticate(header: "Basic " + s)
        }
        for h in ["", "B", "Basic", "Basic ", "basic dTE6dTE=", "BASIC dTE6dTE=", "bAsIc dTE6dTE=", "Basic\tdTE6dTE=", "Basicx dTE6dTE=",
                  "Basic\r\ndTE6dTE=", "Basic  dTE6dTE=", "Bearer dTE6dTE=", "Basıc dTE6dTE=", "Basic \u{301}dTE6dTE=", "BASİC dTE6dTE=",
                  "Basic dTE6dTE=\u{301}", "\u{212A}Basic dTE6dTE="] {
            #expect(TutorialAuthentication.authenticate(header: h) == reference(h), "\(h.debugDescription)")
        }
    }

    @Test func memoizedOutcomeIsTheHandlersOutcome() {
        var memo = CredentialMemo<TutorialAuthentication.Outcome>()
        let headers = Self.samples.map { "Basic " + $0 } + ["basic dTE6dTE=", "Bearer x", "BASIC dTE6dTE=", "Basic", "Basic  dTE6dTE="]
        for round in 0..<2 {
            for h in headers {
                var decoded = 0
                let outcome = memo.value(h) { decoded += 1; return TutorialAuthentication.authenticate(header: $0) }
                #expect(decoded == (round == 0 ? 1 : 0))
                #expect(outcome == TutorialAuthentication.authenticate(HTTPHeaders([("Authorization", h)])))
            }
        }
        #expect(TutorialAuthentication.authenticate(HTTPHeaders()) == .exception("InvalidOperationException: the Authorization header is missing (defect c)"))
        #expect(memo.count == Set(headers).count)
    }

    @Test func hardenedCredentialsSplitAtTheFirstColon() {
        #expect(HardenedBackend.basicCredentials("Basic " + Base64.encode(Array("a:b:c".utf8)))! == ("a", "b:c"))
        #expect(HardenedBackend.basicCredentials("Basic " + Base64.encode(Array("nocolon".utf8))) == nil)
        #expect(HardenedBackend.basicCredentials("Bearer x") == nil)
    }

    @Test func memoForgetsWhenFull() {
        var memo = CredentialMemo<Int>()
        for k in 0..<CredentialMemo<Int>.capacity { _ = memo.value("h\(k)") { _ in k } }
        #expect(memo.count == CredentialMemo<Int>.capacity)
        #expect(memo.value("h1") { _ in -1 } == 1)
        _ = memo.value("new") { _ in 0 }
        #expect(memo.count == 1)
        #expect(memo.value("h1") { _ in -1 } == -1)
    }
}
