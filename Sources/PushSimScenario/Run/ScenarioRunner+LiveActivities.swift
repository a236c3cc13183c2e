import PushSimKernel
import PushSimNetwork
import PushSimDevices

extension ScenarioRunner {
    /// Does an iPhone's Live Activity step (``LiveActivityStep``); JSON the parser checked is read
    /// again here, an unreadable one taken as an empty object. `channelIDs`: APNs' id of each
    /// channel the operator created, by its name in the file; a channel not created yet is passed
    /// by its name, which APNs does not know.
    static func perform(_ step: LiveActivityStep, on device: Device, now: VirtualTime, channelIDs: [String: String]) {
        func object(_ text: String) -> JSONValue { (try? JSONParser.parse(Array(text.utf8))) ?? .object([]) }
        switch step {
        case .observePushToStart(let type): device.observePushToStartToken(attributesType: type)
        case .rotatePushToStart(let type): device.rotatePushToStartToken(attributesType: type)
        case .start(let type, let state, let attributes, let staleAfter, let channel):
            device.startLiveActivity(attributesType: type, attributes: object(attributes), contentState: object(state),
                                     staleDate: staleAfter.map { now + $0 }, channel: channel.map { channelIDs[$0] ?? $0 })
        case .end(let type, let dismissAfter): device.endLiveActivity(attributesType: type, dismissalDate: dismissAfter.map { now + $0 })
        case .rotateToken(let type): device.rotateLiveActivityToken(attributesType: type)
        case .enabled(let on): device.setLiveActivitiesEnabled(on)
        }
    }
}
