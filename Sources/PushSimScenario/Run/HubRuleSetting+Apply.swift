import PushSimHub

extension HubRuleSetting {
    /// Sets the rule on a hub configuration before the hub is made.
    func apply(to configuration: inout HubConfiguration) {
        switch self {
        case .sendStatus(let status): configuration.sendAcceptedStatus = status == 200 ? .ok : .created
        case .registrationStatus(let status): configuration.registrationWriteStatus = status == 200 ? .ok : .created
        case .ifMatchAbsent(let status): configuration.ifMatchWithoutRegistration = status == 412 ? .preconditionFailed : .notFound
        case .deleteWithoutIfMatch(let refused): configuration.deleteWithoutIfMatch = refused ? .preconditionFailed : .deletes
        case .invalidAPNsPayload(let refused): configuration.invalidAPNsPayload = refused ? .refused : .passedToAPNs
        case .apnsTokenRenewal(let every): configuration.apnsProviderTokenRenewal = every
        case .answerShape(let shape): configuration.answerShape = shape
        }
    }
}
