import PushSimKernel
import PushSimNetwork

/// Where the hub says a registration it answers with lives: each entry's `id` and `self` link.
///
/// The live hub writes them as the address the entry was read under: the collection the request
/// named (`…/registrations`, or `…/tags/<tag>/registrations` for a listing by tag), the
/// registration's id, then the request's own query, echoed (`?api-version=2017-04&$top=100`, with
/// a listing's `$filter` and `continuationtoken` too). The feed of a listing has the request's
/// address itself as its `id` and `self` link (NH-DOTNET's recordings of a live hub:
/// `GetRegistrationsByChannelAsync_*`, `GetRegistrationsByTagAsync_*`,
/// `GetAllRegistrationsAsync_UsingTopLessThenNumberOfRegistrations_*`).
///
/// The echo is the request's query as the .NET SDK writes it, which is what the live hub echoes
/// for that SDK: names as they are (`$top`, `$filter`), values form-encoded as .NET's
/// `WebUtility.UrlEncode` encodes them (a space as `+`, `'` as `%27`). PushSim keeps a request's
/// query decoded, so a real client that spelt its query otherwise (`%24top`, `%20`) through
/// `pushsim serve` gets the same items back in this spelling, not its own bytes.
struct EntryAddress: Equatable {
    /// The collection's address, without a slash at the end: `https://<host>/<hub>/registrations`.
    var collection: String
    /// The query echoed after each entry's id, without its `?`; empty for none.
    var query: String

    /// The address of registration `id`: `<collection>/<id>?<query>`.
    func url(of id: String) -> String {
        query.isEmpty ? String.concatenating(collection, "/", id) : String.concatenating(collection, "/", id, "?", query)
    }

    /// The address of an entry answered on its own (read, created or written): under `collection`
    /// (`<hub URL>/registrations`, or where the current service puts it: `<hub URL>/resources`,
    /// `…notificationhub.windows.net/<hub>/registrations`), with `request`'s query.
    static func single(_ collection: String, _ request: HTTPRequest) -> EntryAddress {
        EntryAddress(collection: collection, query: echoedQuery(request))
    }

    /// A listing the current service answers under one `collection` (`<hub URL>/resources`) whatever
    /// path was asked (NH-JS-REC): the feed's own address is the collection with `request`'s query,
    /// and its entries are under the collection too.
    static func listing(at collection: String, _ request: HTTPRequest) -> (url: String, entries: EntryAddress) {
        let query = echoedQuery(request)
        return (query.isEmpty ? collection : String.concatenating(collection, "?", query), EntryAddress(collection: collection, query: query))
    }

    /// A listing's own address (a feed's `id` and `self` link), `request`'s URL under `host`, and
    /// the address of its entries: `request`'s path (a slash at its end dropped), with its query.
    static func listing(host: String, _ request: HTTPRequest) -> (url: String, entries: EntryAddress) {
        let query = echoedQuery(request)
        let base = String.concatenating("https://", host, request.path)
        // The slashes at the end counted as bytes (`Substring` would walk characters).
        let slashes = request.path.utf8.reversed().prefix { $0 == UInt8(ascii: "/") }.count
        let collection = slashes == 0 ? base : String(decoding: base.utf8.dropLast(slashes), as: UTF8.self)
        return (query.isEmpty ? base : String.concatenating(base, "?", query), EntryAddress(collection: collection, query: query))
    }

    /// `request`'s query as the .NET SDK writes it (see the type's notes): `name=value` pairs
    /// joined by `&`.
    static func echoedQuery(_ request: HTTPRequest) -> String {
        // Most answers echo `api-version=<v>` alone, with nothing to encode.
        if request.query.count == 1, request.query[0].name == "api-version", !request.query[0].value.containsByte(where: { !isKept($0) }) {
            return "api-version=" + request.query[0].value
        }
        var out: [UInt8] = []
        out.reserveCapacity(request.query.reduce(0) { $0 + $1.name.utf8.count + 3 * $1.value.utf8.count + 2 })
        for (i, item) in request.query.enumerated() {
            if i > 0 { out.append(UInt8(ascii: "&")) }
            if item.name.containsByte(where: { !isKept($0) && $0 != UInt8(ascii: "$") }) { formEncode(item.name, to: &out) } else { out.appendUTF8(item.name) }
            out.append(UInt8(ascii: "="))
            formEncode(item.value, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as `WebUtility.UrlEncode` writes it: letters, digits and `-_.!*()` as they
    /// are, a space as `+`, every other UTF-8 byte as `%XX` in upper case. Runs of kept bytes are
    /// copied whole (a listing by handle echoes a channel URI of up to 200 bytes).
    static func formEncode(_ text: String, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789ABCDEF"
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            for k in bytes.indices where !isKept(bytes[k]) {
                if k > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<k])) }
                let b = bytes[k]
                if b == UInt8(ascii: " ") {
                    out.append(UInt8(ascii: "+"))
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(hex.utf8Start[Int(b >> 4)])
                    out.append(hex.utf8Start[Int(b & 0x0F)])
                }
                run = k + 1
            }
            if bytes.count > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
        }
    }

    /// The bytes `WebUtility.UrlEncode` leaves as they are.
    private static func isKept(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: "("), UInt8(ascii: ")"):
            return true
        default: return false
        }
    }
}
