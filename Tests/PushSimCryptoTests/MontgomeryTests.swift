import Testing
import PushSimKernel
@testable import PushSimCrypto

/// `MontgomeryFastPath` and the field constants against `ModularReference`, the plain schoolbook
/// product and bit-by-bit remainder.
@Suite("Montgomery arithmetic against the plain way")
struct MontgomeryTests {
    static let twoTo256: [UInt64] = [0, 0, 0, 0, 1]
    static let twoTo512: [UInt64] = [0, 0, 0, 0, 0, 0, 0, 0, 1]

    func randomBelow(_ modulus: UInt256, _ random: inout SeededRandom) -> UInt256 {
        let value = UInt256(random.next(), random.next(), random.next(), random.next())
        return ModularReference.remainder([value.w0, value.w1, value.w2, value.w3], modulus: modulus)
    }

    func checkConstants<M: PrimeModulus>(_: M.Type) {
        #expect(M.rSquared == ModularReference.remainder(Self.twoTo512, modulus: M.modulus))
        #expect(M.montgomeryOne == ModularReference.remainder(Self.twoTo256, modulus: M.modulus))
        #expect(M.modulus.w0 &* M.negativeInverse == UInt64.max)   // m·(−m⁻¹) ≡ −1 mod 2⁶⁴
    }

    @Test func constantsAreWhatTheyClaim() {
        checkConstants(P256Prime.self)
        checkConstants(P256Order.self)
    }

    func checkMultiplication<M: PrimeModulus>(_: M.Type, seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let m = M.modulus
        let edges = [UInt256.zero, UInt256(1), m.subtractingReportingBorrow(UInt256(1)).difference]
        for round in 0..<300 {
            let a = round < 3 ? edges[round] : randomBelow(m, &random)
            let b = round < 3 ? edges[(round + 1) % 3] : randomBelow(m, &random)
            let c = MontgomeryFastPath.multiply(a, b, modulus: m, negativeInverse: M.negativeInverse)
            #expect(c < m)
            let cTimesR = ModularReference.remainder([0, 0, 0, 0, c.w0, c.w1, c.w2, c.w3], modulus: m)
            #expect(cTimesR == ModularReference.multiply(a, b, modulus: m), "a = \(a), b = \(b)")
            // Through FieldElement: in, multiply, out gives the plain product.
            #expect((FieldElement<M>(a) * FieldElement<M>(b)).value == ModularReference.multiply(a, b, modulus: m))
        }
    }

    @Test func multiplicationAgreesWithThePlainWay() {
        checkMultiplication(P256Prime.self, seed: 0x5eed_0001)
        checkMultiplication(P256Order.self, seed: 0x5eed_0002)
    }

    @Test func additionSubtractionAndInverse() {
        var random = SeededRandom(seed: 0x5eed_0003)
        let p = P256Prime.modulus
        for _ in 0..<50 {
            let a = randomBelow(p, &random), b = randomBelow(p, &random)
            let x = P256Coordinate(a), y = P256Coordinate(b)
            #expect((x + y - y) == x)
            #expect((x - y + y) == x)
            #expect((-x + x).isZero)
            if !a.isZero {
                #expect((x * x.inverse) == .one)
                #expect(x.inverse.value == ModularReference.power(a, p.subtractingReportingBorrow(UInt256(2)).difference, modulus: p))
            }
        }
        #expect(P256Coordinate.zero.inverse.isZero)
    }

    @Test func bytesRoundTrip() {
        var random = SeededRandom(seed: 0x5eed_0004)
        for _ in 0..<20 {
            let value = UInt256(random.next(), random.next(), random.next(), random.next())
            #expect(UInt256(bigEndian: value.bigEndianBytes) == value)
        }
        #expect(UInt256(bigEndian: [0x01, 0x02]) == UInt256(0x0102))
        #expect(UInt256(bigEndian: [0x00] + [UInt8](repeating: 0xFF, count: 32)) != nil)   // a DER sign byte
        #expect(UInt256(bigEndian: [0x01] + [UInt8](repeating: 0xFF, count: 32)) == nil)   // 257 bits
    }
}
