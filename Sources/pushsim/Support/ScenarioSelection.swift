import PushSim

/// `--filter <text>`: the scenario files whose path, or whose scenario's name, contains the text,
/// ignoring case. A file that cannot be parsed is kept only when its path matches (so that its
/// mistakes are still reported).
enum ScenarioSelection {
    /// The files of `files` that `text` selects, in order; all of them when `text` is nil or empty.
    static func filter(_ files: [String], by text: String?) -> [String] {
        guard let text, !text.isEmpty else { return files }
        let needle = text.lowercased()
        return files.filter { file in
            if file.lowercased().contains(needle) { return true }
            if case .success(let scenario) = PushSim.loadScenario(path: file) { return scenario.name.lowercased().contains(needle) }
            return false
        }
    }
}
