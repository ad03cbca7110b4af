import CLibWebSockets

/// What handles the callbacks of one lws context (the server, or a client context).
package protocol LWSCallbackHandler: AnyObject {
    /// One lws callback, on the service thread; returns what lws expects of it.
    func handle(
        _ wsi: OpaquePointer,
        _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?,
        _ length: Int
    ) -> Int32
}

/// The way back from lws to Swift: lws calls back with no closure context, so the context's user pointer
/// (`info.user`, read with `lws_context_user`) is this route, and ``lwsRoutedCallback`` (set as every
/// protocol's callback) hands each callback to its handler.
///
/// The route must outlive the context; it holds its handler unowned, so the handler (which owns the route
/// and the context) must too.
package final class LWSCallbackRoute {
    unowned(unsafe) let handler: any LWSCallbackHandler

    package init(_ handler: any LWSCallbackHandler) {
        self.handler = handler
    }

    /// The pointer for `lws_context_creation_info.user`; valid as long as this route.
    package var contextUser: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// The `lws_protocols.callback` of every context with an ``LWSCallbackRoute``.
package func lwsRoutedCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    return Unmanaged<LWSCallbackRoute>.fromOpaque(owner).takeUnretainedValue().handler.handle(
        wsi, reason, user, input, length)
}
