import Dispatch
import PushSimKernel
import PushSimCrypto

/// Signatures made and checked for JSON Web Tokens, kept for the whole process: an RS256
/// signature costs some 3 ms in a release build (a tenth of a second in a debug one) and an
/// ES256 one about half a millisecond, and worlds made one after another (a seed sweep, `pushsim
/// explore`, a benchmark's repetitions) sign the same assertions and tokens again and again: the
/// hub's first Google assertion and APNs token of a run carry the same claims whenever they are
/// made at the same second of virtual time.
///
/// Both answers are pure functions of their inputs (ES256 signs with RFC 6979's deterministic
/// nonces, RS256 is deterministic), so a kept answer is the answer: traces do not change. Keys
/// are the public key's bytes and the signing input (and, for a check, the signature and whether
/// DER was accepted). At most ``capacity`` answers of each kind are kept (some 4 MB at most); the
/// table is emptied when full.
/// Shared by the worlds of every thread (`pushsim explore` runs seeds side by side), so it is
/// read and written on one serial queue; the signing and checking happen outside it.
final class JWTSignatureMemo: @unchecked Sendable {
    /// The process's memo.
    static let shared = JWTSignatureMemo()
    /// How many signatures, and how many verdicts, are kept.
    static let capacity = 4_096

    private let queue = DispatchQueue(label: "pushsim.jwt-signature-memo")
    private var signatures: [String: String] = [:]
    private var verdicts: [String: Bool] = [:]

    /// The base64url signature kept for `key`, else `make()`'s, kept.
    func signature(_ key: String, make: () -> String) -> String { kept(\.signatures, key, make) }

    /// The verdict kept for `key`, else `check()`'s, kept.
    func verdict(_ key: String, check: () -> Bool) -> Bool { kept(\.verdicts, key, check) }

    /// The answer kept in `table` for `key`, else `make()`'s (made outside the queue), kept.
    private func kept<Answer>(_ table: ReferenceWritableKeyPath<JWTSignatureMemo, [String: Answer]>, _ key: String,
                              _ make: () -> Answer) -> Answer {
        if let answer = queue.sync(execute: { self[keyPath: table][key] }) { return answer }
        let made = make()
        queue.sync {
            if self[keyPath: table].count >= Self.capacity { self[keyPath: table].removeAll() }
            self[keyPath: table][key] = made
        }
        return made
    }

    /// The memo key of an ES256 signature or check: the public key's point, then `rest`.
    static func key(_ publicKey: P256PublicKey, _ rest: String) -> String {
        "ES256 " + Base64URL.encode(publicKey.x963Representation) + " " + rest
    }

    /// The memo key of an RS256 signature or check: the modulus and exponent, then `rest`.
    static func key(_ publicKey: RSAPublicKey, _ rest: String) -> String {
        "RS256 " + Base64URL.encode(publicKey.modulus) + " " + Base64URL.encode(publicKey.exponent) + " " + rest
    }
}
