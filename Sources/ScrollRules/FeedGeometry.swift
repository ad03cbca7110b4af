/// A point in CSS pixels (= points).
public struct ScrollPoint: Equatable, Hashable, Sendable, Codable {
    /// Horizontal, leading to trailing.
    public var x: Double
    /// Vertical, top to bottom.
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = ScrollPoint(x: 0, y: 0)
}

/// A size in CSS pixels.
public struct ScrollSize: Equatable, Hashable, Sendable, Codable {
    /// Along the horizontal axis.
    public var width: Double
    /// Along the vertical axis.
    public var height: Double

    /// The size `width` × `height`.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Nothing measured yet.
    public static let zero = ScrollSize(width: 0, height: 0)
}

/// Insets around the content, as SwiftUI's `EdgeInsets`.
public struct ScrollInsets: Equatable, Hashable, Sendable, Codable {
    /// Above the content.
    public var top: Double
    /// Before the content, horizontally.
    public var leading: Double
    /// Below the content.
    public var bottom: Double
    /// After the content, horizontally.
    public var trailing: Double

    /// Insets on each edge (none by default).
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// No insets.
    public static let zero = ScrollInsets()
}

/// The phase of a scroll interaction, as SwiftUI's `ScrollPhase`.
public enum FeedScrollPhase: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
    /// Nothing moves.
    case idle
    /// A touch is down but has not moved enough to scroll yet.
    case tracking
    /// A finger, pointer drag or wheel burst drives the scroll.
    case interacting
    /// The content coasts after the user let go.
    case decelerating
    /// The content moves programmatically (e.g. `scrollToTop`).
    case animating
}

/// The scroll axis a session observes.
public enum ScrollAxis: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
    /// Top to bottom: y, height, top and bottom insets.
    case vertical
    /// Leading to trailing: x, width, leading and trailing insets.
    case horizontal
}

/// The scroll geometry the page reports, with SwiftUI's `ScrollGeometry` names and conventions.
public struct FeedGeometry: Equatable, Hashable, Sendable, Codable {
    /// The content's top-left scroll position; negative while the user pulls past the top.
    public var contentOffset: ScrollPoint
    /// The size of all the content.
    public var contentSize: ScrollSize
    /// The size of the visible viewport.
    public var containerSize: ScrollSize
    /// Insets such as a sticky header or safe area.
    public var contentInsets: ScrollInsets

    /// A geometry with these values (zero where not given).
    public init(
        contentOffset: ScrollPoint = .zero,
        contentSize: ScrollSize = .zero,
        containerSize: ScrollSize = .zero,
        contentInsets: ScrollInsets = .zero
    ) {
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.containerSize = containerSize
        self.contentInsets = contentInsets
    }

    /// The geometry seen along one axis.
    public func along(_ axis: ScrollAxis) -> AxisGeometry {
        switch axis {
        case .vertical:
            AxisGeometry(
                offset: contentOffset.y, contentLength: contentSize.height, containerLength: containerSize.height,
                leadingInset: contentInsets.top, trailingInset: contentInsets.bottom)
        case .horizontal:
            AxisGeometry(
                offset: contentOffset.x, contentLength: contentSize.width, containerLength: containerSize.width,
                leadingInset: contentInsets.leading, trailingInset: contentInsets.trailing)
        }
    }
}

/// One axis of a `FeedGeometry`, and the values the rules derive from it.
public struct AxisGeometry: Equatable, Sendable {
    /// `contentOffset.y` (or `.x`).
    public var offset: Double
    /// `contentSize.height` (or `.width`).
    public var contentLength: Double
    /// `containerSize.height` (or `.width`).
    public var containerLength: Double
    /// `contentInsets.top` (or `.leading`).
    public var leadingInset: Double
    /// `contentInsets.bottom` (or `.trailing`).
    public var trailingInset: Double

    /// Slack for comparisons so fractional pixels from browser zoom cannot prevent a trigger.
    public static let slack = 0.5

    /// How far the content is pulled past its top: `max(0, -(offset + leadingInset))`.
    public var pullDistance: Double { max(0, -(offset + leadingInset)) }

    /// How far the viewport's start is from the content's start, insets included (negative while pulled).
    public var distanceToTop: Double { offset + leadingInset }

    /// How far the viewport's end is from the content's end, insets included.
    public var distanceToBottom: Double { (contentLength + trailingInset) - (offset + containerLength) }
}
