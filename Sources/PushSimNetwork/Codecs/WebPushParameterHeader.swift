/// The `Encryption` and `Crypto-Key` headers of the `aesgcm` Web Push coding
/// (draft-ietf-httpbis-encryption-encoding-03): comma-separated sections of `;`-separated
/// `key=value` items, e.g. `Crypto-Key: dh=BNoR…;p256ecdsa=BCx…` and `Encryption: salt=Qm9…; rs=4096`.
/// Read the way Mozilla's autopush reads them (`CryptoKeyHeader::parse`, WP-AUTOPUSH): spaces
/// and tabs around keys and quotes and spaces in values dropped, the first of a repeated key kept.
/// Read by the push services, which check the items, and by the browser, which decrypts with them.
package enum WebPushParameterHeader {
    /// The items of `header`; nil when an item has no `=`.
    package static func items(_ header: String) -> [String: String]? {
        var items: [String: String] = [:]
        for section in header.split(separator: ",", omittingEmptySubsequences: false) {
            for item in section.split(separator: ";", omittingEmptySubsequences: false) {
                guard let eq = item.firstIndex(of: "=") else { return nil }
                let key = item[..<eq].filter { $0 != " " && $0 != "\t" }
                let value = item[item.index(after: eq)...].filter { $0 != " " && $0 != "\"" }
                if items[key] == nil { items[key] = value }
            }
        }
        return items
    }
}
