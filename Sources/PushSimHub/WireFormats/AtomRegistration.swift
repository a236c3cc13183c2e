import PushSimKernel
import PushSimNetwork

/// The Atom XML the hub's registration REST API speaks (NH-REST, NH-DN495630): a request body is
/// an `<entry>` whose `<content>` holds one `<…RegistrationDescription>`; answers are entries or
/// a `<feed>` of entries. Tags travel as one comma-separated string.
package enum AtomRegistration {
    static let atomNamespace = "http://www.w3.org/2005/Atom"
    static let sbNamespace = "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"
    static let xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"
    /// The namespace of the entry's ETag attribute (`a:etag`, `p1:etag`; ADO.NET Data Services metadata).
    static let metadataNamespace = "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"

    /// The registration's ETag as the entry's ETag attribute (and the classic `ETag` header) carry it: `W/"<n>"`.
    static func weakETag(_ etag: Int) -> String { "W/\"\(etag)\"" }

    /// The request body the SDK sends for create-or-update.
    /// A template registration's `BodyTemplate` travels as CDATA, as the SDK writes it (`CDataMember`).
    public static func requestBody(_ d: RegistrationDescription) -> [UInt8] {
        if let bytes = writeRequestBody(d) { return bytes }
        return requestBodyTree(d)
    }

    /// ``requestBody(_:)`` built as an `XMLElement` tree: the reference ``AtomWriter`` matches,
    /// and the path of template registrations.
    static func requestBodyTree(_ d: RegistrationDescription) -> [UInt8] {
        var fields: [XMLNode] = []
        if !d.tags.isEmpty { fields.append(.element(textElement("Tags", d.tags.joined(separator: ",")))) }
        if !d.pushVariables.isEmpty { fields.append(.element(textElement("PushVariables", PushVariables.json(d.pushVariables)))) }
        fields += handleFields(d.platform, d.handle).map { .element(textElement($0.0, $0.1)) }
        if let t = d.template { fields += templateFields(t, platform: d.platform, body: cdataMarker) }
        let entry = XMLElement(name: "entry", attributes: [("xmlns", atomNamespace)], children: [
            .element(XMLElement(name: "content", attributes: [("type", "application/xml")], children: [.element(description(d.descriptionElement, fields))])),
        ])
        var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>" + entry.serialized()
        if let t = d.template { text = bodyAsCDATA(text, body: t.bodyTemplate) }
        return Array(text.utf8)
    }

    /// Stands in for a template's body in a tree, for ``bodyAsCDATA(_:body:)`` to replace.
    static let cdataMarker = "\u{1}PUSHSIM-BODY-TEMPLATE\u{1}"

    /// `serialized` with ``cdataMarker`` replaced by `body` as CDATA, as the SDK writes a template's
    /// body and the live hub gives it back (NH-DOTNET `CDataMember` and its recordings). `]]>`
    /// cannot stand inside one CDATA section: it is split across two.
    static func bodyAsCDATA(_ serialized: String, body: String) -> String {
        serialized.replacing(cdataMarker, with: "<![CDATA[" + body.replacing("]]>", with: "]]]]><![CDATA[>") + "]]>")
    }

    /// `BodyTemplate`, `WnsHeaders` (Windows, when there are some), `Expiry` (Apple: `i:nil` when
    /// none), `TemplateName` and `ApnsHeaders` (Apple: empty when none), in the SDK's DataMember
    /// order. The SDK writes an Apple template's missing `Expiry` as `<Expiry i:nil="true"/>` and its
    /// headers as `<ApnsHeaders/>` when there are none, and the live hub answers so, also for the
    /// template registrations it makes of installations (NH-DOTNET `AppleTemplateRegistrationDescription`
    /// and its recordings).
    static func templateFields(_ t: RegistrationTemplate, platform: RegistrationPlatform, body: String) -> [XMLNode] {
        var fields: [XMLNode] = [.element(textElement("BodyTemplate", body))]
        if !t.wnsHeaders.isEmpty { fields.append(.element(headerList("WnsHeaders", item: "WnsHeader", t.wnsHeaders))) }
        if let e = t.expiry {
            fields.append(.element(textElement("Expiry", e)))
        } else if platform == .apple {
            fields.append(.element(XMLElement(name: "Expiry", attributes: [("i:nil", "true")])))
        }
        if let name = t.templateName { fields.append(.element(textElement("TemplateName", name))) }
        if platform == .apple { fields.append(.element(headerList("ApnsHeaders", item: "ApnsHeader", t.apnsHeaders))) }
        return fields
    }

    /// The elements that carry a registration's handle, in order: the platform's one
    /// ``RegistrationPlatform/handleElement``, or a browser's `Endpoint`, `P256DH` and `Auth` (the
    /// order of NH-JAVA `BrowserRegistration` and NH-BROWSER's body), read out of the stored
    /// ``BrowserPushChannel/pnsHandle`` (a handle that is none is written as it is, in `Endpoint`).
    static func handleFields(_ platform: RegistrationPlatform, _ handle: String) -> [(String, String)] {
        guard platform.handleIsSubscription else { return [(platform.handleElement, handle)] }
        guard let channel = try? BrowserPushChannel(pnsHandle: handle) else { return [(platform.handleElement, handle)] }
        return [("Endpoint", channel.endpoint), ("P256DH", channel.p256dh), ("Auth", channel.auth)]
    }

    /// The handle a description `d` carries: its ``RegistrationPlatform/handleElement``'s text, or
    /// for a browser the ``BrowserPushChannel/pnsHandle`` of its three checked elements.
    static func readHandle(_ platform: RegistrationPlatform, of d: XMLElement) -> Result<String, AtomProblem> {
        guard platform.handleIsSubscription else {
            guard let handle = d.first(platform.handleElement)?.text, !handle.isEmpty else {
                return .failure(AtomProblem("The \(platform.handleElement) of the registration is missing."))
            }
            return .success(handle)
        }
        var parts: [String] = []
        for name in ["Endpoint", "P256DH", "Auth"] {
            guard let text = d.first(name)?.text, !text.isEmpty else {
                return .failure(AtomProblem("The \(name) of the registration is missing."))
            }
            parts.append(text)
        }
        do {
            return .success(try BrowserPushChannel(endpoint: parts[0], p256dh: parts[1], auth: parts[2]).pnsHandle)
        } catch {
            return .failure(AtomProblem(error.description))
        }
    }

    /// `<WnsHeaders><WnsHeader><Header>…</Header><Value>…</Value></WnsHeader>…</WnsHeaders>` (and
    /// likewise `ApnsHeaders`): the SDK's header collections (`CollectionDataContract`, NH-DOTNET).
    private static func headerList(_ name: String, item: String, _ headers: [TemplateHeader]) -> XMLElement {
        XMLElement(name: name, children: headers.map { h in
            .element(XMLElement(name: item, children: [.element(textElement("Header", h.name)), .element(textElement("Value", h.value))]))
        })
    }

    /// The headers of a `WnsHeaders` or `ApnsHeaders` element, in order.
    private static func headers(in list: XMLElement?) -> [TemplateHeader] {
        list?.elements.map { TemplateHeader($0.first("Header")?.text ?? "", $0.first("Value")?.text ?? "") } ?? []
    }

    /// One stored registration as an Atom entry, as the hub answers it in `style`: its ETag is in
    /// the entry's ETag attribute (`W/"n"`) and in the description's `<ETag>` (`n`), and, in the
    /// classic shape, in the answer's `ETag` header. Its `id` and `self` link are its address
    /// (``EntryAddress``), `published` when it was created and `updated` when last written. An
    /// entry in a feed leaves the Atom namespace to the feed (`inFeed`), as the live hub writes it
    /// (NH-DOTNET's and NH-JS-REC's recordings). `templateBody`: what stands for a template
    /// registration's body (its source when nil; ``cdataMarker`` for the writer to put it in as CDATA).
    static func entry(_ r: StoredRegistration, address: EntryAddress, anchor: CalendarAnchor, inFeed: Bool = false,
                      templateBody: String? = nil, style: EntryStyle = .currentRead) -> XMLElement {
        var fields: [XMLNode] = []
        fields.append(.element(textElement("ETag", String(r.etag))))
        fields.append(.element(textElement("ExpirationTime", r.expiresAt.map { anchor.iso8601($0) } ?? style.neverExpires)))
        fields.append(.element(textElement("RegistrationId", r.id)))
        if !r.tags.isEmpty { fields.append(.element(textElement("Tags", r.tags.joined(separator: ",")))) }
        if !r.pushVariables.isEmpty { fields.append(.element(textElement("PushVariables", PushVariables.json(r.pushVariables)))) }
        fields += handleFields(r.platform, r.handle).map { .element(textElement($0.0, $0.1)) }
        var element = r.platform.descriptionElement
        if let t = r.template {
            let apple = r.platform == .apple
            let template = RegistrationTemplate(bodyTemplate: t.compiled.source, templateName: t.name, wnsHeaders: apple ? [] : t.sourceHeaders,
                                                expiry: t.expiry, apnsHeaders: apple ? t.sourceHeaders : [])
            fields += templateFields(template, platform: r.platform, body: templateBody ?? t.compiled.source)
            element = element.replacing("RegistrationDescription", with: "TemplateRegistrationDescription")
        }
        let url = address.url(of: r.id)
        return XMLElement(name: "entry", attributes: style.entryAttributes(etag: r.etag, inFeed: inFeed), children: [
            .element(XMLElement(name: "id", children: [.text(url)])),
            .element(XMLElement(name: "title", attributes: [("type", "text")], children: [.text(r.id)])),
            .element(XMLElement(name: "published", children: [.text(anchor.iso8601(r.created))])),
            .element(XMLElement(name: "updated", children: [.text(anchor.iso8601(r.updatedAt))])),
            .element(XMLElement(name: "link", attributes: [("rel", "self"), ("href", url)])),
            .element(XMLElement(name: "content", attributes: [("type", "application/xml")],
                                children: [.element(XMLElement(name: element, attributes: style.descriptionAttributes, children: fields))])),
        ])
    }

    /// A feed of entries (a listing: all, by handle, by tag), as the live hub writes it: no XML
    /// declaration, `id` and `self` link the listing's own address `url`, then the `next` link when
    /// there is a next page (NH-DOTNET's recordings), empty elements closed as `style` closes them.
    static func feed(_ entries: [XMLElement], url: String, updated: String, next: String? = nil, style: EntryStyle = .currentRead) -> String {
        let nextLink: [XMLNode] = next.map { [.element(XMLElement(name: "link", attributes: [("rel", "next"), ("href", $0)]))] } ?? []
        let feed = XMLElement(name: "feed", attributes: [("xmlns", atomNamespace)], children: [
            .element(XMLElement(name: "title", attributes: [("type", "text")], children: [.text("Registrations")])),
            .element(XMLElement(name: "id", children: [.text(url)])),
            .element(XMLElement(name: "updated", children: [.text(updated)])),
            .element(XMLElement(name: "link", attributes: [("rel", "self"), ("href", url)])),
        ] + nextLink + entries.map { .element($0) })
        return feed.serialized(spaceBeforeEmptyClose: style.spaceBeforeEmptyClose)
    }

    /// Reads the description out of an entry. The error says what is wrong, as the hub's 400 does.
    public static func parseEntry(_ entry: XMLElement) -> Result<RegistrationDescription, AtomProblem> {
        guard entry.name == "entry" || entry.name.hasSuffix(":entry") else { return .failure(AtomProblem("The request body is not an Atom entry.")) }
        guard let content = entry.first("content"), let d = content.elements.first else {
            return .failure(AtomProblem("The Atom entry has no content."))
        }
        let local = d.name.split(separator: ":").last.map(String.init) ?? d.name
        let isTemplate = local.hasSuffix("TemplateRegistrationDescription")
        let native = isTemplate ? local.replacing("TemplateRegistrationDescription", with: "RegistrationDescription") : local
        guard let platform = RegistrationPlatform(descriptionElement: native) else {
            return .failure(AtomProblem("Unknown registration description '\(local)'."))
        }
        let handle: String
        switch readHandle(platform, of: d) {
        case .failure(let problem): return .failure(problem)
        case .success(let h): handle = h
        }
        let tagText = d.first("Tags")?.text ?? ""
        let tags = tagText.split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
        var out = RegistrationDescription(platform: platform, handle: handle, tags: tags,
                                          registrationID: d.first("RegistrationId")?.text)
        out.expirationTime = d.first("ExpirationTime")?.text
        out.etag = d.first("ETag")?.text
        if let text = d.first("PushVariables")?.text {
            guard let variables = PushVariables.parse(text) else {
                return .failure(AtomProblem("The PushVariables of the registration must be a JSON object of strings."))
            }
            out.pushVariables = variables
        }
        if isTemplate {
            guard let body = d.first("BodyTemplate")?.text, !body.isEmpty else {
                return .failure(AtomProblem("The BodyTemplate of the template registration is missing."))
            }
            // `i:nil="true"` is the SDK's null (DataContractSerializer).
            let expiry = d.first("Expiry").flatMap { $0.attribute("i:nil") == "true" ? nil : $0.text }
            out.template = RegistrationTemplate(bodyTemplate: body, templateName: d.first("TemplateName")?.text,
                                                wnsHeaders: headers(in: d.first("WnsHeaders")), expiry: expiry,
                                                apnsHeaders: platform == .apple ? headers(in: d.first("ApnsHeaders")) : [])
        }
        return .success(out)
    }

    /// Reads one registration entry (a request body or the hub's answer), through ``AtomReader``
    /// when it can and the XML parser otherwise; the failure is worded as the hub's 400 detail.
    public static func parseEntry(_ body: [UInt8]) -> Result<RegistrationDescription, AtomProblem> {
        if let d = AtomReader.entry(body) { return .success(d) }
        return parseEntryTree(body)
    }

    /// ``parseEntry(_:)-([UInt8])`` through the XML parser: the reference ``AtomReader`` agrees
    /// with, and the path of every document it leaves.
    static func parseEntryTree(_ body: [UInt8]) -> Result<RegistrationDescription, AtomProblem> {
        guard let doc = try? XMLDocumentParser.parse(body) else { return .failure(AtomProblem("The request body is not well-formed XML.")) }
        return parseEntry(doc.root)
    }

    /// The entries of a feed.
    public static func parseFeed(_ body: [UInt8]) -> [RegistrationDescription]? {
        if let found = AtomReader.feed(body) { return found }
        return parseFeedTree(body)
    }

    /// ``parseFeed(_:)`` through the XML parser (the reference, and the path of what ``AtomReader`` leaves).
    static func parseFeedTree(_ body: [UInt8]) -> [RegistrationDescription]? {
        guard let doc = try? XMLDocumentParser.parse(body), doc.root.name == "feed" else { return nil }
        return doc.root.elements.filter { $0.name == "entry" }.compactMap { try? parseEntry($0).get() }
    }

    /// The hub's error body: `<Error><Code>…</Code><Detail>…</Detail></Error>` (NH-DOTNET).
    public static func errorBody(code: Int, detail: String) -> String {
        XMLElement(name: "Error", children: [.element(textElement("Code", String(code))), .element(textElement("Detail", detail))]).serialized()
    }

    private static func description(_ element: String, _ fields: [XMLNode]) -> XMLElement {
        XMLElement(name: element, attributes: [("xmlns:i", xsiNamespace), ("xmlns", sbNamespace)], children: fields)
    }

    private static func textElement(_ name: String, _ text: String) -> XMLElement {
        XMLElement(name: name, children: [.text(text)])
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// Why an Atom body could not be read, in the words of the hub's 400 detail.
public struct AtomProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    /// A problem worded as `description`.
    public init(_ description: String) { self.description = description }
}
