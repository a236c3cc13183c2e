import PushSimKernel
import PushSimNetwork

/// How the recommended app retries what failed for reasons that pass: no answer (a lost message,
/// a timeout, an unreachable backend), a 5xx, or 429. Four retries, 2 s, 4 s, 8 s and 16 s after
/// each failure (exponential back-off, as Microsoft's and Google's client guidance asks for
/// transient errors); then the app waits for its next start, when it registers again anyway.
/// A 4xx other than 429 is an answer, not a passing failure, and is never retried.
/// The tutorial's app retries nothing.
/// A logout's unregistration matters more (until it is done, the phone may show the old user's
/// notifications): it goes on for ten more tries, a minute apart (``unregistrationDelays``).
enum AppRetry {
    static let delays: [VirtualDuration] = [.seconds(2), .seconds(4), .seconds(8), .seconds(16)]
    static let unregistrationDelays: [VirtualDuration] = delays + Array(repeating: .seconds(60), count: 10)

    /// Whether `result` is worth trying again.
    static func isTransient(_ result: CallResult) -> Bool {
        guard let status = result.status else { return true }
        return status >= 500 || status == 429
    }
}

extension Device {
    /// ``callBackend(_:_:_:query:contentType:body:authorization:then:)``, retried on transient
    /// failures per ``AppRetry`` while `stillWanted` holds (say, while the same user is logged
    /// in); `then` gets the last result. Each retry is traced as `app.retry`.
    func callBackendRetrying(_ op: AppOperation, _ method: String, _ path: String, query: [(String, String)] = [],
                             contentType: String? = nil, body: String = "", authorization: String? = nil,
                             attempt: Int = 0, delays: [VirtualDuration] = AppRetry.delays, stillWanted: @escaping () -> Bool = { true },
                             then: @escaping (CallResult) -> Void) {
        callBackend(op, method, path, query: query, contentType: contentType, body: body, authorization: authorization) { [self] result in
            guard AppRetry.isTransient(result), attempt < delays.count, stillWanted() else { return then(result) }
            let delay = delays[attempt]
            record(.appRetry, [.operation: .string(op.rawValue), .why: "\(result.summary): try again", .after: .string(delay.description)])
            let generation = self.generation
            world.schedule(after: delay) { [self] in
                guard generation == self.generation else { return }   // the app was removed: nothing waits any more
                guard stillWanted() else { return then(result) }      // no longer wanted: end with the last result
                callBackendRetrying(op, method, path, query: query, contentType: contentType, body: body, authorization: authorization,
                                    attempt: attempt + 1, delays: delays, stillWanted: stillWanted, then: then)
            }
        }
    }
}
