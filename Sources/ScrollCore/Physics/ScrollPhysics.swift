/// How the page moves under the user's input (setting `physics`): an iPhone's scroll view or the browser's own.
public enum ScrollPhysics: String, Equatable, Hashable, Sendable, CaseIterable {
    /// ``IOSScrollModel``: the rubber band past both ends, momentum at UIScrollView's deceleration rate, the bounce.
    case ios
    /// The browser's scrolling: stops dead at either end, a linear pull at the top.
    case browser
}

/// How a list reports its content size (setting `contentSize`).
public enum ContentSizeModel: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Every row at its real height, as a `VStack` (or a browser's layout) measures it.
    case exact
    /// A model of a lazy stack: rows not yet realized count at the mean height of those realized, so the
    /// content size changes as rows come near the viewport and realize.
    case lazyEstimate
}
