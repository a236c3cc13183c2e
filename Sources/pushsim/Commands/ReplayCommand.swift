import Foundation
import PushSim
import PushSimServer

/// `pushsim replay FILE`: re-runs a `pushsim serve --record` file. It rebuilds the world from the
/// record's header (seed, the Unix time of virtual zero, the server's address, the scenario if
/// any), feeds it every recorded request at the virtual time it arrived, on the connection it came
/// on, in the order the requests entered the world, and compares each answer with the recorded one: status, headers and body. The first
/// difference is printed with both versions; exit 0 when every answer is the same, 1 otherwise.
/// `--html OUT` writes the session as a teaching page too (the replayed world keeps its trace),
/// before the comparison, so a page is written even when an answer differs. Exit status 2 for a
/// usage error or a record that cannot be read.
struct ReplayCommand: Command {
    static let name = "replay"
    static let summary = "re-runs a pushsim serve --record file, reports the first answer that differs"
    /// The command's usage text, printed by `pushsim replay --help` and after each usage error.
    static let usage = "Usage: pushsim replay <record-file> [--html <page.html>]"

    /// Ends the process on a usage error: `pushsim replay: <message>` and ``usage`` on standard
    /// error, exit status 2.
    static func fail(_ message: String) -> Never { UsageError.end("pushsim replay: \(message)", usage: usage) }

    /// The record file written by `pushsim serve --record`.
    let recordPath: String
    /// `--html <page.html>`: where to write the session's teaching page, if anywhere.
    let htmlPath: String?

    /// Reads one record file and, anywhere on the line, `--html <page.html>`.
    init(arguments: [String]) {
        var raw = arguments
        var htmlPath: String?
        if let i = raw.firstIndex(of: "--html") {
            guard i + 1 < raw.count else { Self.fail("--html needs the page's file name") }
            htmlPath = raw[i + 1]
            raw.removeSubrange(i...(i + 1))
        }
        guard raw.count == 1, !raw[0].hasPrefix("-") else { Self.fail("name one record file written by pushsim serve --record") }
        self.recordPath = raw[0]
        self.htmlPath = htmlPath
    }

    /// Rebuilds the recorded world, replays every exchange and compares the answers; returns 0 when
    /// every answer is the same, 1 at the first that differs (printed with both versions).
    func run() -> Int32 {
        guard let text = try? String(contentsOfFile: recordPath, encoding: .utf8) else { Self.fail("cannot read \(recordPath)") }
        let lines = text.split(separator: "\n")
        guard let first = lines.first, let header = try? JSONParser.parse(Array(first.utf8)), header["pushsimRecord"] != nil,
              let seed = header["seed"].flatMap({ UInt64($0.description) }), let anchor = header["anchorUnixSeconds"]?.int64Value,
              let baseURL = header["baseURL"]?.stringValue else {
            Self.fail("\(recordPath) does not start with a pushsim record header")
        }
        var setup = WorldSetup(seed: seed)
        if let scenarioPath = header["scenario"]?.stringValue {
            switch PushSim.loadScenario(path: scenarioPath) {
            case .failure(let error): Self.fail("the recorded scenario cannot be loaded: \(error.rendered(limit: 5))")
            case .success(let scenario): setup = ScenarioSetup.worldSetup(scenario, seed: seed)
            }
        }
        // Records written before signatures were verified carry no policy: they were structure-only.
        setup.signaturePolicy = header["signatures"]?.stringValue.flatMap(SignaturePolicy.init(rawValue:)) ?? .structureOnly
        let bridge: WorldBridge
        let clock = header["clock"]?.stringValue.flatMap(ClockPolicy.init(rawValue:)) ?? .manual
        do {
            bridge = try WorldBridge(setup: setup, clock: clock, anchor: CalendarAnchor(unixSecondsAtZero: anchor), keepsTrace: htmlPath != nil)
        } catch { Self.fail("\(error)") }
        bridge.configure(baseURL: baseURL, keyFiles: ClientKeyFiles(serviceAccount: header["serviceAccountFile"]?.stringValue,
                                                                    apnsKey: header["apnsKeyFile"]?.stringValue))
        // Each exchange, then entered in the order it entered the world (`entry`; the line order for
        // records written before entries were numbered).
        var exchanges: [(entry: Int, seq: String, recorded: JSONValue, replay: WorldBridge.RecordedRequest)] = []
        for (index, line) in lines.dropFirst().enumerated() {
            guard let entry = try? JSONParser.parse(Array(line.utf8)), let request = entry["request"], let recorded = entry["response"],
                  let method = request["method"]?.stringValue, let target = request["target"]?.stringValue else {
                Self.fail("line \(index + 2) of \(recordPath) is not a recorded exchange")
            }
            if entry["route"]?.stringValue == "refused" { continue }   // never reached the world
            let wire = WireRequest(method: method, target: target, headers: Self.fields(request["headers"]), body: Self.body(request))
            let arrived = VirtualTime(microseconds: entry["arrivedMicroseconds"]?.int64Value ?? 0)
            let answeredAt = VirtualTime(microseconds: entry["virtualMicroseconds"]?.int64Value ?? 0)
            let expired = entry["expired"] == .bool(true)
            var resetAnchor: CalendarAnchor?
            if method == "POST", target.hasPrefix("/_pushsim/reset"), let recordedBody = try? JSONParser.parse(Self.body(recorded)),
               let anchorSeconds = recordedBody["clock"]?["anchorUnixSeconds"]?.int64Value {
                resetAnchor = CalendarAnchor(unixSecondsAtZero: anchorSeconds)
            }
            exchanges.append((Int(entry["entry"]?.int64Value ?? Int64(index + 1)), entry["seq"]?.description ?? String(index + 1), recorded,
                              WorldBridge.RecordedRequest(request: wire, arrived: arrived, connection: Int(entry["connection"]?.int64Value ?? 0),
                                                          expiredAt: expired ? answeredAt : nil, resetAnchor: resetAnchor)))
        }
        exchanges.sort { $0.entry < $1.entry }
        let answers = bridge.replay(exchanges.map(\.replay))
        // The page first: it is written whether or not the answers match.
        if let htmlPath {
            let page = bridge.sessionPage(title: "pushsim serve session (\(answers.count) requests)", source: recordPath)
            do { try page.write(toFile: htmlPath, atomically: true, encoding: .utf8) } catch { Self.fail("cannot write \(htmlPath): \(error)") }
            print("replay: the session's teaching page is \(htmlPath)")
        }
        for (exchange, answer) in zip(exchanges, answers) {
            if let difference = Self.compare(exchange.recorded, answer) {
                let r = exchange.replay.request
                print("replay: exchange \(exchange.seq) (\(r.method) \(r.target)) differs: \(difference)".escapingControlCharacters)
                return 1
            }
        }
        print("replay: \(answers.count) exchanges replayed from \(recordPath); every answer is the same")
        return 0
    }

    /// A recorded header list (`[[name, value], …]`) as pairs; malformed pairs are left out.
    private static func fields(_ value: JSONValue?) -> [(name: String, value: String)] {
        (value?.arrayValue ?? []).compactMap { pair in
            guard let p = pair.arrayValue, p.count == 2, let n = p[0].stringValue, let v = p[1].stringValue else { return nil }
            return (n, v)
        }
    }

    /// A recorded request's or answer's body: `body` as UTF-8 text, else `bodyBase64` decoded, else empty.
    private static func body(_ value: JSONValue) -> [UInt8] {
        if let text = value["body"]?.stringValue { return Array(text.utf8) }
        if let b64 = value["bodyBase64"]?.stringValue, let data = Data(base64Encoded: b64) { return [UInt8](data) }
        return []
    }

    /// What differs between a recorded answer and a replayed one, or nil.
    private static func compare(_ recorded: JSONValue, _ answer: HTTPResponse) -> String? {
        let status = Int(recorded["status"]?.int64Value ?? -1)
        if status != answer.status { return "status \(status) recorded, \(answer.status) now" }
        let headers = fields(recorded["headers"])
        let now = answer.headers.fields
        if headers.count != now.count || zip(headers, now).contains(where: { $0.name != $1.name || $0.value != $1.value }) {
            return "headers \(headers.map { "\($0.name): \($0.value)" }) recorded, \(now.map { "\($0.name): \($0.value)" }) now"
        }
        if body(recorded) != answer.body {
            return "body \(String(decoding: body(recorded), as: UTF8.self)) recorded, \(String(decoding: answer.body, as: UTF8.self)) now"
        }
        return nil
    }
}
