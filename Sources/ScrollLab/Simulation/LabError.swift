/// Input the lab cannot use; `description` is one line.
public enum LabError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No setting has this name.
    case unknownKey(String, accepted: [String])
    /// The value does not suit the setting.
    case badValue(key: String, reason: String)
    /// A sweep range with no values.
    case emptyRange(String)
    /// A sweep range whose step is 0 (or not a number).
    case badStep(String)
    /// A sweep not written `KEY=a,b,c` or `KEY=from:to:step`.
    case badSweep(String)
    /// The same key swept twice.
    case repeatedKey(String)
    /// A grid too large to run.
    case tooManyPoints(Int, limit: Int)
    /// A plot needs one or two swept keys.
    case plotNeedsOneOrTwoKeys(Int)
    /// Shard files that cannot be merged (unreadable, of different sweeps, incomplete).
    case badShard(String)

    public var description: String {
        switch self {
        case .unknownKey(let key, let accepted):
            "unknown key '\(key)' (one of \(accepted.joined(separator: ", ")))"
        case .badValue(let key, let reason): "\(key): \(reason)"
        case .emptyRange(let text): "the range '\(text)' has no values (from must not pass to)"
        case .badStep(let text): "the range '\(text)' needs a step other than 0"
        case .badSweep(let text): "'\(text)' is not KEY=a,b,c or KEY=from:to:step"
        case .repeatedKey(let key): "'\(key)' is swept twice"
        case .tooManyPoints(let count, let limit): "the grid has \(count) points; at most \(limit)"
        case .plotNeedsOneOrTwoKeys(let count): "--plot draws one or two swept keys, not \(count)"
        case .badShard(let reason): "merge: \(reason)"
        }
    }
}
