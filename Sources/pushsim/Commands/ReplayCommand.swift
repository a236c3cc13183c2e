import Foundation
import PushSim
import PushSimServer

/// `pushsim replay FILE`: re-runs a `pushsim serve --record` file. It rebuilds the world from the
/// record's header (seed, the Unix time of virtual zero, the server's address, the scenario if
/// any), feeds it every recorded request at the virtual time it arrived, on the connection it came
/// on, in the order the requests entered the world, and compares each answer with the recorded one: status, headers and body. The first
/// difference is printed with both versions; exit 0 when every answer is the same, 1 otherwise.
/// `--html OUT` writes the session as a teaching page too (the replayed world keeps its trace),
/// before the comparison, so a page is written even when an answer differs.
enum ReplayCommand {
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("pushsim replay: \(message)\n\nUsage: pushsim replay <record-file> [--html <page.html>]\n".utf8))
        exit(2)
    }

    static func run(_ arguments: [String]) -> Never {
        var raw = arguments
        var htmlPath: String?
        if let i = raw.firstIndex(of: "--html") {
            guard i + 1 < raw.count else { fail("--html needs the page's file name") }
            htmlPath = raw[i + 1]
            raw.removeSubrange(i...(i + 1))
        }
        guard raw.count == 1, !raw[0].hasPrefix("-") else { fail("name one record file written by pushsim serve --record") }
        guard let text = try? String(contentsOfFile: raw[0], encoding: .utf8) else { fail("cannot read \(raw[0])") }
        let lines = text.split(separator: "\n")
        guard let first = lines.first, let header = try? JSONParser.parse(Array(first.utf8)), header["pushsimRecord"] != nil,
              let seed = header["seed"].flatMap({ UInt64($0.description) }), let anchor = header["anchorUnixSeconds"]?.int64Value,
              let baseURL = header["baseURL"]?.stringValue else {
            fail("\(raw[0]) does not start with a pushsim record header")
        }
        var setup = WorldSetup(seed: seed)
        if let scenarioPath = header["scenario"]?.stringValue {
            switch PushSim.loadScenario(path: scenarioPath) {
            case .failure(let error): fail("the recorded scenario cannot be loaded: \(error.rendered(limit: 5))")
            case .success(let scenario): setup = ScenarioSetup.worldSetup(scenario, seed: seed)
            }
        }
        let bridge: WorldBridge
        let clock = header["clock"]?.stringValue.flatMap(ClockPolicy.init(rawValue:)) ?? .manual
        do {
            bridge = try WorldBridge(setup: setup, clock: clock, anchor: CalendarAnchor(unixSecondsAtZero: anchor), keepsTrace: htmlPath != nil)
        } catch { fail("\(error)") }
        bridge.configure(baseURL: baseURL, serviceAccountPath: header["serviceAccountFile"]?.stringValue)
        // Each exchange, then entered in the order it entered the world (`entry`; the line order for
        // records written before entries were numbered).
        var exchanges: [(entry: Int, seq: String, recorded: JSONValue, replay: WorldBridge.RecordedRequest)] = []
        for (index, line) in lines.dropFirst().enumerated() {
            guard let entry = try? JSONParser.parse(Array(line.utf8)), let request = entry["request"], let recorded = entry["response"],
                  let method = request["method"]?.stringValue, let target = request["target"]?.stringValue else {
                fail("line \(index + 2) of \(raw[0]) is not a recorded exchange")
            }
            if entry["route"]?.stringValue == "refused" { continue }   // never reached the world
            let wire = WireRequest(method: method, target: target, headers: fields(request["headers"]), body: body(request))
            let arrived = VirtualTime(microseconds: entry["arrivedMicroseconds"]?.int64Value ?? 0)
            let answeredAt = VirtualTime(microseconds: entry["virtualMicroseconds"]?.int64Value ?? 0)
            let expired = entry["expired"] == .bool(true)
            var resetAnchor: CalendarAnchor?
            if method == "POST", target.hasPrefix("/_pushsim/reset"), let recordedBody = try? JSONParser.parse(body(recorded)),
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
            let page = bridge.sessionPage(title: "pushsim serve session (\(answers.count) requests)", source: raw[0])
            do { try page.write(toFile: htmlPath, atomically: true, encoding: .utf8) } catch { fail("cannot write \(htmlPath): \(error)") }
            print("replay: the session's teaching page is \(htmlPath)")
        }
        for (exchange, answer) in zip(exchanges, answers) {
            if let difference = compare(exchange.recorded, answer) {
                let r = exchange.replay.request
                print("replay: exchange \(exchange.seq) (\(r.method) \(r.target)) differs: \(difference)".escapingControlCharacters)
                exit(1)
            }
        }
        print("replay: \(answers.count) exchanges replayed from \(raw[0]); every answer is the same")
        exit(0)
    }

    private static func fields(_ value: JSONValue?) -> [(name: String, value: String)] {
        (value?.arrayValue ?? []).compactMap { pair in
            guard let p = pair.arrayValue, p.count == 2, let n = p[0].stringValue, let v = p[1].stringValue else { return nil }
            return (n, v)
        }
    }

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
