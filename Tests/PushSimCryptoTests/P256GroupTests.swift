import Testing
import PushSimKernel
@testable import PushSimCrypto

/// The group law of P-256 and the windowed scalar multiplication against double and add.
@Suite("P-256 group")
struct P256GroupTests {
    static let order = P256Order.modulus

    @Test func theBasePointIsOnTheCurveAndHasOrderN() {
        #expect(P256AffinePoint.generator.isOnCurve)
        let g = P256JacobianPoint(P256AffinePoint.generator)
        #expect(P256WindowFastPath.multiply(g, by: Self.order).isInfinity)
        #expect(P256BaseTableFastPath.multiply(Self.order).isInfinity)
        #expect(g.multipliedByDoubleAndAdd(Self.order).isInfinity)
        let nMinusOne = Self.order.subtractingReportingBorrow(UInt256(1)).difference
        let minusG = P256WindowFastPath.multiply(g, by: nMinusOne).affine
        #expect(minusG?.x == P256AffinePoint.generator.x)
        #expect(minusG?.y == -P256AffinePoint.generator.y)
    }

    @Test func additionAgreesWithDoubling() {
        let g = P256JacobianPoint(P256AffinePoint.generator)
        #expect(g.adding(g).affine == g.doubled().affine)
        #expect(g.adding(P256AffinePoint.generator).affine == g.doubled().affine)
        #expect(g.doubled().adding(g).affine == g.adding(g.doubled()).affine)
        #expect(g.adding(P256JacobianPoint.infinity).affine == g.affine)
        let minusG = P256JacobianPoint(x: g.x, y: -g.y, z: g.z)
        #expect(g.adding(minusG).isInfinity)
    }

    /// The fast paths' contract: the same point as double and add, for random and edge scalars
    /// (the window for any point, the table for G).
    @Test func windowAgreesWithDoubleAndAdd() {
        var random = SeededRandom(seed: 0x5eed_0101)
        let g = P256JacobianPoint(P256AffinePoint.generator)
        let q = g.multipliedByDoubleAndAdd(UInt256(random.next(), random.next(), random.next(), 0))
        let edges = [UInt256.zero, UInt256(1), UInt256(15), UInt256(16), Self.order.subtractingReportingBorrow(UInt256(1)).difference]
        for round in 0..<25 {
            let k = round < edges.count ? edges[round] : UInt256(random.next(), random.next(), random.next(), random.next())
            #expect(P256BaseTableFastPath.multiply(k).affine == g.multipliedByDoubleAndAdd(k).affine, "k = \(k)")
            for point in [g, q] {
                let fast = P256WindowFastPath.multiply(point, by: k)
                let plain = point.multipliedByDoubleAndAdd(k)
                #expect(fast.isInfinity == plain.isInfinity)
                #expect(fast.affine == plain.affine, "k = \(k)")
            }
        }
    }

    /// RFC 6979 A.2.5's key pair: x·G = (Ux, Uy).
    @Test func rfc6979KeyPair() throws {
        let key = try P256PrivateKey(rawRepresentation: TestBytes.hex("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"))
        #expect(TestBytes.hex(key.publicKey.x) == "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
        #expect(TestBytes.hex(key.publicKey.y) == "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
    }

    @Test func privateKeysOutOfRangeAreRefused() {
        #expect(throws: CryptoError.self) { try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError.self) { try P256PrivateKey(rawRepresentation: Self.order.bigEndianBytes) }
        #expect(throws: CryptoError.self) { try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: CryptoError.self) { try P256PrivateKey(rawRepresentation: [1]) }
    }

    @Test func pointsOffTheCurveAreRefused() throws {
        let g = P256AffinePoint.generator.uncompressed
        var offCurve = g
        offCurve[64] ^= 1
        #expect(throws: CryptoError.self) { try P256PublicKey(x963Representation: offCurve) }
        var compressed = Array(g.prefix(33))
        compressed[0] = 0x02
        #expect(throws: CryptoError.self) { try P256PublicKey(x963Representation: compressed) }
        var badPrefix = g
        badPrefix[0] = 0x05
        #expect(throws: CryptoError.self) { try P256PublicKey(x963Representation: badPrefix) }
        // x = p: not a field element.
        let p = P256Prime.modulus.bigEndianBytes
        #expect(throws: CryptoError.self) { try P256PublicKey(x963Representation: [0x04] + p + Array(g[33...])) }
        #expect(try P256PublicKey(x963Representation: g).x963Representation == g)
    }
}
