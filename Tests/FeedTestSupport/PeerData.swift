import Foundation
import Testing

/// The app teams' published mock data, `<repo>/../shared/peer-data`. CI checks the decoders
/// against it as well as against ``FormatFixture``; a fresh clone has no such folder, so tests
/// over it carry the ``Testing/Trait/peerDataIsPresent`` trait and are skipped there.
public enum PeerData {
    /// `<repo>/../shared/peer-data`.
    public static let folder: URL = RepositoryFiles.root.deletingLastPathComponent()
        .appendingPathComponent("shared/peer-data")

    /// Whether ``folder`` exists and is a folder.
    public static var isPresent: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The file `name` of the folder.
    public static func file(_ name: String) -> URL { folder.appendingPathComponent(name) }
}

extension Trait where Self == ConditionTrait {
    /// `.enabled(if:)` on ``PeerData/isPresent``: runs the test where `../shared/peer-data`
    /// sits beside the repository (CI, the shared workspace), else skips it saying why.
    public static var peerDataIsPresent: Self {
        .enabled(if: PeerData.isPresent,
                 "no ../shared/peer-data beside the repository (a fresh clone): the peer teams' files are a second check; Fixtures/formats covers every format")
    }
}
