import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``CommentStore``, run against every implementation in ``CatalogFactory/all``.
@Suite("CommentStore (every implementation)")
struct CommentStoreTests {
    @Test("numbers count up from 1; after: reads only what is newer, before: pages newest first", arguments: CatalogFactory.all)
    func paging(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        var numbers: [Int64] = []
        for n in 1...7 { numbers.append(try await store.addComment(username: "u\(n)", text: "c\(n)")) }
        #expect(numbers == Array(1...7))

        #expect(try await store.storedComments().map(\.text) == (1...7).map { "c\($0)" })
        #expect(try await store.storedComments(after: 5, limit: nil).map(\.number) == [6, 7])
        #expect(try await store.storedComments(after: 2, limit: 2).map(\.number) == [3, 4])
        #expect(try await store.storedComments(after: 7, limit: nil).isEmpty)

        #expect(try await store.storedComments(before: nil, limit: 3).map(\.number) == [7, 6, 5])
        #expect(try await store.storedComments(before: 5, limit: 3).map(\.number) == [4, 3, 2])
        #expect(try await store.storedComments(before: 2, limit: 3).map(\.number) == [1])
        #expect(try await store.storedComments(before: 1, limit: 3).isEmpty)
        let one = try #require(try await store.storedComments(before: 4, limit: 1).first)
        #expect(one.username == "u3" && one.text == "c3")
    }
}
