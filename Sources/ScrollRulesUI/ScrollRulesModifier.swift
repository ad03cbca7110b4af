#if canImport(SwiftUI)
    import SwiftUI
    import ScrollRules

    @available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
    extension FeedGeometry {
        /// SwiftUI's scroll geometry in the rules' terms (the same names, in `Double`).
        public init(_ geometry: ScrollGeometry) {
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

    @available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
    extension FeedScrollPhase {
        /// SwiftUI's scroll phase in the rules' terms.
        public init(_ phase: ScrollPhase) {
            switch phase {
            case .idle: self = .idle
            case .tracking: self = .tracking
            case .interacting: self = .interacting
            case .decelerating: self = .decelerating
            case .animating: self = .animating
            @unknown default: self = .idle
            }
        }
    }

    /// Feeds a `ScrollView`'s geometry and phase into the app's `FeedModel` and gives it this render's
    /// closures, kept in the modifier's own state (the model holds them weakly: a closure that captures the
    /// view never keeps the model alive). iOS 18 / macOS 15: `onScrollGeometryChange` and `onScrollPhaseChange`. Before: the content's
    /// frame in the scroll view's coordinate space (`scrollRulesContent()` inside the `ScrollView`), the
    /// container's size, and a drag gesture for the phase.
    public struct ScrollRulesModifier: ViewModifier {
        private let model: FeedModel
        private let loadMore: (@MainActor () async throws -> Bool)?
        private let loadPrevious: (@MainActor () async throws -> Bool)?
        private let refresh: (@MainActor () async throws -> Int)?
        private let onAction: (@MainActor (FeedAction) -> Void)?
        /// The closures the model runs, owned here: the model holds them weakly.
        @State private var actions = FeedActions()

        /// See `View.scrollRules(_:loadMore:loadPrevious:refresh:onAction:)`.
        public init(
            model: FeedModel, loadMore: (@MainActor () async throws -> Bool)?,
            loadPrevious: (@MainActor () async throws -> Bool)?, refresh: (@MainActor () async throws -> Int)?,
            onAction: (@MainActor (FeedAction) -> Void)?
        ) {
            self.model = model
            self.loadMore = loadMore
            self.loadPrevious = loadPrevious
            self.refresh = refresh
            self.onAction = onAction
        }

        /// The content, observed.
        public func body(content: Content) -> some View {
            // The closures of this render replace the last render's, in the modifier's state; a closure left
            // nil here leaves the one given to the model's `init`.
            actions.loadMore = loadMore
            actions.loadPrevious = loadPrevious
            actions.refresh = refresh
            actions.onAction = onAction
            model.attach(actions)
            let model = model
            if #available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *) {
                return AnyView(
                    content
                        .onScrollGeometryChange(for: FeedGeometry.self, of: { FeedGeometry($0) }) { _, new in
                            model.geometryChanged(new)
                        }
                        .onScrollPhaseChange { _, new in model.phaseChanged(FeedScrollPhase(new)) }
                        .onAppear { model.appeared() })
            } else {
                return AnyView(
                    content.modifier(LegacyScrollObserver(model: model)).onAppear { model.appeared() }
                        // iOS 17: the probe inside the content (`scrollRulesContent()`) reads the scroll view.
                        .environment(\.scrollRulesModel, model))
            }
        }
    }

    /// The name of the scroll view's coordinate space the iOS 17 path measures the content in.
    let scrollRulesSpace = "ScrollRules.scrollView"

    /// The content's frame in the scroll view's coordinate space, posted by `scrollRulesContent()`.
    struct ScrollRulesContentFrame: PreferenceKey {
        static let defaultValue: CGRect? = nil
        static func reduce(value: inout CGRect?, nextValue: () -> CGRect?) { value = value ?? nextValue() }
    }

    /// iOS 17's geometry: a background `GeometryReader` for the container's size, the content's frame from
    /// its preference, phases from a drag: `interacting` while a finger drags, `idle` once it lifts or the
    /// system cancels it (a `@GestureState` resets either way; a drag's `onEnded` is not called on a cancel).
    struct LegacyScrollObserver: ViewModifier {
        let model: FeedModel
        @GestureState private var dragging = false

        func body(content: Content) -> some View {
            content
                .coordinateSpace(.named(scrollRulesSpace))
                .background(
                    GeometryReader { proxy in
                        Color.clear.preference(key: ScrollRulesContainerSize.self, value: proxy.size)
                    }
                )
                .onPreferenceChange(ScrollRulesContainerSize.self) { size in
                    // assumeIsolated: SDKs differ on whether this closure is `@Sendable`; SwiftUI calls it on the main actor.
                    MainActor.assumeIsolated {
                        model.containerSizeChanged(ScrollSize(width: Double(size.width), height: Double(size.height)))
                    }
                }
                .onPreferenceChange(ScrollRulesContentFrame.self) { frame in
                    guard let frame else { return }
                    MainActor.assumeIsolated {
                        model.contentFrameChanged(
                            origin: ScrollPoint(x: Double(frame.minX), y: Double(frame.minY)),
                            size: ScrollSize(width: Double(frame.width), height: Double(frame.height)))
                    }
                }
                .simultaneousGesture(
                    DragGesture(minimumDistance: 0).updating($dragging) { _, dragging, _ in dragging = true }
                )
                .onChange(of: dragging) { _, dragging in
                    if !model.readsScrollView { model.phaseChanged(dragging ? .interacting : .idle) }
                }
        }
    }

    /// The scroll view's size, posted by the background reader of the iOS 17 path.
    struct ScrollRulesContainerSize: PreferenceKey {
        static let defaultValue = CGSize.zero
        static func reduce(value: inout CGSize, nextValue: () -> CGSize) { value = nextValue() }
    }

    extension View {
        /// Runs `model`'s rules on this scroll view: calls `loadMore` (it returns whether the feed has more)
        /// when the bottom rule fires, `loadPrevious` at the top, `refresh` (it returns how many new items it
        /// put on top) when the pull rule does, retries failures as the policy says, and keeps
        /// `model.indicator` current. `onAction` hears `scrollToTop`, `scrollToBottom` and `gaveUp`. A closure
        /// left out is never needed: no pull without `refresh`, no top edge without `loadPrevious`. On iOS 17,
        /// also put `scrollRulesContent()` on the scroll view's content.
        public func scrollRules(
            _ model: FeedModel, loadMore: (@MainActor () async throws -> Bool)?,
            loadPrevious: (@MainActor () async throws -> Bool)? = nil,
            refresh: (@MainActor () async throws -> Int)? = nil,
            onAction: (@MainActor (FeedAction) -> Void)? = nil
        ) -> some View {
            modifier(
                ScrollRulesModifier(
                    model: model, loadMore: loadMore, loadPrevious: loadPrevious, refresh: refresh,
                    onAction: onAction))
        }

        /// Inside a `ScrollView` that has `scrollRules`, on its content: reports the content's frame, which
        /// the iOS 17 path turns into the scroll geometry (iOS 18 reads it from the scroll view itself).
        public func scrollRulesContent() -> some View {
            background(
                GeometryReader { proxy in
                    Color.clear.preference(
                        key: ScrollRulesContentFrame.self, value: proxy.frame(in: .named(scrollRulesSpace)))
                }
            )
            #if canImport(UIKit)
                // iOS 17: reads the enclosing UIScrollView itself (the frame above is the fallback).
                .background(ScrollViewProbe())
            #endif
        }
    }

    /// The model an enclosing `scrollRules` gives its scroll view's content, for iOS 17's probe.
    struct ScrollRulesModelKey: EnvironmentKey {
        static let defaultValue: FeedModel? = nil
    }

    extension EnvironmentValues {
        /// The model of the enclosing `scrollRules` (set on iOS 17 only: iOS 18 reads the scroll view itself).
        var scrollRulesModel: FeedModel? {
            get { self[ScrollRulesModelKey.self] }
            set { self[ScrollRulesModelKey.self] = newValue }
        }
    }
#endif
