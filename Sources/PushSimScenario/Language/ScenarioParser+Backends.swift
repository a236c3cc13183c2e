import PushSimBackend

/// What may follow the word `backend` (in the `backend` setting, a `device` or a `devices`
/// statement): one of PushSim's own backends, or the address of the user's.
enum BackendChoice: Equatable {
    case builtIn(BackendFlavour)
    case external(ExternalBackendAddress)

    var flavour: BackendFlavour? { if case .builtIn(let f) = self { return f } else { return nil } }
    var external: ExternalBackendAddress? { if case .external(let a) = self { return a } else { return nil } }
}

extension ScenarioParser.Tokens {
    static let backendHint = "backends are tutorial, hardened, or external \"http://127.0.0.1:8080\" (your own, on loopback)"

    /// `tutorial`, `hardened` or `external "<http address>"`.
    mutating func backendChoice() throws(ScenarioDiagnostic) -> BackendChoice {
        if skip("external") {
            let token = try string("the backend's address in double quotes, e.g. \"http://127.0.0.1:8080\"", hint: Self.backendHint)
            switch ExternalBackendAddress.parse(token.text) {
            case .success(let address): return .external(address)
            case .failure(let problem):
                throw ScenarioDiagnostic(location: location(token), message: "\(token.quoted) is not an external backend's address: \(problem.message)",
                                         hint: "write backend external \"http://127.0.0.1:8080\"")
            }
        }
        let token = try word("a backend (tutorial, hardened or external \"<address>\")", hint: Self.backendHint)
        guard let flavour = BackendFlavour(rawValue: token.text) else {
            throw ScenarioDiagnostic(location: location(token), message: "unknown backend \(token.quoted)", hint: Self.backendHint)
        }
        return .builtIn(flavour)
    }
}
