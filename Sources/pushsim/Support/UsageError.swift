import Foundation

/// How every command ends on a mistake in its command line: a line naming the mistake, a blank
/// line and the command's short usage on standard error, then exit status 2.
enum UsageError {
    /// Writes `line` (such as `pushsim serve: unknown option '--bogus'`), a blank line and `usage`
    /// to standard error and ends the process with status 2.
    static func end(_ line: String, usage: String) -> Never {
        FileHandle.standardError.write(Data("\(line)\n\n\(usage)\n".utf8))
        exit(2)
    }
}
