import PushSimNetwork

/// The `Expiry` of an APNs template: until when APNs should keep trying to deliver each
/// notification the template makes, for a device that is offline.
///
/// What the sources say (Citations §4.5; **unconfirmed** what the hub sends, §7):
/// - the installation page gives a template's `expiry` as an expression that evaluates to a W3C
///   date, allowed for APNs only (NH-REST "Create or overwrite an installation");
/// - the registration article says that for APNs the expiry may be a constant or a template
///   expression (NH-REG, "Templates");
/// - the .NET SDK describes it as applying to notifications bound for APNs, and refuses an
///   empty one, and a literal one that is neither a date nor `0`
///   (`InstallationTemplate`, `AppleTemplateRegistrationDescription.OnValidate`, NH-DOTNET).
///
/// No source says in so many words what the hub sends APNs. PushSim reads it as the template's
/// counterpart of a native send's `ServiceBusNotification-Apns-Expiry`, which the hub hands to
/// APNs as `apns-expiration` (NH-REST "Send an APNS native notification"): each send evaluates the
/// expression with the send's properties and reads the result as that header's value is read
/// (``ApnsExpiryHeader``: W3C DTF, or the SDKs' `MM/dd/yyyy HH:mm:ss`, a time without a zone
/// as UTC); `0` is APNs' own "try once, keep nothing" (A-SEND). A template's own `apns-expiration`
/// header wins, as a native send's does. A value that renders as no date is not documented: PushSim
/// drops that copy with the reason (telemetry `InvalidPayload`) rather than send it without an expiry.
struct TemplateExpiry: Sendable, Equatable {
    /// As written (read back as it was, NH-DOTNET's recordings).
    var source: String
    /// The compiled value: a literal date, `0`, or an expression evaluated per send.
    var expression: TemplateExpression

    /// Checks `text` as the SDK does before it sends one: not empty, a valid expression, and a
    /// literal a date or `0`.
    static func compile(_ text: String) -> Result<TemplateExpiry, TemplateError> {
        guard !text.isEmpty else { return .failure(TemplateError("the Expiry cannot be empty")) }
        switch TemplateExpression.parse(text) {
        case .failure(let e): return .failure(e)
        case .success(let e):
            if case .literal(let value) = e, apnsExpiration(value) == nil {
                return .failure(TemplateError("the Expiry '\(value)' is not a date"))
            }
            return .success(TemplateExpiry(source: text, expression: e))
        }
    }

    /// The `apns-expiration` (Unix seconds, a time before 1970 as 0) for one send, or the reason
    /// the copy is dropped.
    func apnsExpiration(_ properties: TemplateProperties) -> Result<String, PNSRequestProblem> {
        let value = expression.evaluate(properties)
        guard let seconds = Self.apnsExpiration(value) else {
            return .failure(PNSRequestProblem(reason: "the template's Expiry '\(value)' is not a date", outcome: .invalidPayload))
        }
        return .success(seconds)
    }

    /// `0`, or the Unix second `value` names, as `apns-expiration` text; nil when it is neither.
    private static func apnsExpiration(_ value: String) -> String? {
        if value == "0" { return "0" }
        return ApnsExpiryHeader.unixSeconds(value).map { String(max(0, $0)) }
    }
}
