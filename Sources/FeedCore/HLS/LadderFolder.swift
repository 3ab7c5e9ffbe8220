import Foundation

/// The names a ladder's files have, and what `feed hls --force` may replace: a folder holding a
/// ladder `feed hls` wrote (`master.m3u8`, maybe `manifest.mpd`, and rung and audio folders of
/// `index.m3u8`, `init.mp4` and `segment_NNNNN.m4s`) and nothing else, or an empty folder.
/// Anything else in it (a clip, notes, another tool's files) means `-o` names the wrong folder,
/// and replacing it would delete them.
public enum LadderFolder {
    /// `720p`: digits then `p`, as ``HLSRung`` names them, or `audio`, the audio rendition.
    public static func isRungName(_ text: String) -> Bool {
        text == HLSVariant.audioFolder
            || text.count >= 2 && text.count <= 5 && text.last == "p" && text.dropLast().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `index.m3u8`, `init.mp4` or `segment_` + five to nine digits + `.m4s`.
    public static func isFileName(_ text: String) -> Bool {
        if text == "index.m3u8" || text == "init.mp4" { return true }
        guard text.hasPrefix("segment_"), text.hasSuffix(".m4s") else { return false }
        let digits = text.dropFirst("segment_".count).dropLast(".m4s".count)
        return digits.count >= 5 && digits.count <= 9 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Why `path` may not be replaced by a ladder: the first entry (relative to it) that no ladder
    /// holds, `.` when it is not a readable folder, or `master.m3u8` when a non-empty folder has
    /// none; nil when it may be replaced (or does not exist).
    static func stranger(in path: String) -> String? {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue, let entries = try? fm.contentsOfDirectory(atPath: path) else { return "." }
        if entries.isEmpty { return nil }
        for entry in entries.sorted() {
            if entry == HLSMaster.fileName || entry == DASHManifest.fileName { continue }
            guard isRungName(entry), let files = try? fm.contentsOfDirectory(atPath: path + "/" + entry) else { return entry }
            if let file = files.sorted().first(where: { !isFileName($0) }) { return entry + "/" + file }
        }
        return entries.contains(HLSMaster.fileName) ? nil : "no master.m3u8"
    }

    /// Whether `input` lies inside the folder `output` (after resolving links).
    static func contains(_ output: String, _ input: String) -> Bool {
        let folder = URL(fileURLWithPath: output).resolvingSymlinksInPath().path
        let file = URL(fileURLWithPath: input).resolvingSymlinksInPath().path
        return file.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
