import Foundation
import Testing

@testable import ScrollCore

/// docs/protocol.md is written for clients on other platforms: everything the codec and the server know
/// must be in it, so a new message, error code, event or setting cannot ship undocumented.
struct ProtocolDocumentTests {
    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
    }()

    /// The names `protocol.md` leaves out, of `names`: each must appear as code (`` `name` ``).
    static func missing(_ names: [String]) -> [String] {
        names.filter { !document.contains("`\($0)`") }
    }

    @Test func theDocumentExists() {
        #expect(Self.document.hasPrefix("# The WebSocket protocol"))
    }

    @Test func everyMessageTypeInBothDirectionsIsDocumented() {
        #expect(Self.missing(ClientMessage.Kind.allCases.map(\.rawValue)) == [])
        #expect(Self.missing(ServerMessage.Kind.allCases.map(\.rawValue)) == [])
        // Each has its own section.
        for kind in ClientMessage.Kind.allCases.map(\.rawValue) + ServerMessage.Kind.allCases.map(\.rawValue) {
            #expect(Self.document.contains("### `\(kind)`") || Self.document.contains("`\(kind)`, "), "\(kind)")
        }
    }

    @Test func everyErrorCodeAndCloseCodeIsDocumented() {
        #expect(Self.missing(ErrorCode.allCases.map(\.rawValue) + ["binary_frame"]) == [])
        for code in [1000, 1001, 1003, 1008, 1009, 1013] {
            #expect(Self.document.contains("| \(code) |"), "close code \(code)")
        }
    }

    @Test func everyEventNameIsDocumented() {
        #expect(Self.missing(EventName.allCases.map(\.rawValue)) == [])
    }

    @Test func everySettingAndStateFieldIsDocumented() {
        #expect(Self.missing(ScrollConfig.settings.map(\.name)) == [])
        #expect(
            Self.missing(RetryPolicy.allCases.map(\.rawValue) + LoadFailureState.Next.allCases.map(\.rawValue)) == [])
        #expect(Self.missing(FeedScrollPhase.allCases.map(\.rawValue)) == [])
    }
}
