import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

@Suite("FrameQueue")
struct FrameQueueTests {
    @Test("keeps order across many wraps of its ring while a producer thread blocks on a full queue")
    func order() {
        let queue = FrameQueue<Int>(capacity: 3)
        let producer = Thread { for i in 0..<1000 { queue.push(i) } }
        producer.start()

        var received: [Int] = []
        while received.count < 1000, let value = queue.pop() {
            if received.count % 7 == 0 { #expect(value == 999 || queue.peek() == value + 1) }
            received.append(value)
        }

        #expect(received == Array(0..<1000))
    }

    @Test("close wakes a blocked producer and consumer; later pushes are refused")
    func close() async throws {
        let queue = FrameQueue<Int>(capacity: 1)
        queue.push(1)
        let done = Locked(false)
        let producer = Thread { _ = queue.push(2); done.withLock { $0 = true } }
        producer.start()

        #expect(try await waitUntil(timeout: 10, every: 0.005) { queue.waiters == 1 }, "the producer never blocked")
        queue.close()
        #expect(try await waitUntil(timeout: 10) { done.withLock { $0 } }, "close did not wake the producer")

        #expect(queue.push(3) == false)
        #expect(queue.pop() == nil && queue.peek() == nil)
    }
}
