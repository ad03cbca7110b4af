/// How to draw the refresh indicator above the content and the loading row below it.
public struct IndicatorState: Equatable, Sendable {
    /// The refresh indicator shows.
    public var topVisible: Bool
    /// Its height, in points.
    public var topHeight: Double
    /// Its scale, 0.6…1 as the pull grows.
    public var topScale: Double
    /// Its opacity, 0…1.
    public var topOpacity: Double
    /// The loading row below the content shows (a page load is in flight).
    public var bottomVisible: Bool
    /// The last page load at the bottom failed: draw a Retry row (or its countdown). Nil otherwise.
    public var bottomFailure: Failure?
    /// The last page load at the top failed. Nil otherwise.
    public var topFailure: Failure?

    /// An indicator drawn with these values.
    public init(
        topVisible: Bool, topHeight: Double, topScale: Double, topOpacity: Double, bottomVisible: Bool,
        bottomFailure: Failure? = nil, topFailure: Failure? = nil
    ) {
        self.topVisible = topVisible
        self.topHeight = topHeight
        self.topScale = topScale
        self.topOpacity = topOpacity
        self.bottomVisible = bottomVisible
        self.bottomFailure = bottomFailure
        self.topFailure = topFailure
    }

    /// Nothing shows: no refresh indicator, no loading row, no failure.
    public init() {
        self.init(topVisible: false, topHeight: 0, topScale: 0.6, topOpacity: 0, bottomVisible: false)
    }

    /// Nothing shows (`IndicatorState()`): the value to start a `@State` with.
    public static let hidden = IndicatorState()

    /// A failed page, as a Retry row draws it.
    public struct Failure: Equatable, Sendable {
        /// The page's loads that failed in a row.
        public var failures: Int
        /// What the retry policy does next: a person retries (`manual`), nothing (`noRetry`), an automatic
        /// retry is scheduled (`scheduled`), or it gave up (`gaveUp`).
        public var next: RetryStatus
        /// When the scheduled retry starts, on the clock the controller is given (ms); nil unless scheduled.
        public var retryAt: Int64?

        /// A failure drawn with these values.
        public init(failures: Int, next: RetryStatus, retryAt: Int64? = nil) {
            self.failures = failures
            self.next = next
            self.retryAt = retryAt
        }

        /// The failed page as the controller holds it.
        package init(_ failure: LoadFailure) {
            var due: Int64?
            if case .scheduled(let retry) = failure.next { due = retry.due }
            self.init(failures: failure.failures, next: failure.next.status, retryAt: due)
        }

        /// Milliseconds until the scheduled retry at `now` (0 once due), nil when none is scheduled.
        public func retryCountdown(now: Int64) -> Int64? { retryAt.map { max(0, $0 - now) } }
    }
}

extension Preset {
    /// The indicator this preset draws for a pull, a refresh and a page load. `offset` is the content
    /// offset along the axis (`refreshOffsetObservable` draws it as it is).
    public func indicator(
        pull: PullState, refreshing: Bool, loadingNextPage: Bool, offset: Double, pullThreshold: Double
    ) -> IndicatorState {
        IndicatorState(
            behavior.indicator, pull: pull, refreshing: refreshing, loadingNextPage: loadingNextPage, offset: offset,
            pullThreshold: pullThreshold)
    }
}

extension IndicatorState {
    /// ``Preset/indicator(pull:refreshing:loadingNextPage:offset:pullThreshold:)`` for the preset's kind of
    /// indicator (``PresetBehavior/indicator``), for a caller that holds its behaviour already.
    init(
        _ kind: RefreshIndicator, pull: PullState, refreshing: Bool, loadingNextPage: Bool, offset: Double,
        pullThreshold: Double
    ) {
        let bottomVisible = loadingNextPage
        switch kind {
        case .offset:
            let visible = offset < 0
            self.init(
                topVisible: visible, topHeight: visible ? -offset : 0, topScale: min(abs(offset) / 50, 1),
                topOpacity: visible ? 1 : 0, bottomVisible: bottomVisible)
        case .spinner:
            if refreshing {
                self.init(
                    topVisible: true, topHeight: pullThreshold, topScale: 1, topOpacity: 1,
                    bottomVisible: bottomVisible)
                return
            }
            let progress = pull.progress
            self.init(
                topVisible: progress > 0, topHeight: pullThreshold * progress, topScale: 0.6 + 0.4 * progress,
                topOpacity: progress, bottomVisible: bottomVisible)
        case .none:
            self.init(
                topVisible: false, topHeight: 0, topScale: 0.6, topOpacity: 0, bottomVisible: bottomVisible)
        }
    }
}

extension IndicatorState {
    /// The part above the content: the refresh indicator and a failed previous page. A view that draws only
    /// this reads ``FeedModel``'s `top`, so a page load below does not redraw it.
    public struct Top: Equatable, Sendable {
        /// The refresh indicator shows.
        public var visible: Bool
        /// Its height, in points.
        public var height: Double
        /// Its scale, 0.6…1 as the pull grows.
        public var scale: Double
        /// Its opacity, 0…1.
        public var opacity: Double
        /// The last page load at the top failed. Nil otherwise.
        public var failure: Failure?
    }

    /// The part below the content: the loading row and a failed next page. A view that draws only this
    /// reads `FeedModel`'s `bottom`, so a pull's every frame does not redraw it.
    public struct Bottom: Equatable, Sendable {
        /// The loading row shows (a page load is in flight).
        public var visible: Bool
        /// The last page load at the bottom failed: draw a Retry row (or its countdown). Nil otherwise.
        public var failure: Failure?
    }

    /// The part above the content.
    public var top: Top {
        Top(visible: topVisible, height: topHeight, scale: topScale, opacity: topOpacity, failure: topFailure)
    }

    /// The part below the content.
    public var bottom: Bottom { Bottom(visible: bottomVisible, failure: bottomFailure) }

    /// The indicator made of its two parts.
    public init(top: Top, bottom: Bottom) {
        self.init(
            topVisible: top.visible, topHeight: top.height, topScale: top.scale, topOpacity: top.opacity,
            bottomVisible: bottom.visible, bottomFailure: bottom.failure, topFailure: top.failure)
    }
}
