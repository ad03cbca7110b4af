import LWSTransport
import Testing

@testable import PlaygroundServer

/// The uploads held before `hello` share one budget: what counts is the memory each holds, it is freed when
/// its connection goes or its work returns, and one address holds at most half.
struct PendingUploadsTests {
    let first = ConnectionID(rawValue: 1)
    let second = ConnectionID(rawValue: 2)
    let third = ConnectionID(rawValue: 3)

    static func piece(_ count: Int) -> [UInt8] { Array(repeating: 0x78, count: count) }

    @Test func anUploadGrowsByDoublingButNeverPastWhatOneMayHold() {
        var uploads = PendingUploads(maxPerUpload: 10_000, maxBytes: 1 << 20)
        var held: [Int] = []
        for _ in 0..<9 {
            #expect(uploads.append(Self.piece(1000), for: first, peer: "a") == nil)
            held.append(uploads.heldBytes)
        }
        // Capacities may round up to what the allocator gives, never down.
        #expect(held[0] >= 1000 && held[1] >= 2000 && held[2] >= 4000 && held[4] >= 8000)
        #expect(held.allSatisfy { $0 <= 10_000 + 64 }, "\(held)")
        #expect(uploads.append(Self.piece(1001), for: first, peer: "a") == .tooLarge(maxBytes: 10_000))
        #expect(uploads.heldBytes == 0)
        #expect(uploads.heldBytesByPeer == [:])
        #expect(!uploads.hasUpload(for: first))
    }

    @Test func pastHalfTheBudgetAnAddressIsRefusedAndAnotherStillUploads() {
        var uploads = PendingUploads(maxPerUpload: 100_000, maxBytes: 200_000)
        #expect(uploads.append(Self.piece(60_000), for: first, peer: "a") == nil)
        #expect(uploads.append(Self.piece(60_000), for: second, peer: "a") == .peerFull(maxBytes: 100_000))
        // The refused connection's upload is dropped; the first keeps its own.
        #expect(!uploads.hasUpload(for: second))
        #expect(uploads.hasUpload(for: first))
        #expect(uploads.append(Self.piece(90_000), for: third, peer: "b") == nil)
        #expect(uploads.heldBytesByPeer.keys.sorted() == ["a", "b"])
        #expect(uploads.heldBytes == uploads.heldBytesByPeer.values.reduce(0, +))
    }

    @Test func pastTheBudgetEveryAddressIsRefused() {
        var uploads = PendingUploads(maxPerUpload: 100_000, maxBytes: 200_000)
        for (index, peer) in ["a", "b", "c"].enumerated() {
            #expect(
                uploads.append(Self.piece(60_000), for: ConnectionID(rawValue: UInt64(index + 1)), peer: peer) == nil)
        }
        #expect(
            uploads.append(Self.piece(60_000), for: ConnectionID(rawValue: 4), peer: "d")
                == .serverFull(maxBytes: 200_000))
        #expect(uploads.heldBytes <= 200_000)
    }

    @Test func aTakenUploadCountsUntilItsWorkReturns() throws {
        var uploads = PendingUploads(maxPerUpload: 100_000, maxBytes: 200_000)
        #expect(uploads.append(Self.piece(60_000), for: first, peer: "a") == nil)
        let held = uploads.heldBytes
        let took = uploads.take(first)
        let taken = try #require(took)
        #expect(taken.bytes == Self.piece(60_000))
        #expect(taken.held == PendingUploads.Held(bytes: held, peer: "a"))
        #expect(!uploads.hasUpload(for: first))
        // Its connection going frees nothing: the work still holds it.
        uploads.drop(first)
        #expect(uploads.heldBytes == held)
        uploads.release(taken.held)
        #expect(uploads.heldBytes == 0)
        #expect(uploads.heldBytesByPeer == [:])
    }

    @Test func aConnectionThatGoesFreesItsUpload() {
        var uploads = PendingUploads(maxPerUpload: 100_000, maxBytes: 200_000)
        #expect(uploads.append(Self.piece(50_000), for: first, peer: "a") == nil)
        #expect(uploads.append(Self.piece(50_000), for: second, peer: "b") == nil)
        uploads.drop(first)
        uploads.drop(first)
        #expect(uploads.heldBytesByPeer.keys.sorted() == ["b"])
        #expect(uploads.heldBytes == uploads.heldBytesByPeer["b"])
    }
}
