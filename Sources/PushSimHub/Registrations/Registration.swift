import PushSimKernel

/// A registration as the hub client sends and receives it (the SDK's `RegistrationDescription`).
public struct RegistrationDescription: Sendable, Equatable {
    /// Which description element it is, and so which push service its handle belongs to.
    public var platform: RegistrationPlatform
    /// Nil until the hub assigned one.
    public var registrationID: String?
    /// The PNS handle. The hub stores APNs tokens upper-cased (NH-REST).
    public var handle: String
    /// Tags, unique, in the order given.
    public var tags: [String]
    /// Set by the hub: `yyyy-MM-ddTHH:mm:ssZ` (`9999-12-31T23:59:59Z` for never).
    public var expirationTime: String?
    /// Set by the hub: the description's `<ETag>` digits, which an update sends back as
    /// `If-Match: "<etag>"`. Nil until read from the hub.
    public var etag: String?
    /// Set for a template registration (`AppleTemplateRegistrationDescription`, …); nil for a
    /// native one. Template registrations get template sends only; native ones native sends only.
    public var template: RegistrationTemplate?
    /// The push variables (`<PushVariables>`, a JSON object of strings, after the tags; see
    /// `PushVariables`); empty: none, and no element is written.
    public var pushVariables: [String: String] = [:]

    /// A description as a client writes it: native and without tags unless given, no id (the
    /// hub's to assign) unless given.
    public init(platform: RegistrationPlatform, handle: String, tags: [String] = [], registrationID: String? = nil,
                template: RegistrationTemplate? = nil) {
        self.platform = platform
        self.handle = handle
        self.tags = tags
        self.registrationID = registrationID
        self.template = template
    }

    /// The Atom element name: `AppleRegistrationDescription` or, for a template registration,
    /// `AppleTemplateRegistrationDescription` (likewise FcmV1 and Windows).
    public var descriptionElement: String {
        template == nil ? platform.descriptionElement
            : platform.descriptionElement.replacing("RegistrationDescription", with: "TemplateRegistrationDescription")
    }
}

/// A registration as the hub stores it: the value `RegistrationStore` takes in and hands out
/// (the store itself keeps registrations column by column, see its layout).
struct StoredRegistration {
    var number: Int          // from the id counter; orders fan-out
    var id: String
    var platform: RegistrationPlatform
    var handle: String
    /// Unique. Sorted as the store hands it out; the store takes them in any order and keeps that
    /// order, so a bulk import shares the caller's arrays.
    var tags: [String]
    var updatedAt: VirtualTime
    var expiresAt: VirtualTime?
    var etag: Int
    /// Set for a template registration.
    var template: HubTemplate? = nil
    /// When the registration was first written, for one written again since; nil when its last
    /// write created it (then ``created`` is ``updatedAt``).
    var createdAt: VirtualTime? = nil
    /// The push variables it was written with (given back only); empty: none.
    var pushVariables: [String: String] = [:]

    /// When the registration was first written: an answer's `<published>` (NH-DOTNET's recordings).
    var created: VirtualTime { createdAt ?? updatedAt }
}
