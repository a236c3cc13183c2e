import PushSimKernel
import PushSimNetwork

/// The Firebase installation ID (FID) an Android app's Firebase SDK makes for itself when it first
/// runs: FCM takes it as a send's target (`message.fid`, F-MSG) instead of a registration token.
///
/// Made on the device, as the Firebase Installations SDK makes it (FIS-FID: the Android SDK's
/// `RandomFidGenerator` and the JavaScript SDK's `generateFid`): 17 random bytes whose first four
/// bits are replaced by the header `0111`, written in base64url and cut to 22 characters. So a FID
/// is 22 characters of `A–Z a–z 0–9 - _` whose first is `c`, `d`, `e` or `f` (the SDKs check new
/// ones against `^[cdef][\w-]{21}$`).
///
/// The installation lives as long as the app's data: a new one on install, on a restore to another
/// device and when the user clears the app's data; launches and token refreshes keep it (FIS: "the
/// installation ID stays the same unless the app is reinstalled or its data is cleared"). PushSim
/// draws its bytes from the stream `firebase-installation/<device>/<n>` of the run's seed, `n`
/// counting the device's installations, so a device's FIDs depend on the seed, its name and how
/// many installations came before, not on anything else that happens in the run.
public enum FirebaseInstallationID {
    /// Length of a FID in characters: 132 bits, the 4-bit header and 128 random ones.
    public static let length = 22

    /// The `n`th FID of `device` (from 1) in `world`.
    public static func make(device: String, installation n: Int, world: World) -> String {
        var random = world.randomStream("firebase-installation/\(device)/\(n)")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(17)
        while bytes.count < 17 {
            var word = random.next()
            for _ in 0..<8 where bytes.count < 17 {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        bytes[0] = 0b0111_0000 | bytes[0] & 0b0000_1111
        return String(Base64URL.encode(bytes).prefix(length))
    }

    /// Whether `text` has a FID's shape: 22 base64url characters, the first `c`, `d`, `e` or `f`.
    public static func hasShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == length, let first = bytes.first, (UInt8(ascii: "c")...UInt8(ascii: "f")).contains(first) else { return false }
        return bytes.allSatisfy { Base64URL.isDigit($0) }
    }
}
