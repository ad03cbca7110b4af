import CLibWebSockets
import SystemCalls

/// The epoll loop one lws context runs on: a libev loop owned here and handed to lws as a foreign loop
/// (`info.foreign_loops` with `LWS_SERVER_OPTION_LIBEV`). lws then keeps an `ev_io` watcher per socket and
/// services only the sockets epoll reports ready, where its default loop `poll()`s every connection on
/// every wake. The corresponding C functions are `ev_loop_new`, `ev_run` and `ev_loop_destroy`.
///
/// Why libev rather than libuv (both are epoll here, and Debian's libwebsockets-dev brings both plugins,
/// `libwebsockets-evlib_ev.so` and `_uv.so`, with their libraries):
/// - Debian builds lws 4.1.6 with `_DEBUG`, and under libuv its service code then calls
///   `lws_close_free_wsi` a second time right after every close it starts ("close_and_handled uv repeat
///   test", service.c). For a WebSocket that is still to send its close frame, that second call kills the
///   socket at once: checked here, every close code (1001 on shutdown, 1008, 1009, …) was lost under uv.
/// - lws closes a connection synchronously on libev, as on its own poll loop (under uv the wsi is freed in
///   a later close callback), so CLOSED and WSI_DESTROY keep the order the server relies on.
/// - `ev_run(EVRUN_ONCE)` is one `lws_service` pass, so the service loops keep their shape (check a flag,
///   serve one pass, repeat).
///
/// Why a foreign loop rather than lws's internal one: on its own loop lws adds a SIGINT watcher (a libev
/// signal handler), which would take SIGINT from the server's Dispatch source and from a test process
/// hosting a client; on a foreign loop it adds none. The loop is made with `EVFLAG_NOSIGMASK` and
/// `EVFLAG_NOENV`, so libev neither touches the signal mask nor reads `LIBEV_FLAGS`.
///
/// Timers. lws 4.1.6 keeps its timers (`lws_sul_*`: HTTP and close timeouts, pings, `LWS_TO_KILL_ASYNC`)
/// in a list it runs from a libev idle watcher after every socket event, and from one libev timer armed for
/// the earliest of them. It re-arms that timer with `ev_timer_set` + `ev_timer_start` (libev.c), which do
/// nothing while the timer is running: once it is armed for a far deadline (a 30 s ping), a nearer one (a
/// 5 s HTTP timeout, a 200 ms `lws_sul_schedule`) waits for it or for the next socket event. So:
/// - the transport's own timers are libev timers (``startTimer(_:afterMilliseconds:callback:)``), exact and
///   independent of lws's list;
/// - a heartbeat (``startHeartbeat(_:)``) wakes lws every ``heartbeatMilliseconds`` (`lws_cancel_service`),
///   which runs its idle watcher and with it every lws timer that is due: lws's own timeouts, whose
///   resolution is about a second anyway, are late by at most that;
/// - ``wake(_:)`` runs them at once, after an lws call that schedules one for now outside an lws callback.
///
/// That idle watcher is also why the pass after one that read a message polls with a zero timeout (libev
/// does not block while an idle watcher is active) and usually finds nothing: lws starts it after every
/// socket event and keeps it in private state no public call reaches, so this loop cannot run its work
/// itself and skip the empty poll (BENCHMARKS.md, issue 32's third round).
///
/// ``destroy(_:)`` is the only way to destroy a context on this loop. Everything here runs on the thread
/// that runs the loop, except ``wake(_:)``.
package final class LWSEventLoop {
    private let loop: OpaquePointer
    // lws reads the loop pointer from this array while it creates the context.
    private let foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    // `info.pcontext`: lws writes NULL here once it has freed the context.
    private let contextSlot: UnsafeMutablePointer<OpaquePointer?>
    // Its owner is the context it wakes.
    private let heartbeat: UnsafeMutablePointer<shim_ev_timer>

    /// How often the heartbeat runs lws's due timers when no socket event does.
    static let heartbeatMilliseconds = 250

    /// A new, empty epoll loop.
    /// - Throws: ``WebServerError/contextCreationFailed`` if libev cannot create one (no epoll descriptor).
    package init() throws {
        guard let loop = ev_loop_new(UInt32(EVBACKEND_EPOLL) | UInt32(EVFLAG_NOSIGMASK) | UInt32(EVFLAG_NOENV))
        else {
            LWSLog.report("cannot create a libev epoll loop: \(Errno.current.message)")
            throw WebServerError.contextCreationFailed
        }
        self.loop = loop
        foreignLoops = .allocate(capacity: 2)
        foreignLoops.initialize(repeating: nil, count: 2)
        foreignLoops[0] = UnsafeMutableRawPointer(loop)
        contextSlot = .allocate(capacity: 1)
        contextSlot.initialize(to: nil)
        heartbeat = .allocate(capacity: 1)
        heartbeat.initialize(to: shim_ev_timer())
    }

    deinit {
        // Every lws watcher is stopped by now (destroy(_:)), or no context was ever made.
        shim_ev_timer_stop(loop, heartbeat)
        ev_loop_destroy(loop)
        foreignLoops.deallocate()
        contextSlot.deallocate()
        heartbeat.deallocate()
    }

    /// Makes the context created with `info` run on this loop. lws loads its libev plugin
    /// (`libwebsockets-evlib_ev.so` from its library directory) in `lws_create_context`, which returns nil
    /// if the plugin is missing.
    package func configure(_ info: inout lws_context_creation_info) {
        info.options |= UInt64(LWS_SERVER_OPTION_LIBEV)
        info.foreign_loops = foreignLoops
        info.pcontext = contextSlot
    }

    /// Waits for at least one event and handles everything ready (lws's callbacks and timers run inside):
    /// one pass, like `lws_service(context, 0)` on lws's own loop.
    package func runOnce() {
        _ = ev_run(loop, Int32(EVRUN_ONCE))
    }

    /// Wakes the loop: lws raises `LWS_CALLBACK_EVENT_WAIT_CANCELLED` and then runs its timers that are
    /// due. Safe from any thread while the context exists (the corresponding C function is
    /// `lws_cancel_service`).
    static func wake(_ context: OpaquePointer) {
        lws_cancel_service(context)
    }

    /// Starts waking `context` every ``heartbeatMilliseconds`` until ``destroy(_:)``.
    package func startHeartbeat(_ context: OpaquePointer) {
        heartbeat.pointee.owner = UnsafeMutableRawPointer(context)
        let seconds = Double(Self.heartbeatMilliseconds) / 1000
        shim_ev_timer_start(loop, heartbeat, seconds, seconds) { _, watcher, _ in
            guard let watcher, let owner = shim_ev_timer_from_watcher(watcher).pointee.owner else { return }
            LWSEventLoop.wake(OpaquePointer(owner))
        }
    }

    /// Starts `timer`, which must stay at its address until it has fired or ``stopTimer(_:)``; `callback`
    /// runs on this loop's thread, outside any lws callback, after libev has stopped the timer.
    func startTimer(
        _ timer: UnsafeMutablePointer<shim_ev_timer>, afterMilliseconds milliseconds: Int,
        callback: shim_ev_timer_callback
    ) {
        shim_ev_timer_start(loop, timer, Double(max(0, milliseconds)) / 1000, 0, callback)
    }

    /// Stops `timer` if it has not fired; after this it may be freed.
    func stopTimer(_ timer: UnsafeMutablePointer<shim_ev_timer>) {
        shim_ev_timer_stop(loop, timer)
    }

    /// Destroys `context`, made with ``configure(_:)``, which is never used again: every connection still
    /// open is closed (their CLOSED callbacks run inside, on this thread), then the context is freed. On a
    /// foreign loop lws 4.1.6 may stop after closing and want a second call once the loop has run
    /// (context.c); `pcontext` says whether it freed the context.
    package func destroy(_ context: OpaquePointer) {
        shim_ev_timer_stop(loop, heartbeat)
        contextSlot.pointee = context
        lws_context_destroy(context)
        var passes = 0
        while contextSlot.pointee != nil, passes < 100 {
            _ = ev_run(loop, Int32(EVRUN_NOWAIT))
            lws_context_destroy(context)
            passes += 1
        }
        if contextSlot.pointee != nil { LWSLog.report("lws_context_destroy did not finish on the event loop") }
    }
}
