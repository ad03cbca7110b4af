import LWSTransport

/// The traces uploaded in `forkTrace` pieces before `hello`, by connection, and the one budget they share
/// over every connection (`--max-upload-bytes`), at most half of it from one client address. An upload
/// taken for a fork's rebuild or a `tryHand` still counts until its work returns (``release(_:)``): its
/// bytes are in memory until then. Confined to the service thread.
///
/// What counts is each upload's capacity, the memory it holds, not only the bytes sent; an upload grows to
/// at most `maxPerUpload`, so a full one holds no more than that.
struct PendingUploads {
    /// Why a piece was refused; the connection's upload is dropped either way.
    enum Refusal: Equatable {
        /// The connection's upload would pass `maxPerUpload` (`--max-fork-bytes`).
        case tooLarge(maxBytes: Int)
        /// The uploads held over all connections would pass `maxBytes` (`--max-upload-bytes`).
        case serverFull(maxBytes: Int)
        /// The uploads held from this client address would pass half of `maxBytes`.
        case peerFull(maxBytes: Int)
    }

    /// A connection's upload and the client address it came from.
    private struct Upload {
        var bytes: [UInt8]
        let peer: String
    }

    /// The most bytes of one connection's upload (`--max-fork-bytes`).
    let maxPerUpload: Int
    /// The most bytes held over all connections (`--max-upload-bytes`).
    let maxBytes: Int
    /// The most bytes held from one client address: half of ``maxBytes``.
    var maxPerPeer: Int { maxBytes / 2 }
    private var uploads: [ConnectionID: Upload] = [:]
    /// Bytes held: the capacity of every upload here and of those taken and not yet released.
    private(set) var heldBytes = 0
    /// ``heldBytes`` by client address; an address holding nothing has no entry.
    private(set) var heldBytesByPeer: [String: Int] = [:]

    init(maxPerUpload: Int, maxBytes: Int) {
        self.maxPerUpload = maxPerUpload
        self.maxBytes = maxBytes
    }

    /// Whether `id` has uploaded something not yet taken.
    func hasUpload(for id: ConnectionID) -> Bool {
        uploads[id].map { !$0.bytes.isEmpty } ?? false
    }

    /// The client address the upload of `id` came from, if it has one.
    func peer(of id: ConnectionID) -> String? {
        uploads[id]?.peer
    }

    /// Adds a piece to the upload of `id` (from `peer`), or refuses it and drops what `id` had sent.
    mutating func append(_ piece: some Collection<UInt8>, for id: ConnectionID, peer: String) -> Refusal? {
        var upload = uploads.removeValue(forKey: id) ?? Upload(bytes: [], peer: peer)
        let before = upload.bytes.capacity
        let count = upload.bytes.count + piece.count
        guard count <= maxPerUpload else {
            charge(-before, to: upload.peer)
            return .tooLarge(maxBytes: maxPerUpload)
        }
        // Grown by doubling, as an array grows, but never past what one upload may hold.
        let wanted = count <= before ? before : min(maxPerUpload, max(count, 2 * before))
        guard heldBytes - before + wanted <= maxBytes else {
            charge(-before, to: upload.peer)
            return .serverFull(maxBytes: maxBytes)
        }
        guard heldBytesByPeer[upload.peer, default: 0] - before + wanted <= maxPerPeer else {
            charge(-before, to: upload.peer)
            return .peerFull(maxBytes: maxPerPeer)
        }
        if wanted > before { upload.bytes.reserveCapacity(wanted) }
        upload.bytes.append(contentsOf: piece)
        charge(upload.bytes.capacity - before, to: upload.peer)
        uploads[id] = upload
        return nil
    }

    /// Takes the upload of `id` for work that runs on it; it still counts until ``release(_:)`` is given the
    /// returned `held` once the work is done.
    mutating func take(_ id: ConnectionID) -> (bytes: [UInt8], held: Held)? {
        guard let upload = uploads.removeValue(forKey: id) else { return nil }
        return (upload.bytes, Held(bytes: upload.bytes.capacity, peer: upload.peer))
    }

    /// The connection went: its upload, if not taken, is dropped.
    mutating func drop(_ id: ConnectionID) {
        guard let upload = uploads.removeValue(forKey: id) else { return }
        charge(-upload.bytes.capacity, to: upload.peer)
    }

    /// The work on a taken upload returned: its bytes are free.
    mutating func release(_ held: Held) {
        charge(-held.bytes, to: held.peer)
    }

    /// What a taken upload holds until it is released.
    struct Held: Equatable, Sendable {
        let bytes: Int
        let peer: String
    }

    private mutating func charge(_ bytes: Int, to peer: String) {
        heldBytes += bytes
        let byPeer = heldBytesByPeer[peer, default: 0] + bytes
        heldBytesByPeer[peer] = byPeer == 0 ? nil : byPeer
    }
}
