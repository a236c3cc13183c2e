import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// Tag expressions (Citations §4.4, NH-TAGS): grammar, precedence, errors with their
/// position, the 20-tag limit for `||`-only expressions and the 6-tag limit otherwise, OR lists.
@Suite("Tag expressions")
struct TagExpressionTests {
    private func parse(_ text: String) -> TagExpression? { try? TagExpressionParser.parse(text).get() }
    private func error(_ text: String) -> TagExpressionError? {
        if case .failure(let e) = TagExpressionParser.parse(text) { return e }
        return nil
    }
    private let a = TagExpression.tag("a"), b = TagExpression.tag("b"), c = TagExpression.tag("c"), d = TagExpression.tag("d")

    // MARK: Grammar

    @Test func notBindsTighterThanAndWhichBindsTighterThanOr() {
        #expect(parse("a || b && c") == .or(a, .and(b, c)))
        #expect(parse("a && b || c") == .or(.and(a, b), c))
        #expect(parse("a && b || c && d") == .or(.and(a, b), .and(c, d)))
        #expect(parse("!a && b") == .and(.not(a), b))
        #expect(parse("!a || b") == .or(.not(a), b))
        #expect(parse("a && !b") == .and(a, .not(b)))
        #expect(parse("!!a") == .not(.not(a)))
    }

    @Test func parenthesesOverridePrecedence() {
        #expect(parse("(a || b) && c") == .and(.or(a, b), c))
        #expect(parse("!(a || b)") == .not(.or(a, b)))
        #expect(parse("a && (b || !(c && d))") == .and(a, .or(b, .not(.and(c, d)))))
        #expect(parse("((a))") == a)
    }

    @Test func operatorsAreLeftAssociativeAndSpacesOptional() {
        #expect(parse("a || b || c") == .or(.or(a, b), c))
        #expect(parse("a&&b&&c") == .and(.and(a, b), c))
        #expect(parse("  a||!b  ") == .or(a, .not(b)))
    }

    @Test func tagsUseTheTagCharacterSet() {
        #expect(parse("username:alice@example.com") == .tag("username:alice@example.com"))
        #expect(parse("#a_b-c.d && x") == .and(.tag("#a_b-c.d"), .tag("x")))
    }

    @Test func matchingFollowsTheOperators() {
        let e = parse("(sports || news) && !muted")!
        #expect(e.matches { ["sports"].contains($0) })
        #expect(e.matches { ["news", "x"].contains($0) })
        #expect(!e.matches { ["news", "muted"].contains($0) })
        #expect(!e.matches { ["x"].contains($0) })
        #expect(parse("a || b && c")!.matches { $0 == "a" })
        #expect(!parse("(a || b) && c")!.matches { $0 == "a" })
    }

    @Test func descriptionRoundTrips() {
        for text in ["a || b && c", "(a || b) && !c", "!(a && b) || c", "a && b && c"] {
            let e = parse(text)!
            #expect(parse(e.description) == e, "\(text) → \(e.description)")
        }
        #expect(parse("(a || b) && !c")?.description == "(a || b) && !c")
    }

    // MARK: Errors

    @Test(arguments: [
        ("", 0, "expected a tag before the end"),
        ("a &&", 4, "expected a tag before the end"),
        ("(a || b", 7, "expected ')' before the end"),
        ("(a || b c", 8, "expected ')' but found 'c'"),
        ("a b", 2, "unexpected 'b'"),
        ("a & b", 2, "unexpected '&'"),
        ("a | b", 2, "unexpected '|'"),
        ("&& a", 0, "expected a tag, '!' or '(' but found '&'"),
        ("a || (b && )", 11, "expected a tag, '!' or '(' but found ')'"),
        ("a || user/alice", 9, "unexpected '/'"),
        ("a)", 1, "unexpected ')'"),
        ("!", 1, "expected a tag before the end"),
        // Offsets count characters, not bytes: the parser reads UTF-8 but reports like the hub.
        ("été || a", 0, "expected a tag, '!' or '(' but found 'é'"),
        ("(é) && a", 1, "expected a tag, '!' or '(' but found 'é'"),
        ("$UserId:{émile} || ü", 19, "expected a tag, '!' or '(' but found 'ü'"),
        ("a || 🇫🇷", 5, "expected a tag, '!' or '(' but found '🇫🇷'"),
    ])
    func errorsSayWhatAndWhere(text: String, offset: Int, message: String) {
        let e = error(text)
        #expect(e?.offset == offset, "\(text)")
        #expect(e?.message == message, "\(text)")
        #expect(e?.description == "\(message) (at character \(offset + 1))")
    }

    @Test func overlongTagIsRefusedAtItsStart() {
        let e = error("ok || " + String(repeating: "a", count: 121))
        #expect(e?.offset == 6)
        #expect(e?.message == "tag longer than 120 characters")
        #expect(parse("ok || " + String(repeating: "a", count: 120)) != nil)
    }

    /// A lone tag is read without the parser's walk: the same tag it reads inside parentheses,
    /// and the same refusals at the edges (empty, too long, a byte outside the tag set).
    @Test func aLoneTagReadsAsTheParserReadsIt() {
        for tag in ["a", "username:alice", "from:u1", "A_b@c#d.e:f-0", String(repeating: "x", count: 120)] {
            #expect(parse(tag) == .tag(tag))
            #expect(parse(tag) == parse("(" + tag + ")"))
        }
        #expect(error(String(repeating: "x", count: 121))?.message == "tag longer than 120 characters")
        #expect(error(String(repeating: "x", count: 121))?.offset == 0)
        #expect(error("")?.message == "expected a tag before the end")
        #expect(error("ü") != nil)
        #expect(error("a b")?.message == "unexpected 'b'")
    }

    // MARK: Size limits

    private func tags(_ n: Int) -> [String] { (1...n).map { "t\($0)" } }

    @Test func orOnlyExpressionsMayNameTwentyTags() {
        #expect(parse(tags(20).joined(separator: " || ")) != nil)
        #expect(parse("(" + tags(10).joined(separator: " || ") + ") || " + tags(20).suffix(10).joined(separator: " || ")) != nil)
        let e = error(tags(21).joined(separator: " || "))
        #expect(e?.message == "A tag expression using only || can name at most 20 tags; this one names 21")
        #expect(e?.offset == 0)
    }

    /// The must-show case: seven tags joined with && are refused; six are fine.
    @Test func andExpressionsMayNameOnlySixTags() {
        #expect(parse(tags(6).joined(separator: " && ")) != nil)
        let e = error(tags(7).joined(separator: " && "))
        #expect(e?.message == "A tag expression using && or ! can name at most 6 tags; this one names 7")
        #expect(TagExpressionParser.maxTagsMixed == 6)
        #expect(TagExpressionParser.maxTagsOrOnly == 20)
    }

    @Test func oneAndOrNotMakesTheSixTagLimitApply() {
        // Seven tags, six ORs and one &&: over the mixed limit.
        #expect(error(tags(6).joined(separator: " || ") + " && t7") != nil)
        // Seven tags with a single ! among ORs.
        #expect(error("!" + tags(7).joined(separator: " || ")) != nil)
        #expect(parse("!" + tags(6).joined(separator: " || ")) != nil)
        // Repeats count: the hub counts tag references.
        #expect(error("a && a && a && a && a && a && a") != nil)
    }

    @Test func orListJoinsWithOr() {
        #expect(TagExpressionParser.orList(["a", "b", "c"]) == "a || b || c")
        #expect(TagExpressionParser.orList(["only"]) == "only")
        #expect(parse(TagExpressionParser.orList(["a", "b", "c"]))?.usesOnlyOr == true)
    }

    // MARK: Through the hub

    /// A hub in front of a scripted APNs that accepts everything; three apple registrations.
    private func hubWithTaggedDevices() -> (HubWorld, ScriptedPNS, [String: String]) {
        let w = HubWorld(services: false)
        let apns = ScriptedPNS(w.world, name: "apns", aliases: ["api.push.apple.com"]) { _, _ in HTTPResponse(status: 200) }
        var tokenOf: [String: String] = [:]
        for (name, token, tags) in [("alice", "AA01", ["username:alice", "sports"]), ("bob", "BB02", ["username:bob", "news"]),
                                    ("carol", "CC03", ["username:carol", "sports", "news"])] {
            w.register(.apple, token, tags: tags)
            tokenOf[token.lowercased()] = name
        }
        return (w, apns, tokenOf)
    }

    private func reached(_ apns: ScriptedPNS, _ tokenOf: [String: String], from index: Int) -> [String] {
        apns.requests.dropFirst(index).map { tokenOf[String($0.request.path.dropFirst("/3/device/".count))] ?? "?" }
    }

    @Test func sendsGoToRegistrationsMatchingTheExpression() {
        let (w, apns, tokenOf) = hubWithTaggedDevices()
        let cases: [(String?, [String])] = [
            ("sports", ["alice", "carol"]),
            ("sports && !news", ["alice"]),
            ("sports && news", ["carol"]),
            ("username:bob || username:alice", ["alice", "bob"]),
            ("!sports", ["bob"]),
            ("nobody", []),
            (nil, ["alice", "bob", "carol"]),
        ]
        for (expression, expected) in cases {
            let before = apns.requests.count
            #expect(w.send(format: "apple", body: Payload.apple, tags: expression)?.status == 201)
            #expect(reached(apns, tokenOf, from: before) == expected, "\(expression ?? "broadcast")")
        }
        #expect(w.events("hub.send-accepted").map { $0[.targets]?.description } == ["2", "1", "1", "2", "1", "0", "3"])
    }

    @Test func theHubRefusesSevenTagsWithAndButSendsSix() {
        let (w, apns, _) = hubWithTaggedDevices()
        let seven = w.send(format: "apple", body: Payload.apple, tags: tags(7).joined(separator: " && "))
        #expect(seven?.status == 400)
        #expect(w.detail(seven) == "Invalid tag expression: A tag expression using && or ! can name at most 6 tags; this one names 7 (at character 1)")
        #expect(w.events("hub.send-accepted").isEmpty)
        let six = w.send(format: "apple", body: Payload.apple, tags: "sports && " + tags(5).map { "!\($0)" }.joined(separator: " && "))
        #expect(six?.status == 201)
        #expect(apns.requests.count == 2) // alice and carol
    }

    @Test func clientTagListIsAnOrListWithTheTwentyTagLimit() {
        let (w, apns, tokenOf) = hubWithTaggedDevices()
        let ok = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["username:bob", "username:carol"], $0) }
        guard case .success? = ok else { Issue.record("send failed: \(String(describing: ok))"); return }
        let sent = w.world.journal.entries.last { $0.to == NotificationHub.name && $0.request.path.hasSuffix("/messages/") }
        #expect(sent?.request.headers["ServiceBusNotification-Tags"] == "username:bob||username:carol")   // string.Join("||", tags)
        #expect(reached(apns, tokenOf, from: 0) == ["bob", "carol"])
        let twenty = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: tags(19) + ["sports"], $0) }
        if case .failure(let e)? = twenty { Issue.record("20 tags refused: \(e)") }
        let tooMany = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: tags(21), $0) }
        if case .failure(let e)? = tooMany { #expect(e.kind == .badRequest && e.status == 400) } else { Issue.record("21 tags accepted") }
    }

    @Test func malformedTagHeaderIs400() {
        let w = HubWorld(services: false)
        let r = w.send(format: "apple", body: Payload.apple, tags: "a && (b")
        #expect(r?.status == 400)
        #expect(w.detail(r) == "Invalid tag expression: expected ')' before the end (at character 8)")
    }
}

/// Expressions built to exhaust the parser: one request from a phone through the tutorial backend
/// (`to_tag=x || !!!…`) used to overflow the stack and kill the process.
@Suite("Tag expressions: hostile input")
struct TagExpressionHostileInputTests {
    private func error(_ text: String) -> TagExpressionError? {
        if case .failure(let e) = TagExpressionParser.parse(text) { return e }
        return nil
    }

    @Test func tenThousandNotsAreRefusedNotRecursed() {
        let e = error("x || " + String(repeating: "!", count: 10_000) + "y")
        #expect(e?.message == "A tag expression can nest '(' and '!' at most 64 deep")
        #expect(e?.offset == 5 + 65)
    }

    @Test func tenThousandParenthesesAreRefused() {
        let e = error(String(repeating: "(", count: 10_000) + "x" + String(repeating: ")", count: 10_000))
        #expect(e?.message == "A tag expression can nest '(' and '!' at most 64 deep")
    }

    @Test func nestingUpToTheLimitIsFine() {
        let deep = String(repeating: "(", count: 32) + String(repeating: "!", count: 32) + "x" + String(repeating: ")", count: 32)
        #expect((try? TagExpressionParser.parse(deep).get()) != nil)
    }

    @Test func aHundredThousandTagChainStopsAtTheHundredAndFirstTag() {
        let chain = Array(repeating: "x", count: 100_000).joined(separator: " && ")
        let e = error(chain)
        #expect(e?.message == "A tag expression can name at most 20 tags; this one names more than 100")
        #expect(e?.offset == 100 * 5)
        #expect(error(Array(repeating: "x", count: 100_000).joined(separator: " || ")) != nil)
    }

    @Test func theHubAnswers400ToADeepExpression() {
        let w = HubWorld(services: false)
        let r = w.send(format: "apple", body: Payload.apple, tags: "x || " + String(repeating: "!", count: 10_000) + "x")
        #expect(r?.status == 400)
        #expect(w.detail(r)?.hasPrefix("Invalid tag expression: A tag expression can nest") == true)
    }
}
