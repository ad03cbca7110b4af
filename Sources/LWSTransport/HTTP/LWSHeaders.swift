import CLibWebSockets

/// Reading request headers and adding response headers through lws's header table.
///
/// The header table belongs to the wsi and is only valid during the callback that delivers the
/// request (HTTP, FILTER_*, CONFIRM_UPGRADE): copy values out, never keep pointers.
package enum LWSHeaders {
    private static let methods: [(lws_token_indexes, String)] = [
        (WSI_TOKEN_GET_URI, "GET"), (WSI_TOKEN_POST_URI, "POST"), (WSI_TOKEN_HEAD_URI, "HEAD"),
        (WSI_TOKEN_PUT_URI, "PUT"), (WSI_TOKEN_PATCH_URI, "PATCH"), (WSI_TOKEN_DELETE_URI, "DELETE"),
        (WSI_TOKEN_OPTIONS_URI, "OPTIONS"),
    ]

    /// The whole value of a header (all its fragments), or nil when absent.
    package static func value(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        return copy(capacity: length + 1) { buffer, capacity in
            lws_hdr_copy(wsi, buffer, capacity, token)
        }
    }

    /// The bytes of every header lws knows on `wsi` (values, the request line's URI and query included).
    /// Headers lws does not know (e.g. `X-Anything`) are kept in the same buffer but cannot be listed in
    /// lws 4.1.6, so they do not count here.
    static func totalLength(_ wsi: OpaquePointer) -> Int {
        var total = 0
        for raw in 0..<WSI_TOKEN_COUNT.rawValue {
            let length = Int(lws_hdr_total_length(wsi, lws_token_indexes(rawValue: raw)))
            if length > 0 { total += length }
        }
        return total
    }

    /// One fragment of a header (e.g. one `name=value` of the query), or nil when absent.
    static func fragment(_ wsi: OpaquePointer, _ token: lws_token_indexes, _ index: Int32) -> String? {
        let length = Int(lws_hdr_fragment_length(wsi, token, index))
        guard length >= 0 else { return nil }
        return copy(capacity: length + 1) { buffer, capacity in
            lws_hdr_copy_fragment(wsi, buffer, capacity, token, index)
        }
    }

    /// The method, decoded path and decoded query of the request on `wsi`; nil if lws has none.
    static func request(_ wsi: OpaquePointer) -> HTTPRequest? {
        guard let (token, method) = methods.first(where: { lws_hdr_total_length(wsi, $0.0) > 0 }),
            let path = value(wsi, token)
        else { return nil }
        var query: [String: String] = [:]
        var index: Int32 = 0
        // lws splits the query at '&' into fragments and percent-decodes each one.
        while let pair = fragment(wsi, WSI_TOKEN_HTTP_URI_ARGS, index) {
            index += 1
            guard !pair.isEmpty else { continue }
            if let equals = pair.firstIndex(of: "=") {
                query[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            } else {
                query[pair] = ""
            }
        }
        return HTTPRequest(method: method, path: path, query: query)
    }

    /// Appends `name: value` to a response header block being built at `position`.
    static func add(
        _ wsi: OpaquePointer, name: String, value: String,
        at position: inout UnsafeMutablePointer<UInt8>?, end: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let bytes = Array(value.utf8)
        return lws_add_http_header_by_name(wsi, name, bytes, Int32(bytes.count), &position, end) == 0
    }

    private static func copy(
        capacity: Int, _ body: (UnsafeMutablePointer<CChar>, Int32) -> Int32
    ) -> String? {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0, count: capacity)
        let copied = body(buffer, Int32(capacity))
        guard copied >= 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: Int(copied)), as: UTF8.self)
    }
}

/// Setting the close frame lws sends when the callback then returns -1.
enum LWSCloseReason {
    static func set(_ wsi: OpaquePointer, code: UInt16, reason: String) {
        // A close frame's payload is at most 125 bytes: 2 for the code, the rest for the reason.
        var bytes = Array(reason.utf8.prefix(123))
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &bytes, bytes.count)
    }
}
