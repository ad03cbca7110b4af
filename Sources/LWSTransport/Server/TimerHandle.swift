/// Identifies a timer made by ``WebServerLoop/schedule(afterMilliseconds:_:)`` so it can be cancelled.
public struct TimerHandle: Hashable, Sendable {
    let rawValue: UInt64
}
