/// The bytes of a scenario file, turned into text with positioned errors.
///
/// A scenario file must be UTF-8. A file that is not gets a diagnostic at the line and column of
/// its first bad byte (columns count the Unicode scalars before it on its line), so that the
/// mistake can be found in an editor. A leading byte-order mark (EF BB BF) is skipped.
public enum ScenarioSource {
    /// The text of `bytes`, or a diagnostic at the first byte that is not UTF-8.
    public static func decode(_ bytes: [UInt8], path: String) -> Result<String, ScenarioDiagnostic> {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = body.makeIterator()
        var scalars = String.UnicodeScalarView()
        var line = 1
        var column = 1
        var previousWasCR = false
        var offset = body.startIndex   // of the next byte to read
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let c = Unicode.UTF8.decode(encoded)
                scalars.append(c)
                offset += UTF8.width(c)
                if ScenarioLexer.isLineBreak(c) {
                    if !(previousWasCR && c == "\n") { line += 1 }
                    column = 1
                } else {
                    column += 1
                }
                previousWasCR = c == "\r"
            case .error(let length):
                let byte = body[offset]
                return .failure(ScenarioDiagnostic(
                    location: SourceLocation(file: path, line: line, column: column),
                    message: "the file is not UTF-8 text: byte 0x\(hex(byte))\(length > 1 ? " and the \(length - 1) after it" : "") cannot start or continue a character",
                    hint: "save the file as UTF-8 (a scenario is plain text)"))
            case .emptyInput:
                return .success(String(scalars))
            }
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
