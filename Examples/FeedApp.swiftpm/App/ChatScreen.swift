import ScrollRules
import ScrollRulesUI
import SwiftUI

/// A chat: opens at the newest messages, loads older ones at the top (`loadPrevious`), and follows new ones
/// only when the reader is at the bottom (`itemsArrived`, then `scrollToBottom`).
struct ChatScreen: View {
    @State private var chat = Conversation()
    @State private var feed = FeedModel(settings: FeedSettings(preset: .chat), hasPrevious: true)

    var body: some View {
        NavigationStack {
            ScrollViewReader { proxy in
                ScrollView {
                    if feed.top.visible { ProgressView() }
                    LazyVStack { ForEach(chat.messages) { Text($0.text).id($0.id) } }
                        .scrollRulesContent()
                }
                .scrollRules(
                    feed, loadMore: nil, loadPrevious: { try await chat.older() },
                    onAction: { action in
                        if action == .scrollToBottom, let last = chat.messages.last { proxy.scrollTo(last.id) }
                    })
                .task {
                    // A new message every few seconds, as a socket would bring them.
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(4))
                        chat.receive()
                        feed.itemsArrived()
                    }
                }
            }
            .navigationTitle("Chat")
        }
    }
}

/// The messages: 30 to start, older ones 30 at a time (200 in all), a new one now and then.
@MainActor @Observable final class Conversation {
    private(set) var messages: [Post] = (170..<200).map { Post(id: $0, text: "Message \($0 + 1)") }
    private var arrived = 200

    /// Loads older messages on top; returns whether still older ones exist.
    func older() async throws -> Bool {
        try await Task.sleep(for: .milliseconds(500))
        guard let first = messages.first?.id, first > 0 else { return false }
        let start = max(0, first - 30)
        messages = (start..<first).map { Post(id: $0, text: "Message \($0 + 1)") } + messages
        return start > 0
    }

    /// A new message at the bottom.
    func receive() {
        messages.append(Post(id: arrived, text: "Message \(arrived + 1)"))
        arrived += 1
    }
}
