import ScrollRules
import ScrollRulesUI
import SwiftUI

/// A feed and a chat on the rules tuned in the playground, and a switch that streams the feed's scrolling to a
/// running playground (its session shows up in the page's log).
@main
struct FeedApp: App {
    var body: some Scene {
        WindowGroup {
            TabView {
                FeedScreen().tabItem { Text("Feed") }
                ChatScreen().tabItem { Text("Chat") }
            }
        }
    }
}

extension FeedSettings {
    /// Tuned in Scroll Playground: scroll-playground export --preset playground --set bottomThreshold=1500
    static let tuned: FeedSettings = {
        var settings = FeedSettings(preset: .playground)
        settings.bottomThreshold = 1500
        return settings
    }()
}
