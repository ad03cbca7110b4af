#if canImport(Glibc)
    import Glibc
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`), which bounds how many connections the server can hold.
public enum FileDescriptorLimit {
    /// The soft and hard limits now (`Int.max` for unlimited).
    public static var current: (soft: Int, hard: Int) {
        var limit = rlimit()
        // The corresponding C function is getrlimit(2).
        guard getrlimit(noFile, &limit) == 0 else { return (1024, 1024) }
        return (clampedInt(limit.rlim_cur), clampedInt(limit.rlim_max))
    }

    /// Raises the soft limit to the hard limit (a process may always do this) and returns the new soft
    /// limit; the soft limit unchanged if it cannot be raised. An unlimited hard limit raises the soft
    /// limit to `nr_open`'s usual ceiling of 1,048,576 instead, which `setrlimit` accepts.
    @discardableResult
    public static func raiseSoftLimitToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(noFile, &limit) == 0 else { return current.soft }
        let target = limit.rlim_max == unlimited ? rlim_t(1 << 20) : limit.rlim_max
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            // The corresponding C function is setrlimit(2); raising the soft limit up to the hard one needs no privilege.
            _ = setrlimit(noFile, &raised)
        }
        return current.soft
    }

    private static func clampedInt(_ value: rlim_t) -> Int {
        value == unlimited || value > rlim_t(Int.max) ? Int.max : Int(value)
    }

    private static let noFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    // RLIM_INFINITY (all bits set) does not import as an unsigned constant.
    private static let unlimited = rlim_t.max
}
