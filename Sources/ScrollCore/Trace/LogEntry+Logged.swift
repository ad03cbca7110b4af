extension LogEntry {
    /// The most bytes one event's `data` may take once encoded. Larger data is replaced by
    /// `{"cut":true,"bytes":N}`, so no single event can flood the log, its files or a page.
    public static let maxDataBytes = 4096

    /// The entry exactly as the event log keeps it, which is what a trace reads back: numbers JSON cannot
    /// hold (infinities, NaN) become null, and data over ``maxDataBytes`` is cut. The server logs this
    /// and a replay compares this, so both see the same decision.
    public var asLogged: LogEntry {
        var logged = self
        if data.values.contains(where: \.holdsNonFiniteNumber) {
            logged.data = data.mapValues(\.withNonFiniteNumbersAsNull)
        }
        let size = JSONValue.object(logged.data).jsonBytes.count
        if size > Self.maxDataBytes {
            logged.data = ["cut": true, "bytes": .int(size)]
        }
        return logged
    }
}

extension JSONValue {
    fileprivate var holdsNonFiniteNumber: Bool {
        switch self {
        case .number(let value): !value.isFinite
        case .array(let elements): elements.contains(where: \.holdsNonFiniteNumber)
        case .object(let members): members.values.contains(where: \.holdsNonFiniteNumber)
        case .null, .bool, .string: false
        }
    }

    fileprivate var withNonFiniteNumbersAsNull: JSONValue {
        switch self {
        case .number(let value) where !value.isFinite: .null
        case .array(let elements): .array(elements.map(\.withNonFiniteNumbersAsNull))
        case .object(let members): .object(members.mapValues(\.withNonFiniteNumbersAsNull))
        default: self
        }
    }
}
