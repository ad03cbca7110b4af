#if canImport(SwiftUI)
    import SwiftUI
    import ScrollRules

    /// Records a `ScrollView`'s geometry and phase (iOS 18) into a `ScrollRecording`.
    @available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
    public struct ScrollRecordingModifier: ViewModifier {
        private let recording: ScrollRecording

        /// See `View.recordScroll(into:)`.
        public init(recording: ScrollRecording) { self.recording = recording }

        /// The content, recorded.
        public func body(content: Content) -> some View {
            let recording = recording
            return
                content
                .onScrollGeometryChange(for: FeedGeometry.self, of: { FeedGeometry($0) }) { _, new in
                    recording.geometryChanged(new)
                }
                .onScrollPhaseChange { _, new in recording.phaseChanged(FeedScrollPhase(new)) }
        }
    }

    @available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
    extension View {
        /// Records this scroll view's frames into `recording` (its `trace()` is a file `scroll-playground
        /// replay` reads; its `send` hears each frame's message).
        public func recordScroll(into recording: ScrollRecording) -> some View {
            modifier(ScrollRecordingModifier(recording: recording))
        }
    }
#endif
