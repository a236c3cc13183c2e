import Foundation
import Testing
@testable import PushSimNetwork
import PushSimKernel

/// URL and target parsing (read as bytes in place) and header-name comparison.
@Suite struct HTTPMessageTests {
    @Test(arguments: [
        ("https://cloud.notify.windows.com/?token=AwYAAAB%2Bx%3D", "cloud.notify.windows.com", "/", [("token", "AwYAAAB+x=")]),
        ("https://host", "host", "/", []),
        ("https://host?x=1", "host", "/", [("x", "1")]),
        ("http://host:8080/a/b?x=1&&y&z=a+b", "host:8080", "/a/b", [("x", "1"), ("y", ""), ("z", "a b")]),
        ("https://hôst/é?ü=ö", "hôst", "/é", [("ü", "ö")]),
    ] as [(String, String, String, [(String, String)])])
    func absoluteURLs(url: String, authority: String, path: String, query: [(String, String)]) throws {
        let r = try #require(HTTPRequest(method: "POST", url: url))
        #expect(r.authority == authority)
        #expect(r.path == path)
        #expect(r.query.map(\.name) == query.map(\.0))
        #expect(r.query.map(\.value) == query.map(\.1))
    }

    @Test(arguments: ["", "host/path", "https:/host", "https://", "https:///path", "://"])
    func urlsWithoutSchemeAndHostAreRefused(url: String) {
        #expect(HTTPRequest(method: "GET", url: url) == nil)
    }

    @Test func targetsSplitAsBefore() {
        let (path, query) = splitTarget("/messages/?api-version=2015-01&direct")
        #expect(path == "/messages/")
        #expect(query.map(\.0) == ["api-version", "direct"])
        #expect(query.map(\.1) == ["2015-01", ""])
        #expect(splitTarget("/plain").path == "/plain")
        #expect(splitTarget("/plain").query.isEmpty)
        #expect(splitTarget(Substring("x?%zz=%41")).query.first! == ("%zz", "A"))
    }

    /// The byte scanner against the plain reading of a target (split at the first `?`, then at
    /// each `&`, each item at its first `=`, empty items skipped), over targets long enough for
    /// the delimiters to fall anywhere in and between the eight-byte words it passes over.
    @Test func targetsSplitAsThePlainReadingWithDelimitersAnywhere() {
        var random = SeededRandom(seed: 20261126)
        for _ in 0..<3_000 {
            let target = "/" + random.string(count: random.int(below: 48), from: "ab?&=%+4Z")
            let (path, query) = splitTarget(target)
            let (expectedPath, expectedQuery) = plainSplit(target)
            #expect(path == expectedPath, "\(target)")
            #expect(query.map(\.0) == expectedQuery.map(\.0) && query.map(\.1) == expectedQuery.map(\.1), "\(target)")
        }
    }

    private func plainSplit(_ target: String) -> (String, [(String, String)]) {
        guard let q = target.firstIndex(of: "?") else { return (target, []) }
        let items = target[target.index(after: q)...].split(separator: "&", omittingEmptySubsequences: true).map { item in
            guard let eq = item.firstIndex(of: "=") else { return (percentDecode(item), "") }
            return (percentDecode(item[..<eq]), percentDecode(item[item.index(after: eq)...]))
        }
        return (String(target[..<q]), items)
    }

    @Test func headerNamesCompareIgnoringASCIICaseOnly() {
        #expect(sameFieldName("Content-Type", "content-type"))
        #expect(sameFieldName("X-WNS-Type", "x-wns-TYPE"))
        #expect(!sameFieldName("apns-id", "apns-ie"))
        #expect(!sameFieldName("apns-id", "apns-i"))
        #expect(!sameFieldName("É", "é"))       // non-ASCII letters are not folded
        #expect(sameFieldName("", ""))
        let long = String(repeating: "a", count: 30)   // native (not small) strings
        #expect(sameFieldName(long.uppercased(), long))
    }

    @Test func lookupsAndPrefixesIgnoreCaseAndPassOverOtherNames() {
        var h = HTTPHeaders("apns-id", "x")
        #expect(h["APNS-ID"] == "x" && h.count == 1)
        h = HTTPHeaders("X-WNS-Type", "wns/toast", "Content-Type", "text/xml")
        #expect(h.fields.map(\.name) == ["X-WNS-Type", "Content-Type"])
        #expect(h["content-type"] == "text/xml")
        #expect(h["x-wns-typo"] == nil)                    // same length, other name
        #expect(h["Content-Typ"] == nil)
        h.add("content-TYPE", "second")
        #expect(h["Content-Type"] == "text/xml")          // the first of repeated fields
        #expect(fieldName("X-WNS-Cache-Policy", hasPrefix: "x-wns-"))
        #expect(fieldName("x-wns-", hasPrefix: "X-WNS-"))
        #expect(!fieldName("x-wn", hasPrefix: "x-wns-"))
        #expect(!fieldName("x-wnt-tag", hasPrefix: "x-wns-"))
        #expect(fieldName(String(repeating: "A", count: 40), hasPrefix: String(repeating: "a", count: 20)))
    }

    @Test func plainLatencyOnlyWithoutRulesLinksOrRanges() {
        var f = NetworkFaults()
        #expect(f.plainLatency == .milliseconds(10) && f.latencyIsFixed)
        f.latencyMax = .milliseconds(20)
        #expect(f.plainLatency == nil && !f.latencyIsFixed)
        f.latencyMax = .milliseconds(10)
        f.linkLatency = [LinkLatency(between: ["a", "b"], min: .milliseconds(3), max: .milliseconds(3))]
        #expect(f.plainLatency == nil && f.latencyIsFixed)
        f.linkLatency[0].max = .milliseconds(4)
        #expect(!f.latencyIsFixed)
        f.linkLatency = []
        f.rules = [LinkFault(effect: .partition)]
        #expect(f.plainLatency == nil && f.latencyIsFixed)
    }

    // The byte-level encoders give what the plain definitions give.

    private static let textSamples = ["", "abc", "reg-000042", "a b&c=d", "é", "https://cloud.notify.windows.com/?token=AwYAAAB%2F",
                                      "~._-", "x\u{0}y", "🇫🇷", String(repeating: "f", count: 64), "0123456789abcdef0", "token=", "token=short"]

    @Test func percentEncodingEscapesAllButTheUnreserved() {
        for text in Self.textSamples {
            var reference = ""
            for b in text.utf8 {
                let c = Character(Unicode.Scalar(b))
                if b < 0x80, c.isLetter || c.isNumber || "-._~".contains(c) { reference.append(c) } else { reference += String(format: "%%%02X", b) }
            }
            #expect(percentEncode(text) == reference, "\(text.debugDescription)")
            #expect(percentDecode(percentEncode(text)) == text)
        }
    }

    @Test func handleLabelsKeepTheEndsOfLongHandles() {
        for handle in Self.textSamples + ["https://x/?token=" + String(repeating: "ab", count: 20), "é" + String(repeating: "ü", count: 20)] {
            var h = Substring(handle)
            if let r = h.firstRange(of: "token=") { h = h[r.upperBound...] }
            let reference = h.count > 16 ? String(h.prefix(8)) + "…" + String(h.suffix(6)) : String(h)
            #expect(handleLabel(handle) == reference, "\(handle.debugDescription)")
        }
        #expect(handleLabel("fa60bd34e1c2d3f4a5b6c7d8e9f09a7ffb") == "fa60bd34…9a7ffb")
    }

    @Test func targetJoinsThePathAndTheEncodedQuery() {
        let r = HTTPRequest(method: "GET", authority: "h", path: "/hub/registrations", query: [("api-version", "2015-01"), ("$filter", "a b")])
        #expect(r.target == "/hub/registrations?api-version=2015-01&%24filter=a%20b")
        #expect(HTTPRequest(method: "GET", authority: "h", path: "/x").target == "/x")
    }
}
