import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `work` on a thread of its own and waits for it without holding a thread: a long synchronous test
/// (thousands of scenarios, a compiler run) would otherwise hold one of Swift Testing's few cooperative
/// threads and starve the other suites' asynchronous tests. `#expect` stays with the caller.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            #if canImport(Glibc)
                // Niced, as the subprocesses are: the other suites' timed tests keep their share of two cores.
                // (On Linux the nice value is per thread, and `who` 0 is the calling thread.)
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
            continuation.resume(with: Result { try work() })
        }.start()
    }
}

/// `arguments` run through `nice`: a compile inside a test takes what the other tests leave.
public func niced(_ arguments: [String]) -> [String] { ["nice", "-n", "10"] + arguments }
