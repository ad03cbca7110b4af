#if canImport(SwiftUI)
    import SwiftUI
    import ScrollRules

    /// Records a `ScrollView`'s geometry and phase (iOS 18) into a `TraceRecorder`, and hands each frame's
    /// `geometry` message to `send` for a live `record` session (an `URLSessionWebSocketTask` the app opened
    /// and sent `recorder.hello` on).
    @available(iOS 18, macOS 15, tvOS 18, visionOS 2, watchOS 11, *)
    public struct ScrollRecordingModifier: ViewModifier {
        private let recorder: Binding<TraceRecorder>
        private let send: (@MainActor (String) -> Void)?
        @State private var frame: RecordedFrame

        /// See `View.recordScroll(into:send:)`.
        public init(recorder: Binding<TraceRecorder>, send: (@MainActor (String) -> Void)?) {
            self.recorder = recorder
            self.send = send
            _frame = State(initialValue: RecordedFrame())
        }

        /// The content, recorded.
        public func body(content: Content) -> some View {
            content
                .onScrollGeometryChange(for: FeedGeometry.self, of: { FeedGeometry($0) }) {
                    _, new in
                    frame.geometry = new
                    record()
                }
                .onScrollPhaseChange { _, new in
                    frame.phase = FeedScrollPhase(new)
                    record()
                }
        }

        private func record() {
            guard let geometry = frame.geometry,
                let message = recorder.wrappedValue.frame(geometry, phase: frame.phase, at: frame.clock())
            else { return }
            send?(message)
        }
    }

    /// The last geometry and phase seen, and the recording's clock.
    @MainActor
    final class RecordedFrame {
        var geometry: FeedGeometry?
        var phase = FeedScrollPhase.idle
        let clock = FeedDriver.continuousClock()
    }

    @available(iOS 18, macOS 15, tvOS 18, visionOS 2, watchOS 11, *)
    extension View {
        /// Records this scroll view's frames into `recorder` (its `trace(closedAt:)` is a file
        /// `scroll-playground replay` reads) and passes each frame's message to `send`, if given.
        public func recordScroll(
            into recorder: Binding<TraceRecorder>, send: (@MainActor (String) -> Void)? = nil
        ) -> some View {
            modifier(ScrollRecordingModifier(recorder: recorder, send: send))
        }
    }
#endif
