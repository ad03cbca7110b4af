import Foundation
import ScrollRules
import ScrollRulesUI
import SwiftUI

/// The feed: loads at the bottom as tuned, refreshes with the system's control, shows a Retry row with its
/// countdown, and can stream its scrolling to a running playground.
struct FeedScreen: View {
    @State private var backend = Backend()
    @State private var feed = FeedModel(settings: .tuned)
    @State private var recording = ScrollRecording(app: "FeedApp", device: "iPhone", settings: .tuned)
    @State private var stream: PlaygroundStream?
    @State private var streaming = false
    /// Where the playground runs (`scroll-playground --host 0.0.0.0 --allow-origin …`, docs/guide.md).
    @State private var playground = "ws://192.168.1.20:8080/ws"

    var body: some View {
        NavigationStack {
            VStack {
                // iOS 18 records the scroll view's own geometry (`recordScroll`); iOS 17 streams nothing.
                Toggle("Stream to the playground", isOn: $streaming)
                ScrollView {
                    LazyVStack { ForEach(backend.posts) { Text($0.text) } }
                        .scrollRulesContent()
                    RetryRow(feed: feed)
                }
                .scrollRules(
                    feed, loadMore: { try await backend.loadMore() }, refresh: { try await backend.refresh() })
                .refreshable { await feed.refresh() }
                .modifier(Recorded(recording: recording))
            }
            .navigationTitle("Feed")
        }
        .onChange(of: streaming) { _, on in
            on ? startStreaming() : stopStreaming()
        }
    }

    private func startStreaming() {
        guard let url = URL(string: playground) else { return }
        let opened = PlaygroundStream(url: url, hello: recording.recorder.hello)
        stream = opened
        recording.send = { opened.send($0) }
    }

    private func stopStreaming() {
        recording.send = nil
        stream?.close()
        stream = nil
    }
}

/// The loading row and the Retry row, with the scheduled retry's countdown redrawn every second.
struct RetryRow: View {
    let feed: FeedModel

    var body: some View {
        if feed.bottom.visible { ProgressView() }
        if let failure = feed.bottom.failure {
            if failure.next == .scheduled {
                TimelineView(.periodic(from: .now, by: 1)) { _ in
                    let ms = failure.retryCountdown(now: feed.clock.now()) ?? 0
                    Text("Retrying in \((ms + 999) / 1000) s")
                }
            } else {
                Button("Retry") { feed.retry() }
            }
        }
    }
}

/// Records the scroll view where iOS 18's scroll APIs exist.
struct Recorded: ViewModifier {
    let recording: ScrollRecording

    func body(content: Content) -> some View {
        if #available(iOS 18.0, *) {
            content.recordScroll(into: recording)
        } else {
            content
        }
    }
}
