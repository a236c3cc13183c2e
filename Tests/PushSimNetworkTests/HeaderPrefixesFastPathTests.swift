import PushSimKernel
@testable import PushSimNetwork
import Testing

/// `HeaderPrefixesFastPath` answers what lower-casing the name and comparing prefixes answers.
@Suite struct HeaderPrefixesFastPathTests {
    @Test func agreesWithLowerCasingAndComparing() {
        let prefixes = ["apns-", "X-WNS-", "x-hms-", "_x", "@a", "[b"]   // the last three: first bytes 0x40–0x5F that are not letters
        let fast = HeaderPrefixesFastPath(prefixes)
        func plain(_ name: String) -> Bool { prefixes.contains { name.lowercased().hasPrefix($0.lowercased()) } }
        var random = SeededRandom(seed: 20261128)
        var names = ["", "a", "apns-", "APNS-ID", "apns", "x-wns-type", "X-Wns-Cache-Policy", "x-wn", "Content-Type", "Authorization",
                     "ServiceBusNotification-Format", "ápns-id", "x-wns-é", "\u{00C0}pns-x", "XAPNS-", "_x-a", "_X", "@A", "[B", "{b"]
        for _ in 0..<3_000 { names.append(random.string(count: random.int(below: 9), from: "apnsxwAPNSXW-hméÁ_@[{`")) }
        for name in names { #expect(fast.matches(name) == plain(name), "\(name)") }
    }
}
