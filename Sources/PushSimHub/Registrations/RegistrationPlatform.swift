import PushSimNetwork

/// The platform of a native registration, named as the hub's registration descriptions are.
///
/// Everything the hub knows about a platform is one row of `traits`: a new platform is a new
/// case and one row there (the properties below read from it).
public enum RegistrationPlatform: String, Sendable, CaseIterable {
    /// `AppleRegistrationDescription`, handle in `DeviceToken`.
    case apple
    /// `FcmV1RegistrationDescription`, handle in `FcmV1RegistrationId`.
    case fcmV1
    /// `WindowsRegistrationDescription`, handle in `ChannelUri`.
    case windows
    /// `GcmRegistrationDescription` (FCM legacy): retired by the hub on 20 June 2024 (AZ-FCMLEG).
    case gcm
    /// `MpnsRegistrationDescription`: MPNS is retired (MPNS-NH).
    case mpns
    /// `BrowserRegistrationDescription`: a browser's Web Push subscription, its handle written as
    /// three elements `Endpoint`, `P256DH`, `Auth` (NH-BROWSER, NH-JAVA `BrowserRegistration`) and
    /// kept as one string, the .NET SDK's PNS handle (``BrowserPushChannel/pnsHandle``).
    case browser

    /// The hub's facts about one platform, the names it goes by on each of the hub's surfaces.
    /// All literals of trivial types (names as `StaticString`): reading one allocates nothing and
    /// releases nothing. The names are read as `String`s through ``Names``, made once from here.
    struct Traits {
        /// Its 3 bits in ``RegistrationStore``'s slot byte (0…7), also its slot in ``PNSHeaderMemo``.
        var storageCode: UInt8
        /// The Atom element of its native registration description.
        var descriptionElement: StaticString
        /// The description's element that carries the handle.
        var handleElement: StaticString
        /// Its `ServiceBusNotification-Format` (and the `Platform` of feedback and test-send results).
        var sendFormat: StaticString
        /// The `platform` of an installation (NH-DOTNET `NotificationPlatform.cs`).
        var installationPlatform: StaticString
        /// The element of its outcome counts in NotificationDetails (see ``NotificationRecord``).
        var outcomeCountsElement: StaticString
        /// What its template registrations' bodies must be.
        var templateBody: TemplateBodyRule
        /// How the hub's template errors name its templates (`an APNs template`).
        var templateNoun: StaticString
        /// How the hub talks to the push service its copies go to (which gives the service's
        /// descriptor); nil for a retired platform, which the hub no longer sends to.
        var adapter: PNSAdapter?
    }

    /// This platform's row of the table. Always inlined, so that a read of one trait keeps only
    /// that literal (a call would build and destroy the whole row, on the fan-out's hot path).
    @inline(__always) var traits: Traits {
        switch self {
        case .apple:
            return Traits(storageCode: 0, descriptionElement: "AppleRegistrationDescription", handleElement: "DeviceToken",
                          sendFormat: "apple", installationPlatform: "apns", outcomeCountsElement: "ApnsOutcomeCounts",
                          templateBody: .jsonObject, templateNoun: "an APNs template", adapter: .apns)
        case .fcmV1:
            return Traits(storageCode: 1, descriptionElement: "FcmV1RegistrationDescription", handleElement: "FcmV1RegistrationId",
                          sendFormat: "fcmv1", installationPlatform: "fcmV1", outcomeCountsElement: "FcmV1OutcomeCounts",
                          templateBody: .jsonMessageObject, templateNoun: "an FCM v1 template", adapter: .fcm)
        case .windows:
            return Traits(storageCode: 2, descriptionElement: "WindowsRegistrationDescription", handleElement: "ChannelUri",
                          sendFormat: "windows", installationPlatform: "wns", outcomeCountsElement: "WnsOutcomeCounts",
                          templateBody: .xmlWithWNSType, templateNoun: "a Windows template", adapter: .wns)
        case .gcm:
            return Traits(storageCode: 3, descriptionElement: "GcmRegistrationDescription", handleElement: "GcmRegistrationId",
                          sendFormat: "gcm", installationPlatform: "gcm", outcomeCountsElement: "GcmOutcomeCounts",
                          templateBody: .retired, templateNoun: "a GCM template", adapter: nil)
        case .mpns:
            return Traits(storageCode: 4, descriptionElement: "MpnsRegistrationDescription", handleElement: "ChannelUri",
                          sendFormat: "windowsphone", installationPlatform: "mpns", outcomeCountsElement: "MpnsOutcomeCounts",
                          templateBody: .retired, templateNoun: "an MPNS template", adapter: nil)
        case .browser:
            return Traits(storageCode: 5, descriptionElement: "BrowserRegistrationDescription", handleElement: "Endpoint",
                          sendFormat: "browser", installationPlatform: "browser", outcomeCountsElement: "BrowserOutcomeCounts",
                          templateBody: .jsonObject, templateNoun: "a browser template", adapter: .webPush)
        }
    }

    /// The Atom element name of the description.
    public var descriptionElement: String { Self.names.descriptionElement[Int(storageCode)] }

    /// The element that carries the handle.
    public var handleElement: String { Self.names.handleElement[Int(storageCode)] }

    /// The `ServiceBusNotification-Format` value of native sends to this platform.
    public var sendFormat: String { Self.names.sendFormat[Int(storageCode)] }

    /// The `platform` value of an installation: `apns`, `fcmV1` (the SDK's spelling; NH-DOTNET
    /// `NotificationPlatform.cs`), `wns`, and the retired `gcm`, `mpns`.
    public var installationPlatform: String { Self.names.installationPlatform[Int(storageCode)] }

    /// The element of its outcome counts in NotificationDetails (``Traits/outcomeCountsElement``).
    var outcomeCountsElement: String { Self.names.outcomeCountsElement[Int(storageCode)] }

    /// The table's names as `String`s, by storage code, made once from the table: a read is an
    /// array load, with no allocation and no conversion.
    private struct Names {
        var descriptionElement: [String], handleElement: [String], sendFormat: [String]
        var installationPlatform: [String], outcomeCountsElement: [String]
        init() {
            func column(_ name: (Traits) -> StaticString) -> [String] {
                var out = [String](repeating: "", count: RegistrationPlatform.storageCodeCount)
                for p in RegistrationPlatform.allCases { out[Int(p.storageCode)] = "\(name(p.traits))" }
                return out
            }
            descriptionElement = column(\.descriptionElement)
            handleElement = column(\.handleElement)
            sendFormat = column(\.sendFormat)
            installationPlatform = column(\.installationPlatform)
            outcomeCountsElement = column(\.outcomeCountsElement)
        }
    }
    private static let names = Names()

    /// The push service this platform's copies go to; nil for a retired platform (`gcm`, `mpns`).
    public var service: PushServiceDescriptor? { traits.adapter?.service }

    /// Whether its handle travels as a browser's subscription (`Endpoint`, `P256DH`, `Auth`) rather
    /// than as the one ``handleElement``; the stored handle is then ``BrowserPushChannel/pnsHandle``.
    var handleIsSubscription: Bool { self == .browser }

    /// Whether the hub has retired it and no longer accepts registrations for it (`gcm`, `mpns`).
    public var isRetired: Bool { traits.adapter == nil }

    /// The platform whose native description element is `descriptionElement`; nil for any other
    /// name (template elements included).
    public init?(descriptionElement: String) {
        guard let p = RegistrationPlatform.allCases.first(where: { $0.descriptionElement == descriptionElement }) else { return nil }
        self = p
    }

    /// The platform whose native format is `format` (``sendFormat``), if any.
    public init?(sendFormat format: String) {
        guard let platform = Self.allCases.first(where: { $0.sendFormat == format }) else { return nil }
        self = platform
    }

    /// Reads an installation's `platform`, ignoring case (`fcmv1` and `fcmV1` both work).
    public init?(installationPlatform: String) {
        guard let p = RegistrationPlatform.allCases.first(where: { $0.installationPlatform.lowercased() == installationPlatform.lowercased() }) else {
            return nil
        }
        self = p
    }

    /// Its ``Traits/storageCode``.
    var storageCode: UInt8 { traits.storageCode }

    /// How many storage codes there are (3 bits).
    static let storageCodeCount = 8

    /// The platform whose ``storageCode`` is `code`, the inverse of the table's codes.
    init(storageCode code: UInt8) { self = Self.byStorageCode[Int(code)]! }

    /// The platforms by storage code, made from the table.
    private static let byStorageCode: [RegistrationPlatform?] = {
        var table = [RegistrationPlatform?](repeating: nil, count: storageCodeCount)
        for p in allCases {
            precondition(table[Int(p.storageCode)] == nil, "two platforms have storage code \(p.storageCode)")
            table[Int(p.storageCode)] = p
        }
        return table
    }()
}

/// What a template registration's body must be for its platform (NH-TPL).
enum TemplateBodyRule {
    /// A JSON object (APNs; browsers, whose payload the service worker reads: the hub's own rule
    /// for a browser template is unconfirmed, Citations §7).
    case jsonObject
    /// A JSON object with a `message` member (FCM v1: `{"message":{…}}` without a token).
    case jsonMessageObject
    /// An XML document whose `X-WNS-Type` is given or follows from its root (`toast`, `tile`,
    /// `badge`, as the SDK's `WindowsNotification` infers it, NH-DOTNET).
    case xmlWithWNSType
    /// None: the platform is retired and takes no templates.
    case retired
}
