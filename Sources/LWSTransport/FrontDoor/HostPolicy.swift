/// Decides whether a request's `Host` header names this server: the defence against DNS rebinding.
///
/// A page on an attacker's domain that is made to resolve to 127.0.0.1 reaches a loopback server with
/// that domain as its `Host`, and as its `Origin` too, which would then pass for the server's own. While
/// the server listens on a loopback address only, it therefore accepts only loopback names (`localhost`,
/// `127.x.x.x`, `[::1]`, with any port) or a request without `Host` (a non-browser client). Listening on
/// any other address, every `Host` is accepted: the machine's names are not known, and `--host` already
/// exposes the server on purpose.
struct HostPolicy: Sendable {
    /// Whether the server listens on a loopback address only.
    let loopbackOnly: Bool

    /// `listenHost` is the configured address (``WebServerConfiguration/host``).
    init(listenHost: String) {
        loopbackOnly = Self.isLoopback(listenHost.lowercased())
    }

    /// True when the raw `Host` header value (nil when absent) may be served.
    func accepts(_ host: String?) -> Bool {
        guard loopbackOnly, let host else { return true }
        return Self.isLoopback(Self.name(of: host.lowercased()))
    }

    /// The host name of a `Host` value, without the port and without the brackets of an IPv6 address.
    static func name(of host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<close])
        }
        if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon {
            return String(host[..<colon])
        }
        return host
    }

    static func isLoopback(_ name: String) -> Bool {
        if name == "localhost" || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
