import Foundation
import PushSim
import PushSimServer

/// `pushsim serve`: one simulated world behind an HTTP/1.1 server on loopback, for real SDKs and
/// curl. Parses its own flags, prints where it listens and what a client needs, and runs until
/// SIGINT or SIGTERM, then stops cleanly and flushes the record. Exit status 0 when stopped so, 2
/// for a usage error or an address it cannot listen on.
struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "serve one simulated world over HTTP/1.1 on loopback for real SDKs (see pushsim serve --help)"

    /// The world to serve and how (the flags, read).
    struct Settings {
        /// `--host <ipv4>`: the address to listen on.
        var host = "127.0.0.1"
        /// `--port <n>`: the TCP port (0: a free one, printed at start).
        var port = 0
        /// `--seed <n>`: the world's seed (nil: the scenario's, else 0).
        var seed: UInt64?
        /// `--scenario <file>`: the scenario whose settings and devices start the world.
        var scenarioPath: String?
        /// `--record <file>`: where every exchange is written as JSON Lines.
        var recordPath: String?
        /// `--clock wall|manual`: how virtual time moves.
        var clock = ClockPolicy.wall
        /// `--keys <folder>`: where the client key files are written (nil: a folder in the temporary folder).
        var keysFolder: String?
        /// `--service-account <file>`: where the FCM service-account JSON is written (nil: in the keys folder).
        var serviceAccountPath: String?
        /// `--signatures verify|structure-only`: how APNs and Google tokens' signatures are checked.
        var signatures = SignaturePolicy.verify
        /// `--keep-journal`, `--keep-notifications`: how much history the world keeps.
        var retention = ServeRetention()
        /// `--control-token <t>`: the bearer token the control API requires, if any.
        var controlToken: String?
    }

    static let usage = """
    OVERVIEW: Serve one simulated push world over HTTP/1.1 on loopback: real SDKs and curl reach the
    fake Notification Hub, FCM, APNs and WNS, and a control API (/_pushsim/) drives devices and time.

    USAGE: pushsim serve [--port <n>] [--host <ipv4>] [--seed <n>] [--scenario <file>] [--record <file>]
                         [--clock wall|manual] [--keys <folder>] [--service-account <file>]
                         [--signatures verify|structure-only] [--keep-journal <n>]
                         [--keep-notifications <n>] [--control-token <token>]

    OPTIONS:
      --port <n>              TCP port (default 0: a free one, printed at start)
      --host <ipv4>           address to listen on (default 127.0.0.1)
      --seed <n>              the world's seed (default: the scenario's, else 0)
      --scenario <file>       start from a scenario's settings and devices (its steps and expectations are not run)
      --record <file>         write every request in and answer out as JSON Lines
      --clock wall|manual     wall: virtual time follows the wall clock plus advances (default);
                              manual: it moves only by advances and simulated latency (repeatable)
      --keys <folder>         where to write the keys clients sign with: AuthKey_<key id>.p8 (APNs) and
                              service-account.json (Google), paths printed at start (default: a folder
                              pushsim-serve-<port> in the temporary folder); also at /_pushsim/keys/…
      --service-account <f>   where to write the service-account JSON instead (default: in the keys folder)
      --signatures <policy>   verify: APNs (ES256) and Google (RS256) signatures must verify with the
                              world's keys or keys registered at /_pushsim/keys (default);
                              structure-only: NOT verified, any well-formed signature passes, for an
                              SDK that cannot be given these keys
      --keep-journal <n>      calls kept in the request journal, the newest (default 10000)
      --keep-notifications <n>
                              notifications kept per device, the newest (default 1000)
      --control-token <t>     the control API (/_pushsim/) answers 401 without Authorization: Bearer <t>
      -h, --help              show this help

    Stop with Ctrl-C (SIGINT) or SIGTERM. Exit codes: 0 stopped cleanly; 2 usage error or cannot listen.
    """

    /// Ends the process on a usage error: `pushsim serve: <message>` and the short usage on standard
    /// error, exit status 2.
    static func fail(_ message: String) -> Never {
        UsageError.end("pushsim serve: \(message)", usage: "Usage: pushsim serve [--port <n>] … (see pushsim serve --help)")
    }

    /// The flags, read.
    let settings: Settings

    /// Reads the flags (see ``usage``; help already answered, see ``help(in:)``).
    init(arguments: [String]) { settings = Self.parse(arguments) }

    /// The settings the flags ask for.
    private static func parse(_ raw: [String]) -> Settings {
        var settings = Settings()
        var arguments = ArgumentReader(raw, fail: fail)
        while let arg = arguments.next() {
            switch arg {
            case "--port": settings.port = arguments.number(arg, in: 0...65_535)
            case "--host": settings.host = arguments.value(arg)
            case "--seed": settings.seed = arguments.seed(arg)
            case "--scenario": settings.scenarioPath = arguments.value(arg)
            case "--record": settings.recordPath = arguments.value(arg)
            case "--service-account": settings.serviceAccountPath = arguments.value(arg)
            case "--keys": settings.keysFolder = arguments.value(arg)
            case "--signatures":
                let v = arguments.value(arg)
                guard let policy = SignaturePolicy(rawValue: v) else { fail("--signatures takes verify or structure-only, not '\(v)'") }
                settings.signatures = policy
            case "--keep-journal": settings.retention.journalEntries = arguments.number(arg, in: 0...100_000_000)
            case "--keep-notifications": settings.retention.notificationsPerDevice = arguments.number(arg, in: 0...100_000_000)
            case "--control-token":
                let token = arguments.value(arg)
                guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                    fail("--control-token takes visible ASCII characters without spaces")
                }
                settings.controlToken = token
            case "--clock":
                let v = arguments.value(arg)
                guard let c = ClockPolicy(rawValue: v) else { fail("--clock takes wall or manual, not '\(v)'") }
                settings.clock = c
            default: fail("unknown option '\(arg)'")
            }
        }
        return settings
    }

    /// Builds the world (from `--scenario`, if given), serves it and prints what a client needs;
    /// returns 0 once SIGINT or SIGTERM has stopped the server.
    func run() -> Int32 {
        var setup = WorldSetup(seed: settings.seed ?? 0)
        if let path = settings.scenarioPath {
            switch PushSim.loadScenario(path: path) {
            case .failure(let error): FileHandle.standardError.write(Data((error.rendered(limit: 20) + "\n").utf8)); return 2
            case .success(let scenario): setup = ScenarioSetup.worldSetup(scenario, seed: settings.seed)
            }
        }
        setup.signaturePolicy = settings.signatures
        let bridge: WorldBridge
        do {
            bridge = try WorldBridge(setup: setup, clock: settings.clock, recordPath: settings.recordPath, scenarioPath: settings.scenarioPath,
                                     retention: settings.retention, controlToken: settings.controlToken)
        } catch { Self.fail("\(error)") }
        let server = HTTPServer(bridge: bridge, configuration: HTTPServer.Configuration(host: settings.host, port: settings.port))
        signal(SIGPIPE, SIG_IGN)
        HTTPServer.raiseDescriptorLimit()   // many connections held at once (a soak test's thousands of idle ones)
        do { try server.start() } catch { Self.fail("\(error)") }

        let info = bridge.connectionInfo(baseURL: server.baseURL)
        let keyFiles: ClientKeyFiles
        do { keyFiles = try writeKeyFiles(info, port: server.port) } catch {
            server.stop()
            Self.fail("\(error)")
        }
        bridge.configure(baseURL: server.baseURL, keyFiles: keyFiles)
        print(info.banner(keyFiles: keyFiles, clock: settings.clock, seed: setup.seed))
        if let record = settings.recordPath { print("Recording every exchange to \(record).") }
        if !["127.0.0.1", "localhost"].contains(settings.host) {
            print(settings.controlToken == nil
                  ? "WARNING: listening on \(settings.host), beyond loopback: anyone who reaches this port can reset the world and inject faults "
                    + "through /_pushsim/. Start with --control-token <token> to require a bearer token there."
                  : "Listening on \(settings.host), beyond loopback: the control API requires the bearer token given with --control-token.")
        }
        fflush(nil)

        let stop = DispatchSemaphore(value: 0)
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)   // handled by the source below, not by the default action
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        signals.forEach { $0.cancel() }
        server.stop()
        print("pushsim serve: stopped" + (settings.recordPath.map { "; record flushed to \($0)" } ?? ""))
        fflush(nil)
        return 0
    }

    /// Writes the files a client signs with, readable by their owner only: the service-account
    /// JSON and the APNs `.p8` (Apple's name, `AuthKey_<key id>.p8`), in `--keys` or a folder
    /// `pushsim-serve-<port>` in the temporary folder; the JSON at `--service-account` when given.
    private func writeKeyFiles(_ info: ConnectionInfo, port: Int) throws -> ClientKeyFiles {
        let folder = settings.keysFolder ?? FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-serve-\(port)").path
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw KeyFileError(message: "cannot make the keys folder \(folder): \(error)")
        }
        var files = ClientKeyFiles(serviceAccount: settings.serviceAccountPath ?? folder + "/service-account.json")
        if info.apnsPrivateKeyPEM != nil { files.apnsKey = folder + "/" + info.apnsKeyFileName }
        for (path, text, what) in [(files.serviceAccount, info.serviceAccountJSON(), "service-account file"),
                                   (files.apnsKey, info.apnsPrivateKeyPEM ?? "", "APNs key file")] {
            guard let path else { continue }
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw KeyFileError(message: "cannot write the \(what) \(path)")
            }
        }
        return files
    }

    /// A key file that could not be written.
    struct KeyFileError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
