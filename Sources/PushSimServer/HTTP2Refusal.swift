/// What `pushsim serve` writes to a client that opens a connection with the HTTP/2 connection
/// preface (`PRI * HTTP/2.0␍␊␍␊SM␍␊␍␊`, RFC 9113 §3.4: HTTP/2 "with prior knowledge", as
/// `curl --http2-prior-knowledge` and gRPC-style clients do). The server speaks HTTP/1.1 only; an
/// HTTP/1.1 error in answer is text the client cannot read ("Empty reply from server"), so it
/// answers in HTTP/2 just enough to say so, then closes:
///
/// - an empty SETTINGS frame (type 0x4, §6.5), the server's connection preface, which must be the
///   first frame a server sends (§3.4);
/// - a GOAWAY frame (type 0x7, §6.8) on stream 0 with last-stream-id 0 (no stream was processed,
///   so the client may retry every request, over HTTP/1.1 or elsewhere), error code
///   `HTTP_1_1_REQUIRED` (0xd, §7: the peer is to use HTTP/1.1, not HTTP/2)
///   and ``note`` as the opaque debug data §6.8 allows.
///
/// Every frame starts with a 9-octet header (§4.1): a 24-bit payload length, an 8-bit type, 8 bits
/// of flags, one reserved bit and a 31-bit stream identifier, all in network byte order.
enum HTTP2Refusal {
    /// The 24 octets an HTTP/2 client sends first (RFC 9113 §3.4).
    static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// Frame type SETTINGS (RFC 9113 §6.5).
    static let settingsType: UInt8 = 0x4
    /// Frame type GOAWAY (RFC 9113 §6.8).
    static let goAwayType: UInt8 = 0x7
    /// Error code HTTP_1_1_REQUIRED (RFC 9113 §7).
    static let http11Required: UInt32 = 0xd
    /// The GOAWAY's debug data: plain ASCII, for whoever reads the client's error.
    static let note = "pushsim serve speaks HTTP/1.1; put nghttpx in front for HTTP/2 (tools/http2-front.sh)"

    /// The whole answer: an empty SETTINGS frame, then the GOAWAY.
    static let bytes: [UInt8] = frame(type: settingsType, payload: [])
        + frame(type: goAwayType, payload: bigEndian(0) + bigEndian(http11Required) + Array(note.utf8))

    /// How the `--record` file shows the exchange (route `refused`, request `PRI *`): the HTTP/1.1
    /// status that means the same, 505, with what was written instead.
    static let recorded = ServerAnswer.error(505, "The connection opened with the HTTP/2 preface; it was answered with SETTINGS "
                                                + "and GOAWAY HTTP_1_1_REQUIRED (0xd) and closed. " + note + ".")

    /// One frame: the 9-octet header (RFC 9113 §4.1), then `payload` (shorter than 2^24 octets).
    static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
                type, flags] + bigEndian(stream & 0x7FFF_FFFF) + payload
    }

    /// `value` as 4 octets, most significant first.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value)]
    }
}
