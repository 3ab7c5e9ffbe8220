import Foundation

/// A fresh empty folder under the system temporary directory for one test, removed with
/// everything in it when the value is released (keep it in a `let` for as long as the test
/// uses its files).
///
/// The one scratch-folder helper of both test targets:
/// ```swift
/// let folder = try ScratchFolder()
/// let feed = try folder.write("videos.json", text)   // a path
/// let out = folder.path("out.mp4")                   // a path, nothing created
/// #expect(folder.contents() == ["out.mp4", "videos.json"])
/// ```
public final class ScratchFolder: Sendable {
    /// The folder.
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// Creates a fresh empty folder, `<tmp>/feed-tests-<UUID>`.
    /// - Throws: when the folder cannot be created.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("feed-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The URL of `name` (which may contain `/`) inside the folder; nothing is created.
    public func url(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The path of `name` (which may contain `/`) inside the folder; nothing is created.
    public func path(_ name: String) -> String { url(name).path }

    /// Writes `text` as UTF-8 to `name` in the folder, replacing it; returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }

    /// Writes `bytes` to `name` in the folder, replacing it; returns its path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: url(name))
        return path(name)
    }

    /// The names in the folder, hidden ones too, sorted; empty if it cannot be read.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
