import PushSimKernel
import PushSimNetwork

/// Reads the registration documents the hub and its SDK client write (``AtomWriter``'s shapes)
/// without building an XML tree, and gives the same description ``AtomRegistration`` reads from
/// the tree. It takes only documents it can read with certainty: printable ASCII throughout, the
/// exact declaration (or none) and start tags the writer uses, text without `&`, `<`, `>` or `]`
/// (no entity to decode, nothing the XML parser treats specially; the addresses it reads past
/// may hold `&amp;`), native descriptions whose fields are simple text elements, and a
/// registration the tree reading would accept. For anything else it
/// answers nil, and the caller parses the document as XML, which then decides (and words any
/// error) exactly as before. So it never answers differently; it answers sooner.
///
/// Contract: where it answers, its description is the one the XML tree reading gives
/// (``AtomRegistration``), for every document the hub and its client write and for seeded
/// variations of them (tested in `RequestFastPathTests.readerAgreesWithTheXMLParser`).
struct AtomReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The description in an entry document, or nil (see the type's rules).
    static func entry(_ body: [UInt8]) -> RegistrationDescription? {
        body.withUnsafeBufferPointer { buffer in
            guard ByteWord.allPrintableASCII(UnsafeRawBufferPointer(buffer)) else { return nil }
            var r = AtomReader(buffer)
            _ = r.literal(Markup.declaration)
            guard let d = r.entry(), r.i == buffer.count else { return nil }
            return d
        }
    }

    /// The descriptions in a feed document, or nil (see the type's rules).
    static func feed(_ body: [UInt8]) -> [RegistrationDescription]? {
        body.withUnsafeBufferPointer { buffer in
            guard ByteWord.allPrintableASCII(UnsafeRawBufferPointer(buffer)) else { return nil }
            var r = AtomReader(buffer)
            _ = r.literal(Markup.declaration)
            guard r.literal(Markup.feedStart), r.literal(Markup.titleStart), r.skipText(),
                  r.literal(Markup.titleEnd), r.literal(Markup.idStart), r.skipEscaped(until: UInt8(ascii: "<")), r.literal(Markup.idEnd),
                  r.literal(Markup.updatedStart), r.skipText(), r.literal(Markup.updatedEnd) else { return nil }
            for link in [Markup.selfLinkStart, Markup.nextLinkStart] where r.literal(link) {
                guard r.skipEscaped(until: UInt8(ascii: "\"")), r.linkEnd() else { return nil }
            }
            var out: [RegistrationDescription] = []
            while !r.literal(Markup.feedEnd) {
                guard let d = r.entry() else { return nil }
                out.append(d)
            }
            return r.i == buffer.count ? out : nil
        }
    }

    /// The markup the reader expects, as bytes.
    private enum Markup {
        static let declaration = Array(AtomRegistration.declaration.utf8)
        static let feedStart = Array("<feed xmlns=\"\(AtomRegistration.atomNamespace)\">".utf8)
        static let feedEnd = Array("</feed>".utf8)
        static let entryStart = Array("<entry xmlns=\"\(AtomRegistration.atomNamespace)\">".utf8)
        /// The start tags of an entry the hub answers, around its ETag's digits, in each answer
        /// shape (``EntryStyle/entryAttributes(etag:inFeed:)``): what precedes the digits, and
        /// what may follow them (on its own, or in a feed, which leaves the Atom namespace to it).
        static let answerEntryHeads: [(start: [UInt8], rests: [[UInt8]])] = {
            var heads: [(start: [UInt8], rests: [[UInt8]])] = []
            for shape in HubAnswerShape.allCases {
                for inFeed in [false, true] {
                    let attributes = EntryStyle(shape: shape, answersWrite: false).entryAttributes(etag: 0, inFeed: inFeed)
                    let start = Array("<entry \(attributes[0].0)=\"W/&quot;".utf8)
                    let rest = Array(("&quot;\"" + attributes.dropFirst().map { " \($0.0)=\"\($0.1)\"" }.joined() + ">").utf8)
                    if let k = heads.firstIndex(where: { $0.start == start }) { heads[k].rests.append(rest) } else { heads.append((start, [rest])) }
                }
            }
            return heads
        }()
        static let idStart = Array("<id>".utf8)
        static let idEnd = Array("</id>".utf8)
        static let titleStart = Array("<title type=\"text\">".utf8)
        static let titleEnd = Array("</title>".utf8)
        static let updatedStart = Array("<updated>".utf8)
        static let updatedEnd = Array("</updated>".utf8)
        static let publishedStart = Array("<published>".utf8)
        static let publishedEnd = Array("</published>".utf8)
        static let selfLinkStart = Array("<link rel=\"self\" href=\"".utf8)
        static let nextLinkStart = Array("<link rel=\"next\" href=\"".utf8)
        static let linkEnd = Array("\"/>".utf8)
        static let spacedLinkEnd = Array("\" />".utf8)
        static let escapedAmpersand = Array("&amp;".utf8)
        static let contentStart = Array("<content type=\"application/xml\"><".utf8)
        /// A description's namespaces, in either order (``EntryStyle/descriptionAttributes``).
        static let descriptionAttributes = HubAnswerShape.allCases.map { shape in
            Array((EntryStyle(shape: shape, answersWrite: false).descriptionAttributes.map { " \($0.0)=\"\($0.1)\"" }.joined() + ">").utf8)
        }
        static let contentEntryEnd = Array("></content></entry>".utf8)
        static let endTagOpen = Array("</".utf8)
        /// The native descriptions' element names and their platforms.
        static let platforms: [([UInt8], RegistrationPlatform)] = RegistrationPlatform.allCases.map { (Array($0.descriptionElement.utf8), $0) }
        static let handleElements: [[UInt8]] = RegistrationPlatform.allCases.map { Array($0.handleElement.utf8) }
        static let tags = Array("Tags".utf8)
        static let registrationID = Array("RegistrationId".utf8)
        static let expirationTime = Array("ExpirationTime".utf8)
        static let etag = Array("ETag".utf8)
        static let pushVariables = Array("PushVariables".utf8)
    }

    /// `<entry xmlns="…">` (a request) or the start tag of an answer in either shape,
    /// `<entry a:etag="W/&quot;n&quot;" xmlns="…" xmlns:a="…">` or `<entry p1:etag="…" xmlns:p1="…"
    /// xmlns="…">` (in a feed without `xmlns="…"`, `p2` for `p1`), optionally `<id>`,
    /// `<title type="text">`, `<published>`, `<updated>` and the `self` link ending `"/>` or `" />`
    /// (as the hub writes them),
    /// `<content type="application/xml">`, one native description, and the ends.
    private mutating func entry() -> RegistrationDescription? {
        if let head = Markup.answerEntryHeads.first(where: { literal($0.start) }) {
            let digits = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > digits, head.rests.contains(where: { literal($0) }) else { return nil }
        } else {
            guard literal(Markup.entryStart) else { return nil }
        }
        if literal(Markup.idStart) {
            guard skipEscaped(until: UInt8(ascii: "<")), literal(Markup.idEnd), literal(Markup.titleStart), skipText(), literal(Markup.titleEnd)
            else { return nil }
            if literal(Markup.publishedStart) { guard skipText(), literal(Markup.publishedEnd) else { return nil } }
            guard literal(Markup.updatedStart), skipText(), literal(Markup.updatedEnd) else { return nil }
            if literal(Markup.selfLinkStart) { guard skipEscaped(until: UInt8(ascii: "\"")), linkEnd() else { return nil } }
        }
        guard literal(Markup.contentStart), let element = name(), Markup.descriptionAttributes.contains(where: { literal($0) }) else { return nil }
        // Native descriptions only (a template one has CDATA and nested headers: the tree reads it).
        // A browser's handle is three checked elements: the tree reads them.
        guard let platform = Markup.platforms.first(where: { same(element, $0.0) })?.1, !platform.handleIsSubscription else { return nil }
        let handleElement = Markup.handleElements[RegistrationPlatform.allCases.firstIndex(of: platform)!]
        // The fields: simple text elements; as the tree's `first(_:)`, the first of a name counts.
        var handle: String?, tags: String?, id: String?, expiration: String?, etag: String?
        while !literal(Markup.endTagOpen) {
            guard literal(UInt8(ascii: "<")), let field = name(), literal(UInt8(ascii: ">")), let value = text(),
                  literal(Markup.endTagOpen), literal(field), literal(UInt8(ascii: ">")) else { return nil }
            if same(field, handleElement) { if handle == nil { handle = value } }
            else if same(field, Markup.tags) { if tags == nil { tags = value } }
            else if same(field, Markup.registrationID) { if id == nil { id = value } }
            else if same(field, Markup.expirationTime) { if expiration == nil { expiration = value } }
            else if same(field, Markup.etag) { if etag == nil { etag = value } }
            // Push variables are JSON the tree reading parses and checks: leave them to it.
            else if same(field, Markup.pushVariables) { return nil }
        }
        guard literal(element), literal(Markup.contentEntryEnd) else { return nil }
        // What the tree reading refuses, it words: leave it to it.
        guard let handle, !handle.isEmpty else { return nil }
        var out = RegistrationDescription(platform: platform, handle: handle, tags: Self.tags(tags ?? ""), registrationID: id)
        out.expirationTime = expiration
        out.etag = etag
        return out
    }

    /// The comma-separated tags, each trimmed of spaces, empty ones dropped (ASCII: bytes are
    /// characters, as in ``AtomRegistration/parseEntry(_:)-(XMLElement)``).
    static func tags(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        // One tag without spaces at its ends (the usual case) is the text itself.
        if text.utf8.first != UInt8(ascii: " "), text.utf8.last != UInt8(ascii: " "), !text.containsByte(where: { $0 == UInt8(ascii: ",") }) {
            return [text]
        }
        return (ASCIIText.split(text, separator: UInt8(ascii: ","), omittingEmpty: true) ?? []).compactMap { piece in
            guard piece.utf8.first == UInt8(ascii: " ") || piece.utf8.last == UInt8(ascii: " ") else { return piece }
            var utf8 = Substring(piece).utf8
            while utf8.first == UInt8(ascii: " ") { utf8.removeFirst() }
            while utf8.last == UInt8(ascii: " ") { utf8.removeLast() }
            return utf8.isEmpty ? nil : String(Substring(utf8))
        }
    }

    // MARK: Scanning

    /// The end of a link: `"/>`, or `" />` as the current service writes it.
    private mutating func linkEnd() -> Bool { literal(Markup.linkEnd) || literal(Markup.spacedLinkEnd) }

    private func same(_ range: Range<Int>, _ lit: [UInt8]) -> Bool {
        range.count == lit.count && lit.withUnsafeBufferPointer { l in
            l.isEmpty || bytesEqual(bytes.baseAddress! + range.lowerBound, l.baseAddress!, count: l.count)
        }
    }

    private mutating func literal(_ lit: [UInt8]) -> Bool {
        guard same(i..<min(bytes.count, i + lit.count), lit) else { return false }
        i += lit.count
        return true
    }

    private mutating func literal(_ b: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == b else { return false }
        i += 1
        return true
    }

    /// The bytes of an earlier name, again here.
    private mutating func literal(_ range: Range<Int>) -> Bool {
        guard bytes.count - i >= range.count else { return false }
        guard range.isEmpty || bytesEqual(bytes.baseAddress! + i, bytes.baseAddress! + range.lowerBound, count: range.count) else { return false }
        i += range.count
        return true
    }

    /// An element name of ASCII letters and digits, starting with a letter: where it is.
    private mutating func name() -> Range<Int>? {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            guard (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (i > start && b >= 0x30 && b <= 0x39) else { break }
            i += 1
        }
        return i > start ? start..<i : nil
    }

    /// Reads past text that is not kept (an address) up to the next `end` (`<` after element
    /// text, `"` in an attribute value), as surely as ``text()``: false when it holds `<`, an `&`
    /// that does not start `&amp;` (what the writer writes for `&`), in element text `>` or `]`,
    /// or the input ends first.
    private mutating func skipEscaped(until end: UInt8) -> Bool {
        let inAttribute = end == UInt8(ascii: "\"")
        let (lt, amp, gt, bracket) = (UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: ">"), UInt8(ascii: "]"))
        while i < bytes.count {
            // Eight bytes at a time while none of them needs a look.
            i = inAttribute ? ByteWord.skipWords(in: UnsafeRawBufferPointer(bytes), from: i, whileNoneOf: end, amp, lt, lt)
                            : ByteWord.skipWords(in: UnsafeRawBufferPointer(bytes), from: i, whileNoneOf: lt, amp, gt, bracket)
            guard i < bytes.count else { break }
            switch bytes[i] {
            case end: return true
            case amp: guard literal(Markup.escapedAmpersand) else { return false }
            case lt: return false
            case gt, bracket: if inAttribute { i += 1 } else { return false }
            default: i += 1
            }
        }
        return false
    }

    /// Text up to the next `<`; nil when it holds `&`, `>` or `]`, or the input ends first.
    private mutating func text() -> String? {
        let start = i
        guard skipText() else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    }

    /// Reads past text that is not kept (a title or a time), as surely as ``text()`` reads it,
    /// without making a string: false where ``text()`` answers nil.
    private mutating func skipText() -> Bool {
        // Eight bytes at a time while none of them can end or spoil the text.
        i = ByteWord.skipWords(in: UnsafeRawBufferPointer(bytes), from: i, whileNoneOf: UInt8(ascii: "<"), UInt8(ascii: "&"),
                               UInt8(ascii: ">"), UInt8(ascii: "]"))
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "<"): return true
            case UInt8(ascii: "&"), UInt8(ascii: ">"), UInt8(ascii: "]"): return false
            default: i += 1
            }
        }
        return false
    }
}
