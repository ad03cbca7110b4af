/// What set something going that the rules' `FeedTrigger` does not name: the playground's session's own
/// triggers, as events name them (`data.trigger`). A rule's or a person's ask logs its `FeedTrigger`.
public enum Trigger: String, Equatable, Sendable {
    /// A setting changed the rules under the current position.
    case configChanged
    /// A `reset`.
    case reset
    /// The session opened (`chat` opens at the bottom).
    case open
    /// A new message arrived (`newMessageEveryMs`).
    case newMessage
}

/// Why a load or refresh did not start, stopped or failed, as events name it (`data.reason`): the rules'
/// reasons by their own enums (their names are theirs), and the ones only the playground's session gives.
public enum Reason: Equatable, Sendable {
    /// Why the controller loaded nothing.
    case suppression(LoadSuppression)
    /// Why the controller, or a `reset`, dropped a load in flight.
    case cancellation(LoadCancellation)
    /// Why the controller dropped a scheduled retry; `feedExhausted` also says why an ask loaded nothing.
    case retryCancellation(RetryCancellation)
    /// A refresh is already in flight.
    case refreshInFlight
    /// The seeded failure rate made it fail.
    case simulatedFailure
    /// Older items exist above: the preset loads them before it refreshes (pull-to-refresh yields).
    case hasPrevious
    /// The session holds as many items as it may (`--max-session-items`).
    case itemCap
    /// A `jump` is loading its window or the page is scrolling to its item: the edge rules wait.
    case jump
    /// A `reset` or a change of the feed left the jump's item out of the feed.
    case unknownItem

    /// Its name in events: the rules' own for theirs.
    public var name: String {
        switch self {
        case .suppression(let reason): reason.rawValue
        case .cancellation(let reason): reason.rawValue
        case .retryCancellation(let reason): reason.rawValue
        case .refreshInFlight: "refreshInFlight"
        case .simulatedFailure: "simulated failure"
        case .hasPrevious: "hasPrevious"
        case .itemCap: "itemCap"
        case .jump: "jump"
        case .unknownItem: "unknownItem"
        }
    }

    /// Why the controller loaded nothing.
    public init(_ reason: LoadSuppression) { self = .suppression(reason) }

    /// Why the controller dropped a load in flight.
    public init(_ reason: LoadCancellation) { self = .cancellation(reason) }

    /// Why the controller dropped a scheduled retry.
    public init(_ reason: RetryCancellation) { self = .retryCancellation(reason) }
}

extension JSONValue {
    /// A trigger of the session's as event data.
    public init(_ trigger: Trigger) { self = .string(trigger.rawValue) }

    /// What asked the controller, as event data.
    public init(_ trigger: FeedTrigger) { self = .string(trigger.rawValue) }

    /// A reason as event data.
    public init(_ reason: Reason) { self = .string(reason.name) }
}
