/// The hub's rules for tags (Citations §4.4, sources NH-TAGS, NH-REG).
public enum TagRules {
    /// Longest tag: 120 characters.
    public static let maxLength = 120
    /// Most tags on one registration or installation: 60.
    public static let maxTagsPerRegistration = 60

    /// A tag is 1–120 of: letters, digits, `_ @ # . : -`.
    public static func isValid(_ tag: String) -> Bool {
        !tag.isEmpty && tag.count <= maxLength && tag.unicodeScalars.allSatisfy(isTagCharacter)
    }

    static func isTagCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "@", "#", ".", ":", "-": return true
        default: return false
        }
    }

    /// The first problem with a tag list, in words, or nil if the list is acceptable.
    public static func problem(with tags: [String]) -> String? {
        if tags.count > maxTagsPerRegistration {
            return "A registration can have at most \(maxTagsPerRegistration) tags; \(tags.count) were given."
        }
        if let bad = tags.first(where: { !isValid($0) }) {
            return "The tag '\(bad)' is invalid: tags are 1 to \(maxLength) characters from letters, digits and _ @ # . : -"
        }
        return nil
    }
}
