import LWSTransport
import ScrollCore

/// A geometry message held by a session's ``GeometryPacer``, with its text for the trace.
struct HeldGeometry {
    var report: GeometryReport
    var raw: [UInt8]
}

extension SessionHost {
    /// Applies a geometry message now, or holds it until the session's pace allows (the newest held one
    /// wins). A dropped geometry raises one `rate_limited` warning a second.
    func admitGeometry(_ report: GeometryReport, raw: [UInt8], on hosted: Hosted, at time: Int64) {
        let arrival = hosted.geometryPacer.arrive(HeldGeometry(report: report, raw: raw), at: Self.pacerNow)
        switch arrival {
        case .apply(let geometry, let warn):
            if warn { warnRateLimited(hosted, at: time) }
            apply(geometry, on: hosted, at: time)
        case .held(let flushAfter, let warn):
            if warn { warnRateLimited(hosted, at: time) }
            guard let flushAfter else { return }
            let sessionID = hosted.state.id
            server.schedule(afterMilliseconds: flushAfter) { [weak self] in
                self?.heldGeometryDue(session: sessionID)
            }
        }
    }

    /// Applies the held geometry, if any, before `next` is handled, so that messages keep their order.
    /// A `ping` changes nothing in the session and does not flush, so pings cannot be used to skip the pace.
    func flushHeldGeometry(
        of hosted: Hosted, before next: Result<ClientMessage, ProtocolError>? = nil, at time: Int64
    ) {
        if case .success(.ping)? = next { return }
        guard hosted.geometryPacer.isHolding, let geometry = hosted.geometryPacer.takeHeld(at: Self.pacerNow) else {
            return
        }
        apply(geometry, on: hosted, at: time)
    }

    private func heldGeometryDue(session sessionID: String) {
        guard let hosted = sessions[sessionID], let geometry = hosted.geometryPacer.flushDue(at: Self.pacerNow) else {
            return
        }
        apply(geometry, on: hosted, at: now)
    }

    // Recorded when applied, not when received: the trace holds exactly what the core saw and when, so a
    // replay makes the same decisions; geometry that was dropped never reached the core.
    private func apply(_ geometry: HeldGeometry, on hosted: Hosted, at time: Int64) {
        hosted.trace?.record(.input(t: time, text: geometry.raw))
        handle(.message(.success(.geometry(geometry.report))), on: hosted, at: time)
    }

    private func warnRateLimited(_ hosted: Hosted, at time: Int64) {
        hosted.trace?.record(.violation(t: time, .rateLimited))
        handle(.violation(.rateLimited), on: hosted, at: time)
    }

    /// Nanoseconds on a monotonic clock, for the pacer.
    private static var pacerNow: Int64 {
        let elapsed = ContinuousClock.now - pacerEpoch
        return elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
    }

    private static let pacerEpoch = ContinuousClock.now
}
