import LWSTransport
import ScrollCore

extension SessionHost {
    /// What the host knows of an open WebSocket.
    struct Link {
        /// The session it said hello for; nil until then. Kept as the hosted session itself, so a message
        /// finds its session with one lookup: a link holds a session only while the session is in `sessions`
        /// with this connection (`forget` drops only sessions without one).
        var hosted: Hosted?
        /// The id of the session it said hello for; nil until then.
        var session: SessionID? { hosted?.id }
        /// Closes the connection if hello does not come in time.
        var helloTimer: TimerHandle?
        var refusals = RefusalWindow()
        var jumps = RefusalWindow()
        /// The `hello` of a fork being rebuilt (SessionHost+Fork); its page waits for the `welcome`.
        var forking: Hello? {
            get { forkingHello?.hello }
            set { forkingHello = newValue.map(ForkingHello.init) }
        }
        /// `forking`, boxed: every message copies its link out of `links`, and a `Hello` is most of a link.
        private var forkingHello: ForkingHello?
    }

    /// A fork's `hello`, shared by the copies of its link (never changed: a new one replaces it).
    final class ForkingHello {
        let hello: Hello

        init(_ hello: Hello) {
            self.hello = hello
        }
    }
}
