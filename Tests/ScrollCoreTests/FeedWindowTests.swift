import Testing

@testable import ScrollCore

/// The feed window on its own: what each change does to the items, the cursor, the trims and the held
/// arrivals, and that a change breaking an invariant stops the process rather than sending a wrong list.
struct FeedWindowTests {
    /// A window opened on feed items 100..<130, the page holding the last 20 (a chat opens at the bottom).
    static func openedAtTheBottom() -> FeedWindow {
        var window = FeedWindow()
        window.open(at: 100, with: syntheticItems(100..<130), limit: 20, trimmingAt: .top)
        return window
    }

    static func arrival(_ number: Int) -> FeedItem { FeedSource.arrivedMessage(number, seed: 1) }

    static func ids(_ items: some Collection<FeedItem>) -> [String] { items.map(\.id) }

    @Test func openingHoldsTheFeedRunAndTrimsTheExcessAtTheFarEnd() {
        let window = Self.openedAtTheBottom()
        #expect(window.firstLoaded == 100)
        #expect(window.cursor == 130)
        #expect(window.items == syntheticItems(100..<130))
        #expect(window.trimmed == PerEdge(bottom: 0, top: 10))
        #expect(Self.ids(window.pageItems) == Self.ids(syntheticItems(110..<130)))
        #expect(window.pageCount == 20)
        #expect(window.heldExtraItems == 0)

        var unbounded = FeedWindow()
        unbounded.open(at: 0, with: syntheticItems(0..<30), limit: 0, trimmingAt: .bottom)
        #expect(unbounded.trimmed == PerEdge(0))
        #expect(unbounded.pageCount == 30)
    }

    @Test func theFeedsNextItemsAdvanceTheCursorAndWhatDoesNotFitWaitsBelow() {
        var window = FeedWindow()
        window.open(at: 0, with: syntheticItems(0..<30), limit: 0, trimmingAt: .bottom)
        let added = window.appendFeed(syntheticItems(30..<50), releasingHeld: 0, showing: 5)
        #expect(added == syntheticItems(30..<50))
        #expect(window.cursor == 50)
        #expect(window.items == syntheticItems(0..<50))
        #expect(window.trimmed == PerEdge(bottom: 15, top: 0))
        #expect(window.pageItems.last?.id == "item-35")
        // The hidden ones come back next to the page, in order.
        #expect(window.reveal(10, at: .bottom) == syntheticItems(35..<45))
        #expect(window.trimmed.bottom == 5)
        #expect(window.pageItems.last?.id == "item-45")
    }

    @Test func arrivalsWaitUntilTheFeedsEndIsHeldThenFollowIt() {
        var window = FeedWindow()
        window.open(at: 0, with: syntheticItems(0..<10), limit: 0, trimmingAt: .bottom)
        #expect(window.countArrival() == 1)
        window.hold(Self.arrival(1))
        #expect(window.countArrival() == 2)
        window.hold(Self.arrival(2))
        #expect(window.heldArrivals == [Self.arrival(1), Self.arrival(2)])
        #expect(window.items.count == 10)

        // The last page: the feed's items, then every held arrival.
        let added = window.appendFeed(syntheticItems(10..<12), releasingHeld: 2, showing: 4)
        #expect(added == syntheticItems(10..<12) + [Self.arrival(1), Self.arrival(2)])
        #expect(window.heldArrivals.isEmpty)
        #expect(window.cursor == 12)
        #expect(window.heldExtraItems == 2)

        // With the end held, an arrival joins the page, or waits below a window further up.
        window.appendArrival(Self.arrival(3), shown: true)
        window.trim(3, at: .bottom)
        window.appendArrival(Self.arrival(4), shown: false)
        #expect(window.items.suffix(2) == [Self.arrival(3), Self.arrival(4)])
        #expect(window.trimmed.bottom == 4)
        #expect(window.arrivedCount == 2)
        #expect(window.heldExtraItems == 4)
    }

    @Test func olderFeedItemsAndRefreshedOnesGoOnTop() {
        var window = Self.openedAtTheBottom()
        // Above a page that already trimmed its top, they wait hidden.
        window.prependFeed(syntheticItems(80..<100), from: 80, showing: 0)
        #expect(window.firstLoaded == 80)
        #expect(window.trimmed.top == 30)
        #expect(window.items.first?.id == "item-81")
        #expect(window.heldExtraItems == 0)

        #expect(window.reveal(30, at: .top) == syntheticItems(80..<110))
        let fresh = [FeedSource.refreshedItem(1, seed: 1), FeedSource.refreshedItem(2, seed: 1)]
        window.prependRefreshed(fresh, showing: 1)
        #expect(window.refreshedItemCount == 2)
        #expect(window.items.prefix(2) == ArraySlice(fresh))
        #expect(window.trimmed.top == 1)
        #expect(window.pageItems.first == fresh[1])
        #expect(window.heldExtraItems == 2)
        // The feed run is unchanged by refreshed items.
        #expect(window.firstLoaded == 80 && window.cursor == 130)
    }

    @Test func aJumpsWindowIsSetAtOnce() {
        var window = FeedWindow()
        window.open(at: 0, with: syntheticItems(0..<100), limit: 0, trimmingAt: .bottom)
        window.show(40..<60)
        #expect(window.trimmed == PerEdge(bottom: 40, top: 40))
        #expect(Self.ids(window.pageItems) == Self.ids(syntheticItems(40..<60)))
        window.show(0..<100)
        #expect(window.trimmed == PerEdge(0))
    }

    @Test func reopeningStartsAfreshButTheIdCountersCarryOn() {
        var window = Self.openedAtTheBottom()
        _ = window.countArrival()
        window.hold(Self.arrival(1))
        window.prependRefreshed([FeedSource.refreshedItem(1, seed: 1)], showing: 0)
        window.open(at: 0, with: syntheticItems(0..<30), limit: 0, trimmingAt: .bottom)
        #expect(window.items == syntheticItems(0..<30))
        #expect(window.heldArrivals.isEmpty)
        #expect(window.trimmed == PerEdge(0))
        #expect(window.firstLoaded == 0 && window.cursor == 30)
        // A refreshed item or a message after the reset never repeats an id from before it.
        #expect(window.refreshedItemCount == 1)
        #expect(window.countArrival() == 2)
    }

    @Test func anItemIsFoundByIdAfterEveryChange() {
        var window = FeedWindow()
        window.open(at: 10, with: syntheticItems(10..<20), limit: 0, trimmingAt: .bottom)
        #expect(window.index(of: "item-11") == 0)
        window.prependFeed(syntheticItems(0..<10), from: 0, showing: 10)
        #expect(window.index(of: "item-11") == 10)
        #expect(window.index(of: "item-1") == 0)
        _ = window.appendFeed(syntheticItems(20..<21), releasingHeld: 0, showing: 1)
        #expect(window.index(of: "item-21") == 20)
        #expect(window.index(of: "item-22") == nil)
        // The lookup cache is not part of the value.
        var twin = FeedWindow()
        twin.open(at: 10, with: syntheticItems(10..<20), limit: 0, trimmingAt: .bottom)
        twin.prependFeed(syntheticItems(0..<10), from: 0, showing: 10)
        _ = twin.appendFeed(syntheticItems(20..<21), releasingHeld: 0, showing: 1)
        #expect(twin == window)
    }

    // MARK: Invariants

    @Test func trimmingMoreThanThePageHoldsStops() async {
        await #expect(processExitsWith: .failure) {
            var window = FeedWindowTests.openedAtTheBottom()
            window.trim(21, at: .bottom)
        }
    }

    @Test func revealingMoreThanWasTrimmedStops() async {
        await #expect(processExitsWith: .failure) {
            var window = FeedWindowTests.openedAtTheBottom()
            _ = window.reveal(11, at: .top)
        }
    }

    @Test func showingItemsPastTheTrimmedOnesStops() async {
        // Shown above items trimmed at the top, the refreshed items would leave a gap in the page.
        await #expect(processExitsWith: .failure) {
            var window = FeedWindowTests.openedAtTheBottom()
            window.prependRefreshed([FeedSource.refreshedItem(1, seed: 1)], showing: 1)
        }
    }

    @Test func showingMoreThanIsAddedStops() async {
        await #expect(processExitsWith: .failure) {
            var window = FeedWindowTests.openedAtTheBottom()
            _ = window.appendFeed(syntheticItems(130..<131), releasingHeld: 0, showing: 2)
        }
    }

    @Test func aWindowBeyondTheItemsStops() async {
        await #expect(processExitsWith: .failure) {
            var window = FeedWindowTests.openedAtTheBottom()
            window.show(10..<31)
        }
    }

    @Test func olderItemsFromBelowTheFirstOneHeldStop() async {
        await #expect(processExitsWith: .failure) {
            var window = FeedWindowTests.openedAtTheBottom()
            window.prependFeed(syntheticItems(100..<101), from: 101, showing: 0)
        }
    }

    @Test func releasingArrivalsThatAreNotHeldStops() async {
        await #expect(processExitsWith: .failure) {
            var window = FeedWindowTests.openedAtTheBottom()
            _ = window.appendFeed([], releasingHeld: 1, showing: 0)
        }
    }

    @Test func holdingAnArrivalThatWasNotCountedStops() async {
        await #expect(processExitsWith: .failure) {
            var window = FeedWindowTests.openedAtTheBottom()
            window.hold(FeedWindowTests.arrival(1))
        }
    }
}
