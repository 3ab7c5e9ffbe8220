import Foundation

/// The container a file's first bytes show, as the extension a stored file gets: what an
/// upload is named by, rather than the `filename` its client claimed (a clip uploaded as
/// `x.webm` that is an MP4 must be stored, and served, as `video/mp4`).
public enum ContainerSniffer {
    /// How far into the EBML header the WebM DocType is looked for.
    static let headLength = 64

    /// `mp4`, `mov`, `webm`, `mkv`, `ts`, `avi` or `flv` when the first bytes of `path` are one
    /// of those containers' signatures; nil when they are none (or the file cannot be read).
    public static func fileExtension(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 189)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return fileExtension(ofHead: Array(head[..<count]))
    }

    /// The same for bytes already read (the file's first up to 189).
    public static func fileExtension(ofHead head: [UInt8]) -> String? {
        func ascii(_ range: Range<Int>) -> String? {
            range.upperBound <= head.count ? String(decoding: head[range], as: UTF8.self) : nil
        }
        // ISO BMFF: a box size, then `ftyp` and the major brand (`qt  ` for QuickTime).
        if ascii(4..<8) == "ftyp" { return ascii(8..<12) == "qt  " ? "mov" : "mp4" }
        // QuickTime files from before `ftyp`: the first box is the movie, free space or media.
        if let box = ascii(4..<8), ["moov", "mdat", "wide", "free", "skip"].contains(box) { return "mov" }
        // EBML: Matroska, or WebM when its DocType says so (within the header's first bytes).
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            let text = head.prefix(headLength)
            let webm = Array("webm".utf8)
            let found = text.indices.contains { start in text[start...].starts(with: webm) }
            return found ? "webm" : "mkv"
        }
        if ascii(0..<4) == "RIFF", ascii(8..<12) == "AVI " { return "avi" }
        if ascii(0..<3) == "FLV" { return "flv" }
        // MPEG-TS: a sync byte at the start of two consecutive 188-byte packets.
        if head.count > 188, head[0] == 0x47, head[188] == 0x47 { return "ts" }
        return nil
    }
}
