import Foundation

/// Empty folders under the system temporary directory, for tests that write files by path.
public enum ScratchFolder {
    /// A fresh empty folder's path; the caller removes it with ``remove(_:)``.
    public static func make() -> String {
        let path = NSTemporaryDirectory() + "feed-media-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes `folder` and everything in it; nothing happens if it is gone.
    public static func remove(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }

    /// The names in `folder`, hidden ones too, sorted; empty if it cannot be read.
    public static func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
