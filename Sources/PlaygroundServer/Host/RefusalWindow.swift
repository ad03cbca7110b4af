import ScrollCore

/// A connection's refused messages in the current second.
struct RefusalWindow {
    private var start: Int64?
    private var count = 0

    /// Counts one refusal at `time` (milliseconds); true for the first one past `limit` in its second (with
    /// `past`: for every one past it).
    mutating func count(at time: Int64, limit: Int, past: Bool = false) -> Bool {
        if let start, time - start < 1000 {
            count += 1
        } else {
            start = time
            count = 1
        }
        return past ? count > limit : count == limit + 1
    }
}

extension ErrorCode {
    /// Whether the code answers a message the client got wrong (the server's own notices do not count).
    var isRefusal: Bool {
        switch self {
        case .badJSON, .badMessage, .unknownType, .notReady, .tooLarge, .unknownItem: true
        case .rateLimited, .tooManyErrors, .serverFull: false
        }
    }
}
