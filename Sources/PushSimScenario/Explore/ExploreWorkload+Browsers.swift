import PushSimKernel
import PushSimDevices

/// Browsers in generated worlds (`pushsim explore --browsers`): each user may have one browser
/// subscribed to a site's Web Push (`app-server site`). In the fault phase a browser goes offline
/// and online, unsubscribes, has its profile cleared, subscribes again, and the site pushes to it
/// with random `TTL`s and `Topic`s; the healed phase brings every browser online, subscribes it
/// again (a page does so on every load) and the site sends one message to each: it must be shown
/// within ``convergenceBound``. All choices come from the seed's `explore-browsers` stream.
extension ExploreWorkload {
    /// One generated browser and what the generator believes of it while writing steps.
    struct PlannedBrowser {
        var name: String
        var online = true
    }

    /// The site's application server's name in generated worlds.
    static let siteName = "site"

    mutating func declareBrowsers(users: [String]) {
        line("app-server \(Self.siteName)")
        for user in users where browserRandom.chance(Ratio(2, 3)) {
            let vendor = BrowserVendor.allCases[browserRandom.int(below: BrowserVendor.allCases.count)]
            let name = "\(user)-\(vendor.rawValue)"
            browsers.append(PlannedBrowser(name: name))
            line("browser \(name) \(vendor.rawValue)")
        }
    }

    mutating func subscribeBrowsers(at time: Int64) {
        for b in browsers { line("at \(time)s \(b.name) subscribe push for \(Self.siteName)") }
    }

    /// Now and then (one step in three) a browser step at `time`.
    mutating func browserStep(at time: Int64) {
        guard !browsers.isEmpty, browserRandom.chance(Ratio(1, 3)) else { return }
        let i = browserRandom.int(below: browsers.count)
        let name = browsers[i].name
        switch browserRandom.int(below: 6) {
        case 0:
            line("at \(time)s \(name) \(browsers[i].online ? "offline" : "online")")
            browsers[i].online.toggle()
        case 1: line("at \(time)s \(name) unsubscribe push")
        case 2: line("at \(time)s \(name) clear-profile")
        case 3: line("at \(time)s \(name) subscribe push for \(Self.siteName)")
        default:
            let ttl = [0, 60, 86_400][browserRandom.int(below: 3)]
            let topic = browserRandom.chance(Ratio(1, 2)) ? " topic \"t\(browserRandom.int(below: 2))\"" : ""
            line("at \(time)s \(Self.siteName) push \"w\(lineCount)\" to \(name) ttl \(ttl)\(topic)")
        }
    }

    mutating func healBrowsers(at time: Int64) {
        for b in browsers where !b.online { line("at \(time)s \(b.name) online") }
        for b in browsers { line("at \(time)s \(b.name) subscribe push for \(Self.siteName)") }
    }

    mutating func pushToBrowsers(at time: Int64) {
        for b in browsers {
            let text = "final to \(b.name)"
            line("at \(time)s \(Self.siteName) push \(ScenarioLexer.quote(text)) to \(b.name)")
            line("expect \(b.name) shows \(ScenarioLexer.quote(text)) by +\(Self.convergenceBound)")
        }
    }

    /// How ``units(of:)`` groups a browser's statements: its declaration, healed-phase steps,
    /// final push and expectation go together (so that shrinking never keeps the expectation
    /// without what it needs); the site's declaration stays; fault-phase steps go one by one.
    static func browserUnit(_ words: [Substring], inHealed: Bool) -> ScenarioShrinker.Unit? {
        guard let first = words.first else { return nil }
        if words.count == 2, first == "app-server" { return .fixed }
        if words.count >= 3, first == "browser" { return .group("browser:" + words[1]) }
        if words.count >= 3, first == "expect", words[2] == "shows", !words[1].contains("#") && words[1] != "user" && words[1] != "invariant",
           words.count >= 4, words[3].hasPrefix("\"final") { return .group("browser:" + words[1]) }
        guard inHealed, words.count >= 4, first == "at" else { return nil }
        if words[2] == Substring(siteName), let to = words.firstIndex(of: "to"), to + 1 < words.count { return .group("browser:" + words[to + 1]) }
        if words[3] == "subscribe" && words.count >= 5 && words[4] == "push" { return .group("browser:" + words[2]) }
        return nil
    }
}
