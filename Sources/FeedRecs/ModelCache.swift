import Foundation

/// The model a server serves: the catalog's newest, read once per version and kept in memory.
/// Each page asks the catalog for the newest version (one small query); a new one is read in
/// the background while pages go on with the one in hand, so serving never waits for it, except
/// for the first model a server reads.
public actor ModelCache {
    let store: any RecsStore
    private var current: RecsModel?
    private var loading: Task<RecsModel?, Never>?
    /// The last version that could not be read (not tried again).
    private var unreadable: Int64?

    /// A cache over `store`'s models.
    public init(store: any RecsStore) { self.store = store }

    /// The row of the model in hand (nil: none read yet).
    public var served: ModelInfo? { current?.info }

    /// The model to serve now: nil while none is trained.
    public func model() async -> RecsModel? {
        guard let latest = try? await store.latestModel() else { return current }
        if latest.version == current?.version || latest.version == unreadable { return current }
        let task = loading ?? startLoading(latest)
        if current == nil { return await task.value }
        return current
    }

    /// Reads the newest model now and serves it from the next page on; returns it.
    @discardableResult
    public func refresh() async -> RecsModel? {
        guard let latest = try? await store.latestModel() else { return current }
        if latest.version == current?.version { return current }
        if let loading { _ = await loading.value }
        if latest.version == current?.version { return current }
        return await startLoading(latest).value
    }

    private func startLoading(_ info: ModelInfo) -> Task<RecsModel?, Never> {
        let store = self.store
        let task = Task<RecsModel?, Never> {
            guard let bytes = try? await store.modelData(version: info.version) else { return nil }
            return try? RecsModel(decoding: bytes, info: info)
        }
        loading = task
        Task { await self.finished(task, info: info) }
        return task
    }

    private func finished(_ task: Task<RecsModel?, Never>, info: ModelInfo) async {
        let model = await task.value
        if loading == task { loading = nil }
        if let model {
            if model.info.version > (current?.info.version ?? 0) { current = model }
        } else {
            unreadable = info.version
        }
    }
}
