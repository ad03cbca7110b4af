#if canImport(SwiftUI)
    import SwiftUI
    import ScrollRules

    extension FeedGeometry {
        /// SwiftUI's scroll geometry in the rules' terms (the same names, in `Double`).
        public init(_ geometry: SwiftUI.ScrollGeometry) {
            self.init(
                contentOffset: ScrollPoint(x: Double(geometry.contentOffset.x), y: Double(geometry.contentOffset.y)),
                contentSize: ScrollSize(
                    width: Double(geometry.contentSize.width), height: Double(geometry.contentSize.height)),
                containerSize: ScrollSize(
                    width: Double(geometry.containerSize.width), height: Double(geometry.containerSize.height)),
                contentInsets: ScrollInsets(
                    top: Double(geometry.contentInsets.top), leading: Double(geometry.contentInsets.leading),
                    bottom: Double(geometry.contentInsets.bottom), trailing: Double(geometry.contentInsets.trailing)))
        }
    }

    extension FeedScrollPhase {
        /// SwiftUI's scroll phase in the rules' terms.
        public init(_ phase: SwiftUI.ScrollPhase) {
            switch phase {
            case .idle: self = .idle
            case .tracking: self = .tracking
            case .interacting: self = .interacting
            case .decelerating: self = .decelerating
            case .animating: self = .animating
            }
        }
    }

    /// Feeds a `ScrollView`'s geometry and phase (iOS 18) into one feed's `FeedDriver`.
    @available(iOS 18, macOS 15, tvOS 18, visionOS 2, watchOS 11, *)
    public struct ScrollRulesModifier: ViewModifier {
        @State private var driver: FeedDriver

        /// See `View.scrollRules(_:indicator:hasPrevious:loadMore:loadPrevious:refresh:onAction:)`.
        public init(
            settings: FeedSettings, indicator: Binding<IndicatorState>?, hasPrevious: Bool,
            loadMore: @escaping @MainActor () async throws -> Bool,
            loadPrevious: (@MainActor () async throws -> Bool)?, refresh: (@MainActor () async throws -> Int)?,
            onAction: (@MainActor (FeedAction) -> Void)?
        ) {
            let driver = FeedDriver(
                settings: settings, hasPrevious: hasPrevious, loadMore: loadMore, loadPrevious: loadPrevious,
                refresh: refresh,
                onChange: { state, action in
                    indicator?.wrappedValue = state
                    if let action { onAction?(action) }
                })
            _driver = State(initialValue: driver)
        }

        /// The content, observed.
        public func body(content: Content) -> some View {
            content
                .onScrollGeometryChange(for: FeedGeometry.self, of: { FeedGeometry($0) }) {
                    _, new in
                    driver.geometryChanged(new)
                }
                .onScrollPhaseChange { _, new in
                    driver.phaseChanged(FeedScrollPhase(new))
                }
        }
    }

    @available(iOS 18, macOS 15, tvOS 18, visionOS 2, watchOS 11, *)
    extension View {
        /// Runs `settings`' rules on this scroll view: calls `loadMore` (it returns whether the feed has
        /// more) when the bottom rule fires, `refresh` (it returns how many new items it put on top) when
        /// the pull rule does, retries failures as the policy says, and keeps `indicator` current.
        /// `onAction` hears `scrollToTop`, `scrollToBottom` and `gaveUp`.
        public func scrollRules(
            _ settings: FeedSettings, indicator: Binding<IndicatorState>? = nil, hasPrevious: Bool = false,
            loadMore: @escaping @MainActor () async throws -> Bool,
            loadPrevious: (@MainActor () async throws -> Bool)? = nil,
            refresh: (@MainActor () async throws -> Int)? = nil,
            onAction: (@MainActor (FeedAction) -> Void)? = nil
        ) -> some View {
            modifier(
                ScrollRulesModifier(
                    settings: settings, indicator: indicator, hasPrevious: hasPrevious, loadMore: loadMore,
                    loadPrevious: loadPrevious, refresh: refresh, onAction: onAction))
        }
    }
#endif
