import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices

/// APNs broadcast channels in scenario files (iOS 18; Citations §1.20): `operator create channel
/// "<name>" storage none|most-recent`, `operator delete channel "<name>"`, `operator broadcast
/// "<payload>" on channel "<name>"|without channel-id [header "<name>" "<value>"]…`, `<device> start
/// live activity … on channel "<name>"`, `expect <device> activity "<name>" shows
/// "<JSON>"` and `expect apns has <n> channel(s)`. A channel is named in the file; APNs' id for it
/// is learnt when the run creates it.
extension ScenarioParser.Session {
    static let channelUsage = "write operator create channel \"<name>\" storage none|most-recent, operator delete channel \"<name>\", "
        + "or operator broadcast \"<payload>\" on channel \"<name>\" [header \"apns-expiration\" \"0\"]…"
    static let activityUsage = "write <device> start live activity \"<Type>\" \"<content-state JSON>\" on channel \"<name>\""

    /// After `operator create|delete`: `channel "<name>"`, and for create `storage none|most-recent`.
    mutating func channelManagementAction(_ t: inout ScenarioParser.Tokens, verb: ScenarioToken) throws(ScenarioDiagnostic) -> OperatorAction {
        try t.keyword("channel", hint: Self.channelUsage)
        let name = try t.string("a channel name in double quotes", hint: Self.channelUsage)
        if verb.text == "delete" {
            try knownChannel(name, t)
            return .deleteChannel(name: name.text)
        }
        if broadcastChannelNames.contains(name.text) {
            throw ScenarioDiagnostic(location: t.location(name), message: "channel \(jsonString(name.text)) is created twice",
                                     hint: "give each channel its own name; APNs gives every create a new channel id")
        }
        let storageHint = "write storage none (an offline device misses a broadcast) or storage most-recent (APNs keeps the newest for it)"
        try t.keyword("storage", hint: storageHint)
        let word = try t.word("none or most-recent", hint: storageHint)
        guard let policy = BroadcastMessageStoragePolicy.allCases.first(where: { $0.word == word.text }) else {
            throw ScenarioDiagnostic(location: t.location(word), message: "unknown storage policy \(word.quoted)", hint: storageHint)
        }
        broadcastChannelNames.append(name.text)
        return .createChannel(name: name.text, policy: policy)
    }

    /// After `operator broadcast`: the payload, `on channel "<name>"` or `without channel-id`, and headers.
    mutating func broadcastAction(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> OperatorAction {
        let payload = try t.string("the Live Activity payload in double quotes", hint: Self.channelUsage)
        var channel: String?
        if t.skip("without") {
            try t.keyword("channel-id", hint: "write without channel-id: the broadcast leaves apns-channel-id out")
        } else {
            try t.keyword("on", hint: Self.channelUsage)
            try t.keyword("channel", hint: Self.channelUsage)
            let name = try t.string("a channel name in double quotes", hint: Self.channelUsage)
            try knownChannel(name, t)
            channel = name.text
        }
        return .broadcast(payload: payload.text, channel: channel, headers: try sendHeaders(&t, format: PushServiceDescriptor.apns.hubFormat))
    }

    /// After `start live activity … on`: `channel "<name>"`, a channel created above. Only an
    /// iPhone on iOS 18 or later subscribes a Live Activity to a channel.
    mutating func activityChannel(_ t: inout ScenarioParser.Tokens, device: ScenarioToken, verb: ScenarioToken) throws(ScenarioDiagnostic) -> String {
        try t.keyword("channel", hint: Self.activityUsage)
        let name = try t.string("a channel name in double quotes", hint: Self.activityUsage)
        try knownChannel(name, t)
        if let declared = devices.first(where: { $0.name == device.text }),
           declared.platform != .ios || (declared.osVersion ?? 0) < Device.broadcastChannelsMinimumOS {
            throw ScenarioDiagnostic(location: t.location(verb),
                                     message: "\(device.quoted) cannot start a Live Activity on a channel: that needs iOS \(Device.broadcastChannelsMinimumOS) or later",
                                     hint: "declare an iPhone with os \(Device.broadcastChannelsMinimumOS), e.g. device \(device.text) ios os \(Device.broadcastChannelsMinimumOS)")
        }
        return name.text
    }

    /// After `expect <device> activity`: `"<name>" shows "<JSON object>"`, checked at the end of the run.
    mutating func activityExpectation(_ t: inout ScenarioParser.Tokens, device: ScenarioToken) throws(ScenarioDiagnostic) -> ExpectationKind {
        let usage = "write expect <device> activity \"<channel>\" shows \"{\\\"score\\\":\\\"2-1\\\"}\""
        let name = try t.string("a channel name in double quotes", hint: usage)
        try knownChannel(name, t)
        try t.keyword("shows", hint: usage)
        let state = try contentState(&t, hint: usage)
        if let by = t.peek, by.isWord("by") {
            throw ScenarioDiagnostic(location: t.location(by), message: "an activity's content state is checked at the end of the run",
                                     hint: "leave out by <time>")
        }
        return .activityShows(device: device.text, channel: name.text, contentState: state)
    }

    /// After `expect apns has`: `<n> channel(s)`.
    mutating func channelCount(_ t: inout ScenarioParser.Tokens) throws(ScenarioDiagnostic) -> ExpectationKind {
        let (count, _) = try t.number("a number of channels", as: Int.self)
        guard t.skip("channels") || t.skip("channel") else { throw t.expected("\"channels\" after \(count)", hint: "write expect apns has \(count) channels") }
        return .broadcastChannels(count: count)
    }

    /// A JSON object in double quotes, as compact JSON text.
    private func contentState(_ t: inout ScenarioParser.Tokens, hint: String) throws(ScenarioDiagnostic) -> String {
        let text = try t.string("a content state in double quotes, a JSON object", hint: hint)
        guard let json = try? JSONParser.parse(Array(text.text.utf8)), case .object = json else {
            throw ScenarioDiagnostic(location: t.location(text), message: "\(text.quoted) is not a JSON object",
                                     hint: "a Live Activity's content state is a JSON object, e.g. \"{\\\"score\\\":\\\"1-0\\\"}\"")
        }
        return json.serialized()
    }

    /// Throws unless an earlier `operator create channel` statement names the channel.
    private func knownChannel(_ name: ScenarioToken, _ t: ScenarioParser.Tokens) throws(ScenarioDiagnostic) {
        guard broadcastChannelNames.contains(name.text) else {
            throw ScenarioDiagnostic(location: t.location(name), message: "no channel \(jsonString(name.text)) is created above",
                                     hint: "create it first: operator create channel \(name.text.contains("\"") ? "\"…\"" : "\"\(name.text)\"") storage none|most-recent")
        }
    }
}
