import FeedCore

/// A runner's checks of its own means (``RunnerSelfCheck``): when it stops claiming, why, and
/// when it claims again (see ``JobRunner``).
extension JobRunner {
    /// Why this runner does not claim work now (a fault of its own: ``RunnerSelfCheck``), or nil.
    public var stoppedReason: String? { stopped?.reason }

    /// The checks of this runner's own means, against its roll and scratch folder.
    var selfCheck: RunnerSelfCheck { RunnerSelfCheck(roll: roll, scratch: scratch) }

    /// While stopped: checks again; claims again once the checks pass.
    func recheck() async {
        if let problem = await ownProblem() {
            stopped = (problem, .now)
        } else {
            stopped = nil
            log?("claiming again: its own checks pass")
        }
    }


    /// Whether `error` may come from the machine rather than the job: a file missing or
    /// unreadable, a store not answering, a write refused, FFmpeg unusable. Bad media, bad
    /// options and the like are the job's.
    static func mayBeTheRunners(_ error: any Error) -> Bool {
        guard let kind = (error as? any FeedFailure)?.kind else { return false }
        return [.missingInput, .unavailable, .cannotCreate, .io].contains(kind)
    }

    /// What the self-check finds wrong with this runner, run on its work pool (its file steps
    /// block; no work runs here while it is stopped, and a slot was just freed otherwise).
    func ownProblem() async -> String? {
        let check = selfCheck, pool = pool
        return await withTaskExecutorPreference(pool) { await check.problem() }
    }
}
