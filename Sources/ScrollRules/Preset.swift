/// A published SwiftUI scroll design the server reproduces, or the recommended `playground`.
public enum Preset: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
    /// `CustomScrollView` with `reachToBottom`: GeometryReader + PreferenceKey.
    case customScrollView
    /// `OffsetObservingScrollView` / `PositionObservingView`: publishes the content origin.
    case offsetObserving
    /// `RefreshableView`, first version: GeometryReader + PreferenceKey + `coordinateSpace`.
    case refreshableLegacy
    /// `RefreshableView`, improved with `onScrollGeometryChange`.
    case refreshable
    /// `RefreshOffsetObservableScrollView`: refreshes as soon as the offset passes the threshold.
    case refreshOffsetObservable
    /// The recommended behaviour that fixes the designs' known pitfalls.
    case playground
    /// A chat: newest at the bottom, opens there (`defaultScrollAnchor(.bottom)`), older messages load at
    /// the top, new ones arrive at the bottom and are followed only when the user is at the bottom.
    case chat

    /// The SwiftUI design this preset reproduces, in a few words.
    public var design: String {
        switch self {
        case .customScrollView: "CustomScrollView with reachToBottom (GeometryReader + PreferenceKey)"
        case .offsetObserving: "OffsetObservingScrollView / PositionObservingView"
        case .refreshableLegacy: "RefreshableView, first version (GeometryReader + PreferenceKey + coordinateSpace)"
        case .refreshable: "RefreshableView, improved (onScrollGeometryChange)"
        case .refreshOffsetObservable: "RefreshOffsetObservableScrollView"
        case .playground: "Recommended: fixes the known pitfalls of the other designs"
        case .chat: "Chat: defaultScrollAnchor(.bottom), older messages load at the top, new ones arrive below"
        }
    }

    /// Its rule, in one line.
    public var rule: String {
        switch self {
        case .customScrollView:
            "Bottom when contentSize.height <= offset + container height (no threshold, no insets); loads on the edge. No pull."
        case .offsetObserving:
            "Publishes origin = -contentOffset; no bottom or pull detection; offsetChanged at most 10/s."
        case .refreshableLegacy:
            "Loads on every geometry within bottomThreshold while not loading; refresh on release past pullThreshold."
        case .refreshable:
            "Loads on the edge within bottomThreshold; refresh on release with pull (insets counted) past pullThreshold."
        case .refreshOffsetObservable:
            "Refreshes at once when offset < -pullThreshold, no release; refreshing clears after a fixed hold."
        case .playground:
            "Edge-triggered bottom with insets and 0.5 px slack, re-armed per page; pull armed at threshold, disarmed below 80%."
        case .chat:
            "Opens at the bottom; edge-triggered top within topThreshold loads older messages, anchor kept; new messages followed only at the bottom. No pull."
        }
    }

    /// Whether the preset detects reaching the bottom (``PresetBehavior/detectsBottom``).
    public var detectsBottom: Bool { behavior.detectsBottom }

    /// Whether the preset has pull-to-refresh (``PresetBehavior/refresh``).
    public var detectsPull: Bool { behavior.refresh != .none }

    /// Whether compare mode runs its rules (``PresetBehavior/compared``).
    public var isCompared: Bool { behavior.compared }

    /// The pull threshold when the session has not set one (``PresetBehavior/defaultPullThreshold``).
    public var defaultPullThreshold: Double { behavior.defaultPullThreshold }
}
