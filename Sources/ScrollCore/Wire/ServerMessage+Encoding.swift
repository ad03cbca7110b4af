extension ServerMessage {
    /// The message as one compact JSON text frame.
    public func encoded() -> [UInt8] {
        // The message of every geometry frame, written directly when it can be (the same bytes).
        if case .state(let message) = self, let bytes = message.encodedDirectly() { return bytes }
        // Room for a whole `state` (about 300 bytes) without growing the buffer.
        var writer = JSONWriter(capacity: 512)
        write(to: &writer)
        return writer.bytes
    }

    /// Writes the message as a JSON object.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.string(kind.rawValue)
        switch self {
        case .welcome(let session, let resume, let config, let recordingStopped):
            writer.key("session")
            writer.string(session)
            writer.key("resume")
            writer.string(resume)
            writer.key("config")
            writer.value(config.json)
            // The comma `raw` writes first separates these members from `config`.
            writer.raw(Self.welcomeCatalog)
            if let recordingStopped {
                writer.key("recordingStopped")
                writer.string(recordingStopped)
            }
        case .items(let message):
            message.writeFields(to: &writer)
        case .state(let message):
            message.writeFields(to: &writer)
        case .event(let record):
            record.writeFields(to: &writer)
        case .command(let name):
            writer.key("name")
            writer.string(name)
        case .scrollToItem(let id, let anchor):
            writer.key("name")
            writer.string("scrollToItem")
            writer.key("id")
            writer.string(id)
            writer.key("anchor")
            writer.string(anchor.rawValue)
        case .error(let error):
            writer.key("code")
            writer.string(error.code.rawValue)
            writer.key("message")
            writer.string(error.message)
            if let ref = error.ref {
                writer.key("ref")
                writer.number(ref)
            }
            if let field = error.field {
                writer.key("field")
                writer.string(field)
            }
        case .pong(let id):
            writer.key("id")
            writer.value(id)
        }
        writer.endObject()
    }
}

extension ServerMessage {
    /// `welcome`'s `presets`, `events` and `settings` members: the same for every session, encoded once.
    static let welcomeCatalog: [UInt8] = {
        var writer = JSONWriter(capacity: 16 * 1024)
        writer.beginObject()
        writer.key("presets")
        writer.beginArray()
        for preset in Preset.allCases { preset.writeDescription(to: &writer) }
        writer.endArray()
        writer.key("events")
        writer.beginArray()
        for name in EventName.allCases {
            let entry = name.catalogEntry
            writer.beginObject()
            writer.key("name")
            writer.string(name.rawValue)
            writer.key("category")
            writer.string(entry.category.rawValue)
            writer.key("meaning")
            writer.string(entry.meaning)
            writer.key("failure")
            writer.bool(entry.failure)
            if let plot = entry.plot {
                writer.key("plot")
                writer.string(plot.rawValue)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key("settings")
        writer.beginArray()
        for setting in ScrollConfig.settings { setting.writeDescription(to: &writer) }
        writer.endArray()
        writer.endObject()
        // The members without the object's braces, for `raw` inside the welcome object.
        return Array(writer.bytes.dropFirst().dropLast())
    }()
}

extension Preset {
    /// The preset as `welcome.presets` describes it: its texts and its behaviour (docs/protocol.md).
    fileprivate func writeDescription(to writer: inout JSONWriter) {
        let behavior = behavior
        writer.beginObject()
        writer.key("name")
        writer.string(rawValue)
        writer.key("design")
        writer.string(design)
        writer.key("rule")
        writer.string(rule)
        writer.key("rules")
        writer.beginArray()
        for rule in behavior.rules { writer.string(rule.rawValue) }
        writer.endArray()
        writer.key("refresh")
        writer.string(behavior.refresh.rawValue)
        writer.key("indicator")
        writer.string(behavior.indicator.rawValue)
        writer.key("opensAtBottom")
        writer.bool(behavior.opensAtBottom)
        writer.key("followsArrivals")
        writer.bool(behavior.followsArrivals)
        writer.key("defaultRetryPolicy")
        writer.string(behavior.defaultRetryPolicy.rawValue)
        writer.key("compared")
        writer.bool(behavior.compared)
        writer.key("properties")
        writer.beginArray()
        for property in behavior.properties { writer.string(property.rawValue) }
        writer.endArray()
        writer.endObject()
    }
}

extension ScrollConfig.Setting {
    /// The setting as `welcome.settings` describes it, for the page's form (docs/protocol.md).
    fileprivate func writeDescription(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("name")
        writer.string(name)
        writer.key("kind")
        switch description.kind {
        case .number(let range):
            writer.string("number")
            writer.key("min")
            writer.number(range.lowerBound)
            writer.key("max")
            writer.number(range.upperBound)
        case .integer(let range):
            writer.string("integer")
            writer.key("min")
            writer.number(range.lowerBound)
            writer.key("max")
            writer.number(range.upperBound)
        case .choice(let names):
            writer.string("choice")
            writer.key("choices")
            writer.beginArray()
            for name in names { writer.string(name) }
            writer.endArray()
        case .toggle:
            writer.string("toggle")
        }
        writer.key("default")
        if let value = description.defaultValue { writer.value(JSONValue(value)) } else { writer.null() }
        writer.key("unit")
        writer.string(description.unit)
        writer.key("meaning")
        writer.string(description.meaning)
        writer.key("role")
        writer.string(role.rawValue)
        writer.key("flag")
        if notAFlag == nil { writer.string("--" + flag) } else { writer.null() }
        writer.endObject()
    }
}

extension ItemsMessage {
    fileprivate func writeFields(to writer: inout JSONWriter) {
        writeHead(op: op, to: &writer)
        writer.beginArray()
        for item in items { item.write(to: &writer) }
        writer.endArray()
        writeTail(to: &writer)
    }

    /// The members before the items: `op` and `rev`, and the `items` key.
    func writeHead(op: Operation, to writer: inout JSONWriter) {
        writer.key("op")
        writer.string(op.rawValue)
        writer.key("rev")
        writer.number(rev)
        writer.key("items")
    }

    /// The members after the items.
    func writeTail(to writer: inout JSONWriter) {
        if let trimmed {
            writer.key("edge")
            writer.string(trimmed.edge.rawValue)
            writer.key("count")
            writer.number(trimmed.count)
        }
        writer.key("total")
        writer.number(total)
        writer.key("hasMore")
        writer.bool(hasMore)
        if older {
            writer.key("older")
            writer.bool(true)
        }
    }
}

extension FeedItem {
    /// Writes ``json``. An item without extra fields (every generated feed's) is written straight, its members
    /// in the order the tree's sorted keys give (`height`, `id`, `subtitle`, `title`): building the tree
    /// (a dictionary) and sorting its keys cost about 400 instructions an item.
    func write(to writer: inout JSONWriter) {
        guard extra.isEmpty else {
            writer.value(json)
            return
        }
        writer.beginObject()
        if let height {
            writer.key("height")
            writer.number(height)
        }
        writer.key("id")
        writer.string(id)
        if let subtitle {
            writer.key("subtitle")
            writer.string(subtitle)
        }
        writer.key("title")
        writer.string(title)
        writer.endObject()
    }
}

extension StateMessage {
    fileprivate func writeFields(to writer: inout JSONWriter) {
        writer.key("ack")
        if let ack { writer.number(ack) } else { writer.null() }
        writer.key("preset")
        writer.string(preset.rawValue)
        writer.key("reachedBottom")
        writer.bool(reachedBottom)
        writer.key("pull")
        writer.beginObject()
        writer.key("distance")
        writer.number(pull.distance)
        writer.key("progress")
        writer.number(pull.progress)
        writer.key("eligible")
        writer.bool(pull.eligible)
        writer.endObject()
        writer.key("refreshing")
        writer.bool(refreshing)
        writer.key("loadingNextPage")
        writer.bool(loadingNextPage)
        writer.key("hasMore")
        writer.bool(hasMore)
        writer.key("itemCount")
        writer.number(itemCount)
        writer.key("indicator")
        writer.beginObject()
        writer.key("top")
        writer.beginObject()
        writer.key("visible")
        writer.bool(indicator.topVisible)
        writer.key("height")
        writer.number(indicator.topHeight)
        writer.key("scale")
        writer.number(indicator.topScale)
        writer.key("opacity")
        writer.number(indicator.topOpacity)
        writer.endObject()
        writer.key("bottom")
        writer.beginObject()
        writer.key("visible")
        writer.bool(indicator.bottomVisible)
        writer.endObject()
        writer.endObject()
        if let origin {
            writer.key("origin")
            writer.beginObject()
            writer.key("x")
            writer.number(origin.x)
            writer.key("y")
            writer.number(origin.y)
            writer.endObject()
        }
        writer.key("loadFailure")
        if let loadFailure { loadFailure.writeFields(to: &writer) } else { writer.null() }
        if let top = topEdge {
            writer.key("topEdge")
            writer.beginObject()
            writer.key("reachedTop")
            writer.bool(top.reachedTop)
            writer.key("hasPrevious")
            writer.bool(top.hasPrevious)
            writer.key("loadingPreviousPage")
            writer.bool(top.loadingPreviousPage)
            writer.key("loadFailure")
            if let failure = top.loadFailure { failure.writeFields(to: &writer) } else { writer.null() }
            writer.endObject()
        }
        if let window {
            writer.key("window")
            writer.beginObject()
            writer.key("start")
            writer.number(window.start)
            writer.key("count")
            writer.number(window.count)
            writer.key("limit")
            writer.number(window.limit)
            writer.endObject()
        }
        if let recordingStopped {
            writer.key("recordingStopped")
            writer.string(recordingStopped)
        }
    }
}

extension LoadFailureState {
    fileprivate func writeFields(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("page")
        writer.number(page)
        writer.key("failures")
        writer.number(failures)
        writer.key("next")
        writer.string(next.rawValue)
        if let retry {
            writer.key("retry")
            writer.number(retry)
        }
        if let retryMax {
            writer.key("retryMax")
            writer.number(retryMax)
        }
        if let retryInMs {
            writer.key("retryInMs")
            writer.number(retryInMs)
        }
        writer.endObject()
    }
}

extension ServerMessage {
    /// The `event` message for a record already encoded by ``EventRecord/encoded()``: the same bytes as
    /// `ServerMessage.event(record).encoded()`, without encoding the record again.
    public static func eventMessage(encodedRecord: [UInt8]) -> [UInt8] {
        precondition(encodedRecord.first == UInt8(ascii: "{") && encodedRecord.count > 2)
        var bytes = Array(#"{"type":"event","#.utf8)
        bytes.reserveCapacity(bytes.count + encodedRecord.count)
        bytes += encodedRecord.dropFirst()
        return bytes
    }
}

extension EventRecord {
    /// The record as a JSON object, as the log files and `/api/events` hold it.
    public func encoded() -> [UInt8] {
        // Room for a typical record (about 200 bytes) without growing the buffer.
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writeFields(to: &writer)
        writer.endObject()
        return writer.bytes
    }

    fileprivate func writeFields(to writer: inout JSONWriter) {
        writer.key("seq")
        writer.number(seq)
        writer.key("time")
        writer.string(time)
        writer.key("session")
        writer.string(session)
        writer.key("name")
        writer.string(entry.name.rawValue)
        if let geometrySeq = entry.geometrySeq {
            writer.key("geometrySeq")
            writer.number(geometrySeq)
        }
        writer.key("data")
        writer.value(.object(entry.data))
    }
}
