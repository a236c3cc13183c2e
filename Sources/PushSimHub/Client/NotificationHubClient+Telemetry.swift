import PushSimKernel
import PushSimNetwork

/// The telemetry of one notification, as the SDK's `NotificationDetails` carries it (NH-DOTNET
/// `NotificationDetails.cs`; Citations §4.7, §4.9).
public struct NotificationDetails: Sendable, Equatable {
    /// The notification's id (empty when the document has none).
    public var notificationID: String
    /// The notification's telemetry URL, as the hub writes it.
    public var location: String?
    /// Its telemetry state; `Unknown` for a name the SDK does not know.
    public var state: NotificationOutcome.State
    /// `yyyy-MM-ddTHH:mm:ssZ`, when known.
    public var enqueueTime: String?
    /// `yyyy-MM-ddTHH:mm:ssZ`, when processing started; nil before.
    public var startTime: String?
    /// `yyyy-MM-ddTHH:mm:ssZ`, when the notification reached a final state; nil before.
    public var endTime: String?
    /// The body as sent to the hub.
    public var notificationBody: String?
    /// The send's tag expression; nil when it went to everyone.
    public var tags: String?
    /// `apple,fcmv1,windows` (the platforms that had targets).
    public var targetPlatforms: String?
    /// One row per platform and outcome with a non-zero count, in platform then outcome order.
    public var outcomeCounts: [OutcomeCount]

    /// How many copies for one platform ended with one outcome.
    public struct OutcomeCount: Sendable, Equatable {
        /// `ApnsOutcomeCounts`, `FcmV1OutcomeCounts`, `WnsOutcomeCounts`.
        public var platform: String
        /// `Success`, `ExpiredChannel`, … (see ``PNSOutcome``).
        public var outcome: String
        /// How many copies.
        public var count: Int
    }

    /// The count of `outcome` for `platform`'s element (0 when absent).
    public func count(_ platform: RegistrationPlatform, _ outcome: PNSOutcome) -> Int {
        outcomeCounts.first { $0.platform == NotificationRecord.countsElement(platform) && $0.outcome == outcome.rawValue }?.count ?? 0
    }

    /// Reads the hub's XML; nil if it is not a NotificationDetails document. An unknown state name
    /// reads as `Unknown`, as the SDK maps it.
    public static func parse(_ body: [UInt8]) -> NotificationDetails? {
        guard let doc = try? XMLDocumentParser.parse(body), doc.root.name == "NotificationDetails" else { return nil }
        let r = doc.root
        var counts: [OutcomeCount] = []
        for e in r.elements where e.name.hasSuffix("OutcomeCounts") {
            for o in e.elements {
                counts.append(OutcomeCount(platform: e.name, outcome: o.first("Name")?.text ?? "", count: Int(o.first("Count")?.text ?? "") ?? 0))
            }
        }
        return NotificationDetails(notificationID: r.first("NotificationId")?.text ?? "", location: r.first("Location")?.text,
                                   state: NotificationOutcome.State(rawValue: r.first("State")?.text ?? "") ?? .unknown,
                                   enqueueTime: r.first("EnqueueTime")?.text, startTime: r.first("StartTime")?.text,
                                   endTime: r.first("EndTime")?.text, notificationBody: r.first("NotificationBody")?.text,
                                   tags: r.first("Tags")?.text, targetPlatforms: r.first("TargetPlatforms")?.text, outcomeCounts: counts)
    }
}

/// Telemetry and feedback calls (NH-DOTNET `GetNotificationOutcomeDetailsAsync`, `GetFeedbackContainerUriAsync`).
extension NotificationHubClient {
    /// Telemetry API version of the REST reference (NH-REST "Get Notification Message Telemetry").
    public static let telemetryAPIVersion = "2016-07"

    /// `GET /messages/<id>?api-version=2016-07`; 200 with NotificationDetails expected, 404 for an unknown id.
    public func getNotificationOutcomeDetails(_ notificationID: String,
                                              _ completion: @escaping (Result<NotificationDetails, HubError>) -> Void) {
        guard !notificationID.isEmpty else { return refuse("notificationId", completion) }
        send("GET", "messages/\(notificationID)", query: [("api-version", Self.telemetryAPIVersion)], expect: 200) { result in
            completion(result.flatMap { r in
                NotificationDetails.parse(r.body).map { .success($0) }
                    ?? .failure(HubError(kind: .messaging, status: r.status, detail: "the notification details could not be read"))
            })
        }
    }

    /// `GET /feedbackcontainer`: the container URL (in PushSim, the hub's own `feedback` resource).
    public func getFeedbackContainerUri(_ completion: @escaping (Result<String, HubError>) -> Void) {
        send("GET", "feedbackcontainer", expect: 200) { completion($0.map(\.bodyText)) }
    }

    /// The PNS feedback records: reads the container URL, then the records behind it.
    public func getPnsFeedback(_ completion: @escaping (Result<[PNSFeedback], HubError>) -> Void) {
        getFeedbackContainerUri { [self] result in
            switch result {
            case .failure(let e): completion(.failure(e))
            case .success(let url):
                guard let relative = url.split(separator: "?").first?.split(separator: "/").last.map(String.init) else {
                    return completion(.failure(HubError(kind: .messaging, status: 200, detail: "no container URL in the answer")))
                }
                send("GET", relative, expect: 200) { answer in
                    completion(answer.flatMap { r in
                        PNSFeedback.parse(r.body).map { .success($0) }
                            ?? .failure(HubError(kind: .messaging, status: r.status, detail: "the feedback could not be read"))
                    })
                }
            }
        }
    }
}
