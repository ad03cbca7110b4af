/// The clock a `FeedModel` reads and sleeps on, in milliseconds: `ContinuousFeedClock` in an app, a clock
/// the test advances in a test. The rules only compare its readings, so any monotonic origin does.
public protocol FeedClock: Sendable {
    /// Milliseconds since the clock's origin.
    func now() -> Int64
    /// Returns once `now()` reached `deadline`; throws `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Int64) async throws
}

/// `ContinuousClock` in milliseconds since the clock was made (no Foundation).
public struct ContinuousFeedClock: FeedClock {
    private let origin: ContinuousClock.Instant

    /// A clock whose origin is now.
    public init() { origin = .now }

    /// Milliseconds since the origin.
    public func now() -> Int64 {
        let elapsed = (ContinuousClock.now - origin).components
        return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
    }

    /// Sleeps on `ContinuousClock` until `deadline`.
    public func sleep(until deadline: Int64) async throws {
        try await ContinuousClock().sleep(until: origin + .milliseconds(deadline), tolerance: nil)
    }
}
