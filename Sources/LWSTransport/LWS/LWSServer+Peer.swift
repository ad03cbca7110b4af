import CLibWebSockets
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

extension LWSServer {
    /// The IP address (no port) of the client on connection `id`, e.g. `127.0.0.1` or `::1`; nil for an
    /// unknown connection or a socket that cannot say.
    func peerAddress(of id: ConnectionID) -> String? {
        preconditionOnServiceThread()
        guard let connection = connections[id.rawValue] else { return nil }
        // lws_get_socket_fd: the descriptor stays lws's; it is only read here.
        guard case .success(var address) = Syscall.peerAddress(lws_get_socket_fd(connection.wsi)) else { return nil }
        return withUnsafePointer(to: &address) { storage in
            switch Int32(storage.pointee.ss_family) {
            case AF_INET:
                storage.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Syscall.addressText($0.pointee.sin_addr, family: AF_INET)
                }
            case AF_INET6:
                storage.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Syscall.addressText($0.pointee.sin6_addr, family: AF_INET6)
                }
            default:
                nil
            }
        }
    }
}
