@testable import PushSimServer
import Testing
import PushSimNetwork

@Suite struct HTTPRequestParserTests {
    private func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPRequestParser.Result {
        var parser = HTTPRequestParser(limits: limits)
        parser.feed(Array(text.utf8))
        return parser.next()
    }

    private func request(_ result: HTTPRequestParser.Result, sourceLocation: SourceLocation = #_sourceLocation) -> WireRequest? {
        guard case .request(let r) = result else { Issue.record("expected a request, got \(result)", sourceLocation: sourceLocation); return nil }
        return r
    }

    private func status(_ result: HTTPRequestParser.Result) -> Int? {
        if case .failure(let f) = result { return f.status }
        return nil
    }

    @Test func simpleRequestWithBody() throws {
        let r = try #require(request(parse("POST /3/device/ab?x=1 HTTP/1.1\r\nHost: a\r\napns-topic: t\r\nContent-Length: 5\r\n\r\nhello")))
        #expect(r.method == "POST")
        #expect(r.target == "/3/device/ab?x=1")
        #expect(r.path == "/3/device/ab")
        #expect(r.header("APNS-TOPIC") == "t")
        #expect(r.body == Array("hello".utf8))
        #expect(r.keepAlive)
    }

    @Test func byteByByteFeedingGivesTheSameRequest() throws {
        let text = "PUT /hub/registrations/1 HTTP/1.1\r\nContent-Length: 3\r\nX: y\r\n\r\nabc"
        var parser = HTTPRequestParser()
        var found: WireRequest?
        for b in text.utf8 {
            parser.feed([b])
            if case .request(let r) = parser.next() { found = r }
        }
        #expect(found?.body == Array("abc".utf8))
        #expect(found?.headers.count == 2)
    }

    @Test func pipelinedRequestsComeOutInOrder() throws {
        var parser = HTTPRequestParser()
        parser.feed(Array("GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\nokGET /c HTTP/1.1\r\nConnection: close\r\n\r\nGET /d".utf8))
        let a = try #require(request(parser.next()))
        let b = try #require(request(parser.next()))
        let c = try #require(request(parser.next()))
        #expect([a.target, b.target, c.target] == ["/a", "/b", "/c"])
        #expect(b.body == Array("ok".utf8))
        #expect(!c.keepAlive)
        #expect(parser.next() == .incomplete)
        #expect(parser.bufferedCount == 6)
    }

    @Test func chunkedBodyIsDecodedWithExtensionsAndTrailers() throws {
        let r = try #require(request(parse("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n")))
        #expect(String(decoding: r.body, as: UTF8.self) == "hello world")
        #expect(r.header("X-Trailer") == nil)
    }

    /// A chunk size is hexadecimal digits and nothing else but whitespace before `;` (RFC 9112
    /// §7.1). Before, spaces anywhere were dropped (`1 0` read as 16) and a sign was accepted: a
    /// front end that reads the size differently could smuggle a request past it.
    @Test func aChunkSizeWithSpacesInsideOrASignIsRefused() throws {
        for size in ["1 0", "+5", "0x5", " 5", "5 x"] {
            #expect(status(parse("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nhello\r\n0\r\n\r\n")) == 400, "\(size)")
        }
        let spaced = try #require(request(parse("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5 ;ext\r\nhello\r\n0\r\n\r\n")))
        #expect(spaced.body == Array("hello".utf8))
    }

    @Test func chunkedBodyArrivingInPieces() throws {
        var parser = HTTPRequestParser()
        parser.feed(Array("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n01234".utf8))
        #expect(parser.next() == .incomplete)
        parser.feed(Array("56789\r\n0\r\n\r\n".utf8))
        #expect(try #require(request(parser.next())).body == Array("0123456789".utf8))
    }

    @Test func limits() {
        var small = HTTPRequestParser.Limits()
        small.body = 10
        #expect(status(parse("POST /x HTTP/1.1\r\nContent-Length: 11\r\n\r\n", limits: small)) == 413)
        #expect(status(parse("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n", limits: small)) == 413)
        #expect(status(parse("GET /" + String(repeating: "a", count: 9_000) + " HTTP/1.1\r\n\r\n")) == 414)
        // Too long before its end arrives: refused without waiting for the rest.
        #expect(status(parse("GET /" + String(repeating: "a", count: 9_000))) == 414)
        let bigHeader = "X-Big: " + String(repeating: "b", count: 70_000) + "\r\n"
        #expect(status(parse("GET / HTTP/1.1\r\n" + bigHeader + "\r\n")) == 431)
        let manyHeaders = String(repeating: "X-A: " + String(repeating: "c", count: 1_000) + "\r\n", count: 70)
        #expect(status(parse("GET / HTTP/1.1\r\n" + manyHeaders + "\r\n")) == 431)
    }

    @Test func malformedRequestsAreRefused() {
        #expect(status(parse("garbage\r\n\r\n")) == 400)
        #expect(status(parse("GET / HTTP/2.0\r\n\r\n")) == 505)
        #expect(status(parse("GET noslash HTTP/1.1\r\n\r\n")) == 400)
        #expect(status(parse("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n")) == 400)
        #expect(status(parse("GET / HTTP/1.1\r\nX: a\r\n folded\r\n\r\n")) == 400)
        #expect(status(parse("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n")) == 400)
        #expect(status(parse("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n")) == 400)
        #expect(status(parse("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")) == 400)
        #expect(status(parse("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n")) == 400)
        #expect(status(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")) == 400)
        #expect(status(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n")) == 400)
    }

    /// The HTTP/2 connection preface as a connection's first bytes is its own outcome (issue 41),
    /// recognised whether it arrives whole or in pieces, and only at the start.
    @Test func theHTTP2PrefaceIsRecognisedAtTheStartOnly() {
        let preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        #expect(parse(preface) == .http2Preface)
        #expect(parse(preface + "\u{0}\u{0}\u{0}\u{4}\u{0}\u{0}\u{0}\u{0}\u{0}") == .http2Preface)   // its SETTINGS after it
        var pieces = HTTPRequestParser()
        for b in preface.utf8.dropLast() {
            pieces.feed([b])
            #expect(pieces.next() == .incomplete)
        }
        pieces.feed(Array(preface.utf8.suffix(1)))
        #expect(pieces.next() == .http2Preface)
        #expect(pieces.next() == .http2Preface)   // it stays there
        // Not the preface: a request starting like it, a broken preface, the preface after a request.
        #expect(request(parse("POST / HTTP/1.1\r\n\r\n"))?.method == "POST")
        #expect(status(parse("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n")) == 505)
        var later = HTTPRequestParser()
        later.feed(Array(("GET / HTTP/1.1\r\n\r\n" + preface).utf8))
        #expect(request(later.next())?.method == "GET")
        #expect(status(later.next()) == 505)
    }

    @Test func aFailedParserStaysFailed() {
        var parser = HTTPRequestParser()
        parser.feed(Array("nonsense\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8))
        #expect(status(parser.next()) == 400)
        #expect(status(parser.next()) == 400)
    }

    @Test func keepAliveRules() throws {
        #expect(try #require(request(parse("GET / HTTP/1.0\r\n\r\n"))).keepAlive == false)
        #expect(try #require(request(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"))).keepAlive)
        #expect(try #require(request(parse("GET / HTTP/1.1\r\nConnection: Keep-Alive, Close\r\n\r\n"))).keepAlive == false)
    }

    @Test func lenientLineEndsAndLeadingEmptyLines() throws {
        let r = try #require(request(parse("\r\n\nGET /a HTTP/1.1\nHost: h:80\n\n")))
        #expect(r.target == "/a")
        #expect(r.hostName == "h")
    }

    @Test func absoluteFormKeepsTheAuthority() throws {
        let r = try #require(request(parse("POST https://api.push.apple.com/3/device/x HTTP/1.1\r\n\r\n")))
        #expect(r.target == "/3/device/x")
        #expect(r.hostName == "api.push.apple.com")
    }

    @Test func expectContinueIsNoticed() {
        var parser = HTTPRequestParser()
        parser.feed(Array("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(parser.next() == .incomplete)
        #expect(parser.wantsContinue)
        parser.continueSent()
        parser.feed(Array("ok".utf8))
        if case .request = parser.next() {} else { Issue.record("expected the request") }
    }

    /// A fake's header value holding CR LF cannot split the answer (a bug: the check compared
    /// characters, and CR LF is one character that is neither CR nor LF, so it passed through).
    @Test func answerFieldsLoseLineBreaksWhateverTheirForm() {
        let response = HTTPResponse(status: 200, headers: ["X-Evil": "a\r\nSet-Cookie: b", "X-Lone": "c\rd\ne\u{0}f"], body: [])
        let text = String(decoding: HTTPResponseWriter.bytes(response, keepAlive: true), as: UTF8.self)
        #expect(text == "HTTP/1.1 200 OK\r\nX-Evil: aSet-Cookie: b\r\nX-Lone: cdef\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func listFieldsAreSplitOnCommasAndTrimmed() {
        #expect(httpListElements("chunked") == ["chunked"])
        #expect(httpListElements(" gzip ,\tchunked ") == ["gzip", "chunked"])
        #expect(httpListElements("a,,b") == ["a", "b"])
        #expect(httpListElements("a, ,b") == ["a", "", "b"])
        #expect(httpListElements("") == [])
    }

    @Test func absoluteFormTargetsKeepTheirHostApart() throws {
        let a = try #require(request(parse("GET http://api.push.apple.com/3/device/x?y=1 HTTP/1.1\r\n\r\n")))
        #expect(a.target == "/3/device/x?y=1")
        #expect(a.absoluteAuthority == "api.push.apple.com")
        #expect(a.hostName == "api.push.apple.com")
        let b = try #require(request(parse("GET http://Example.COM:8080?q HTTP/1.1\r\n\r\n")))
        #expect(b.target == "/?q")
        #expect(b.hostName == "example.com")
        #expect(status(parse("GET * HTTP/1.1\r\n\r\n")) == 400)
        #expect(status(parse("GET ftp://x/ HTTP/1.1\r\n\r\n")) == 400)
        #expect(status(parse("GET / HTTP/2.0\r\n\r\n")) == 505)
        #expect(status(parse("GET / HTTP/1.x\r\n\r\n")) == 400)
        #expect(request(parse("GET / HTTP/1.0\r\n\r\n"))?.minorVersion == 0)
    }
}
