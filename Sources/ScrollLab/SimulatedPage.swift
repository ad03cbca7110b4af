import ScrollCore

/// A page as the browser lays it out: the items the server sent, stacked at their heights, and where the
/// user has scrolled. It applies `items` messages and the `scrollToTop` command the way the real page does.
public struct SimulatedPage: Equatable, Sendable {
    /// The layout it was opened with; a resize changes `containerHeight`.
    public var layout: PageLayout
    /// The items shown, in order.
    public private(set) var items: [FeedItem] = []
    /// The `rev` of the last items message applied.
    public private(set) var rev = 0
    /// The sum of the items' heights (`contentSize.height`; insets are not part of it).
    public private(set) var contentHeight = 0.0
    /// The scroll position, 0 at the top, at most ``maxScroll``.
    public var scroll = 0.0
    /// How far the content is pulled past its top, px (0 when not pulling).
    public var pull = 0.0

    public init(layout: PageLayout) {
        self.layout = layout
    }

    /// The farthest the user can scroll: the exact end less the browser's shortfall.
    public var maxScroll: Double {
        max(0, contentHeight + layout.insetTop + layout.insetBottom - layout.containerHeight - layout.endShortfall)
    }

    /// Whether the user is at the end they can reach (not pulling, content present).
    public var atEnd: Bool { pull == 0 && !items.isEmpty && scroll >= maxScroll - 0.001 }

    /// The height one item takes.
    public func height(of item: FeedItem) -> Double { item.height ?? layout.itemHeight }

    /// The geometry the page reports for this frame.
    public var geometry: ScrollGeometry {
        ScrollGeometry(
            contentOffset: ScrollPoint(x: 0, y: scroll - layout.insetTop - pull),
            contentSize: ScrollSize(width: layout.containerWidth, height: items.isEmpty ? 0 : contentHeight),
            containerSize: ScrollSize(width: layout.containerWidth, height: layout.containerHeight),
            contentInsets: ScrollInsets(top: layout.insetTop, bottom: layout.insetBottom))
    }

    /// Moves by `delta` px, kept within the content.
    public mutating func scroll(by delta: Double) {
        scroll = min(max(0, scroll + delta), maxScroll)
    }

    /// Applies an `items` message. A prepend while scrolled into the feed keeps the visible items where
    /// they were (the page shifts the position by the new items' height); at the top they simply appear.
    public mutating func apply(_ message: ItemsMessage) {
        let added = message.items.reduce(0.0) { $0 + height(of: $1) }
        switch message.op {
        case .replace:
            items = message.items
            contentHeight = added
            scroll = 0
        case .append:
            items += message.items
            contentHeight += added
        case .prepend:
            items.insert(contentsOf: message.items, at: 0)
            contentHeight += added
            if scroll > 0 { scroll += added }
        }
        rev = message.rev
        scroll = min(scroll, maxScroll)
    }

    /// Applies a resize of the viewport.
    public mutating func resize(containerHeight: Double) {
        layout.containerHeight = containerHeight
        scroll = min(scroll, maxScroll)
    }

    /// The `scrollToTop` command.
    public mutating func scrollToTop() {
        scroll = 0
        pull = 0
    }
}
