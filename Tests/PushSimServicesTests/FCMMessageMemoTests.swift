import Testing
@testable import PushSimServices

@Suite("FCM message memo")
struct FCMMessageMemoTests {
    private func body(token: String, _ rest: String = #""notification":{"title":"Hi"},"android":{"ttl":"60s"}"#) -> [UInt8] {
        Array(#"{"message":{"token":"\#(token)",\#(rest)}}"#.utf8)
    }

    /// Whatever the memo holds, its answer for every body must be the full parser's answer.
    @Test func answersExactlyWhatTheParserAnswersForEveryBody() {
        let bodies: [[UInt8]] = [
            body(token: "aaa:APA91b111"),
            body(token: "bbb:APA91b222"),                                  // same rest: from the memo
            body(token: "ccc:APA91b333", #""data":{"score":1}"#),          // bad data value: refused
            body(token: "ddd:APA91b444"),                                  // memo still holds the good one
            body(token: #"e\"e"#),                                         // escape in the token: parsed in full
            body(token: ""),                                               // empty token: parsed in full
            body(token: "fff:APA91b555", #""topic":"news""#),              // two targets: refused
            body(token: "ggg:APA91b666", #""data":{"k":"v"}"#),            // a new good shape replaces the memo
            body(token: "hhh:APA91b777", #""data":{"k":"v"}"#),
            // Long tokens are scanned eight bytes at a time: a byte needing care anywhere in one
            // sends the body to the full parser.
            body(token: "iii:APA91b" + String(repeating: "k", count: 150)),
            body(token: "jjj:APA91b" + String(repeating: "k", count: 13) + "\t" + "kkkk"),
            body(token: "kkk:APA91b" + String(repeating: "k", count: 17) + "\u{7F}" + "kk"),
            body(token: "lll:APA91b" + String(repeating: "k", count: 20) + "é"),
            body(token: "mmm:APA91b" + String(repeating: "k", count: 9) + #"\\"#),
            Array(#"{"message":{"topic":"news"}}"#.utf8),
            Array("not json".utf8),
        ]
        var memo = FCMMessageMemo()
        for b in bodies {
            let fromMemo = memo.parse(body: b), parsed = FCMMessage.parse(body: b)
            #expect(String(describing: fromMemo) == String(describing: parsed), "\(String(decoding: b, as: UTF8.self))")
        }
    }

    @Test func aCopyFromTheMemoCarriesItsOwnTokenToTheDevice() throws {
        var memo = FCMMessageMemo()
        _ = memo.parse(body: body(token: "first:APA91bx"))
        let second = try memo.parse(body: body(token: "second:APA91by")).get()
        #expect(second.target == .token("second:APA91by"))
        #expect(String(decoding: second.devicePayload, as: UTF8.self).hasPrefix(#"{"token":"second:APA91by","#))
        #expect(second.ttlSeconds == 60)
    }
}
