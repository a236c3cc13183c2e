import PushSimKernel

/// The trace field names recorded by this layer (and by layers above it that share them): emitters
/// and checkers name them through these constants, so a misspelt field does not compile.
extension TraceFieldName {
    /// `at`
    public static let at = TraceFieldName("at")
    /// `attempt`
    public static let attempt = TraceFieldName("attempt")
    /// `batch`
    public static let batch = TraceFieldName("batch")
    /// `counts`
    public static let counts = TraceFieldName("counts")
    /// `dead-handle`
    public static let deadHandle = TraceFieldName("dead-handle")
    /// `detail`
    public static let detail = TraceFieldName("detail")
    /// `in`
    public static let dueIn = TraceFieldName("in")
    /// `endpoint`
    public static let endpoint = TraceFieldName("endpoint")
    /// `etag`
    public static let etag = TraceFieldName("etag")
    /// `existed`
    public static let existed = TraceFieldName("existed")
    /// `expires`
    public static let expires = TraceFieldName("expires")
    /// `failure`
    public static let failure = TraceFieldName("failure")
    /// `format`
    public static let format = TraceFieldName("format")
    /// `found`
    public static let found = TraceFieldName("found")
    /// `handles`
    public static let handles = TraceFieldName("handles")
    /// `iat`
    public static let iat = TraceFieldName("iat")
    /// `id`
    public static let id = TraceFieldName("id")
    /// `if-match`
    public static let ifMatch = TraceFieldName("if-match")
    /// `kid`
    public static let kid = TraceFieldName("kid")
    /// `matching`
    public static let matching = TraceFieldName("matching")
    /// `next`: the continuation token a page of registrations hands out for the next one
    public static let next = TraceFieldName("next")
    /// `notification`
    public static let notification = TraceFieldName("notification")
    /// `operations`
    public static let operations = TraceFieldName("operations")
    /// `platform`
    public static let platform = TraceFieldName("platform")
    /// `properties`
    public static let properties = TraceFieldName("properties")
    /// `registrations`
    public static let registrations = TraceFieldName("registrations")
    /// `renew-after`
    public static let renewAfter = TraceFieldName("renew-after")
    /// `retry-after`
    public static let retryAfter = TraceFieldName("retry-after")
    /// `state`
    public static let state = TraceFieldName("state")
    /// `success`
    public static let success = TraceFieldName("success")
    /// `targets`
    public static let targets = TraceFieldName("targets")
    /// `template`
    public static let template = TraceFieldName("template")
    /// `templates`
    public static let templates = TraceFieldName("templates")
    /// `was-due`
    public static let wasDue = TraceFieldName("was-due")
}
