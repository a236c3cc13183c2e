/// Values of the `apns-push-type` header and the topic each one needs
/// (Citations §1.3, sources A-SEND, APNSWIFT `APNSPushType.swift`, A-PTT).
public enum APNsPushType: String, Sendable, CaseIterable {
    case alert, background, voip, complication, fileprovider, mdm, liveactivity, location, pushtotalk

    /// The suffix the `apns-topic` must carry after the bundle id (`mdm` topics are free-form).
    public var topicSuffix: String? {
        switch self {
        case .alert, .background: return ""
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .location: return ".location-query"
        case .pushtotalk: return ".voip-ptt"
        case .mdm: return nil
        }
    }

    /// Largest payload in bytes: 5120 for VoIP, 4096 otherwise (§1.4, A-GEN).
    public var maxPayloadBytes: Int { self == .voip ? 5_120 : 4_096 }
}
