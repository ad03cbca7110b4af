/// Where a session's items come from: a synthetic feed derived from `seed`, or a fixed list (`--items`).
public enum FeedSource: Equatable, Sendable {
    /// Endless deterministic items: ids, titles, subtitles and heights derived from the seed.
    case synthetic
    /// The entries of an `--items` file, in order.
    case list([FeedItem])

    /// The item at `index` of the feed, or nil past its end.
    public func item(at index: Int, seed: UInt64) -> FeedItem? {
        switch self {
        case .list(let items):
            return index < items.count ? items[index] : nil
        case .synthetic:
            let hash = SeededGenerator.mix(seed, index)
            let words = Self.words
            let first = words[Int(hash % UInt64(words.count))]
            let second = words[Int((hash >> 16) % UInt64(words.count))]
            // Varied heights make bottom detection meet real, uneven content.
            let height = Double(56 + (hash >> 32) % 65)
            return FeedItem(
                id: "item-\(index + 1)", title: "Item \(index + 1)", subtitle: "\(first) \(second)", height: height)
        }
    }

    /// The feed index of the item with this id, or nil when the feed has none: a synthetic feed's ids are
    /// `item-N` (N ≥ 1, written without leading zeros); a list's are its entries' (`maxItems` is checked by
    /// the caller).
    public func index(of id: String, seed: UInt64) -> Int? {
        switch self {
        case .list(let items):
            return items.firstIndex { $0.id == id }
        case .synthetic:
            guard id.hasPrefix("item-"), let number = Int(id.dropFirst(5)), number >= 1,
                "item-\(number)" == id
            else { return nil }
            return number - 1
        }
    }

    /// How many items the feed offers within `maxItems` (0 = no cap); nil when endless.
    public func available(maxItems: Int) -> Int? {
        switch self {
        case .list(let items): maxItems == 0 ? items.count : min(items.count, maxItems)
        case .synthetic: maxItems == 0 ? nil : maxItems
        }
    }

    /// The `number`th item a refresh brings (1-based across the session, so ids never repeat).
    public static func refreshedItem(_ number: Int, seed: UInt64) -> FeedItem {
        let hash = SeededGenerator.mix(seed ^ 0x5EED, number)
        return FeedItem(
            id: "new-\(number)", title: "New item \(number)", subtitle: "Pulled in by a refresh",
            height: Double(56 + hash % 65))
    }

    /// The `number`th new message to arrive (1-based across the session, so ids never repeat).
    public static func arrivedMessage(_ number: Int, seed: UInt64) -> FeedItem {
        let hash = SeededGenerator.mix(seed ^ 0xC4A7, number)
        let words = Self.words
        return FeedItem(
            id: "message-\(number)", title: "New message \(number)",
            subtitle: "\(words[Int(hash % UInt64(words.count))]) \(words[Int((hash >> 16) % UInt64(words.count))])",
            height: Double(56 + (hash >> 32) % 65))
    }

    private static let words = [
        "amber", "brisk", "cobalt", "dune", "ember", "fjord", "granite", "harbor", "indigo", "juniper",
        "kelp", "lumen", "meadow", "nimbus", "orchid", "pebble", "quartz", "ripple", "sable", "tundra",
    ]
}

/// Why an `--items` file cannot be used.
public struct FeedFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
}

extension FeedSource {
    /// Reads a JSON array of objects with at least a string or integer `id` and a string `title`;
    /// optional `subtitle` (a string) and `height` (px, positive); every other field is kept.
    public static func parseList(_ bytes: [UInt8]) throws(FeedFileError) -> FeedSource {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw FeedFileError(description: "not JSON: \(error)")
        }
        guard let entries = document.array else { throw FeedFileError(description: "expected a JSON array of items") }
        var seen = Set<String>()
        var items: [FeedItem] = []
        for (index, entry) in entries.enumerated() {
            guard var fields = entry.object else { throw FeedFileError(description: "item \(index) is not an object") }
            let id: String
            switch fields.removeValue(forKey: "id") {
            case .string(let text)?: id = text
            case .number(let number)? where number == number.rounded() && abs(number) < 1e15: id = String(Int(number))
            default: throw FeedFileError(description: "item \(index) needs an \"id\" (string or integer)")
            }
            guard case .string(let title)? = fields.removeValue(forKey: "title") else {
                throw FeedFileError(description: "item \(index) needs a string \"title\"")
            }
            guard seen.insert(id).inserted else {
                throw FeedFileError(description: "item \(index) repeats id \"\(id)\"")
            }
            var subtitle: String?
            switch fields.removeValue(forKey: "subtitle") {
            case nil, .null?: break
            case .string(let text)?: subtitle = text
            default: throw FeedFileError(description: "item \(index): \"subtitle\" must be a string")
            }
            var height: Double?
            switch fields.removeValue(forKey: "height") {
            case nil, .null?: break
            case .number(let number)? where number > 0: height = number
            default: throw FeedFileError(description: "item \(index): \"height\" must be a positive number (px)")
            }
            items.append(FeedItem(id: id, title: title, subtitle: subtitle, height: height, extra: fields))
        }
        return .list(items)
    }
}
