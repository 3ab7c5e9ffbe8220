/// One request's claim on an upload (see ``UploadRecordStore``): the token its changes carry,
/// and whether the claim was lost since (a renewal refused: this request stalled past its
/// lease and another may have taken the upload). Whoever writes under the claim registers what
/// to stop with ``whenLost(_:)``.
final class UploadClaim: Sendable {
    let id: String
    let token: String
    private let state = Locked<(lost: Bool, action: (@Sendable () -> Void)?)>((false, nil))
    private let progress = Locked<(@Sendable () -> Int64)?>(nil)

    init(id: String, token: String) {
        self.id = id
        self.token = token
    }

    /// Whether the claim was lost.
    var isLost: Bool { state.withLock { $0.lost } }

    /// Runs `action` when the claim is lost (at once if it already was); replaces an earlier action.
    func whenLost(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.lost { return true }
            state.action = action
            return false
        }
        if now { action() }
    }

    /// Says where the bytes written under the claim are durable up to (a writer's last sync):
    /// each renewal records it in the catalog, for a `HEAD` on another server.
    func reportSynced(_ synced: @escaping @Sendable () -> Int64) {
        progress.withLock { $0 = synced }
    }

    /// What ``reportSynced(_:)`` says now; nil before it was called.
    var synced: Int64? { progress.withLock { $0 }?() }

    /// Marks the claim lost and runs the registered action once.
    func lose() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.lost else { return nil }
            state.lost = true
            defer { state.action = nil }
            return state.action
        }
        action?()
    }
}
