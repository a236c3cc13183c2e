import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// The hub's request fast paths (SAS memo, byte splitting, Atom writer and reader, `$filter`,
/// time texts, forwarded headers) give exactly the answers of the slow paths they stand in for.
@Suite("Request fast paths")
struct RequestFastPathTests {
    // MARK: SAS verification memo

    @Test func memoizedVerdictIsTheFreshOne() {
        let rules = [TestIdentity.full, TestIdentity.listen, TestIdentity.sendOnly]
        let w = HubWorld(services: false)
        let tokens = [w.sas(TestIdentity.full), w.sas(TestIdentity.listen), w.sas(TestIdentity.full, key: "wrong"),
                      w.sas(TestIdentity.full, keyName: "Nobody"), w.sas(TestIdentity.full, resource: "https://other.servicebus.windows.net/x"),
                      w.sas(TestIdentity.full, resource: "https://pushsim.servicebus.windows.net/"), "SharedAccessSignature sr=x&sig=y"]
        var memo = SASVerificationMemo()
        for round in 0..<3 {
            for t in tokens {
                let fresh = SharedAccessSignature.verdict(t, rules: rules, resource: TestIdentity.hubResource)
                var asked = 0
                let remembered = memo.verdict(t) { asked += 1; return SharedAccessSignature.verdict($0, rules: rules, resource: TestIdentity.hubResource) }
                #expect(remembered == fresh)
                #expect(asked == (round == 0 ? 1 : 0))
                for right in HubRight.allCases {
                    for now in [Int64(0), w.world.anchor.unixSeconds(w.world.now) + 3_599, w.world.anchor.unixSeconds(w.world.now) + 3_600] {
                        #expect(SharedAccessSignature.problem(remembered, right: right, nowUnixSeconds: now)
                                == SharedAccessSignature.problem(t, rules: rules, right: right, nowUnixSeconds: now, resource: TestIdentity.hubResource))
                    }
                }
            }
        }
        #expect(memo.count == tokens.count)
    }

    @Test func memoKeepsTheLatestTokensOnly() {
        var memo = SASVerificationMemo()
        var asked = 0
        let verify: (String) -> SharedAccessSignature.Verdict = { _ in asked += 1; return .refused("x") }
        for k in 0..<(SASVerificationMemo.capacity + 3) { _ = memo.verdict("t\(k)", verify: verify) }
        #expect(memo.count == SASVerificationMemo.capacity)
        asked = 0
        _ = memo.verdict("t\(SASVerificationMemo.capacity + 2)", verify: verify)   // recent: remembered
        #expect(asked == 0)
        _ = memo.verdict("t0", verify: verify)   // oldest: replaced
        #expect(asked == 1)
    }

    /// A token remembered while good is refused once it has run out, as a fresh one is.
    @Test func rememberedTokenExpiresOnTime() {
        let w = HubWorld(services: false)
        let token = w.sas(TestIdentity.full)
        #expect(w.raw("POST", w.path("registrationIDs/"), auth: .header(token))?.status == 201)
        w.advance(.minutes(59))
        #expect(w.raw("POST", w.path("registrationIDs/"), auth: .header(token))?.status == 201)
        w.advance(.minutes(2))
        let late = w.raw("POST", w.path("registrationIDs/"), auth: .header(token))
        #expect(late?.status == 401)
        #expect(w.detail(late) == "ExpiredToken: ")
        // And the claim is checked per operation: a listen token stays refused for sends.
        let listen = w.sas(TestIdentity.listen)
        #expect(w.raw("POST", w.path("registrationIDs/"), auth: .header(listen))?.status == 201)
        #expect(w.raw("POST", w.path("messages/"), headers: [("ServiceBusNotification-Format", "apple")],
                      body: Array("{}".utf8), auth: .header(listen))?.status == 401)
    }

    /// The client caches its token as the .NET SDK does: signed for 20 minutes, reused for 18
    /// (before: a new one every second of virtual time, valid for an hour).
    @Test func clientCachesItsTokenForEighteenMinutes() {
        let w = HubWorld(services: false)
        let signedAt = w.world.anchor.unixSeconds(w.world.now)
        let a = w.client.sasToken()
        #expect(a == SharedAccessSignature.token(resource: TestIdentity.hubResource, keyName: TestIdentity.full.keyName,
                                                 key: TestIdentity.full.key, expiresAtUnixSeconds: signedAt + 20 * 60))
        w.advance(.seconds(5))
        #expect(w.client.sasToken() == a)
        w.advance(.microseconds(18 * 60_000_000 - 5_000_000 - 1))
        #expect(w.client.sasToken() == a)
        w.advance(.microseconds(1))
        let b = w.client.sasToken()
        #expect(b != a)
        #expect(b == SharedAccessSignature.token(resource: TestIdentity.hubResource, keyName: TestIdentity.full.keyName,
                                                 key: TestIdentity.full.key, expiresAtUnixSeconds: w.world.anchor.unixSeconds(w.world.now) + 20 * 60))
    }

    // MARK: Splitting by bytes

    static let splitSamples = ["", "/", "//", "/notifyusers/registrations/reg-000001", "a//b/", "/a/b/c/", "api/register",
                               "no-separator", "/é/x", "x/\u{301}y", "a/\r\n/b", "?a?b", "https://h/x/reg-1?api-version=1&x=/y",
                               "https://h/x/?api", "???", "a/b//?c", "caf\u{E9}/x?y", "/x/", "username:a,,b, c ,", " , "]

    @Test func splitMatchesSplitOnASCII() {
        for s in Self.splitSamples {
            for sep in ["/", ",", "?", " "] {
                let byte = sep.utf8.first!
                for omitting in [true, false] {
                    let reference = s.split(separator: Character(sep), omittingEmptySubsequences: omitting).map(String.init)
                    if let fast = ASCIIText.split(s, separator: byte, omittingEmpty: omitting) {
                        #expect(fast == reference, "\(s.debugDescription) on \(sep)")
                        #expect(s.utf8.allSatisfy { $0 < 0x80 })
                    } else {
                        #expect(!s.utf8.allSatisfy { $0 < 0x80 })
                    }
                }
            }
        }
    }

    @Test func lastSegmentMatchesSplit() {
        for s in Self.splitSamples + ["https://pushsim.servicebus.windows.net/notifyusers/registrations/reg-000042?api-version=2015-01"] {
            let reference = s.split(separator: "?").first?.split(separator: "/").last.map(String.init)
            #expect(NotificationHubClient.lastSegment(s) == reference, "\(s.debugDescription)")
            switch ASCIIText.lastPathSegment(s) {
            case .segment(let x): #expect(x == reference)
            case .none: #expect(reference == nil)
            case .nonASCII: #expect(!s.utf8.allSatisfy { $0 < 0x80 })
            }
        }
        #expect(NotificationHubClient.lastSegment(nil) == nil)
    }

    // MARK: Atom writer

    static let awkward = ["plain", "a&b", "<tag>", "quote\"d", "tab\there", "line\nfeed", "cr\rhere", "café", "]]>", "apos'", ""]

    static func stored(_ platform: RegistrationPlatform, handle: String, tags: [String], id: String = "reg-000007",
                       expires: VirtualTime? = nil, created: VirtualTime? = nil) -> StoredRegistration {
        StoredRegistration(number: 7, id: id, platform: platform, handle: handle, tags: tags, updatedAt: .zero + .seconds(5),
                           expiresAt: expires, etag: 3, createdAt: created)
    }

    /// Entry addresses as the hub writes them: a single entry's, and a listing's whose query
    /// holds `text` (so `&` and what an attribute escapes reach both writers).
    static func addresses(_ url: String, _ text: String) -> [EntryAddress] {
        [EntryAddress(collection: url + "/registrations", query: "api-version=2015-01"),
         EntryAddress(collection: url + "/tags/t/registrations", query: ""),
         EntryAddress(collection: url + "/registrations", query: "api-version=2017-04&$top=2&$filter=" + text)]
    }

    @Test func writerMatchesTheTrees() {
        let anchor = CalendarAnchor()
        let url = "https://pushsim.servicebus.windows.net/notifyusers"
        for platform in RegistrationPlatform.allCases {
            for text in Self.awkward {
                for tags in [[], ["username:bob"], ["a", text, "b"]] {
                    let d = RegistrationDescription(platform: platform, handle: "h" + text, tags: tags, registrationID: "reg-1")
                    #expect(AtomRegistration.requestBody(d) == AtomRegistration.requestBodyTree(d))
                    for (expires, address) in zip([nil, VirtualTime.zero + .hours(2), nil], Self.addresses(url, text)) {
                        let r = Self.stored(platform, handle: "h" + text, tags: tags, id: "reg-" + text, expires: expires,
                                            created: expires == nil ? nil : .zero + .seconds(1))
                        for style in EntryStyle.all {
                            let tree = AtomRegistration.entry(r, address: address, anchor: anchor, style: style)
                                .serialized(spaceBeforeEmptyClose: style.spaceBeforeEmptyClose)
                            #expect(AtomRegistration.entryDocument(r, address: address, anchor: anchor, style: style, time: anchor.iso8601)
                                    == Array(tree.utf8))
                            let listing = address.collection + "?" + address.query
                            let feed = AtomRegistration.feed([AtomRegistration.entry(r, address: address, anchor: anchor, inFeed: true, style: style)],
                                                             url: listing, updated: "T" + text, next: listing, style: style)
                            #expect(AtomRegistration.feedDocument([r], url: listing, address: address, anchor: anchor, updated: "T" + text,
                                                                  next: listing, style: style, time: anchor.iso8601) == Array(feed.utf8))
                        }
                    }
                }
                #expect(AtomRegistration.errorDocument(code: 400, detail: text) == Array(AtomRegistration.errorBody(code: 400, detail: text).utf8))
            }
        }
        let empty = AtomRegistration.feed([], url: url + "/registrations/", updated: "now")
        #expect(AtomRegistration.feedDocument([], url: url + "/registrations/", address: Self.addresses(url, "")[0], anchor: anchor,
                                              updated: "now", time: anchor.iso8601) == Array(empty.utf8))
        // A template registration goes the tree way, CDATA and all.
        let t = RegistrationDescription(platform: .windows, handle: "https://x.notify.windows.com/?t=1", tags: ["a"], registrationID: "reg-2",
                                        template: RegistrationTemplate(bodyTemplate: "<toast>$(m)]]></toast>", templateName: "n",
                                                                       wnsHeaders: [TemplateHeader("X-WNS-Type", "wns/toast")]))
        #expect(AtomRegistration.requestBody(t) == AtomRegistration.requestBodyTree(t))
    }

    // MARK: Atom reader

    @Test func readerAgreesWithTheXMLParser() {
        let anchor = CalendarAnchor()
        let url = "https://pushsim.servicebus.windows.net/notifyusers"
        var documents: [[UInt8]] = []
        for platform in RegistrationPlatform.allCases {
            for text in Self.awkward {
                for tags in [[], ["username:bob"], ["a", " b ", text, "", "c"], ["x,y", " "]] {
                    let d = RegistrationDescription(platform: platform, handle: "h" + text, tags: tags, registrationID: "reg-1")
                    documents.append(AtomRegistration.requestBodyTree(d))
                    let r = Self.stored(platform, handle: text, tags: tags, created: .zero + .seconds(1))
                    for address in Self.addresses(url, text) {
                        for style in EntryStyle.all {
                            documents.append(AtomRegistration.entryDocument(r, address: address, anchor: anchor, style: style, time: anchor.iso8601))
                            documents.append(AtomRegistration.feedDocument([r, r], url: address.collection + "?" + address.query, address: address,
                                                                           anchor: anchor, updated: "now", next: address.url(of: "next"),
                                                                           style: style, time: anchor.iso8601))
                        }
                    }
                }
            }
        }
        // Documents written by hand, not as the writer writes them: the XML parser decides.
        let head = "<?xml version=\"1.0\" encoding=\"utf-8\"?><entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">"
        let sb = " xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"http://schemas.microsoft.com/netservices/2010/10/servicebus/connect\">"
        for inner in ["<DeviceToken>AB</DeviceToken><DeviceToken>CD</DeviceToken>", "<Tags>x</Tags><Tags>y</Tags><DeviceToken>AB</DeviceToken>",
                      "<DeviceToken>A&amp;B</DeviceToken>", "<DeviceToken></DeviceToken>", "<DeviceToken/>", " <DeviceToken>AB</DeviceToken>",
                      "<Other>z</Other><DeviceToken>AB</DeviceToken>", "<DeviceToken>AB</DeviceTokenX>", "<DeviceToken a=\"1\">AB</DeviceToken>",
                      "<DeviceToken>A<b/>B</DeviceToken>", "<Tags>a,b</Tags>"] {
            documents.append(Array((head + "<AppleRegistrationDescription" + sb + inner + "</AppleRegistrationDescription></content></entry>").utf8))
        }
        documents.append(Array((head + "<NoSuchRegistrationDescription" + sb + "<DeviceToken>AB</DeviceToken></NoSuchRegistrationDescription></content></entry>").utf8))
        documents.append(Array((head + "<AppleRegistrationDescription" + sb + "<DeviceToken>AB</DeviceToken></AppleRegistrationDescription></content></entry>  ").utf8))
        documents.append(Array("not xml".utf8))
        documents.append([])
        var fast = 0
        for doc in documents {
            let reference = AtomRegistration.parseEntryTree(doc)
            #expect(AtomRegistration.parseEntry(doc) == reference, "\(String(decoding: doc, as: UTF8.self))")
            if let d = AtomReader.entry(doc) { fast += 1; #expect(.success(d) == reference) }
            #expect(AtomRegistration.parseFeed(doc) == AtomRegistration.parseFeedTree(doc))
            if let f = AtomReader.feed(doc) { fast += 1; #expect(f == AtomRegistration.parseFeedTree(doc)) }
        }
        #expect(fast > 0)
        // What the SDK and the hub write for an ordinary registration takes the fast way.
        let d = RegistrationDescription(platform: .fcmV1, handle: "fcm-token-1", tags: ["username:bob", "topic:x"], registrationID: "reg-1")
        // (The request body carries no RegistrationId: the id is in the URL.)
        #expect(AtomReader.entry(AtomRegistration.requestBody(d)) == RegistrationDescription(platform: .fcmV1, handle: "fcm-token-1",
                                                                                              tags: ["username:bob", "topic:x"]))
        let r = Self.stored(.apple, handle: "AB12", tags: ["username:bob"])
        // A listing's query holds `&` (written `&amp;`) and a next page's link: still the fast way.
        let address = EntryAddress(collection: url + "/registrations", query: "api-version=2015-01&$top=1")
        let listing = url + "/registrations?api-version=2015-01&$top=1"
        for style in EntryStyle.all {
            #expect(AtomReader.entry(AtomRegistration.entryDocument(r, address: address, anchor: anchor, style: style, time: anchor.iso8601))?
                .handle == "AB12")
            #expect(AtomReader.feed(AtomRegistration.feedDocument([r], url: listing, address: address, anchor: anchor, updated: "now",
                                                                  next: listing + "&continuationtoken=Mg%253D%253D", style: style,
                                                                  time: anchor.iso8601))?.count == 1)
            #expect(AtomReader.feed(AtomRegistration.feedDocument([], url: listing, address: address, anchor: anchor, updated: "now",
                                                                  style: style, time: anchor.iso8601)) == [])
        }
    }

    @Test func tagsSplitAsTheTreeReadingDoes() {
        for text in ["", ",", "a", " a ", "a b", "ab ", " ab", "a,,b", " , a ,b ,", "username:x,from:y"] {
            let reference = text.split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
            #expect(AtomReader.tags(text) == reference)
        }
    }

    // MARK: $filter, time texts, forwarded headers

    @Test func filterValueMatchesTheSplitReading() {
        func reference(_ filter: String) -> String? {
            let parts = filter.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, parts[1] == "eq", parts[2].hasPrefix("'"), parts[2].hasSuffix("'"), parts[2].count >= 2,
                  ["DeviceToken", "ChannelUri", "FcmV1RegistrationId", "GcmRegistrationId"].contains(String(parts[0])) else { return nil }
            return String(parts[2].dropFirst().dropLast())
        }
        let samples = ["ChannelUri eq 'abc'", "ChannelUri eq ''", "ChannelUri eq '", "ChannelUri  eq 'a'", " ChannelUri eq 'a'",
                       "ChannelUri eq 'a b c'", "ChannelUri eq  'a'", "DeviceToken eq 'AB'", "Other eq 'a'", "ChannelUri ne 'a'",
                       "ChannelUri eq 'caf\u{E9}'", "ChannelUri eq 'a'\u{301}", "ChannelUri eq 'https://x.notify.windows.com/?token=a%2Bb'",
                       "FcmV1RegistrationId eq 'x'y'", "", "eq", "ChannelUri eq a"]
        for s in samples { #expect(NotificationHub.handleFilterValue(s) == reference(s), "\(s.debugDescription)") }
    }

    @Test func timeTextsAreTheAnchorsText() {
        let anchor = CalendarAnchor()
        var memo = TimeTextMemo()
        for us in [Int64(0), 999_999, 1_000_000, 86_400_000_000, 5, 0, 3_600_000_000, 7_000_000, 1_000_000] {
            let t = VirtualTime(microseconds: us)
            #expect(memo.text(t, anchor: anchor) == anchor.iso8601(t))
        }
    }

    @Test func forwardedHeadersAsLowercasedPrefixes() {
        for name in ["apns-priority", "APNS-Topic", "X-WNS-Type", "x-wns-tag", "apns", "X-WNS", "Content-Type", "apns-\u{301}x", "Apns-é",
                     "", "Authorization", "ServiceBusNotification-Format", "éapns-", "\u{212A}x-wns-", "@pns-", "8-wns-"] {
            let lower = name.lowercased()
            #expect(NotificationHub.isForwardedToPNS(name) == (lower.hasPrefix("apns-") || lower.hasPrefix("x-wns-")), "\(name)")
        }
    }
}
