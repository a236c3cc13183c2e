import Foundation
import PushSimKernel
import PushSimNetwork
@testable import PushSimServer
import Testing

/// A client speaking HTTP/2 with prior knowledge (issue 41): the preface is answered in HTTP/2, a
/// SETTINGS frame then a GOAWAY saying HTTP_1_1_REQUIRED (RFC 9113 §3.4, §6.8, §7), not with
/// HTTP/1.1 text the client cannot read. The expected bytes are written out here, not taken from
/// the server's code.
@Suite(.serialized) struct HTTP2PrefaceTests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// What a client sends right after the preface: its SETTINGS (here empty) and a HEADERS frame
    /// for stream 1 (the header block is not read, so any bytes do).
    static let clientFrames: [UInt8] = [0, 0, 0, 0x4, 0, 0, 0, 0, 0] + [0, 0, 3, 0x1, 0x5, 0, 0, 0, 1, 0x82, 0x86, 0x84]

    /// The frames of `bytes`, each (type, flags, stream, payload); nil if they do not add up.
    static func frames(_ bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])]? {
        var out: [(UInt8, UInt8, UInt32, [UInt8])] = []
        var i = 0
        while i < bytes.count {
            guard bytes.count - i >= 9 else { return nil }
            let length = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            let stream = UInt32(bytes[i + 5]) << 24 | UInt32(bytes[i + 6]) << 16 | UInt32(bytes[i + 7]) << 8 | UInt32(bytes[i + 8])
            guard bytes.count - i - 9 >= length else { return nil }
            out.append((bytes[i + 3], bytes[i + 4], stream, Array(bytes[(i + 9)..<(i + 9 + length)])))
            i += 9 + length
        }
        return out
    }

    @Test func thePrefaceGetsSettingsThenGoAwayHTTP11RequiredAndTheConnectionCloses() throws {
        let s = try TestServer()
        let c = try RawClient(port: s.server.port)
        c.send(Self.preface + Self.clientFrames)
        let bytes = c.readAllBytes()   // until the server closes
        c.close()
        let frames = try #require(Self.frames(bytes), "not HTTP/2 frames: \(String(decoding: bytes, as: UTF8.self))")
        try #require(frames.count == 2, "\(frames.map(\.type))")
        // The server's preface: SETTINGS, no flags (not an ACK), stream 0, empty.
        #expect(frames[0].type == 0x4 && frames[0].flags == 0 && frames[0].stream == 0 && frames[0].payload.isEmpty)
        // GOAWAY on stream 0: last-stream-id 0, error code 0xd, then the debug text.
        let goAway = frames[1]
        #expect(goAway.type == 0x7 && goAway.flags == 0 && goAway.stream == 0)
        try #require(goAway.payload.count >= 8)
        #expect(Array(goAway.payload[0..<4]) == [0, 0, 0, 0])
        #expect(Array(goAway.payload[4..<8]) == [0, 0, 0, 0x0d])
        let debug = String(decoding: goAway.payload[8...], as: UTF8.self)
        #expect(debug.contains("HTTP/1.1") && debug.contains("tools/http2-front.sh"), "\(debug)")
        #expect(goAway.payload[8...].allSatisfy { $0 >= 0x20 && $0 < 0x7F })
    }

    /// The preface split across reads is still the preface; the server waits for all 24 bytes.
    @Test func aPrefaceArrivingInPiecesIsStillRecognised() throws {
        let s = try TestServer()
        let c = try RawClient(port: s.server.port)
        c.send(Array(Self.preface[0..<7]))       // "PRI * H"
        usleep(50_000)
        c.send(Array(Self.preface[7..<16]))      // "TTP/2.0\r\n"
        usleep(50_000)
        c.send(Array(Self.preface[16...]))
        let frames = try #require(Self.frames(c.readAllBytes()))
        c.close()
        #expect(frames.map(\.type) == [0x4, 0x7])
    }

    /// Only the first bytes of a connection can be the preface: the same line after an HTTP/1.1
    /// request is an HTTP/2.0 request line, refused with 505 as before.
    @Test func thePrefaceLineLaterInAConnectionIsStill505() throws {
        let s = try TestServer()
        let c = try RawClient(port: s.server.port)
        c.send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(statusOf(c.readResponses(1).first ?? "") == 200)
        c.send(Self.preface)
        #expect(statusOf(c.readAll()) == 505)
        c.close()
        // And an HTTP/1.1 client is served as ever.
        let plain = try RawClient(port: s.server.port)
        plain.send("GET /_pushsim/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(statusOf(plain.readAll()) == 200)
        plain.close()
    }

    /// The refused preface is in the `--record` file like any framing error (`refused`, skipped by
    /// replay), as `PRI *` with the HTTP/1.1 status that means the same, 505.
    @Test func theRefusedPrefaceIsRecorded() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-h2-record-\(getpid()).jsonl").path
        let bridge = try WorldBridge(setup: WorldSetup(seed: 3), clock: .manual, anchor: testAnchor, recordPath: path)
        let server = HTTPServer(bridge: bridge)
        try server.start()
        let c = try RawClient(port: server.port)
        c.send(Self.preface + Self.clientFrames)
        _ = c.readAllBytes()
        c.close()
        server.stop()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map { try JSONParser.parse(String($0)) }
        try #require(lines.count == 1)
        #expect(lines[0]["route"]?.stringValue == "refused")
        #expect(lines[0]["request"]?["method"]?.stringValue == "PRI")
        #expect(lines[0]["request"]?["target"]?.stringValue == "*")
        #expect(lines[0]["response"]?["status"]?.int64Value == 505)
    }
}
