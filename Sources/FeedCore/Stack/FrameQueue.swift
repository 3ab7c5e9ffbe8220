import Foundation

/// A bounded, blocking first-in first-out queue between one producer thread and one consumer:
/// a fixed ring of `capacity` slots, so memory never grows. `close()` wakes both sides; after it,
/// pushes are refused and what was queued is dropped.
final class FrameQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var slots: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false
    private var blocked = 0

    init(capacity: Int) {
        slots = Array(repeating: nil, count: max(1, capacity))
    }

    /// Waits for room, then appends. Returns false if the queue was closed.
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == slots.count && !closed { wait() }
        if closed { return false }
        slots[(head + count) % slots.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// Waits for an element and returns it without removing it; nil once closed.
    func peek() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { wait() }
        return count > 0 ? slots[head] : nil
    }

    /// Removes and returns the first element, waiting for one; nil once closed.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { wait() }
        guard count > 0 else { return nil }
        let element = slots[head]
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        condition.broadcast()
        return element
    }

    /// How many threads wait in `push`, `peek` or `pop` right now: a test's sign that a side
    /// has blocked.
    var waiters: Int {
        condition.lock()
        defer { condition.unlock() }
        return blocked
    }

    /// Waits on the condition (locked by the caller), counted in `waiters`.
    private func wait() {
        blocked += 1
        condition.wait()
        blocked -= 1
    }

    /// Refuses further pushes, drops what is queued and wakes every waiter.
    func close() {
        condition.lock()
        closed = true
        for i in slots.indices { slots[i] = nil }
        count = 0
        condition.broadcast()
        condition.unlock()
    }
}
