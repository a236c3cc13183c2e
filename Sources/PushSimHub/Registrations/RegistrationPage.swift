/// One page of a registration listing and where the next one starts: the SDK's
/// `CollectionQueryResult<RegistrationDescription>` (NH-DOTNET).
public struct RegistrationPage: Sendable, Equatable {
    /// The registrations of this page, oldest first.
    public var registrations: [RegistrationDescription]
    /// The hub's `x-ms-continuationtoken`, to pass back for the next page; nil on the last page
    /// (the SDK leaves its `ContinuationToken` null then, and loops end on a null or empty one).
    public var continuationToken: String?

    /// A page of `registrations`, with the token for the next one (nil on the last page).
    public init(registrations: [RegistrationDescription], continuationToken: String?) {
        self.registrations = registrations
        self.continuationToken = continuationToken
    }
}
