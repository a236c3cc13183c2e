import Testing
import PushSimKernel
@testable import PushSimHub

/// Registration ids in the live hub's form (issue 41 item 11): `<a>-<b>-<c>`, two 63-bit numbers
/// in decimal and a digit from 1 to 3, as the JavaScript SDK's 2022 and 2023 recordings and the
/// .NET SDK's show them (`3280667865762611323-1797531224048185179-3`), made from the hub's counter
/// and read back to it.
@Suite("Hub registration ids")
struct RegistrationIDTests {
    /// `<1–19 digits, no leading zero>-<the same>-<1|2|3>`.
    static func hasLiveShape(_ id: String) -> Bool {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, ["1", "2", "3"].contains(parts[2]) else { return false }
        return parts[0...1].allSatisfy { p in
            (1...19).contains(p.count) && p.allSatisfy { $0.isASCII && $0.isNumber } && (p == "0" || p.first != "0")
                && UInt64(p).map { $0 < 1 << 63 } == true
        }
    }

    @Test func theFirstIdsHaveTheLiveShapeAndReadBackToTheirNumbers() {
        var seen = Set<String>()
        for n in Array(1...5_000) + [1 << 20, Int(Int32.max) - 1] {
            let id = RegistrationID.id(n)
            #expect(Self.hasLiveShape(id), "\(n): \(id)")
            #expect(RegistrationID.number(of: id) == n)
            seen.insert(id)
        }
        #expect(seen.count == 5_002)
        #expect(RegistrationID.id(1) == "76592028274533430-4765052952699024478-2")   // the same in every run
    }

    /// Only the exact id of a number names it: another spelling of it, an id PushSim never makes
    /// and any other text name nothing (0), and no text makes it crash.
    @Test func anyOtherTextNamesNoRegistration() {
        let first = RegistrationID.id(1)
        let parts = first.split(separator: "-")
        for text in ["", "reg-000001", "0" + first, first + "0", "\(parts[0])-\(parts[1])-3", "\(parts[0])-\(parts[1])",
                     "\(parts[0])--\(parts[1])-2", "99999999999999999999-1-1", "9223372036854775808-1-1", "-1-2-3", "٣-١-٢",
                     first + "\u{301}", RegistrationID.id(0), "\(UInt64.max)-\(UInt64.max)-1"] {
            #expect(RegistrationID.number(of: text) == 0, "\(text)")
        }
        var random = SeededRandom(seed: 41)
        for _ in 0..<2_000 {
            let text = random.string(count: random.int(below: 45), from: "0123456789-ab")
            let n = RegistrationID.number(of: text)
            #expect(n == 0 || RegistrationID.id(n) == text)
        }
    }
}
