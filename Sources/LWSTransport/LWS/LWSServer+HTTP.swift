import CLibWebSockets
import SystemCalls

/// HTTP answers: the request filter, the API's dynamic answers (streamed a fragment per WRITEABLE), the
/// refusals, and the headers lws's file answers get.
extension LWSServer {
    /// A dynamic HTTP response whose body is still being written (or, once written, still held by lws).
    struct PendingHTTPResponse {
        let wsi: OpaquePointer
        let request: HTTPRequest
        let status: Int
        var body: [UInt8]
        /// Streamed instead of `body`, a fragment per write.
        var file: HTTPFileBody?
        var written = 0
        /// When the last piece was handed to lws: a drop long after it was a stalled reader.
        var lastProgress = ContinuousClock.now

        var length: Int { file?.length ?? body.count }
    }

    // MARK: - HTTP API

    /// Whether lws may go on with the HTTP request on `wsi` (0) or it was answered here (1): too large a head
    /// (431), a foreign Host (403), a path neither the API nor the public directory serves (404). `path` is
    /// the decoded path lws read, `length` its length.
    func filterHTTPRequest(_ wsi: OpaquePointer, path input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        if LWSHeaders.totalLength(wsi) > configuration.maxRequestHeaderBytes {
            return refuse(wsi, status: 431, "Request Header Fields Too Large\n")
        }
        guard hostPolicy.accepts(LWSHeaders.value(wsi, WSI_TOKEN_HOST)) else {
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_FORBIDDEN.rawValue), nil)
            return 1
        }
        let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
        // `length` is the decoded path's length: a longer one than the C string holds a %00, which
        // would otherwise cut the path short (`/x%00/../y` would be served as `/x`).
        let hasNUL = length > path.utf8.count
        if !hasNUL, isAPIPath(path) || pathPolicy.allows(path) { return 0 }
        // Refused paths are answered like missing files, so they reveal nothing.
        _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil)
        return 1
    }

    func isAPIPath(_ path: String) -> Bool {
        configuration.apiMounts.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    func httpRequest(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard user != nil else {
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_INTERNAL_SERVER_ERROR.rawValue), nil)
            return 1
        }
        // One request per connection: the front door hands lws nothing after the first request's head and
        // keeps lws from reading more. Should lws parse a second request all the same (a client that fills a
        // receive buffer of several MB behind its request), the connection is dropped rather than answered
        // twice at once.
        if httpResponses.values.contains(where: { $0.wsi == wsi }) { return -1 }
        lastHTTPID += 1
        let id = lastHTTPID | (1 << 63)  // never collides with WebSocket ids
        shim_lws_set_session_id(user, id)

        let request = LWSHeaders.request(wsi)
        let response: HTTPResponse
        if let request, !isAPIPath(request.path) {
            // The file mount found no file: lws falls back to LWS_CALLBACK_HTTP on protocols[0].
            response = .text("Not Found\n", status: 404)
        } else if let request, request.method == "GET" || request.method == "HEAD" {
            response = delegate?.handle(request) ?? .text("Not Found\n", status: 404)
        } else if request != nil {
            response = .text("Method Not Allowed\n", status: 405)
        } else {
            response = .text("Bad Request\n", status: 400)
        }
        // Every answer says `connection: close` and the connection closes once it is written.
        guard writeHeaders(wsi, response, closing: true) else { return -1 }
        var pending = PendingHTTPResponse(
            wsi: wsi, request: request ?? HTTPRequest(method: "GET", path: ""), status: response.status,
            body: request?.method == "HEAD" ? [] : response.body)
        if request?.method != "HEAD", let file = response.file, file.length > 0 { pending.file = file }
        if pending.file == nil, pending.body.count <= LWSWriter.fragmentBytes {
            if !pending.body.isEmpty {
                guard writer.write(wsi, pending.body[...], protocol: LWS_WRITE_HTTP_FINAL) else { return -1 }
            }
            pending.written = pending.body.count
            return closeWhenWritten(wsi, id, pending)
        }
        httpResponses[id] = pending
        refreshStallTimeout(wsi)
        lws_callback_on_writable(wsi)
        return 0
    }

    /// -1 (close now) once lws has handed the whole answer to the socket; else 0, keeping the answer until
    /// the WRITEABLE lws raises when it has written what the socket did not take (closing earlier would
    /// lose that tail).
    private func closeWhenWritten(_ wsi: OpaquePointer, _ id: UInt64, _ pending: PendingHTTPResponse) -> Int32 {
        if lws_partial_buffered(wsi) != 0 {
            httpResponses[id] = pending
            refreshStallTimeout(wsi)
            lws_callback_on_writable(wsi)
            return 0
        }
        httpResponses[id] = nil
        FrontDoor.discardUnreadInput(lws_get_socket_fd(wsi))
        return -1
    }

    // lws's HTTP timeout (5 s from the end of the request head, PENDING_TIMEOUT_HTTP_CONTENT) is not
    // restarted by our writes: without this a reader slower than 5 s for the whole answer loses the rest.
    private func refreshStallTimeout(_ wsi: OpaquePointer) {
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Int32(clamping: configuration.httpStallTimeoutSeconds))
    }

    func reportDrop(_ pending: PendingHTTPResponse) {
        let idle = ContinuousClock.now - pending.lastProgress
        // lws's timeouts have a resolution of about a second.
        let stalled = idle >= .seconds(configuration.httpStallTimeoutSeconds) - .milliseconds(1_500)
        delegate?.httpResponseDropped(
            HTTPResponseDrop(
                request: pending.request, status: pending.status, bytesWritten: pending.written,
                bodyBytes: pending.length,
                reason: stalled ? .readerStalled(seconds: configuration.httpStallTimeoutSeconds) : .closedByClient
            ))
    }

    private func writeHeaders(_ wsi: OpaquePointer, _ response: HTTPResponse, closing: Bool = false) -> Bool {
        let start = writer.payloadStart
        let end = writer.payloadEnd
        var position: UnsafeMutablePointer<UInt8>? = start
        // Adds the status line, server, content-type, content-length and (with
        // HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE) the security headers.
        guard
            lws_add_http_common_headers(
                wsi, UInt32(clamping: response.status), response.contentType,
                lws_filepos_t(response.file?.length ?? response.body.count), &position, end
            ) == 0
        else { return false }
        // Before lws has parsed the request's version it writes an HTTP/1.0 status line; every client
        // here speaks HTTP/1.1 (lws itself answers nothing else).
        if start.pointee == UInt8(ascii: "H"), Syscall.bytesEqual(start, "HTTP/1.0 ", count: 9) {
            (start + 7).pointee = UInt8(ascii: "1")
        }
        var added = LWSHeaders.add(wsi, name: "cache-control:", value: "no-store", at: &position, end: end)
        if closing {
            added = added && LWSHeaders.add(wsi, name: "connection:", value: "close", at: &position, end: end)
        }
        return added && lws_finalize_write_http_header(wsi, start, &position, end) == 0
    }

    /// The headers a file answer gets besides lws's own: `access-control-allow-origin: *` for the
    /// configuration's ``WebServerConfiguration/crossOriginFiles``. `input` is lws's
    /// `lws_process_html_args`, whose `p` is where the next header goes and `max_len` the room left.
    func addFileHeaders(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?) -> Int32 {
        guard let input, !configuration.crossOriginFiles.isEmpty else { return 0 }
        let path = LWSHeaders.value(wsi, WSI_TOKEN_GET_URI) ?? LWSHeaders.value(wsi, WSI_TOKEN_HEAD_URI)
        guard let path, configuration.crossOriginFiles.contains(path) else { return 0 }
        let args = input.assumingMemoryBound(to: lws_process_html_args.self)
        guard let next = args.pointee.p else { return 0 }
        let start = UnsafeMutableRawPointer(next).assumingMemoryBound(to: UInt8.self)
        var position: UnsafeMutablePointer<UInt8>? = start
        guard
            LWSHeaders.add(
                wsi, name: "access-control-allow-origin:", value: "*", at: &position,
                end: start + Int(args.pointee.max_len)),
            let position
        else { return -1 }
        args.pointee.p = next + (position - start)
        args.pointee.max_len -= Int32(position - start)
        return 0
    }

    func httpWriteable(_ wsi: OpaquePointer, _ id: UInt64) -> Int32 {
        guard var pending = httpResponses[id] else { return 0 }
        if pending.written == pending.length { return closeWhenWritten(wsi, id, pending) }
        let end = min(pending.length, pending.written + LWSWriter.fragmentBytes)
        let isLast = end == pending.length
        // A file is read a fragment at a time; one that shrank since it was opened cuts the answer off.
        let fragment = pending.file.map { $0.read(at: pending.written, count: end - pending.written)[...] }
        guard
            fragment.map({ $0.count == end - pending.written }) ?? true,
            writer.write(
                wsi, fragment ?? pending.body[pending.written..<end],
                protocol: isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP
            )
        else { return -1 }
        pending.written = end
        pending.lastProgress = ContinuousClock.now
        refreshStallTimeout(wsi)
        if isLast { return closeWhenWritten(wsi, id, pending) }
        httpResponses[id] = pending
        lws_callback_on_writable(wsi)
        return 0
    }

    /// Answers the request on `wsi` with `status` and `text` and closes the connection; returns what the
    /// callback returns (1: lws must not handle the request further).
    ///
    /// lws_return_http_status would do, but before lws has parsed the request's version (in
    /// HTTP_CONFIRM_UPGRADE) it answers `HTTP/1.0`, which WebSocket clients may refuse to read.
    func refuse(_ wsi: OpaquePointer, status: Int, _ text: String) -> Int32 {
        let response = HTTPResponse.text(text, status: status)
        guard writeHeaders(wsi, response, closing: true) else { return -1 }
        _ = writer.write(wsi, response.body[...], protocol: LWS_WRITE_HTTP_FINAL)
        return 1
    }
}
