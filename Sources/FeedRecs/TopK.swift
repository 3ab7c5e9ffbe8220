/// The `capacity` best of a stream of scored items: a min-heap of that size.
struct TopK {
    let capacity: Int
    private var heap: [(Float, Int32)] = []

    init(capacity: Int) {
        self.capacity = capacity
        heap.reserveCapacity(capacity)
    }

    /// Offers one item; kept if among the best so far. Ties go to the smaller item.
    mutating func offer(_ score: Float, _ item: Int32) {
        guard capacity > 0, score.isFinite else { return }
        if heap.count < capacity {
            heap.append((score, item))
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard Self.less(heap[i], heap[parent]) else { break }
                heap.swapAt(i, parent)
                i = parent
            }
        } else if Self.less(heap[0], (score, item)) {
            heap[0] = (score, item)
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < heap.count, Self.less(heap[l], heap[smallest]) { smallest = l }
                if r < heap.count, Self.less(heap[r], heap[smallest]) { smallest = r }
                if smallest == i { break }
                heap.swapAt(i, smallest)
                i = smallest
            }
        }
    }

    /// Whether `a` is worse than `b`: a lower score, or the same and a larger item.
    static func less(_ a: (Float, Int32), _ b: (Float, Int32)) -> Bool { a.0 != b.0 ? a.0 < b.0 : a.1 > b.1 }

    /// The items kept, best first.
    func sorted() -> [(Float, Int32)] { heap.sorted { Self.less($1, $0) } }
}
