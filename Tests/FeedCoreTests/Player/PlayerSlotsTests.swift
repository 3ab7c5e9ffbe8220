import Testing
@testable import FeedCore
@testable import FeedPlayer

@Suite struct PlayerSlotsTests {
    @Test(arguments: [
        // count, wrap, current, previous, next
        (5, false, 0, nil, 1), (5, false, 2, 1, 3), (5, false, 4, 3, nil),
        (5, true, 0, 4, 1), (5, true, 4, 3, 0),
        (1, false, 0, nil, nil), (1, true, 0, nil, nil),
        (2, false, 0, nil, 1), (2, false, 1, 0, nil), (2, true, 0, 1, 1), (2, true, 1, 0, 0),
    ] as [(Int, Bool, Int, Int?, Int?)])
    func neighboursAtTheEndsAndInSmallFeeds(count: Int, wrap: Bool, current: Int, previous: Int?, next: Int?) {
        // Given a position in a feed, when its slots are computed
        let slots = PlayerSlots(current: current, count: count, wrap: wrap)

        // Then the neighbours are the expected ones and the distinct positions list them once
        #expect(slots.previous == previous)
        #expect(slots.current == current)
        #expect(slots.next == next)
        let expected = [current] + [next, previous].compactMap { $0 }
        #expect(slots.positions == Array(firstOccurrences(expected)))
    }

    @Test func describesItsSlots() {
        #expect(PlayerSlots(current: 0, count: 3, wrap: false).description == "[- 0 1]")
        #expect(PlayerSlots(current: 2, count: 3, wrap: true).description == "[1 2 0]")
    }
}

/// Keeps the first occurrence of each element, in order.
private func firstOccurrences(_ values: [Int]) -> [Int] {
    var seen = Set<Int>()
    return values.filter { seen.insert($0).inserted }
}
