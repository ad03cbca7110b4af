import ScrollRules
import ScrollRulesUI
import Testing

/// iOS 17's reading of a `UIScrollView`, against the numbers UIKit documents: `adjustedContentInset` is
/// `contentInset` plus the safe area, and a scroll view at rest sits at `contentOffset.y == -adjustedContentInset.top`.
struct ScrollViewReadingTests {
    /// An iPhone 15 in portrait with a large-title navigation bar: a 59 pt status bar area and a 96 pt bar,
    /// a 34 pt home indicator.
    static let insets = ScrollInsets(top: 155, leading: 0, bottom: 34, trailing: 0)

    static func reading(offset: Double, tracking: Bool = false, dragging: Bool = false, decelerating: Bool = false)
        -> ScrollViewReading
    {
        ScrollViewReading(
            contentOffset: ScrollPoint(x: 0, y: offset), contentSize: ScrollSize(width: 393, height: 3000),
            boundsSize: ScrollSize(width: 393, height: 852), adjustedContentInset: insets, isTracking: tracking,
            isDragging: dragging, isDecelerating: decelerating)
    }

    @Test func atRestUnderANavigationBarNothingIsPulled() {
        let axis = Self.reading(offset: -155).geometry.along(.vertical)
        #expect(axis.pullDistance == 0)
        #expect(axis.distanceToTop == 0)
        var controller = FeedController(settings: FeedSettings(preset: .refreshable))
        #expect(controller.geometryChanged(Self.reading(offset: -155).geometry, phase: .idle, now: 0) == [])
        #expect(controller.pull.distance == 0)
    }

    @Test func aPullIsWhatGoesPastTheRestPosition() {
        #expect(Self.reading(offset: -225).geometry.along(.vertical).pullDistance == 70)
    }

    @Test func theBottomCountsTheInsetBelow() {
        // The last row clears the home indicator: the end is reached at contentSize − bounds + bottom inset.
        let end = 3000 - 852 + 34.0
        #expect(Self.reading(offset: end).geometry.along(.vertical).distanceToBottom == 0)
    }

    @Test func thePhaseFollowsUIKitsFlags() {
        #expect(Self.reading(offset: 0).phase == .idle)
        #expect(Self.reading(offset: 0, tracking: true).phase == .tracking)
        #expect(Self.reading(offset: 0, tracking: true, dragging: true).phase == .interacting)
        // After the lift UIKit clears `isTracking` first; `isDragging` may linger a frame while it decelerates.
        #expect(Self.reading(offset: 0, dragging: true, decelerating: true).phase == .decelerating)
        #expect(Self.reading(offset: 0, decelerating: true).phase == .decelerating)
        // A drag the system cancels clears every flag: the phase ends.
        #expect(Self.reading(offset: 0).phase == .idle)
    }
}
