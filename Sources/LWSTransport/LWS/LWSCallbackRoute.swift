import CLibWebSockets

/// What handles the callbacks of one lws context (the server, or a client context).
package protocol LWSCallbackHandler: AnyObject {
    /// `lws_cancel_service` woke the service thread: take all that other threads submitted (several cancels
    /// can collapse into one callback).
    func drainInbox()

    /// One lws callback, on the service thread; returns what lws expects of it.
    func handle(
        _ wsi: OpaquePointer,
        _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?,
        _ length: Int
    ) -> Int32
}

/// The way back from lws to Swift, the one callback entry of every context (the server's and the clients'):
/// lws calls back with no closure context, so the context's user pointer (`info.user`, read with
/// `lws_context_user`) is this route, and the entry (set as the protocol's callback by ``protocols(named:
/// sessionBytes:in:)``) hands each callback to its handler.
///
/// The route must outlive the context; it holds its handler unowned, so the handler (which owns the route
/// and the context) must too.
package final class LWSCallbackRoute {
    unowned(unsafe) let handler: any LWSCallbackHandler

    package init(_ handler: any LWSCallbackHandler) {
        self.handler = handler
    }

    /// Makes this route the one `info` calls back through (`info.user`, which lws hands back in every
    /// callback as `lws_context_user`).
    package func route(_ info: inout lws_context_creation_info) {
        info.user = Unmanaged.passUnretained(self).toOpaque()
    }

    /// A protocol table of one protocol, `name`, whose callbacks come to this route's handler, with
    /// `sessionBytes` of lws-owned memory per connection; allocated in `memory`, as lws keeps the table and
    /// the name by pointer for the context's life.
    package func protocols(
        named name: UnsafeMutablePointer<CChar>, sessionBytes: Int = 0, in memory: LWSMemory
    ) -> UnsafeMutablePointer<lws_protocols> {
        let protocols = memory.zeroed(lws_protocols.self, count: 2)  // and the zeroed terminator
        protocols[0].name = UnsafePointer(name)
        protocols[0].callback = lwsRoutedCallback
        protocols[0].per_session_data_size = sessionBytes
        return protocols
    }
}

/// The `lws_protocols.callback` of every context with an ``LWSCallbackRoute``.
private func lwsRoutedCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let handler = Unmanaged<LWSCallbackRoute>.fromOpaque(owner).takeUnretainedValue().handler
    if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED {
        // Raised on a fake wsi, once for every protocol: never write to it.
        handler.drainInbox()
        return 0
    }
    return handler.handle(wsi, reason, user, input, length)
}
