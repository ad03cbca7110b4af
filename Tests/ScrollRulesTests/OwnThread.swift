import Foundation

/// Runs `work` on a thread of its own and waits for it without holding a thread: a long synchronous test
/// (thousands of scenarios, a compiler run) would otherwise hold one of Swift Testing's few cooperative
/// threads and starve the other suites' asynchronous tests. `#expect` stays with the caller.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
