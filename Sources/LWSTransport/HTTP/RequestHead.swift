/// What the front door decides about the bytes a new connection has sent so far: a pure function of
/// those bytes, so every rule is tested without sockets.
///
/// The rules are there because libwebsockets 4.1.6 cannot answer these requests itself: it drops the
/// connection unanswered when a head overflows its header buffer or its table of header fragments (about
/// 90 known headers and query parameters together), when the target decodes to a NUL, and it answers an
/// absolute-form target with an HTTP/1.0 403 of its own (parsers.c).
enum RequestHead {
    /// The door's verdict.
    enum Verdict: Equatable {
        /// The head has not ended yet and is within the size limit: read more.
        case incomplete
        /// Answer this and close.
        case refuse(HTTPRefusal)
        /// Hand the connection to libwebsockets with these bytes as the first it reads: the head (its target
        /// rewritten to origin-form if it was absolute-form), then, for a WebSocket upgrade only, whatever
        /// followed it.
        case admit(bytes: [UInt8], isWebSocketUpgrade: Bool)
    }

    /// Header lines beyond this get 431. With the request line and ``maxQueryParameters`` this stays below
    /// the 94 fragments libwebsockets 4.1.6 holds (92 `Accept` lines were dropped unanswered, 90 served).
    static let maxHeaderLines = 64
    /// Query parameters (split at `&` and `;`, as libwebsockets does) beyond this get 414.
    static let maxQueryParameters = 24

    /// The verdict on `bytes`, everything read from the connection so far.
    /// - Parameters:
    ///   - maxHeadBytes: the largest head served, request line and final empty line included.
    ///   - subprotocol: the WebSocket subprotocol the server speaks; an upgrade that names others only is refused.
    ///   - isOwnAuthority: whether an absolute-form target's authority (`host[:port]`) names this server.
    static func evaluate(
        _ bytes: [UInt8], maxHeadBytes: Int, subprotocol: String, isOwnAuthority: (String) -> Bool
    ) -> Verdict {
        guard let (headLength, terminatorLength) = headEnd(bytes, searchingFirst: maxHeadBytes + 4) else {
            return bytes.count > maxHeadBytes ? .refuse(.headerFieldsTooLarge) : .incomplete
        }
        let headEnd = headLength + terminatorLength
        guard headEnd <= maxHeadBytes else { return .refuse(.headerFieldsTooLarge) }
        let head = bytes[..<headLength]
        // libwebsockets fails the parse on a NUL anywhere in the head (parsers.c) and drops the connection.
        guard !head.contains(0) else { return .refuse(.badRequest) }
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        let requestLine = lines.removeFirst()
        guard lines.count <= maxHeaderLines else { return .refuse(.headerFieldsTooLarge) }

        var fields: [String: [String]] = [:]
        // Lines libwebsockets would misparse are left out of what it reads (see `isMisparsedByLibwebsockets`).
        var kept: [ArraySlice<UInt8>] = []
        for line in lines {
            // A line starting with whitespace continues the previous one (obs-fold), which RFC 9112 §5.2
            // lets a server refuse; a field name is a token directly followed by ':' (§5.1).
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(isTokenByte)
            else { return .refuse(.badRequest) }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
            fields[name, default: []].append(value)
            if !isMisparsedByLibwebsockets(name) { kept.append(line) }
        }
        // RFC 9112 §3.2: more than one Host is answered with 400 (libwebsockets would join them with ',').
        guard fields["host", default: []].count <= 1 else { return .refuse(.badRequest) }

        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7f })
        else { return .refuse(.badRequest) }
        let version = String(decoding: parts[2], as: UTF8.self)
        switch version {
        case "HTTP/1.1", "HTTP/1.0": break
        case let version where version.utf8.count == 8 && version.hasPrefix("HTTP/"):
            return .refuse(.versionNotSupported)
        default: return .refuse(.badRequest)
        }
        if let answer = methodAnswer(String(decoding: parts[0], as: UTF8.self)) { return .refuse(answer) }
        if let refusal = framingRefusal(fields) { return .refuse(refusal) }

        var target = Array(parts[1])
        var rewritten = false
        if target.first != UInt8(ascii: "/") {
            switch absoluteFormPath(target, isOwnAuthority: isOwnAuthority) {
            case .path(let path):
                target = path
                rewritten = true
            case .refused(let refusal):
                return .refuse(refusal)
            }
        }
        if let refusal = targetRefusal(target) { return .refuse(refusal) }
        // RFC 9112 §3.2: an HTTP/1.1 request without Host is answered with 400 (libwebsockets served it).
        if version == "HTTP/1.1", fields["host"] == nil {
            return .refuse(.badRequest("HTTP/1.1 needs a Host header"))
        }

        let upgrade = Self.list(fields["upgrade"])
        let isWebSocketUpgrade = upgrade.contains("websocket")
        if isWebSocketUpgrade, let refusal = handshakeRefusal(fields, upgrade: upgrade, subprotocol: subprotocol) {
            return .refuse(refusal)
        }

        var admitted: [UInt8]
        if rewritten || kept.count < lines.count || terminatorLength == 3 {
            // Rebuilt with CRLF line ends: libwebsockets reads the head the door has checked, line for line.
            let lineEnd: [UInt8] = [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
            admitted = Array(parts[0]) + [UInt8(ascii: " ")] + target + [UInt8(ascii: " ")] + Array(parts[2])
            admitted += lineEnd
            for line in kept { admitted += line + lineEnd }
            admitted += lineEnd
        } else {
            admitted = Array(bytes[..<headEnd])
        }
        // Only one request is served per connection: what follows a plain request's head (a pipelined
        // request) is never handed on, and the client sends it again after `connection: close`. A WebSocket
        // may already have sent its first frames.
        if isWebSocketUpgrade { admitted += bytes[headEnd...] }
        return .admit(bytes: admitted, isWebSocketUpgrade: isWebSocketUpgrade)
    }

    /// The door's own answer to a method other than GET and HEAD, which are handed on: `OPTIONS` is answered
    /// (lws served the file), the methods RFC 9110 defines get 405 with `Allow` (lws served a file to `PUT`, gave
    /// `CONNECT` no answer and `TRACE` an HTML 403 of its own), and any other method 501.
    private static func methodAnswer(_ method: String) -> HTTPRefusal? {
        switch method {
        case "GET", "HEAD": nil
        case "OPTIONS": .options
        case "POST", "PUT", "DELETE", "PATCH", "CONNECT", "TRACE": .methodNotAllowed(method)
        default: .notImplemented("method \(method.prefix(32))")
        }
    }

    /// Why the head's message framing is refused (RFC 9112 §6.3): `Transfer-Encoding` with `Content-Length`
    /// (a request smuggling vector), a coding other than `chunked`, or `Content-Length` values that are not one
    /// decimal number. The server reads no request body, but it answers no request it could not frame.
    private static func framingRefusal(_ fields: [String: [String]]) -> HTTPRefusal? {
        let lengths = list(fields["content-length"])
        if let codings = fields["transfer-encoding"] {
            guard lengths.isEmpty else { return .badRequest("Transfer-Encoding and Content-Length together") }
            let named = list(codings)
            guard named == ["chunked"] else {
                return .notImplemented("transfer coding \(named.joined(separator: ", ").prefix(64))")
            }
        }
        guard let first = lengths.first else { return nil }
        guard !first.isEmpty, first.utf8.count <= 18, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return .badRequest("Content-Length is not a length")
        }
        guard lengths.allSatisfy({ $0 == first }) else { return .badRequest("Content-Length values differ") }
        return nil
    }

    /// Why a WebSocket upgrade breaks RFC 6455 §4.2.1, if it does: libwebsockets 4.1.6 upgraded a handshake
    /// with another version or a malformed key, closed one without a key, without `Connection: Upgrade` or
    /// naming only unknown subprotocols without a word, and answered `Upgrade: h2c, websocket` with an
    /// HTTP/1.0 403 of its own.
    private static func handshakeRefusal(
        _ fields: [String: [String]], upgrade: [String], subprotocol: String
    ) -> HTTPRefusal? {
        guard upgrade == ["websocket"] else {
            return .badRequest("a WebSocket upgrade names websocket alone in Upgrade")
        }
        guard list(fields["connection"]).contains("upgrade") else {
            return .badRequest("a WebSocket upgrade needs Connection: Upgrade")
        }
        guard let versions = fields["sec-websocket-version"], versions.count == 1,
            versions[0].trimmed == "13"
        else {
            return .upgradeRequired("this server speaks WebSocket version 13 only")
        }
        guard let keys = fields["sec-websocket-key"], keys.count == 1 else {
            return .badRequest("a WebSocket upgrade needs one Sec-WebSocket-Key")
        }
        guard isNonce(String(keys[0].trimmed)) else {
            return .badRequest("Sec-WebSocket-Key is not 16 bytes in base64")
        }
        if let offered = fields["sec-websocket-protocol"] {
            let names = offered.flatMap { $0.split(separator: ",").map(\.trimmed) }
            guard names.contains(where: { $0 == subprotocol }) else {
                return .badRequest("no subprotocol this server speaks was offered (it speaks \(subprotocol))")
            }
        }
        return nil
    }

    /// The comma-separated tokens of a header's lines, trimmed and lowercased.
    private static func list(_ values: [String]?) -> [String] {
        (values ?? []).flatMap { $0.split(separator: ",").map { $0.trimmed.lowercased() } }.filter { !$0.isEmpty }
    }

    /// Whether `key` is 16 bytes in base64: 22 characters of the alphabet, the 22nd one whose low 4 bits
    /// are zero (no bits beyond the 16th byte), then `==`.
    private static func isNonce(_ key: String) -> Bool {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        guard bytes[..<22].allSatisfy(alphabet.contains), let last = alphabet.firstIndex(of: bytes[21]) else {
            return false
        }
        return last & 0x0F == 0
    }

    /// The header names libwebsockets 4.1.6's parser matches, in its own spelling (`lextable-strings.h`):
    /// a header name ends in `:`, a method or version in a space; `patch`, `put`, `delete` and the internal
    /// `uri-args` have neither.
    static let libwebsocketsNames = [
        "get ", "post ", "options ", "host:", "connection:", "upgrade:", "origin:", "sec-websocket-draft:",
        "sec-websocket-extensions:", "sec-websocket-key1:", "sec-websocket-key2:", "sec-websocket-protocol:",
        "sec-websocket-accept:", "sec-websocket-nonce:", "http/1.1 ", "http2-settings:", "accept:",
        "access-control-request-headers:", "if-modified-since:", "if-none-match:", "accept-encoding:",
        "accept-language:", "pragma:", "cache-control:", "authorization:", "cookie:", "content-length:",
        "content-type:", "date:", "range:", "referer:", "sec-websocket-key:", "sec-websocket-version:",
        "sec-websocket-origin:", "accept-charset:", "accept-ranges:", "access-control-allow-origin:", "age:",
        "allow:", "content-disposition:", "content-encoding:", "content-language:", "content-location:",
        "content-range:", "etag:", "expect:", "expires:", "from:", "if-match:", "if-range:",
        "if-unmodified-since:", "last-modified:", "link:", "location:", "max-forwards:", "proxy-authenticate:",
        "proxy-authorization:", "refresh:", "retry-after:", "server:", "set-cookie:", "strict-transport-security:",
        "transfer-encoding:", "user-agent:", "vary:", "via:", "www-authenticate:", "patch", "put", "delete",
        "uri-args", "proxy ", "x-real-ip:", "http/1.0 ", "x-forwarded-for:", "connect ", "head ", "te:",
        "replay-nonce:", "x-auth-token:",
    ]

    // libwebsockets walks a header name through a trie of the names above. A name that ends (at its ':')
    // inside the trie, short of a name's end, is taken neither as known nor as unknown: the ':' and what
    // follows become part of the name, up to the next ':' (it swallowed the next line, `Host` included) or
    // forever (the empty line too, so the head never ended: `Con: 1` waited 10 s and closed unanswered). A
    // name that runs through `put`, `patch`, `delete` or `uri-args` is matched there, mid-name, as that
    // method or the query. The server reads no header libwebsockets does not know, so such lines are left out.
    private static let (misparsedNames, bareNames): (Set<String>, [String]) = {
        var prefixes = Set<String>()
        var bare: [String] = []
        for entry in libwebsocketsNames {
            var stem = entry
            let terminated = stem.hasSuffix(":") || stem.hasSuffix(" ")
            if terminated { stem.removeLast() } else { bare.append(stem) }
            for length in 1..<stem.count { prefixes.insert(String(stem.prefix(length))) }
            // `get` followed by ':' fails on the ' ' the trie expects, like a proper prefix.
            if entry.hasSuffix(" ") { prefixes.insert(stem) }
        }
        let known = Set(libwebsocketsNames.filter { $0.hasSuffix(":") }.map { String($0.dropLast()) })
        return (prefixes.subtracting(known), bare)
    }()

    /// Whether libwebsockets 4.1.6 misparses a header line with this (lowercased) name.
    static func isMisparsedByLibwebsockets(_ name: String) -> Bool {
        misparsedNames.contains(name) || bareNames.contains { name.hasPrefix($0) }
    }

    /// The length of the head before its final empty line and the length of that terminator (`CRLF CRLF`;
    /// from a lax client `LF LF`, which libwebsockets also accepts, or `LF CRLF`), looking at the first
    /// `limit` bytes.
    static func headEnd(_ bytes: [UInt8], searchingFirst limit: Int) -> (Int, Int)? {
        let end = min(bytes.count, limit)
        var index = 0
        while index + 1 < end {
            if bytes[index] == UInt8(ascii: "\n") {
                if bytes[index + 1] == UInt8(ascii: "\n") { return (index, 2) }
                if index + 2 < end, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == UInt8(ascii: "\n") {
                    let afterCR = index >= 1 && bytes[index - 1] == UInt8(ascii: "\r")
                    return afterCR ? (index - 1, 4) : (index, 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// The origin-form path of an absolute-form target (`http://host:port/path?query`), or why it is refused:
    /// 403 when it names another server (a proxy request), 400 when it is not a URL at all.
    private enum AbsoluteForm {
        case path([UInt8])
        case refused(HTTPRefusal)
    }

    private static func absoluteFormPath(_ target: [UInt8], isOwnAuthority: (String) -> Bool) -> AbsoluteForm {
        let text = String(decoding: target, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            return .refused(.badRequest)
        }
        guard text[..<colon].lowercased() == "http" else { return .refused(.forbidden) }
        let rest = text[text.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        guard !authority.isEmpty, !authority.contains("@") else { return .refused(.badRequest) }
        guard isOwnAuthority(authority) else { return .refused(.forbidden) }
        var path = String(rest[authorityEnd...])
        if !path.hasPrefix("/") { path = "/" + path }
        return .path(Array(path.utf8))
    }

    /// Why an origin-form target is refused, if it is: a NUL (`%00`, which libwebsockets answers by dropping
    /// the connection), a `%` not followed by two hex digits, or too many query parameters.
    private static func targetRefusal(_ target: [UInt8]) -> HTTPRefusal? {
        var index = 0
        while index < target.count {
            if target[index] == UInt8(ascii: "%") {
                guard index + 2 < target.count, let high = hexValue(target[index + 1]),
                    let low = hexValue(target[index + 2])
                else { return .badRequest }
                if high == 0, low == 0 { return .badRequest }
                index += 3
            } else {
                index += 1
            }
        }
        if let query = target.firstIndex(of: UInt8(ascii: "?")) {
            let separators = target[query...].count(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") })
            if separators + 1 > maxQueryParameters { return .uriTooLong }
        }
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // RFC 9110 §5.6.2 tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension StringProtocol where SubSequence == Substring {
    fileprivate var trimmed: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}
