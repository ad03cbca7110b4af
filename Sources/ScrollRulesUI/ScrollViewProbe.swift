#if canImport(SwiftUI) && canImport(UIKit)
    import ScrollRules
    import SwiftUI
    import UIKit

    /// iOS 17: a view of no size inside the scroll view's content (`scrollRulesContent()` puts it there) that
    /// finds the enclosing `UIScrollView` and reads what iOS 18's `ScrollGeometry` and `ScrollPhase` give:
    /// `contentOffset`, `contentSize`, `bounds` and `adjustedContentInset`, and the phase from
    /// `isTracking`, `isDragging` and `isDecelerating` (``ScrollViewReading``). No third-party code.
    struct ScrollViewProbe: UIViewRepresentable {
        @Environment(\.scrollRulesModel) private var model

        func makeUIView(context: Context) -> ScrollViewProbeView {
            let view = ScrollViewProbeView(frame: .zero)
            view.isUserInteractionEnabled = false
            view.model = model
            return view
        }

        func updateUIView(_ view: ScrollViewProbeView, context: Context) {
            view.model = model
        }
    }

    /// The probe's view: key-value observes the scroll view's offset, size and bounds, and while a finger or a
    /// fling moves it, reads it again each frame (a lift or the end of a fling changes the phase without
    /// moving the content, and UIKit does not post those flags).
    final class ScrollViewProbeView: UIView {
        weak var model: FeedModel? {
            didSet { read() }
        }
        private weak var scrollView: UIScrollView?
        private var observations: [NSKeyValueObservation] = []
        private var frameRead: Task<Void, Never>?

        override func didMoveToWindow() {
            super.didMoveToWindow()
            for observation in observations { observation.invalidate() }
            observations = []
            frameRead?.cancel()
            frameRead = nil
            scrollView = nil
            guard window != nil else { return }
            var view = superview
            while let candidate = view, !(candidate is UIScrollView) { view = candidate.superview }
            guard let found = view as? UIScrollView else { return }
            scrollView = found
            // KVO calls back on the thread that changed the value: UIKit changes these on the main thread.
            observations = [
                found.observe(\.contentOffset, options: [.initial]) { [weak self] _, _ in
                    MainActor.assumeIsolated { self?.read() }
                },
                found.observe(\.contentSize) { [weak self] _, _ in MainActor.assumeIsolated { self?.read() } },
                found.observe(\.bounds) { [weak self] _, _ in MainActor.assumeIsolated { self?.read() } },
            ]
        }

        private func read() {
            guard let scrollView, let model else { return }
            let offset = scrollView.contentOffset
            let size = scrollView.contentSize
            let bounds = scrollView.bounds.size
            let inset = scrollView.adjustedContentInset
            let reading = ScrollViewReading(
                contentOffset: ScrollPoint(x: Double(offset.x), y: Double(offset.y)),
                contentSize: ScrollSize(width: Double(size.width), height: Double(size.height)),
                boundsSize: ScrollSize(width: Double(bounds.width), height: Double(bounds.height)),
                adjustedContentInset: ScrollInsets(
                    top: Double(inset.top), leading: Double(inset.left), bottom: Double(inset.bottom),
                    trailing: Double(inset.right)),
                isTracking: scrollView.isTracking, isDragging: scrollView.isDragging,
                isDecelerating: scrollView.isDecelerating)
            model.readsScrollView = true
            model.scrolled(reading.geometry, phase: reading.phase)
            if reading.phase != .idle, frameRead == nil {
                frameRead = Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(16))
                    self?.frameRead = nil
                    self?.read()
                }
            }
        }
    }
#endif
