import Foundation
import PlaygroundServer
import ScrollCore
import Testing

/// Every setting the page can change, exported in every format, is accepted by the real server: the flags
/// start it with that setting (or leave it out with a reason), the link's keys open a session with it, and
/// the Swift files it under the rules or says why it is not one.
@Suite(.timeLimit(.minutes(3)))
struct ExportAcceptedTests {
    /// A value of `setting` other than its default under `preset`, as the command line types it: the
    /// first candidate the setting accepts and that changes it.
    static func changedText(_ setting: ScrollConfig.Setting, preset: Preset = .playground) -> String? {
        var defaults = ScrollConfig()
        defaults.rules.preset = preset
        let candidates = [
            "true", "false", "horizontal", "browser", "lazyEstimate", "backoff", "none", "chat", "7", "2", "123",
            "0.25",
        ]
        for text in candidates {
            var config = defaults
            guard (try? config.apply(name: setting.name, text: text)) != nil, config.json != defaults.json,
                (try? config.checkWindow()) != nil
            else { continue }
            return text
        }
        // A bounded window must hold two pages.
        return setting.name == "windowSize" ? "60" : nil
    }

    static func export(_ arguments: [String]) throws -> String {
        guard case .help(let text) = try PlaygroundCommand.parse(["export"] + arguments, locatePublic: { nil }) else {
            Issue.record("export did not print")
            return ""
        }
        return text
    }

    /// The config a link opens: its query's keys as the page reads them (`Public/js/main.js`, `linkValue`).
    static func linkHello(_ link: String) throws -> (preset: String?, config: [String: JSONValue]) {
        let query = try #require(link.split(separator: "?", maxSplits: 1).last)
        var preset: String?
        var config: [String: JSONValue] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            let text = try #require(parts.count > 1 ? parts[1].removingPercentEncoding : "")
            if name == "preset" {
                preset = text
            } else if let number = Double(text) {
                config[name] = .number(number)
            } else if text == "true" || text == "false" {
                config[name] = .bool(text == "true")
            } else {
                config[name] = .string(text)
            }
        }
        return (preset, config)
    }

    /// The settings an export writes: all but the preset (its own argument) and compare mode (a view).
    static let pageSettings = ScrollConfig.settings.filter { $0.name != "preset" && $0.name != "compare" }

    @Test func compareModeIsWrittenByNoFormat() throws {
        for format in ["swift", "flags", "url"] {
            let output = try Self.export(["--format", format, "--set", "compare=true", "--set", "bottomThreshold=80"])
            #expect(!output.contains("compare"), "\(format): \(output)")
            #expect(output.contains("80"), "\(format): \(output)")
        }
    }

    @Test func everySettingHasAValueToExport() {
        for setting in Self.pageSettings {
            #expect(Self.changedText(setting) != nil, "no other value for \(setting.name)")
        }
    }

    @Test(arguments: pageSettings.map(\.name))
    func theFlagsStartTheServerWithTheSetting(name: String) throws {
        let setting = try #require(ScrollConfig.settings.first { $0.name == name })
        let text = try #require(Self.changedText(setting))
        let output = try Self.export(["--format", "flags", "--set", "\(name)=\(text)"])
        let lines = output.split(separator: "\n").map(String.init)
        let command = lines[0].split(separator: " ").map(String.init)
        #expect(command.first == "scroll-playground")
        var expected = ScrollConfig()
        let flag = "--\(setting.flag)"
        if command.contains(flag) {
            try expected.apply(name: name, text: text)
        } else {
            // Left out: a reason, on a comment line the shell ignores, names the setting.
            #expect(lines.dropFirst().contains { $0.hasPrefix("# ") && $0.contains("\(name)=\(text)") }, "\(output)")
        }
        let server = try ServerProcess(Array(command.dropFirst()))
        let connection = try PlaygroundConnection(port: server.port)
        let welcome = try connection.hello().welcome
        #expect(welcome["config"] == expected.json, "\(output)")
    }

    @Test func theLinkOpensASessionWithEverySetting() throws {
        let server = try ServerProcess()
        for setting in Self.pageSettings {
            let text = try #require(Self.changedText(setting))
            let link = try Self.export([
                "--format", "url", "--url", "http://127.0.0.1:\(server.port)/", "--set", "\(setting.name)=\(text)",
            ])
            let (preset, config) = try Self.linkHello(link)
            #expect(preset == "playground")
            let connection = try PlaygroundConnection(port: server.port)
            let welcome = try connection.hello(preset: preset, config: .object(config)).welcome
            var expected = ScrollConfig()
            try expected.apply(name: setting.name, text: text)
            #expect(welcome["config"] == expected.json, "\(link)")
        }
    }

    @Test func theSwiftNamesEverySettingOnceAsARuleOrWithAReason() throws {
        for setting in Self.pageSettings {
            let text = try #require(Self.changedText(setting))
            let swift = try Self.export(["--set", "\(setting.name)=\(text)"])
            let lines = swift.split(separator: "\n").map(String.init)
            let asRule = lines.filter { $0.contains("settings.\(setting.name) = ") }
            let asComment = lines.filter {
                $0.hasPrefix("// ") && !$0.contains("Tuned in Scroll Playground")
                    && $0.contains("\(setting.name)=\(text)")
            }
            #expect(asRule.count + asComment.count == 1, "\(setting.name): \(swift)")
            if setting.name == "compare" || setting.name == "physics" || setting.name == "contentSize" {
                // How the playground's page behaves, not the synthetic feed's data.
                #expect(asComment.allSatisfy { !$0.contains("synthetic feed") }, "\(swift)")
            }
        }
    }
}
