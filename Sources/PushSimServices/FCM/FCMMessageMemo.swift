import PushSimKernel

/// The last `messages:send` body FCM accepted, kept so that the copies of one send (a hub fanning
/// out to a million devices) are parsed once: they differ only in `message.token`.
///
/// A body is recognised as such a copy when it starts `{"message":{"token":"<token>"`, with a
/// token of printable ASCII that needs no JSON escape, and the bytes after the token are exactly
/// those of the remembered body. The JSON around the token is then the same, so the checks
/// (Citations §2.1–§2.2) give the same answer, and the message is the remembered one with
/// this token. Only a body that passed is remembered; a bad one is parsed, and refused, every time.
///
/// Contract: for every body, the memo answers exactly what `FCMMessage`'s full parser and checks
/// answer (tested in `FCMMessageMemoTests.answersExactlyWhatTheParserAnswersForEveryBody`).
struct FCMMessageMemo {
    private static let prefix = Array(#"{"message":{"token":""#.utf8)
    private static let payloadPrefix = Array(#"{"token":""#.utf8)

    // The last good message and its body are kept as they are: remembering copies nothing,
    // since most bodies a push service sees are not copies of the one before (each message of a
    // targeted send differs), and a copy that is never used again is pure cost.

    /// The last good message whose body had the token first.
    private var template: FCMMessage?
    /// The body `template` was parsed from, and where its bytes after the token start.
    private var templateBody: [UInt8] = [], templateRestStart = 0
    /// The length of `{"token":"<token>"` at the start of the template's device payload.
    private var payloadHead = 0

    /// The message in `body`, from the memo when it can be, else parsed (and remembered if good).
    mutating func parse(body: [UInt8]) -> Result<FCMMessage, FCMError> {
        let split = Self.token(in: body)
        if let (token, restStart) = split, let template, body.count - restStart == templateBody.count - templateRestStart,
           Self.sameBytes(body, from: restStart, as: templateBody, from: templateRestStart, count: body.count - restStart) {
            var message = template
            message.target = .token(String(decoding: body[token], as: UTF8.self))
            message.devicePayload = Self.devicePayload(token: body[token], suffix: template.devicePayload[payloadHead...])
            return .success(message)
        }
        let parsed = FCMMessage.parse(body: body)
        if case .success(let message) = parsed, let (token, restStart) = split {
            // The device payload must start `{"token":"<token>"` for a copy's payload to be this
            // one with the copy's token in its place.
            let payload = message.devicePayload, headCount = Self.payloadPrefix.count + token.count + 1
            if Self.sameBytes(payload, from: 0, as: Self.payloadPrefix, from: 0, count: Self.payloadPrefix.count),
               Self.sameBytes(payload, from: Self.payloadPrefix.count, as: body, from: token.lowerBound, count: token.count),
               payload.count >= headCount, payload[headCount - 1] == UInt8(ascii: "\"") {
                (template, templateBody, templateRestStart, payloadHead) = (message, body, restStart, headCount)
            }
        }
        return parsed
    }

    /// `{"token":"<token>"` followed by `suffix`, in one allocation.
    private static func devicePayload(token: ArraySlice<UInt8>, suffix: ArraySlice<UInt8>) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(payloadPrefix.count + token.count + 1 + suffix.count)
        payload += payloadPrefix
        payload += token
        payload.append(UInt8(ascii: "\""))
        payload += suffix
        return payload
    }

    /// Whether the `count` bytes of `a` from `aStart` and of `b` from `bStart` are the same (false
    /// when either array is shorter), compared in place.
    private static func sameBytes(_ a: [UInt8], from aStart: Int, as b: [UInt8], from bStart: Int, count n: Int) -> Bool {
        guard n >= 0, aStart >= 0, bStart >= 0, aStart + n <= a.count, bStart + n <= b.count else { return false }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in n == 0 || bytesEqual(a.baseAddress! + aStart, b.baseAddress! + bStart, count: n) } }
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
