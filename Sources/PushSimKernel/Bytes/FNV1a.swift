/// The FNV-1a 64-bit hash of `bytes`, continuing from `start` (the FNV offset basis by default):
/// a stable, process-independent digest (unlike `Hasher`, which Swift seeds per process).
@inlinable package func fnv1a64<S: Sequence>(_ bytes: S, start: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 where S.Element == UInt8 {
    var hash = start
    for byte in bytes {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01b3
    }
    return hash
}
