import PushSimKernel

/// A PEM document (RFC 7468): `-----BEGIN <label>-----`, base64 lines, `-----END <label>-----`,
/// the same label at both ends. Text before the first line (explanations, as RFC 7468 allows) is
/// skipped; only the first document is read.
public struct PEMDocument: Equatable, Sendable {
    /// The label: `PRIVATE KEY` (PKCS#8, an APNs `.p8`), `EC PRIVATE KEY` (SEC 1),
    /// `RSA PRIVATE KEY` (PKCS#1), `PUBLIC KEY` (SubjectPublicKeyInfo).
    public let label: String
    /// The DER bytes the base64 body decodes to.
    public let der: [UInt8]

    /// A document to write: `label` between the dashes, `der` as its base64 body.
    public init(label: String, der: [UInt8]) {
        self.label = label
        self.der = der
    }

    /// Reads the first document of `text`.
    public init(_ text: String) throws {
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map { $0.trimmingASCIISpaces() }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }),
              lines[begin].count >= 16 else {
            throw CryptoError.malformedPEM("no -----BEGIN …----- line")
        }
        let label = String(lines[begin].dropFirst(11).dropLast(5))
        let endLine = "-----END \(label)-----"
        guard let end = lines[(begin + 1)...].firstIndex(of: endLine) else {
            throw CryptoError.malformedPEM("no \(endLine) line")
        }
        let body = lines[(begin + 1)..<end].joined()
        guard !body.isEmpty, let der = Base64.decode(body) else {
            throw CryptoError.malformedPEM("the body between the \(label) lines is not base64")
        }
        self.init(label: label, der: der)
    }

    /// The document as text, 64 base64 characters a line (RFC 7468, 2).
    public var text: String {
        let body = Array(Base64.encode(der))
        let lines = stride(from: 0, to: body.count, by: 64).map { String(body[$0..<min($0 + 64, body.count)]) }
        return (["-----BEGIN \(label)-----"] + lines + ["-----END \(label)-----"]).joined(separator: "\n") + "\n"
    }
}

private extension Substring {
    /// The line without spaces and tabs at either end (RFC 7468 tolerates trailing white space).
    func trimmingASCIISpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
