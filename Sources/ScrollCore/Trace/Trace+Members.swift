/// The trace's records, declared once (docs/traces.md): the header's members and each line kind's, as lists of
/// ``WireMember`` (a trace line is a record like a wire message: a JSON key, where the value keeps it, how to
/// read and set it). Every path that writes or reads a trace is checked against these lists
/// (`TraceDeclarationTests`, `TraceWriterDeclarationTests`): each member, given a value of its own, must come
/// back through every writer and the reader with nothing else changed, and the lists must name everything a
/// header or a line keeps.
extension Trace {
    /// A line's `kind`: the one table the writer and the reader use.
    enum LineKind: String, CaseIterable, Sendable {
        case input, timer, violation, closed, decision

        /// The kind's members, `t` first.
        var members: [WireMember<Trace.Line>] {
            let t = WireMember<Trace.Line>(
                ["t"], storage: "\(rawValue).t", sample: .int(4242), read: { .int(Int($0.t)) },
                write: { line, value in
                    line = line.at(value.number.flatMap { Int64(exactly: $0) } ?? 0)
                })
            switch self {
            case .input: return [t] + Trace.Line.inputMembers
            case .timer: return [t] + Trace.Line.timerMembers
            case .violation: return [t] + Trace.Line.violationMembers
            case .closed: return [t] + Trace.Line.closedMembers
            case .decision: return [t] + Trace.Line.decisionMembers
            }
        }

        /// A line of this kind with every member present: the base the round trip sets each member on.
        var full: Trace.Line {
            switch self {
            case .input: .input(t: 10, text: Array(#"{"seq":1,"type":"geometry"}"#.utf8))
            case .timer: .timer(t: 10, .pageLoad(2))
            case .violation: .violation(t: 10, .tooLarge)
            case .closed: .closed(t: 10, code: 1000, resumable: true)
            case .decision: .decision(t: 10, LogEntry(.pullStarted, geometrySeq: 3, ["distance": 4.5]))
            }
        }

        /// Keys a writer may add that the reader does not read back: `kind` itself, and what the server writes
        /// for people (an input's `bytes`, a decision's `seq`, `time` and `session`).
        var writtenOnly: [[String]] {
            switch self {
            case .input: [["kind"], ["bytes"]]
            case .timer, .violation, .closed: [["kind"]]
            case .decision: [["kind"], ["event", "seq"], ["event", "time"], ["event", "session"]]
            }
        }
    }
}

extension Trace.Line {
    /// The line's kind.
    var kind: Trace.LineKind {
        switch self {
        case .input: .input
        case .timer: .timer
        case .violation: .violation
        case .closed: .closed
        case .decision: .decision
        }
    }

    /// The same line at another time.
    fileprivate func at(_ t: Int64) -> Self {
        switch self {
        case .input(_, let text): .input(t: t, text: text)
        case .timer(_, let timer): .timer(t: t, timer)
        case .violation(_, let kind): .violation(t: t, kind)
        case .closed(_, let code, let resumable): .closed(t: t, code: code, resumable: resumable)
        case .decision(_, let entry): .decision(t: t, entry)
        }
    }

    // The line kinds' members after `t`. `storage` names the associated value as `Mirror` does: its label, or
    // its position when it has none (`timer.1`).

    fileprivate static let inputMembers: [WireMember<Self>] = [
        // One stored value, two keys: `message` when the text is JSON, `text` when it is not.
        WireMember(
            ["message"], storage: "input.text", sample: ["type": "geometry", "seq": 31, "phase": "declared"],
            read: { line in
                guard case .input(_, let text) = line else { return nil }
                return try? JSONParser.parse(text)
            },
            write: { line, value in line = .input(t: line.t, text: value.jsonBytes) }),
        WireMember(
            ["text"], storage: "input.text", sample: "{]",
            read: { line in
                guard case .input(_, let text) = line, (try? JSONParser.parse(text)) == nil else { return nil }
                return .string(String(decoding: text, as: UTF8.self))
            },
            write: { line, value in line = .input(t: line.t, text: Array((value.string ?? "").utf8)) }),
    ]

    fileprivate static let timerMembers: [WireMember<Self>] = [
        WireMember(
            ["timer"], storage: "timer.1", sample: .string(TimerID.loadRetry(7).description),
            read: { line in
                guard case .timer(_, let timer) = line else { return nil }
                return .string(timer.description)
            },
            write: { line, value in line = .timer(t: line.t, value.string.flatMap(TimerID.init) ?? .refreshHold) })
    ]

    fileprivate static let violationMembers: [WireMember<Self>] = [
        WireMember(
            ["violation"], storage: "violation.1", sample: .string(InboundViolationKind.rateLimited.rawValue),
            read: { line in
                guard case .violation(_, let kind) = line else { return nil }
                return .string(kind.rawValue)
            },
            write: { line, value in
                line = .violation(t: line.t, value.string.flatMap(InboundViolationKind.init) ?? .binary)
            })
    ]

    fileprivate static let closedMembers: [WireMember<Self>] = [
        WireMember(
            ["code"], storage: "closed.code", sample: .int(4001),
            read: { line in
                guard case .closed(_, let code, _) = line else { return nil }
                return code.map(JSONValue.int) ?? .null
            },
            write: { line, value in
                guard case .closed(let t, _, let resumable) = line else { return }
                line = .closed(t: t, code: value.number.flatMap { Int(exactly: $0) }, resumable: resumable)
            }),
        WireMember(
            ["resumable"], storage: "closed.resumable", sample: false,
            read: { line in
                guard case .closed(_, _, let resumable) = line else { return nil }
                return .bool(resumable)
            },
            write: { line, value in
                guard case .closed(let t, let code, _) = line else { return }
                line = .closed(t: t, code: code, resumable: value.bool ?? true)
            }),
    ]

    fileprivate static let decisionMembers: [WireMember<Self>] = [
        decisionMember(
            ["event", "name"], storage: "decision.1.name", sample: .string(EventName.loadMoreRetryScheduled.rawValue),
            read: { .string($0.name.rawValue) },
            write: { $0.name = $1.string.flatMap(EventName.init(rawValue:)) ?? .pullStarted }),
        decisionMember(
            ["event", "geometrySeq"], storage: "decision.1.geometrySeq", sample: .int(77),
            read: { $0.geometrySeq.map(JSONValue.int) },
            write: { $0.geometrySeq = $1.number.flatMap { Int(exactly: $0) } }
        ),
        decisionMember(
            ["event", "data"], storage: "decision.1.data", sample: ["reason": "declared", "page": 12],
            read: { .object($0.data) }, write: { $0.data = $1.object ?? [:] }),
    ]

    /// A member of a decision's event record.
    private static func decisionMember(
        _ path: [String], storage: String, sample: JSONValue, read: @escaping @Sendable (LogEntry) -> JSONValue?,
        write: @escaping @Sendable (inout LogEntry, JSONValue) -> Void
    ) -> WireMember<Self> {
        WireMember(
            path, storage: storage, sample: sample,
            read: { line in
                guard case .decision(_, let entry) = line else { return nil }
                return read(entry)
            },
            write: { line, value in
                guard case .decision(let t, var entry) = line else { return }
                write(&entry, value)
                line = .decision(t: t, entry)
            })
    }
}

extension Trace.Header {
    /// The header's members. `config` is one member per setting (`ScrollConfig.settings`, which declares the
    /// settings once); each member's sample is a value the full header does not have there.
    static let members: [WireMember<Trace.Header>] =
        [
            .integer(["format"], \.format, storage: "format", sample: Trace.formatVersion),
            text(["server"], \.server, sample: "server-declared"),
            text(["session"], \.session, sample: "session-declared"),
        ]
        + ScrollConfig.settings.map(configMember)
        + [
            WireMember(
                ["source"], storage: "source",
                sample: ["items": [["id": "declared-1", "title": "A declared item", "height": 61.5]]],
                read: { $0.sourceJSON },
                write: { header, value in
                    header.source =
                        (try? FeedSource.parseList(value["items"]?.jsonBytes ?? [])) ?? .synthetic
                }),
            .integer(["maxMessageBytes"], \.maxMessageBytes, storage: "maxMessageBytes", sample: 54_321),
            WireMember(
                ["itemCap"], storage: "itemCap", sample: .int(4321), read: { $0.itemCap.map(JSONValue.int) },
                write: { $0.itemCap = $1.number.flatMap { Int(exactly: $0) } }),
            WireMember(
                ["recorder", "page"], storage: "recorder.page", sample: "https://declared.example/feed",
                read: { $0.recorder.map { .string($0.page) } },
                write: { $0.recorder = RecordingSource(page: $1.string ?? "", name: $0.recorder?.name) }),
            WireMember(
                ["recorder", "name"], storage: "recorder.name", sample: "a declared recording",
                read: { $0.recorder?.name.map(JSONValue.string) },
                write: { $0.recorder = RecordingSource(page: $0.recorder?.page ?? "page", name: $1.string) }),
            text(["fork", "parent"], \.someFork.parent, sample: "parent-declared.jsonl"),
            text(["fork", "parentSession"], \.someFork.parentSession, sample: "parent-session-declared"),
            WireMember(
                ["fork", "at"], storage: "fork.at", sample: .int(8642), read: { $0.fork.map { .int(Int($0.at)) } },
                write: { $0.someFork.at = $1.number.flatMap { Int64(exactly: $0) } ?? 0 }),
        ]

    /// Keys a writer may add that the reader does not read back: `kind`, copies for people (`preset` and `seed`,
    /// read from `config`), the server's wall-clock `time` and `check`'s finding.
    static let writtenOnly: [[String]] = [["kind"], ["preset"], ["seed"], ["time"], ["check"]]

    /// A header with every member present.
    static let full: Trace.Header = {
        var config = ScrollConfig()
        // Set explicitly, so the header writes them (a default is written only when set).
        config.rules.explicitPullThreshold = config.rules.pullThreshold
        config.rules.explicitRetryPolicy = config.rules.retryPolicy
        config.explicitNewMessageEveryMs = 0
        var header = Trace.Header(
            session: "s1", server: "0.1.0", config: config,
            source: .list([FeedItem(id: "item-1", title: "One")]), maxMessageBytes: 65_536, itemCap: 10_000)
        header.recorder = RecordingSource(page: "https://example.com/", name: "a recording")
        header.fork = Trace.Fork(parent: "parent.jsonl", parentSession: "s0", at: 5)
        return header
    }()

    /// A string member kept at `key`.
    private static func text(
        _ path: [String], _ key: WritableKeyPath<Trace.Header, String> & Sendable, sample: String
    ) -> WireMember<Trace.Header> {
        WireMember(
            path, storage: path.joined(separator: "."), sample: .string(sample),
            read: { header in
                // A member of an absent `fork` is absent.
                path.first == "fork" && header.fork == nil ? nil : .string(header[keyPath: key])
            },
            write: { $0[keyPath: key] = $1.string ?? "" })
    }

    /// One setting of `config`; its sample is a value in range that the default config does not have.
    private static func configMember(_ setting: ScrollConfig.Setting) -> WireMember<Trace.Header> {
        let base = setting.read(ScrollConfig())
        let sample: SettingValue =
            switch setting.description.kind {
            case .number(let range): .number(range.upperBound == base.number ? range.lowerBound : range.upperBound)
            case .integer(let range):
                .integer(range.upperBound == base.integer ? range.lowerBound : range.upperBound)
            case .choice(let names): .choice(names.first { .choice($0) != base } ?? "")
            case .toggle: .toggle(base != .toggle(true))
            }
        return WireMember(
            ["config", setting.name], storage: "config", sample: JSONValue(sample),
            read: { JSONValue(setting.read($0.config)) },
            write: { header, value in try? setting.apply(&header.config, value) })
    }

    /// `source` as the header writes it.
    var sourceJSON: JSONValue {
        switch source {
        case .synthetic: "synthetic"
        case .list(let items): ["items": .array(items.map(\.json))]
        }
    }

    // `fork` as a plain member, for the declaration's key paths (set on a header that has one).
    private var someFork: Trace.Fork {
        get { fork ?? Trace.Fork(parent: "", parentSession: "", at: 0) }
        set { fork = newValue }
    }
}

extension SettingValue {
    fileprivate var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    fileprivate var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

extension WireMember {
    /// The member's dotted JSON path (`fork.at`), for messages.
    var name: String { path.joined(separator: ".") }
}

extension Trace {
    /// What a writer's record has that its declaration does not say, and lacks that it does: keys `written`
    /// holds under no member's path nor a written-only one (below a member's path is its value: a setting, a
    /// message, event data), and members it does not hold. The declaration tests check each writer with it.
    static func declarationGaps(
        of written: JSONValue, members: [[String]], writtenOnly: [[String]]
    ) -> (undeclared: [String], unwritten: [String]) {
        let declared = Set(members + writtenOnly)
        var undeclared: [String] = []
        func walk(_ value: JSONValue, _ path: [String]) {
            if declared.contains(path) { return }
            guard case .object(let object) = value else {
                undeclared.append(path.joined(separator: "."))
                return
            }
            for (key, member) in object { walk(member, path + [key]) }
        }
        walk(written, [])
        let unwritten = members.filter { path in path.reduce(Optional(written)) { $0?[$1] } == nil }
        return (undeclared.sorted(), unwritten.map { $0.joined(separator: ".") })
    }
}
