import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The server's listening socket, and a thread of its own that accepts connections and reads each one's
/// request head before libwebsockets sees it.
///
/// libwebsockets 4.1.6 parses a request head itself and, for heads it cannot take (over its header buffer or
/// its fragment table, a `%00` in the query), drops the connection without a word and without a callback;
/// it answers an absolute-form target with an HTTP/1.0 403 of its own. Reading the head here first lets the
/// server answer each of those (``RequestHead``) and hand only heads libwebsockets can parse on to it, with
/// the bytes already read (``LWSServer`` adopts them). Only POSIX calls here, through ``Syscall``: every
/// `lws_*` call stays in the `LWS*` files.
///
/// The door holds few connections and only briefly: a connection whose head has not ended after the head
/// timeout is closed (with 408 if it sent part of one). It reads at most ``Limits/maxWaiting`` heads at once;
/// the connections it accepts meanwhile are set aside (not read) and taken in fewest-heads-per-address first,
/// so one address's flood of idle or half-sent connections cannot keep another's request waiting: a newcomer
/// from another address takes the place of the flood's oldest head at once when the flood holds more than half
/// of them, and otherwise a head that has waited ``FrontDoor/evictionAge`` makes room. At the connection cap
/// the address holding the most gives up its oldest set-aside connection first. It counts what it handed to libwebsockets until libwebsockets closes it (``released()``), and at
/// ``Limits/maxConnections`` answers 503 itself; when `accept` runs out of descriptors anyway it stops
/// accepting for a while (doubling up to a second) and says so at most once every 10 s.
final class FrontDoor: @unchecked Sendable {
    // @unchecked: `port`, `limits`, the descriptors and `isOwnAuthority` are set in init and only read after;
    // `thread` and `closed` are touched only by the thread that owns the server (start/stop/deinit); the
    // door thread keeps its own state in a `Doorkeeper`; what both threads touch is in `shared`.

    /// The door's limits.
    struct Limits: Sendable {
        /// The largest request head served (request line and final empty line included); larger gets 431.
        var maxHeadBytes: Int
        /// How long a connection may take to send its whole request head.
        var headTimeout: Duration
        /// Connections whose head is being read; a new one beyond makes the oldest close.
        var maxWaiting: Int
        /// Connections held in all (the door's and libwebsockets'); a new one beyond gets 503.
        var maxConnections: Int
    }

    /// A connection whose head passed, with the bytes libwebsockets must read first.
    struct Handoff: Sendable {
        /// The accepted socket, non-blocking; its owner is whoever takes the handoff.
        let fd: Int32
        /// What the door read (the head, possibly rewritten), for libwebsockets to read before the socket.
        let bytes: [UInt8]
    }

    private struct Shared {
        var stopping = false
        var handoffs: [Handoff] = []
        /// Connections handed on and not yet released (libwebsockets holds them, or will adopt them).
        var handedOn = 0
    }

    /// The bound port (the kernel's choice when 0 was asked for).
    let port: Int
    let limits: Limits
    /// The WebSocket subprotocol the server speaks (an upgrade offering only others is refused).
    let subprotocol: String
    private let listenFD: Int32
    // A pipe that wakes the door's poll() for stop().
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let isOwnAuthority: @Sendable (String) -> Bool
    private let shared = Locked(Shared())
    private var thread: ServiceThread?
    private var closed = false

    /// A refusal is written, the write side shut, and the client's last bytes read for at most this long
    /// before the close: closing with unread input would send a reset that can destroy the answer.
    static let lingerTime = Duration.seconds(2)
    /// When ``Limits/maxWaiting`` heads are being read, a new connection closes the oldest of them once that
    /// one has waited this long.
    static let evictionAge = Duration.milliseconds(250)

    /// Binds `host:port` (SO_REUSEADDR) and listens, non-blocking; nothing is accepted before ``start(onHandoff:)``.
    /// - Throws: ``WebServerError/cannotListen(host:port:)``, after reporting the system's reason through ``LWSLog``.
    init(host: String, port: Int, limits: Limits, subprotocol: String, hostPolicy: HostPolicy) throws {
        let (fd, bound) = try Self.listen(host: host, port: port)
        let wake: (read: Int32, write: Int32)
        switch Syscall.pipe() {
        case .success(let ends): wake = ends
        case .failure(let error):
            Syscall.close(fd)
            LWSLog.report("cannot create the front door's wake-up pipe: \(error)")
            throw WebServerError.cannotListen(host: host, port: port)
        }
        Syscall.makeNonBlocking(wake.read)
        Syscall.makeNonBlocking(wake.write)
        listenFD = fd
        wakeFD = wake.read
        wakeWriteFD = wake.write
        self.port = bound
        self.limits = limits
        self.subprotocol = subprotocol
        // An absolute-form target names this server when its host passes the Host check and its port is ours.
        isOwnAuthority = { authority in
            let name = HostPolicy.name(of: authority.lowercased())
            var port: Int? = 80
            if !authority.hasSuffix("]"), let colon = authority.lastIndex(of: ":") {
                port = Int(authority[authority.index(after: colon)...])
            }
            return hostPolicy.accepts(authority) && !name.isEmpty && port == bound
        }
    }

    deinit {
        stop()
    }

    /// Starts the door's thread; `onHandoff` is called on it after connections were queued for ``takeHandoffs()``.
    func start(onHandoff: @escaping @Sendable () -> Void) {
        precondition(thread == nil && !closed, "FrontDoor.start may be called once")
        let keeper = Doorkeeper(door: self, onHandoff: onHandoff)
        thread = ServiceThread { keeper.run() }
    }

    /// Stops the thread (waiting for it), closes the listening socket, every connection the door holds and
    /// every handoff not taken. Idempotent.
    func stop() {
        guard !closed else { return }
        closed = true
        shared.withLock { $0.stopping = true }
        _ = withUnsafeBytes(of: UInt8(1)) { Syscall.write(wakeWriteFD, $0) }
        thread?.join()
        Syscall.close(listenFD)
        Syscall.close(wakeFD)
        Syscall.close(wakeWriteFD)
        let left = shared.withLock { shared in
            defer { shared.handoffs.removeAll() }
            return shared.handoffs
        }
        for handoff in left { Syscall.close(handoff.fd) }
        released(left.count)
    }

    /// The connections queued for libwebsockets since the last call; the caller owns their descriptors.
    func takeHandoffs() -> [Handoff] {
        shared.withLock { shared in
            defer { shared.handoffs.removeAll() }
            return shared.handoffs
        }
    }

    /// Says that `count` handed-on connections are closed (libwebsockets freed them, or never adopted them).
    func released(_ count: Int = 1) {
        guard count > 0 else { return }
        shared.withLock { $0.handedOn -= count }
    }

    /// Connections handed on and not yet released.
    var handedOnCount: Int { shared.withLock { $0.handedOn } }

    fileprivate var stopping: Bool { shared.withLock { $0.stopping } }
    fileprivate var listenDescriptor: Int32 { listenFD }
    fileprivate var wakeDescriptor: Int32 { wakeFD }

    fileprivate func evaluate(_ bytes: [UInt8]) -> RequestHead.Verdict {
        RequestHead.evaluate(
            bytes, maxHeadBytes: limits.maxHeadBytes, subprotocol: subprotocol, isOwnAuthority: isOwnAuthority)
    }

    fileprivate func handOn(_ handoff: Handoff) {
        shared.withLock { shared in
            shared.handoffs.append(handoff)
            shared.handedOn += 1
        }
    }

    /// Reads and drops what the peer sent and nobody will read (a request pipelined behind the one answered),
    /// so that closing the socket next sends a FIN, not a reset that could destroy the answer's tail. Called
    /// on libwebsockets' service thread just before it closes a connection.
    static func discardUnreadInput(_ fd: Int32) {
        guard fd >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var total = 0
        while total < 1 << 20 {
            let read = buffer.withUnsafeMutableBytes { Syscall.recv(fd, into: $0, flags: Int32(MSG_DONTWAIT)) }
            guard case .success(let count) = read, count > 0 else { return }
            total += count
        }
    }

    // MARK: - Binding

    private static func listen(host: String, port: Int) throws -> (Int32, Int) {
        var storage = sockaddr_storage()
        var length: socklen_t = 0
        var dualStack = false
        let address = host == "localhost" ? "127.0.0.1" : host
        withUnsafeMutableBytes(of: &storage) { raw in
            if ["", "*", "0.0.0.0", "::"].contains(address) {
                // Every address, IPv6 and IPv4 alike, as libwebsockets listened before.
                var any = sockaddr_in6()
                any.sin6_family = sa_family_t(AF_INET6)
                any.sin6_port = in_port_t(UInt16(port).bigEndian)
                any.sin6_addr = in6addr_any
                raw.storeBytes(of: any, as: sockaddr_in6.self)
                length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                dualStack = true
            } else {
                var v4 = sockaddr_in()
                var v6 = sockaddr_in6()
                if Syscall.parseAddress(address, family: AF_INET, into: &v4.sin_addr) {
                    v4.sin_family = sa_family_t(AF_INET)
                    v4.sin_port = in_port_t(UInt16(port).bigEndian)
                    raw.storeBytes(of: v4, as: sockaddr_in.self)
                    length = socklen_t(MemoryLayout<sockaddr_in>.size)
                } else if Syscall.parseAddress(address, family: AF_INET6, into: &v6.sin6_addr) {
                    v6.sin6_family = sa_family_t(AF_INET6)
                    v6.sin6_port = in_port_t(UInt16(port).bigEndian)
                    raw.storeBytes(of: v6, as: sockaddr_in6.self)
                    length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                }
            }
        }
        guard length > 0 else {
            LWSLog.report("cannot listen on \(host):\(port): not a numeric address")
            throw WebServerError.cannotListen(host: host, port: port)
        }
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        var opened = Syscall.socket(family: Int32(storage.ss_family), type: socketType)
        if case .failure = opened, dualStack {
            // No IPv6 on this machine: every IPv4 address.
            var any = sockaddr_in()
            any.sin_family = sa_family_t(AF_INET)
            any.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: any, as: sockaddr_in.self) }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            dualStack = false
            opened = Syscall.socket(family: AF_INET, type: socketType)
        }
        let fd: Int32
        switch opened {
        case .success(let descriptor): fd = descriptor
        case .failure(let error):
            LWSLog.report("cannot listen on \(host):\(port): socket: \(error)")
            throw WebServerError.cannotListen(host: host, port: port)
        }
        // A restarted server may bind while the previous run's connections are in TIME_WAIT.
        Syscall.setOption(fd, level: SOL_SOCKET, SO_REUSEADDR, to: 1)
        if dualStack { Syscall.setOption(fd, level: Int32(IPPROTO_IPV6), IPV6_V6ONLY, to: 0) }
        let listening = Syscall.bind(fd, to: storage, length: length).flatMap {
            Syscall.listen(fd, backlog: SOMAXCONN)
        }.flatMap { Syscall.localAddress(fd) }
        let local: sockaddr_storage
        switch listening {
        case .success(let address): local = address
        case .failure(let error):
            Syscall.close(fd)
            LWSLog.report("cannot listen on \(host):\(port): \(error)")
            throw WebServerError.cannotListen(host: host, port: port)
        }
        let boundPort = withUnsafeBytes(of: local) { raw in
            // sin_port and sin6_port sit at the same offset, in network byte order.
            UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
        }
        return (fd, Int(boundPort))
    }
}

/// The door thread's own state: the connections whose head it is reading or that it is refusing.
private final class Doorkeeper: @unchecked Sendable {
    // @unchecked: created on the owner's thread, then used only by the door thread.

    /// A client address (its IPv4 or IPv6 bytes, without the port): the unit of fairness. Two words, so that
    /// counting a flood's connections by address stays cheap.
    struct Peer: Hashable {
        let high: UInt64
        let low: UInt64

        /// The peer of an accepted socket; one shared unknown address when the system cannot say.
        init(of fd: Int32) {
            guard case .success(let address) = Syscall.peerAddress(fd) else {
                (high, low) = (0, 0)
                return
            }
            (high, low) = withUnsafeBytes(of: address) { raw in
                switch Int32(address.ss_family) {
                case AF_INET:
                    // sin_addr follows the family and the port.
                    (0, UInt64(raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
                case AF_INET6:
                    // sin6_addr follows the family, the port and the flow label.
                    (
                        raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                    )
                default:
                    (0, 0)
                }
            }
        }
    }

    /// A connection accepted and set aside until a head may be read from it.
    private struct Parked {
        let fd: Int32
        let peer: Peer
        let accepted: ContinuousClock.Instant
    }

    private struct Visitor {
        let fd: Int32
        let peer: Peer
        let accepted: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant
        var received: [UInt8] = []
        /// A refusal being written; then `lingering` until the peer closes or the deadline.
        var answer: [UInt8]?
        var sent = 0
        var lingering = false
        var discarded = 0

        var isReadingHead: Bool { answer == nil }
    }

    private let door: FrontDoor
    private let onHandoff: @Sendable () -> Void
    private var visitors: [Int32: Visitor] = [:]
    /// Accepted, not yet read, oldest first (``promote(_:)`` takes them in).
    private var parked: [Parked] = []
    private var pausedUntil: ContinuousClock.Instant?
    private var pause = Duration.milliseconds(50)
    private var lastPauseReport: ContinuousClock.Instant?
    private var handedOnThisPass = false
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    init(door: FrontDoor, onHandoff: @escaping @Sendable () -> Void) {
        self.door = door
        self.onHandoff = onHandoff
    }

    func run() {
        var descriptors: [pollfd] = []
        while !door.stopping {
            let now = ContinuousClock.now
            for visitor in visitors.values where visitor.deadline <= now { expire(visitor) }
            if let until = pausedUntil, until <= now { pausedUntil = nil }

            // A set-aside connection that never got its turn is closed without a word, as a silent one is.
            let expired = parked.prefix { $0.accepted + door.limits.headTimeout <= now }
            for waiting in expired { Syscall.close(waiting.fd) }
            parked.removeFirst(expired.count)
            promote(now)

            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: door.wakeDescriptor, events: Int16(POLLIN), revents: 0))
            var wake = pausedUntil ?? now + .seconds(1)
            if let oldest = parked.first {
                wake = min(wake, oldest.accepted + door.limits.headTimeout)
                if let room = roomForAnother(now) { wake = min(wake, room) }
            }
            // Always listening (unless accept ran out of descriptors): the kernel's backlog is a queue in arrival
            // order, and a request behind a flood there would wait for all of it.
            if pausedUntil == nil {
                descriptors.append(pollfd(fd: door.listenDescriptor, events: Int16(POLLIN), revents: 0))
            }
            for visitor in visitors.values {
                let writing = visitor.answer.map { visitor.sent < $0.count } ?? false
                descriptors.append(pollfd(fd: visitor.fd, events: Int16(writing ? POLLOUT : POLLIN), revents: 0))
                wake = min(wake, visitor.deadline)
            }
            let timeout = Int32(max(0, min(1_000, ((wake - now) / .milliseconds(1)).rounded(.up))))
            guard case .success(let ready) = Syscall.poll(&descriptors, timeoutMilliseconds: timeout), ready > 0
            else { continue }  // timeout

            handedOnThisPass = false
            for descriptor in descriptors where descriptor.revents != 0 {
                if descriptor.fd == door.wakeDescriptor {
                    var bytes: (UInt64, UInt64) = (0, 0)
                    _ = withUnsafeMutableBytes(of: &bytes) { Syscall.read(door.wakeDescriptor, into: $0) }
                } else if descriptor.fd == door.listenDescriptor {
                    acceptWaiting()
                } else if let visitor = visitors[descriptor.fd] {
                    serve(visitor)
                }
            }
            promote(ContinuousClock.now)
            if handedOnThisPass { onHandoff() }
        }
        for visitor in visitors.values { Syscall.close(visitor.fd) }
        visitors.removeAll()
        for waiting in parked { Syscall.close(waiting.fd) }
        parked.removeAll()
    }

    // MARK: Accepting

    private func acceptWaiting() {
        // Who holds the most at the door, counted once a batch: at the cap a flood's own connection is refused
        // at once, and another address's takes the place of the flood's oldest set-aside one.
        var held: [Peer: Int]?
        // A bounded batch per pass, so the connections already held are served in between.
        for _ in 0..<128 {
            let fd: Int32
            switch Syscall.accept(door.listenDescriptor) {
            case .success(let accepted): fd = accepted
            case .failure(let error) where error.wouldBlock: return
            case .failure(let error) where error.code == ECONNABORTED || error.code == EPROTO: continue
            case .failure(let error):
                // EMFILE, ENFILE, ENOBUFS, ENOMEM: the listen socket stays readable, so trying again at
                // once would spin (libwebsockets did, logging "accept: errno 24" in a loop).
                pauseAccepting(error)
                return
            }
            Syscall.makeNonBlocking(fd)
            // lws sets TCP_NODELAY on the sockets its own listener accepts (lws_plat_set_socket_options), not
            // on adopted ones: without it a WebSocket's second small message waits for the peer's delayed
            // ACK (40 ms on Linux; a hello's welcome + state took 44 ms instead of 1).
            Syscall.setOption(fd, level: Int32(IPPROTO_TCP), TCP_NODELAY, to: 1)
            pause = .milliseconds(50)
            let peer = Peer(of: fd)
            if visitors.count + parked.count + door.handedOnCount >= door.limits.maxConnections {
                // At the cap the address holding the most gives up its oldest set-aside connection, unless
                // this one is from it (or none is set aside): then this one gets 503.
                var counts = held ?? heldByPeer()
                let biggest = counts.max { $0.value < $1.value }?.key
                guard let biggest, biggest != peer, let index = parked.firstIndex(where: { $0.peer == biggest })
                else {
                    held = counts
                    refuseAtOnce(fd, .serviceUnavailable)
                    continue
                }
                Syscall.close(parked.remove(at: index).fd)
                counts[biggest, default: 1] -= 1
                counts[peer, default: 0] += 1
                held = counts
            } else if held != nil {
                held?[peer, default: 0] += 1
            }
            parked.append(Parked(fd: fd, peer: peer, accepted: ContinuousClock.now))
        }
    }

    /// The connections at the door (heads being read and set aside) by address.
    private func heldByPeer() -> [Peer: Int] {
        var counts: [Peer: Int] = [:]
        for visitor in visitors.values where visitor.isReadingHead { counts[visitor.peer, default: 0] += 1 }
        for waiting in parked { counts[waiting.peer, default: 0] += 1 }
        return counts
    }

    /// Takes set-aside connections in to have their heads read, while there is room: the one whose address has
    /// the fewest heads being read first (the oldest among equals). When every place is taken, a newcomer
    /// whose address has fewer heads than one holding more than half of them takes the place of that one's
    /// oldest at once; otherwise the oldest head makes room once it has waited ``FrontDoor/evictionAge`` (a
    /// burst from one address waits its turn rather than closing its own connections).
    private func promote(_ now: ContinuousClock.Instant) {
        guard !parked.isEmpty else { return }
        // Counted once a call, then kept up to date as connections are taken in or dropped.
        var heads: [Peer: Int] = [:]
        var reading = 0
        for visitor in visitors.values where visitor.isReadingHead {
            heads[visitor.peer, default: 0] += 1
            reading += 1
        }
        var waitingByPeer: [Peer: Int] = [:]
        for waiting in parked { waitingByPeer[waiting.peer, default: 0] += 1 }
        for _ in 0..<128 {
            guard
                let peer = waitingByPeer.min(by: {
                    (heads[$0.key] ?? 0, $0.key.high, $0.key.low) < (heads[$1.key] ?? 0, $1.key.high, $1.key.low)
                })?.key,
                let index = parked.firstIndex(where: { $0.peer == peer })
            else { return }
            let next = parked[index]
            if reading >= door.limits.maxWaiting {
                let mine = heads[next.peer] ?? 0
                let share = max(1, door.limits.maxWaiting / 2)
                let victim: Visitor?
                if let flood = heads.max(by: { $0.value < $1.value }), flood.key != next.peer, flood.value > share,
                    mine + 1 < flood.value
                {
                    victim = oldestReading(of: flood.key)
                } else if let room = roomForAnother(now), room <= now {
                    victim = oldestReading()
                } else {
                    victim = nil
                }
                guard let victim else { return }
                drop(victim.fd)
                heads[victim.peer, default: 1] -= 1
                reading -= 1
            }
            parked.remove(at: index)
            waitingByPeer[peer, default: 1] -= 1
            if waitingByPeer[peer] == 0 { waitingByPeer[peer] = nil }
            heads[peer, default: 0] += 1
            reading += 1
            visitors[next.fd] = Visitor(
                fd: next.fd, peer: next.peer, accepted: now, deadline: next.accepted + door.limits.headTimeout)
        }
    }

    /// nil while fewer than `maxWaiting` heads are being read; else when the oldest of them may be closed to
    /// make room.
    private func roomForAnother(_ now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let reading = visitors.values.count(where: \.isReadingHead)
        guard reading >= door.limits.maxWaiting, let oldest = oldestReading() else { return nil }
        return oldest.accepted + min(FrontDoor.evictionAge, door.limits.headTimeout)
    }

    private func oldestReading(of peer: Peer? = nil) -> Visitor? {
        visitors.values.filter { $0.isReadingHead && (peer == nil || $0.peer == peer) }.min {
            $0.accepted < $1.accepted
        }
    }

    private func pauseAccepting(_ error: Errno) {
        let now = ContinuousClock.now
        pausedUntil = now + pause
        if lastPauseReport.map({ now - $0 >= .seconds(10) }) ?? true {
            lastPauseReport = now
            LWSLog.report(
                "accept: \(error); not accepting connections for \(pause) (said at most every 10 s)"
            )
        }
        pause = min(pause * 2, .seconds(1))
    }

    /// 503 at the connection cap: read what already arrived (so the close is not a reset), answer, close.
    private func refuseAtOnce(_ fd: Int32, _ refusal: HTTPRefusal) {
        FrontDoor.discardUnreadInput(fd)
        _ = refusal.bytes.withUnsafeBytes { Syscall.send(fd, $0, flags: Int32(MSG_DONTWAIT)) }
        Syscall.shutdownWrites(fd)
        Syscall.close(fd)
    }

    // MARK: Reading heads

    private func serve(_ visitor: Visitor) {
        var visitor = visitor
        if visitor.answer != nil {
            if visitor.lingering { linger(&visitor) } else { writeAnswer(&visitor) }
            return
        }
        let read = chunk.withUnsafeMutableBytes { Syscall.recv(visitor.fd, into: $0, flags: Int32(MSG_DONTWAIT)) }
        if case .failure(let error) = read, error.wouldBlock { return }
        guard case .success(let count) = read, count > 0 else {
            drop(visitor.fd)  // closed before its head ended: nothing to answer
            return
        }
        visitor.received += chunk[..<count]
        switch door.evaluate(visitor.received) {
        case .incomplete:
            visitors[visitor.fd] = visitor
        case .refuse(let refusal):
            startAnswer(&visitor, refusal)
        case .admit(let bytes, let isWebSocketUpgrade):
            visitors[visitor.fd] = nil
            if !isWebSocketUpgrade { holdBackPipelinedRequests(visitor.fd) }
            door.handOn(FrontDoor.Handoff(fd: visitor.fd, bytes: bytes))
            handedOnThisPass = true
        }
    }

    // libwebsockets 4.1.6 parses a request pipelined behind one whose answer is still being written, and that
    // answer is then lost (it rebinds the connection). The server answers one request per connection anyway,
    // so it need not read anything after the head: with a low-water mark far above anything a client sends,
    // poll() reports the socket readable again only when the peer closes it (or fills the receive buffer of
    // several MB), and libwebsockets reads nothing more.
    private func holdBackPipelinedRequests(_ fd: Int32) {
        Syscall.setOption(fd, level: SOL_SOCKET, SO_RCVLOWAT, to: 1 << 30)
    }

    private func expire(_ visitor: Visitor) {
        var visitor = visitor
        if visitor.isReadingHead, !visitor.received.isEmpty {
            startAnswer(&visitor, .requestTimeout)
        } else {
            drop(visitor.fd)  // silent (a preconnect that never sent a byte), or done lingering
        }
    }

    // MARK: Refusing

    private func startAnswer(_ visitor: inout Visitor, _ refusal: HTTPRefusal) {
        visitor.answer = refusal.bytes
        visitor.received = []
        visitor.deadline = ContinuousClock.now + FrontDoor.lingerTime
        writeAnswer(&visitor)
    }

    private func writeAnswer(_ visitor: inout Visitor) {
        guard let answer = visitor.answer else { return }
        let sent = answer[visitor.sent...].withUnsafeBytes { Syscall.send(visitor.fd, $0, flags: Int32(MSG_DONTWAIT)) }
        if case .failure(let error) = sent, error.wouldBlock {
            visitors[visitor.fd] = visitor
            return
        }
        guard case .success(let count) = sent, count > 0 else {
            drop(visitor.fd)
            return
        }
        visitor.sent += count
        if visitor.sent == answer.count {
            Syscall.shutdownWrites(visitor.fd)
            visitor.lingering = true
        }
        visitors[visitor.fd] = visitor
    }

    private func linger(_ visitor: inout Visitor) {
        let read = chunk.withUnsafeMutableBytes { Syscall.recv(visitor.fd, into: $0, flags: Int32(MSG_DONTWAIT)) }
        if case .failure(let error) = read, error.wouldBlock { return }
        let count = (try? read.get()) ?? 0
        visitor.discarded += count
        guard count > 0, visitor.discarded < 1 << 20 else {
            drop(visitor.fd)
            return
        }
        visitors[visitor.fd] = visitor
    }

    private func drop(_ fd: Int32) {
        visitors[fd] = nil
        Syscall.close(fd)
    }
}
