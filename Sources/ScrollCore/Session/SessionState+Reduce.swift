extension SessionState {
    /// Applies one event and returns what the transport must do, in order.
    ///
    /// `now` is a monotonic clock in milliseconds, supplied by the caller so tests and replays control time.
    public mutating func reduce(_ event: SessionEvent, now: Int64) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        self.now = now
        switch event {
        case .helloReceived(let hello):
            open(hello, into: &effects)
        case .resumed(let lastRev):
            resume(lastRev: lastRev, into: &effects)
        case .forkTakenOver(let fork):
            resume(lastRev: nil, forkedFrom: fork, into: &effects)
        case .geometryReceived(let report):
            receive(report, now: now, into: &effects)
        case .configReceived(let fields):
            reconfigure(fields, into: &effects)
        case .refreshRequested:
            request(.refreshRequested, into: &effects)
        case .loadMoreRequested:
            request(.loadRequested(.bottom), into: &effects)
        case .loadPreviousRequested:
            request(.loadRequested(.top), into: &effects)
        case .resetRequested:
            reset(into: &effects)
        case .jumpRequested(let request):
            requestJump(request, into: &effects)
        case .timerFired(let timer):
            fire(timer, now: now, into: &effects)
        }
        if lifecycle == .open { sendStateIfChanged(into: &effects) }
        return effects
    }

    /// A person's ask (a `loadMore`, `loadPrevious` or `refresh` message), once the session is open.
    private mutating func request(_ event: FeedEvent, into effects: inout [SessionEffect]) {
        guard lifecycle == .open else { return }
        carryOut(ask(event), geometrySeq: nil, into: &effects)
    }

    // MARK: Timers

    /// A timer fell due: the runtime says what it asks for; a timer no longer waiting (dropped before it
    /// fired: a cancelled load's, a replaced jump's) does nothing.
    private mutating func fire(_ timer: TimerID, now: Int64, into effects: inout [SessionEffect]) {
        switch runtime.fire(timer) {
        case nil:
            return
        case .lands(.load(let edge), let ticket)?:
            completeLoad(at: edge, failing: drawnToFail.remove(ticket) != nil, into: &effects)
        case .lands(.refresh, let ticket)?:
            completeRefresh(failing: drawnToFail.remove(ticket) != nil, into: &effects)
        case .event(let event)?:
            carryOut(ask(event), geometrySeq: nil, into: &effects)
        case .own(.newMessage)?:
            messageArrives(into: &effects)
        case .own(.jump(let token))?:
            guard case .loading(let loading, let request) = jump, loading == token else { return }
            completeJump(request, into: &effects)
        case .own(.originFlush)?:
            flushOrigin(now: now, into: &effects)
        case .own(.pageLoad)?, .own(.previousLoad)?, .own(.refresh)?, .own(.loadRetry)?, .own(.previousRetry)?,
            .own(.refreshHold)?:
            // The runtime's own timers never come back as the session's (``TimerID/role``).
            return
        }
    }
}
