/// Keys derived from seeds (``RSAPrivateKey/init(derivedFrom:modulusBitCount:)``,
/// ``P256PrivateKey/init(derivedFrom:)``), the slow ones made once, and the seeds of PushSim's
/// sample accounts.
///
/// Making a 2048-bit key takes about half a second in a release build and 10 to 30 s in a debug one
/// (two prime searches), too slow to do for every simulation, every `pushsim serve` start or every
/// test process. The keys of PushSim's own sample accounts are therefore kept here already made,
/// as the PKCS#8 text their derivation gives (`DerivedKeyMemoTests` derives each and compares,
/// and OpenSSL checks them: `tools/key-writing-check.sh`); reading one back takes milliseconds.
/// Any other seed is derived on the spot: keep what it gives.
package enum DerivedKeyMemo {
    /// The seed of the sample app's Google service account key (what the hub signs its OAuth
    /// assertions with and the fake FCM verifies them by).
    package static let sampleServiceAccountSeed = "PushSim sample service account key"
    /// The seed of a second key for the same account, one Google does not have: what `hub
    /// credentials fcm wrong` signs with.
    package static let wrongServiceAccountSeed = "PushSim wrong service account key"

    /// The seed of the sample app's APNs signing key (`PSIMKEY001` of team `PSIMTEAM01`).
    package static let sampleAPNsKeySeed = "PushSim sample APNs key"
    /// The seed of a P-256 key Apple does not have for that key id: what `hub credentials apns
    /// wrong` signs with.
    package static let wrongAPNsKeySeed = "PushSim wrong APNs key"

    /// `P256PrivateKey(derivedFrom: Array(seed.utf8))`: cheap (one HKDF and one scalar
    /// multiplication), so made each time. Derivation gives up only when 64 candidates in a row
    /// fall outside 1 … n − 1 (each does with a chance below 2⁻³²); that would stop the program.
    package static func p256Key(derivedFrom seed: String) -> P256PrivateKey {
        guard let key = try? P256PrivateKey(derivedFrom: Array(seed.utf8)) else {
            preconditionFailure("no P-256 key could be derived from the seed \"\(seed)\"")
        }
        return key
    }

    /// `RSAPrivateKey(derivedFrom: Array(seed.utf8))`, 2048 bits: read from the text kept here for
    /// the seeds above, else made now. Derivation gives up only after 64 starts of 10,000 steps
    /// each find no prime, which no seed has been seen to need; that would stop the program.
    package static func rsaKey(derivedFrom seed: String) -> RSAPrivateKey {
        if let text = made.first(where: { $0.seed == seed })?.pkcs8, case .rsa(let key)? = try? AsymmetricPrivateKey(pem: text) {
            return key
        }
        guard let key = try? RSAPrivateKey(derivedFrom: Array(seed.utf8)) else {
            preconditionFailure("no RSA key could be derived from the seed \"\(seed)\"")
        }
        return key
    }

    /// The keys already made: seed, and the PKCS#8 PEM of `RSAPrivateKey(derivedFrom:)` for it.
    static let made: [(seed: String, pkcs8: String)] = [
        (sampleServiceAccountSeed, """
            -----BEGIN PRIVATE KEY-----
            MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDWN/+1kVVt7gq5
            WE4ftvOpQ+Hf3/Ch9dG0/0qty5VxOaODNVqXTzxWkiQipb0abXZkD4MO6+roiN5X
            sjCBNsOHrXlAV8cQ5rdFMTaiObIXfP6WF5fMf2Grhg52TCGK3Y6psf9TTD9xwSsD
            jXR3fTCARrg3ldCnQdhkOYrnTqpuCLjdLfvBlY6rL2Jul3+7zzW9GnbRh3IL37iY
            e4l6d0f7KsHhMOuCow1wPfhXTAk2APih5IzS5P/fMhx9sAgSD/N6m9ugwKV1XYrG
            6j0k27qs0AccNzg20oTM0OQTPB81s5ckt9L/5mXrB9zEB4PLB+e1VlTLylJqOYgz
            P+iRGtPFAgMBAAECggEAIr/MvCBKMl3l4XEAo0ZjOjbnwhAqkas1jF3JOG4I3OgT
            rSoPevIAgK6OLAyko0/UX6DgiqAcaAIjxygBlERU7YJnY9eZVBWI7zFvgltHl2XQ
            SnqjRin3pwJFAE2TN1p/VOmp2FJLDGHgX2An32YwYu6V3XZw9WDKAGARNzpcjSKT
            Ad4RhCQZIn3jd0araJ5C6yk52flFSCzJ+ry1SK6FtlGQwLJgeg3YVYPnt2IozYWs
            G2U6PuhCuvmZdyq0VWpd30pDQSMVXWQy8sOZ1F94m7QtkgmhVrml6tzuAtD0gi+t
            FFD3UGpc3roR6H9NFebCp79r6abjFBleeT7yd6DBFQKBgQD1ydqDhqVuZN3brr8i
            C1B01Mp3GOgEqkuthHP835ngQn4RKLZJe6N9jysKpW1TW9LBhu2TMSsLv+9TOuer
            c0Ot80LkbQv6juuLeRZ/b4HiiRuHnUbRBvKxsMzOFQ+X0HzQhgrg9T4yXcL9xk6W
            oZQCBrUzp8iXvIZslczJQW1IrwKBgQDfHmCPaitPMYMoRw3VEt87M8cBKUS733gz
            1XnPkEABYgzdvrBN4S8iwv3aOxVw3ocU0CN14kxS349aA7Yxar45ySHbNfYO5SfM
            CZgBzwmh7hU5Dh30UHrKmMG5GKnP39PYwK0ZTsniFdTCzaDnczDkTB05e/pLeZpK
            iH1QtesfywKBgQDHJSGzZ6kqZPeNQ20BvIEX6EGTdc6n2QMwOB1ySgl3NujGJmJr
            741r8lBBc/+8hq2guB5OIIxsHLtgiF2lAONZUbxlMCWAgcQ/YYDlCAgI8GYp3zi9
            rA+AAWwvncjgjMBUhAbUdmBKlsWisMaELa6qZZzzmYJhzxJrcIRYnHZbaQKBgHw4
            BlxyKJCbqUDYZkwViLEGP6pW1oyeeuao2HuF/QyIEU+3ZaLGVx7MXtaMBIDlc2FU
            DBoKlqGhE8dyv5G9sxCq+S15Wneqf0CqqrV/FgbQbYJpaKXn1KVM7LXnlEtGe0R2
            6Sho5B76No0KPKX/TN4dvjuN2akBl7QdT1+LGM+HAoGAcslJu23VnuUQ+vpH9KCq
            Pl7dzFfjiunBO6/FQXE87aLLQWY/IxeGShBcho2tzTX9YQQOxJsU5YLwPClImTzL
            +8dp8heXjbNors2sNkeFGX50fE0x52IV1cwXs7UG1JNmHPPR09iwvEpa5YgUaaOJ
            11CUFLXIsR9rl2n3pD99wBc=
            -----END PRIVATE KEY-----
            """),
        (wrongServiceAccountSeed, """
            -----BEGIN PRIVATE KEY-----
            MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC2QnXwoVPtRSVQ
            pH+gHJ79XQap+3g7WGfKWb3HK8OxfdOFUk4n07BSEXA0qfjrLR8zLu4AdRrs9hkL
            gGQf5Q4vjV7GICKm8iGlmAuOxaWBqKdgTzRZt0Mt38/3Ii02YzRmq6qOBSLeXckS
            OJLpXb0oKFsWDVLxOIz8+bCm2VYKgmtXCCAPAhjK64Nj2NoUe4fPlxQASa4HAACX
            Uy/GPHY0+PO/V0knVTAzIzYtHC5YmEeYlCPMSAOBV9zMj6aFYLgstVtzOg55LPYi
            LoWlL2/PleC5RMsgBXY1J0sNAqc3WsJ4ClBnVVyWpmP1NegTMtncetp9wkvRZjx9
            Ul/qXiLzAgMBAAECggEALMKvslP8h5XmryJnEYxV44VYIKDYi0KP4tsdR2/RFKMB
            MonfFdrgP5d2xghEUIV5Vxmca9JWtYFO70sty8N2M2l1sBSuTe/DIabwl7Ski+4+
            hOGOysW+IuMHcPscvXGpqdlY/p32TUQdIHNyaQuTa+xVSlolV4Z64Zn0r1VK0zOA
            TRz0t71KJLQ6VWvCh3opD+16+cbcCwQ81dRGWtrc9PhTriZcaDjtg2d0EFWwLESS
            Sm6cAUVVDhYNWmBpaIyQXq32dsC6I1nRaqku+u5CglDH0VOmKXMc50C93Bfo5PxC
            JnvqO54shDNUYZYOsNvWqd0D6pwk6s4UFR07a9vP0QKBgQDZzvp0+E7zrD6AASpB
            pbsCMzh9u6pIGhpr1ilX3Lz2pVXJ6kUXgVrk+S2bR//YULEpQbanoMzNj1fEH9JZ
            gvp0pR0rUs5/aqT21Ovp4UgeQxXJHxkI80ngXvsfBXKpd9dOq08gZUSylwjTZxhA
            iOg0q/CqrNvgRQACOSnlApCqiwKBgQDWN8IOVAwjcykHPX5KgexVSc+dCiweFPlu
            /mHYDZ24yrznd3tqkKivxq0p570yYyARQ8/Y1mm5rzYSp9gjDRakT6Y69n10TWgY
            K6RmzEQe2UGIk+WPOkeo8wPVbSeqtPMjl5LjKOp5AN/dnnGho/yOezCP/KvU4DjB
            YYPJEF++OQKBgGZK0c+7ioDgZR4C7hCUwEZhPee3ClsAf2Yj15jfH5QKxEanErne
            U4z0BdpGrz6tbva8WQdS+ryT1JlUhJrra6r6nL9rDXZD5KPUDdPyrMchpIqnYz+T
            2x9YHEJOcbJriR/2TpwdU204h7mZUoeEhOGv2sCdnEowvbdNl4JpeP3PAoGACzl8
            t5d701ezbKeyOGE6avWlJUtlKGZc843svo9oFki5QT+nfdv6mstEQ4/bAArloUH2
            YBxMCei+Ypfc4WlMKGvr/+buh+uOasXOpXxKjXtAzdFCFBEvtBCXwNUpYO5+Vv0Y
            O0LnllOPZ2Nn/NpE34pg7wqETnE5SBi9+QkcmzECgYEAk9GDGgPnLUJWUqCZhsix
            S09LCNJ1KyVKGQOUulZcbg2oORYzvKD01ivXZTHXIlMcfBq3kgOA96DzuhDjX9VB
            Cl5sFLhTI0LedARSzpZXn0daSD+9chcQP00YIm/KJk+XAdbGzKTR2Qt2W50X2nS+
            aWLQgjGzCJN8h4ld4eioNDU=
            -----END PRIVATE KEY-----
            """),
    ]
}
