import Foundation
import LWSTransport
import ScrollCore

/// `GET /healthz`, `/api/sessions`, `/api/events` and `/api/export`.
enum APIRoutes {
    /// The path prefixes the transport routes here; every other path is a file of the page.
    static let mounts = ["/api", "/healthz"]
    /// The most events one `/api/events` answer holds.
    static let maxEventsPerRequest = 10_000
    /// The most bytes of events one `/api/events` answer holds (at least one event): building and writing
    /// an answer never holds the service thread for long.
    static let maxResponseBytes = 8 * 1024 * 1024

    static func handle(_ request: HTTPRequest, host: SessionHost) -> HTTPResponse? {
        // Only GET and HEAD get here: the transport answers every other method 405 itself. HEAD answers like
        // GET; the transport leaves the body out.
        switch request.path {
        case "/healthz":
            return .json(JSONValue.object(["status": "ok", "active": .int(host.activeSessionCount)]).jsonBytes)
        case "/api/sessions":
            return sessions(host)
        case "/api/events":
            return events(request.query, host)
        case "/api/export":
            return export(request.query, host)
        default:
            return sessionTrace(request.path, host)
        }
    }

    /// `GET /api/sessions/ID/trace`: the session's trace as JSON lines, ready for `replay`.
    private static func sessionTrace(_ path: String, _ host: SessionHost) -> HTTPResponse? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[1] == "api", parts[2] == "sessions", parts[4] == "trace" else { return nil }
        // Only ids the server makes, so the id can never name another file.
        guard let id = SessionID(parts[3]) else {
            return problem("no session \(ClientText.excerpt(String(parts[3])))", status: 404)
        }
        guard let directory = host.options.logDirectory else {
            return problem("traces are recorded only when the server runs with --log-dir DIR", status: 404)
        }
        host.sessions[id]?.trace?.flush()
        // Streamed a fragment per write, never read whole on the service thread: a trace can be large.
        guard let file = HTTPFileBody(path: "\(directory)/traces/\(id).jsonl") else {
            return problem("no trace for session \(id)", status: 404)
        }
        return .file(file, contentType: "application/x-ndjson")
    }

    private static func sessions(_ host: SessionHost) -> HTTPResponse {
        let listed = host.sessions.values.sorted { $0.id < $1.id }
        let entries: [JSONValue] = listed.map { hosted in
            [
                "id": .string(hosted.state.id), "connected": .bool(hosted.connection != nil),
                "preset": .string(hosted.state.config.rules.preset.rawValue),
                "itemCount": .int(hosted.state.window.items.count),
                "since": .string(hosted.since),
            ]
        }
        return .json(
            JSONValue.object(["active": .int(host.activeSessionCount), "sessions": .array(entries)]).jsonBytes)
    }

    private static func events(_ query: [String: String], _ host: SessionHost) -> HTTPResponse {
        var after = 0
        var limit = 1000
        if let text = query["after"], !text.isEmpty {
            guard let value = Int(text), value >= 0 else { return problem("after must be a non-negative integer") }
            after = value
        }
        if let text = query["limit"], !text.isEmpty {
            guard let value = Int(text), (1...maxEventsPerRequest).contains(value) else {
                return problem("limit must be an integer in 1…\(maxEventsPerRequest)")
            }
            limit = value
        }
        let session = query["session"].flatMap { $0.isEmpty ? nil : $0 }
        let page = host.log.events(session: session, after: after, limit: limit, maxBytes: maxResponseBytes)
        var writer = JSONWriter(capacity: page.byteCount + page.records.count + 64)
        writer.beginObject()
        writer.key("events")
        writer.beginArray()
        for record in page.records { writer.raw(record) }
        writer.endArray()
        // Where to continue: `after` for the next request, and whether it would find more.
        writer.key("after")
        writer.number(page.lastSeq ?? after)
        writer.key("more")
        writer.bool(page.hasMore)
        writer.endObject()
        return .json(writer.bytes)
    }

    /// The longest `base` `/api/export` takes: a page's own address, not a payload.
    static let maxExportBase = 2048

    /// `GET /api/export?session=ID&base=URL`: the page's "Use in your app" panel, the session's settings as
    /// `scroll-playground export` writes them (one code, so the page and the command never disagree).
    private static func export(_ query: [String: String], _ host: SessionHost) -> HTTPResponse {
        let text = query["session"] ?? ""
        guard let id = SessionID(text), let hosted = host.sessions[id] else {
            return problem("no session \(ClientText.excerpt(text))", status: 404)
        }
        var command = ExportCommand()
        if let base = query["base"], !base.isEmpty {
            guard base.utf8.count <= maxExportBase, base.hasPrefix("http://") || base.hasPrefix("https://") else {
                return problem("base must be an http(s) URL of at most \(maxExportBase) bytes")
            }
            command.base = base
        }
        command.config = hosted.state.config
        // How this page scrolls is the page's own (it says so in every hello), not something you tuned.
        command.config.physics = ScrollConfig().physics
        var answer: [String: JSONValue] = [:]
        for format in ExportFormat.allCases {
            command.format = format
            answer[format.rawValue] = .string(command.render())
        }
        return .json(JSONValue.object(answer).jsonBytes)
    }

    private static func problem(_ message: String, status: Int = 400) -> HTTPResponse {
        .json(JSONValue.object(["error": .string(message)]).jsonBytes, status: status)
    }
}
