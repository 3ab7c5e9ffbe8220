/// Comments people post (over HTTP), kept beside the roll so they outlive a restart and
/// `feed comments` shows them after the feed's own.
public protocol CommentStore: Sendable {
    /// Stores a comment and returns its number (1, 2, … in posting order).
    func addComment(username: String, text: String, owner: String?) async throws(RollError) -> Int64
    /// The stored comments numbered above `after`, oldest first, `limit` at most (nil: all):
    /// what a live stream reads each time, only what is new since it last looked.
    func storedComments(after: Int64, limit: Int?) async throws(RollError) -> [(number: Int64, username: String, text: String)]
    /// The stored comments numbered below `before` (nil: from the newest), newest first,
    /// `limit` at most: a page of `GET /comments?limit=`.
    func storedComments(before: Int64?, limit: Int) async throws(RollError) -> [(number: Int64, username: String, text: String)]
}

extension CommentStore {
    /// Stores one of the server's own comments (no owner).
    public func addComment(username: String, text: String) async throws(RollError) -> Int64 {
        try await addComment(username: username, text: text, owner: nil)
    }

    /// Every stored comment, oldest first, with its number.
    public func storedComments() async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        try await storedComments(after: 0, limit: nil)
    }
}
