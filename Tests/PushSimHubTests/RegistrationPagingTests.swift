import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// Listings page by page (Citations §4.2): a feed cut by `$top` carries `x-ms-continuationtoken`
/// and a `next` link, and the token read back gives the page after it, as the live hub recorded by
/// the .NET SDK does (`GetAllRegistrationsAsync_UsingTopLessThenNumberOfRegistrations_…`).
@Suite("Hub registration paging")
struct RegistrationPagingTests {
    /// A listing's type as the live hub names it since 2023.
    static let feedType = "application/xml"

    /// The registration ids of a feed answer.
    static func ids(_ r: HTTPResponse?) -> [String]? {
        AtomRegistration.parseFeed(r?.body ?? []).map { $0.compactMap(\.registrationID) }
    }

    /// The `next` link of a feed answer, if it has one.
    static func nextLink(_ r: HTTPResponse?) -> String? {
        guard let r, let doc = try? XMLDocumentParser.parse(r.body) else { return nil }
        return doc.root.elements.first { $0.name == "link" && $0.attribute("rel") == "next" }?.attribute("href")
    }

    @Test func aFeedCutByTopHandsOutATokenForTheRest() throws {
        let w = HubWorld(services: false)
        let all = (0..<5).map { w.register(.fcmV1, "fcm-\($0)") }
        let first = try #require(w.raw("GET", w.path("registrations"), query: [("api-version", "2017-04"), ("$top", "2")]))
        #expect(first.status == 200 && first.headers["Content-Type"] == Self.feedType)
        #expect(Self.ids(first) == Array(all[0..<2]))
        // Percent-encoded base64 in the header, as the live hub sends it.
        let token = try #require(first.headers["x-ms-continuationtoken"])
        #expect(token == "Mw%3D%3D")                      // base64 of "3", the number the next page starts at
        #expect(first.headers["X-MS-ContinuationToken"] == token)
        #expect(w.events("hub.registrations-read").first?[.next] == "Mw==")
        // The .NET SDK appends the header's value to the query as it is: the hub reads it once decoded.
        let second = try #require(w.raw("GET", w.path("registrations"),
                                        query: [("api-version", "2017-04"), ("$top", "2"), ("continuationtoken", percentDecode(token))]))
        #expect(Self.ids(second) == Array(all[2..<4]))
        let third = try #require(w.raw("GET", w.path("registrations"),
                                       query: [("api-version", "2017-04"), ("$top", "2"),
                                               ("ContinuationToken", percentDecode(second.headers["x-ms-continuationtoken"] ?? ""))]))   // the Java SDK's spelling
        #expect(Self.ids(third) == [all[4]])
        // The last page says nothing more.
        #expect(third.headers["x-ms-continuationtoken"] == nil && Self.nextLink(third) == nil)
        #expect(w.events("hub.registrations-read").last?[.next] == nil)
    }

    /// The feed's `next` link is the request's own address with the token encoded once more
    /// (`%253D`, as in the live hub's feed), and a client that follows it gets the next page.
    @Test func theNextLinkLeadsToTheNextPage() throws {
        let w = HubWorld(services: false)
        let all = (0..<5).map { w.register(.apple, String(RegistrationTests.token.dropLast()) + "\($0)") }
        let first = try #require(w.raw("GET", w.path("registrations"), query: [("api-version", "2015-01"), ("$top", "2")]))
        let link = try #require(Self.nextLink(first))
        #expect(link == "https://pushsim.servicebus.windows.net/notifyusers/registrations?api-version=2015-01&%24top=2&continuationtoken=Mw%253D%253D")
        let next = try #require(HTTPRequest(method: "GET", url: link))
        let second = try #require(w.raw("GET", next.path, query: next.query))
        #expect(Self.ids(second) == Array(all[2..<4]))
        // The second page's link carries its own token in place of the one it was asked with.
        #expect(Self.nextLink(second) == "https://pushsim.servicebus.windows.net/notifyusers/registrations?api-version=2015-01&%24top=2&continuationtoken=NQ%253D%253D")
    }

    /// A registration deleted between two pages does not shift the next one: the token names
    /// where the next page starts, not how many were read.
    @Test func aDeletionBetweenPagesSkipsNothing() throws {
        let w = HubWorld(services: false)
        let all = (0..<4).map { w.register(.fcmV1, "fcm-\($0)", tags: ["news"]) }
        let first = try #require(w.raw("GET", w.path("tags/news/registrations"), query: [("api-version", "2015-01"), ("$top", "2")]))
        #expect(Self.ids(first) == Array(all[0..<2]))
        #expect(w.raw("DELETE", w.path("registrations/\(all[0])"), headers: [("If-Match", "*")])?.status == 200)
        let token = percentDecode(first.headers["x-ms-continuationtoken"] ?? "")
        let second = w.raw("GET", w.path("tags/news/registrations"), query: [("api-version", "2015-01"), ("$top", "2"), ("continuationtoken", token)])
        #expect(Self.ids(second) == Array(all[2..<4]))
        #expect(second?.headers["x-ms-continuationtoken"] == nil)
    }

    /// The registrations of one handle page the same way.
    @Test func theRegistrationsOfAHandlePageToo() throws {
        let w = HubWorld(services: false)
        let all = (0..<3).map { _ in w.register(.fcmV1, "shared-handle") }
        _ = w.register(.fcmV1, "other-handle")
        let query = [("api-version", "2015-01"), ("$filter", "ChannelUri eq 'shared-handle'"), ("$top", "2")]
        let first = try #require(w.raw("GET", w.path("registrations/"), query: query))
        #expect(Self.ids(first) == Array(all[0..<2]))
        let token = percentDecode(try #require(first.headers["x-ms-continuationtoken"]))
        #expect(Self.ids(w.raw("GET", w.path("registrations/"), query: query + [("continuationtoken", token)])) == [all[2]])
    }

    @Test func aTokenTheHubDidNotHandOutIs400() {
        let w = HubWorld(services: false)
        _ = w.register(.fcmV1, "fcm-1")
        for token in ["", "not base64!", "YWJj", "MA==", "LTE=", "OTk5OTk5OTk5OTk5OTk5OTk5OQ=="] {   // abc, 0, -1, 19 digits
            let r = w.raw("GET", w.path("registrations"), query: [("api-version", "2015-01"), ("continuationtoken", token)])
            #expect(r?.status == 400, "\(token)")
        }
        // A token past the last registration is a valid, empty page.
        let past = w.raw("GET", w.path("registrations"), query: [("api-version", "2015-01"), ("continuationtoken", "OTk=")])
        #expect(past?.status == 200 && Self.ids(past) == [])
    }

    @Test func theTokenCodecRoundTrips() {
        for n in [1, 2, 3, 42, 1_000_000, Int(Int32.max)] {
            let token = ContinuationToken(nextNumber: n)
            #expect(ContinuationToken(queryValue: token.base64) == token)
            #expect(ContinuationToken(queryValue: token.headerValue) == token)   // still encoded, as from the next link
        }
        #expect(ContinuationToken(nextNumber: 12).base64 == "MTI=")
        #expect(ContinuationToken(nextNumber: 12).headerValue == "MTI%3D")
    }

    /// The byte writer writes the `next` link as the element tree does, its `&` escaped.
    @Test func theWriterWritesTheNextLinkAsTheTreeDoes() {
        let url = "https://pushsim.servicebus.windows.net/notifyusers", anchor = CalendarAnchor()
        let next = url + "/registrations?api-version=2015-01&%24top=2&continuationtoken=Mw%253D%253D"
        let tree = AtomRegistration.feed([], url: url + "/registrations", updated: "now", next: next)
        #expect(AtomRegistration.feedDocument([], url: url + "/registrations", address: EntryAddress(collection: url + "/registrations", query: ""),
                                              anchor: anchor, updated: "now", next: next, time: anchor.iso8601) == Array(tree.utf8))
        #expect(tree.contains("<link rel=\"next\" href=\"\(url)/registrations?api-version=2015-01&amp;%24top=2&amp;continuationtoken=Mw%253D%253D\" />"))
    }

    // MARK: The client

    /// The SDK's loop: ask with the token of the page before until none comes back.
    @Test func theClientPagesThroughEveryRegistration() throws {
        let w = HubWorld(services: false)
        let all = (0..<7).map { w.register(.fcmV1, "fcm-\($0)", tags: ["news"]) }
        var seen: [String] = [], token = "", pages = 0
        repeat {
            let page = try #require(try w.wait { w.client.getAllRegistrations(continuationToken: token, top: 3, $0) }?.get())
            seen += page.registrations.compactMap(\.registrationID)
            token = page.continuationToken ?? ""
            pages += 1
        } while !token.isEmpty && pages < 10
        #expect(seen == all && pages == 3)
        // On the wire as the .NET SDK writes it: `$top`, then `continuationtoken` as the header gave it.
        let last = try #require(w.world.journal.entries.last?.request)
        #expect(last.target == "/notifyusers/registrations/?api-version=2020-06&%24top=3&continuationtoken=Nw%3D%3D")
        // By tag and by channel, the same.
        let byTag = try #require(try w.wait { w.client.getRegistrationsByTag("news", continuationToken: "", top: 5, $0) }?.get())
        #expect(byTag.registrations.count == 5 && byTag.continuationToken == "Ng%3D%3D")
        let rest = try #require(try w.wait { w.client.getRegistrationsByTag("news", continuationToken: byTag.continuationToken!, top: 5, $0) }?.get())
        #expect(rest.registrations.compactMap(\.registrationID) == Array(all[5...]) && rest.continuationToken == nil)
        let byHandle = try #require(try w.wait { w.client.getRegistrationsByChannel("fcm-1", continuationToken: " ", top: 5, $0) }?.get())
        #expect(byHandle.registrations.count == 1 && byHandle.continuationToken == nil)
    }

    /// The SDK sends `$top` only above zero (the hub then pages by 100), and refuses a blank
    /// handle or tag with `ArgumentNullException` before sending anything.
    @Test func theClientChecksItsArgumentsAsTheSDKDoes() throws {
        let w = HubWorld(services: false)
        _ = w.register(.fcmV1, "fcm-1")
        _ = try #require(try w.wait { w.client.getAllRegistrations(continuationToken: "", top: 0, $0) }?.get())
        #expect(w.world.journal.entries.last?.request.target == "/notifyusers/registrations/?api-version=2020-06")
        let sent = w.world.journal.entries.count
        #expect(w.wait { w.client.getRegistrationsByChannel(" ", continuationToken: "", top: 5, $0) }
                == .failure(HubError(kind: .argument, status: nil, detail: "pnsHandle")))
        #expect(w.wait { w.client.getRegistrationsByTag("", top: 5, $0) } == .failure(HubError(kind: .argument, status: nil, detail: "tag")))
        #expect(w.world.journal.entries.count == sent)
    }

    /// Bug: `$top=0` answered an empty page with a token naming the same start, so a client
    /// following tokens never got past it. An empty page hands out no token.
    @Test func anEmptyPageHandsOutNoToken() throws {
        let w = HubWorld(services: false)
        _ = w.register(.fcmV1, "fcm-1")
        let r = try #require(w.raw("GET", w.path("registrations"), query: [("api-version", "2015-01"), ("$top", "0")]))
        #expect(r.status == 200 && Self.ids(r) == [])
        #expect(r.headers["x-ms-continuationtoken"] == nil && Self.nextLink(r) == nil)
    }

    /// A hub with more than a page of registrations: the first page is 100 (`$top`'s default).
    @Test func withoutTopAPageHoldsAHundred() throws {
        let w = HubWorld(services: false)
        for i in 0..<101 { _ = w.register(.fcmV1, "fcm-\(i)") }
        let first = try #require(w.raw("GET", w.path("registrations")))
        #expect(Self.ids(first)?.count == 100)
        #expect(first.headers["x-ms-continuationtoken"] == ContinuationToken(nextNumber: 101).headerValue)
    }
}
