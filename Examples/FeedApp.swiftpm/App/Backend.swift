import Observation

/// One row of the feed or the chat.
struct Post: Identifiable, Sendable {
    let id: Int
    let text: String
}

/// A stand-in for your network: pages of 20 after a short wait, and every fifth page fails once, so the Retry
/// row and its countdown show.
@MainActor @Observable final class Backend {
    private(set) var posts: [Post] = (0..<20).map { Post(id: $0, text: "Post \($0 + 1)") }
    private var pages = 1
    private var failedOnce: Set<Int> = []
    private var newest = 0

    /// Loads the next page; returns whether there are more (100 posts in all).
    func loadMore() async throws -> Bool {
        try await Task.sleep(for: .milliseconds(600))
        let page = pages + 1
        if page % 5 == 0, !failedOnce.contains(page) {
            failedOnce.insert(page)
            throw Offline()
        }
        pages = page
        let start = posts.count
        posts += (start..<start + 20).map { Post(id: $0, text: "Post \($0 + 1)") }
        return posts.count < 100
    }

    /// Puts a few new posts on top; returns how many.
    func refresh() async throws -> Int {
        try await Task.sleep(for: .milliseconds(900))
        newest -= 3
        let fresh = (newest..<newest + 3).map { Post(id: $0, text: "New post \(-$0)") }
        posts = fresh + posts
        return fresh.count
    }

    struct Offline: Error {}
}
