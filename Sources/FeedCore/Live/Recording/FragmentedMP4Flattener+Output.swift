import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FragmentedMP4Flattener {
    /// The size of the buffer media is copied through.
    static let copyBufferSize = 1 << 20

    /// Writes `ftyp`, the `moov` of `tracks`, and an `mdat` of `spans` of `file` to `path`
    /// (created or replaced), then syncs it; on failure the file is removed.
    /// - Throws: ``LiveRecordingError/cannotCreate(path:reason:)``, ``LiveRecordingError/cannotWrite(path:reason:)``,
    ///   ``LiveRecordingError/cannotRead(path:reason:)`` when the source shrank.
    static func writeOutput(_ tracks: [OutputTrack], spans: [Span], from file: Source, to path: String) throws(LiveRecordingError) {
        let fileType = fileType()
        let dataLength = spans.reduce(Int64(0)) { $0 + $1.length }
        // The 32-bit size holds the mdat unless its media reaches 4 GiB.
        let mdatHeader = dataLength <= Int64(UInt32.max) - 8 ? 8 : 16
        // The moov's size depends only on stco or co64, and its offsets on its size: size it, then write it.
        var wide = false
        var moovLength = movie(tracks, dataStart: 0, wide: false).count
        if Int64(fileType.count + moovLength + mdatHeader) + dataLength > Int64(UInt32.max) {
            wide = tracks.contains { track in
                track.table.chunks.contains { Int64(fileType.count + moovLength + mdatHeader) + $0.position > Int64(UInt32.max) }
            }
            if wide { moovLength = movie(tracks, dataStart: 0, wide: true).count }
        }
        let dataStart = Int64(fileType.count + moovLength + mdatHeader)
        let moov = movie(tracks, dataStart: dataStart, wide: wide)
        var header = CMAFBoxBuilder()
        if mdatHeader == 8 {
            header.u32(UInt32(dataLength + 8))
            header.fourCC("mdat")
        } else {
            header.u32(1)
            header.fourCC("mdat")
            header.u64(UInt64(dataLength + 16))
        }

        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        var done = false
        defer {
            close(descriptor)
            if !done { unlink(path) }
        }
        let url = URL(fileURLWithPath: path)
        func write(_ bytes: UnsafeRawBufferPointer) throws(LiveRecordingError) {
            do throws(RollError) { try DurableFile.writeAll(descriptor, bytes, url) } catch { throw .writing(path, error) }
        }
        for bytes in [fileType, moov, header.bytes] {
            let failure: LiveRecordingError? = bytes.withUnsafeBytes { buffer in
                do throws(LiveRecordingError) { try write(buffer) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: copyBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        for span in spans {
            var copied: Int64 = 0
            while copied < span.length {
                let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< Int(min(Int64(buffer.count), span.length - copied))])
                try file.read(into: chunk, at: span.offset + copied)
                try write(UnsafeRawBufferPointer(chunk))
                copied += Int64(chunk.count)
            }
        }
        guard fsync(descriptor) == 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        done = true
    }
}
