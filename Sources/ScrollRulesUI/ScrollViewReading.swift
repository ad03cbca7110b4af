import ScrollRules

/// What a `UIScrollView` says about itself, in points, as an iOS 17 probe reads it (`contentOffset`,
/// `contentSize`, `bounds.size`, `adjustedContentInset`, `isTracking`, `isDragging`, `isDecelerating`), and the
/// same geometry and phase iOS 18's `ScrollGeometry` and `ScrollPhase` give. Pure, so it is tested on Linux.
public struct ScrollViewReading: Equatable, Sendable {
    /// `contentOffset`: at rest under a navigation bar it is `-adjustedContentInset.top`, not 0.
    public var contentOffset: ScrollPoint
    /// `contentSize`.
    public var contentSize: ScrollSize
    /// `bounds.size`: the scroll view's own size.
    public var boundsSize: ScrollSize
    /// `adjustedContentInset`: `contentInset` plus the safe area the scroll view adjusts for.
    public var adjustedContentInset: ScrollInsets
    /// `isTracking`: a finger is down (it may not have moved the content yet).
    public var isTracking: Bool
    /// `isDragging`: a finger moved the content.
    public var isDragging: Bool
    /// `isDecelerating`: the content moves on after the finger lifted (a fling, a bounce back).
    public var isDecelerating: Bool

    /// A reading with these values.
    public init(
        contentOffset: ScrollPoint, contentSize: ScrollSize, boundsSize: ScrollSize,
        adjustedContentInset: ScrollInsets = .zero, isTracking: Bool = false, isDragging: Bool = false,
        isDecelerating: Bool = false
    ) {
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.boundsSize = boundsSize
        self.adjustedContentInset = adjustedContentInset
        self.isTracking = isTracking
        self.isDragging = isDragging
        self.isDecelerating = isDecelerating
    }

    /// The geometry as iOS 18's `ScrollGeometry` has it: the offset as UIKit gives it and the insets beside
    /// it, so the rules add them back (`distanceToTop` is `offset + top inset`: 0 at rest under a bar, and a
    /// pull reads only what goes past the rest position).
    public var geometry: FeedGeometry {
        FeedGeometry(
            contentOffset: contentOffset, contentSize: contentSize, containerSize: boundsSize,
            contentInsets: adjustedContentInset)
    }

    /// The phase as iOS 18's `ScrollPhase` names it: `interacting` while a finger moves the content,
    /// `tracking` while one is down without having moved it, `decelerating` after a lift while the content
    /// moves on, else `idle`. (UIKit has no flag for a programmatic scroll, iOS 18's `animating`.)
    public var phase: FeedScrollPhase {
        if isDragging, isTracking { return .interacting }
        if isTracking { return .tracking }
        if isDecelerating || isDragging { return .decelerating }
        return .idle
    }
}
