/// A registration id in the form the live hub hands out: `<a>-<b>-<c>`, where `a` and `b` are
/// non-negative 63-bit numbers written in decimal without leading zeros (up to 19 digits each) and
/// `c` is one digit, `1` to `3` (NH-JS-REC: `3280667865762611323-1797531224048185179-3`,
/// `282625459606590828-2679902039720441464-3`, `2612301453042121168-3658891194689710738-2`;
/// NH-DOTNET's recordings since 2018 have the same form). What the parts mean is not published.
///
/// PushSim's ids stay deterministic and cost no memory: the hub's registration counter `n` (from
/// 1, the store's slot) is sent through a fixed bijection of the 63-bit numbers for `a` and, with
/// `n` offset by a constant, for `b`; `c` is `1 + a mod 3`. So `a` gives `n` back
/// (``number(of:)``), and an id is one PushSim issued only if it is exactly the one its number
/// gives: another spelling of the same numbers (a leading zero, another last digit) names no
/// registration, as an id the hub never handed out.
enum RegistrationID {
    /// 2^63 − 1: the parts are numbers below 2^63.
    private static let mask: UInt64 = (1 << 63) - 1
    /// Odd multipliers of the bijection (any odd number is invertible modulo 2^63).
    private static let multipliers: (UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9)
    /// Their inverses modulo 2^64 (hence modulo 2^63), by Newton's iteration.
    private static let inverses: (UInt64, UInt64) = (inverse(multipliers.0), inverse(multipliers.1))
    /// Added to `n` (modulo 2^63) before the bijection, for the second part.
    private static let secondPartOffset: UInt64 = 0x2545_F491_4F6C_DD1D

    /// The id of registration number `n` (from 1).
    static func id(_ n: Int) -> String {
        let a = scramble(UInt64(truncatingIfNeeded: n) & mask)
        let b = scramble((UInt64(truncatingIfNeeded: n) &+ secondPartOffset) & mask)
        return String(a) + "-" + String(b) + "-" + String(1 + a % 3)
    }

    /// The registration number `id` names, or 0 when it is not exactly an id ``id(_:)`` gives for a
    /// number from 1 below 2^31 (the store's numbers are `Int32`).
    static func number(of id: String) -> Int {
        let utf8 = id.utf8
        guard utf8.count >= 5, utf8.count <= 41, let dash = utf8.firstIndex(of: UInt8(ascii: "-")) else { return 0 }
        let first = utf8[..<dash]
        guard !first.isEmpty, first.count <= 19, first.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }),
              let a = UInt64(Substring(first)), a <= mask else { return 0 }
        let n = unscramble(a)
        guard n >= 1, n <= UInt64(Int32.max) else { return 0 }
        return Self.id(Int(n)) == id ? Int(n) : 0
    }

    /// A bijection of `0..<2^63`: multiply, xor-shift, multiply, xor-shift, all modulo 2^63.
    private static func scramble(_ x: UInt64) -> UInt64 {
        var x = (x &* multipliers.0) & mask
        x ^= x >> 31
        x = (x &* multipliers.1) & mask
        x ^= x >> 29
        return x
    }

    /// The inverse of ``scramble(_:)``.
    private static func unscramble(_ y: UInt64) -> UInt64 {
        var x = unshift(y, 29)
        x = (x &* inverses.1) & mask
        x = unshift(x, 31)
        return (x &* inverses.0) & mask
    }

    /// The `x` whose `x ^ (x >> s)` is `y` (for 63-bit `x`).
    private static func unshift(_ y: UInt64, _ s: UInt64) -> UInt64 {
        var x = y
        for _ in 0..<(63 / Int(s) + 1) { x = y ^ (x >> s) }
        return x
    }

    /// The inverse of odd `k` modulo 2^64.
    private static func inverse(_ k: UInt64) -> UInt64 {
        var x = k   // right to 3 bits for any odd k; each step doubles the bits
        for _ in 0..<5 { x = x &* (2 &- k &* x) }
        return x
    }
}
