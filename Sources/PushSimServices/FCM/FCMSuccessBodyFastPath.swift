import PushSimKernel
import PushSimNetwork

/// FCM's success answer to a send, `{"name":"projects/<project>/messages/<message id>"}` (F-SEND),
/// and the message name in it.
enum FCMSuccessBody {
    /// The plain way: `projects/<project>/messages/<messageID>` and its body, JSON-escaped as needed.
    static func plain(project: String, messageID: String) -> (name: String, body: [UInt8]) {
        let name = String.concatenating("projects/", project, "/messages/", messageID)
        var body = "{\"name\":"
        appendJSONString(name, to: &body)
        body += "}"
        return (name, Array(body.utf8))
    }
}

/// Writes FCM's success body for a new message id, `0:<Unix ms>%<16 hex digits>` (the shape of
/// real FCM ids), as bytes straight into the body, and reads the name back from it: a fan-out
/// makes one per copy, where building strings and escaping cost several times more.
///
/// Contract: for a project id that needs no JSON escaping, ``write(project:milliseconds:random:)``
/// gives what ``FCMSuccessBody/plain(project:messageID:)`` gives for the same id, and draws the
/// same random numbers (tested in `FCMTests`).
enum FCMSuccessBodyFastPath {
    /// The name and body for project `project` (which must need no JSON escaping), at Unix time
    /// `milliseconds`, with 8 random bytes from `random`.
    static func write(project: String, milliseconds: Int64, random: inout SeededRandom) -> (name: String, body: [UInt8]) {
        var body: [UInt8] = []
        body.reserveCapacity(head.count + project.utf8.count + messagesInfix.count + 40)
        body += head
        body.appendUTF8(project)
        body += messagesInfix
        body.appendDecimal(Int(milliseconds))
        body.append(UInt8(ascii: "%"))
        random.appendHex(bytes: 8, to: &body)
        let name = String(decoding: body[nameStart...], as: UTF8.self)
        body.append(UInt8(ascii: "\""))
        body.append(UInt8(ascii: "}"))
        return (name, body)
    }

    private static let head = Array(#"{"name":"projects/"#.utf8)
    /// Where the name starts in the body (after `{"name":"`).
    private static let nameStart = #"{"name":""#.utf8.count
    private static let messagesInfix = Array("/messages/0:".utf8)
}
