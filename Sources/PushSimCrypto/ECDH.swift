extension P256PrivateKey {
    /// The ECDH shared secret with `peer` (SEC 1, 3.3.1, the Elliptic Curve Diffie-Hellman
    /// primitive; NIST SP 800-56A's "ECC CDH" with cofactor 1): the `x` coordinate of `d·Q`, 32
    /// big-endian bytes. Both sides of a Web Push message compute it (RFC 8291, 3.1). `peer` was
    /// checked on the curve when it was read, so `d·Q` is never the point at infinity for a
    /// valid `d`; the check stays, as SEC 1 asks.
    public func sharedSecret(with peer: P256PublicKey) throws -> [UInt8] {
        let product = P256WindowFastPath.multiply(P256JacobianPoint(peer.point), by: scalar)
        guard let point = product.affine else {
            throw CryptoError.invalidScalar("the shared point is the point at infinity")
        }
        return point.x.value.bigEndianBytes
    }
}
