import ScrollCore
import Testing

@testable import ScrollLab

/// The checker compares item lists field by field where they lie (`CheckRun.same`), not with `==`, which
/// copies every item it compares: it must answer what `==` answers.
struct ItemComparisonTests {
    static let item = FeedItem(id: "item-1", title: "Item 1", subtitle: "first", height: 40, extra: ["tag": "a"])

    /// One item, and one that differs from it in each field in turn.
    static let variants = [
        item,
        FeedItem(id: "item-2", title: "Item 1", subtitle: "first", height: 40, extra: ["tag": "a"]),
        FeedItem(id: "item-1", title: "Item 2", subtitle: "first", height: 40, extra: ["tag": "a"]),
        FeedItem(id: "item-1", title: "Item 1", subtitle: nil, height: 40, extra: ["tag": "a"]),
        FeedItem(id: "item-1", title: "Item 1", subtitle: "first", height: nil, extra: ["tag": "a"]),
        FeedItem(id: "item-1", title: "Item 1", subtitle: "first", height: 41, extra: ["tag": "a"]),
        FeedItem(id: "item-1", title: "Item 1", subtitle: "first", height: 40, extra: [:]),
    ]

    /// The comparison names every stored field of `FeedItem`: a field added there fails here until it is
    /// compared too.
    @Test func theComparisonCoversEveryFieldOfAnItem() {
        let fields = Mirror(reflecting: Self.item).children.map(\.label)
        #expect(fields == ["id", "title", "subtitle", "height", "extra"])
    }

    @Test func listsDifferingInAnyFieldOfAnyItemAreNotTheSame() {
        for a in Self.variants {
            for b in Self.variants {
                let left = [Self.item, a]
                let right = [Self.item, b]
                #expect(CheckRun.same(left[...], right[...]) == (left == right))
                #expect(CheckRun.same(left[...], right[...], asOne: false) == (left == right))
            }
        }
    }

    @Test func listsOfOtherLengthsAreNotTheSameAndEmptyListsAre() {
        #expect(!CheckRun.same([Self.item][...], [Self.item, Self.item][...]))
        #expect(CheckRun.same([FeedItem]()[...], [FeedItem]()[...]))
    }

    /// `==` on arrays takes one storage for equal without looking (so a NaN height equals itself there) and
    /// compares items otherwise (where it does not); `asOne` says whether the two could have been one.
    @Test func oneStorageIsTheSameOnlyWhereEqualityWouldLookNoFurther() {
        let odd = [FeedItem(id: "item-1", title: "Item 1", height: .nan)]
        let copy = odd.map { $0 }
        #expect(CheckRun.same(odd[...], odd[...]) == (odd == odd))
        #expect(CheckRun.same(odd[...], copy[...]) == (odd == copy))
        #expect(!CheckRun.same(odd[...], odd[...], asOne: false))
    }
}
