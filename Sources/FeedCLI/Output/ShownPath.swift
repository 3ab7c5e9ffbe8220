import Foundation

/// How a path the program found (not one the user typed) is shown in a table: relative to the
/// current folder when it lies under it, else as it is.
enum ShownPath {
    /// `path` relative to `folder` (default: the current folder) when it is inside it; other
    /// paths, relative paths and URLs unchanged.
    static func relative(_ path: String, to folder: String = FileManager.default.currentDirectoryPath) -> String {
        guard path.hasPrefix("/"), folder.hasPrefix("/") else { return path }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        guard path.hasPrefix(base), path.count > base.count else { return path }
        return String(path.dropFirst(base.count))
    }
}
