import Testing
import PushSimNetwork
@testable import PushSimServer

/// The loopback client's answer reader frames answers as RFC 9112 says, and refuses sizes that
/// are not plain digits instead of reading them as some other size.
@Suite struct HTTPAnswerReaderTests {
    private func read(_ text: String, atEnd: Bool = false) -> Result<HTTPResponse, LoopbackHTTPClient.Failure>? {
        HTTPAnswerReader.read(Array(text.utf8), atEnd: atEnd)
    }

    private func body(_ result: Result<HTTPResponse, LoopbackHTTPClient.Failure>?) -> String? {
        guard case .success(let r)? = result else { return nil }
        return r.bodyText
    }

    private func isMalformed(_ result: Result<HTTPResponse, LoopbackHTTPClient.Failure>?) -> Bool {
        if case .failure? = result { return true }
        return false
    }

    @Test func framesByLengthAndByChunks() {
        #expect(body(read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")) == "hello")
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel") == nil)   // more to come
        #expect(body(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n1 \r\n!\r\n0\r\n\r\n")) == "hello!")
        #expect(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel") == nil)
        #expect(body(read("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")) == "")
    }

    /// Bug: `Int("+5", radix: 16)` is 5 and `Int("-0")` is 0, so a signed chunk size was read as
    /// a size (and `-0` as the last chunk); a signed Content-Length likewise.
    @Test func signedOrDecoratedSizesAreMalformed() {
        for size in ["+5", "-0", "0x5", "5 5", ""] {
            let answer = read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nhello\r\n0\r\n\r\n")
            #expect(isMalformed(answer), "chunk size \(size.debugDescription)")
        }
        for length in ["+5", "-5", "5 5", "0x5", ""] {
            #expect(isMalformed(read("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\nhello")), "Content-Length \(length.debugDescription)")
        }
        // A chunk longer than its size says.
        #expect(isMalformed(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n")))
    }

    @Test func dechunkSaysWhatItFound() {
        #expect(HTTPAnswerReader.dechunk(Array("3\r\nabc\r\n0\r\n\r\n".utf8)) == .whole(Array("abc".utf8)))
        #expect(HTTPAnswerReader.dechunk(Array("3\r\nab".utf8)) == .incomplete)
        #expect(HTTPAnswerReader.dechunk(Array("3".utf8)) == .incomplete)
        guard case .broken = HTTPAnswerReader.dechunk(Array("+3\r\nabc\r\n0\r\n\r\n".utf8)) else {
            Issue.record("a signed chunk size was read")
            return
        }
    }
}
