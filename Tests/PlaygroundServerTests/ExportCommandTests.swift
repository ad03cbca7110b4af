import Foundation
import PlaygroundServer
import ScrollCore
import Testing

/// `scroll-playground export`: what you tuned, as Swift, flags or a link, with only what differs from
/// the preset's defaults.
@Suite(.timeLimit(.minutes(10)))
struct ExportCommandTests {
    static func export(_ arguments: [String]) throws -> String {
        guard case .help(let text) = try PlaygroundCommand.parse(["export"] + arguments, locatePublic: { nil }) else {
            Issue.record("export did not print")
            return ""
        }
        return text
    }

    @Test func theSwiftSnippetHoldsOnlyTheRulesThatDifferFromThePresetsDefaults() throws {
        let text = try Self.export([
            "--set", "bottomThreshold=1500", "--set", "pullThreshold=68", "--set", "retryPolicy=none", "--set",
            "loadLatencyMs=300",
        ])
        #expect(
            text.contains(".package(url: \"\(ExportCommand.packageURL)\", from: \"\(ScrollRulesVersion.current)\")"))
        #expect(text.contains("import ScrollRules\n"))
        #expect(text.contains("import ScrollRulesUI\n"))
        let settings = text.split(separator: "\n").filter { $0.contains("settings.") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        // pullThreshold 68 is playground's own default: it is left out.
        #expect(settings == ["settings.bottomThreshold = 1500", "settings.retryPolicy = .noRetry"])
        #expect(text.contains("var settings = FeedSettings(preset: .playground)"))
        #expect(text.contains("(your data source decides these): loadLatencyMs=300"))
        #expect(text.contains("FeedModel(settings: .tuned)"))
        #expect(text.contains(".scrollRules(feed,"))
    }

    @Test func aPresetWithNothingChangedIsOneLine() throws {
        let text = try Self.export(["--preset", "refreshOffsetObservable", "--set", "pullThreshold=100"])
        #expect(text.contains("    static let tuned = FeedSettings(preset: .refreshOffsetObservable)\n"))
        #expect(!text.contains("settings."))
    }

    @Test func theFlagsServeTheSameSettings() throws {
        let text = try Self.export([
            "--preset", "chat", "--format", "flags", "--set", "topThreshold=80", "--set", "windowSize=60",
            "--set", "retryMax=2",
        ])
        #expect(text == "scroll-playground --preset chat --top-threshold 80 --retry-max 2 --window-size 60")
        let folder = FileManager.default.temporaryDirectory.path
        guard
            case .serve(let options) = try PlaygroundCommand.parse(
                Array(text.split(separator: " ").dropFirst().map(String.init)), locatePublic: { folder })
        else {
            Issue.record("the flags do not serve")
            return
        }
        var expected = ScrollConfig()
        try expected.apply(["preset": "chat", "topThreshold": 80, "windowSize": 60, "retryMax": 2])
        #expect(options.defaults == expected)
    }

    @Test func theLinkCarriesThePresetAndTheChangedSettings() throws {
        let text = try Self.export([
            "--preset", "refreshable", "--format", "url", "--url", "http://127.0.0.1:9000/", "--set",
            "bottomThreshold=120.5", "--set", "axis=vertical",
        ])
        #expect(text == "http://127.0.0.1:9000/?preset=refreshable&bottomThreshold=120.5")
    }

    @Test(arguments: [
        (["--set", "bottomThreshold=abc"], "bottomThreshold must be a number"),
        (["--set", "nope=1"], "unknown setting 'nope'"),
        (["--set", "=1"], "key=value"),
        (["--preset", "nope"], "preset"),
        (["--format", "xml"], "--format"),
    ])
    func badArgumentsSayWhy(arguments: [String], mentioning: String) {
        do {
            _ = try PlaygroundCommand.parse(["export"] + arguments, locatePublic: { nil })
            Issue.record("export \(arguments) was accepted")
        } catch {
            #expect(error.description.hasPrefix("export: "))
            #expect(error.description.contains(mentioning), "\(error.description)")
        }
    }

    @Test func theExecutablePrintsItAndExitsZero() throws {
        let result = try runToCompletion(["export", "--set", "bottomThreshold=1500", "--format", "flags"])
        #expect(result.status == 0)
        #expect(result.stdout == "scroll-playground --preset playground --bottom-threshold 1500\n")
    }
}
