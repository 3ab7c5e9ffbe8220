import FeedCore

extension Roll {
    /// The roll's catalog as a social store (both catalogs are one).
    /// - Throws: ``SocialError/store(_:)`` (unavailable) for a catalog that keeps no posts.
    public func socialStore() throws(SocialError) -> any SocialStore {
        guard let store = catalog as? any SocialStore else {
            throw SocialError.store(.store(message: "this catalog keeps no posts", kind: .unavailable))
        }
        return store
    }
}
