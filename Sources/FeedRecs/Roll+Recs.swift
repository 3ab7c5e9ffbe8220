import FeedCore

extension Roll {
    /// The roll's catalog as an events and models store (both catalogs are one).
    /// - Throws: ``RecsError/store(_:)`` (unavailable) for a catalog that keeps no events.
    public func recsStore() throws(RecsError) -> any RecsStore {
        guard let store = catalog as? any RecsStore else {
            throw RecsError.store(.store(message: "this catalog keeps no events", kind: .unavailable))
        }
        return store
    }
}
