/// The `state` message's members, once, in the order the general writer writes them. Both writers are checked
/// against this list (`WireDeclarationTests`): the general one (ServerMessage+Encoding.swift) must write each
/// member as set, and the direct one (StateMessage+DirectEncoding.swift) the same bytes or leave the message
/// to the general one. `storage` names the public member the value is read through (a `state` keeps its rare
/// members boxed).
extension StateMessage {
    static let members: [WireMember<StateMessage>] =
        [
            WireMember(
                ["ack"], storage: "ack", sample: .int(901), read: { $0.ack.map(JSONValue.int) ?? .null },
                write: { $0.ack = $1.number.flatMap { Int(exactly: $0) } }),
            WireMember(
                ["preset"], storage: "preset", sample: .string(Preset.chat.rawValue),
                read: { .string($0.preset.rawValue) },
                write: { $0.preset = $1.string.flatMap(Preset.init(rawValue:)) ?? .playground }),
            flag(["reachedBottom"], \.reachedBottom),
            .number(["pull", "distance"], \.pull.distance, storage: "pull.distance", sample: 12.25),
            .number(["pull", "progress"], \.pull.progress, storage: "pull.progress", sample: 0.375),
            flag(["pull", "eligible"], \.pull.eligible, storage: "pull.eligible"),
            flag(["refreshing"], \.refreshing),
            flag(["loadingNextPage"], \.loadingNextPage),
            flag(["hasMore"], \.hasMore),
            .integer(["itemCount"], \.itemCount, storage: "itemCount", sample: 902),
            flag(["indicator", "top", "visible"], \.indicator.topVisible, storage: "indicator.topVisible"),
            .number(
                ["indicator", "top", "height"], \.indicator.topHeight, storage: "indicator.topHeight", sample: 13.25),
            .number(["indicator", "top", "scale"], \.indicator.topScale, storage: "indicator.topScale", sample: 0.625),
            .number(
                ["indicator", "top", "opacity"], \.indicator.topOpacity, storage: "indicator.topOpacity", sample: 0.875),
            flag(["indicator", "bottom", "visible"], \.indicator.bottomVisible, storage: "indicator.bottomVisible"),
            .number(["origin", "x"], \.someOrigin.x, storage: "origin.x", sample: 14.25),
            .number(["origin", "y"], \.someOrigin.y, storage: "origin.y", sample: 15.25),
        ]
        + loadFailureMembers(["loadFailure"], \.someLoadFailure, sample: 903)
        + [
            flag(["topEdge", "reachedTop"], \.someTopEdge.reachedTop, storage: "topEdge.reachedTop"),
            flag(["topEdge", "hasPrevious"], \.someTopEdge.hasPrevious, storage: "topEdge.hasPrevious"),
            flag(
                ["topEdge", "loadingPreviousPage"], \.someTopEdge.loadingPreviousPage,
                storage: "topEdge.loadingPreviousPage"),
        ]
        + loadFailureMembers(["topEdge", "loadFailure"], \.someTopEdge.someLoadFailure, sample: 913)
        + [
            .integer(["window", "start"], \.someWindow.start, storage: "window.start", sample: 921),
            .integer(["window", "count"], \.someWindow.count, storage: "window.count", sample: 922),
            .integer(["window", "limit"], \.someWindow.limit, storage: "window.limit", sample: 923),
            WireMember(
                ["recordingStopped"], storage: "recordingStopped", sample: "the log folder is full",
                read: { $0.recordingStopped.map(JSONValue.string) }, write: { $0.recordingStopped = $1.string }),
        ]

    /// A boolean member; its sample is the value the full state does not have there.
    private static func flag(
        _ path: [String], _ key: WritableKeyPath<StateMessage, Bool> & Sendable, storage: String? = nil
    ) -> WireMember<StateMessage> {
        WireMember(
            path, storage: storage ?? path.joined(separator: "."), sample: true, read: { .bool($0[keyPath: key]) },
            write: { $0[keyPath: key] = $1.bool ?? false })
    }

    /// The members of a load failure at `path`.
    private static func loadFailureMembers(
        _ path: [String], _ key: WritableKeyPath<StateMessage, LoadFailureState> & Sendable, sample: Int
    ) -> [WireMember<StateMessage>] {
        let storage = path.joined(separator: ".")
        let integers: [(String, WritableKeyPath<LoadFailureState, Int> & Sendable)] = [
            ("page", \.page), ("failures", \.failures), ("retry", \.someRetry), ("retryMax", \.someRetryMax),
            ("retryInMs", \.someRetryInMs),
        ]
        var members: [WireMember<StateMessage>] = []
        for (offset, (name, member)) in integers.enumerated() {
            members.append(
                WireMember(
                    path + [name], storage: "\(storage).\(name)", sample: .int(sample + offset),
                    read: { .int($0[keyPath: key][keyPath: member]) },
                    write: { $0[keyPath: key][keyPath: member] = $1.number.flatMap { Int(exactly: $0) } ?? 0 }))
        }
        let next = WireMember<StateMessage>(
            path + ["next"], storage: "\(storage).next", sample: .string(LoadFailureState.Next.gaveUp.rawValue),
            read: { .string($0[keyPath: key].next.rawValue) },
            write: { $0[keyPath: key].next = $1.string.flatMap(LoadFailureState.Next.init(rawValue:)) ?? .manual })
        return members + [next]
    }

    /// The members a full state has, each present (the base the round trip sets each member on).
    static let full: StateMessage = {
        var state = StateMessage(
            ack: 1, preset: .playground, reachedBottom: false, pull: PullState(), refreshing: false,
            loadingNextPage: false, hasMore: false, itemCount: 2,
            indicator: IndicatorState(
                topVisible: false, topHeight: 0, topScale: 1, topOpacity: 0, bottomVisible: false),
            origin: ScrollPoint(x: 0, y: 0),
            loadFailure: LoadFailureState(
                page: 1, failures: 1, next: .scheduled, retry: 1, retryMax: 3, retryInMs: 500),
            topEdge: TopEdgeState(
                reachedTop: false, hasPrevious: false, loadingPreviousPage: false,
                loadFailure: LoadFailureState(
                    page: 2, failures: 1, next: .manual, retry: 1, retryMax: 3, retryInMs: 700)),
            window: WindowState(start: 0, count: 2, limit: 100), recordingStopped: "stopped")
        state.recordingStopped = "stopped"
        return state
    }()

    // Optional members as plain ones, for the declaration's key paths (set on a state that has them).
    private var someOrigin: ScrollPoint {
        get { origin ?? ScrollPoint(x: 0, y: 0) }
        set { origin = newValue }
    }
    private var someLoadFailure: LoadFailureState {
        get { loadFailure ?? LoadFailureState(page: 0, failures: 0, next: .manual) }
        set { loadFailure = newValue }
    }
    private var someTopEdge: TopEdgeState {
        get { topEdge ?? TopEdgeState(reachedTop: false, hasPrevious: false, loadingPreviousPage: false) }
        set { topEdge = newValue }
    }
    private var someWindow: WindowState {
        get { window ?? WindowState(start: 0, count: 0, limit: 0) }
        set { window = newValue }
    }
}

extension TopEdgeState {
    fileprivate var someLoadFailure: LoadFailureState {
        get { loadFailure ?? LoadFailureState(page: 0, failures: 0, next: .manual) }
        set { loadFailure = newValue }
    }
}

extension LoadFailureState {
    fileprivate var someRetry: Int {
        get { retry ?? 0 }
        set { retry = newValue }
    }
    fileprivate var someRetryMax: Int {
        get { retryMax ?? 0 }
        set { retryMax = newValue }
    }
    fileprivate var someRetryInMs: Int {
        get { retryInMs ?? 0 }
        set { retryInMs = newValue }
    }
}
