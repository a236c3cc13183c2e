import PushSimNetwork

/// What PushSim's service worker shows for a decrypted push message: the page's code decides
/// this in real life (`self.registration.showNotification(title, {body})` in its `push` event
/// handler, W3C Push API and Notifications API), so PushSim fixes one simple convention a
/// scenario can rely on:
///
/// - the text is a JSON object with a string `title` and/or a string `body`: the notification
///   reads `<title>: <body>`, or the one of them given;
/// - anything else (plain text, other JSON, text that is not UTF-8 is read with replacement
///   characters): the notification reads the text as it is.
///
/// An empty message (a push with no data, RFC 8030 section 5) shows nothing: the page has no
/// data to show (the browser's own fallback notification is not modelled).
public enum WebPushShownText {
    /// The notification text for a decrypted message `plaintext`; nil for an empty one.
    public static func text(of plaintext: [UInt8]) -> String? {
        guard !plaintext.isEmpty else { return nil }
        let text = String(decoding: plaintext, as: UTF8.self)
        guard let json = try? JSONParser.parse(plaintext) else { return text }
        let title = json["title"]?.stringValue, body = json["body"]?.stringValue
        switch (title, body) {
        case (let t?, let b?): return t + ": " + b
        case (let t?, nil): return t
        case (nil, let b?): return b
        case (nil, nil): return text
        }
    }
}
