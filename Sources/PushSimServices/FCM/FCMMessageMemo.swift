import PushSimKernel

/// The last `messages:send` body FCM accepted, kept so that the copies of one send (a hub fanning
/// out to a million devices) are parsed once: they differ only in `message.token`.
///
/// A body is recognised as such a copy when it starts `{"message":{"token":"<token>"`, with a
/// token of printable ASCII that needs no JSON escape, and the bytes after the token are exactly
/// those of the remembered body. The JSON around the token is then the same, so the checks
/// (Citations §2.1–§2.2) give the same answer, and the message is the remembered one with
/// this token. Only a body that passed is remembered; a bad one is parsed, and refused, every time.
struct FCMMessageMemo {
    private static let prefix = Array(#"{"message":{"token":""#.utf8)
    private static let payloadPrefix = Array(#"{"token":""#.utf8)

    /// Bytes after the token's closing quote in the remembered body.
    private var rest: [UInt8] = []
    private var template: FCMMessage?
    /// The device payload of the remembered message after its token's closing quote.
    private var payloadSuffix: [UInt8] = []

    /// The message in `body`, from the memo when it can be, else parsed (and remembered if good).
    mutating func parse(body: [UInt8]) -> Result<FCMMessage, FCMError> {
        let split = Self.token(in: body)
        if let (token, restStart) = split, let template, body.count - restStart == rest.count, sameBytes(body, from: restStart, as: rest) {
            var message = template
            message.target = .token(String(decoding: body[token], as: UTF8.self))
            message.devicePayload = Self.devicePayload(token: body[token], suffix: payloadSuffix)
            return .success(message)
        }
        let parsed = FCMMessage.parse(body: body)
        if case .success(let message) = parsed, let (token, restStart) = split {
            let head = Self.devicePayload(token: body[token], suffix: [])
            if message.devicePayload.starts(with: head) {
                rest = Array(body[restStart...])
                template = message
                payloadSuffix = Array(message.devicePayload[head.count...])
            }
        }
        return parsed
    }

    /// `{"token":"<token>"` followed by `suffix`, in one allocation.
    private static func devicePayload(token: ArraySlice<UInt8>, suffix: [UInt8]) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(payloadPrefix.count + token.count + 1 + suffix.count)
        payload += payloadPrefix
        payload += token
        payload.append(UInt8(ascii: "\""))
        payload += suffix
        return payload
    }

    /// Whether `body` from `start` on holds exactly the bytes of `other`, compared in place.
    private func sameBytes(_ body: [UInt8], from start: Int, as other: [UInt8]) -> Bool {
        body.withUnsafeBytes { b in
            other.withUnsafeBytes { o in b.count - start == o.count && bytesEqual(b.baseAddress! + start, o.baseAddress!, count: o.count) }
        }
    }

    /// The range of the token in a body shaped `{"message":{"token":"<token>"…` and the index just
    /// past the token's closing quote; nil for any other shape or a token that would need escapes.
    private static func token(in body: [UInt8]) -> (Range<Int>, Int)? {
        body.withUnsafeBytes { b -> (Range<Int>, Int)? in
            guard b.count > prefix.count, prefix.withUnsafeBytes({ bytesEqual(b.baseAddress!, $0.baseAddress!, count: $0.count) })
            else { return nil }
            // Eight bytes at a time while none is a quote, a backslash or outside printable ASCII
            // (tokens run to 160 bytes), then byte by byte.
            var i = ByteWord.skipPlainText(in: b, from: prefix.count)
            while i < b.count, b[i] != UInt8(ascii: "\"") {
                guard b[i] >= 0x20, b[i] < 0x7F, b[i] != UInt8(ascii: "\\") else { return nil }
                i += 1
            }
            guard i < b.count, i > prefix.count else { return nil }
            return (prefix.count..<i, i + 1)
        }
    }
}
