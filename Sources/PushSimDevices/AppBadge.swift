/// The badge on an app's icon: a number or, on Windows, a status glyph. A device with no badge
/// showing has none at all (``Device/badge`` is nil): a number is never 0 there, since 0 clears
/// the badge on iOS (`aps.badge`, A-GEN) and on Windows (W-BADGE).
///
/// An integer literal is a number, so `device.badge == 3` reads as it did when badges were numbers.
public enum AppBadge: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// A count: `aps.badge` (A-GEN), or a WNS badge's integer `value`; Windows shows one above 99
    /// as `99+` (W-BADGE), PushSim keeps the number sent.
    case number(Int)
    /// A Windows status glyph (W-BADGE).
    case glyph(BadgeGlyph)

    public init(integerLiteral value: Int) { self = .number(value) }

    /// The number, or the glyph's name as the badge schema spells it (`newMessage`).
    public var description: String {
        switch self {
        case .number(let n): return String(n)
        case .glyph(let g): return g.rawValue
        }
    }

    /// What a badge value written as text sets, as a WNS badge notification's `value` attribute
    /// is read (W-BADGE) and as the trace and scenarios write badges: an integer (`0` clears the
    /// badge), `none` (clears it), or a glyph's name, exactly as the schema spells it.
    public enum Setting: Sendable, Hashable {
        /// The value shows this badge.
        case show(AppBadge)
        /// The value clears the badge: `0` or `none`.
        case clear
    }

    /// The setting `text` names; nil when it is none of an integer, `none` or a glyph's name
    /// (the badge schema has no other values: the OS leaves the badge as it was).
    public static func setting(_ text: String) -> Setting? {
        if text == "none" { return .clear }
        if let glyph = BadgeGlyph(rawValue: text) { return .show(.glyph(glyph)) }
        return Int(text).map(setting)   // an optional sign and ASCII digits, as an XML Schema integer
    }

    /// The setting a number names: 0 clears the badge, any other shows it.
    public static func setting(_ number: Int) -> Setting { number == 0 ? .clear : .show(.number(number)) }
}

/// The status glyphs a Windows badge may show instead of a number, by their names in the badge
/// schema's `value` attribute (W-BADGE): each replaces whatever number or glyph was shown.
public enum BadgeGlyph: String, Sendable, Hashable, CaseIterable {
    case activity, alert, alarm, available, away, busy, newMessage, paused, playing, unavailable, error, attention
}
