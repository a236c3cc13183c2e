import PushSimKernel

/// Parsed body of a device's `POST /live-activity-token` to APNs: ActivityKit asks APNs for a
/// push token on the app's behalf, either a push-to-start token for one `ActivityAttributes` type
/// (`Activity<Attributes>.pushToStartTokenUpdates`, iOS 17.2 and later) or an update token for one
/// running Live Activity (`Activity.pushTokenUpdates`) (Citations §1.14, A-LA-PUSH).
///
/// Body: `{"app": <bundle id>, "install": <n>, "environment": "production"|"sandbox",
/// "kind": "push-to-start"|"update", "subject": <attributes type or activity id>, "generation": <n>}`;
/// answer `200 {"token": <hex>}` or `400` when malformed. The same request always gets the same
/// token; the device asks with the next `generation` when the system rotates the token.
package struct LiveActivityTokenRequest: Sendable, Equatable {
    /// Where a device asks APNs for a Live Activity token: `POST /live-activity-token`.
    public static let path = "/live-activity-token"

    /// Which of ActivityKit's two token kinds is asked for.
    public enum Kind: String, Sendable, Equatable {
        /// Starts a new Live Activity of one attributes type (`subject` is the type's name).
        case pushToStart = "push-to-start"
        /// Updates and ends one running Live Activity (`subject` is the activity's id).
        case update
    }

    /// The app's bundle id.
    public var app: String
    /// Which installation of the app on the device, from 1.
    public var install: Int
    /// `production` or `sandbox`, as for the app's device token.
    public var environment: String
    /// Push-to-start or update.
    public var kind: Kind
    /// The attributes type (push-to-start) or the activity id (update).
    public var subject: String
    /// Counts the system's rotations of this token, from 1.
    public var generation: Int

    /// A request for one token.
    public init(app: String, install: Int, environment: String, kind: Kind, subject: String, generation: Int) {
        self.app = app
        self.install = install
        self.environment = environment
        self.kind = kind
        self.subject = subject
        self.generation = generation
    }

    /// Reads a body: nil unless every member is there with the right JSON type and a known kind.
    public init?(body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), let app = json["app"]?.stringValue,
              let install = json["install"]?.int64Value, let environment = json["environment"]?.stringValue,
              let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)), let subject = json["subject"]?.stringValue,
              let generation = json["generation"]?.int64Value,
              let installNumber = Int(exactly: install), let generationNumber = Int(exactly: generation) else { return nil }
        self.init(app: app, install: installNumber, environment: environment, kind: kind, subject: subject, generation: generationNumber)
    }

    /// The JSON body, keys sorted.
    public var body: [UInt8] {
        JSONValue.object([("app", .string(app)), ("environment", .string(environment)), ("generation", .number(JSONNumber(Int64(generation)))),
                          ("install", .number(JSONNumber(Int64(install)))), ("kind", .string(kind.rawValue)), ("subject", .string(subject))])
            .serializedBytes()
    }
}
