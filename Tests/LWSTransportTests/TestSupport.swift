import Foundation
import LWSClient
import SystemCalls
import Testing

@testable import LWSTransport

/// A public directory with one file per MIME type, a dotfile, a symlink that escapes, and a
/// `Package.swift` beside it (the target of the traversal attempts).
enum Fixture {
    static let outsideMarker = "OUTSIDE-THE-PUBLIC-DIRECTORY"
    static let secretMarker = "DOTFILE-SECRET"

    static let publicDirectory: String = {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("lws-transport-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let publicURL = root.appendingPathComponent("public")
        let files: [String: String] = [
            "index.html": "<!doctype html><title>index</title>",
            "app.js": "console.log('app')",
            "module.mjs": "export const x = 1",
            "style.css": "body { color: red }",
            "data.json": "{\"a\":1}",
            "icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            "image.png": "PNG",
            "favicon.ico": "ICO",
            "font.woff2": "WOFF2",
            "app.js.map": "{\"version\":3}",
            "module.wasm": "WASM",
            "notes.xyz": "unknown type",
            ".secret": secretMarker,
            "sub/index.html": "<!doctype html><title>sub</title>",
            "sub/.hidden": secretMarker,
            ".git/config": secretMarker,
        ]
        do {
            try FileManager.default.createDirectory(
                at: publicURL.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: publicURL.appendingPathComponent(".git"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: publicURL.appendingPathComponent("empty"), withIntermediateDirectories: true)
            for (name, contents) in files {
                try Data(contents.utf8).write(to: publicURL.appendingPathComponent(name))
            }
            try Data(outsideMarker.utf8).write(to: root.appendingPathComponent("Package.swift"))
            try FileManager.default.createSymbolicLink(
                atPath: publicURL.appendingPathComponent("escape.txt").path,
                withDestinationPath: root.appendingPathComponent("Package.swift").path
            )
        } catch {
            fatalError("cannot create the fixture: \(error)")
        }
        return publicURL.path
    }()
}

/// Records what the server reported and answers through the loop each callback brings; mutated on the
/// service thread, read by tests under its lock.
final class RecordingDelegate: WebServerDelegate, Sendable {
    struct Log {
        var opened: [ConnectionID] = []
        var received: [(ConnectionID, String)] = []
        var violations: [(ConnectionID, InboundViolation)] = []
        var closed: [ConnectionID: UInt16?] = [:]
        var outboundAfterBurst: Int?
        var httpDrops: [HTTPResponseDrop] = []
    }

    let log = Monitor(Log())

    func connectionOpened(_ id: ConnectionID, on loop: WebServerLoop) {
        log.update { $0.opened.append(id) }
    }

    func connection(_ id: ConnectionID, received text: [UInt8], on loop: WebServerLoop) {
        let message = String(decoding: text, as: UTF8.self)
        log.update { $0.received.append((id, message)) }
        if message.hasPrefix("close:"), let code = UInt16(message.dropFirst(6)) {
            loop.close(id, code: code, reason: "requested")
        } else if message == "burst" {
            let queued = Self.burst(on: loop, to: id)
            log.update { $0.outboundAfterBurst = queued }
        } else if message.hasPrefix("burst-later:"), let milliseconds = Int(message.dropFirst(12)) {
            // The same burst from a timer: another send path, through the same gate.
            loop.schedule(afterMilliseconds: milliseconds) { [log] loop in
                let queued = Self.burst(on: loop, to: id)
                log.update { $0.outboundAfterBurst = queued }
            }
        } else if message.hasPrefix("big:"), let count = Int(message.dropFirst(4)) {
            // An answer bigger than a slow reader's socket takes, then one behind it.
            loop.send(Array(repeating: UInt8(ascii: "x"), count: count), to: id)
            loop.send(Array("tail".utf8), to: id)
        } else if message.hasPrefix("keyed:") {
            // Answered with the newest keyed message: a state, as the playground sends it.
            loop.send(Array("answer-\(message.dropFirst(6))".utf8), to: id, coalescingKey: "answer")
        } else if message.hasPrefix("later:"), let milliseconds = Int(message.dropFirst(6)) {
            // The answer comes from a timer, through the loop the timer is handed.
            loop.schedule(afterMilliseconds: milliseconds) { loop in
                loop.send(Array("later".utf8), to: id)
            }
        } else {
            loop.send(text, to: id)
        }
    }

    /// Sends `a`, `state-1`, `b`, `state-2`, `c`, `state-3` (the states keyed) and returns the bytes queued
    /// after: nothing is written while the loop runs the caller's code, so the states coalesce to `state-3`,
    /// queued last, and all 10 bytes are still queued.
    static func burst(on loop: WebServerLoop, to id: ConnectionID) -> Int {
        loop.send(Array("a".utf8), to: id)
        loop.send(Array("state-1".utf8), to: id, coalescingKey: "state")
        loop.send(Array("b".utf8), to: id)
        loop.send(Array("state-2".utf8), to: id, coalescingKey: "state")
        loop.send(Array("c".utf8), to: id)
        loop.send(Array("state-3".utf8), to: id, coalescingKey: "state")
        return loop.outboundBytes(of: id)
    }

    func connection(_ id: ConnectionID, violated violation: InboundViolation, on loop: WebServerLoop) {
        log.update { $0.violations.append((id, violation)) }
        let code = violation == .tooLarge ? "too_large" : "binary"
        loop.send(Array("{\"type\":\"error\",\"code\":\"\(code)\"}".utf8), to: id)
    }

    func connectionClosed(_ id: ConnectionID, code: UInt16?, on loop: WebServerLoop) {
        log.update { $0.closed[id] = code }
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse? {
        switch request.path {
        case "/healthz":
            return .json(Array("{\"ok\":true}".utf8))
        case "/api/echo":
            let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return .text("\(request.method) \(request.path) \(query)")
        case "/api/big":
            let count = request.query["bytes"].flatMap { Int($0) } ?? 200_000
            return .json(Array(repeating: UInt8(ascii: "x"), count: count))
        default:
            return nil
        }
    }

    func httpResponseDropped(_ drop: HTTPResponseDrop) {
        log.update { $0.httpDrops.append(drop) }
    }

    /// Waits until `count` connections have closed; their codes by id.
    func waitForClosed(count: Int, timeout: Duration = .seconds(5)) -> [ConnectionID: UInt16?]? {
        log.wait(timeout: timeout) { $0.closed.count >= count ? $0.closed : nil }
    }
}

/// A ``WebServer`` on 127.0.0.1 with a free port, run on its own thread.
final class TestServer: Sendable {
    /// The subprotocol the test servers speak: the transport's tests know no product.
    static let subprotocol = "lws-transport-test.v1"
    /// The paths RecordingDelegate answers.
    static let apiMounts = ["/api", "/healthz"]

    let server: WebServer
    let delegate: RecordingDelegate
    let port: Int
    private let finished = Monitor(false)
    private let thread: ServiceThread

    init(_ configure: (inout WebServerConfiguration) -> Void = { _ in }) throws {
        var configuration = WebServerConfiguration(
            publicDirectory: Fixture.publicDirectory, subprotocol: TestServer.subprotocol)
        configuration.port = 0
        configuration.apiMounts = TestServer.apiMounts
        configure(&configuration)
        let delegate = RecordingDelegate()
        let server = try WebServer(configuration: configuration, delegate: delegate)
        self.delegate = delegate
        self.server = server
        port = server.port
        let finished = finished
        thread = ServiceThread {
            server.run()
            finished.update { $0 = true }
        }
    }

    /// Stops the server; true if run() returned within `timeout`.
    @discardableResult
    func stop(timeout: Duration = .seconds(5)) -> Bool {
        server.stop()
        guard finished.wait(timeout: timeout, { $0 ? true : nil }) != nil else { return false }
        thread.join()
        return true
    }

    deinit {
        stop()
    }

    /// Runs `work` on the service thread, with the loop, and waits for its result.
    func onServiceThread<T: Sendable>(
        timeout: Duration = .seconds(5), _ work: @escaping @Sendable (WebServerLoop) -> T
    ) -> T? {
        let result = Monitor<T?>(nil)
        server.execute { loop in
            let value = work(loop)
            result.update { $0 = value }
        }
        return result.wait(timeout: timeout) { $0 }
    }
}
