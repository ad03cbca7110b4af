import ScrollRules

/// A recording of one scroll view, owned by the app (make it in `@State`): each frame is appended to its
/// `TraceRecorder` in place (no copy of the trace per frame) and handed to `send`, if set (a
/// `PlaygroundStream`'s `send`). `clock` is the recording's: `trace(closedAt: recording.clock.now())`.
@MainActor
public final class ScrollRecording {
    /// The trace so far.
    public private(set) var recorder: TraceRecorder
    /// The recording's clock: every frame's `t`, in ms since the recording started.
    public let clock: any FeedClock
    /// Hears each frame's `geometry` message (a live `record` session), if set.
    public var send: (@MainActor (String) -> Void)?
    private var geometry: FeedGeometry?
    private var phase = FeedScrollPhase.idle

    /// A recording of `app` on `device` running `settings`, its trace starting at the clock's now.
    public init(app: String, device: String, settings: FeedSettings, clock: any FeedClock = ContinuousFeedClock()) {
        self.clock = clock
        recorder = TraceRecorder(app: app, device: device, settings: settings, at: clock.now())
    }

    /// The scroll view's geometry changed.
    public func geometryChanged(_ geometry: FeedGeometry) {
        self.geometry = geometry
        record()
    }

    /// The scroll view's phase changed.
    public func phaseChanged(_ phase: FeedScrollPhase) {
        self.phase = phase
        record()
    }

    /// The trace as a file's text, closed now.
    public func trace() -> String { recorder.trace(closedAt: clock.now()) }

    private func record() {
        guard let geometry, let message = recorder.frame(geometry, phase: phase, at: clock.now()) else { return }
        send?(message)
    }
}
