/// What happens on a session's connection, as both the live server and a replay see it: the decoded
/// message (or why it was refused) and connection changes. Keeping the mapping here means a replay
/// makes exactly the decisions the server made.
public enum SessionInput: Equatable, Sendable {
    /// A text message, decoded or refused.
    case message(Result<ClientMessage, ProtocolError>)
    /// The transport refused a frame before decoding it.
    case violation(InboundViolationKind)
    /// The page's connection ended.
    case closed(code: Int?, resumable: Bool)
}

/// Why the transport refused a frame.
public enum InboundViolationKind: String, Equatable, Sendable, CaseIterable {
    /// The message exceeded the size limit.
    case tooLarge
    /// A binary frame (the protocol is text only).
    case binary
    /// Geometry arrived faster than the session applies it: held geometry was replaced by newer geometry
    /// before it was applied (the server reports this at most once a second).
    case rateLimited
    /// The connection sent more refused messages in a second than the server answers; it is closed with 1008.
    case tooManyRefusals
}

extension SessionState {
    /// Handles one input of an open session: the reducer's effects plus the server-level events
    /// (`protocolError`, `sessionClosed`) and error replies. `ping` needs no session and is answered by the caller.
    public mutating func handle(_ input: SessionInput, now: Int64, maxMessageBytes: Int) -> [SessionEffect] {
        switch input {
        case .message(.failure(let error)):
            return Self.refusal(error)
        case .message(.success(let message)):
            switch message {
            case .hello(let hello) where hello.resume != nil && lifecycle == .open:
                if hello.resume == Hello.forkTakeover, let fork = forkedFrom {
                    return reduce(.forkTakenOver(fork), now: now)
                }
                return reduce(.resumed(lastRev: hello.lastRev), now: now)
            case .hello(let hello): return reduce(.helloReceived(hello), now: now)
            case .geometry(let report): return reduce(.geometryReceived(report), now: now)
            case .config(let fields): return reduce(.configReceived(fields), now: now)
            case .refresh: return reduce(.refreshRequested, now: now)
            case .loadMore: return reduce(.loadMoreRequested, now: now)
            case .loadPrevious: return reduce(.loadPreviousRequested, now: now)
            case .reset: return reduce(.resetRequested, now: now)
            case .jump(let request): return reduce(.jumpRequested(request), now: now)
            case .ping(let id): return [.send(.pong(id: id))]
            }
        case .violation(.tooLarge):
            return Self.refusal(ProtocolError(.tooLarge, "messages are limited to \(maxMessageBytes) bytes"))
        case .violation(.binary):
            return [
                .log(LogEntry(.protocolError, ["code": "binary_frame", "message": "binary frames are not supported"]))
            ]
        case .violation(.rateLimited):
            return Self.refusal(
                ProtocolError(
                    .rateLimited,
                    "geometry is arriving faster than the server applies it: older frames were skipped, the newest applied"
                ))
        case .violation(.tooManyRefusals):
            return Self.refusal(
                ProtocolError(
                    .tooManyErrors, "too many refused messages in one second: the connection closes (1008)"))
        case .closed(let code, let resumable):
            return [
                .log(LogEntry(.sessionClosed, ["code": code.map { .int($0) } ?? .null, "resumable": .bool(resumable)]))
            ]
        }
    }

    /// The `error` reply and `protocolError` event for a refused message.
    public static func refusal(_ error: ProtocolError) -> [SessionEffect] {
        var data: [String: JSONValue] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        if let ref = error.ref { data["ref"] = .int(ref) }
        if let field = error.field { data["field"] = .string(field) }
        return [.send(.error(error)), .log(LogEntry(.protocolError, data))]
    }
}
