/// Where an ActivityKit push lands on the device.
enum LiveActivityPushTarget: Equatable {
    /// A push-to-start token: a `start` makes a new activity of this type.
    case pushToStart(attributesType: String)
    /// An activity (its index in ``LiveActivityBoard/activities``): by its update token, or by the
    /// broadcast channel it listens on.
    case activity(Int)
}
