#if canImport(Glibc)
    import Glibc
#endif

/// Numeric addresses as text and back, bytes compared, what the system says about itself and about a file.
extension Syscall {
    /// Parses `text`, a numeric address of `family` (`AF_INET`, `AF_INET6`), into `address` (an `in_addr`,
    /// `in6_addr`); false if it is not one. The corresponding C function is inet_pton(3).
    package static func parseAddress<Address>(_ text: String, family: Int32, into address: inout Address) -> Bool {
        inet_pton(family, text, &address) == 1
    }

    /// The numeric text of `address` (an `in_addr`, `in6_addr`) of `family`, nil if it cannot be written.
    /// The corresponding C function is inet_ntop(3).
    package static func addressText<Address>(_ address: Address, family: Int32) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let converted = withUnsafePointer(to: address) { inet_ntop(family, $0, &text, socklen_t(text.count)) }
        return converted == nil ? nil : String(cString: text)
    }

    /// Whether the `count` bytes at `bytes` are those of `expected` (memcmp(3)).
    @inlinable
    package static func bytesEqual(_ bytes: UnsafeRawPointer, _ expected: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(bytes, expected, count) == 0
    }

    /// The CPUs online now (`sysconf(_SC_NPROCESSORS_ONLN)`).
    package static var processorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The clock ticks a second that `/proc` counts CPU time in (`sysconf(_SC_CLK_TCK)`).
    package static var clockTicksPerSecond: Int { Int(sysconf(Int32(_SC_CLK_TCK))) }

    /// Whether this process may run the file at `path` (`access(X_OK)`).
    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// Whether this process may read the file at `path` (`access(R_OK)`).
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }
}
