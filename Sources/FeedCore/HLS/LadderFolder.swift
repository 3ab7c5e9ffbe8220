import Foundation

/// What `feed hls --force` may replace: a folder that holds only what a ladder holds
/// (`master.m3u8`, `manifest.mpd`, and rung and audio folders of playlists, init segments and
/// media segments, gzipped or not), or nothing. Anything else in it (a clip, notes, another
/// tool's files) means `-o` names the wrong folder, and replacing it would delete them.
enum LadderFolder {
    /// The first entry of `path` (relative to it) that no ladder holds; nil when `path` may be
    /// replaced (or does not exist).
    static func stranger(in path: String) -> String? {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else { return "." }
        guard let entries = try? fm.contentsOfDirectory(atPath: path) else { return "." }
        for entry in entries.sorted() {
            let full = path + "/" + entry
            var isSubfolder: ObjCBool = false
            _ = fm.fileExists(atPath: full, isDirectory: &isSubfolder)
            if !isSubfolder.boolValue {
                if !topFiles.contains(entry) && !topFiles.contains(where: { entry == $0 + ".gz" }) { return entry }
                continue
            }
            guard let files = try? fm.contentsOfDirectory(atPath: full) else { return entry }
            for file in files.sorted() {
                var nested: ObjCBool = false
                _ = fm.fileExists(atPath: full + "/" + file, isDirectory: &nested)
                if nested.boolValue || !isRungFile(file) { return entry + "/" + file }
            }
        }
        return nil
    }

    /// Whether `input` lies inside the folder `output` (after resolving links).
    static func contains(_ output: String, _ input: String) -> Bool {
        let folder = URL(fileURLWithPath: output).resolvingSymlinksInPath().path
        let file = URL(fileURLWithPath: input).resolvingSymlinksInPath().path
        return file.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    private static let topFiles: Set<String> = ["master.m3u8", "manifest.mpd"]

    private static func isRungFile(_ name: String) -> Bool {
        let base = name.hasSuffix(".gz") ? String(name.dropLast(3)) : name
        return base.hasSuffix(".m3u8") || base.hasSuffix(".mp4") || base.hasSuffix(".m4s")
    }
}
