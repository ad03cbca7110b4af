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
    public var scroll = 0.0 {
        didSet { realize() }
    }
    /// How far the content is pulled past its top, px (0 when not pulling).
    public var pull = 0.0
    /// How far the content is past its end, px: the iOS model's rubber band and bounce at the bottom.
    public var overshoot = 0.0
    /// The iOS scroll model that moves the page under a finger (``drag(by:)``, ``lift(velocity:)``) and after.
    public private(set) var motion = IOSScrollModel()
    /// Rows laid out from the top that a lazy stack has realized (``PageLayout/contentSize``).
    public private(set) var realized = 0
    /// Their heights' sum.
    private var realizedHeight = 0.0
    /// A `scrollToItem` command whose item has not arrived yet: it is carried out once it does.
    public private(set) var pendingJump: (id: String, anchor: JumpAnchor)?

    public static func == (lhs: SimulatedPage, rhs: SimulatedPage) -> Bool {
        lhs.layout == rhs.layout && lhs.items == rhs.items && lhs.rev == rhs.rev
            && lhs.contentHeight == rhs.contentHeight && lhs.scroll == rhs.scroll && lhs.pull == rhs.pull
            && lhs.overshoot == rhs.overshoot && lhs.motion == rhs.motion && lhs.realized == rhs.realized
            && lhs.pendingJump?.id == rhs.pendingJump?.id && lhs.pendingJump?.anchor == rhs.pendingJump?.anchor
    }

    public init(layout: PageLayout) {
        self.layout = layout
    }

    /// The farthest the user can scroll: the reported end less the browser's shortfall.
    public var maxScroll: Double {
        max(
            0,
            reportedContentHeight + layout.insetTop + layout.insetBottom - layout.containerHeight - layout.endShortfall)
    }

    /// `contentSize.height` as the list reports it: the rows' sum, or under `lazyEstimate` the realized rows'
    /// heights and the mean of theirs for every other row.
    public var reportedContentHeight: Double {
        guard layout.contentSize == .lazyEstimate, realized < items.count else { return contentHeight }
        let estimate = realized == 0 ? layout.itemHeight : realizedHeight / Double(realized)
        return realizedHeight + Double(items.count - realized) * estimate
    }

    /// Whether the user is at the end they can reach (not pulling, content present; past it in a bounce too).
    public var atEnd: Bool { pull == 0 && !items.isEmpty && scroll >= maxScroll - 0.001 }

    /// The height one item takes.
    public func height(of item: FeedItem) -> Double { item.height ?? layout.itemHeight }

    /// The geometry the page reports for this frame.
    public var geometry: FeedGeometry {
        FeedGeometry(
            contentOffset: ScrollPoint(x: 0, y: scroll - layout.insetTop - pull + overshoot),
            contentSize: ScrollSize(width: layout.containerWidth, height: items.isEmpty ? 0 : reportedContentHeight),
            containerSize: ScrollSize(width: layout.containerWidth, height: layout.containerHeight),
            contentInsets: ScrollInsets(top: layout.insetTop, bottom: layout.insetBottom))
    }

    /// Moves by `delta` px, kept within the content.
    public mutating func scroll(by delta: Double) {
        scroll = min(max(0, scroll + delta), maxScroll)
        realize()
    }

    // MARK: The iOS model

    /// The iOS model's bounds for this page.
    public var motionBounds: IOSScrollModel.Bounds {
        IOSScrollModel.Bounds(maxOffset: maxScroll, dimension: layout.containerHeight)
    }

    /// A finger down and moving the content by `delta` px (positive: toward the end), the rubber band past
    /// either end.
    public mutating func drag(by delta: Double) {
        syncMotion()
        motion.drag(by: delta, bounds: motionBounds)
        showMotion()
    }

    /// The finger lifts moving at `velocity` px/s: momentum, or the spring back from past an end.
    public mutating func lift(velocity: Double) {
        syncMotion()
        motion.release(velocity: velocity, bounds: motionBounds)
        showMotion()
    }

    /// `ms` of momentum or spring.
    public mutating func advanceMotion(ms: Double) {
        guard motion.motion != .idle else { return }
        syncMotion()
        motion.advance(ms: ms, bounds: motionBounds)
        showMotion()
    }

    /// The model takes the page's place (the page may have moved without it: a jump, a prepend, a resize).
    private mutating func syncMotion() {
        motion.position = scroll - pull + overshoot
        motion.boundsChanged(motionBounds)
    }

    /// The page shows the model's position: in range, or pulled past the top, or past the end.
    private mutating func showMotion() {
        let position = motion.position
        let end = maxScroll
        scroll = min(max(0, position), end)
        pull = position < 0 ? -position : 0
        overshoot = position > end ? position - end : 0
        realize()
    }

    /// A lazy stack realizes the rows from the top down to the viewport's end plus half a viewport.
    private mutating func realize() {
        guard layout.contentSize == .lazyEstimate else { return }
        let reach = scroll + overshoot - layout.insetTop + layout.containerHeight * 1.5
        let before = realized
        while realized < items.count, realizedHeight < reach {
            realizedHeight += height(of: items[realized])
            realized += 1
        }
        // Rows measured shorter than their estimate shrink the content under the view: it stays in range.
        if realized != before, scroll > maxScroll { scroll = maxScroll }
    }

    /// Something moved the page at once (a command, new rows at the top): any motion stops there.
    private mutating func stopMotion() {
        overshoot = 0
        motion.jump(to: scroll - pull)
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
            (realized, realizedHeight) = (0, 0)
            stopMotion()
        case .append:
            items += message.items
            contentHeight += added
        case .prepend:
            items.insert(contentsOf: message.items, at: 0)
            contentHeight += added
            // Rows above the realized ones are measured as they come (a simplification: docs/fidelity.md).
            if realized > 0 || layout.contentSize == .exact {
                (realized, realizedHeight) = (realized + message.items.count, realizedHeight + added)
            }
            if scroll > 0 { scroll += added }
        case .trim:
            // A bounded window drops items far from the viewport; at the top the view keeps its place.
            let count = min(message.trimmed?.count ?? 0, items.count)
            if message.trimmed?.edge == .top {
                let removed = items.prefix(count).reduce(0.0) { $0 + height(of: $1) }
                let realizedRemoved = min(count, realized)
                realizedHeight -= items.prefix(realizedRemoved).reduce(0.0) { $0 + height(of: $1) }
                realized -= realizedRemoved
                items.removeFirst(count)
                contentHeight -= removed
                scroll = max(0, scroll - removed)
            } else {
                contentHeight -= items.suffix(count).reduce(0.0) { $0 + height(of: $1) }
                items.removeLast(count)
                if realized > items.count {
                    realizedHeight = items.reduce(0.0) { $0 + height(of: $1) }
                    realized = items.count
                }
            }
        }
        rev = message.rev
        realize()
        if motion.motion == .idle { overshoot = 0 }
        scroll = min(scroll, maxScroll)
        if let jump = pendingJump, scroll(toItem: jump.id, anchor: jump.anchor) { pendingJump = nil }
    }

    /// The `scrollToItem` command: the item at its anchor, now or once an items message brings it.
    public mutating func scrollToItem(_ id: String, anchor: JumpAnchor) {
        pendingJump = (id, anchor)
        if scroll(toItem: id, anchor: anchor) { pendingJump = nil }
    }

    /// Puts the item at the anchor (as far as the content allows); false when the page does not hold it.
    @discardableResult
    private mutating func scroll(toItem id: String, anchor: JumpAnchor) -> Bool {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return false }
        let top = items.prefix(index).reduce(0.0) { $0 + height(of: $1) } + layout.insetTop
        let itemHeight = self.height(of: items[index])
        let visible = layout.containerHeight
        let target: Double
        switch anchor {
        case .top: target = top - layout.insetTop
        case .center: target = top + itemHeight / 2 - visible / 2
        case .bottom: target = top + itemHeight - visible
        }
        scroll = min(max(0, target), maxScroll)
        pull = 0
        stopMotion()
        realize()
        return true
    }

    /// Applies a resize of the viewport.
    public mutating func resize(containerHeight: Double) {
        layout.containerHeight = containerHeight
        scroll = min(scroll, maxScroll)
        realize()
    }

    /// The `scrollToTop` command.
    public mutating func scrollToTop() {
        scroll = 0
        pull = 0
        stopMotion()
    }
}
