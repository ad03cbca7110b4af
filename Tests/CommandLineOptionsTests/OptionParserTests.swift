import CommandLineOptions
import Testing

/// The shared parser: every kind of option, both spellings of a value, and one exact error per mistake.
struct OptionParserTests {
    enum Color: String, CaseIterable, Sendable {
        case red, green, blue
    }

    /// A program's values, one per kind of option.
    struct Values: Equatable, Sendable {
        var verbose = false
        var name = "world"
        var label: String?
        var count = 3
        var limit: Int?
        var ratio = 0.5
        var color = Color.red
        var tags: [String] = []
        var files: [String] = []
        var rest: [String] = []
    }

    static let options: [Option<Values>] = [
        .switch("verbose", help: "say more", \.verbose),
        .text("name", "NAME", help: "who to greet", \.name),
        .text("label", "TEXT", help: "a label", \.label),
        .integer("count", help: "how many", \.count, in: 1...100_000),
        .integer("limit", help: "at most", \.limit, in: 0...10),
        .number("ratio", help: "how much", \.ratio, in: 0...1),
        .number("wait", "S", help: "how long", \.ratio, in: 0.1...60, unit: "seconds"),
        .choice("color", help: "which color", \.color),
        .repeatable("tag", "TAG", help: "a tag", \.tags),
        Option("even", "N", help: "an even number") { (values, text) throws(OptionError) in
            guard let number = Int(text), number % 2 == 0 else {
                throw .rejected(option: "even", reason: "not even", text: text)
            }
            values.count = number
        },
        .help(),
    ]

    let parser = OptionParser(defaults: Values(), options: options)
    let withWords = OptionParser(defaults: Values(), options: options).keepingWords(in: \.files).passingThrough(
        to: \.rest)

    func parsed(_ arguments: [String], by parser: OptionParser<Values>? = nil) throws -> Values? {
        guard case .parsed(let values) = try (parser ?? self.parser).parse(arguments) else { return nil }
        return values
    }

    func error(_ arguments: [String], by parser: OptionParser<Values>? = nil) -> OptionError? {
        do {
            _ = try (parser ?? self.parser).parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func noArgumentsGiveTheDefaults() throws {
        #expect(try parser.parse([]) == .parsed(Values()))
    }

    @Test func spacedAndInlineValuesAgree() throws {
        var expected = Values()
        expected.count = 5
        expected.name = "a=b"
        #expect(try parsed(["--count", "5", "--name", "a=b"]) == expected)
        #expect(try parsed(["--count=5", "--name=a=b"]) == expected)
        expected = Values()
        expected.name = ""
        #expect(try parsed(["--name="]) == expected)
    }

    @Test func theNextWordIsTheValueEvenWithDashes() throws {
        var expected = Values()
        expected.name = "--count"
        #expect(try parsed(["--name", "--count"]) == expected)
    }

    @Test func aSwitchSetsTrueAndTakesNoValue() throws {
        var expected = Values()
        expected.verbose = true
        #expect(try parsed(["--verbose"]) == expected)
        #expect(error(["--verbose=yes"]) == .unexpectedValue(option: "verbose", text: "yes"))
    }

    @Test func integersAreCheckedAgainstTheirRange() throws {
        var expected = Values()
        expected.count = 10_000
        #expect(try parsed(["--count", "10_000"]) == expected)
        expected.count = 1
        #expect(try parsed(["--count", "1"]) == expected)
        #expect(
            error(["--count", "0"]) == .invalidValue(option: "count", expected: "an integer in 1…100000", text: "0"))
        #expect(
            error(["--count", "1.5"]) == .invalidValue(option: "count", expected: "an integer in 1…100000", text: "1.5")
        )
        #expect(error(["--limit", "11"]) == .invalidValue(option: "limit", expected: "an integer in 0…10", text: "11"))
        expected = Values()
        expected.limit = 0
        #expect(try parsed(["--limit", "0"]) == expected)
    }

    @Test func numbersAreCheckedAgainstTheirRange() throws {
        var expected = Values()
        expected.ratio = 0.25
        #expect(try parsed(["--ratio=0.25"]) == expected)
        #expect(error(["--ratio", "2"]) == .invalidValue(option: "ratio", expected: "a number in 0…1", text: "2"))
        #expect(
            error(["--ratio", "lots"]) == .invalidValue(option: "ratio", expected: "a number in 0…1", text: "lots"))
        #expect(
            error(["--wait", "0"])?.description == "--wait must be seconds in 0.1…60, not '0'")
    }

    @Test func aChoiceNamesItsAlternatives() throws {
        var expected = Values()
        expected.color = .blue
        #expect(try parsed(["--color", "blue"]) == expected)
        #expect(
            error(["--color", "purple"])
                == .invalidValue(option: "color", expected: "one of red, green or blue", text: "purple"))
    }

    @Test func aRepeatableOptionKeepsEveryValueAndOthersTheLast() throws {
        var expected = Values()
        expected.tags = ["a", "b"]
        expected.count = 7
        #expect(try parsed(["--tag", "a", "--count", "2", "--tag=b", "--count", "7"]) == expected)
    }

    @Test func anOptionsOwnRuleSaysWhy() throws {
        var expected = Values()
        expected.count = 4
        #expect(try parsed(["--even", "4"]) == expected)
        #expect(error(["--even", "3"]) == .rejected(option: "even", reason: "not even", text: "3"))
        #expect(error(["--even", "3"])?.description == "--even: not even, not '3'")
    }

    @Test func unknownOptionsMissingValuesAndStrayWordsAreRefused() {
        #expect(error(["--nope"]) == .unknownOption("nope"))
        #expect(error(["--nope=1"]) == .unknownOption("nope"))
        #expect(error(["--count"]) == .missingValue(option: "count"))
        #expect(error(["--count=1", "file"]) == .unexpectedArgument("file"))
        #expect(error(["--"]) == .unknownOption(""))
        // The first problem wins.
        #expect(
            error(["--count", "0", "--nope"])
                == .invalidValue(option: "count", expected: "an integer in 1…100000", text: "0"))
    }

    @Test func wordsAndEverythingAfterTheSeparatorGoWhereDeclared() throws {
        var expected = Values()
        expected.files = ["a.jsonl", "b.jsonl"]
        expected.count = 2
        expected.rest = ["--port", "9", "--", "x"]
        #expect(
            try parsed(["a.jsonl", "--count", "2", "b.jsonl", "--", "--port", "9", "--", "x"], by: withWords)
                == expected)
    }

    @Test func helpStopsTheParse() throws {
        #expect(try parser.parse(["--count", "2", "--help", "--nope"]) == .help)
        #expect(error(["--nope", "--help"]) == .unknownOption("nope"))
    }

    @Test func optionsDeclaredForAPartWorkOnTheWhole() throws {
        struct Whole: Equatable, Sendable {
            var part = Values()
            var other = 0
        }
        let lifted = OptionParser(
            defaults: Whole(),
            options: [Option<Values>.integer("count", help: "how many", \.count, in: 1...9).within(\Whole.part)])
        var expected = Whole()
        expected.part.count = 9
        #expect(try lifted.parse(["--count", "9"]) == .parsed(expected))
        #expect(lifted.helpLines() == ["  --count N  how many (1…9, default 3)"])
    }

    @Test func helpShowsKindsRangesAndTheStartingDefaults() {
        var defaults = Values()
        defaults.count = 42
        defaults.label = "x"
        let lines = OptionParser(defaults: defaults, options: Self.options).helpLines(width: 60)
        #expect(
            lines == [
                "  --verbose               say more",
                "  --name NAME             who to greet (default world)",
                "  --label TEXT            a label (default x)",
                "  --count N               how many (1…100000, default 42)",
                "  --limit N               at most (0…10)",
                "  --ratio X               how much (0…1, default 0.5)",
                "  --wait S                how long (0.1…60, default 0.5)",
                "  --color red|green|blue  which color (default red)",
                "  --tag TAG               a tag (repeatable)",
                "  --even N                an even number",
                "  --help                  this text",
            ])
    }

    @Test func longHelpWrapsUnderItsColumn() {
        let option = Option<Values>.integer(
            "count", help: "how many of the things there are, a long sentence that cannot fit one line", \.count,
            in: 1...5)
        #expect(
            HelpFormatter.lines(for: [option], defaults: Values(), width: 40) == [
                "  --count N  how many of the things",
                "             there are, a long sentence",
                "             that cannot fit one line",
                "             (1…5, default 3)",
            ])
        // A label wider than the column puts its help on the next line; a note in parentheses takes the default.
        let wide = Option<Values>.text("name", "A-VERY-LONG-PLACEHOLDER-NAME", help: "who (a person)", \.name)
        #expect(
            HelpFormatter.lines(for: [option, wide], defaults: Values(), width: 60) == [
                "  --count N                   how many of the things there",
                "                              are, a long sentence that",
                "                              cannot fit one line (1…5,",
                "                              default 3)",
                "  --name A-VERY-LONG-PLACEHOLDER-NAME",
                "                              who (a person, default world)",
            ])
    }

    @Test func theSynopsisListsEveryOption() {
        #expect(
            parser.synopsis
                == "[--verbose] [--name NAME] [--label TEXT] [--count N] [--limit N] [--ratio X] [--wait S] "
                + "[--color red|green|blue] [--tag TAG]... [--even N]")
    }

    @Test func aUsageErrorIsOneLineWithWhereToLook() {
        #expect(
            UsageError(.missingValue(option: "count"), prefix: "replay: ", seeAlso: "replay --help").description
                == "replay: --count needs a value (see replay --help)")
        #expect(UsageError(.unknownOption("x"), seeAlso: "--help").description == "unknown option --x (see --help)")
    }
}
