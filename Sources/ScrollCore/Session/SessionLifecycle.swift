/// Where a session stands: made for a page that has not said `hello` yet, or open.
public enum SessionLifecycle: Equatable, Sendable {
    /// Made for a connection (or a fork's rebuild) whose `hello` has not been accepted: only `hello` is
    /// answered; geometry, settings and requests change nothing.
    case awaitingHello
    /// `hello` was accepted: the session has its settings and items and answers every message.
    case open
}
