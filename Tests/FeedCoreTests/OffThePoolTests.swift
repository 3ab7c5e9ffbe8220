import Foundation
import FeedTestSupport
import Testing

/// `.offThePool` moves a suite's synchronous test bodies onto the heavy-test threads.
@Suite("offThePool", .offThePool)
struct OffThePoolTests {
    @Test("a synchronous test body of an .offThePool suite runs on a heavy-test thread")
    func synchronousBody() {
        #expect(Thread.current.name == "test.heavy")
    }

    @Test("offThePool { } runs its work on a heavy-test thread")
    func function() async {
        let name = await offThePool { Thread.current.name }
        #expect(name == "test.heavy")
    }
}
