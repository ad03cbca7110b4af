/// A session's id as the server gives it out: `s` and a number, never reused in a log folder.
struct SessionID: Hashable, Comparable, CustomStringConvertible, Sendable {
    let number: Int

    init(number: Int) {
        self.number = number
    }

    /// Reads an id such as `s12`; nil for anything else, so an id taken from a URL or a file name can never
    /// name another file.
    init?(_ text: some StringProtocol) {
        guard text.first == "s", text.count > 1, text.dropFirst().allSatisfy(\.isASCII),
            let number = Int(text.dropFirst()), number > 0
        else { return nil }
        self.number = number
    }

    var description: String { "s\(number)" }

    static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.number < rhs.number }
}
