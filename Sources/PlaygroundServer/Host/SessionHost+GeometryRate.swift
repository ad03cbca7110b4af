import LWSTransport
import ScrollCore

/// A geometry message held by a session's ``GeometryPacer``, with its text for the trace.
struct HeldGeometry {
    var report: GeometryReport
    var raw: [UInt8]
}

extension SessionHost {
    /// Applies a geometry message now, or holds it until the session's pace allows (the newest held one
    /// wins). A dropped geometry raises one `rate_limited` warning a second. `reading` is the clock's
    /// reading (nanoseconds) for this input.
    func admitGeometry(_ report: GeometryReport, raw: [UInt8], on hosted: Hosted, reading: Int64, loop: WebServerLoop) {
        let time = hosted.time(reading)
        // The usual case, taken without wrapping the report to hold it (a copy of it, and of the answer).
        if hosted.geometryPacer.admitsAtOnce(at: reading) {
            apply(report, raw: raw, on: hosted, at: time, loop: loop)
            return
        }
        switch hosted.geometryPacer.arrive(HeldGeometry(report: report, raw: raw), at: reading) {
        case .apply(let geometry, let warn):
            if warn { warnRateLimited(hosted, at: time, loop: loop) }
            apply(geometry.report, raw: geometry.raw, on: hosted, at: time, loop: loop)
        case .held(let flushAfter, let warn):
            if warn { warnRateLimited(hosted, at: time, loop: loop) }
            guard let flushAfter else { return }
            let sessionID = hosted.id
            loop.schedule(afterMilliseconds: flushAfter) { [weak self] loop in
                self?.heldGeometryDue(session: sessionID, loop: loop)
            }
        }
    }

    /// Applies the held geometry, if any, before the next input is handled, so that inputs keep their order.
    func flushHeldGeometry(of hosted: Hosted, reading: Int64, loop: WebServerLoop) {
        guard hosted.geometryPacer.isHolding, let geometry = hosted.geometryPacer.takeHeld(at: reading) else { return }
        apply(geometry.report, raw: geometry.raw, on: hosted, at: hosted.time(reading), loop: loop)
    }

    private func heldGeometryDue(session sessionID: SessionID, loop: WebServerLoop) {
        let reading = clock()
        guard let hosted = sessions[sessionID], let geometry = hosted.geometryPacer.flushDue(at: reading) else {
            return
        }
        apply(geometry.report, raw: geometry.raw, on: hosted, at: hosted.time(reading), loop: loop)
    }

    // Recorded when applied, not when received: the trace holds exactly what the core saw and when, so a
    // replay makes the same decisions; geometry that was dropped never reached the core.
    private func apply(
        _ report: GeometryReport, raw: [UInt8], on hosted: Hosted, at time: Int64, loop: WebServerLoop
    ) {
        hosted.trace?.recordInput(raw, isJSON: true, at: time)
        perform(hosted.state.reduce(.geometryReceived(report), now: time), for: hosted, at: time, loop: loop)
    }

    private func warnRateLimited(_ hosted: Hosted, at time: Int64, loop: WebServerLoop) {
        hosted.trace?.record(.violation(t: time, .rateLimited))
        handle(.violation(.rateLimited), on: hosted, at: time, loop: loop)
    }
}
