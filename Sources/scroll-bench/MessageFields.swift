import ScrollCore

/// What the bench reads from a server message: its kind, a state's `ack`, a pong's `id`, an items
/// message's `total`, an error's `code`. Scanned from the bytes when the server writes the compact form
/// the playground does (`{"type":"state","ack":12,…}`); parsed as JSON when it writes another form
/// (spaces, another key order), so the bench speaks to any server of the protocol.
struct MessageFields {
    var kind = MessageScanner.Kind.other
    var ack: Int?
    var id: Int?
    var total: Int?
    var code: String?

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let scanner = MessageScanner(bytes: bytes)
        kind = scanner.kind
        switch kind {
        case .state: ack = scanner.integer(after: #""ack":"#)
        case .pong: id = scanner.integer(after: #""id":"#)
        case .items: total = scanner.integer(after: #""total":"#, fromEnd: true)
        case .error: code = scanner.string(after: #""code":""#)
        case .welcome, .event, .command: return
        case .other: break
        }
        // A field the scan did not find (or a state's `ack`, null before the first geometry) is read by
        // parsing: rare for the playground's own messages, always for another form.
        if kind == .other || (ack == nil && id == nil && total == nil && code == nil) { parse(bytes) }
    }

    private mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let message = try? JSONParser.parse(Array(bytes)), let type = message["type"]?.string else { return }
        kind = MessageScanner.Kind.allCases.first { $0.name == type } ?? .other
        func integer(_ key: String) -> Int? {
            guard let number = message[key]?.number, number == number.rounded(), abs(number) < 1e15 else { return nil }
            return Int(number)
        }
        ack = integer("ack")
        id = integer("id")
        total = integer("total")
        code = message["code"]?.string
    }
}
