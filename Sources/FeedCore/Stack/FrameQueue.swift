import Foundation

/// A bounded, blocking first-in first-out queue between one producer thread and one consumer.
/// `close()` wakes both sides; after it, pushes are refused and pops drain what is left.
final class FrameQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        items.reserveCapacity(self.capacity)
    }

    /// Waits for room, then appends. Returns false if the queue was closed.
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !closed { condition.wait() }
        if closed { return false }
        if head > 0 && head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// Waits for an element and returns it without removing it; nil once closed and empty.
    func peek() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed { condition.wait() }
        return head < items.count ? items[head] : nil
    }

    /// Removes and returns the first element, waiting for one; nil once closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed { condition.wait() }
        guard head < items.count else { return nil }
        let element = items[head]
        head += 1
        if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        condition.broadcast()
        return element
    }

    /// Refuses further pushes, wakes every waiter and drops what is queued.
    func close() {
        condition.lock()
        closed = true
        items.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}
