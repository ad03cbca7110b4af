import CLibWebSockets
import SystemCalls

/// Work for a service thread from other threads: queued under a mutex, then announced with
/// `lws_cancel_service`, which lws turns into `LWS_CALLBACK_EVENT_WAIT_CANCELLED` on the service thread,
/// where ``take()`` empties the queue. The server's `execute`/`stop` and the client's commands both go
/// through one.
///
/// Only `lws_cancel_service` is safe off the service thread, and only while the context exists: the
/// inbox calls it under its mutex, between ``open(_:)`` and ``close()``.
package final class LWSInbox<Work: Sendable>: Sendable {
    private struct State {
        var work: [Work] = []
        var stopRequested = false
        // Non-nil while lws_cancel_service may be called on it.
        var context: CancellableContext?
    }

    private let state = Locked(State())

    package init() {}

    /// Starts accepting work, waking `context` for it; call once the context exists.
    package func open(_ context: OpaquePointer) {
        state.withLock { $0.context = CancellableContext(pointer: context) }
    }

    /// Stops waking the context, which is about to go; from here ``submit(_:)`` refuses work. What was
    /// queued before stays for ``take()``.
    package func close() {
        state.withLock { $0.context = nil }
    }

    /// Queues `work` and wakes the service thread; false (nothing queued) once closed.
    package func submit(_ work: Work) -> Bool {
        state.withLock { state in
            guard let context = state.context else { return false }
            // One wake-up per batch: a non-empty inbox already has a cancel pending that will take this too.
            let wake = state.work.isEmpty
            state.work.append(work)
            if wake { lws_cancel_service(context.pointer) }
            return true
        }
    }

    /// Marks the loop to stop and wakes it (if the context is still there).
    package func requestStop() {
        state.withLock { state in
            state.stopRequested = true
            if let context = state.context { lws_cancel_service(context.pointer) }
        }
    }

    /// Everything queued, oldest first, and whether a stop was asked for. Several cancels can collapse into
    /// one callback: take it all each time.
    package func take() -> (work: [Work], stopRequested: Bool) {
        state.withLock { state in
            defer { state.work.removeAll() }
            return (state.work, state.stopRequested)
        }
    }
}

/// An lws context pointer handed to other threads for `lws_cancel_service` only, the one lws
/// call that is safe off the service thread (and only while the context exists, which the
/// inbox's mutex guarantees).
struct CancellableContext: @unchecked Sendable {
    let pointer: OpaquePointer
}
