import CommandLineOptions
import ScrollCore

/// What `scroll-playground export` prints.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// The package lines, the imports and the settings for `ScrollRules` (docs/swiftui.md).
    case swift
    /// The `scroll-playground` flags that serve the same settings.
    case flags
    /// A link to the page with the settings in its query.
    case url
}

/// `scroll-playground export`: the preset and settings you tuned, as Swift for your app, as flags, or as
/// a link. Only the settings that differ from the preset's defaults are written; every flag written is one
/// `serve` takes, and a setting that is none is named after the command with the reason.
public struct ExportCommand: Sendable {
    /// The settings: the preset's defaults with the `--set` ones applied.
    public var config = ScrollConfig()
    public var format = ExportFormat.swift
    /// Where the page is served, for `--format url`.
    public var base = "http://127.0.0.1:8080/"

    /// The package the Swift snippet depends on (the placeholder names where you host this repository).
    public static let packageURL = "https://github.com/OWNER/scroll-playground.git"

    public init() {}

    /// The settings that differ from the preset's defaults, in the order `--help` lists settings, as they
    /// are typed on the command line.
    public var changed: [(setting: ScrollConfig.Setting, text: String)] {
        var defaults = ScrollConfig()
        defaults.rules.preset = config.rules.preset
        let base = defaults.json
        let mine = config.json
        // A setting that is not a flag (compare mode) is a view of one page, not something tuned: no export
        // writes it.
        return ScrollConfig.settings.compactMap { setting in
            guard setting.name != "preset", setting.notAFlag == nil, let value = mine[setting.name],
                value != base[setting.name]
            else {
                return nil
            }
            return (setting, value.string ?? value.jsonString)
        }
    }

    /// The text to print.
    public func render() -> String {
        switch format {
        case .swift: swiftSnippet
        case .flags: flags
        case .url: link
        }
    }

    /// The command line.
    var flags: String {
        (["scroll-playground", "--preset", config.rules.preset.rawValue]
            + changed.flatMap { ["--\($0.setting.flag)", $0.text] })
            .joined(separator: " ")
    }

    var link: String {
        let query = [("preset", config.rules.preset.rawValue)] + changed.map { ($0.setting.name, $0.text) }
        let separator = base.contains("?") ? "&" : "?"
        return base + separator + query.map { "\($0.0)=\(Self.percentEncoded($0.1))" }.joined(separator: "&")
    }

    var swiftSnippet: String {
        let rules = changed.filter { $0.setting.role == .rule }
        let feed = changed.filter { $0.setting.role == .feed }
        let page = changed.filter { $0.setting.role == .page }
        let command =
            (["scroll-playground export --preset", config.rules.preset.rawValue]
            + changed.map { "--set \($0.setting.name)=\($0.text)" }).joined(separator: " ")
        var lines = [
            "// Package.swift, in the package's dependencies:",
            "//     .package(url: \"\(Self.packageURL)\", from: \"\(ScrollRulesVersion.current)\"),",
            "// and in your target's dependencies:",
            "//     .product(name: \"ScrollRulesUI\", package: \"scroll-playground\"),",
            "import ScrollRules",
            "import ScrollRulesUI",
            "",
            "extension FeedSettings {",
            "    /// Tuned in Scroll Playground: \(command)",
        ]
        let preset = "FeedSettings(preset: .\(config.rules.preset.rawValue))"
        if rules.isEmpty {
            lines.append("    static let tuned = \(preset)")
        } else {
            lines += ["    static let tuned: FeedSettings = {", "        var settings = \(preset)"]
            lines += rules.map {
                "        settings.\($0.setting.name) = \(Self.swiftLiteral($0.setting, $0.text))"
            }
            lines += ["        return settings", "    }()"]
        }
        lines.append("}")
        if !feed.isEmpty {
            let list = feed.map { "\($0.setting.name)=\($0.text)" }.joined(separator: " ")
            lines.append("// The playground's synthetic feed, not rules (your data source decides these): \(list)")
        }
        if !page.isEmpty {
            let list = page.map { "\($0.setting.name)=\($0.text)" }.joined(separator: " ")
            lines.append("// The playground's page, not rules (your app's ScrollView does this itself): \(list)")
        }
        lines += [
            "",
            "// In your view (`@State private var feed = FeedModel(settings: .tuned)`):",
            "//     ScrollView { … }",
            "//         .scrollRules(feed, loadMore: { try await store.loadMore() }, refresh: { try await store.refresh() })",
            "//         .refreshable { await feed.refresh() }",
        ]
        return lines.joined(separator: "\n")
    }

    /// A setting's value as Swift: enum values as their cases, numbers as they are.
    static func swiftLiteral(_ setting: ScrollConfig.Setting, _ text: String) -> String {
        guard case .choice = setting.description.kind else { return text }
        guard setting.name == "retryPolicy" else { return ".\(text)" }
        return ".\(RetryPolicy(rawValue: text).map(swiftCase) ?? text)"
    }

    static func swiftCase(_ policy: RetryPolicy) -> String {
        switch policy {
        case .manual: "manual"
        case .backoff: "backoff"
        case .noRetry: "noRetry"
        }
    }

    /// `text` with everything but RFC 3986's unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 15)])"
            }
        }
        return result
    }
}

/// What `scroll-playground export` reads from its command line.
struct ExportArguments: Sendable {
    var command = ExportCommand()

    /// Every option of `export`, in the order `--help` lists them.
    static let parser = OptionParser(
        defaults: ExportArguments(),
        options: [
            Option("preset", "NAME", help: "the preset whose defaults the settings change") {
                arguments, name throws(OptionError) in
                try apply(&arguments, key: "preset", text: name, option: "preset")
            },
            .repeatable(
                "set", "KEY=VALUE", help: "a setting you tuned (camelCase), e.g. --set bottomThreshold=1500"
            ) { arguments, assignment throws(OptionError) in
                guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                    throw .invalidValue(option: "set", expected: "key=value", text: assignment)
                }
                try apply(
                    &arguments, key: String(assignment[..<equals]),
                    text: String(assignment[assignment.index(after: equals)...]), option: "set")
            },
            .choice("format", help: "Swift for your app, scroll-playground flags, or a link", \.command.format),
            .text("url", "BASE", help: "where the page is served, for --format url", \.command.base),
            .help(),
        ])

    @Sendable static func apply(_ arguments: inout ExportArguments, key: String, text: String, option: String)
        throws(OptionError)
    {
        guard ScrollConfig.settings.contains(where: { $0.name == key }) else {
            throw .rejected(
                option: option,
                reason:
                    "unknown setting '\(key)' (one of \(ScrollConfig.settings.map(\.name).joined(separator: ", ")))",
                text: key)
        }
        do {
            try arguments.command.config.apply(name: key, text: text)
        } catch {
            throw .rejected(option: option, reason: "\(error)", text: text)
        }
    }
}

extension PlaygroundCommand {
    /// `export`: the snippet is printed as `help` text is (to standard output, exit 0).
    static func parseExport(_ arguments: ArraySlice<String>) throws(UsageError) -> PlaygroundCommand {
        do {
            guard case .parsed(let values) = try ExportArguments.parser.parse(arguments) else {
                return .help(exportUsage)
            }
            return .help(values.command.render())
        } catch {
            throw UsageError(error, prefix: "export: ", seeAlso: "export --help")
        }
    }

    /// The `export --help` text.
    public static var exportUsage: String {
        ([
            "Usage: scroll-playground export [--preset P] [--set KEY=VALUE …] [--format swift|flags|url]",
            "",
            "Prints what you tuned: the Swift for your app (ScrollRules, docs/swiftui.md), the flags that serve",
            "it, or a link to the page. Only the settings that differ from the preset's defaults are written;",
            "compare mode, a view of one page rather than something tuned, is written by none of them.",
            "",
        ] + ExportArguments.parser.helpLines()).joined(separator: "\n")
    }
}
