/// What set a load or refresh going, as events name it (`data.trigger`).
public enum Trigger: String, Equatable, Sendable {
    /// The preset's bottom rule.
    case bottom
    /// The preset's pull rule.
    case pull
    /// A person pressed Load more or Refresh (`loadMore`, `refresh` messages).
    case manual
    /// A setting changed the rules under the current position.
    case configChanged
    /// A `reset`.
    case reset
    /// The retry policy's timer (`backoff`).
    case retry
    /// The preset's top rule (load previous, in a feed that opened in the middle or a chat).
    case top
    /// The session opened (`chat` opens at the bottom).
    case open
    /// A new message arrived (`newMessageEveryMs`).
    case newMessage
}

/// Why a load or refresh did not start, stopped or failed, as events name it (`data.reason`).
public enum Reason: String, Equatable, Sendable {
    /// A page load is already in flight.
    case loadInFlight
    /// The refresh indicator shows and the preset loads no page meanwhile.
    case refreshing
    /// A refresh started and the preset cancels the page load in flight.
    case refreshStarted
    /// A refresh is already in flight.
    case refreshInFlight
    /// The feed has no more items.
    case feedExhausted
    /// A `reset` abandoned it.
    case reset
    /// The seeded failure rate made it fail.
    case simulatedFailure = "simulated failure"
    /// The page's last load failed and an automatic retry is scheduled: the retry loads it.
    case retryScheduled
    /// The retry policy gave up on the page: only a person loads it again.
    case gaveUp
    /// A person pressed Load more (or Retry) before the scheduled retry.
    case manualLoad
    /// The retry policy changed.
    case retryPolicyChanged
    /// Older items exist above: the preset loads them before it refreshes (pull-to-refresh yields).
    case hasPrevious
    /// The session holds as many items as it may (`--max-session-items`).
    case itemCap
    /// A `jump` is loading its window or the page is scrolling to its item: the edge rules wait.
    case jump
    /// A `reset` or a change of the feed left the jump's item out of the feed.
    case unknownItem
}

extension JSONValue {
    /// A trigger as event data.
    public init(_ trigger: Trigger) { self = .string(trigger.rawValue) }

    /// A reason as event data.
    public init(_ reason: Reason) { self = .string(reason.rawValue) }
}

extension Trigger {
    /// What asked the controller, by its name on the wire.
    public init(_ trigger: FeedTrigger) {
        switch trigger {
        case .bottom: self = .bottom
        case .top: self = .top
        case .pull: self = .pull
        case .manual: self = .manual
        case .retry: self = .retry
        }
    }
}

extension Reason {
    /// Why the controller loaded nothing, by its name on the wire.
    public init(_ reason: LoadSuppression) {
        switch reason {
        case .loadInFlight: self = .loadInFlight
        case .refreshing: self = .refreshing
        case .retryScheduled: self = .retryScheduled
        case .gaveUp: self = .gaveUp
        }
    }

    /// Why the controller dropped a load in flight, by its name on the wire.
    public init(_ reason: LoadCancellation) {
        switch reason {
        case .refreshStarted: self = .refreshStarted
        case .reset: self = .reset
        }
    }

    /// Why the controller dropped a scheduled retry, by its name on the wire.
    public init(_ reason: RetryCancellation) {
        switch reason {
        case .manualLoad: self = .manualLoad
        case .feedExhausted: self = .feedExhausted
        case .retryPolicyChanged: self = .retryPolicyChanged
        case .reset: self = .reset
        }
    }
}

extension JSONValue {
    /// What asked the controller, as event data.
    public init(_ trigger: FeedTrigger) { self.init(Trigger(trigger)) }
}
