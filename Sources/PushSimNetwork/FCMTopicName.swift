/// FCM's rule for a topic name, and the `/topics/` prefix (Citations §2.7).
///
/// A name is one or more of the characters `a-z`, `A-Z`, `0-9`, `-`, `_`, `.`, `~` and `%`: the
/// pattern `[a-zA-Z0-9-_.~%]+` that the Admin SDKs check before they call FCM (FA-NODE-TOPIC,
/// FA-GO-TOPIC) and the Android SDK checks in `subscribeToTopic` (FA-ANDROID-RPC). The Instance ID
/// API takes a topic as `/topics/<name>` in its `to` field (IID-SERVER); the HTTP v1 API takes the
/// bare name in `message.topic` and refuses the prefixed form, which is why the Admin SDKs strip
/// it before they send (FA-NODE-203). It lives in the network layer because both sides use it:
/// the fake FCM and the simulated Android app's Firebase SDK.
public enum FCMTopicName {
    /// `/topics/`: how the Instance ID API and the legacy API write a topic.
    public static let prefix = "/topics/"

    /// Whether `name` is a valid topic name: not empty, and only `[a-zA-Z0-9-_.~%]`.
    public static func isValid<S: StringProtocol>(_ name: S) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isNameByte)
    }

    /// One byte of a valid name.
    public static func isNameByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    /// The name in an Instance ID `to` field, `/topics/<name>`; nil when the prefix is missing or
    /// the name after it is not valid.
    public static func fromInstanceIDTarget(_ to: String) -> String? {
        guard to.hasPrefix(prefix) else { return nil }
        let name = String(to.dropFirst(prefix.count))
        return isValid(name) ? name : nil
    }
}
