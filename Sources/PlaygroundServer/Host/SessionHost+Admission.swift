import LWSTransport
import ScrollCore

/// Room for sessions, shared fairly by client address: one address may have at most half of `--max-sessions`
/// live, and a held session evicted to make room is taken from the address that has the most sessions.
extension SessionHost {
    /// The most live sessions one client address may have: half of `--max-sessions` (at least 1), so one client
    /// with many connections never takes every place (docs/decisions.md, issue 42). Its held sessions are not
    /// capped while there is room; when room is needed they go first (``nextToEvict()``).
    var maxSessionsPerAddress: Int { max(1, options.maxSessions / 2) }

    /// The one admission check for a new session (a `hello`, a fork's `hello` and the fork once rebuilt): refuses
    /// it with `server_full` and closes with 1013 when every place is live or its address has its share of live
    /// sessions; otherwise, with `makeRoom`, evicts a held session if one must go (``nextToEvict()``). True when
    /// the session may open.
    func admitNewSession(
        from peer: String, on id: ConnectionID, at time: Int64, makeRoom: Bool, loop: WebServerLoop
    ) -> Bool {
        func refuseFull(_ message: String) -> Bool {
            refuse(ProtocolError(.serverFull, message), on: id, at: time, loop: loop)
            loop.close(id, code: 1013, reason: "server full")
            return false
        }
        // Two connections admitted together can say hello when only one place is left.
        guard activeSessionCount < options.maxSessions else {
            return refuseFull("the server holds \(options.maxSessions) sessions")
        }
        let live = sessions.values.count { $0.peer == peer && $0.connection != nil }
        guard live < maxSessionsPerAddress else {
            return refuseFull(
                "this address has \(live) live sessions, its share (half of --max-sessions \(options.maxSessions)): "
                    + "close one first")
        }
        if makeRoom, sessions.count >= options.maxSessions, let next = nextToEvict() {
            forget(next, loop: loop)
            // Logged, not traced: it is the server's housekeeping, not a decision of the session's rules.
            log.record(
                LogEntry(.sessionEvicted, ["reason": "maxSessions", "maxSessions": .int(options.maxSessions)]),
                session: next.id.description)
        }
        return true
    }

    /// The held session to evict first: of the client address that has the most sessions (live or held), the
    /// one that has waited longest for its page. So a client that opens and drops sessions as fast as it can
    /// evicts its own, not another person's. Nil when every session is connected.
    func nextToEvict() -> Hosted? {
        var counts: [String: Int] = [:]
        for hosted in sessions.values { counts[hosted.peer, default: 0] += 1 }
        return sessions.values.filter { $0.connection == nil }.min {
            (-(counts[$0.peer] ?? 0), $0.disconnectedAt ?? 0, $0.id.number)
                < (-(counts[$1.peer] ?? 0), $1.disconnectedAt ?? 0, $1.id.number)
        }
    }
}
