import Foundation
import PushSim
import PushSimServer
import BenchSupport
#if canImport(Glibc)
import Glibc
#endif

// serve-bench: FCM HTTP v1 sends per second through `pushsim serve` over loopback keep-alive
// connections (1, 8 and 64 at once), and what the HTTP bridge adds to one send against the same
// request answered in process (no socket, no parsing). The server runs in this process on a free
// port with a manual clock; the clients are plain sockets writing prebuilt requests.
//
//   swift run -c release serve-bench [--sends N] [--connections 1,8,64]
//
// The soak: N sends over 8 connections with the wall clock (as `pushsim serve` runs by default),
// resident memory read every tenth of the way, and the world's clock against the wall clock at
// the end (it must stay within 1 s: virtual now = wall time since start + advances).
//
//   swift run -c release serve-bench --soak 1000000
//
// The long poll: how long after a phone shows a notification a waiting
// `GET …/notifications?wait=5s&count=n` answers, over loopback with the wall clock. A send is
// answered at once and shown 10 ms of virtual (= wall) time later, so the figure is the poll's
// answer time minus (the send's answer time + 10 ms); N rounds, median and 90th percentile.
//
//   swift run -c release serve-bench --poll 200
//
// The cost of faults scoped to other tokens: --scoped-faults K injects K token-scoped faults
// (outages of tokens nobody sends to) before the throughput runs, for a side-by-side run without.

let sends = Int(argument("--sends", "20000")) ?? 20_000
let soak = Int(argument("--soak", "0")) ?? 0
let pollRounds = Int(argument("--poll", "0")) ?? 0
let scopedFaults = Int(argument("--scoped-faults", "0")) ?? 0
let connectionCounts = soak > 0 ? [8] : argument("--connections", "1,8,64").split(separator: ",").compactMap { Int($0) }

let serverStart = wallClock()
let bridge = try! WorldBridge(setup: WorldSetup(seed: 1), clock: soak > 0 || pollRounds > 0 ? .wall : .manual, anchor: CalendarAnchor())
let server = HTTPServer(bridge: bridge)
let port = try! server.start()
signal(SIGPIPE, SIG_IGN)
let base = "http://127.0.0.1:\(port)"
bridge.configure(baseURL: base, keyFiles: ClientKeyFiles())

/// One keep-alive connection: writes a request, reads one answer (by Content-Length).
/// Each connection is used by one thread only (`@unchecked Sendable`: handed to its thread once).
final class Connection: @unchecked Sendable {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var pending: [UInt8] = []
    init() {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    }
    /// Sends `request` and returns the status of its answer. The answer is read by bytes
    /// (status digits, then `Content-Length` by scanning the head once): a client as cheap as
    /// a real one written in C, so that it takes little of the two cores from the server.
    func exchange(_ request: [UInt8]) -> Int {
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        while true {
            if let (status, length, headEnd) = Self.head(pending), pending.count >= headEnd + length {
                pending.removeFirst(headEnd + length)
                return status
            }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return -1 }
            pending += buffer[0..<n]
        }
    }

    /// The status, the Content-Length and the offset just past the blank line of the answer at
    /// the start of `bytes`, once its head is whole.
    private static func head(_ bytes: [UInt8]) -> (status: Int, length: Int, end: Int)? {
        let prefix = Array("content-length:".utf8)
        var length = 0
        var lineStart = 0
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == 13, bytes[i + 1] == 10 else { i += 1; continue }
            if i == lineStart {   // the blank line
                guard bytes.count >= 12 else { return nil }
                let status = (Int(bytes[9]) - 48) * 100 + (Int(bytes[10]) - 48) * 10 + Int(bytes[11]) - 48
                return (status, length, i + 2)
            }
            if i - lineStart > prefix.count, zip(bytes[lineStart...], prefix).allSatisfy({ ($0 | 0x20) == $1 }) {
                length = 0
                for b in bytes[(lineStart + prefix.count)..<i] where b >= 48 && b <= 57 { length = length * 10 + Int(b) - 48 }
            }
            i += 2
            lineStart = i
        }
        return nil
    }
}

func http(_ head: String, _ headers: [String], _ body: String) -> [UInt8] {
    Array((head + "\r\nHost: 127.0.0.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
}
func wire(_ bytes: [UInt8]) -> WireRequest {
    var parser = HTTPRequestParser()
    parser.feed(bytes)
    guard case .request(let r) = parser.next() else { fatalError("bad request") }
    return r
}

// A device to send to, and an OAuth access token for the sends.
let setupConnection = Connection()
let id = SimulationIdentity()
let anchor = CalendarAnchor()
_ = setupConnection.exchange(http("POST /_pushsim/devices HTTP/1.1", [], #"{"name":"bench-pixel","platform":"android"}"#))
let handle: String = bridge.withSimulation { $0.device("bench-pixel")?.handle ?? "" }
let assertion = JSONWebToken.make(header: .object([("alg", .string("RS256"))]), claims: .object([
    ("iss", .string(id.fcmServiceAccount)), ("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
    ("iat", .number(JSONNumber(anchor.unixSecondsAtZero))), ("exp", .number(JSONNumber(anchor.unixSecondsAtZero + 3_600)))]), signingKey: id.fcmServiceAccountKey)
let tokenAnswer = bridge.answer(wire(http("POST /token HTTP/1.1", ["Content-Type: application/x-www-form-urlencoded"],
                                          "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion)))
let accessToken = (try! JSONParser.parse(tokenAnswer.body))["access_token"]!.stringValue!
let send = http("POST /v1/projects/\(id.fcmProjectID)/messages:send HTTP/1.1", ["Authorization: Bearer " + accessToken, "Content-Type: application/json"],
                #"{"message":{"token":"\#(handle)","data":{"k":"v"}}}"#)

for i in 0..<scopedFaults {
    let body = #"{"service":"fcm","kind":"outage","token":"not-a-token-\#(i)"}"#
    precondition(setupConnection.exchange(http("POST /_pushsim/faults HTTP/1.1", ["Content-Type: application/json"], body)) == 201)
}
if scopedFaults > 0 { print("serve-bench: \(scopedFaults) FCM outages scoped to tokens nobody sends to are active") }

if pollRounds > 0 {
    // A notification message (a data message is handed to the app, not shown).
    let shownSend = http("POST /v1/projects/\(id.fcmProjectID)/messages:send HTTP/1.1",
                         ["Authorization: Bearer " + accessToken, "Content-Type: application/json"],
                         #"{"message":{"token":"\#(handle)","notification":{"title":"t","body":"b"}}}"#)
    let poller = Connection(), sender = Connection()
    var lags: [Double] = []
    for round in 1...pollRounds {
        let request = http("GET /_pushsim/devices/bench-pixel/notifications?wait=5s&count=\(round) HTTP/1.1", [], "")
        let answered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var pollDone: UInt64 = 0
        Thread.detachNewThread {
            precondition(poller.exchange(request) == 200)
            pollDone = wallClock()
            answered.signal()
        }
        usleep(2_000)   // the poll is waiting
        precondition(sender.exchange(shownSend) == 200)
        let shownAt = wallClock() + 10_000_000   // the delivery: 10 ms after the send's answer
        answered.wait()
        lags.append(Double(Int64(pollDone) - Int64(shownAt)) / 1e6)
    }
    lags.sort()
    let median = lags[lags.count / 2], p90 = lags[lags.count * 9 / 10]
    print(String(format: "serve-bench --poll: %d rounds; poll answered after the phone showed: median %.2f ms, p90 %.2f ms, max %.2f ms",
                 pollRounds, median, p90, lags.last!))
    print(String(format: "RESULT poll rounds=%d median_ms=%.2f p90_ms=%.2f", pollRounds, median, p90))
    server.stop()
    exit(0)
}

if soak > 0 {
    let count = 8
    let connections = (0..<count).map { _ in Connection() }
    let tenth = max(1, soak / 10 / count)
    print("serve-bench --soak: \(soak) FCM sends over \(count) connections, wall clock")
    print("sends      seconds  resident MiB  virtual - wall (ms)")
    let start = wallClock()
    for step in 1...10 {
        DispatchQueue.concurrentPerform(iterations: count) { i in
            for _ in 0..<tenth { precondition(connections[i].exchange(send) == 200, "a send failed") }
        }
        let virtual = bridge.withSimulation { $0.world.now.microseconds }
        let wall = Int64((wallClock() - serverStart) / 1_000)
        print(String(format: "%8d  %8.1f  %12.1f  %+10.1f", step * tenth * count, seconds(since: start), Double(residentKiB()) / 1024,
                     Double(virtual - wall) / 1000))
    }
    let total = tenth * count * 10
    print(String(format: "RESULT soak sends=%d seconds=%.1f sends_per_s=%.0f resident_mib=%.1f peak_mib=%.1f", total, seconds(since: start),
                 Double(total) / seconds(since: start), Double(residentKiB()) / 1024, Double(peakResidentKiB()) / 1024))
    connections.forEach { close($0.fd) }
    server.stop()
    exit(0)
}

// In process: the same request answered by the bridge, no socket.
let inProcessStart = wallClock()
for _ in 0..<2_000 { precondition(bridge.answer(wire(send)).status == 200) }
let inProcess = seconds(since: inProcessStart) / 2_000

print("serve-bench: FCM HTTP v1 sends through pushsim serve on 127.0.0.1:\(port), \(sends) per run")
print(String(format: "in process (bridge.answer, no socket): %.1f µs per send", inProcess * 1e6))
for count in connectionCounts {
    let connections = (0..<count).map { _ in Connection() }
    let perConnection = sends / count
    let start = wallClock()
    DispatchQueue.concurrentPerform(iterations: count) { i in
        for _ in 0..<perConnection { precondition(connections[i].exchange(send) == 200, "a send failed") }
    }
    let wall = seconds(since: start)
    let done = perConnection * count
    print(String(format: "%3d connection(s): %6d sends in %.2f s = %.0f sends/s; %.1f µs per send%@", count, done, wall, Double(done) / wall,
                 wall / Double(done) * 1e6, count == 1 ? String(format: " (the bridge adds %.1f µs over in process)", (wall / Double(done) - inProcess) * 1e6) : ""))
    connections.forEach { close($0.fd) }
}
server.stop()
