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
        checkTheSyntheticSideFollowsTheController()
        if lifecycle == .open { sendStateIfChanged(into: &effects) }
        return effects
    }

    /// A person's ask (a `loadMore`, `loadPrevious` or `refresh` message), once the session is open.
    private mutating func request(_ event: FeedEvent, into effects: inout [SessionEffect]) {
        guard lifecycle == .open else { return }
        carryOut(ask(event), geometrySeq: nil, into: &effects)
    }

    // MARK: Timers

    private mutating func fire(_ timer: TimerID, now: Int64, into effects: inout [SessionEffect]) {
        switch timer {
        case .pageLoad(let token), .previousLoad(let token):
            // A cancelled load's timer may still fire: its result is discarded.
            let edge: FeedEdge = timer == .pageLoad(token) ? .bottom : .top
            guard let request = edges[edge].request, request.token == token else { return }
            completeLoad(request, at: edge, into: &effects)
        case .refresh(let token):
            guard let request = refreshRequest, request.token == token else { return }
            completeRefresh(request, into: &effects)
        case .refreshHold:
            carryOut(ask(.holdEnded), geometrySeq: nil, into: &effects)
        case .loadRetry(let token), .previousRetry(let token):
            // A cancelled retry's timer may still fire: it is ignored.
            let edge: FeedEdge = timer == .loadRetry(token) ? .bottom : .top
            guard edges[edge].retryToken == token else { return }
            carryOut(ask(.retryDue(edge)), geometrySeq: nil, into: &effects)
        case .newMessage:
            messageArrives(into: &effects)
        case .jump(let token):
            // A replaced jump's timer may still fire: it is ignored.
            guard case .loading(let loading, let request) = jump, loading == token else { return }
            completeJump(request, into: &effects)
        case .originFlush:
            flushOrigin(now: now, into: &effects)
        }
    }
}
