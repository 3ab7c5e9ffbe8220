/// What storing a batch of events did.
public struct EventOutcome: Sendable, Equatable {
    /// Events stored now.
    public var accepted: Int
    /// Events whose id this sender had sent before: counted once, the first time.
    public var duplicates: Int
    /// Plays counted (new `watch` events of posts): each is one more in a post's `views`.
    public var plays: Int

    /// An outcome.
    public init(accepted: Int = 0, duplicates: Int = 0, plays: Int = 0) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.plays = plays
    }
}
