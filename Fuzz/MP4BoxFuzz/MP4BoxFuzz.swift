import Foundation
@testable import FeedCore
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer entry point for feed's own MP4 box reader (no FFmpeg): the top-level walk
/// (`MP4Layout`), `moov` and its sample tables (`MP4Movie`: `preload_bytes`, chunk offsets) and
/// the fast-start rewrite (`FastStart.write`). `feed serve` runs all three on every uploaded
/// recording, so a trap here would end the server.
///
/// Each input is written to `input.mp4` in a private folder (under /dev/shm when it exists).
/// A crash, a trap, an ASan/LSan report or a libFuzzer timeout is a finding; so is a broken
/// invariant, which traps on purpose:
/// - the layout's boxes start at 0, follow each other without a gap, end within the file, and
///   `moov` is one of them; `index` is `end` exactly when an `mdat` comes before `moov`;
/// - `preload_bytes`, when known, is more than 0 and at most the file's size;
/// - `FastStart.write` either fails with `notMedia` or `refused` (one line naming the input)
///   and leaves no output, or writes a file of the input's size whose `moov` leads.
@_cdecl("LLVMFuzzerTestOneInput")
public func mp4BoxFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = MP4FuzzFiles.folder + "/input.mp4", output = MP4FuzzFiles.folder + "/output.mp4"
    MP4FuzzFiles.write(data, size, to: input)
    defer { unlink(input); unlink(output) }

    let layout = MP4Layout.of(path: input)
    if let layout { checkLayout(layout, size: Int64(size)) }
    if let preload = FastStart.preloadBytes(path: input) {
        require(preload > 0 && preload <= Int64(size), "preload_bytes \(preload) of a \(size)-byte file")
        require(layout != nil, "preload_bytes without a layout")
    }
    do {
        let outcome = try FastStart.write(input: input, output: output)
        require(layout != nil, "fast start of a file with no layout")
        var info = stat()
        require(stat(output, &info) == 0 && Int(info.st_size) == size, "the output is not the input's size")
        let written = MP4Layout.of(path: output)
        require(written?.index == .start, "moov does not lead in the output (\(outcome))")
    } catch {
        switch error {
        case .notMedia(let path, _), .refused(let path, _): require(path == input, "the error names \(path)")
        default: require(false, "FastStart.write threw \(error)")
        }
        let line = error.description
        require(!line.isEmpty && !line.contains("\n") && line.contains(input), "error text: \(line)")
        require(access(output, F_OK) != 0, "a failed write left its output")
    }
    return 0
}

/// The layout's promises.
func checkLayout(_ layout: MP4Layout, size: Int64) {
    var next: Int64 = 0
    for box in layout.boxes {
        require(box.offset == next && box.length >= 8 && box.length <= size - box.offset, "box \(box) after \(next)")
        next = box.end
    }
    require(layout.boxes.contains { $0.type == "moov" && $0.offset == layout.moovOffset }, "moov is not one of the boxes")
    let mdatFirst = layout.mdatOffset.map { $0 < layout.moovOffset } ?? false
    require((layout.index == .end) == mdatFirst, "index \(layout.index) with mdat at \(String(describing: layout.mdatOffset))")
}

/// Traps with `message` unless `condition` holds: a broken invariant is a finding.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant: \(message())") }
}

/// The private folder the inputs are written in; removed at exit.
enum MP4FuzzFiles {
    static let folder: String = {
        var base = "/dev/shm"
        if access(base, W_OK) != 0 { base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp" }
        var template = Array("\(base)/feed-mp4-fuzz-\(getpid())-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { fatalError("harness: cannot create a folder in \(base)") }
        template.removeLast()  // the NUL
        let folder = String(decoding: template.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        atexit { rmdir(MP4FuzzFiles.folder) }
        return folder
    }()

    static func write(_ data: UnsafePointer<UInt8>?, _ size: Int, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fatalError("harness: cannot write \(path)") }
        defer { close(fd) }
        var done = 0
        while done < size, let data {
            let n = Glibc.write(fd, data + done, size - done)
            guard n > 0 else { fatalError("harness: write failed") }
            done += n
        }
    }
}
