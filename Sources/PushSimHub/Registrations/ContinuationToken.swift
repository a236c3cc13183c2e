import PushSimKernel
import PushSimNetwork

/// Where a registration listing goes on: the token the hub hands out with a page that is not the
/// last (`X-MS-ContinuationToken`), and reads back from the `ContinuationToken` query parameter of
/// the next request (NH-REST "Read All Registrations" and "… of a Channel", "… With A Tag").
///
/// The live hub's token is opaque base64 that its header carries percent-encoded
/// (`x-ms-continuationtoken: MzEobik7Mg%3D%3D` in the .NET SDK's recording). Both of Microsoft's
/// SDKs append the header's value to the next query as it is (.NET as `continuationtoken=`, Java
/// as `ContinuationToken=`), so the hub receives the base64 once decoded; the feed's
/// `<link rel="next">` carries it encoded once more (`%253D`), so a client that follows the link
/// sends it still encoded. PushSim's token is its own: base64 of the number of the registration
/// the next page starts at. Numbers are creation order and never reused, so a page continues
/// after the last one returned even when registrations were added or deleted in between, as a
/// cursor does. A token that is not one of these is refused with 400 (the sources do not say
/// what the live hub answers).
struct ContinuationToken: Equatable {
    /// The number of the first registration of the next page.
    let nextNumber: Int

    init(nextNumber: Int) { self.nextNumber = nextNumber }

    /// The token read from a request's query value: base64, or base64 still percent-encoded
    /// (from the feed's `next` link). Nil for anything else.
    init?(queryValue: String) {
        let text = queryValue.containsByte(where: { $0 == UInt8(ascii: "%") }) ? percentDecode(queryValue) : queryValue
        guard let bytes = Base64.decode(text), !bytes.isEmpty, bytes.count <= 10,
              bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let n = Int(String(decoding: bytes, as: UTF8.self)), n > 0 else { return nil }
        nextNumber = n
    }

    /// The token as base64 (what a client puts back into the query, once decoded).
    var base64: String { Base64.encode(Array(String(nextNumber).utf8)) }

    /// The `x-ms-continuationtoken` header's value: the base64, percent-encoded as the live hub sends it.
    var headerValue: String { percentEncode(base64) }

    /// The query parameter's name, matched without regard to case: the .NET SDK writes
    /// `continuationtoken`, the Java SDK and the REST pages `ContinuationToken`.
    static let queryName = "continuationtoken"

    /// The response header's name, spelt as the live hub sends it.
    static let headerName = "x-ms-continuationtoken"
}
