import Dispatch

/// `make(0) … make(count − 1)` computed on `threads` threads at once, in index order.
///
/// No lock: each worker initializes only its own slots (every `workers`th index), and `concurrentPerform`
/// returns once all of them are done. ThreadSanitizer sees that join (it intercepts libdispatch); it cannot
/// see `Synchronization.Mutex` on Linux, whose futex lives in an uninstrumented library, and reported the
/// shared result array under one as a race.
func concurrentMap<Value: Sendable>(count: Int, threads: Int, _ make: @Sendable (Int) -> Value) -> [Value] {
    let workers = max(1, min(threads, count))
    return [Value](unsafeUninitializedCapacity: count) { buffer, initialized in
        // Disjoint slots per worker (see above), so sharing the buffer's address is safe.
        nonisolated(unsafe) let slots = buffer
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            // The jobs are alike, so taking every `workers`th one splits them evenly.
            for index in stride(from: worker, to: count, by: workers) {
                (slots.baseAddress! + index).initialize(to: make(index))
            }
        }
        initialized = count
    }
}
