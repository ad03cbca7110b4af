/// `offsetObserving`'s throttled log of the content origin.
public struct OriginLog: Equatable, Sendable {
    /// An origin as logged.
    public struct Entry: Equatable, Sendable {
        public var origin: ScrollPoint
        /// When, on the core's clock (milliseconds).
        public var at: Int64
    }

    /// The origin last logged.
    public var last: Entry?
    /// A flush of the origin the throttle held back is scheduled.
    public var flushScheduled = false

    public init() {}
}
