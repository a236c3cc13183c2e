import PushSimKernel
import PushSimNetwork

/// Writes the hub's Atom documents straight to bytes, exactly as building them as `XMLElement`
/// trees and serializing them does (`AtomRegistration`'s element builders stay the reference: the
/// tests compare both for every kind of document and for text that needs escaping). It spares the
/// trees, their arrays and strings on every registration request and answer.
///
/// The rules are `XMLElement`'s: names are written as given; text escapes `&`, `<`, `>` and CR
/// (`&#13;`); attribute values also `"`, tab (`&#9;`) and LF (`&#10;`); an element with children
/// (a text child counts, even an empty one) is written `<a>…</a>`.
struct AtomWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    /// Appends markup as it is.
    mutating func raw(_ text: String) { bytes.appendUTF8(text) }

    /// Appends a time as ``CalendarAnchor/iso8601(unixSeconds:)`` writes it (digits, `-`, `:`,
    /// `.`, `T`, `Z`): nothing in it needs an escape, so it is copied as it is.
    mutating func timeText(_ text: String) {
        assert(!text.containsByte(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == 0x0D }),
               "a time text with a byte to escape: \(text)")
        bytes.appendUTF8(text)
    }

    /// Appends markup already written as bytes.
    mutating func raw(_ markup: [UInt8]) { bytes.append(contentsOf: markup) }

    /// Appends `text` escaped for element content or, with `attribute`, a `"`-quoted value.
    mutating func escaped(_ text: String, attribute: Bool = false) {
        if text.utf8.withContiguousStorageIfAvailable({ XMLEscaping.append($0, to: &bytes, attribute: attribute) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { XMLEscaping.append($0, to: &bytes, attribute: attribute) }
        }
    }

    /// Appends again, as an attribute value, `text` that was escaped as element text into
    /// `written`: a copy of those bytes when they read the same there (no `"`, tab or line feed,
    /// which only attributes escape), else `text` escaped anew. An entry's address stands twice.
    mutating func repeatAsAttribute(_ written: Range<Int>, text: String) {
        let same = bytes.withUnsafeBufferPointer { b in
            !b[written].contains { $0 == UInt8(ascii: "\"") || $0 == 0x09 || $0 == 0x0A }
        }
        guard same else { return escaped(text, attribute: true) }
        // Copied out first: appending a slice of the array itself would copy the whole document
        // (the slice shares its storage), once per entry of a feed.
        let copy = Array(bytes[written])
        bytes.append(contentsOf: copy)
    }

    /// `<name>text</name>`, the text escaped.
    mutating func textElement(_ name: String, _ text: String) {
        bytes.append(UInt8(ascii: "<"))
        raw(name)
        bytes.append(UInt8(ascii: ">"))
        escaped(text)
        close(name)
    }

    /// `<name a="v" …>` (the element must get children, then ``close(_:)``).
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        start(name, attributes)
        bytes.append(UInt8(ascii: ">"))
    }

    /// `<name a="v" …/>` (or `… />` with `spaceBeforeClose`): an element without children.
    mutating func empty(_ name: String, _ attributes: [(String, String)], spaceBeforeClose: Bool = false) {
        start(name, attributes)
        if spaceBeforeClose { bytes.append(UInt8(ascii: " ")) }
        bytes.append(UInt8(ascii: "/"))
        bytes.append(UInt8(ascii: ">"))
    }

    /// `<name a="v" …`, the start of a tag.
    private mutating func start(_ name: String, _ attributes: [(String, String)]) {
        bytes.append(UInt8(ascii: "<"))
        raw(name)
        for (n, v) in attributes {
            bytes.append(UInt8(ascii: " "))
            raw(n)
            bytes.append(UInt8(ascii: "="))
            bytes.append(UInt8(ascii: "\""))
            escaped(v, attribute: true)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// `</name>`
    mutating func close(_ name: String) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        raw(name)
        bytes.append(UInt8(ascii: ">"))
    }

    /// An element built as a tree (what has no direct writer, e.g. a template registration's fields).
    mutating func element(_ e: XMLElement) { raw(e.serialized()) }
}

extension AtomRegistration {
    static let declaration = "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
    /// The start tag of every registration description in a request: `<… xmlns:i="…" xmlns="…">` after the name.
    private static var descriptionAttributes: [(String, String)] { [("xmlns:i", xsiNamespace), ("xmlns", sbNamespace)] }

    /// The create-or-update request body of a native registration (what ``requestBody(_:)`` writes
    /// for one); nil for a template registration, whose body takes the tree path (CDATA), and for a
    /// browser's, whose handle is three elements.
    static func writeRequestBody(_ d: RegistrationDescription) -> [UInt8]? {
        guard d.template == nil, !d.platform.handleIsSubscription else { return nil }
        let code = Int(d.platform.storageCode)
        var w = AtomWriter(capacity: 384 + d.handle.utf8.count)
        w.raw(RequestMarkup.heads[code])
        if !d.tags.isEmpty { w.textElement("Tags", d.tags.joined(separator: ",")) }
        if !d.pushVariables.isEmpty { w.textElement("PushVariables", PushVariables.json(d.pushVariables)) }
        w.textElement(d.platform.handleElement, d.handle)
        w.raw(RequestMarkup.tails[code])
        return w.bytes
    }

    /// A native request body's markup before and after its fields, per platform (by storage code),
    /// made once with the writer's own functions.
    private enum RequestMarkup {
        static let platforms = RegistrationPlatform.allCases.sorted { $0.storageCode < $1.storageCode }
        static let heads: [[UInt8]] = platforms.map { platform in
            EntryMarkup.make {
                $0.raw(declaration)
                $0.open("entry", [("xmlns", atomNamespace)])
                $0.open("content", [("type", "application/xml")])
                $0.open(platform.descriptionElement, descriptionAttributes)
            }
        }
        static let tails: [[UInt8]] = platforms.map { platform in
            EntryMarkup.make { $0.close(platform.descriptionElement); $0.close("content"); $0.close("entry") }
        }
    }

    /// Markup the entry writer appends as it is, made once per answer shape with the writer's own
    /// functions (``EntryStyle`` says what differs).
    fileprivate struct EntryMarkup {
        static func make(_ build: (inout AtomWriter) -> Void) -> [UInt8] {
            var w = AtomWriter(capacity: 256)
            build(&w)
            return w.bytes
        }
        static let current = EntryMarkup(.current)
        static let classic = EntryMarkup(.classic)
        static func of(_ shape: HubAnswerShape) -> EntryMarkup { shape == .current ? current : classic }

        /// The entry's start tag up to the ETag's digits (`<entry p1:etag="W/&quot;`), and from them
        /// to `<id>`, on its own and in a feed.
        let headStart: [UInt8]
        let headEnd: [UInt8]
        let headStartInFeed: [UInt8]
        let headEndInFeed: [UInt8]
        let idToTitle = make { $0.raw("</id>"); $0.open("title", [("type", "text")]) }
        let titleToPublished = make { $0.close("title"); $0.raw("<published>") }
        let publishedToUpdated = make { $0.raw("</published><updated>") }
        let updatedToLink = make { $0.raw("</updated><link rel=\"self\" href=\"") }
        let linkToContent: [UInt8]
        /// Per platform (by storage code): the description's name, its attributes and `<ETag>`.
        let descriptionToETag: [[UInt8]]
        let etagToExpiration = make { $0.close("ETag"); $0.raw("<ExpirationTime>") }
        let expirationToID = make { $0.close("ExpirationTime"); $0.raw("<RegistrationId>") }
        let idEndTag = make { $0.close("RegistrationId") }
        /// Per platform: the handle's start tag, and what follows the handle to the entry's end.
        let handleStart: [[UInt8]] = RequestMarkup.platforms.map { platform in
            make { $0.raw("<"); $0.raw(platform.handleElement); $0.raw(">") }
        }
        let handleToEnds: [[UInt8]] = RequestMarkup.platforms.map { platform in
            make { $0.close(platform.handleElement); $0.close(platform.descriptionElement); $0.close("content"); $0.close("entry") }
        }

        private init(_ shape: HubAnswerShape) {
            let style = EntryStyle(shape: shape, answersWrite: false)
            // The ETag attribute comes first in both shapes: what precedes its value, and what follows.
            func head(inFeed: Bool) -> (start: [UInt8], end: [UInt8]) {
                let attributes = style.entryAttributes(etag: 0, inFeed: inFeed)
                let start = Self.make { $0.raw("<entry " + attributes[0].0 + "=\""); $0.escaped("W/\"", attribute: true) }
                let end = Self.make {
                    $0.escaped("\"", attribute: true); $0.raw("\"")
                    for (n, v) in attributes.dropFirst() { $0.raw(" " + n + "=\""); $0.escaped(v, attribute: true); $0.raw("\"") }
                    $0.raw("><id>")
                }
                return (start, end)
            }
            (headStart, headEnd) = head(inFeed: false)
            (headStartInFeed, headEndInFeed) = head(inFeed: true)
            linkToContent = Self.make { $0.raw("\"" + style.emptyClose); $0.open("content", [("type", "application/xml")]); $0.raw("<") }
            let descriptionAttributes = Self.make {
                for (n, v) in style.descriptionAttributes { $0.raw(" " + n + "=\""); $0.escaped(v, attribute: true); $0.raw("\"") }
                $0.raw(">")
            }
            descriptionToETag = RequestMarkup.platforms.map { platform in
                Self.make { $0.raw(platform.descriptionElement); $0.raw(descriptionAttributes); $0.raw("<ETag>") }
            }
        }
    }

    /// Appends one stored registration as an Atom entry in `style`: what `entry(r, …).serialized()`
    /// gives, with `published`, `updated` and `expiration` the texts of `r.created`, `r.updatedAt`
    /// and of its expiry (or the style's never-expiring time), as `CalendarAnchor.iso8601` writes them.
    static func writeEntry(_ r: StoredRegistration, address: EntryAddress, inFeed: Bool, style: EntryStyle,
                           published: String, updated: String, expiration: String, to w: inout AtomWriter) {
        let m = EntryMarkup.of(style.shape)
        let url = address.url(of: r.id)
        w.raw(inFeed ? m.headStartInFeed : m.headStart)
        w.raw(String(r.etag))
        w.raw(inFeed ? m.headEndInFeed : m.headEnd)
        let urlStart = w.bytes.count
        w.escaped(url)
        let urlEnd = w.bytes.count
        w.raw(m.idToTitle)
        w.escaped(r.id)
        w.raw(m.titleToPublished)
        w.timeText(published)
        w.raw(m.publishedToUpdated)
        w.timeText(updated)
        w.raw(m.updatedToLink)
        w.repeatAsAttribute(urlStart..<urlEnd, text: url)
        w.raw(m.linkToContent)
        let code = Int(r.platform.storageCode)
        w.raw(m.descriptionToETag[code])
        w.raw(String(r.etag))
        w.raw(m.etagToExpiration)
        w.timeText(expiration)
        w.raw(m.expirationToID)
        w.escaped(r.id)
        w.raw(m.idEndTag)
        if !r.tags.isEmpty { w.textElement("Tags", r.tags.joined(separator: ",")) }
        if !r.pushVariables.isEmpty { w.textElement("PushVariables", PushVariables.json(r.pushVariables)) }
        w.raw(m.handleStart[code])
        w.escaped(r.handle)
        w.raw(m.handleToEnds[code])
    }

    /// Appends one stored registration as an Atom entry in `style`, its times written by `time`
    /// (the hub passes a ``TimeTextMemo``'s); a template registration is built as a tree.
    static func writeEntry(_ r: StoredRegistration, address: EntryAddress, inFeed: Bool, anchor: CalendarAnchor, style: EntryStyle,
                           to w: inout AtomWriter, time: (VirtualTime) -> String) {
        if r.platform.handleIsSubscription, r.template == nil {
            // A browser's handle is three elements: built as a tree (no fast path for them).
            let tree = entry(r, address: address, anchor: anchor, inFeed: inFeed, style: style)
            return w.raw(tree.serialized(spaceBeforeEmptyClose: style.spaceBeforeEmptyClose))
        }
        if let t = r.template {
            // A template registration is built as a tree, its body put in as CDATA, as the live hub answers.
            let tree = entry(r, address: address, anchor: anchor, inFeed: inFeed, templateBody: cdataMarker, style: style)
                .serialized(spaceBeforeEmptyClose: style.spaceBeforeEmptyClose)
            return w.raw(bodyAsCDATA(tree, body: t.compiled.source))
        }
        writeEntry(r, address: address, inFeed: inFeed, style: style, published: time(r.created), updated: time(r.updatedAt),
                   expiration: r.expiresAt.map(time) ?? style.neverExpires, to: &w)
    }

    /// A whole entry document as the hub answers it in `style`: the entry alone, without an XML
    /// declaration, as the live hub answers (NH-DOTNET's and NH-JS-REC's recordings).
    static func entryDocument(_ r: StoredRegistration, address: EntryAddress, anchor: CalendarAnchor, style: EntryStyle = .currentRead,
                              time: (VirtualTime) -> String) -> [UInt8] {
        var w = AtomWriter(capacity: 768 + r.handle.utf8.count + 2 * address.collection.utf8.count)
        writeEntry(r, address: address, inFeed: false, anchor: anchor, style: style, to: &w, time: time)
        return w.bytes
    }

    /// A feed document of registrations in `style`: what `feed(entries.map { entry($0, inFeed: true) }, …)`
    /// gives. `url`: the listing's own address; `next`: the address of the next page, written as
    /// `<link rel="next" href="…"/>` after the `self` link when there is one.
    static func feedDocument(_ registrations: [StoredRegistration], url: String, address: EntryAddress, anchor: CalendarAnchor,
                             updated: String, next: String? = nil, style: EntryStyle = .currentRead,
                             time: (VirtualTime) -> String) -> [UInt8] {
        var w = AtomWriter(capacity: 320 + (768 + 2 * url.utf8.count) * registrations.count)
        w.open("feed", [("xmlns", atomNamespace)])
        w.open("title", [("type", "text")])
        w.raw("Registrations")
        w.close("title")
        w.raw("<id>")
        let urlStart = w.bytes.count
        w.escaped(url)
        let urlEnd = w.bytes.count
        w.raw("</id>")
        w.textElement("updated", updated)
        // `<link rel="self" href="…"/>`, the address escaped once for both.
        w.raw("<link rel=\"self\" href=\"")
        w.repeatAsAttribute(urlStart..<urlEnd, text: url)
        w.raw("\"" + style.emptyClose)
        if let next { w.empty("link", [("rel", "next"), ("href", next)], spaceBeforeClose: style.spaceBeforeEmptyClose) }
        for r in registrations { writeEntry(r, address: address, inFeed: true, anchor: anchor, style: style, to: &w, time: time) }
        w.close("feed")
        return w.bytes
    }

    /// The hub's error body (what ``errorBody(code:detail:)`` gives), as bytes.
    static func errorDocument(code: Int, detail: String) -> [UInt8] {
        var w = AtomWriter(capacity: 64 + detail.utf8.count)
        w.open("Error")
        w.textElement("Code", String(code))
        w.textElement("Detail", detail)
        w.close("Error")
        return w.bytes
    }
}

/// The hub's memory of the last few times it wrote as text (`yyyy-MM-ddTHH:mm:ssZ`), by Unix
/// second: the registration answers of one second share their `published` and `updated` times.
/// The text is `CalendarAnchor.iso8601`'s; the memo only spares writing it again.
struct TimeTextMemo {
    static let capacity = 4
    private var memo = RecentMemo<Int64, String>(capacity: capacity)

    /// `anchor.iso8601(t)`.
    mutating func text(_ t: VirtualTime, anchor: CalendarAnchor) -> String {
        memo.value(for: anchor.unixSeconds(t)) { CalendarAnchor.iso8601(unixSeconds: $0) }
    }
}
