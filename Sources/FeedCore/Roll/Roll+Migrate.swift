import Foundation

extension Roll {
    /// What ``migrate(to:progress:)`` did with one recording.
    public enum MigrationStep: Sendable, Equatable {
        /// Copied, its SHA-256 checked against the row's before it was published there.
        case copied(id: Int64, fileName: String, bytes: Int64)
        /// Already there with the row's size (a run cut short, resumed): left as it is.
        case present(id: Int64, fileName: String)
        /// Not copied: the bytes here are missing or are not the row's (what `verify` would say).
        case failed(id: Int64, fileName: String, reason: String)
    }

    /// Copies every recording's bytes to `destination` (another media store: a bucket, a
    /// folder), each published there only once its SHA-256 equals its row's, oldest first.
    /// Recordings already there with their size are skipped, so a migration cut short is
    /// resumed by running it again. Rows are not changed: the catalog names media by key, the
    /// same in every store, so switching `--media` to the destination is the switch. Derived
    /// media (posters, ladders, fast-start copies) are not copied: they are made again there.
    /// `progress` sees each step as it ends.
    public func migrate(to destination: any MediaStore, progress: @Sendable (MigrationStep) -> Void = { _ in }) async throws(RollError) -> [MigrationStep] {
        let rows = try await catalog.recordings(after: nil, limit: nil).sorted { $0.id < $1.id }
        var steps: [MigrationStep] = []
        for row in rows {
            let key = MediaKey.recording(row.fileName)
            let step: MigrationStep
            if destination.size(of: key)?.bytes == row.bytes {
                step = .present(id: row.id, fileName: row.fileName)
            } else {
                do throws(RollError) {
                    guard media.exists(key) else { throw RollError.missingFile(path: media.address(of: key)) }
                    let expected = row.sha256
                    let shown = media.address(of: key)
                    let placed = try await destination.put(key, from: media.localFile(for: key), mode: .copy) { sha256, _ throws(RollError) in
                        guard sha256 == expected else {
                            throw RollError.io(path: shown, reason: "its bytes are not the recording's (sha256 \(sha256.prefix(12))…, expected \(expected.prefix(12))…): run feed roll verify")
                        }
                    }
                    step = .copied(id: row.id, fileName: row.fileName, bytes: placed.bytes)
                } catch {
                    step = .failed(id: row.id, fileName: row.fileName, reason: error.description)
                }
            }
            progress(step)
            steps.append(step)
        }
        return steps
    }
}
