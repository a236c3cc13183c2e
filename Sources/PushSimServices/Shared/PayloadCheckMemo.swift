/// The last payload a service checked and found good, with what it was checked as (an XML root
/// element, a JSON shape): a fan-out hands the same bytes to a service once per device, and the
/// answer for the same bytes is always the same, so they are parsed once. Only a payload that
/// passed is remembered; a bad one is parsed (and refused) every time.
struct PayloadCheckMemo {
    private var body: [UInt8] = []
    private var kind = ""

    /// Whether `body` is the payload last found good as `kind`. Comparing arrays that share
    /// storage (the usual case: copies of one send) costs no byte comparison.
    func isKnownGood(_ body: [UInt8], as kind: String) -> Bool { kind == self.kind && body == self.body }

    mutating func remember(_ body: [UInt8], as kind: String) {
        self.body = body
        self.kind = kind
    }
}
