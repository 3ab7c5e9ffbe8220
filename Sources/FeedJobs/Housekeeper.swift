import FeedCore
import Foundation

/// What a runner cleans up beside its jobs: leases that expired (their jobs go back to the
/// queue), outputs that attempts which never completed renamed into `recordings/`, the
/// `.jobs/` folders of workers long gone, and, at start, what dead processes of this host left.
/// Every step is safe to run on many workers at once: the catalog's rows decide what is whose.
struct Housekeeper: Sendable {
    let roll: Roll
    let worker: WorkerIdentity
    let log: (@Sendable (String) -> Void)?

    /// How long a worker's empty `.jobs/` folder stays after its last change when no running job
    /// names that worker.
    static let goneWorkerFolderAge: TimeInterval = 3600

    /// This worker's folder for outputs being written: `recordings/.jobs/<worker>/`.
    var scratch: URL { roll.paths.jobs.appendingPathComponent(worker.description, isDirectory: true) }

    /// How long media staged in the store (a ladder being packaged, a storyboard, a copy) may go
    /// unwritten before it counts as left by a process that died (a packaging writes a segment
    /// every few seconds, a copy many blocks a second).
    static let abandonedStagingAge: TimeInterval = 3600

    /// One round: takes back expired leases, then removes abandoned outputs and empty folders.
    func sweep() async {
        if let n = try? await roll.catalog.reapExpired(), n > 0 { log?("took back \(n) job(s) whose lease expired") }
        await removeAbandonedOutputs()
        await removeFoldersOfGoneWorkers()
        removeAbandonedStaging()
    }

    /// Removes the media store's staged work that nothing has written for
    /// ``abandonedStagingAge`` (a worker killed mid-ladder). Staged names carry no host, so age,
    /// not a pid, decides: work on another machine sharing the store is never taken for dead.
    func removeAbandonedStaging(now: Date = Date()) {
        let media = roll.media
        for name in media.incomplete() {
            guard let changed = media.lastChange(ofIncomplete: name), now.timeIntervalSince(changed) > Self.abandonedStagingAge else { continue }
            if (try? media.discardIncomplete(name)) != nil { log?("removed staged media \(name), unwritten for an hour (its process died)") }
        }
    }

    /// Removes the files that attempts which never completed renamed into `recordings/` (their
    /// worker died between the rename and the completion): rows say which, so no file that a
    /// recording owns is touched.
    func removeAbandonedOutputs() async {
        guard let abandoned = try? await roll.catalog.abandonedOutputs() else { return }
        for (id, name) in abandoned {
            do {
                try roll.removeAbandonedOutput(named: name)
                try await roll.catalog.forgetOutput(id: id, name: name)
                log?("job \(id): removed \(name), left by an attempt that did not complete")
            } catch {
                log?("job \(id): cannot remove \(name): \(error.description)")
            }
        }
    }

    /// Removes the `.jobs/` folders of workers that hold no running job and in which nothing has
    /// been written for ``goneWorkerFolderAge``, with what they hold: the half-written outputs of
    /// processes on other machines or in other containers that died (a restarted container is a
    /// new pid namespace, so a new name). A worker that is writing touches its file every few
    /// seconds, and one that holds a job is never looked at, so nothing in use is removed.
    func removeFoldersOfGoneWorkers(now: Date = Date()) async {
        guard let held = try? await roll.catalog.jobs(state: .running, limit: nil) else { return }
        let busy = Set(held.compactMap(\.worker) + [worker.description])
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: roll.paths.jobs.path)) ?? [] where !busy.contains(name) && WorkerIdentity(name) != nil {
            let folder = roll.paths.jobs.appendingPathComponent(name)
            guard let newest = Self.lastChange(in: folder), now.timeIntervalSince(newest) > Self.goneWorkerFolderAge else { continue }
            let left = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
            guard (try? fm.removeItem(at: folder)) != nil else { continue }
            log?(left.isEmpty ? "removed \(name)'s empty outputs folder (no running job, untouched for an hour)"
                              : "removed \(name)'s outputs folder and the \(left.count) file(s) its process left (no running job, untouched for an hour)")
        }
    }

    /// The newest modification time of `folder` and of what is directly in it.
    static func lastChange(in folder: URL) -> Date? {
        let fm = FileManager.default
        guard var newest = (try? fm.attributesOfItem(atPath: folder.path))?[.modificationDate] as? Date else { return nil }
        for entry in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
            if let changed = (try? fm.attributesOfItem(atPath: folder.appendingPathComponent(entry).path))?[.modificationDate] as? Date {
                newest = max(newest, changed)
            }
        }
        return newest
    }

    /// Takes back what dead processes of this host left: their running jobs (at once, not after
    /// their lease) and their half-written outputs under `.jobs/`.
    func takeBackFromDeadProcesses() async {
        let jobs = roll.catalog
        if let held = try? await jobs.jobs(state: .running, limit: nil) {
            let dead = Set(held.compactMap { $0.worker }.filter { WorkerIdentity($0)?.isDeadLocalProcess == true })
            if !dead.isEmpty, let n = try? await jobs.reclaim(fromWorkers: Array(dead)), n > 0 {
                log?("took back \(n) job(s) of exited process(es) \(dead.sorted().joined(separator: ", "))")
            }
        }
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: roll.paths.jobs.path)) ?? [] {
            let url = roll.paths.jobs.appendingPathComponent(name)
            if let owner = WorkerIdentity(name) {
                if owner.isDeadLocalProcess || owner == worker { try? fm.removeItem(at: url) }
            } else if let modified = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                      Date().timeIntervalSince(modified) > 3600 {
                try? fm.removeItem(at: url) // an output of an older feed's layout
            }
        }
    }

    /// Removes this worker's scratch folder (at shutdown, once no attempt runs).
    func removeScratch() {
        try? FileManager.default.removeItem(at: scratch)
    }
}
