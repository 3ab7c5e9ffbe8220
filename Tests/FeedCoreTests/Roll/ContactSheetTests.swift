import Testing
@testable import FeedCore

@Suite("ContactSheet layout")
struct ContactSheetTests {
    @Test("size grows by whole rows", arguments: [(1, 2, 1), (2, 2, 1), (3, 2, 2), (5, 3, 2), (7, 1, 7)])
    func size(count: Int, columns: Int, rows: Int) {
        let size = ContactSheet.size(count: count, columns: columns)
        #expect(size.width == ContactSheet.gap + columns * (ContactSheet.cellWidth + ContactSheet.gap))
        #expect(size.height == ContactSheet.gap + rows * (ContactSheet.cellHeight + ContactSheet.labelHeight + ContactSheet.gap))
    }

    @Test("cells go left to right, then down, none overlapping")
    func origins() {
        let a = ContactSheet.origin(of: 0, columns: 2), b = ContactSheet.origin(of: 1, columns: 2), c = ContactSheet.origin(of: 2, columns: 2)
        #expect(a.y == b.y && b.x >= a.x + ContactSheet.cellWidth)
        #expect(c.x == a.x && c.y >= a.y + ContactSheet.cellHeight + ContactSheet.labelHeight)
    }

    @Test("labels show id and duration", arguments: [(Int64(3), 4.04, "#3 4.0s"), (Int64(120), 62.5, "#120 1:02.5")])
    func label(id: Int64, duration: Double, text: String) {
        #expect(ContactSheet.label(id: id, duration: duration) == text)
    }
}
