/// Which hub SDK generation the tutorial backend runs on. It decides how defect e shows
/// (Citations §5.2 e, NH-NOTIFY, NH-DOTNET).
public enum TutorialHubSDK: String, Sendable, CaseIterable {
    /// Today's HttpClient-based SDK: a hub error reaches `ReturnGoneIfHubResponseIsGone` with no
    /// `WebException` inside, the null dereference throws, and the client sees 500 for every hub error.
    case current
    /// The 2016-era SDK the tutorial was written against: a 410 is rethrown as `HttpRequestException`
    /// (500 to the client, never 410), and any other hub protocol error is swallowed (200).
    case classic
}

/// Settings of the app backend.
public struct BackendConfiguration: Sendable {
    /// The hub's `DefaultFullSharedAccessSignature` connection string, as the tutorial uses.
    public var hubConnectionString: String
    /// The hub's name (the tutorial's `HubName` setting), e.g. `notifyusers`.
    public var hubPath: String
    /// Which hub SDK generation the tutorial backend runs on (default ``TutorialHubSDK/current``);
    /// the hardened backend does not use it.
    public var hubSDK: TutorialHubSDK

    /// Settings for the hub `hubPath` reached with `hubConnectionString`, on today's SDK unless
    /// `hubSDK` says otherwise.
    public init(hubConnectionString: String, hubPath: String, hubSDK: TutorialHubSDK = .current) {
        self.hubConnectionString = hubConnectionString
        self.hubPath = hubPath
        self.hubSDK = hubSDK
    }
}

/// What ASP.NET Web API answers for an unhandled exception: 500 with this body.
let unhandledExceptionBody = #"{"Message":"An error has occurred."}"#

/// Which app backend a world runs (chosen per scenario with `backend tutorial|hardened`).
public enum BackendFlavour: String, Sendable, CaseIterable {
    /// The tutorial's code as written, defects included.
    case tutorial
    /// ``HardenedBackend``: real accounts, encoded payloads, 410 passed through, tag checks.
    case hardened
}
