/// What a viewer said no to, for good: the videos marked `not_interested` and the creators
/// (authors) of the videos marked `hide_creator`. Neither comes back in their For You.
public struct ViewerSignals: Sendable, Equatable {
    /// Videos marked "not interested".
    public var notInterested: Set<Int64>
    /// Authors hidden ("hide this creator").
    public var hiddenCreators: Set<String>

    /// Signals.
    public init(notInterested: Set<Int64> = [], hiddenCreators: Set<String> = []) {
        self.notInterested = notInterested
        self.hiddenCreators = hiddenCreators
    }
}
