import PushSimKernel
import PushSimNetwork

/// The link between a push service and the devices it serves: how a device's OS obtains a
/// handle and reconnects, and how the service hands a notification to a device.
///
/// The real services use private, persistent connections (APNs' courier on port 5223, FCM's
/// mtalk, WNS's client channel). PushSim replaces them with a small HTTP-shaped protocol of its
/// own on a separate device-facing host name, so that the provider API stays exactly the public one:
///
/// | request (device → service) | body | answer |
/// |---|---|---|
/// | `POST /register` | `{"app": <bundle id/package>, "install": <n>, "environment": "production"\|"sandbox"}` | `200 {"handle": …}` |
/// | `POST /connect` | – | `200`; the service then sends what it stored for this device |
///
/// | request (service → device) | headers | answer |
/// |---|---|---|
/// | `POST /push` | `x-pushsim-service`, `x-pushsim-handle`, `x-pushsim-app`, service headers; body = payload | `200` shown/handed to the app; `410` the handle no longer belongs to an installed app |
/// | `POST /push` with `x-pushsim-event: deleted_messages` | as above; body `{"message_type":"deleted_messages"}` | FCM's "stored messages were deleted" signal, which the SDK turns into `onDeletedMessages()` |
///
/// `install` counts the app's installations on the device: the same (device, app, install)
/// always gets the same handle (apps ask on every launch, A-REG, W-OVR); a new install gets a new one.
public enum DeviceChannel {
    public static let registerPath = "/register"
    public static let connectPath = "/connect"
    public static let pushPath = "/push"
    public static let serviceHeader = "x-pushsim-service"
    public static let handleHeader = "x-pushsim-handle"
    public static let appHeader = "x-pushsim-app"
    public static let messageHeader = "x-pushsim-message"
    /// Marks a push that is an OS-level event rather than a provider's message (FCM: `deleted_messages`).
    public static let eventHeader = "x-pushsim-event"
}

/// Parsed body of a device's `POST /register`.
public struct DeviceRegisterRequest: Sendable, Equatable {
    public var app: String
    public var install: Int
    public var environment: String

    public init(app: String, install: Int, environment: String = "production") {
        self.app = app
        self.install = install
        self.environment = environment
    }

    public init?(body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), let app = json["app"]?.stringValue,
              let install = json["install"]?.int64Value else { return nil }
        self.init(app: app, install: Int(install), environment: json["environment"]?.stringValue ?? "production")
    }

    public var body: [UInt8] {
        Array(JSONValue.object([("app", .string(app)), ("environment", .string(environment)),
                                ("install", .number(JSONNumber(Int64(install))))]).serialized().utf8)
    }
}

extension World {
    /// Hands one notification to a device over the device channel; `then` gets the device's
    /// status (200 shown, 410 stale handle) or nil when the device could not be reached.
    /// `message` is the service's id for the notification (APNs `apns-id`, FCM message name, WNS
    /// `X-WNS-Msg-ID`), sent as `x-pushsim-message` so the device's trace names it too.
    public func pushToDevice(service: String, device: String, handle: String, app: String, message: String = "",
                             headers extra: [(String, String)], payload: [UInt8],
                             then: @escaping (Int?) -> Void) {
        var headers = HTTPHeaders([(DeviceChannel.serviceHeader, service), (DeviceChannel.handleHeader, handle),
                                   (DeviceChannel.appHeader, app), (DeviceChannel.messageHeader, message)])
        for (n, v) in extra { headers.add(n, v) }
        let request = HTTPRequest(method: "POST", authority: device, path: DeviceChannel.pushPath, headers: headers, body: payload)
        call(request, from: service, timeout: .seconds(10)) { result in then(result.status) }
    }
}
