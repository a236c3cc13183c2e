import PushSimKernel
import PushSimNetwork

/// One PNS feedback record: a handle a PNS reported dead while the hub was sending
/// (Citations §4.9; NH-REST "Get PNS feedback"; element names from NH-DOTNET
/// `ManagementStrings.cs`: `PnsFeedback`, `FeedbackTime`, `NotificationSystemError`, `Platform`,
/// `PnsHandle`, `RegistrationId`, `InstallationId`, `NotificationId`).
///
/// Simplification: the real hub answers `GET /{hub}/feedbackcontainer` with a SAS URL of an Azure
/// Storage blob container holding these records in daily blobs. PushSim has no blob service, so
/// that URL points back at the hub, `GET /{hub}/feedback`, which answers all records so far as one
/// XML document `<PnsFeedbacks><PnsFeedback>…</PnsFeedback>…</PnsFeedbacks>`, oldest first.
/// `NotificationSystemError` is the telemetry outcome (`ExpiredChannel` or `BadChannel`); the real
/// values are **unconfirmed**. A record is written whenever a PNS reports a handle dead, also when
/// the hub then keeps the registration because it was re-registered after the APNs timestamp.
public struct PNSFeedback: Sendable, Equatable {
    /// `yyyy-MM-ddTHH:mm:ssZ`.
    public var feedbackTime: String
    /// The telemetry outcome: `ExpiredChannel` or `BadChannel`.
    public var notificationSystemError: String
    /// `apple`, `fcmv1` or `windows`.
    public var platform: String
    /// The handle reported dead.
    public var pnsHandle: String
    /// The registration the copy went to; nil when it went to an installation.
    public var registrationID: String?
    /// The installation the copy went to; nil when it went to a registration.
    public var installationID: String?
    /// The notification whose copy met the dead handle.
    public var notificationID: String

    /// A record as given.
    public init(feedbackTime: String, notificationSystemError: String, platform: String, pnsHandle: String,
                registrationID: String?, installationID: String?, notificationID: String) {
        self.feedbackTime = feedbackTime
        self.notificationSystemError = notificationSystemError
        self.platform = platform
        self.pnsHandle = pnsHandle
        self.registrationID = registrationID
        self.installationID = installationID
        self.notificationID = notificationID
    }

    var xml: XMLElement {
        func text(_ name: String, _ value: String) -> XMLNode { .element(XMLElement(name: name, children: [.text(value)])) }
        var children = [text("FeedbackTime", feedbackTime), text("NotificationSystemError", notificationSystemError),
                        text("Platform", platform), text("PnsHandle", pnsHandle)]
        if let registrationID { children.append(text("RegistrationId", registrationID)) }
        if let installationID { children.append(text("InstallationId", installationID)) }
        children.append(text("NotificationId", notificationID))
        return XMLElement(name: "PnsFeedback", attributes: [("xmlns", AtomRegistration.sbNamespace)], children: children)
    }

    /// The document `GET /{hub}/feedback` answers.
    static func document(_ records: [PNSFeedback]) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>" + XMLElement(name: "PnsFeedbacks", children: records.map { .element($0.xml) }).serialized()
    }

    /// Reads that document back (the client side).
    public static func parse(_ body: [UInt8]) -> [PNSFeedback]? {
        guard let doc = try? XMLDocumentParser.parse(body), doc.root.name == "PnsFeedbacks" else { return nil }
        return doc.root.elements.map { e in
            PNSFeedback(feedbackTime: e.first("FeedbackTime")?.text ?? "", notificationSystemError: e.first("NotificationSystemError")?.text ?? "",
                        platform: e.first("Platform")?.text ?? "", pnsHandle: e.first("PnsHandle")?.text ?? "",
                        registrationID: e.first("RegistrationId")?.text, installationID: e.first("InstallationId")?.text,
                        notificationID: e.first("NotificationId")?.text ?? "")
        }
    }
}
