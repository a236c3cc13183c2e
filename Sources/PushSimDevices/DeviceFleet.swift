import PushSimKernel
import PushSimNetwork

/// Many devices of one platform with the same app, behind one host: a population for scale runs
/// (a broadcast to a million phones), where a full ``Device`` per member (inbox, storage, call
/// log; about 1.5 KB) would not fit.
///
/// Member `i` is addressed `<name>#<i>` on the network (a sub-address of the fleet's host), so it
/// talks to its push service exactly as a ``Device`` does: it asks for a handle over the
/// `DeviceChannel` (`POST /register`, one request per member) and receives pushes at `/push`,
/// answering 200, or 410 when the push carries a handle that is not its current one (the app was
/// uninstalled or reinstalled). Members go offline and online one by one through the world
/// (`world.setOnline("<name>#<i>", …)`), and reconnecting asks the service for what it kept.
///
/// Per member the fleet keeps only: whether the app is installed, its install count, a 64-bit
/// digest of its current handle (its `stableHash`, to recognise stale handles without storing the text),
/// and how many pushes it received: 16 bytes. What a member does with a push beyond receiving
/// it (alert, badge, sound) is not modelled here; use ``Device`` for that.
public final class DeviceFleet: Host, CallReceiver {
    /// The fleet's host name; member `i` is `<name>#<i>`.
    public let name: String
    /// The OS of every member, which decides their push service.
    public let platform: DevicePlatform
    /// The app every member installs.
    public let app: AppIdentity
    /// Called with (member, handle) when a member receives a handle from its service: the place to
    /// register it with a backend or hub.
    public var onHandle: ((Int, String) -> Void)?

    /// Unowned: the world owns its hosts (see ``Device.world``).
    private unowned let world: World
    private let link: PushServiceLink
    /// The state every push to a member touches: each member's install count, whether installed,
    /// its handle digest and its count of pushes received.
    /// Unchecked for exclusivity in release builds only, for the reason given on `WorldHotState`;
    /// each part is reached through the forwarding property below it.
    private struct HotState {
        var installs: [UInt16]
        var installed: [Bool]
        var handleDigests: [UInt64]
        var received: [UInt32]
    }
    #if DEBUG
    private var hot: HotState
    #else
    @exclusivity(unchecked) private var hot: HotState
    #endif
    private var installs: [UInt16] { _read { yield hot.installs } _modify { yield &hot.installs } }
    private var installed: [Bool] { _read { yield hot.installed } _modify { yield &hot.installed } }
    private var handleDigests: [UInt64] { _read { yield hot.handleDigests } _modify { yield &hot.handleDigests } }
    /// Pushes each member received (answered 200).
    public private(set) var received: [UInt32] { _read { yield hot.received } _modify { yield &hot.received } }
    /// Pushes refused with 410 (stale handle), all members together.
    public private(set) var refused = 0
    /// Register requests that failed (transport failure or an answer other than 200).
    public private(set) var handleFailures = 0

    /// `count` members in `world` under `name` (which cannot contain `#`), none with the app
    /// installed yet.
    public init(world: World, name: String, platform: DevicePlatform, app: AppIdentity, count: Int) {
        precondition(!name.contains("#"), "a fleet name cannot contain '#'")
        self.world = world
        self.name = name
        self.platform = platform
        self.app = app
        self.link = app.pushService(on: platform)
        hot = HotState(installs: Array(repeating: 0, count: count), installed: Array(repeating: false, count: count),
                       handleDigests: Array(repeating: 0, count: count), received: Array(repeating: 0, count: count))
        world.register(self, name: name)
    }

    /// The number of members.
    public var count: Int { installed.count }
    /// The network address of member `i`.
    public func address(_ member: Int) -> String { name + "#" + String(member) }
    /// Members that received at least one push.
    public var membersReached: Int { received.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }
    /// Pushes received by all members together.
    public var totalReceived: Int { received.reduce(0) { $0 + Int($1) } }
    /// Whether member `member` has the app installed.
    public func isInstalled(_ member: Int) -> Bool { installed[member] }

    // MARK: OS actions

    /// Installs the app on every member that lacks it; each asks its service for a handle.
    public func installAll() { install(members: installed.indices) }

    /// Installs the app on the members in `members` that lack it, in member order; each asks its
    /// service for a handle. Populations install in waves this way, as real ones do, so that the
    /// calls in flight (about 250 bytes each) stay a wave's worth, not a population's.
    public func install(members: Range<Int>) {
        var bodies: [UInt16: [UInt8]] = [:] // one register body per install number (looked up only)
        for m in members.clamped(to: installed.indices) where !installed[m] {
            installed[m] = true
            installs[m] &+= 1
            handleDigests[m] = 0
            let body = bodies[installs[m]] ?? DeviceRegisterRequest(app: link.appID, install: Int(installs[m]), environment: link.scope).body
            bodies[installs[m]] = body
            askForHandle(m, body: body)
        }
    }

    /// Installs the app on one member (again after an uninstall: a new install, a new handle).
    public func install(_ member: Int) {
        guard !installed[member] else { return }
        installed[member] = true
        installs[member] &+= 1
        handleDigests[member] = 0
        askForHandle(member, body: DeviceRegisterRequest(app: link.appID, install: Int(installs[member]), environment: link.scope).body)
    }

    /// Removes the app from one member. The service is not told; the next push finds out (410).
    public func uninstall(_ member: Int) {
        installed[member] = false
        handleDigests[member] = 0
        record(member, .deviceUninstall)
    }

    /// Takes one member off the network: pushes to it fail, and its service keeps them as it does
    /// for any unreachable device.
    public func goOffline(_ member: Int) { world.setOnline(address(member), false) }

    /// Brings one member back: its OS reconnects to the service, which sends what it kept.
    public func goOnline(_ member: Int) {
        world.setOnline(address(member), true)
        let request = HTTPRequest(method: "POST", authority: link.deviceHost, path: DeviceChannel.connectPath)
        world.call(request, from: address(member)) { [self] result in record(member, .deviceReconnected, [.result: .string(result.summary)]) }
    }

    private func askForHandle(_ member: Int, body: [UInt8]) {
        let request = HTTPRequest(method: "POST", authority: link.deviceHost, path: DeviceChannel.registerPath, body: body)
        world.call(request, from: address(member), replyTo: self, tag: UInt64(member) << 16 | UInt64(installs[member]))
    }

    /// A handle arrived (or not) for the member and install in `tag`.
    public func receive(_ result: CallResult, tag: UInt64, world: World) {
        let member = Int(tag >> 16), install = UInt16(tag & 0xFFFF)
        guard installed[member], installs[member] == install else { return } // meant for an earlier install
        guard let r = result.response, r.status == 200, let json = try? JSONParser.parse(r.body),
              let handle = json["handle"]?.stringValue else {
            handleFailures += 1
            return record(member, .deviceHandleFailed, [.result: .string(result.summary)])
        }
        handleDigests[member] = Self.digest(handle)
        record(member, .deviceHandleReceived, [.handle: .string(shortToken(handle))])
        onHandle?(member, handle)
    }

    // MARK: Pushes from the service

    /// Takes a push for a member: 410 when its app is not installed, it has no handle yet, or the
    /// push's handle is not its current one; else 200, counted in ``received``. 404 for another path
    /// or an address that is not a member.
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        guard request.path == DeviceChannel.pushPath, let member = member(request.authority) else {
            return world.respond(to: exchange, with: HTTPResponse(status: 404))
        }
        let pushed = request.headers[DeviceChannel.handleHeader].map(Self.digest)
        guard installed[member], handleDigests[member] != 0, pushed == handleDigests[member] else {
            refused += 1
            record(member, .devicePushRefused, [.message: .string(request.headers[DeviceChannel.messageHeader] ?? ""),
                                                   .why: installed[member] ? "handle belongs to an earlier install" : "app not installed"])
            return world.respond(to: exchange, with: HTTPResponse(status: 410))
        }
        received[member] &+= 1
        world.respond(to: exchange, with: HTTPResponse(status: 200))
        record(member, .devicePushReceived, [.service: .string(request.headers[DeviceChannel.serviceHeader] ?? "?"),
                                                .message: .string(request.headers[DeviceChannel.messageHeader] ?? "")])
    }

    /// A 64-bit digest of a handle (its `stableHash`, read 8 bytes at a time), never 0 (0 marks
    /// "no handle"): every push a member gets is checked against its handle this way, and handles
    /// run to 200 bytes. Only compared in memory, never written out.
    static func digest(_ handle: String) -> UInt64 {
        let h = UInt64(UInt(bitPattern: handle.stableHash))
        return h == 0 ? 1 : h
    }

    /// The member number in `<name>#<i>`, if it is one of this fleet's: read as bytes in place,
    /// one per push (``ASCIIText/decimal(after:in:maxDigits:)``).
    private func member(_ authority: String) -> Int? {
        guard let m = ASCIIText.decimal(after: UInt8(ascii: "#"), in: authority, maxDigits: 9), m < count else { return nil }
        return m
    }

    private func record(_ member: Int, _ kind: TraceKind, _ fields: @autoclosure () -> KeyValuePairs<TraceFieldName, TraceValue> = [:]) {
        guard world.isTracing(kind) else { return }
        world.record(layer: "device", host: address(member), kind: kind, fields())
    }

    /// Nothing: the fleet's counters are its state, not unfinished work.
    public func leftovers(world: World) -> [Leftover] { [] }
}
