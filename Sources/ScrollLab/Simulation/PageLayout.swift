import ScrollCore

/// The simulated page's layout: its viewport, insets, and how tall an item without a height is.
public struct PageLayout: Equatable, Hashable, Sendable {
    /// The viewport's width, px.
    public var containerWidth = 390.0
    /// The viewport's height, px.
    public var containerHeight = 844.0
    /// `contentInsets.top`, e.g. a sticky header.
    public var insetTop = 0.0
    /// `contentInsets.bottom`, e.g. a tab bar.
    public var insetBottom = 0.0
    /// The height of an item whose feed entry has none (the page's CSS row height).
    public var itemHeight = 72.0
    /// How far short of the exact end the browser stops scrolling (browser zoom leaves 0.4 px), px.
    public var endShortfall = 0.0
    /// How the list reports its content size (the session's `contentSize` setting).
    public var contentSize = ContentSizeModel.exact

    public init() {}
}
