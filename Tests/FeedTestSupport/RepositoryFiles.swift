import Foundation

/// Where the tests find the repository's own files, wherever it was cloned.
public enum RepositoryFiles {
    /// The package root, computed from this file's path
    /// (`<repo>/Tests/FeedTestSupport/RepositoryFiles.swift`).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `<repo>/Fixtures/<name>`; `name` may contain `/` (`formats/pexels-search.json`).
    public static func fixture(_ name: String) -> URL {
        root.appendingPathComponent("Fixtures").appendingPathComponent(name)
    }
}
