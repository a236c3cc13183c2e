/// How the hub writes a registration entry or feed: as the service generation it answers as
/// (``HubAnswerShape``) wrote it, and for which kind of answer (NH-JS-REC, NH-DOTNET's recordings).
///
/// | | current (2023) | classic (2018–2022, the REST pages) |
/// |---|---|---|
/// | the ETag attribute of an entry | `p1:etag="W/&quot;n&quot;" xmlns:p1="…"` then `xmlns="…Atom"`; `p2` in a feed | `a:etag="…"`, `xmlns="…Atom"` (not in a feed), `xmlns:a="…"` |
/// | an element without children | `<link … />` | `<link …/>` |
/// | the description's namespaces | `xmlns:i` then `xmlns` | `xmlns` then `xmlns:i` |
/// | a registration that never expires | `9999-12-31T23:59:59.9999999`, `Z` added on reads | `9999-12-31T23:59:59.999`, `Z` added on reads |
struct EntryStyle: Equatable, Sendable {
    /// The service generation.
    var shape: HubAnswerShape
    /// The entry answers a create or an update (the live hub writes a never-expiring time without
    /// `Z` there, and with it on reads and listings).
    var answersWrite: Bool

    /// Entries as the hub reads them back: current shape, a read.
    static let currentRead = EntryStyle(shape: .current, answersWrite: false)
    /// Every combination, for tests that hold the writers to each other.
    static let all = HubAnswerShape.allCases.flatMap { shape in [false, true].map { EntryStyle(shape: shape, answersWrite: $0) } }

    /// The attributes of an entry's start tag, its ETag `W/"n"` included; in a feed the Atom
    /// namespace is left to the feed.
    func entryAttributes(etag: Int, inFeed: Bool) -> [(String, String)] {
        let value = AtomRegistration.weakETag(etag)
        switch shape {
        case .current:
            let prefix = inFeed ? "p2" : "p1"
            return [(prefix + ":etag", value), ("xmlns:" + prefix, AtomRegistration.metadataNamespace)]
                + (inFeed ? [] : [("xmlns", AtomRegistration.atomNamespace)])
        case .classic:
            return [("a:etag", value)] + (inFeed ? [] : [("xmlns", AtomRegistration.atomNamespace)])
                + [("xmlns:a", AtomRegistration.metadataNamespace)]
        }
    }

    /// The namespaces of a registration description's start tag, in the shape's order.
    var descriptionAttributes: [(String, String)] {
        let xsi = ("xmlns:i", AtomRegistration.xsiNamespace), sb = ("xmlns", AtomRegistration.sbNamespace)
        return shape == .current ? [xsi, sb] : [sb, xsi]
    }

    /// Whether an element without children is written `<a />` (else `<a/>`).
    var spaceBeforeEmptyClose: Bool { shape == .current }

    /// How an empty element's tag ends: ` />` or `/>`.
    var emptyClose: String { spaceBeforeEmptyClose ? " />" : "/>" }

    /// `ExpirationTime` of a registration that never expires: .NET's `DateTime.MaxValue` written to
    /// seven decimals (current) or to three (classic), with `Z` on reads and listings only.
    var neverExpires: String {
        (shape == .current ? "9999-12-31T23:59:59.9999999" : "9999-12-31T23:59:59.999") + (answersWrite ? "" : "Z")
    }
}
