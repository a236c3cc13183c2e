import PushSimKernel
import PushSimNetwork

/// The headers APNs reads from a provider request, each found at most once (A-RESP: any of them
/// twice is `DuplicateHeaders`). ``APNsRequestCheck`` judges their values.
struct APNsRequestHeaders {
    var authorization: String?
    var apnsID: String?
    var pushType: String?
    var expiration: String?
    var priority: String?
    var topic: String?
    var collapseID: String?

    /// The names APNs reads, in the order of the fields above.
    static let names = ["authorization", "apns-id", "apns-push-type", "apns-expiration", "apns-priority",
                        "apns-topic", "apns-collapse-id"]

    /// The field for the name at `index` in ``names``.
    subscript(index: Int) -> String? {
        get {
            switch index {
            case 0: return authorization
            case 1: return apnsID
            case 2: return pushType
            case 3: return expiration
            case 4: return priority
            case 5: return topic
            default: return collapseID
            }
        }
        set {
            switch index {
            case 0: authorization = newValue
            case 1: apnsID = newValue
            case 2: pushType = newValue
            case 3: expiration = newValue
            case 4: priority = newValue
            case 5: topic = newValue
            default: precondition(index == 6, "seven names"); collapseID = newValue
            }
        }
    }
}

/// Reads ``APNsRequestHeaders`` off a request in one pass, each header name compared with at most
/// two known names: the name's length picks the candidates (a request's five or six headers were
/// each compared with up to seven names, on every notification copy of a broadcast; a table built
/// at run time cost 0.3% of a broadcast more). Nothing is allocated.
///
/// Contract: ``index(of:)`` answers what comparing `name` with every one of
/// ``APNsRequestHeaders/names``, ignoring ASCII case, answers (tested with random names and cases
/// in `APNsTests`).
enum APNsHeadersFastPath {
    /// The request's known headers, or nil when one of them appears twice.
    static func read(_ headers: HTTPHeaders) -> APNsRequestHeaders? {
        var found = APNsRequestHeaders()
        for field in headers {
            guard let i = index(of: field.name) else { continue }
            if found[i] != nil { return nil }
            found[i] = field.value
        }
        return found
    }

    /// The index in ``APNsRequestHeaders/names`` of header name `name` (any case), or nil.
    static func index(of name: String) -> Int? {
        func candidate(_ i: Int) -> Int? { sameFieldName(APNsRequestHeaders.names[i], name) ? i : nil }
        switch name.utf8.count {
        case 7: return candidate(1)
        case 10: return candidate(5)
        case 13: return candidate(0) ?? candidate(4)
        case 14: return candidate(2)
        case 15: return candidate(3)
        case 16: return candidate(6)
        default: return nil
        }
    }
}
