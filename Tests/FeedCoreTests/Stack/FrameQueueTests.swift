import Foundation
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
    func close() {
        let queue = FrameQueue<Int>(capacity: 1)
        queue.push(1)
        let done = DispatchSemaphore(value: 0)
        let producer = Thread { _ = queue.push(2); done.signal() }
        producer.start()

        Thread.sleep(forTimeInterval: 0.05)
        queue.close()
        done.wait()

        #expect(queue.push(3) == false)
        #expect(queue.pop() == nil && queue.peek() == nil)
    }
}
